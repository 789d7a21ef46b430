import Foundation
import Imaging
import Testing
import TestSupport
import Video
import VideoTestSupport

/// `lookaround video info`, `video frames` and `index` over folders with videos, as a user runs them: real
/// GoPro files, and recordings made from the shipped panoramas (an equirectangular MP4 with a GPX log beside
/// it, GoPro MAX `.360` chapters) that index into sequences and walk.
@Suite(.serialized) struct VideoCLITests {
    static let shipped = Lookaround.repository.appendingPathComponent("Panoramas/helsinki")
    static let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
    static let ids = (10...15).map { String(format: "aleksanterinkatu-%03d", $0) }

    struct Truth: Decodable { var latitude: Double; var longitude: Double; var headingDegrees: Double; var captureTime: String }

    static func truth(_ id: String) throws -> Truth {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Truth.self, from: Data(contentsOf: shipped.appendingPathComponent("\(id).json")))
    }

    static func requireFFmpeg() throws {
        guard FileManager.default.isExecutableFile(atPath: TestRecordings.ffmpeg) else {
            try Test.cancel("skipped: no \(TestRecordings.ffmpeg) to encode the test recordings (scripts/install-test-tools.sh installs it)")
        }
    }

    static func sharedFile(_ name: String) throws -> String {
        guard let folder = TestRecordings.sharedVideoData(besides: Lookaround.repository),
              FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) else {
            try Test.cancel("skipped: \(name) is not in ../shared/data/video beside the project")
        }
        return folder.appendingPathComponent(name).path
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    static func metres(_ lat: Double, _ lon: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let p1 = lat * .pi / 180, p2 = lat2 * .pi / 180, dl = (lon2 - lon) * .pi / 180
        let h = sin((p2 - p1) / 2) * sin((p2 - p1) / 2) + cos(p1) * cos(p2) * sin(dl / 2) * sin(dl / 2)
        return 2 * 6_371_008.8 * asin(min(1, h.squareRoot()))
    }

    // MARK: video info

    /// A GoPro MAX in HERO (flat) mode: `video info` reads its track (checked against exiftool's points);
    /// `video frames` refuses it, saying why.
    @Test func infoOfAFlatGoProAndItsRefusal() throws {
        let path = try Self.sharedFile("max-heromode.mp4")
        let info = try Lookaround.run(["video", "info", path, "--json"])
        #expect(info.exitCode == 0, "\(info.stderr)")
        let report = try Self.json(info.stdout)
        #expect(report["projection"] as? String == "flat")
        #expect(abs((report["duration_seconds"] as? Double ?? 0) - 10.517) < 0.01)
        #expect(report["gps_samples"] as? Int == 191 && report["gps_source"] as? String == "GPMF GPS5")
        // The track's length from exiftool's reading of the same points (its embedded documents, `DocN`;
        // `Main` is the file's one summary position, not a sample).
        let outcome = try Lookaround.runProcess("/usr/bin/exiftool", ["-ee", "-n", "-G3", "-s3", "-GPSLatitude", "-GPSLongitude", path])
        let numbers = outcome.stdout.split(separator: "\n").filter { $0.hasPrefix("Doc") }.compactMap { Double($0.split(separator: " ").last ?? "") }
        let half = numbers.count / 2
        let points = Array(zip(numbers[0..<half], numbers[half...]))
        let exiftoolMeters = zip(points, points.dropFirst()).reduce(0.0) { $0 + Self.metres($1.0.0, $1.0.1, $1.1.0, $1.1.1) }
        let trackMeters = try #require(report["track_meters"] as? Double)
        #expect(half == 191 && abs(trackMeters - exiftoolMeters) < 0.2, "track \(trackMeters) m, exiftool's points \(exiftoolMeters) m")
        let index = try #require(report["index"] as? [String: Any])
        #expect(index["action"] as? String == "refused" && (index["reason"] as? String ?? "").contains("flat"))
        let text = try Lookaround.run(["video", "info", path])
        #expect(text.exitCode == 0 && text.stdout.contains("projection    flat: 848x480") && text.stdout.contains("gps           191 samples from GPMF GPS5"),
                "\(text.stdout)")
        #expect(text.stdout.contains("camera        GoPro Max, serial C3353424500199, firmware H19.03.01.30.00"), "\(text.stdout)")
        let folder = try Lookaround.temporaryDirectory()
        let frames = try Lookaround.run(["video", "frames", path, "-o", folder.appendingPathComponent("out").path])
        #expect(frames.exitCode == 65 && frames.stderr.contains("a flat (not 360°) video") && frames.stderr.contains("video info")
                && !frames.stderr.contains("--projection"), "\(frames.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
        // Its orientation: CORI combined with IORI (HyperSmooth's turn of the picture against the body).
        #expect(text.stdout.contains("orientation   GPMF CORI+IORI") && report["orientation_source"] as? String == "GPMF CORI+IORI", "\(text.stdout)")
        // Forcing equirectangular onto a picture that is not 2:1 would write squeezed spheres: refused, nothing written.
        let forced = try Lookaround.run(["video", "frames", path, "-o", folder.appendingPathComponent("out").path, "--projection", "equirectangular"])
        #expect(forced.exitCode == 64 && forced.stderr.contains("--projection equirectangular") && forced.stderr.contains("848x480"), "\(forced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func helpAndBadArguments() throws {
        let help = try Lookaround.run(["video", "frames", "--help"])
        #expect(help.exitCode == 0 && help.stdout.contains("--video-every-meters") && help.stdout.contains("GoPro MAX"))
        let group = try Lookaround.run(["video", "--help"])
        #expect(group.exitCode == 0 && group.stdout.contains("info") && group.stdout.contains("frames"))
        let missing = try Lookaround.run(["video", "info", "/nonexistent/GS010001.360"])
        #expect(missing.exitCode == 66 && missing.stderr.contains("no such file"), "\(missing.stderr)")
        let spacing = try Lookaround.run(["video", "frames", "x.mp4", "-o", "out", "--video-every-meters", "0.1"])
        #expect(spacing.exitCode == 64 && spacing.stderr.contains("0.5"), "\(spacing.stderr)")
        let text = try Lookaround.temporaryDirectory().appendingPathComponent("notes.mp4")
        try Data("not a video".utf8).write(to: text)
        let bad = try Lookaround.run(["video", "info", text.path])
        #expect(bad.exitCode == 65 && bad.stderr.contains("not a readable MP4"), "\(bad.stderr)")
    }

    // MARK: index

    /// `walk.mp4`, an equirectangular video of the shipped panoramas `ids` (one a second), and `walk.gpx`, their
    /// positions at 12 m/s, written into `videos`; the panoramas' truths in order.
    static func walkVideo(_ ids: [String], in videos: URL) throws -> [Truth] {
        let truths = try ids.map(Self.truth)
        let panoramas = try ids.map { try JPEGCodec.decodeRGB(try ImageFile.read(Self.shipped.appendingPathComponent("\($0).jpg").path)).image }
        let start = Date(timeIntervalSince1970: 1_781_514_930)
        try TestRecordings.equirectangularMP4(panoramas: panoramas, path: videos.appendingPathComponent("walk.mp4").path, fps: 1,
                                              creationTime: ISO8601DateFormatter().string(from: start))
        let fixes = truths.enumerated().map { k, t in
            TestFix(latitude: t.latitude, longitude: t.longitude, altitudeMeters: 2.5, speedMetersPerSecond: 12, utc: start.addingTimeInterval(Double(k)))
        }
        try TestRecordings.gpx(fixes).write(toFile: videos.appendingPathComponent("walk.gpx").path, atomically: true, encoding: .utf8)
        return truths
    }

    /// ``walkVideo(_:in:)`` of the first `count` of ``ids`` in the folder `name` of a new temporary folder.
    static func newWalkVideo(count: Int, folder name: String = "videos") throws -> (root: URL, videos: URL, truths: [Truth]) {
        let root = try Lookaround.temporaryDirectory()
        let videos = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: videos, withIntermediateDirectories: true)
        return (root, videos, try walkVideo(Array(ids.prefix(count)), in: videos))
    }

    /// An equirectangular MP4 made from six shipped panoramas (one per second) with a GPX log of their
    /// positions beside it: one sequence whose frames lie within 1 m of the track, derived depth from the
    /// extract, and a walk along it that moves through the depth maps.
    @Test func equirectangularVideoWithGPXIndexesAndWalks() throws {
        try Self.requireFFmpeg()
        let (root, videos, truths) = try Self.newWalkVideo(count: Self.ids.count)
        let catalog = root.appendingPathComponent("walk.sqlite").path
        let index = try Lookaround.run(["index", videos.path, "--catalog", catalog, "--osm", Self.osm, "--video-every-meters", "12"])
        #expect(index.exitCode == 0, "\(index.stdout)\(index.stderr)")
        #expect(index.stdout.contains("videos      1 file, 6 frames in " + root.appendingPathComponent("walk.frames").path), "\(index.stdout)")
        #expect(index.stdout.contains("sequences   1,") && index.stdout.contains("derived     depth and labels of 6 photos"), "\(index.stdout)")
        // Frames beside the catalog, none beside the video.
        let frames = root.appendingPathComponent("walk.frames/videos/walk.mp4")
        #expect(try FileManager.default.contentsOfDirectory(atPath: videos.path).sorted() == ["walk.gpx", "walk.mp4"])
        #expect(FileManager.default.fileExists(atPath: frames.appendingPathComponent("000005.jpg").path))
        var sequence = ""
        for (k, truth) in truths.enumerated() {
            let scene = try Lookaround.run(["scene", "--catalog", catalog, "--id", String(format: "walk/%06d", k), "--json"])
            #expect(scene.exitCode == 0, "\(scene.stderr)")
            let panorama = try #require(try Self.json(scene.stdout)["panorama"] as? [String: Any])
            // The alignment with the city model may move a frame by its correction; the metadata position is the track's.
            let alignment = panorama["alignment"] as? [String: Any]
            let coordinate = try #require(panorama["coordinate"] as? [String: Double], "\(panorama)")
            let latitude = try #require(alignment?["metadata_latitude"] as? Double ?? coordinate["latitude"])
            let longitude = try #require(alignment?["metadata_longitude"] as? Double ?? coordinate["longitude"])
            #expect(Self.metres(latitude, longitude, truth.latitude, truth.longitude) < 1, "frame \(k): \(latitude), \(longitude)")
            #expect(panorama["maps_source"] as? String == "derived", "frame \(k): \(panorama)")
            sequence = panorama["sequence_name"] as? String ?? sequence
        }
        #expect(sequence == "videos/walk.mp4/camera", "\(sequence)")
        let plan = try Lookaround.run(["walk", "--catalog", catalog, "--sequence", sequence, "--dry-run", "--json"])
        let planned = try Self.json(plan.stdout)["panoramas"] as? [[String: Any]]
        #expect(plan.exitCode == 0 && planned?.count == 6, "\(plan.stdout)\(plan.stderr)")
        let walk = try Lookaround.run(["walk", "--catalog", catalog, "--sequence", sequence, "--osm", "none", "--size", "160x90", "--fps", "4",
                                       "--pause-seconds", "0", "-o", root.appendingPathComponent("walk-frames").path + "/", "--json", "--quiet"])
        #expect(walk.exitCode == 0, "\(walk.stderr)")
        let report = try Self.json(walk.stdout)
        #expect(report["depth_warped_moves"] as? Int == 5 && report["crossfaded_moves"] as? Int == 0, "\(report)")
        // Again: the video is not decoded again and its frames are not read again.
        let again = try Lookaround.run(["index", videos.path, "--catalog", catalog, "--osm", Self.osm, "--video-every-meters", "12"])
        #expect(again.exitCode == 0 && again.stdout.contains("(6 files: 0 read, 6 unchanged"), "\(again.stdout)")
    }

    /// `index --blur` blurs the frames it writes before it reads them (the XMP marker on each frame, the count
    /// in the report line), and a second run finds them blurred; `serve` then starts without --serve-unblurred.
    @Test func indexBlurBlursTheFramesItWrites() throws {
        try Self.requireFFmpeg()
        let (root, videos, _) = try Self.newWalkVideo(count: 3)
        let catalog = root.appendingPathComponent("walk.sqlite").path
        let arguments = ["index", videos.path, "--catalog", catalog, "--no-osm", "--video-every-meters", "12", "--blur"]
        let index = try Lookaround.run(arguments)
        #expect(index.exitCode == 0, "\(index.stdout)\(index.stderr)")
        #expect(index.stdout.contains("blurred     3 photos (3 of them video frames; 0 faces, 0 plates)"), "\(index.stdout)")
        let frames = root.appendingPathComponent("walk.frames/videos/walk.mp4")
        for k in 0..<3 {
            let bytes = try Data(contentsOf: frames.appendingPathComponent(String(format: "%06d.jpg", k)))
            #expect(bytes.range(of: Data("urn:x-lookaround:privacy:1.0/".utf8)) != nil, "frame \(k) has no blur marker")
        }
        let again = try Lookaround.run(arguments)
        #expect(again.exitCode == 0 && again.stdout.contains("blurred     0 photos (0 faces, 0 plates); 3 already blurred"), "\(again.stdout)")
        let server = try ServeCLITests.Server(["--catalog", catalog])
        defer { _ = server.terminate() }
        let health = try RawHTTPClient(port: server.port).get("/v1/health")
        #expect(health.status == 200, "\(health.text)")
    }

    /// A folder as a camera's card leaves it: a GoPro MAX recording in two chapters, a flat GoPro video and an
    /// Insta360 original without its export. One sequence from the chapters, the flat video a warning, the
    /// .insv a failure naming the export it needs.
    @Test func aCameraFolderWithChaptersAFlatVideoAndAnInsv() throws {
        try Self.requireFFmpeg()
        let root = try Lookaround.temporaryDirectory()
        let card = root.appendingPathComponent("DCIM")
        try FileManager.default.createDirectory(at: card, withIntermediateDirectories: true)
        let layout = try GoProMaxLayout.max56K.scaled(by: 4)
        let ids = Array(Self.ids.prefix(4))
        let truths = try ids.map(Self.truth)
        let size = PixelSize(width: 4 * layout.faceSize, height: 2 * layout.faceSize)
        let panoramas = try ids.map { try Resampler.resize(try JPEGCodec.decodeRGB(try ImageFile.read(Self.shipped.appendingPathComponent("\($0).jpg").path)).image,
                                                           to: size, filter: .lanczos3) }
        let start = Date(timeIntervalSince1970: 1_781_514_930)
        for chapter in 0..<2 {
            let payloads = (0..<2).map { s -> [UInt8] in
                let k = 2 * chapter + s
                let a = truths[k], b = truths[min(k + 1, 3)]
                let step = k < 3 ? (b.latitude - a.latitude, b.longitude - a.longitude) : (a.latitude - truths[2].latitude, a.longitude - truths[2].longitude)
                let fixes = (0..<10).map { j in
                    TestFix(latitude: a.latitude + step.0 * Double(j) / 10, longitude: a.longitude + step.1 * Double(j) / 10, altitudeMeters: 12,
                            speedMetersPerSecond: 12, utc: start.addingTimeInterval(Double(k) + Double(j) / 10))
                }
                return GPMFWriter.payload(fixes: fixes)
            }
            try TestRecordings.goProMax360(panoramas: Array(panoramas[(2 * chapter)..<(2 * chapter + 2)]), layout: layout, payloads: payloads,
                                           path: card.appendingPathComponent(String(format: "GS%02d0042.360", chapter + 1)).path)
        }
        if let flat = TestRecordings.sharedVideoData(besides: Lookaround.repository)?.appendingPathComponent("max-heromode.mp4"),
           FileManager.default.fileExists(atPath: flat.path) {
            try FileManager.default.copyItem(at: flat, to: card.appendingPathComponent("GH010043.MP4"))
        }
        let plain = root.appendingPathComponent("plain.mp4").path
        try TestRecordings.runFFmpeg(["-f", "lavfi", "-i", "testsrc2=size=256x128:rate=2", "-t", "4", "-c:v", "libx264", "-pix_fmt", "yuv420p", plain])
        let fixes = (0..<10).map { TestFix(latitude: 60.17 + Double($0) * 1e-5, longitude: 24.94, speedMetersPerSecond: 1.1, utc: start.addingTimeInterval(Double($0) / 5)) }
        try Data([UInt8](try Data(contentsOf: URL(fileURLWithPath: plain))) + Insta360TrailerWriter.trailer(fixes: fixes))
            .write(to: card.appendingPathComponent("VID_20260615_091530_00_007.insv"))
        let catalog = root.appendingPathComponent("card.sqlite").path
        let index = try Lookaround.run(["index", card.path, "--catalog", catalog, "--no-osm", "--video-every-meters", "12"])
        #expect(index.exitCode == 65, "\(index.stdout)\(index.stderr)")
        #expect(index.stdout.contains("panoramas   4 (4 files") && index.stdout.contains("sequences   1,"), "\(index.stdout)")
        #expect(index.stdout.contains("VID_20260615_091530_00_007.insv: an Insta360 .insv holds two fisheye pictures")
                && index.stdout.contains("Insta360 Studio") && index.stdout.contains("its GPS (10 fixes"), "\(index.stdout)")
        if FileManager.default.fileExists(atPath: card.appendingPathComponent("GH010043.MP4").path) {
            #expect(index.stdout.contains("warning     \(card.path)/GH010043.MP4: a flat (not 360°) video"), "\(index.stdout)")
        }
        for (k, truth) in truths.enumerated() {
            let scene = try Lookaround.run(["scene", "--catalog", catalog, "--id", String(format: "GS010042/%06d", k), "--json"])
            let panorama = try #require(try Self.json(scene.stdout)["panorama"] as? [String: Any], "\(scene.stderr)")
            let coordinate = try #require(panorama["coordinate"] as? [String: Double], "\(panorama)")
            let latitude = try #require(coordinate["latitude"]), longitude = try #require(coordinate["longitude"])
            #expect(Self.metres(latitude, longitude, truth.latitude, truth.longitude) < 1, "frame \(k): \(latitude), \(longitude)")
            #expect(panorama["image_width"] as? Int == size.width && panorama["sequence_name"] as? String == "DCIM/GS010042.360/GoPro Max")
        }
        // The README's commands as written ("360° video"), from the folder holding DCIM.
        let info = try Lookaround.run(["video", "info", "DCIM/GS010042.360"], in: root)
        #expect(info.exitCode == 0 && info.stdout.contains("projection    gopro-max-eac: two 1024x336 HEVC streams")
                && info.stdout.contains("GS020042.360 (one recording)") && info.stdout.contains("index         would write"), "\(info.stdout)\(info.stderr)")
        let walk = try Lookaround.run(["walk", "--catalog", "card.sqlite", "--sequence", "DCIM/GS010042.360/GoPro Max", "--dry-run", "--json"], in: root)
        let walked = try Self.json(walk.stdout)["panoramas"] as? [[String: Any]]
        #expect(walk.exitCode == 0 && walked?.count == 4, "\(walk.stdout)\(walk.stderr)")
        let frames = try Lookaround.run(["video", "frames", "DCIM/GS010042.360", "-o", "frames", "--video-every-meters", "12"], in: root)
        #expect(frames.exitCode == 0 && frames.stdout.contains("frames      4 of \(size.width)x\(size.height) in frames"), "\(frames.stdout)\(frames.stderr)")
        #expect(frames.stderr.contains("video frames GS010042.360:") && frames.stderr.contains("left"), "progress: \(frames.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("frames").path).sorted()
        #expect(written == ["GS010042-000000.jpg", "GS010042-000001.jpg", "GS010042-000002.jpg", "GS010042-000003.jpg", "frames.json"], "\(written)")
        // Nothing was written beside the videos.
        #expect(try FileManager.default.contentsOfDirectory(atPath: card.path).allSatisfy { $0.hasPrefix("GS0") || $0.hasPrefix("GH0") || $0.hasPrefix("VID_") })
    }
}
