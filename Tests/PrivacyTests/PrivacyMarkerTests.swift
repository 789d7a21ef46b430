import Foundation
import Imaging
import Testing
@testable import Privacy

@Suite struct PrivacyMarkerTests {
    @Test func aMarkerRoundTripsThroughAPhotoWithoutXMP() throws {
        let image = RGB8Image(width: 32, height: 16, fill: 90)
        let jpeg = try JPEGCodec.encode(image, quality: 90)
        let region = PrivacyRegion(id: "f1", kind: .face, score: 0.9, box: PixelBox(x: 1, y: 2, width: 3, height: 4),
                                   blocks: PixelBox(x: 0, y: 0, width: 16, height: 16), state: .blurred)
        let marker = PrivacyMarker(blurred: true, software: "test", detectors: "none", date: "2026-12-07T10:00:00Z", regions: [region])
        let written = try marker.written(into: jpeg, file: nil)
        #expect(PrivacyMarker.read(fromJPEG: written) == marker)
        #expect(PrivacyMarker.read(fromJPEG: jpeg) == nil)
    }
}
