import Foundation
import Imaging
import Testing
import TestSupport

/// Uploads through Panoramax's API (`serve --upload-key-file`), judged by Panoramax's own client
/// (PyPI `panoramax-cli` 1.4, run unchanged with `--api-url` and `--token`) and by the catalog the
/// built `lookaround` reads afterwards.
@Suite struct PanoramaxUploadCLITests {
    typealias Server = ServeCLITests.Server

    /// The GoPro Max sequence of ../shared/data/real-photos (or `$LOOKAROUND_SHARED_DATA/real-photos`),
    /// copied into `folder` (panoramax_cli writes `_panoramax.txt` into the folder it uploads).
    static func goproPhotos(into folder: URL) throws -> URL {
        let shared = ProcessInfo.processInfo.environment["LOOKAROUND_SHARED_DATA"].map { URL(fileURLWithPath: $0) }
            ?? Lookaround.repository.deletingLastPathComponent().appendingPathComponent("shared/data")
        let source = shared.appendingPathComponent("real-photos/gopro-max-sequence")
        guard FileManager.default.fileExists(atPath: source.appendingPathComponent("1.jpg").path) else {
            try Test.cancel("skipped: the GoPro Max files are not at \(source.path) (../shared/data or $LOOKAROUND_SHARED_DATA)")
        }
        let copy = folder.appendingPathComponent("gopro")
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: true)
        for k in 1...5 {
            let data = try Data(contentsOf: source.appendingPathComponent("\(k).jpg"))
            try data.write(to: copy.appendingPathComponent("\(k).jpg"))
        }
        return copy
    }

    /// Cancels the test (reported as skipped) without panoramax_cli.
    static func requireClient() throws {
        let probe = try Lookaround.runProcess("/usr/bin/env", ["python3", "-c", "import panoramax_cli"])
        guard probe.exitCode == 0 else {
            try Test.cancel("skipped: PyPI panoramax-cli is not installed (scripts/install-test-tools.sh installs it)")
        }
    }

    /// `panoramax_cli ARGS` in `folder`, as a user runs it (through Python, whatever PATH holds).
    static func client(_ arguments: [String], in folder: URL) throws -> ProcessResult {
        try Lookaround.runProcess("/usr/bin/env", ["python3", "-m", "panoramax_cli"] + arguments, in: folder,
                                  environment: ["COLUMNS": "200", "NO_COLOR": "1", "XDG_CONFIG_HOME": folder.appendingPathComponent(".config").path])
    }

    /// A catalog of three simulated panoramas (no OSM: nothing to carry over), an upload key file and
    /// the GoPro photos to upload (``goproPhotos(into:)``), in a new folder.
    static func catalog() throws -> (folder: URL, catalog: String, keys: String, token: String, photos: URL) {
        let folder = try Lookaround.temporaryDirectory()
        let panoramas = folder.appendingPathComponent("panoramas")
        try FileManager.default.createDirectory(at: panoramas, withIntermediateDirectories: true)
        let shipped = Lookaround.repository.appendingPathComponent("Panoramas/helsinki")
        let names = try FileManager.default.contentsOfDirectory(atPath: shipped.path).filter { $0.hasSuffix(".jpg") }.sorted().prefix(3)
        for name in names {
            try FileManager.default.createSymbolicLink(at: panoramas.appendingPathComponent(name), withDestinationURL: shipped.appendingPathComponent(name))
        }
        let catalog = folder.appendingPathComponent("photos.sqlite").path
        let index = try Lookaround.run(["index", panoramas.path, "--catalog", catalog, "--no-osm", "--quiet"])
        guard index.exitCode == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["stderr": index.stderr]) }
        let token = UUID().uuidString.lowercased()
        let keys = folder.appendingPathComponent("upload-keys.txt").path
        try "# upload tokens\n\(token)\n".write(toFile: keys, atomically: true, encoding: .utf8)
        return (folder, catalog, keys, token, try goproPhotos(into: folder))
    }

    /// `lookaround serve` on `catalog`, taking uploads with the tokens in `keys`.
    static func serve(_ catalog: String, keys: String, _ more: [String] = []) throws -> Server {
        try Server(["--catalog", catalog, "--upload-key-file", keys] + more)
    }

    /// For the tests that run panoramax_cli (cancelled without it): ``catalog()`` served, and the API
    /// URL the client is given.
    static func servedForClient() throws -> (folder: URL, catalog: String, token: String, photos: URL, server: Server, api: String) {
        try requireClient()
        let (folder, catalog, keys, token, photos) = try Self.catalog()
        let server = try serve(catalog, keys: keys)
        return (folder, catalog, token, photos, server, "http://127.0.0.1:\(server.port)")
    }

    /// A raw request with `headers`, and its answer.
    static func request(_ port: UInt16, _ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8] = []) throws
        -> RawHTTPClient.Response {
        let client = try RawHTTPClient(port: port, timeoutSeconds: 60)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        try client.send(Array((head + "\r\n").utf8) + body)
        return try client.readResponse(method: method)
    }

    /// A multipart/form-data body with the file `data` as field `file` (and `isBlurred=false`).
    static func form(_ data: [UInt8], name: String) -> (body: [UInt8], contentType: String) {
        let boundary = "lookaround-\(UUID().uuidString)"
        var body = Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"isBlurred\"\r\n\r\nfalse\r\n".utf8)
        body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"\(name)\"\r\nContent-Type: image/jpeg\r\n\r\n".utf8)
        body += data
        body += Array("\r\n--\(boundary)--\r\n".utf8)
        return (body, "multipart/form-data; boundary=\(boundary)")
    }

    static func createSet(_ port: UInt16, token: String) throws -> String {
        let created = try request(port, "POST", "/api/upload_sets", headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                                  body: Array(#"{"title": "test set", "no_deduplication": true}"#.utf8))
        #expect(created.status == 200, "\(created.text)")
        return try #require(try created.json()["id"] as? String)
    }

    static func uploadsFolder(_ catalog: String) -> String { (catalog as NSString).deletingPathExtension + ".uploads" }

    /// Every JPEG under the uploads folder.
    static func keptPictures(_ catalog: String) -> [String] {
        let root = uploadsFolder(catalog)
        let enumerator = FileManager.default.enumerator(atPath: root)
        var found: [String] = []
        while let path = enumerator?.nextObject() as? String { if path.hasSuffix(".jpg") { found.append(path) } }
        return found.sorted()
    }

    @Test func panoramaxClientUploadsWithATokenAndTheCatalogServesAndDownloadsThem() throws {
        let (folder, catalog, token, photos, server, api) = try Self.servedForClient()
        defer { _ = server.terminate() }
        let upload = try Self.client(["upload", "--api-url", api, "--token", token, "--wait", photos.path], in: folder)
        #expect(upload.exitCode == 0, "\(upload.stdout)\n\(upload.stderr)")
        #expect(upload.stdout.contains("Using 🔑 token of upload key 1"), "\(upload.stdout)")
        #expect(upload.stdout.contains("5 pictures uploaded"), "\(upload.stdout)")
        #expect(upload.stdout.contains("All uploaded pictures are published"), "\(upload.stdout)")
        let setID = try String(contentsOf: photos.appendingPathComponent("_panoramax.txt"), encoding: .utf8)
            .replacingOccurrences(of: "upload_set_id=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        let set = try Self.request(server.port, "GET", "/api/upload_sets/\(setID)", headers: ["Authorization": "Bearer \(token)"]).json()
        #expect(set["ready"] as? Bool == true && set["completed"] as? Bool == true, "\(set)")
        #expect((set["items_status"] as? [String: Int])?["prepared"] == 5, "\(set)")
        let collections = try #require(set["associated_collections"] as? [[String: Any]])
        #expect(collections.count == 1, "one sequence, 1–3 m and 2 s apart: \(collections)")
        let collection = try #require(collections.first?["id"] as? String)
        // Every picture kept blurred (lookaround's mark in its XMP), once, under the catalog's uploads folder.
        let kept = Self.keptPictures(catalog)
        #expect(kept.count == 5, "\(kept)")
        for path in kept {
            let data = try Data(contentsOf: URL(fileURLWithPath: Self.uploadsFolder(catalog)).appendingPathComponent(path))
            #expect(String(decoding: data.prefix(200_000), as: UTF8.self).contains("LookAroundPrivacy"), "\(path) carries no blur record")
        }
        // The catalog, read by another process: `scene` finds the photos where they were taken.
        let scene = try Lookaround.run(["scene", "--catalog", catalog, "--lat", "49.00692", "--lon", "1.91920", "--radius-meters", "30"])
        #expect(scene.exitCode == 0 && scene.stdout.contains("sequence   \(collection) #"), "\(scene.stdout)\(scene.stderr)")
        // The running server sees them at once: STAC lists the five items, in capture order.
        let escaped = collection.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? collection
        let items = try RawHTTPClient(port: server.port).get("/api/collections/\(escaped)/items?limit=10").json()
        let features = try #require(items["features"] as? [[String: Any]])
        #expect(features.count == 5, "\(items)")
        #expect(features.compactMap { ($0["properties"] as? [String: Any])?["original_file:size"] as? Int }.count == 5)
        let found = try RawHTTPClient(port: server.port).get("/v1/scene?lat=49.00692&lon=1.91920&radius_meters=30")
        #expect(found.status == 200 && (found.text.contains(collection) || found.text.contains(collection.replacingOccurrences(of: "/", with: "\\/"))),
                "\(found.text)")
        // What the web page draws, without a restart: the coverage tile over the spot shows them (the page's
        // map layer), and the viewer's frame of one (`/v1/snapshot`, as the page asks) is a picture, not blank.
        let sceneJSON = try found.json()
        let uploadedID = try #require((sceneJSON["scene"] as? [String: Any])?["panorama_id"] as? String, "\(sceneJSON)")
        let zoom = 17.0, latitude = 49.00692 * Double.pi / 180
        let tileX = Int((1.91920 + 180) / 360 * pow(2, zoom))
        let tileY = Int((1 - log(tan(latitude) + 1 / cos(latitude)) / Double.pi) / 2 * pow(2, zoom))
        let coverage = try RawHTTPClient(port: server.port).get("/v1/tiles/coverage/17/\(tileX)/\(tileY).png")
        #expect(coverage.status == 200, "\(coverage.text.prefix(200))")
        let alpha = try PNGCodec.decodeRGBA(coverage.body).components.enumerated().filter { $0.offset % 4 == 3 && $0.element > 128 }.count
        #expect(alpha > 100, "the coverage tile over the uploads draws \(alpha) pixels")
        let idQuery = uploadedID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? uploadedID
        let frame = try RawHTTPClient(port: server.port).get("/v1/snapshot?scene=\(idQuery)&size=320x180")
        #expect(frame.status == 200, "\(frame.text.prefix(200))")
        let view = try JPEGCodec.decodeRGB(frame.body).image.components
        #expect((view.max() ?? 0) - (view.min() ?? 0) > 100, "the uploaded photo's view is blank")
        // Sent again: everything is there already (the client asks the set's files, by MD5).
        let again = try Self.client(["upload", "--api-url", api, "--token", token, photos.path], in: folder)
        #expect(again.exitCode == 0 && again.stdout.contains("Everything already uploaded"), "\(again.stdout)\n\(again.stderr)")
        #expect(Self.keptPictures(catalog).count == 5)
        // panoramax_cli download of that collection: the five pictures as served (blurred), by their original names.
        let downloads = folder.appendingPathComponent("downloaded")
        let download = try Self.client(["download", "--api-url", api, "--collection", collection, "--path", downloads.path], in: folder)
        #expect(download.exitCode == 0, "\(download.stdout)\n\(download.stderr)")
        let enumerator = FileManager.default.enumerator(atPath: downloads.path)
        var names: [String] = []
        while let path = enumerator?.nextObject() as? String { if path.hasSuffix(".jpg") { names.append((path as NSString).lastPathComponent) } }
        #expect(names.sorted() == ["1.jpg", "2.jpg", "3.jpg", "4.jpg", "5.jpg"], "\(names)")
    }

    @Test func uploadsWithoutAValidTokenAreRefusedWith401() throws {
        let (folder, catalog, token, photos, server, api) = try Self.servedForClient()
        defer { _ = server.terminate() }
        // The client without --token goes anonymous and is refused when it creates the upload set.
        let anonymous = try Self.client(["upload", "--api-url", api, photos.path], in: folder)
        #expect(anonymous.exitCode != 0, "\(anonymous.stdout)")
        let said = anonymous.stdout + anonymous.stderr
        #expect(said.contains("401") && said.contains("upload token is required"), "\(said)")
        // A wrong token: the client's login check fails.
        let wrong = try Self.client(["upload", "--api-url", api, "--token", "not-\(token)", photos.path], in: folder)
        #expect(wrong.exitCode != 0 && (wrong.stdout + wrong.stderr).contains("Impossible to use token"), "\(wrong.stdout)\(wrong.stderr)")
        #expect(Self.keptPictures(catalog).isEmpty)
        for (method, path) in [("POST", "/api/upload_sets"), ("GET", "/api/users/me"), ("POST", "/api/upload_sets/x/files"), ("POST", "/api/upload_sets/x/complete")] {
            let refused = try Self.request(server.port, method, path)
            #expect(refused.status == 401, "\(method) \(path): \(refused.status) \(refused.text)")
            #expect(refused.header("WWW-Authenticate")?.hasPrefix("Bearer") == true)
            let error = try refused.json()
            #expect(error["status_code"] as? Int == 401 && error["code"] as? String == "unauthorized", "\(error)")
        }
        // Reads stay open.
        #expect(try RawHTTPClient(port: server.port).get("/api/configuration").status == 200)
        #expect(try RawHTTPClient(port: server.port).get("/api/collections").status == 200)
        // A server without --upload-key-file takes no uploads at all.
        let closed = try Server(["--catalog", catalog])
        defer { _ = closed.terminate() }
        let off = try Self.request(closed.port, "POST", "/api/upload_sets", headers: ["Authorization": "Bearer \(token)"])
        #expect(off.status == 403 && off.text.contains("--upload-key-file"), "\(off.text)")
    }

    @Test func oversizeNonJPEGUnlocatedAndRepeatedPicturesAreRefusedClearly() throws {
        let (_, catalog, keys, token, photos) = try Self.catalog()
        let server = try Self.serve(catalog, keys: keys, ["--max-upload-bytes", "3300000"])
        defer { _ = server.terminate() }
        let set = try Self.createSet(server.port, token: token)
        let auth = ["Authorization": "Bearer \(token)"]
        func send(_ data: [UInt8], name: String) throws -> RawHTTPClient.Response {
            let form = Self.form(data, name: name)
            return try Self.request(server.port, "POST", "/api/upload_sets/\(set)/files", headers: auth.merging(["Content-Type": form.contentType]) { a, _ in a },
                                    body: form.body)
        }
        // 5.jpg is 3,337,681 bytes: over 3,300,000.
        let big = try send(Array(try Data(contentsOf: photos.appendingPathComponent("5.jpg"))), name: "5.jpg")
        #expect(big.status == 413, "\(big.text)")
        #expect(big.text.contains("3337681 bytes") && big.text.contains("3300000"), "\(big.text)")
        // A PNG.
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 100)
        let notJPEG = try send(png, name: "map.png")
        #expect(notJPEG.status == 415 && notJPEG.text.contains("not a JPEG"), "\(notJPEG.text)")
        // A JPEG cut short: the picture's own checks (as lookaround index makes them).
        let cut = try send(Array(try Data(contentsOf: photos.appendingPathComponent("1.jpg")).prefix(40_000)), name: "cut.jpg")
        #expect(cut.status == 400 && cut.text.contains("cannot be indexed"), "\(cut.text)")
        // The same file twice is one picture.
        let first = try send(Array(try Data(contentsOf: photos.appendingPathComponent("1.jpg"))), name: "1.jpg")
        #expect(first.status == 202, "\(first.text)")
        let second = try send(Array(try Data(contentsOf: photos.appendingPathComponent("1.jpg"))), name: "1-again.jpg")
        #expect(second.status == 409 && second.text.contains("already uploaded as picture"), "\(second.text)")
        #expect(Self.keptPictures(catalog).count == 1)
        let files = try Self.request(server.port, "GET", "/api/upload_sets/\(set)/files", headers: auth).json()
        #expect((files["files"] as? [[String: Any]])?.count == 1, "\(files)")
    }

    @Test func aKilledUploadLeavesTheCatalogAsItWas() throws {
        let (folder, catalog, keys, token, photos) = try Self.catalog()
        let before = try Data(contentsOf: URL(fileURLWithPath: catalog))
        var server = try Self.serve(catalog, keys: keys)
        let set = try Self.createSet(server.port, token: token)
        let form = Self.form(Array(try Data(contentsOf: photos.appendingPathComponent("2.jpg"))), name: "2.jpg")
        // The connection cut mid-body: half the picture sent, then the socket closed.
        do {
            let client = try RawHTTPClient(port: server.port)
            try client.send(Array("POST /api/upload_sets/\(set)/files HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n".utf8)
                            + Array("Content-Type: \(form.contentType)\r\nContent-Length: \(form.body.count)\r\n\r\n".utf8)
                            + Array(form.body.prefix(form.body.count / 2)))
        }
        // The client killed mid-body (SIGKILL while its request is on the way).
        // (The modules through __import__: an import line here would read as a Swift import to PackageManifestTests.)
        let script = """
            socket, sys, time = (__import__(name) for name in ("socket", "sys", "time"))
            s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
            body = open(sys.argv[2], "rb").read()
            s.sendall(("POST /api/upload_sets/%s/files HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nAuthorization: Bearer %s\\r\\nContent-Type: %s\\r\\nContent-Length: %d\\r\\n\\r\\n" % (sys.argv[3], sys.argv[4], sys.argv[5], len(body))).encode() + body[: len(body) // 3])
            print("sent", flush=True)
            time.sleep(60)
            """
        let bodyFile = folder.appendingPathComponent("body.bin")
        try Data(form.body).write(to: bodyFile)
        let killed = Process()
        killed.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        killed.arguments = ["python3", "-c", script, "\(server.port)", bodyFile.path, set, token, form.contentType]
        let output = Pipe()
        killed.standardOutput = output
        try killed.run()
        _ = output.fileHandleForReading.availableData
        kill(killed.processIdentifier, SIGKILL)
        killed.waitUntilExit()
        Thread.sleep(forTimeInterval: 0.5)
        #expect(Self.keptPictures(catalog).isEmpty)
        let files = try Self.request(server.port, "GET", "/api/upload_sets/\(set)/files", headers: ["Authorization": "Bearer \(token)"]).json()
        #expect((files["files"] as? [Any])?.isEmpty == true, "\(files)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == before, "the catalog changed")
        // The server killed between writing a picture and recording it: at the next start what its set does not name is gone.
        _ = server.terminate()
        let uploads = URL(fileURLWithPath: Self.uploadsFolder(catalog))
        try Data([0xFF, 0xD8, 0xFF]).write(to: uploads.appendingPathComponent("\(set)/stray.jpg"))
        try Data([0xFF, 0xD8, 0xFF]).write(to: uploads.appendingPathComponent(".incoming/half.jpg"))
        // What a person put there that is no set's is theirs: a start leaves it alone.
        let own = uploads.appendingPathComponent("my-photos/keep.jpg")
        try FileManager.default.createDirectory(at: own.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data([0xFF, 0xD8, 0xFF]).write(to: own)
        server = try Self.serve(catalog, keys: keys)
        defer { _ = server.terminate() }
        #expect(FileManager.default.fileExists(atPath: own.path), "a folder that is no upload set's was removed at start")
        try FileManager.default.removeItem(at: own.deletingLastPathComponent())  // (the counts below are the sets' pictures)
        #expect(!FileManager.default.fileExists(atPath: uploads.appendingPathComponent("\(set)/stray.jpg").path))
        #expect(Self.keptPictures(catalog).isEmpty, "\(Self.keptPictures(catalog))")
        #expect(try Data(contentsOf: URL(fileURLWithPath: catalog)) == before, "the catalog changed")
        // And the set still takes the picture whole.
        let whole = try Self.request(server.port, "POST", "/api/upload_sets/\(set)/files",
                                     headers: ["Authorization": "Bearer \(token)", "Content-Type": form.contentType], body: form.body)
        #expect(whole.status == 202, "\(whole.text)")
        #expect(Self.keptPictures(catalog).count == 1)
    }
}

/// The README's "Uploads with `panoramax_cli`" block, run as written (the port a free one, the shared
/// data's folder where it is), with the built `lookaround` first on PATH.
@Suite struct ReadmeUploadTests {
    static func block() throws -> String {
        let readme = try String(contentsOf: Lookaround.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "\n#### Uploads with `panoramax_cli`\n"))
        let section = readme[start.upperBound...]
        let code = try #require(section.range(of: "```bash\n"))
        let end = try #require(section[code.upperBound...].range(of: "```"))
        return String(section[code.upperBound..<end.lowerBound])
    }

    /// A port nobody listens on now (the system's pick, released).
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileWriteUnknown) }
        return UInt16(bigEndian: address.sin_port)
    }

    @Test func theUploadExampleRunsAsWritten() throws {
        guard (try? Lookaround.runProcess("/usr/bin/env", ["sh", "-c", "command -v panoramax_cli"]))?.exitCode == 0 else {
            try Test.cancel("skipped: panoramax_cli is not on PATH (scripts/install-test-tools.sh installs PyPI panoramax-cli)")
        }
        let shared = ProcessInfo.processInfo.environment["LOOKAROUND_SHARED_DATA"]
            ?? Lookaround.repository.deletingLastPathComponent().appendingPathComponent("shared/data").path
        guard FileManager.default.fileExists(atPath: shared + "/real-photos/gopro-max-sequence/1.jpg") else {
            try Test.cancel("skipped: the GoPro Max files are not in \(shared)/real-photos")
        }
        var block = try Self.block()
        #expect(block.contains("127.0.0.1:8080") && block.contains("../shared/data"), "\(block)")
        block = block.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(try Self.freePort())")
            .replacingOccurrences(of: "../shared/data", with: shared)
        let folder = try Lookaround.temporaryDirectory()
        try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent("Panoramas"),
                                                   withDestinationURL: Lookaround.repository.appendingPathComponent("Panoramas"))
        let bin = URL(fileURLWithPath: Lookaround.executablePath).deletingLastPathComponent().path
        let environment = ["PATH": bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"), "COLUMNS": "200",
                           "XDG_CONFIG_HOME": folder.appendingPathComponent(".config").path]
        let result = try Lookaround.runProcess("/bin/bash", ["-euo", "pipefail", "-c", block], in: folder, environment: environment)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("5 pictures uploaded") && result.stdout.contains("All uploaded pictures are published"), "\(result.stdout)")
        #expect(result.stdout.contains("panorama"), "scene found the photos: \(result.stdout)")
        let downloaded = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("downloaded").path)) ?? []
        #expect(downloaded.filter { $0.hasSuffix(".jpg") }.sorted() == ["1.jpg", "2.jpg", "3.jpg", "4.jpg", "5.jpg"], "\(downloaded)")
    }
}
