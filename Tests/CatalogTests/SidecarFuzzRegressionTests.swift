@testable import Catalog
import Foundation
import Testing
import TestSupport

/// FuzzSidecar's find (2026-12-01): a `capture_time` with 45 fraction digits made ICU's date parser
/// die of SIGFPE inside `ISO8601DateFormatter.date(from:)`, killing `index` on one hostile sidecar. The
/// text is now checked for the RFC 3339 shape (at most 9 fraction digits) before ICU sees it.
@Suite struct SidecarFuzzRegressionTests {
    static let crash = #"{"latitude": 60.17, "longitude": 24.95, "altitude_meters": 12, "heading_degrees": 10, "capture_time": "2026-06-15T09:15:00.288888888888888888888888888888888888888888850+03:00", "sequence_id": "s", "sequence_index": 3, "source": "photo"}"#

    @Test func aLongFractionIsRefusedNotACrash() throws {
        let path = try Lookaround.temporaryDirectory().appendingPathComponent("p.json").path
        try Self.crash.write(toFile: path, atomically: true, encoding: .utf8)
        let sidecar = try PanoramaSidecar.read(path)
        #expect(sidecar.parsedCaptureTime == nil)
        #expect(SceneRequest.captureDate(parsing: "2026-06-15T09:15:00.288888888888888888888888888888888888888888850+03:00",
                                         endOfDay: false) == nil)
    }

    @Test func theFormsSidecarsUseStillParse() {
        let expected = Date(timeIntervalSince1970: 1_715_508_930)  // 2024-05-12T10:15:30Z
        for text in ["2024-05-12T10:15:30Z", "2024-05-12T13:15:30+03:00", "2024-05-12T10:15:30.000Z",
                     "2024-05-12T10:15:30.123456789Z"] {
            #expect(PanoramaSidecar.isInternetDateTime(text), "\(text)")
            var sidecar = try? JSONDecoder().decode(PanoramaSidecar.self, from: Data(#"{"capture_time": "\#(text)"}"#.utf8))
            if sidecar == nil { sidecar = try? JSONDecoder().decode(PanoramaSidecar.self, from: Data(#"{"latitude": 60, "longitude": 24, "capture_time": "\#(text)"}"#.utf8)) }
            let date = try? #require(sidecar?.parsedCaptureTime, "\(text)")
            if let date { #expect(abs(date.timeIntervalSince(expected)) < 1, "\(text)") }
        }
        for text in ["2024-05-12", "2024-05-12T10:15Z", "2024-05-12T10:15:30.1234567890Z", "2024-05-12 10:15:30Z", ""] {
            #expect(!PanoramaSidecar.isInternetDateTime(text), "\(text)")
        }
        #expect(SceneRequest.captureDate(parsing: "2024-05-12", endOfDay: false) != nil)
        #expect(SceneRequest.captureDate(parsing: "2024-05-12T10:15:30Z", endOfDay: false) == expected)
    }
}
