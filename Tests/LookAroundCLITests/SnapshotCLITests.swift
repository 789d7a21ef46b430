import Foundation
import Imaging
import Testing
import TestSupport

/// End-to-end tests of `lookaround snapshot` against the shipped Helsinki panoramas, indexed into a
/// temporary catalog.
@Suite struct SnapshotCLITests {
    static let repository = Lookaround.repository

    /// (temporary folder, catalog path), indexed once.
    static let setup = Result { try Lookaround.indexShippedPanoramas() }

    func snapshot(_ arguments: [String]) throws -> ProcessResult {
        try Lookaround.run(["snapshot", "--catalog", try Self.setup.get().catalog] + arguments)
    }

    @Test func pointToPNGFileReportsOnStdout() throws {
        let output = try Self.setup.get().root.appendingPathComponent("senaatintori.png").path
        let result = try snapshot(["--lat", "60.1699", "--lon", "24.9523", "--size", "320x180", "-o", output])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("panorama   senaatintori-"))
        #expect(result.stdout.contains("m from the requested point"))
        #expect(result.stdout.contains("field of view 90.0°"))
        let image = try PNGCodec.decodeRGB(try ImageFile.read(output))
        #expect(image.width == 320 && image.height == 180)
    }

    @Test func jsonReportHasWhatWasRendered() throws {
        let output = try Self.setup.get().root.appendingPathComponent("json.png").path
        let result = try snapshot(["--scene", "senaatintori-005", "--heading-degrees", "90", "--size", "160x90", "-o", output, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(report["found"] as? Bool == true && report["panorama_id"] as? String == "senaatintori-005")
        let view = try #require(report["view"] as? [String: Any])
        #expect(view["heading_degrees"] as? Double == 90 && view["field_of_view_degrees"] as? Double == 90 && view["width"] as? Int == 160)
        let image = try #require(report["image"] as? [String: Any])
        #expect(image["path"] as? String == output && image["format"] as? String == "png" && image["height"] as? Int == 90)
        #expect(report["labels"] is [Any] && report["road_labels"] is [Any])
        // With the image on stdout the JSON goes to stderr; no coverage is found: false with the reason.
        let piped = try snapshot(["--scene", "senaatintori-005", "--size", "64x32", "-o", "-", "--json"])
        #expect(piped.stdoutBytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        #expect((try JSONSerialization.jsonObject(with: Data(piped.stderr.utf8)) as? [String: Any])?["panorama_id"] as? String
                == "senaatintori-005")
        let none = try snapshot(["--lat", "60.2", "--lon", "24.9", "-o", output, "--json"])
        #expect(none.exitCode == 1)
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(none.stdout.utf8)) as? [String: Any])
        #expect(answer["found"] as? Bool == false && (answer["no_coverage"] as? [String: Any])?["reason"] as? String == "nothing_within_radius")
        let quiet = try snapshot(["--scene", "senaatintori-005", "--size", "64x32", "-o", output, "--quiet"])
        #expect(quiet.exitCode == 0 && quiet.stdout.isEmpty && quiet.stderr.isEmpty)
    }

    @Test func sceneIDToStdoutAsJPEGReportsOnStderr() throws {
        let result = try snapshot(["--scene", "senaatintori-005", "--heading-degrees", "450", "--pitch-degrees", "20",
                                   "--fov-degrees", "60", "--size", "200x100", "--format", "jpeg", "-o", "-"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("panorama   senaatintori-005"))
        #expect(result.stderr.contains("heading    90.0°, pitch 20.0°, field of view 60.0°"))
        #expect(result.stderr.contains("distance   0.00 m"))
        let header = try JPEGCodec.readHeader(result.stdoutBytes)
        #expect(header.width == 200 && header.height == 100)
    }

    @Test func negativeAndLargeHeadingsAreDirectionsInEveryCommand() throws {
        let minus = try snapshot(["--scene", "senaatintori-005", "--heading-degrees", "-45", "--size", "96x64", "-o", "-", "--format", "png"])
        let plus = try snapshot(["--scene", "senaatintori-005", "--heading-degrees", "315", "--size", "96x64", "-o", "-", "--format", "png"])
        #expect(minus.exitCode == 0 && minus.stderr.contains("heading    315.0°"), "\(minus.stderr)")
        #expect(minus.stdoutBytes == plus.stdoutBytes)
        let west = try Lookaround.run(["geo", "destination", "--from", "60.1699,24.9523", "--bearing-degrees", "-90",
                                       "--distance-meters", "100", "--json"])
        let alsoWest = try Lookaround.run(["geo", "destination", "--from", "60.1699,24.9523", "--bearing-degrees", "630",
                                           "--distance-meters", "100", "--json"])
        #expect(west.exitCode == 0 && west.stdout == alsoWest.stdout, "\(west.stderr)")
        // One-character file names, relative to the working folder (Foundation's path splitting trapped on them).
        let folder = try Lookaround.temporaryDirectory()
        let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
        let map = try Lookaround.run(["map", "--osm", osm, "--camera", "60.1699,24.9523,800,-90", "--size", "64x64", "-o", "a"], in: folder)
        let mapWest = try Lookaround.run(["map", "--osm", osm, "--camera", "60.1699,24.9523,800,270", "--size", "64x64", "-o", "b"], in: folder)
        #expect(map.exitCode == 0 && mapWest.exitCode == 0, "\(map.stderr)\(mapWest.stderr)")
        let a = try Data(contentsOf: folder.appendingPathComponent("a")), b = try Data(contentsOf: folder.appendingPathComponent("b"))
        #expect(a == b)
        let nan = try snapshot(["--scene", "senaatintori-005", "--heading-degrees", "nan", "-o", "-"])
        #expect(nan.exitCode == 64 && nan.stderr.contains("--heading-degrees 'nan' is not a finite number of degrees"), "\(nan.stderr)")
    }

    @Test func placeByName() throws {
        let output = try Self.setup.get().root.appendingPathComponent("stockmann.png").path
        let result = try snapshot(["--near", "Stockmann", "--size", "160x90", "--labels", "none", "-o", output])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("place      Stockmann"))
        #expect(FileManager.default.fileExists(atPath: output))
    }

    @Test func noCoverageIsExitOneWithTheReason() throws {
        let output = try Self.setup.get().root.appendingPathComponent("nowhere.png").path
        let result = try snapshot(["--lat", "10", "--lon", "10", "-o", output])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("no coverage"))
        #expect(result.stdout.contains("nothing_within_radius"))
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test(arguments: [
        (["--lat", "60.17", "--lon", "24.95", "--fov-degrees", "150"], "10…120"),
        (["--lat", "60.17", "--lon", "24.95", "--pitch-degrees", "-91"], "-90…90"),
        (["--lat", "95", "--lon", "24.95"], "-90…90"),
        (["--lat", "60.17", "--lon", "24.95", "--size", "0x10"], "1…16384"),
        (["--lat", "60.17", "--lon", "24.95", "--size", "5000x5000"], "16000000"),
        (["--lat", "60.17", "--lon", "24.95", "--quality", "0"], "1…100"),
        (["--lat", "60.17", "--lon", "24.95", "--exclude-categories", "cafes"], "food"),
        (["--lat", "60.17", "--near", "Stockmann"], "only one of"),
    ])
    func badInputIsUsageWithTheAllowedRange(arguments: [String], allowed: String) throws {
        let result = try snapshot(arguments + ["-o", "/nonexistent/never.png"])
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stderr.contains(allowed), "\(result.stderr)")
    }

    /// `--labels roads` paints only the street name; `--road-labels off` drops it and changes the image;
    /// the roads-only view of Aleksanterinkatu is a golden image (look at it when it changes).
    @Test func roadLabelsOnTheGround() throws {
        let root = try Self.setup.get().root
        let view = ["--scene", "aleksanterinkatu-030", "--heading-degrees", "60", "--pitch-degrees", "-10", "--size", "640x360"]
        let roadsPath = root.appendingPathComponent("roads.png").path
        let roads = try snapshot(view + ["--labels", "roads", "-o", roadsPath])
        #expect(roads.exitCode == 0, "\(roads.stderr)")
        #expect(roads.stdout.contains("streets    Aleksanterinkatu ("), "\(roads.stdout)")
        #expect(!roads.stdout.contains("labels     "), "--labels roads draws no place labels: \(roads.stdout)")
        let offPath = root.appendingPathComponent("roads-off.png").path
        let off = try snapshot(view + ["--labels", "roads", "--road-labels", "off", "-o", offPath])
        #expect(off.exitCode == 0, "\(off.stderr)")
        #expect(!off.stdout.contains("streets    "))
        let all = try snapshot(view + ["--road-labels", "off", "-o", root.appendingPathComponent("places.png").path])
        #expect(all.stdout.contains("labels     ") && !all.stdout.contains("streets    "), "\(all.stdout)")
        let painted = try PNGCodec.decodeRGB(try ImageFile.read(roadsPath)), plain = try PNGCodec.decodeRGB(try ImageFile.read(offPath))
        #expect(ImageMetrics.differingPixelFraction(painted, plain, threshold: 40) > 0.005)
        GoldenImage.check(painted.withAlpha(), named: "snapshot-road-label-aleksanterinkatu")
    }

    @Test func badRoadLabelsValueIsUsage() throws {
        let result = try snapshot(["--scene", "aleksanterinkatu-030", "--road-labels", "maybe", "-o", "/nonexistent/never.png"])
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stderr.contains("--road-labels 'maybe' is not one of: on, off"), "\(result.stderr)")
        let labels = try snapshot(["--scene", "aleksanterinkatu-030", "--labels", "streets", "-o", "/nonexistent/never.png"])
        #expect(labels.exitCode == 64)
        #expect(labels.stderr.contains("all, places, roads, none"), "\(labels.stderr)")
    }

    /// A CPU without AVX2 runs the view renderer's portable span kernel: the same command with
    /// `LOOKAROUND_VIEW_KERNEL=portable` (that kernel forced on this CPU) gives the same picture as the
    /// default one on x86-64 (within one grey level elsewhere), the zenith and the ±180° seam in view,
    /// at an odd size.
    @Test func portableKernelGivesTheSameSnapshot() throws {
        let root = try Self.setup.get().root
        let view = ["--scene", "senaatintori-005", "--heading-degrees", "180", "--pitch-degrees", "60", "--fov-degrees", "120",
                    "--size", "333x187", "--labels", "none"]
        let dispatchedPath = root.appendingPathComponent("kernel-dispatched.png").path
        let portablePath = root.appendingPathComponent("kernel-portable.png").path
        let dispatched = try snapshot(view + ["-o", dispatchedPath])
        let portable = try Lookaround.run(["snapshot", "--catalog", try Self.setup.get().catalog] + view + ["-o", portablePath],
                                          environment: ["LOOKAROUND_VIEW_KERNEL": "portable"])
        #expect(dispatched.exitCode == 0 && portable.exitCode == 0, "\(dispatched.stderr)\(portable.stderr)")
        let a = try PNGCodec.decodeRGB(try ImageFile.read(dispatchedPath)), b = try PNGCodec.decodeRGB(try ImageFile.read(portablePath))
        #expect(a.width == 333 && b.height == 187)
        #if arch(x86_64)
        // On x86-64 the portable kernel is the AVX2 kernel's arithmetic in SSE2: the same picture.
        #expect(ImageMetrics.maximumAbsoluteDifference(a, b) == 0)
        #else
        #expect(ImageMetrics.maximumAbsoluteDifference(a, b) <= 1)
        #expect(ImageMetrics.meanAbsoluteDifference(a, b) < 0.05)
        #endif
        // Not a blank picture: the view has structure.
        #expect(ImageMetrics.differingPixelFraction(a, RGB8Image(width: a.width, height: a.height), threshold: 40) > 0.5)
    }

    @Test func helpListsTheOptions() throws {
        let result = try Lookaround.run(["snapshot", "--help"])
        #expect(result.exitCode == 0)
        for option in ["--lat", "--scene", "--near", "--heading-degrees", "--fov-degrees", "--labels", "--road-labels", "--exclude-categories"] {
            #expect(result.stdout.contains(option))
        }
    }
}
