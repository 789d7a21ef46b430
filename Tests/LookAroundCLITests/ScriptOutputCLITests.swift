import Foundation
import Testing
import TestSupport

/// Output for scripts and logs: `--json` with snake_case keys, progress bars only on a terminal (plain
/// lines in a log), `--quiet`, and `NO_COLOR`. A terminal is made with util-linux `script`, which runs
/// the command on a pseudo-terminal.
@Suite struct ScriptOutputCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let osm = repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
    static let bbox = "60.1688,24.9510,60.1694,24.9525"

    static func simulateArguments(_ folder: URL) -> [String] {
        ["simulate", "--osm", osm, "--out", folder.path, "--streets", "Aleksanterinkatu", "--bbox", bbox,
         "--size", "64x32", "--depth-size", "32x16", "--samples", "1", "--limit", "3"]
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "not a JSON object: \(text)")
    }

    /// Every key, at any depth, in snake_case.
    static func expectSnakeCase(_ value: Any, at path: String = "") {
        if let object = value as? [String: Any] {
            for (key, inner) in object {
                #expect(key.allSatisfy { $0.isLowercase || $0.isNumber || $0 == "_" }, "key \(path).\(key) is not snake_case")
                expectSnakeCase(inner, at: path + "." + key)
            }
        } else if let array = value as? [Any] {
            for inner in array { expectSnakeCase(inner, at: path + "[]") }
        }
    }

    /// Runs `lookaround` on a pseudo-terminal; returns what the terminal showed (stdout and stderr together).
    static func onTerminal(_ arguments: [String], environment: [String: String] = [:]) throws -> ProcessResult? {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script") else {
            try Test.cancel("skipped: util-linux 'script' is missing, so nothing ran on a terminal")
        }
        let command = ([Lookaround.executablePath] + arguments).map { "'" + $0 + "'" }.joined(separator: " ")
        return try Lookaround.runProcess("/usr/bin/script", ["-qec", command, "/dev/null"], environment: environment)
    }

    @Test func progressInALogIsPlainLinesNotCarriageReturns() throws {
        let folder = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(Self.simulateArguments(folder))
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(!result.stderr.contains("\r"), "a log gets no carriage returns")
        #expect(!result.stderr.contains("\u{1B}"), "nor escape sequences")
        let lines = result.stderr.split(separator: "\n")
        // The model line, then at most one line per 5 s and the last one (a 3-capture run takes well under 5 s).
        #expect(lines.count >= 2 && lines.count <= 4, "\(lines)")
        #expect(lines.last?.hasPrefix("simulate: 3/3 captures, ") == true, "\(lines)")
    }

    @Test func progressOnATerminalIsABarRedrawnInPlace() throws {
        let folder = try Lookaround.temporaryDirectory()
        guard let result = try Self.onTerminal(Self.simulateArguments(folder), environment: ["TERM": "xterm-256color", "NO_COLOR": ""])
        else { return }
        #expect(result.exitCode == 0, "\(result.stdout)")
        #expect(result.stdout.contains("\rsimulate ["), "\(result.stdout.debugDescription)")
        #expect(result.stdout.contains("3/3 captures"))
        #expect(result.stdout.contains("\u{1B}[32m#"), "the bar is green on a colour terminal")
        let plain = try Self.onTerminal(Self.simulateArguments(folder) + ["--force"], environment: ["TERM": "xterm-256color", "NO_COLOR": "1"])
        #expect(plain?.stdout.contains("\rsimulate [###") == true, "\(plain?.stdout.debugDescription ?? "")")
        #expect(plain?.stdout.contains("\u{1B}[32m") == false, "NO_COLOR: no colour")
    }

    @Test func errorsAreRedOnATerminalUnlessNoColor() throws {
        // `swift test` itself may run with NO_COLOR set; an empty value counts as unset (no-color.org).
        guard let coloured = try Self.onTerminal(["scene", "--lat", "91", "--lon", "0"], environment: ["TERM": "xterm", "NO_COLOR": ""])
        else { return }
        #expect(coloured.exitCode == 64)
        #expect(coloured.stdout.contains("\u{1B}[1;31merror:\u{1B}[0m --lat 91 is out of range"), "\(coloured.stdout.debugDescription)")
        let plain = try Self.onTerminal(["scene", "--lat", "91", "--lon", "0"], environment: ["TERM": "xterm", "NO_COLOR": "1"])
        #expect(plain?.stdout.contains("error: --lat 91 is out of range") == true)
        #expect(plain?.stdout.contains("\u{1B}") == false)
        let dumb = try Self.onTerminal(["scene", "--lat", "91", "--lon", "0"], environment: ["TERM": "dumb", "NO_COLOR": ""])
        #expect(dumb?.stdout.contains("\u{1B}") == false)
        // Not a terminal: never colour.
        let piped = try Lookaround.run(["scene", "--lat", "91", "--lon", "0"], environment: ["TERM": "xterm", "NO_COLOR": ""])
        #expect(piped.stderr.hasPrefix("error: --lat 91"))
    }

    @Test func quietPrintsNothingButErrors() throws {
        let folder = try Lookaround.temporaryDirectory()
        let quiet = try Lookaround.run(Self.simulateArguments(folder) + ["--quiet"])
        #expect(quiet.exitCode == 0, "\(quiet.stderr)")
        #expect(quiet.stdout.isEmpty && quiet.stderr.isEmpty, "\(quiet.stdout)\(quiet.stderr)")
        let onTerminal = try Self.onTerminal(Self.simulateArguments(folder) + ["--force", "-q"])
        #expect(onTerminal.map { $0.stdout.isEmpty } ?? true, "\(onTerminal?.stdout.debugDescription ?? "")")
        let map = try Lookaround.run(["map", "--osm", Self.osm, "--center", "60.1699,24.9450", "--span-meters", "300",
                                      "--size", "64x48", "-o", "map.png", "--quiet"], in: folder)
        #expect(map.exitCode == 0 && map.stdout.isEmpty && map.stderr.isEmpty, "\(map.stdout)\(map.stderr)")
        let error = try Lookaround.run(["simulate", "--osm", "missing.osm.pbf", "--out", folder.path, "--quiet"])
        #expect(error.exitCode == 66 && error.stderr.hasPrefix("error: --osm missing.osm.pbf: no such file"))
    }

    @Test func simulateJSONListsThePlannedThenTheWrittenCaptures() throws {
        let folder = try Lookaround.temporaryDirectory()
        let planned = try Lookaround.run(Self.simulateArguments(folder) + ["--dry-run", "--json"])
        #expect(planned.exitCode == 0, "\(planned.stderr)")
        let plan = try Self.object(planned.stdout)
        Self.expectSnakeCase(plan)
        let captures = try #require(plan["captures"] as? [[String: Any]])
        #expect(captures.count == 3 && captures.allSatisfy { $0["status"] as? String == "planned" })
        let first = try #require(captures.first)
        #expect(first["id"] as? String == "aleksanterinkatu-000" && first["sequence_index"] as? Int == 0)
        #expect((first["capture_time"] as? String)?.hasSuffix("Z") == true)
        #expect(first["heading_degrees"] is Double && first["latitude"] is Double)
        let run = try Lookaround.run(Self.simulateArguments(folder) + ["--json"])
        let done = try #require(try Self.object(run.stdout)["captures"] as? [[String: Any]])
        #expect(done.map { $0["status"] as? String } == ["written", "written", "written"])
        let image = try #require(done.first?["image_path"] as? String)
        #expect(FileManager.default.fileExists(atPath: image))
        #expect(!run.stderr.isEmpty, "progress still goes to stderr")
        let again = try Lookaround.run(Self.simulateArguments(folder) + ["--json", "-q"])
        #expect(again.stderr.isEmpty)
        #expect((try Self.object(again.stdout)["captures"] as? [[String: Any]])?.allSatisfy { $0["status"] as? String == "skipped" } == true)
    }

    @Test func mapJSONReportsTheCameraSaveCameraWrites() throws {
        let folder = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["map", "--osm", Self.osm, "--camera", "60.1699,24.9523,900,30,45", "--size", "64x48",
                                         "--save-camera", "camera.json", "-o", "map.png", "--json"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try Self.object(result.stdout)
        Self.expectSnakeCase(report)
        #expect(report["output"] as? String == "map.png" && report["map_type"] as? String == "standard")
        #expect(report["width"] as? Int == 64 && report["zoom_level"] is Double)
        let camera = try #require(report["camera"] as? [String: Any])
        #expect(camera["center_coordinate_distance_meters"] as? Double == 900)
        #expect(camera["heading_degrees"] as? Double == 30 && camera["pitch_degrees"] as? Double == 45)
        let saved = try Self.object(String(decoding: try Data(contentsOf: folder.appendingPathComponent("camera.json")), as: UTF8.self))
        #expect(NSDictionary(dictionary: saved).isEqual(to: camera), "--save-camera writes the camera --json reports")
        // A camera file with Swift's own (camelCase) keys still reads.
        try Data(#"{"centerCoordinate": {"latitude": 60.1699, "longitude": 24.9523}, "centerCoordinateDistanceMeters": 900}"#.utf8)
            .write(to: folder.appendingPathComponent("camel.json"))
        let camel = try Lookaround.run(["map", "--osm", Self.osm, "--camera", "camel.json", "--size", "64x48", "-o", "c.png", "--json"],
                                       in: folder)
        #expect(camel.exitCode == 0, "\(camel.stderr)")
        #expect((try Self.object(camel.stdout)["camera"] as? [String: Any])?["center_coordinate_distance_meters"] as? Double == 900)
    }

    @Test func mapFlightJSONListsEveryFrameWithItsCamera() throws {
        let folder = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["map", "--osm", Self.osm, "--fly-from", "60.1699,24.9523", "--fly-to", "60.1686,24.9480",
                                         "--frames", "3", "--size", "48x32", "-o", "flight", "--json"], in: folder)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "no progress with --json")
        let report = try Self.object(result.stdout)
        Self.expectSnakeCase(report)
        let frames = try #require(report["frames"] as? [[String: Any]])
        #expect(frames.count == 3 && frames.allSatisfy { $0["camera"] is [String: Any] })
        #expect(report["kind"] as? String == "direct")
    }
}
