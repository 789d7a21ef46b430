import Foundation
import Imaging
import Testing
import TestSupport
import VideoTestSupport

/// Imagery in object storage, as users run it: the shipped panoramas copied into a bucket of a real S3
/// server (SeaweedFS, with credentials) and indexed from `s3://…` into the same rows as from the disk;
/// snapshots and `/v1/snapshot` byte-identical to the local ones; two `serve` processes on PostGIS and
/// one bucket answering alike; the server stopped mid-run (503 with a reason, health names the store)
/// and started again (200, the same `serve`); a wrong secret named; a multipart upload killed half-way
/// leaving no object.
@Suite(.serialized, .enabled(if: S3TestServer.shared != nil, Comment(rawValue: S3TestServer.skipNote)))
struct ObjectStorageCLITests {
    static let panoramas = Lookaround.repository.appendingPathComponent("Panoramas/helsinki").path
    static let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    /// A bucket holding the shipped panoramas under `Panoramas/helsinki`, and the folder and server of it.
    struct Setup {
        var root: URL
        var bucket: String
        var server: S3TestServer
        var environment: [String: String] { server.environment }
        var folder: String { "s3://\(bucket)/Panoramas/helsinki" }
    }

    static func copyPanoramas(to server: S3TestServer, bucket: String) throws -> Setup {
        let root = try Lookaround.temporaryDirectory()
        let made = try Lookaround.run(["storage", "mb", "s3://\(bucket)"], environment: server.environment)
        guard made.exitCode == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: made.stderr]) }
        let copied = try Lookaround.run(["storage", "cp", "--recursive", "--quiet", panoramas, "s3://\(bucket)/Panoramas/helsinki"],
                                        environment: server.environment)
        guard copied.exitCode == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSDebugDescriptionErrorKey: copied.stderr]) }
        return Setup(root: root, bucket: bucket, server: server)
    }

    static let shared = Result { () throws -> Setup in
        guard let server = S3TestServer.shared else { throw CocoaError(.featureUnsupported) }
        return try copyPanoramas(to: server, bucket: S3TestServer.bucketName("shipped"))
    }

    /// The rows two catalogs hold, without the paths (and the ETags only S3 has): every panorama's id,
    /// position, pose, time, size, sequence and maps, and every link.
    static func rows(_ catalog: String) throws -> (panoramas: String, links: String, paths: [String]) {
        // Python's imports as `from X import …` (a line starting `import X` reads as a Swift import to PackageManifestTests).
        let script = """
            from sqlite3 import connect; import sys
            c = connect(sys.argv[1])
            for r in c.execute("select p.id, p.latitude, p.longitude, p.heading_degrees, p.pitch_degrees, p.roll_degrees, p.capture_time, "
                               "p.image_width, p.image_height, s.name, p.sequence_index, p.depth_path is not null, p.labels_path is not null, "
                               "p.source, p.heading_source, p.capture_time_source, p.file_size from panoramas p join sequences s on s.id = p.sequence order by p.id"):
                print("P", repr(r))
            for r in c.execute("select a.id, b.id, l.heading_degrees, l.distance_meters, l.kind from links l join panoramas a on a.row = l.from_row "
                               "join panoramas b on b.row = l.to_row order by 1, 2"):
                print("L", repr(r))
            for r in c.execute("select image_path from panoramas order by id"):
                print("I", r[0])
            """
        let result = try Lookaround.runProcess("/usr/bin/python3", ["-c", script, catalog])
        guard result.exitCode == 0 else { throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: result.stderr]) }
        let lines = result.stdout.split(separator: "\n")
        return (lines.filter { $0.hasPrefix("P ") }.joined(separator: "\n"), lines.filter { $0.hasPrefix("L ") }.joined(separator: "\n"),
                lines.filter { $0.hasPrefix("I ") }.map { String($0.dropFirst(2)) })
    }

    @Test func indexedFromTheBucketIntoTheSameRowsWithTheSameSnapshots() throws {
        let setup = try Self.shared.get()
        let local = setup.root.appendingPathComponent("local.sqlite").path, remote = setup.root.appendingPathComponent("s3.sqlite").path
        let fromDisk = try Lookaround.run(["index", Self.panoramas, "--catalog", local, "--osm", Self.osm, "--quiet"])
        #expect(fromDisk.exitCode == 0, "\(fromDisk.stderr)")
        let fromBucket = try Lookaround.run(["index", setup.folder, "--catalog", remote, "--osm", Self.osm, "--json", "--quiet"],
                                            environment: setup.environment)
        #expect(fromBucket.exitCode == 0, "\(fromBucket.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(fromBucket.stdout.utf8)) as? [String: Any])
        #expect(report["files_found"] as? Int == 189 && report["files_read"] as? Int == 189 && (report["failures"] as? [Any])?.isEmpty == true)

        let disk = try Self.rows(local), bucket = try Self.rows(remote)
        #expect(disk.panoramas.split(separator: "\n").count == 189 && disk.links.split(separator: "\n").count > 500)
        #expect(disk.panoramas == bucket.panoramas, "the same ids, positions, poses, times, sequences")
        #expect(disk.links == bucket.links, "the same links")
        #expect(bucket.paths.allSatisfy { $0.hasPrefix(setup.folder + "/") } && bucket.paths.count == 189)
        #expect(zip(disk.paths, bucket.paths).allSatisfy { FilePath.name(of: $0) == FilePath.name(of: $1) })

        // Incremental: unchanged sizes and ETags are not read again; a replaced object is.
        let again = try Lookaround.run(["index", setup.folder, "--catalog", remote, "--osm", Self.osm, "--json", "--quiet"],
                                       environment: setup.environment)
        let second = try #require(try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any])
        #expect(second["files_read"] as? Int == 0 && second["files_unchanged"] as? Int == 189, "\(again.stdout.prefix(400))")

        // Snapshots from the two catalogs: the same bytes.
        for (scene, heading) in [("senaatintori-005", "120"), ("aleksanterinkatu-010", "300"), ("etelaesplanadi-003", "45")] {
            var images: [[UInt8]] = []
            for catalog in [local, remote] {
                let output = setup.root.appendingPathComponent("\(scene)-\(FilePath.name(of: catalog)).png").path
                let result = try Lookaround.run(["snapshot", "--catalog", catalog, "--scene", scene, "--heading-degrees", heading,
                                                 "--size", "640x480", "-o", output], environment: setup.environment)
                #expect(result.exitCode == 0, "\(result.stderr)")
                images.append(try ImageFile.read(output))
            }
            #expect(images[0] == images[1] && images[0].count > 10_000, "\(scene): the snapshot from S3 differs from the local one")
        }

        // /v1/snapshot from both: the same bytes as each other and as the CLI's.
        let servers = try [local, remote].map { try BackgroundServer(["--catalog", $0], environment: setup.environment) }
        defer { servers.forEach { _ = $0.terminate() } }
        for query in ["scene=senaatintori-005&heading_degrees=120&size=640x480&format=png", "lat=60.1686&lon=24.9450&size=320x240"] {
            let answers = try servers.map { try RawHTTPClient(port: $0.port).get("/v1/snapshot?" + query) }
            #expect(answers.allSatisfy { $0.status == 200 }, "\(answers.map(\.status)): \(answers.map { $0.text.prefix(200) })")
            #expect(answers[0].body == answers[1].body, "/v1/snapshot?\(query) differs")
        }
        let cli = try ImageFile.read(setup.root.appendingPathComponent("senaatintori-005-s3.sqlite.png").path)
        let served = try RawHTTPClient(port: servers[1].port).get("/v1/snapshot?scene=senaatintori-005&heading_degrees=120&size=640x480&format=png")
        #expect(served.body == cli, "/v1/snapshot and lookaround snapshot agree")
    }

    @Test(.enabled(if: PostGISTestServer.url != nil, "\(PostGISTestServer.unavailableReason ?? "")"))
    func twoServeProcessesOnPostGISAndOneBucketAnswerAlike() throws {
        let setup = try Self.shared.get()
        let url = try PostGISTestServer.freshDatabase("s3serve")
        defer { PostGISTestServer.drop(url) }
        var environment = setup.environment
        environment["LOOKAROUND_TILE_DIR"] = "s3://\(setup.bucket)/tiles"
        let index = try Lookaround.run(["index", setup.folder, "--catalog", url, "--osm", Self.osm, "--tiles", "--json", "--quiet"],
                                       environment: environment)
        #expect(index.exitCode == 0, "\(index.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(index.stdout.utf8)) as? [String: Any])
        let tiles = try #require(report["tiles"] as? [String: Any])
        #expect(tiles["made"] as? Int == 189 && tiles["directory"] as? String == "s3://\(setup.bucket)/tiles")
        let listed = try Lookaround.run(["storage", "ls", "s3://\(setup.bucket)/tiles"], environment: environment)
        #expect(listed.stdout.split(separator: "\n").count == 189 && listed.stdout.contains("senaatintori-005.lktiles"))

        let publicURL = setup.server.endpoint + "/{bucket}"
        let first = try BackgroundServer(["--catalog", url], environment: environment)
        let second = try BackgroundServer(["--catalog", url, "--public-imagery-url", publicURL, "--cache-dir",
                                           setup.root.appendingPathComponent("cache").path], environment: environment)
        defer { _ = first.terminate(); _ = second.terminate() }
        for path in ["/v1/scene?lat=60.1699&lon=24.9523", "/v1/panoramas/etelaesplanadi-003", "/v1/snapshot?scene=senaatintori-005&size=640x480",
                     "/v1/snapshot?scene=aleksanterinkatu-020&heading_degrees=90&size=320x240&format=png",
                     "/maps/api/streetview?size=400x300&location=60.1686,24.9450", "/v1/panoramas/senaatintori-005/tiles/1/1/0.jpg"] {
            let a = try RawHTTPClient(port: first.port).get(path), b = try RawHTTPClient(port: second.port).get(path)
            #expect(a.status == 200 && b.status == 200, "\(path): \(a.status) \(b.status) \(a.text.prefix(200))")
            // The second names public URLs besides (JSON answers); everything else is the same bytes.
            let withoutURLs = b.text.replacingOccurrences(of: #","(image|depth|labels|file)_url":"[^"]*""#, with: "", options: .regularExpression)
                .replacingOccurrences(of: #""(image|depth|labels|file)_url":"[^"]*","#, with: "", options: .regularExpression)
            #expect(a.body == b.body || (b.header("Content-Type")?.contains("json") == true && a.text == withoutURLs),
                    "\(path): the two processes answered differently")
        }
        let described = try RawHTTPClient(port: second.port).get("/v1/panoramas/etelaesplanadi-003").json()
        let key = "Panoramas/helsinki/etelaesplanadi-003"
        #expect(described["image_url"] as? String == "\(setup.server.endpoint)/\(setup.bucket)/\(key).jpg")
        #expect(described["depth_url"] as? String == "\(setup.server.endpoint)/\(setup.bucket)/\(key).depth.png")
        #expect((described["tiles"] as? [String: Any])?["file_url"] as? String == "\(setup.server.endpoint)/\(setup.bucket)/tiles/etelaesplanadi-003.lktiles")
        #expect(try RawHTTPClient(port: first.port).get("/v1/panoramas/etelaesplanadi-003").json()["image_url"] == nil, "no URL without the option")
        let scene = try RawHTTPClient(port: second.port).get("/v1/scene?lat=60.1699&lon=24.9523").json()
        #expect(((scene["scene"] as? [String: Any])?["image_url"] as? String)?.hasPrefix("\(setup.server.endpoint)/\(setup.bucket)/") == true)
        let health = try RawHTTPClient(port: first.port).get("/v1/health").json()
        #expect(health["status"] as? String == "ok")
        #expect((health["storage"] as? [[String: Any]])?.first?["store"] as? String == "s3://\(setup.bucket)")
    }

    @Test func anOutageIsA503WithAReasonAndServiceResumesByItself() throws {
        let server = try S3TestServer.startPrivate()
        defer { try? server.stop() }
        let setup = try Self.copyPanoramas(to: server, bucket: "outage")
        let catalog = setup.root.appendingPathComponent("catalog.sqlite").path
        let index = try Lookaround.run(["index", setup.folder, "--catalog", catalog, "--osm", Self.osm, "--quiet"], environment: setup.environment)
        #expect(index.exitCode == 0, "\(index.stderr)")
        let serve = try BackgroundServer(["--catalog", catalog], environment: setup.environment)
        defer { _ = serve.terminate() }
        let client = { try RawHTTPClient(port: serve.port, timeoutSeconds: 30) }
        #expect(try client().get("/v1/snapshot?scene=senaatintori-005&size=320x240").status == 200)
        #expect(try client().get("/v1/health").status == 200)

        try server.stop()
        // A view that needs the bucket (a panorama not read yet): 503, the reason, Retry-After.
        let down = try client().get("/v1/snapshot?scene=aleksanterinkatu-015&size=320x240")
        #expect(down.status == 503, "\(down.status) \(down.text)")
        #expect(down.header("Retry-After") == "2")
        let error = try #require(try down.json()["error"] as? [String: Any])
        #expect(error["code"] as? String == "storage_unavailable")
        #expect((error["message"] as? String)?.contains("the object store does not answer") == true, "\(error)")
        #expect((error["message"] as? String)?.contains("127.0.0.1") == false, "no endpoint for the client")
        let tile = try client().get("/v1/panoramas/etelaesplanadi-004/tiles/0/0/0.jpg")
        #expect(tile.status == 503)
        let streetView = try client().get("/maps/api/streetview?size=200x100&pano=pohjoisesplanadi-005")
        #expect(streetView.status == 503 && streetView.header("Retry-After") == "2")
        let health = try client().get("/v1/health")
        #expect(health.status == 503)
        let stores = try #require(try health.json()["storage"] as? [[String: Any]])
        #expect(stores.contains { $0["store"] as? String == "s3://outage" && $0["status"] as? String == "unavailable"
                                  && $0["reason"] as? String == "the object store does not answer" }, "\(stores)")
        // What needs no imagery is answered as usual.
        #expect(try client().get("/v1/scene?lat=60.1699&lon=24.9523").status == 200)
        #expect(serve.isRunning, "serve did not crash")

        try server.restart()
        // restart() returns once the store serves its objects again (scripts/seaweedfs.sh waits for the volume
        // server to re-register its volumes; before, a restarted SeaweedFS answered reads InternalError for
        // seconds): serve resumes within its fail-fast second. 10 s by the clock, for a loaded machine.
        var back: RawHTTPClient.Response?
        let deadline = Date().addingTimeInterval(10)
        repeat {
            back = try client().get("/v1/snapshot?scene=aleksanterinkatu-015&size=320x240")
            if back?.status == 200 { break }
            Thread.sleep(forTimeInterval: 0.25)
        } while Date() < deadline
        #expect(back?.status == 200, "the same serve answers again once the store is back: \(back?.text.prefix(200) ?? ""); serve's log: \(serve.stderr.suffix(600))")
        #expect(try client().get("/v1/health").status == 200)
        #expect(serve.stderr.contains("storage_unavailable") && serve.stderr.contains("cannot be reached"), "the details are in the log")
    }

    @Test func simulatedCapturesAndDerivedMapsAreWrittenToTheBucket() throws {
        let setup = try Self.shared.get()
        let out = "s3://\(setup.bucket)/simulated"
        let arguments = ["simulate", "--osm", Self.osm, "--out", out, "--streets", "Aleksanterinkatu", "--bbox", "60.1688,24.9510,60.1694,24.9525",
                         "--size", "64x32", "--depth-size", "32x16", "--samples", "1", "--limit", "2"]
        let first = try Lookaround.run(arguments, environment: setup.environment)
        #expect(first.exitCode == 0 && first.stdout.hasPrefix("wrote 2 captures, skipped 0 existing"), "\(first.stdout)\(first.stderr)")
        let listed = try Lookaround.run(["storage", "ls", out], environment: setup.environment)
        #expect(listed.stdout.split(separator: "\n").map { String($0.split(separator: " ").last!) }
                == ["aleksanterinkatu-000.depth.png", "aleksanterinkatu-000.jpg", "aleksanterinkatu-000.json", "aleksanterinkatu-000.labels.png",
                    "aleksanterinkatu-001.depth.png", "aleksanterinkatu-001.jpg", "aleksanterinkatu-001.json", "aleksanterinkatu-001.labels.png"],
                "\(listed.stdout)")
        // The bucket's listing tells a resumed run what exists.
        let second = try Lookaround.run(arguments, environment: setup.environment)
        #expect(second.stdout.hasPrefix("wrote 0 captures, skipped 2 existing"), "\(second.stdout)")
        // The same bytes as a local run (deterministic output).
        let folder = try Lookaround.temporaryDirectory().appendingPathComponent("local")
        let local = try Lookaround.run(arguments.map { $0 == out ? folder.path : $0 })
        #expect(local.exitCode == 0)
        let copied = try Lookaround.run(["storage", "cp", out + "/aleksanterinkatu-001.jpg", setup.root.path + "/"], environment: setup.environment)
        #expect(copied.exitCode == 0)
        #expect(try Data(contentsOf: setup.root.appendingPathComponent("aleksanterinkatu-001.jpg"))
                == Data(contentsOf: folder.appendingPathComponent("aleksanterinkatu-001.jpg")))
        let indexed = try Lookaround.run(["index", out, "--catalog", setup.root.appendingPathComponent("simulated.sqlite").path, "--no-osm", "-q"],
                                         environment: setup.environment)
        #expect(indexed.exitCode == 0 && indexed.stdout.contains("panoramas   2 (2 files: 2 read"), "\(indexed.stdout)\(indexed.stderr)")

        // A photo without maps (a shipped panorama without its EXIF, XMP and maps, a sidecar with its
        // place): the maps derived from OSM go to the bucket, and its views read them from there.
        let photos = try Lookaround.temporaryDirectory().appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let id = "aleksanterinkatu-010"
        let jpeg = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.panoramas).appendingPathComponent("\(id).jpg")))
        try Data(try DerivedMapsCLITests.withoutMetadata(jpeg)).write(to: photos.appendingPathComponent("\(id).jpg"))
        let truth = try DerivedMapsCLITests.truth(id)
        try JSONSerialization.data(withJSONObject: ["latitude": truth.latitude, "longitude": truth.longitude, "heading_degrees": truth.headingDegrees,
                                                    "camera_height_meters": 2.5, "capture_time": truth.captureTime])
            .write(to: photos.appendingPathComponent("\(id).json"))
        try #require(try Lookaround.run(["storage", "cp", "-r", photos.path, "s3://\(setup.bucket)/photos"], environment: setup.environment).exitCode == 0)
        let catalog = setup.root.appendingPathComponent("photos.sqlite").path
        let derived = try Lookaround.run(["index", "s3://\(setup.bucket)/photos", "--catalog", catalog, "--osm", Self.osm, "--derived-maps",
                                          "s3://\(setup.bucket)/derived", "-q"], environment: setup.environment)
        #expect(derived.exitCode == 0 && derived.stdout.contains("derived     depth and labels of 1 photos from OpenStreetMap, in s3://"),
                "\(derived.stdout)\(derived.stderr)")
        let maps = try Lookaround.run(["storage", "ls", "s3://\(setup.bucket)/derived"], environment: setup.environment)
        #expect(maps.stdout.contains("\(id).depth.png") && maps.stdout.contains("\(id).labels.png"), "\(maps.stdout)")
        let scene = try Lookaround.run(["scene", "--catalog", catalog, "--id", id, "--json"], environment: setup.environment)
        #expect(scene.stdout.contains("\"depth_path\" : \"s3:\\/\\/\(setup.bucket)\\/derived\\/\(id).depth.png\"")
                || scene.stdout.contains("s3://\(setup.bucket)/derived/\(id).depth.png"), "\(scene.stdout)")
        let view = setup.root.appendingPathComponent("derived.png").path
        let snapshot = try Lookaround.run(["snapshot", "--catalog", catalog, "--scene", id, "--size", "320x240", "-o", view, "--json"],
                                          environment: setup.environment)
        #expect(snapshot.exitCode == 0, "\(snapshot.stderr)")
        #expect(snapshot.stdout.contains("\"labels\""), "labels placed with the derived depth map from the bucket")
    }

    /// serve's refusal of real photos never blurred reads the marker of photos in a bucket too: the XMP of
    /// their header segments by ranged reads (the banner says how little was read: a fraction of the
    /// object), not only of local files. Unblurred: refused, the object named; blurred: served without
    /// --serve-unblurred; the store unreachable at start: refused, exit 69, as nothing can be checked.
    @Test func serveChecksTheBlurMarkerOfPhotosInTheBucket() throws {
        let setup = try Self.shared.get()
        let root = try Lookaround.temporaryDirectory()
        let folder = "s3://\(setup.bucket)/real", photo = "s3://\(setup.bucket)/real/d1.jpg"
        let sent = try Lookaround.run(["storage", "cp", PrivacyCLITests.d1, photo], environment: setup.environment)
        try #require(sent.exitCode == 0, "\(sent.stderr)")
        let catalog = root.appendingPathComponent("real.sqlite").path
        let indexed = try Lookaround.run(["index", folder, "--catalog", catalog, "--no-osm", "-q"], environment: setup.environment)
        #expect(indexed.exitCode == 0, "\(indexed.stderr)")
        let refused = try Lookaround.run(["serve", "--catalog", catalog, "--listen", "127.0.0.1:0"], environment: setup.environment)
        #expect(refused.exitCode == 65, "\(refused.stdout)\(refused.stderr)")
        #expect(refused.stderr.contains("1 real photo was never blurred") && refused.stderr.contains("  \(photo)\n")
                && refused.stderr.contains("--serve-unblurred"), "\(refused.stderr)")

        // Blurred by lookaround blur, the object replaced (the catalog reads its new ETag): served.
        let blurred = root.appendingPathComponent("blurred")
        let blur = try Lookaround.run(["blur", PrivacyCLITests.d1, "-o", blurred.path, "-q"])
        try #require(blur.exitCode == 0, "\(blur.stderr)")
        let replaced = try Lookaround.run(["storage", "cp", blurred.appendingPathComponent("d1.jpg").path, photo], environment: setup.environment)
        try #require(replaced.exitCode == 0, "\(replaced.stderr)")
        #expect(try Lookaround.run(["index", folder, "--catalog", catalog, "--no-osm", "-q"], environment: setup.environment).exitCode == 0)
        let server = try BackgroundServer(["--catalog", catalog], environment: setup.environment)
        defer { _ = server.terminate() }
        let size = try Data(contentsOf: blurred.appendingPathComponent("d1.jpg")).count
        let line = try #require(server.background.stdout.split(separator: "\n").first { $0.contains("real photo checked") }, "\(server.background.stdout)")
        let kibibytes = try #require(line.split(separator: ": ").last.flatMap { Double($0.split(separator: " ").first ?? "") }, "\(line)")
        #expect(line.hasSuffix("1 real photo checked, all blurred (its headers only: \(String(format: "%.1f", kibibytes)) KiB read)")
                && Int(kibibytes * 1024) < size / 2, "\(line), of an object of \(size) bytes")
        #expect(try RawHTTPClient(port: server.port).get("/v1/panoramas/d1").status == 200)

        // Nothing answers at the endpoint: whether the photo is blurred cannot be known, so nothing is served.
        var nowhere = setup.environment
        nowhere["AWS_ENDPOINT_URL"] = "http://127.0.0.1:9"
        let unreachable = try Lookaround.run(["serve", "--catalog", catalog, "--listen", "127.0.0.1:0"], environment: nowhere)
        #expect(unreachable.exitCode == 69 && unreachable.stderr.contains("cannot tell whether the catalog's real photos were blurred")
                && unreachable.stderr.contains("cannot be reached"), "\(unreachable.exitCode) \(unreachable.stderr)")
    }

    /// `video frames -o s3://…`: each frame one object (a PUT: whole or absent), the same bytes as a local
    /// run's (boto3, run unchanged, is the judge of what is in the bucket), `frames.json` beside them, and
    /// `index` reads them from there as photos (EXIF GPS, GPano). A bucket that does not exist is named
    /// before anything is decoded. A PostGIS catalog's $LOOKAROUND_FRAMES_DIR set to s3://… gets the frames
    /// of the videos `index` finds on disk in the bucket, and no local folder named `s3:` appears.
    @Test(.enabled(if: hasBoto3, "boto3 (PyPI) is not installed: scripts/install-test-tools.sh installs it"))
    func videoFramesAreWrittenToTheBucket() throws {
        try VideoCLITests.requireFFmpeg()
        let setup = try Self.shared.get()
        let (root, videos, _) = try VideoCLITests.newWalkVideo(count: 3)
        let video = videos.appendingPathComponent("walk.mp4").path
        let out = "s3://\(setup.bucket)/frames/walk"
        let sent = try Lookaround.run(["video", "frames", video, "-o", out, "--video-every-meters", "12", "-q"], environment: setup.environment)
        #expect(sent.exitCode == 0 && sent.stdout.contains("frames      3 of ") && sent.stdout.contains("in \(out) (walk-000000.jpg…"),
                "\(sent.stdout)\(sent.stderr)")
        let local = root.appendingPathComponent("local")
        let made = try Lookaround.run(["video", "frames", video, "-o", local.path, "--video-every-meters", "12", "-q"])
        #expect(made.exitCode == 0, "\(made.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: local.path).sorted()
        #expect(files == ["frames.json", "walk-000000.jpg", "walk-000001.jpg", "walk-000002.jpg"], "\(files)")

        let script = """
            from os import environ, path; import hashlib, json, sys
            for name in [n for n, v in environ.items() if n.startswith("AWS_") and v == ""]:
                del environ[name]
            from boto3 import client
            s3, bucket, local = client("s3"), sys.argv[1], sys.argv[2]
            answer = {}
            for o in s3.list_objects_v2(Bucket=bucket, Prefix="frames/walk/")["Contents"]:
                name = o["Key"].split("/")[-1]
                body = s3.get_object(Bucket=bucket, Key=o["Key"])["Body"].read()
                answer[name] = [hashlib.sha256(body).hexdigest() == hashlib.sha256(open(path.join(local, name), "rb").read()).hexdigest(),
                                s3.head_object(Bucket=bucket, Key=o["Key"])["ContentType"]]
            print(json.dumps(answer))
            """
        let judged = try Lookaround.runProcess("/usr/bin/env", ["python3", "-c", script, setup.bucket, local.path], environment: setup.environment)
        try #require(judged.exitCode == 0, "\(judged.stderr)")
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(judged.stdout.utf8)) as? [String: [Any]])
        #expect(objects.keys.sorted() == files, "\(objects.keys.sorted())")
        for name in files {
            #expect(objects[name]?.first as? Bool == true, "\(name): the object differs from the local run's file")
            #expect(objects[name]?.last as? String == (name.hasSuffix(".jpg") ? "image/jpeg" : "application/json"), "\(name): \(objects[name] ?? [])")
        }
        let catalog = root.appendingPathComponent("frames.sqlite").path
        let indexed = try Lookaround.run(["index", out, "--catalog", catalog, "--no-osm", "-q"], environment: setup.environment)
        #expect(indexed.exitCode == 0 && indexed.stdout.contains("panoramas   3 (3 files: 3 read"), "\(indexed.stdout)\(indexed.stderr)")

        let missing = try Lookaround.run(["video", "frames", video, "-o", "s3://no-such-bucket-anywhere/frames", "-q"], environment: setup.environment)
        #expect(missing.exitCode == 66 && missing.stderr.contains("NoSuchBucket") && !missing.stderr.contains("decod"), "\(missing.exitCode) \(missing.stderr)")

        if PostGISTestServer.url != nil {
            let url = try PostGISTestServer.freshDatabase("s3frames")
            defer { PostGISTestServer.drop(url) }
            var environment = setup.environment
            environment["LOOKAROUND_FRAMES_DIR"] = "s3://\(setup.bucket)/index-frames"
            let indexed = try Lookaround.run(["index", videos.path, "--catalog", url, "--no-osm", "--video-every-meters", "12"], in: root,
                                             environment: environment)
            #expect(indexed.exitCode == 0 && indexed.stdout.contains("videos      1 file, 3 frames in s3://\(setup.bucket)/index-frames"),
                    "\(indexed.exitCode) \(indexed.stdout)\(indexed.stderr)")
            let listed = try Lookaround.run(["storage", "ls", "s3://\(setup.bucket)/index-frames"], environment: setup.environment)
            #expect(listed.stdout.contains("videos/walk.mp4/000002.jpg") && listed.stdout.contains("videos/walk.mp4/manifest.json"), "\(listed.stdout)")
            #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("s3:").path), "no local folder named s3:")
        }
    }

    /// Uploads into a catalog whose imagery is in the bucket: its panoramas indexed from `s3://…`, and
    /// `$LOOKAROUND_UPLOAD_DIR` an `s3://` prefix of the same bucket (serve and index read it alike).
    /// panoramax_cli (PyPI, unchanged) sends the GoPro Max photos; they are objects there, blurred, one per
    /// picture beside their set's `upload_set.json`, nothing beside the catalog on disk and nothing left
    /// in the staging folder; the scene answers them, `/v1/snapshot` renders one, `hd.jpg` is the object.
    /// An index run afterwards keeps them; an object their set does not name (a killed server's) is gone
    /// at the next start; deleting the collection deletes the objects.
    @Test func panoramaxUploadsGoIntoTheBucketAndAreServedFromThere() throws {
        try PanoramaxUploadCLITests.requireClient()
        let setup = try Self.shared.get()
        let root = try Lookaround.temporaryDirectory()
        let photos = try PanoramaxUploadCLITests.goproPhotos(into: root)
        let catalog = root.appendingPathComponent("bucket.sqlite").path
        let uploads = "s3://\(setup.bucket)/uploads-\(UUID().uuidString.prefix(8).lowercased())"
        var environment = setup.environment
        environment["LOOKAROUND_UPLOAD_DIR"] = uploads
        let index = try Lookaround.run(["index", setup.folder, "--catalog", catalog, "--no-osm", "--quiet"], environment: environment)
        try #require(index.exitCode == 0, "\(index.stderr)")
        let token = UUID().uuidString.lowercased()
        let keys = root.appendingPathComponent("upload-keys.txt").path
        try "\(token)\n".write(toFile: keys, atomically: true, encoding: .utf8)
        var server = try BackgroundServer(["--catalog", catalog, "--upload-key-file", keys], environment: environment)
        defer { _ = server.terminate() }
        let staging = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-upload-staging-\(server.background.process.processIdentifier)")
        #expect(FileManager.default.fileExists(atPath: staging.path), "the staging folder \(staging.path)")

        let upload = try PanoramaxUploadCLITests.client(["upload", "--api-url", "http://127.0.0.1:\(server.port)", "--token", token, "--wait",
                                                         photos.path], in: root)
        #expect(upload.exitCode == 0 && upload.stdout.contains("5 pictures uploaded") && upload.stdout.contains("All uploaded pictures are published"),
                "\(upload.stdout)\n\(upload.stderr)\n\(server.stderr)")
        let setID = try String(contentsOf: photos.appendingPathComponent("_panoramax.txt"), encoding: .utf8)
            .replacingOccurrences(of: "upload_set_id=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        // In the bucket: the five pictures and the set's state, under the set's prefix; nothing on the local disk.
        func listed() throws -> [String] {
            let result = try Lookaround.run(["storage", "ls", uploads], environment: setup.environment)
            try #require(result.exitCode == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.sorted()
        }
        let objects = try listed()
        #expect(objects.count == 6 && objects.allSatisfy { $0.hasPrefix(setID + "/") } && objects.contains(setID + "/upload_set.json"), "\(objects)")
        #expect(!FileManager.default.fileExists(atPath: root.appendingPathComponent("bucket.uploads").path), "no uploads folder beside the catalog")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? ["?"]).isEmpty, "the staging folder is left empty")
        let pictures = objects.filter { $0.hasSuffix(".jpg") }
        let local = root.appendingPathComponent("fetched")
        let fetched = try Lookaround.run(["storage", "cp", "--recursive", "--quiet", uploads, local.path], environment: setup.environment)
        try #require(fetched.exitCode == 0, "\(fetched.stderr)")
        for name in pictures {
            let data = try Data(contentsOf: local.appendingPathComponent(name))
            #expect(String(decoding: data.prefix(200_000), as: UTF8.self).contains("LookAroundPrivacy"), "\(name) carries no blur record")
        }
        // The catalog names the objects; the scene answers them, a view renders, hd.jpg is the object's bytes.
        let scene = try Lookaround.run(["scene", "--catalog", catalog, "--lat", "49.00692", "--lon", "1.91920", "--radius-meters", "30", "--json"],
                                       environment: environment)
        #expect(scene.exitCode == 0, "\(scene.stdout)\(scene.stderr)")
        let found = try RawHTTPClient(port: server.port).get("/v1/scene?lat=49.00692&lon=1.91920&radius_meters=30")
        let id = try #require((try found.json()["scene"] as? [String: Any])?["panorama_id"] as? String, "\(found.text)")
        #expect(pictures.contains(setID + "/" + id + ".jpg"), "\(id) is not one of \(pictures)")
        let query = id.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? id
        let frame = try RawHTTPClient(port: server.port, timeoutSeconds: 60).get("/v1/snapshot?scene=\(query)&size=320x180")
        #expect(frame.status == 200, "\(frame.text.prefix(300))")
        try Data(frame.body).write(to: root.appendingPathComponent("uploaded-view.jpg"))
        let view = try JPEGCodec.decodeRGB(frame.body).image.components
        #expect((view.max() ?? 0) - (view.min() ?? 0) > 100, "the uploaded photo's view is blank")
        let original = try RawHTTPClient(port: server.port, timeoutSeconds: 60).get("/api/pictures/\(query)/hd.jpg")
        let object = try Data(contentsOf: local.appendingPathComponent(setID + "/" + id + ".jpg"))
        #expect(original.status == 200 && Data(original.body) == object, "hd.jpg: \(original.status) \(original.text.prefix(200))")

        // An index run keeps the uploads (it reads the same $LOOKAROUND_UPLOAD_DIR and never lists it).
        let again = try Lookaround.run(["index", setup.folder, "--catalog", catalog, "--no-osm", "--json", "--quiet"], environment: environment)
        #expect(again.exitCode == 0, "\(again.stderr)")
        #expect(try Lookaround.run(["scene", "--catalog", catalog, "--id", id], environment: environment).exitCode == 0, "index dropped the upload")

        // A killed server's leftover (an object its set does not name) is removed at the next start.
        _ = server.terminate()
        let stray = root.appendingPathComponent("stray.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xD9]).write(to: stray)
        #expect(try Lookaround.run(["storage", "cp", stray.path, "\(uploads)/\(setID)/stray.jpg"], environment: setup.environment).exitCode == 0)
        server = try BackgroundServer(["--catalog", catalog, "--upload-key-file", keys], environment: environment)
        #expect(try listed() == objects, "the stray object is removed at start")

        // Deleting the uploaded collection deletes its objects (the set's state stays).
        let collection = try #require((try found.json()["scene"] as? [String: Any])?["sequence"] as? String, "\(found.text)")
        let escaped = collection.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? collection
        let deleted = try PanoramaxUploadCLITests.request(server.port, "DELETE", "/api/collections/\(escaped)", headers: ["Authorization": "Bearer \(token)"])
        #expect(deleted.status == 204, "\(deleted.status) \(deleted.text)")
        #expect(try listed() == [setID + "/upload_set.json"])
        #expect(try Lookaround.run(["scene", "--catalog", catalog, "--id", id], environment: environment).exitCode != 0, "the deleted upload is still in the catalog")
    }

    /// 360° videos in a bucket: `index s3://BUCKET/…/rides` copies each to a temporary file (with the GPS
    /// log beside it) to decode it, and writes its frames into the bucket beside the folder
    /// (`rides.frames/rides/walk.mp4/`, with the manifest), byte-identical to the frames of the same video
    /// indexed from the disk, into the same catalog rows; the shared GoPro MAX file in HERO (flat) mode is
    /// named with its reason, never skipped silently. An unchanged video is not decoded again (its frames'
    /// folder is left as it is); a changed one is, and its old frames go. A snapshot renders from a frame.
    @Test func videosInTheBucketBecomeFramesInTheBucket() throws {
        try VideoCLITests.requireFFmpeg()
        let setup = try Self.shared.get()
        let (root, videos, _) = try VideoCLITests.newWalkVideo(count: 3, folder: "rides")
        let flat = TestRecordings.sharedVideoData(besides: Lookaround.repository)?.appendingPathComponent("max-heromode.mp4")
        let hasFlat = flat.map { FileManager.default.fileExists(atPath: $0.path) } ?? false
        if let flat, hasFlat { try FileManager.default.copyItem(at: flat, to: videos.appendingPathComponent("GH010043.MP4")) }
        let folder = "s3://\(setup.bucket)/videos-\(UUID().uuidString.prefix(8).lowercased())/rides"
        let sent = try Lookaround.run(["storage", "cp", "--recursive", "--quiet", videos.path, folder], environment: setup.environment)
        try #require(sent.exitCode == 0, "\(sent.stderr)")

        let catalog = root.appendingPathComponent("bucket.sqlite").path
        let index = { try Lookaround.run(["index", folder, "--catalog", catalog, "--no-osm", "--video-every-meters", "12"], environment: setup.environment) }
        let first = try index()
        let count = hasFlat ? "2 files" : "1 file"
        #expect(first.exitCode == 0 && first.stdout.contains("videos      \(count), 3 frames in \(folder).frames"), "\(first.stdout)\(first.stderr)")
        if hasFlat {
            #expect(first.stdout.contains("warning     \(folder)/GH010043.MP4: a flat (not 360°) video") && !first.stdout.contains("lookaround-video-"),
                    "the flat video is named with its reason (and its location, not the temporary copy's): \(first.stdout)")
        }
        func listed() throws -> [String] {
            let result = try Lookaround.run(["storage", "ls", folder + ".frames"], environment: setup.environment)
            try #require(result.exitCode == 0, "\(result.stderr)")
            return result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").last.map(String.init) }.sorted()
        }
        #expect(try listed() == ["rides/walk.mp4/000000.jpg", "rides/walk.mp4/000001.jpg", "rides/walk.mp4/000002.jpg", "rides/walk.mp4/manifest.json"])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            .filter { $0.hasPrefix("lookaround-video-") || $0.hasPrefix("lookaround-frames-") }
        #expect(leftovers.isEmpty, "temporary copies left: \(leftovers)")

        // The same video indexed from the disk: the same frames, byte for byte, and the same rows.
        let local = root.appendingPathComponent("local.sqlite").path
        let fromDisk = try Lookaround.run(["index", videos.path, "--catalog", local, "--no-osm", "--video-every-meters", "12", "-q"])
        #expect(fromDisk.exitCode == 0, "\(fromDisk.stderr)")
        let fetched = root.appendingPathComponent("fetched")
        #expect(try Lookaround.run(["storage", "cp", "--recursive", "--quiet", folder + ".frames", fetched.path], environment: setup.environment).exitCode == 0)
        for k in 0..<3 {
            let name = String(format: "rides/walk.mp4/%06d.jpg", k)
            let disk = try Data(contentsOf: root.appendingPathComponent("local.frames").appendingPathComponent(name))
            #expect(try Data(contentsOf: fetched.appendingPathComponent(name)) == disk, "\(name) differs from the disk's frame")
        }
        let (remoteRows, localRows) = (try Self.rows(catalog), try Self.rows(local))
        #expect(remoteRows.panoramas == localRows.panoramas && remoteRows.links == localRows.links && !remoteRows.panoramas.isEmpty,
                "\(remoteRows.panoramas)\n\(localRows.panoramas)")
        #expect(remoteRows.paths.count == 3 && remoteRows.paths.allSatisfy { $0.hasPrefix(folder + ".frames/rides/walk.mp4/") }, "\(remoteRows.paths)")
        let view = root.appendingPathComponent("frame-view.png").path
        let snapshot = try Lookaround.run(["snapshot", "--catalog", catalog, "--scene", "walk/000001", "--size", "320x240", "-o", view],
                                          environment: setup.environment)
        #expect(snapshot.exitCode == 0 && FileManager.default.fileExists(atPath: view), "\(snapshot.stdout)\(snapshot.stderr)")

        // Unchanged: not decoded again (an object planted in its frames' folder stays, as nothing is rewritten).
        let planted = root.appendingPathComponent("planted.txt")
        try Data("planted".utf8).write(to: planted)
        #expect(try Lookaround.run(["storage", "cp", planted.path, folder + ".frames/rides/walk.mp4/planted.txt"], environment: setup.environment).exitCode == 0)
        let second = try index()
        #expect(second.exitCode == 0 && second.stdout.contains("3 files: 0 read, 3 unchanged"), "\(second.stdout)\(second.stderr)")
        #expect(try listed().contains("rides/walk.mp4/planted.txt"), "an unchanged video's frames were written again")

        // Changed (two panoramas now): decoded again, its frames replaced, the old ones and the planted object gone.
        try FileManager.default.removeItem(at: videos.appendingPathComponent("walk.mp4"))
        _ = try VideoCLITests.walkVideo(Array(VideoCLITests.ids.prefix(2)), in: videos)
        for name in ["walk.mp4", "walk.gpx"] {
            let copied = try Lookaround.run(["storage", "cp", videos.appendingPathComponent(name).path, folder + "/" + name], environment: setup.environment)
            #expect(copied.exitCode == 0, "\(copied.stderr)")
        }
        let third = try index()
        #expect(third.exitCode == 0 && third.stdout.contains("videos      \(count), 2 frames in \(folder).frames"), "\(third.stdout)\(third.stderr)")
        #expect(try listed() == ["rides/walk.mp4/000000.jpg", "rides/walk.mp4/000001.jpg", "rides/walk.mp4/manifest.json"])
    }

    static let hasBoto3 = (try? Lookaround.runProcess("/usr/bin/env", ["python3", "-c", "import boto3"]).exitCode) == 0

    /// boto3 (the AWS SDK for Python, from PyPI, run unchanged) as the judge, configured by nothing but
    /// the same AWS config and credentials files: it lists and reads whole what `storage cp` sent in
    /// parts (a 20 MiB file: 3 parts of 8 MiB, an ETag of the multipart kind), and lookaround reads what
    /// boto3 uploaded with its own multipart transfer.
    @Test(.enabled(if: hasBoto3, "boto3 (PyPI) is not installed: scripts/install-test-tools.sh installs it"))
    func boto3ReadsWhatLookaroundWroteAndLookaroundReadsWhatBoto3Wrote() throws {
        let setup = try Self.shared.get()
        let folder = try Lookaround.temporaryDirectory()
        func pattern(_ count: Int, seed: UInt64) -> Data {
            var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
            return Data((0..<count).map { _ in state ^= state << 13; state ^= state >> 7; state ^= state << 17; return UInt8(truncatingIfNeeded: state) })
        }
        let ours = pattern(20 << 20, seed: 53), theirs = pattern(13 << 20, seed: 35)
        let oursPath = folder.appendingPathComponent("ours.bin"), theirsPath = folder.appendingPathComponent("theirs.bin")
        try ours.write(to: oursPath)
        try theirs.write(to: theirsPath)
        let sent = try Lookaround.run(["storage", "cp", oursPath.path, "s3://\(setup.bucket)/judge/ours.bin"], environment: setup.environment)
        try #require(sent.exitCode == 0, "\(sent.stderr)")

        let script = """
            from os import environ; import hashlib, json, sys
            for name in [n for n, v in environ.items() if n.startswith("AWS_") and v == ""]:
                del environ[name]  # the test empties the variables that would override the files
            from boto3 import client; from boto3.s3.transfer import TransferConfig
            bucket, upload, original = sys.argv[1], sys.argv[2], sys.argv[3]
            s3 = client("s3")
            head = s3.head_object(Bucket=bucket, Key="judge/ours.bin")
            body = s3.get_object(Bucket=bucket, Key="judge/ours.bin")["Body"].read()
            s3.upload_file(upload, bucket, "judge/theirs.bin", Config=TransferConfig(multipart_threshold=5 << 20, multipart_chunksize=5 << 20))
            listed = [o["Key"] for o in s3.list_objects_v2(Bucket=bucket, Prefix="judge/")["Contents"]]
            print(json.dumps({"sha256": hashlib.sha256(body).hexdigest(), "original": hashlib.sha256(open(original, "rb").read()).hexdigest(),
                              "size": head["ContentLength"], "etag": head["ETag"],
                              "listed": listed, "endpoint": s3.meta.endpoint_url}))
            """
        let judged = try Lookaround.runProcess("/usr/bin/env", ["python3", "-c", script, setup.bucket, theirsPath.path, oursPath.path], environment: setup.environment)
        try #require(judged.exitCode == 0, "\(judged.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(judged.stdout.utf8)) as? [String: Any])
        #expect(answer["endpoint"] as? String == setup.server.endpoint, "boto3 took the endpoint from the config file: \(answer)")
        #expect(answer["size"] as? Int == ours.count)
        #expect(answer["sha256"] as? String == answer["original"] as? String, "boto3 read the bytes lookaround wrote")
        #expect((answer["etag"] as? String)?.hasSuffix("-3\"") == true, "sent in 3 parts: \(answer)")
        #expect(answer["listed"] as? [String] == ["judge/ours.bin", "judge/theirs.bin"], "\(answer)")

        let back = folder.appendingPathComponent("back.bin")
        let fetched = try Lookaround.run(["storage", "cp", "s3://\(setup.bucket)/judge/theirs.bin", back.path], environment: setup.environment)
        #expect(fetched.exitCode == 0, "\(fetched.stderr)")
        #expect(try Data(contentsOf: back) == theirs, "lookaround read what boto3 uploaded in parts")
    }

    @Test func aWrongSecretIsNamedWithS3sCode() throws {
        let setup = try Self.shared.get()
        var environment = setup.environment
        environment["AWS_ACCESS_KEY_ID"] = setup.server.credentials.accessKeyID
        environment["AWS_SECRET_ACCESS_KEY"] = "not-the-secret"
        environment["AWS_ENDPOINT_URL"] = setup.server.endpoint
        let catalog = setup.root.appendingPathComponent("wrong.sqlite").path
        let index = try Lookaround.run(["index", setup.folder, "--catalog", catalog, "--no-osm"], environment: environment)
        #expect(index.exitCode == 69, "\(index.stderr)")
        #expect(index.stderr.contains("SignatureDoesNotMatch") && index.stderr.contains(setup.folder + "/")
                && index.stderr.contains("AWS_SECRET_ACCESS_KEY") && !index.stderr.contains("not-the-secret"), "\(index.stderr)")
        #expect(!FileManager.default.fileExists(atPath: catalog), "no catalog written")
        let check = try Lookaround.run(["storage", "check", "s3://\(setup.bucket)"], environment: environment)
        #expect(check.exitCode == 69 && check.stderr.contains("SignatureDoesNotMatch") && check.stdout.contains("FAILED"))
        // A bucket that does not exist: 66, named.
        let missing = try Lookaround.run(["index", "s3://no-such-bucket-anywhere/x", "--catalog", catalog, "--no-osm"], environment: setup.environment)
        #expect(missing.exitCode == 66 && missing.stderr.contains("NoSuchBucket") && missing.stderr.contains("s3://no-such-bucket-anywhere/x/"),
                "\(missing.stderr)")
        // The read-only identity may read but not write.
        var reader = setup.environment
        reader["AWS_PROFILE"] = "reader"
        #expect(try Lookaround.run(["storage", "ls", setup.folder], environment: reader).exitCode == 0)
        let denied = try Lookaround.run(["storage", "cp", Self.panoramas + "/senaatintori-005.json", "s3://\(setup.bucket)/x.json"], environment: reader)
        #expect(denied.exitCode == 69 && denied.stderr.contains("AccessDenied") && denied.stderr.contains("s3://\(setup.bucket)/x.json"), "\(denied.stderr)")
    }

    @Test func aMultipartUploadKilledHalfWayLeavesNoObject() throws {
        let setup = try Self.shared.get()
        let big = setup.root.appendingPathComponent("big.bin").path
        // 1 GiB of zeros without writing them (a sparse file): 128 parts of 8 MiB.
        #expect(truncate(big, 1 << 30) == 0 || (FileManager.default.createFile(atPath: big, contents: nil) && truncate(big, 1 << 30) == 0))
        let copy = try BackgroundProcess(["storage", "cp", big, "s3://\(setup.bucket)/big.bin"], environment: setup.environment)
        var started = false
        for _ in 0..<200 {
            let uploads = try Lookaround.run(["storage", "ls", "--uploads", "s3://\(setup.bucket)/"], environment: setup.environment)
            if uploads.stdout.contains("s3://\(setup.bucket)/big.bin") { started = true; break }
            Thread.sleep(forTimeInterval: 0.02)
        }
        #expect(started, "the upload began")
        Thread.sleep(forTimeInterval: 0.5)  // some parts in
        #expect(copy.isRunning, "still uploading when killed")
        copy.kill(SIGKILL)
        let objects = try Lookaround.run(["storage", "ls", "s3://\(setup.bucket)/"], environment: setup.environment)
        #expect(objects.exitCode == 0 && !objects.stdout.contains("big.bin"), "no object under the final key: \(objects.stdout.suffix(300))")
        let head = try Lookaround.run(["storage", "cp", "s3://\(setup.bucket)/big.bin", setup.root.path + "/"], environment: setup.environment)
        #expect(head.exitCode == 66 && head.stderr.contains("no such object"), "\(head.stderr)")
        // The parts are an incomplete upload, which storage rm --uploads aborts.
        let uploads = try Lookaround.run(["storage", "ls", "--uploads", "s3://\(setup.bucket)/"], environment: setup.environment)
        #expect(uploads.stdout.contains("big.bin"))
        let aborted = try Lookaround.run(["storage", "rm", "--uploads", "s3://\(setup.bucket)/big"], environment: setup.environment)
        #expect(aborted.exitCode == 0 && aborted.stdout.contains("aborted 1"), "\(aborted.stdout)\(aborted.stderr)")
        #expect(try Lookaround.run(["storage", "ls", "--uploads", "s3://\(setup.bucket)/"], environment: setup.environment).stdout.isEmpty)
    }
}

/// A `lookaround` process running in the background with an environment on top of the test's, its
/// output collected in files.
final class BackgroundProcess: @unchecked Sendable {
    let process = Process()
    let outputFile: URL, errorFile: URL

    init(_ arguments: [String], environment: [String: String]) throws {
        let folder = try Lookaround.temporaryDirectory()
        outputFile = folder.appendingPathComponent("stdout")
        errorFile = folder.appendingPathComponent("stderr")
        FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        process.executableURL = URL(fileURLWithPath: Lookaround.executablePath)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    var isRunning: Bool { process.isRunning }
    var stdout: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }
    var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }

    func kill(_ signal: Int32) {
        Glibc.kill(process.processIdentifier, signal)
        process.waitUntilExit()
    }
}

/// `lookaround serve` on a free loopback port, in the background.
final class BackgroundServer: @unchecked Sendable {
    let background: BackgroundProcess
    let port: UInt16

    init(_ arguments: [String], environment: [String: String]) throws {
        background = try BackgroundProcess(["serve", "--listen", "127.0.0.1:0"] + arguments, environment: environment)
        let deadline = Date().addingTimeInterval(60)
        var found: UInt16?
        while found == nil, Date() < deadline, background.isRunning {
            found = background.stdout.split(separator: "\n").first { $0.hasPrefix("listening on http://127.0.0.1:") }
                .flatMap { UInt16($0.split(separator: ":").last ?? "") }
            if found == nil { Thread.sleep(forTimeInterval: 0.05) }
        }
        guard let found else {
            background.kill(SIGTERM)
            throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "serve did not start: \(background.stderr)"])
        }
        port = found
    }

    var isRunning: Bool { background.isRunning }
    var stderr: String { background.stderr }

    /// SIGTERM, then the exit code.
    @discardableResult
    func terminate() -> Int32 {
        guard background.isRunning else { return background.process.terminationStatus }
        background.kill(SIGTERM)
        return background.process.terminationStatus
    }
}
