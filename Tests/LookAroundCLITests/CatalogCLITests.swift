import Foundation
import Imaging
import Testing
import TestSupport

/// End-to-end tests of `lookaround index`, `scene` and `search` against the built executable.
@Suite struct CatalogCLITests {
    /// A folder with three panoramas near Senaatintori (a Theta-like JPEG, a cropped Insta360-like one and
    /// a sidecar camera), `sources/places.osm` and the catalog built from them by `lookaround index`.
    struct Setup {
        var root: URL
        var catalog: String
        var indexResult: ProcessResult
    }

    static func jpeg(_ metadata: ImageMetadata?, width: Int = 64, height: Int = 32) throws -> Data {
        Data(try JPEGCodec.encode(RGB8Image(width: width, height: height, fill: 90), quality: 80, metadata: metadata))
    }

    static let osm = """
        <?xml version="1.0" encoding="UTF-8"?>
        <osm version="0.6">
          <node id="1" lat="60.1699" lon="24.9523" version="1"><tag k="place" v="square"/><tag k="name" v="Senaatintori"/><tag k="name:sv" v="Senatstorget"/></node>
          <node id="2" lat="60.1687" lon="24.9416" version="1"><tag k="amenity" v="post_office"/><tag k="name" v="Pääposti"/></node>
          <node id="3" lat="60.1686" lon="24.9418" version="1"><tag k="shop" v="department_store"/><tag k="name" v="Stockmann"/></node>
        </osm>
        """

    static func setUp(broken: Bool = false) throws -> Setup {
        let root = try Lookaround.temporaryDirectory()
        let panoramas = root.appendingPathComponent("Panoramas/helsinki")
        let sources = root.appendingPathComponent("Panoramas/sources")
        try FileManager.default.createDirectory(at: panoramas, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: sources, withIntermediateDirectories: true)
        try Data(osm.utf8).write(to: sources.appendingPathComponent("places.osm"))
        var theta = PanoramaMetadata.equirectangular(width: 64, height: 32, headingDegrees: 0)
        theta.poseHeadingDegrees = nil
        // 60.16995, 24.9523: about 5.6 m north of Senaatintori.
        try jpeg(ImageMetadata(latitudeDegrees: 60.16995, longitudeDegrees: 24.9523, imageDirectionDegrees: 90,
                               dateTimeOriginal: "2024:05:12 10:15:30", make: "RICOH", model: "RICOH THETA Z1",
                               panorama: theta)).write(to: panoramas.appendingPathComponent("R0010023.JPG"))
        let insta = PanoramaMetadata(projectionType: "equirectangular", poseHeadingDegrees: 180, fullPanoWidthPixels: 64,
                                     fullPanoHeightPixels: 32, croppedAreaImageWidthPixels: 64,
                                     croppedAreaImageHeightPixels: 24, croppedAreaLeftPixels: 0, croppedAreaTopPixels: 4)
        try jpeg(ImageMetadata(latitudeDegrees: 60.1701, longitudeDegrees: 24.9523,
                               gpsTimestamp: Date(timeIntervalSince1970: 1_715_512_530), panorama: insta), height: 24)
            .write(to: panoramas.appendingPathComponent("IMG_20240512_101530_00_001.jpg"))
        try jpeg(nil).write(to: panoramas.appendingPathComponent("capture.jpg"))
        try Data(#"{"latitude": 60.1687, "longitude": 24.9417, "heading_degrees": 10, "capture_time": "2023-08-01T12:00:00Z"}"#.utf8)
            .write(to: panoramas.appendingPathComponent("capture.json"))
        if broken {
            try Data("not a jpeg".utf8).write(to: panoramas.appendingPathComponent("broken.jpg"))
        }
        let catalog = root.appendingPathComponent("Panoramas/catalog.sqlite").path
        let result = try Lookaround.run(["index", "--quiet"], in: root)
        return Setup(root: root, catalog: catalog, indexResult: result)
    }

    static let shared = Result { try setUp() }

    func run(_ arguments: [String], stdin: String = "") throws -> ProcessResult {
        let setup = try Self.shared.get()
        return try Lookaround.run(arguments, stdin: Array(stdin.utf8), in: setup.root)
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test func indexBuildsTheDefaultCatalogBesidePanoramas() throws {
        let setup = try Self.shared.get()
        #expect(setup.indexResult.exitCode == 0, "\(setup.indexResult.stderr)")
        #expect(FileManager.default.fileExists(atPath: setup.catalog))
        #expect(setup.indexResult.stdout.contains("panoramas   3 (3 files: 3 read, 0 unchanged, 0 failed)"))
        #expect(setup.indexResult.stdout.contains("places      3"))
        // Again: nothing to read.
        let again = try run(["index", "--quiet", "--json"])
        #expect(again.exitCode == 0)
        let report = try Self.json(again.stdout)
        #expect(report["files_unchanged"] as? Int == 3 && report["files_read"] as? Int == 0)
    }

    @Test func indexReportsBadFilesAndExits65() throws {
        let setup = try Self.setUp(broken: true)
        #expect(setup.indexResult.exitCode == 65)
        #expect(setup.indexResult.stdout.contains("failed      "))
        #expect(setup.indexResult.stdout.contains("broken.jpg: not a readable JPEG"))
        #expect(setup.indexResult.stdout.contains("panoramas   3 (4 files: 4 read, 0 unchanged, 1 failed)"))
        #expect(setup.indexResult.stderr.contains("1 of 4 files could not be indexed"))
        // The good files are in the catalog.
        let scene = try Lookaround.run(["scene", "--lat", "60.1699", "--lon", "24.9523"], in: setup.root)
        #expect(scene.exitCode == 0)
    }

    /// A camera standing still: its second capture, 0.30 m from the first, is left out of the catalog and
    /// listed with the capture it repeats and the distance, in the text and the JSON report; not an error.
    @Test func indexListsTheNearDuplicatesItLeavesOut() throws {
        let root = try Lookaround.temporaryDirectory()
        let stop = root.appendingPathComponent("stop")
        try FileManager.default.createDirectory(at: stop, withIntermediateDirectories: true)
        // 0.0000027° of latitude at 60.17° N is 0.301 m; 0.00018° (south) is 20 m.
        for (name, latitude, time) in [("a", 60.1699, "10:00:00"), ("b", 60.1699027, "10:00:02"), ("c", 60.16972, "10:00:10")] {
            try Self.jpeg(ImageMetadata(latitudeDegrees: latitude, longitudeDegrees: 24.9523, imageDirectionDegrees: 0,
                                        dateTimeOriginal: "2024:05:12 \(time)", make: "RICOH", model: "RICOH THETA X"))
                .write(to: stop.appendingPathComponent("\(name).jpg"))
        }
        let catalog = root.appendingPathComponent("c.sqlite").path
        let result = try Lookaround.run(["index", stop.path, "--catalog", catalog, "--no-osm", "--quiet"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("panoramas   2 (3 files: 3 read, 0 unchanged, 0 failed, 1 near-duplicate left out)"), "\(result.stdout)")
        #expect(result.stdout.contains("left out    \(stop.path)/b.jpg: a near-duplicate of \(stop.path)/a.jpg, 0.30 m away, turned 0.0° in sequence "
                                       + "stop/RICOH THETA X (closer than 0.5 m and within 5° of the capture kept before it: the camera stood still)"),
                "\(result.stdout)")
        let again = try Lookaround.run(["index", stop.path, "--catalog", catalog, "--no-osm", "--quiet", "--json"])
        let report = try Self.json(again.stdout)
        let left = try #require(report["near_duplicates"] as? [[String: Any]])
        #expect(left.count == 1 && left.first?["path"] as? String == stop.path + "/b.jpg"
                && left.first?["kept_path"] as? String == stop.path + "/a.jpg"
                && left.first?["sequence_name"] as? String == "stop/RICOH THETA X", "\(left)")
        let distance = try #require(left.first?["distance_meters"] as? Double)
        #expect(abs(distance - 0.301) < 0.002, "\(distance) m")
        #expect(report["panorama_count"] as? Int == 2 && report["files_unchanged"] as? Int == 2 && report["files_read"] as? Int == 1)
    }

    @Test func sceneFoundHumanReadable() throws {
        let result = try run(["scene", "--lat", "60.1699", "--lon", "24.9523"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("panorama   helsinki/R0010023\n"))
        #expect(result.stdout.contains("distance   5.57 m, bearing 0.0° from the request point"))   // due north
        #expect(result.stdout.contains("heading    90.0°"))
        #expect(result.stdout.contains("captured   2024-05-12T10:15:30Z (photo)"))
        #expect(result.stdout.contains("links      helsinki/IMG_20240512_101530_00_001"))
        #expect(result.stderr.isEmpty)
    }

    @Test func sceneJSON() throws {
        let result = try run(["scene", "--lat", "60.1699", "--lon", "24.9523", "--radius-meters", "30",
                              "--preference", "best", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let answer = try Self.json(result.stdout)
        #expect(answer["found"] as? Bool == true)
        let scene = try #require(answer["scene"] as? [String: Any])
        #expect(scene["panorama_id"] as? String == "helsinki/R0010023")
        let distance = try #require(scene["distance_meters"] as? Double)
        #expect(abs(distance - 5.58) < 0.05)
        #expect(scene["heading_degrees"] as? Double == 90)
        #expect(scene["capture_time"] as? String == "2024-05-12T10:15:30Z")
        #expect((scene["links"] as? [Any])?.isEmpty == false)
        let bearing = try #require(scene["bearing_from_request_degrees"] as? Double)
        #expect(bearing >= 0 && bearing < 360)
    }

    /// At the position `scene` printed for the panorama: no bearing (null in JSON, left out of the text),
    /// rather than a direction computed over a few nanometres.
    @Test func sceneAtThePanoramasOwnPositionHasNoBearing() throws {
        let text = try run(["scene", "--lat", "60.16995", "--lon", "24.9523"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("panorama   helsinki/R0010023\n"))
        #expect(text.stdout.contains("\ndistance   0.00 m\n"))
        #expect(!text.stdout.contains("from the request point"))
        let result = try run(["scene", "--lat", "60.16995", "--lon", "24.9523", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let scene = try #require(try Self.json(result.stdout)["scene"] as? [String: Any])
        #expect(scene["panorama_id"] as? String == "helsinki/R0010023")
        #expect(try #require(scene["distance_meters"] as? Double) < 0.05)
        #expect(scene.keys.contains("bearing_from_request_degrees"), "the key is there, as null")
        #expect(scene["bearing_from_request_degrees"] is NSNull)
    }

    @Test func noCoverageIsExitCode1WithTheReasonOnStdout() throws {
        let result = try run(["scene", "--lat", "60.2", "--lon", "24.9523"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.hasPrefix("no coverage: no panorama within 50.0 m of 60.2,24.9523; the nearest is "))
        #expect(result.stdout.contains("reason      nothing_within_radius"))
        let json = try run(["scene", "--lat", "60.2", "--lon", "24.9523", "--json"])
        #expect(json.exitCode == 1)
        let answer = try Self.json(json.stdout)
        let noCoverage = try #require(answer["no_coverage"] as? [String: Any])
        #expect(noCoverage["reason"] as? String == "nothing_within_radius")
        #expect((noCoverage["nearest_distance_meters"] as? Double).map { $0 > 3000 && $0 < 3500 } == true)
        let filtered = try run(["scene", "--lat", "60.1699", "--lon", "24.9523", "--source", "simulated", "--json"])
        #expect(filtered.exitCode == 1)
        #expect(try Self.json(filtered.stdout)["no_coverage"].flatMap { ($0 as? [String: Any])?["reason"] as? String } == "filtered_out")
        let dated = try run(["scene", "--lat", "60.1699", "--lon", "24.9523", "--after", "2024-05-12", "--before", "2024-05-12"])
        #expect(dated.exitCode == 0)
        #expect(dated.stdout.hasPrefix("panorama   helsinki/R0010023"))
    }

    @Test func sceneNearAPlaceName() throws {
        let result = try run(["scene", "--near", "Senaatintori", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let answer = try Self.json(result.stdout)
        #expect(answer["request_id"] as? String == "Senaatintori")
        #expect((answer["scene"] as? [String: Any])?["panorama_id"] as? String == "helsinki/R0010023")
        let missing = try run(["scene", "--near", "Qwertyuiop"])
        #expect(missing.exitCode == 1)
        #expect(missing.stderr.contains("no place matches 'Qwertyuiop'"))
    }

    @Test(arguments: [
        (["scene", "--lat", "nan", "--lon", "24.95"], "--lat 'nan' is not a finite number; allowed -90…90"),
        (["scene", "--lat", "91", "--lon", "24.95"], "--lat 91 is out of range; allowed -90…90"),
        (["scene", "--lat", "60", "--lon", "-181"], "--lon -181 is out of range; allowed -180…180"),
        (["scene", "--lat", "60"], "give both --lat and --lon"),
        (["scene", "--lat", "60", "--lon", "24", "--radius-meters", "20000"], "--radius-meters 20000 is out of range; allowed 0…10000"),
        (["scene", "--lat", "60", "--lon", "24", "--preference", "closest"], "closest"),
        (["scene", "--lat", "60", "--lon", "24", "--after", "yesterday"], "--after 'yesterday' is not a date"),
        (["scene", "--tile", "17/1"], "--tile '17/1' is not Z/X/Y"),
        (["scene"], "give --lat and --lon, --near NAME"),
        (["search", "cafe", "--limit", "0"], "--limit 0 is out of range; allowed 1…1000"),
    ])
    func badInputIsExitCode64WithTheAllowedRange(arguments: [String], message: String) throws {
        let result = try run(arguments)
        #expect(result.exitCode == 64, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
    }

    @Test func missingCatalogIsExitCode66() throws {
        let result = try run(["scene", "--lat", "60", "--lon", "24", "--catalog", "/nonexistent/catalog.sqlite"])
        #expect(result.exitCode == 66)
        #expect(result.stderr.contains("no catalog at /nonexistent/catalog.sqlite; build it with 'lookaround index'"))
    }

    @Test func indexOfAMissingFolderIsExitCode66() throws {
        let result = try run(["index", "no-such-folder", "--catalog", "elsewhere.sqlite", "--no-osm"])
        #expect(result.exitCode == 66)
        #expect(result.stderr.contains("no-such-folder is not a folder"))
        let noFolder = try run(["index", "Panoramas/helsinki", "--catalog", "missing/dir/c.sqlite", "--no-osm"])
        #expect(noFolder.exitCode == 66)
        #expect(noFolder.stderr.contains("the catalog's folder does not exist"))
    }

    @Test func batchJSONLinesInAndOut() throws {
        let input = """
            {"latitude": 60.1699, "longitude": 24.9523, "id": "square"}
            {"lat": 60.2, "lon": 24.95, "id": "north"}
            """
        let result = try run(["scene", "--batch", "-"], stdin: input)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        let first = try Self.json(lines[0]), second = try Self.json(lines[1])
        #expect(first["request_id"] as? String == "square" && first["found"] as? Bool == true)
        #expect(second["request_id"] as? String == "north" && second["found"] as? Bool == false)
        #expect((second["no_coverage"] as? [String: Any])?["reason"] as? String == "nothing_within_radius")
    }

    @Test func batchCSVWithABadLine() throws {
        let input = "lat,lon,radius_meters,id\n60.1699,24.9523,20,a\n95,24,,b\n60.1687,24.9417\n"
        let result = try run(["scene", "--batch", "-"], stdin: input)
        #expect(result.exitCode == 65)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(try Self.json(lines[0])["found"] as? Bool == true)
        #expect(try Self.json(lines[1])["line"] as? Int == 3)
        #expect((try Self.json(lines[2])["scene"] as? [String: Any])?["panorama_id"] as? String == "helsinki/capture")
        #expect(result.stderr.contains("batch line 3"))
    }

    @Test func tileAndIDLookup() throws {
        let tile = try run(["scene", "--tile", "15/18655/9484", "--json"])
        #expect(tile.exitCode == 0, "\(tile.stderr)")
        #expect((try Self.json(tile.stdout)["panoramas"] as? [Any])?.count == 2)   // the sidecar camera is in the next tile west
        let empty = try run(["scene", "--tile", "3/0/0"])
        #expect(empty.exitCode == 1)
        let id = try run(["scene", "--id", "helsinki/IMG_20240512_101530_00_001"])
        #expect(id.exitCode == 0)
        #expect(id.stdout.contains("(64×24 of 64×32)"))
        #expect(id.stdout.contains("heading    180.0° (PoseHeadingDegrees)"))
        let unknown = try run(["scene", "--id", "nope"])
        #expect(unknown.exitCode == 1)
        #expect(unknown.stderr.contains("no panorama with id 'nope'"))
    }

    @Test func searchIsDiacriticInsensitiveAndRanked() throws {
        let result = try run(["search", "paaposti"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("1. Pääposti (post_office)"))
        let typo = try run(["search", "Stokmann", "--near", "60.1699,24.9523", "--json"])
        #expect(typo.exitCode == 0)
        let matches = try #require(try JSONSerialization.jsonObject(with: Data(typo.stdout.utf8)) as? [[String: Any]])
        #expect((matches.first?["place"] as? [String: Any])?["name"] as? String == "Stockmann")
        #expect(matches.first?["kind"] as? String == "typo")
        let swedish = try run(["search", "senaatintori", "--language", "sv"])
        #expect(swedish.stdout.hasPrefix("1. Senatstorget (square)"))
        let none = try run(["search", "Qwertyuiop"])
        #expect(none.exitCode == 1)
        #expect(none.stdout == "no place matches 'Qwertyuiop'\n")
    }
}

/// `--catalog postgres://…` on the command line: a database that is down is exit 69 with the reason, a
/// password in the URL is refused (64) and never printed.
@Suite struct PostGISCLITests {
    @Test func aDatabaseThatIsDownIsExit69() throws {
        // `serve` too: a service whose catalog is down at start does not listen (its load balancer
        // would send it traffic it can only answer with 503).
        for command in [["scene", "--lat", "60.17", "--lon", "24.95"], ["search", "Stockmann"], ["serve", "--listen", "127.0.0.1:0"]] {
            let start = Date()
            let result = try Lookaround.run(command + ["--catalog", "postgresql://lookaround@127.0.0.1:9/lookaround"])
            #expect(result.exitCode == 69, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("is unavailable") && result.stderr.contains("127.0.0.1:9"), "\(command): \(result.stderr)")
            #expect(Date().timeIntervalSince(start) < 15, "\(command)")
        }
    }

    @Test func aPasswordInTheURLIsRefusedAndMasked() throws {
        for command in [["scene", "--lat", "60.17", "--lon", "24.95"], ["search", "Stockmann"], ["index", "--no-osm"]] {
            let result = try Lookaround.run(command + ["--catalog", "postgres://lookaround:hunter2@127.0.0.1/lookaround"])
            #expect(result.exitCode == 64, "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("hunter2") && !result.stdout.contains("hunter2"))
            #expect(result.stderr.contains("lookaround:****@127.0.0.1"))
        }
    }
}
