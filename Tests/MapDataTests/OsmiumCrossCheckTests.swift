import Foundation
import Testing
import TestSupport
@testable import MapData

/// Compares the counts MapData gets through libreadosm with pyosmium's (`scripts/osm_counts.py`), an
/// independent reader. Cancelled (reported as skipped, with the reason) when python3 or pyosmium is
/// not installed: `pip install osmium`.
@Suite("Cross-check with pyosmium")
struct OsmiumCrossCheckTests {
    /// Runs `scripts/osm_counts.py` on the Helsinki extract, also writing an XML copy to `xmlCopy`;
    /// cancels the test when python3 or pyosmium is missing.
    func runCountScript(xmlCopy: String) throws -> [String: Any] {
        let script = Fixtures.packageRoot.appendingPathComponent("scripts/osm_counts.py").path
        let stdout = try PeerScript.run(script, [Fixtures.helsinkiPath, "--xml-copy", xmlCopy])
        return try #require(try JSONSerialization.jsonObject(with: stdout) as? [String: Any])
    }

    @Test("raw counts equal pyosmium's exactly; the XML copy gives the same dataset as the PBF")
    func countsMatchOsmium() throws {
        let directory = try Fixtures.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let xmlPath = directory.appendingPathComponent("helsinki-centre.osm").path
        let json = try runCountScript(xmlCopy: xmlPath)
        let pbf = try Fixtures.helsinki.get()
        let ours = pbf.counts.dictionary
        for (key, value) in ours.sorted(by: { $0.key < $1.key }) {
            let theirs = try #require(json[key] as? Int, "osm_counts.py did not print \(key)")
            #expect(value == theirs, "\(key): MapData \(value), pyosmium \(theirs)")
        }

        // The same data as XML (written by pyosmium) goes through libreadosm's expat path.
        let xml = try MapDataset(contentsOfFile: xmlPath)
        #expect(xml.counts == pbf.counts)
        #expect(xml.featureCounts == pbf.featureCounts)
        #expect(xml.places.map(\.name) == pbf.places.map(\.name))
        #expect(xml.buildings.map(\.heightMeters) == pbf.buildings.map(\.heightMeters))
        var largestShift = 0.0
        for (a, b) in zip(xml.streets, pbf.streets) {
            for (p, q) in zip(a.points, b.points) {
                largestShift = max(largestShift, abs(p.latitude - q.latitude), abs(p.longitude - q.longitude))
            }
        }
        #expect(largestShift < 1e-7, "PBF and XML coordinates agree to the 7 decimals XML carries")
    }
}
