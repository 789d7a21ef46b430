import Foundation
import Imaging
import Testing
import TestSupport

/// End-to-end tests of `lookaround walk` against the shipped Helsinki panoramas, indexed into a
/// temporary catalog.
@Suite struct WalkCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// (temporary folder, catalog path), indexed once.
    static let setup = Result { () throws -> (root: URL, catalog: String) in
        let root = try Lookaround.temporaryDirectory()
        let catalog = root.appendingPathComponent("catalog.sqlite").path
        let panoramas = repository.appendingPathComponent("Panoramas/helsinki").path
        let osm = repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
        let result = try Lookaround.run(["index", panoramas, "--catalog", catalog, "--osm", osm, "--quiet"])
        guard result.exitCode == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["stderr": result.stderr]) }
        return (root, catalog)
    }

    func walk(_ arguments: [String]) throws -> ProcessResult {
        try Lookaround.run(["walk", "--catalog", try Self.setup.get().catalog] + arguments)
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = try Self.setup.get().root.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func senaatintoriToStockmannCrossesStreets() throws {
        let result = try walk(["--from", "Senaatintori", "--to", "Stockmann", "--dry-run"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("streets    Aleksanterinkatu → Mannerheimintie"), "\(result.stdout)")
        #expect(result.stdout.contains("at 1.40 m/s"))
    }

    @Test func dryRunJSONHasThePlan() throws {
        let result = try walk(["--from", "Senaatintori", "--to", "Stockmann", "--dry-run", "--json", "--speed-mps", "2", "--pause-seconds", "0"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let panoramas = try #require(json["panoramas"] as? [[String: Any]])
        let length = try #require(json["length_meters"] as? Double)
        #expect(panoramas.count > 40)
        #expect((600...800).contains(length))
        #expect(abs((json["duration_seconds"] as? Double ?? 0) - length / 2) < 0.1)
        #expect((json["streets"] as? [String])?.contains("Mannerheimintie") == true)
        #expect(panoramas.first?["waypoint"] as? Bool == true)
        // Consecutive panoramas are linked neighbours: no hop longer than a proximity link.
        let distances = panoramas.compactMap { $0["distance_meters"] as? Double }
        #expect(zip(distances, distances.dropFirst()).allSatisfy { $1 - $0 <= 30 })
    }

    @Test func sequenceReversed() throws {
        let forward = try walk(["--sequence", "senaatintori", "--dry-run", "--json"])
        let backward = try walk(["--sequence", "senaatintori", "--reverse", "--dry-run", "--json"])
        #expect(forward.exitCode == 0 && backward.exitCode == 0)
        func ids(_ r: ProcessResult) throws -> [String] {
            let json = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
            return (json["panoramas"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        }
        #expect(try ids(forward).count == 10)
        #expect(try ids(forward) == ids(backward).reversed())
        let unknown = try walk(["--sequence", "nope", "--dry-run"])
        #expect(unknown.exitCode == 1 && unknown.stderr.contains("known sequences: aleksanterinkatu"))
    }

    @Test func noPathNamesTheLastReachablePanoramaAndTheGap() throws {
        // 20 m north of the Senaatintori capture line, whose links do not reach Aleksanterinkatu.
        let result = try walk(["--from", "60.16967,24.95248", "--to", "Stockmann", "--dry-run"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("the graph breaks after panorama senaatintori-000"), "\(result.stderr)")
        #expect(result.stderr.contains("aleksanterinkatu-048, 48.0 m away"))
    }

    @Test func waypointsFromGPXAndGeoJSON() throws {
        let gpx = try file("walk.gpx", """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="t"><trk><trkseg>
            <trkpt lat="60.16895" lon="24.94950"/><trkpt lat="60.16893" lon="24.94520"/>
            </trkseg></trk></gpx>
            """)
        let fromGPX = try walk(["--waypoints", gpx, "--dry-run"])
        #expect(fromGPX.exitCode == 0, "\(fromGPX.stderr)")
        #expect(fromGPX.stdout.contains("Aleksanterinkatu"))
        let geojson = try file("walk.geojson", #"{"type":"LineString","coordinates":[[24.9495,60.16895],[24.9452,60.16893]]}"#)
        let fromGeoJSON = try walk(["--waypoints", geojson, "--dry-run"])
        #expect(fromGeoJSON.exitCode == 0, "\(fromGeoJSON.stderr)")
        #expect(fromGeoJSON.stdout.split(separator: "\n").first == fromGPX.stdout.split(separator: "\n").first)
    }

    @Test func badWaypointFilesAreExit65NamingTheFileAndPlace() throws {
        let gpx = try file("bad.gpx", "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"60.1686\" lon=\"abc\"/>\n</trkseg></trk></gpx>\n")
        let r1 = try walk(["--waypoints", gpx, "--dry-run"])
        #expect(r1.exitCode == 65)
        #expect(r1.stderr.contains("bad.gpx: line 4:"), "\(r1.stderr)")
        let geojson = try file("bad.geojson", #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[24.95,60.1686],["x",60.1683]]}}"#)
        let r2 = try walk(["--waypoints", geojson, "--dry-run"])
        #expect(r2.exitCode == 65)
        #expect(r2.stderr.contains("bad.geojson: geometry.coordinates[1]:"), "\(r2.stderr)")
        let missing = try walk(["--waypoints", "/nonexistent/w.gpx", "--dry-run"])
        #expect(missing.exitCode == 66)
    }

    @Test func badOptionsAreUsageErrors() throws {
        let speed = try walk(["--sequence", "senaatintori", "--dry-run", "--speed-mps", "0"])
        #expect(speed.exitCode == 64 && speed.stderr.contains("0.1"), "\(speed.stderr)")
        let both = try walk(["--sequence", "senaatintori", "--from", "Stockmann", "--to", "Senaatintori", "--dry-run"])
        #expect(both.exitCode == 64)
        let none = try walk(["--dry-run"])
        #expect(none.exitCode == 64 && none.stderr.contains("--sequence ID"))
    }
}
