import Foundation
import Testing
@testable import MapData

/// Compares the counts MapData gets through libreadosm with pyosmium's (`scripts/osm_counts.py`), an
/// independent reader. Cancelled (reported as skipped, with the reason) when python3 or pyosmium is
/// not installed: `pip install osmium`.
@Suite("Cross-check with pyosmium")
struct OsmiumCrossCheckTests {
    @Test("raw counts equal pyosmium's exactly on the Helsinki extract")
    func countsMatchOsmium() throws {
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/osm_counts.py").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, Fixtures.helsinkiPath]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let stdout = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: break
        case 3: try Test.cancel("skipped: \(stderr.trimmingCharacters(in: .whitespacesAndNewlines))")
        case 127: try Test.cancel("skipped: python3 is not on PATH (\(stderr))")
        default:
            Issue.record("osm_counts.py exited \(process.terminationStatus): \(stderr)")
            return
        }
        let json = try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
        let ours = try Fixtures.helsinki.get().counts.dictionary
        for (key, value) in ours.sorted(by: { $0.key < $1.key }) {
            let theirs = try #require(json[key] as? Int, "osm_counts.py did not print \(key)")
            #expect(value == theirs, "\(key): MapData \(value), pyosmium \(theirs)")
        }
    }
}
