import Foundation
import Imaging
import Testing
import TestSupport

/// End-to-end tests of `lookaround walk` against the shipped Helsinki panoramas, indexed into a
/// temporary catalog.
@Suite struct WalkCLITests {
    static let repository = Lookaround.repository

    /// (temporary folder, catalog path), indexed once.
    static let setup = Result { try Lookaround.indexShippedPanoramas() }

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

    static let reader = repository.appendingPathComponent("scripts/read_animation.py").path

    @Test func rendersAGIFThatPillowReads() throws {
        let output = try Self.setup.get().root.appendingPathComponent("walk.gif").path
        let result = try walk(["--sequence", "senaatintori", "--size", "192x108", "--fps", "6", "--first-seconds", "2.5",
                               "--title", "Senaatintori", "-o", output, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["frames"] as? Int == 15 && report["format"] as? String == "gif")
        let info = try #require(try JSONSerialization.jsonObject(with: PeerScript.run(Self.reader, [output])) as? [String: Any])
        #expect(info["frames"] as? Int == 15 && info["width"] as? Int == 192 && info["height"] as? Int == 108)
        let durations = try #require(info["durations_ms"] as? [Int])
        #expect(durations.allSatisfy { $0 >= 160 && $0 <= 170 }, "\(durations)")
    }

    @Test func framesFolderWithFramesJSON() throws {
        let output = try Self.setup.get().root.appendingPathComponent("frames").path
        let result = try walk(["--sequence", "senaatintori", "--size", "160x90", "--fps", "4", "--first-seconds", "1", "--pause-seconds", "0",
                               "--layout", "inset", "--inset-corner", "bottom-left", "-o", output + "/", "--quiet"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output + "/frames.json"))) as? [String: Any])
        let frames = try #require(json["frames"] as? [[String: Any]])
        #expect(frames.count == 4)
        #expect(frames.first?["panorama_id"] as? String == "senaatintori-000")
        #expect((frames.last?["distance_meters"] as? Double ?? 0) > 0.9)
        let image = try PNGCodec.decodeRGB(try ImageFile.read(output + "/frame-00003.png"))
        #expect(image.width == 160 && image.height == 90)
    }

    @Test func badRenderOptions() throws {
        let avi = try walk(["--sequence", "senaatintori", "-o", "walk.avi"])
        #expect(avi.exitCode == 64 && avi.stderr.contains(".gif, .webp, .mp4 or .webm"), "\(avi.stderr)")
        let inset = try walk(["--sequence", "senaatintori", "--inset-size", "500", "--size", "320x180", "-o", "w.gif"])
        #expect(inset.exitCode == 64 && inset.stderr.contains("at most the frame height (180)"), "\(inset.stderr)")
        let noOutput = try walk(["--sequence", "senaatintori"])
        #expect(noOutput.exitCode == 64 && noOutput.stderr.contains("-o PATH"))
        let odd = try walk(["--sequence", "senaatintori", "--size", "161x90", "-o", try Self.setup.get().root.appendingPathComponent("odd.mp4").path])
        #expect(odd.exitCode == 64 || odd.exitCode == 69, "\(odd.stderr)")
    }

    /// Ctrl-C during an encode: exit 130, and neither the output nor its temporary file is left.
    @Test func interruptLeavesNoFile() throws {
        let root = try Self.setup.get().root.appendingPathComponent("interrupt")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let output = root.appendingPathComponent("walk.gif").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Lookaround.executablePath)
        process.arguments = ["walk", "--catalog", try Self.setup.get().catalog, "--from", "Senaatintori", "--to", "Stockmann",
                             "--size", "320x180", "-o", output]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // Wait until frames are being encoded (the temporary file exists), then interrupt.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, (try FileManager.default.contentsOfDirectory(atPath: root.path)).isEmpty, process.isRunning {
            Thread.sleep(forTimeInterval: 0.05)
        }
        Thread.sleep(forTimeInterval: 1.0)
        #expect(process.isRunning, "the walk should still be rendering")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(process.terminationStatus == 130, "\(stderr)")
        #expect(stderr.contains("cancelled"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }
}

