import Foundation
import Imaging
import Testing
import TestSupport

/// `lookaround serve` as its users start it: a process on an ephemeral loopback port, queried over
/// HTTP (also by a Python client written for Google's API), stopped with SIGTERM.
@Suite struct ServeCLITests {
    /// A running `lookaround serve` and what it printed.
    final class Server {
        let process = Process()
        let output = Pipe()
        let errors = Pipe()
        private(set) var port: UInt16 = 0
        private(set) var banner: [String] = []

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: Lookaround.executablePath)
            process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let handle = output.fileHandleForReading
            var text = ""
            let deadline = Date().addingTimeInterval(30)
            while !text.contains("stop with"), Date() < deadline {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                text += String(decoding: chunk, as: UTF8.self)
            }
            banner = text.split(separator: "\n").map(String.init)
            guard let line = banner.first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }),
                  let port = UInt16(line.split(separator: ":").last ?? "") else {
                process.terminate()
                throw CocoaError(.fileReadUnknown, userInfo: [NSDebugDescriptionErrorKey: "no banner: \(text)"])
            }
            self.port = port
        }

        /// Sends SIGTERM and waits; returns the exit code and the rest of stdout.
        func terminate() -> (exitCode: Int32, stdout: String) {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
            let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, rest)
        }
    }

    static func catalog() throws -> String {
        try SnapshotCLITests.setup.get().catalog
    }

    @Test func servesPrintsItsURLAndStopsGracefullyOnSIGTERM() throws {
        let log = try Lookaround.temporaryDirectory().appendingPathComponent("access.log").path
        // A long drain, so slow builds (sanitizers) finish the render in flight too.
        let server = try Server(["--catalog", try Self.catalog(), "--access-log", log, "--max-image-pixels", "16000000",
                                 "--drain-seconds", "120"])
        #expect(server.banner.contains { $0.contains("189 panoramas") })
        #expect(server.banner.contains { $0.hasPrefix("try: curl 'http://127.0.0.1:\(server.port)/v1/scene?") })
        let health = try RawHTTPClient(port: server.port).get("/v1/health")
        #expect(health.status == 200)
        // A large render in flight when SIGTERM arrives still gets its answer. Wait until the server's
        // metrics show it queued or running (on a slow machine the request may take a while to arrive;
        // if the render is already done by then, its answer is checked all the same).
        let inFlight = BackgroundHTTPRequest(path: "/v1/snapshot?scene=senaatintori-005&size=3200x2400&fov_degrees=100", port: server.port)
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let metrics = try RawHTTPClient(port: server.port).get("/metrics").text
            if metrics.contains("lookaround_render_queue 1") || metrics.contains("route=\"snapshot\",status=\"200\"") { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        let (exitCode, stdout) = server.terminate()
        #expect(exitCode == 0)
        #expect(stdout.contains("SIGTERM, stopping"))
        #expect(stdout.contains("lookaround serve: stopped"))
        let answer = try #require(inFlight.wait())
        #expect(answer.status == 200, "\(answer.text.prefix(200))")
        #expect(try JPEGCodec.readHeader(answer.body).width == 3200)
        let lines = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.contains { $0.contains(" GET /v1/health health 200 ") && $0.hasSuffix("us") })
        #expect(lines.contains { $0.contains(" GET /v1/snapshot snapshot 200 ") })
    }

    /// `lookaround serve | head -1`: once the pipe's reader has gone, serve ends as a pipe's writer does (by
    /// SIGPIPE), not by a fatal error (it ignores SIGPIPE for its sockets, so its next line got EPIPE and
    /// Foundation's `FileHandle.write` trapped). The pipe here has no reader from the start.
    @Test func aStdoutPipeWithoutAReaderEndsServeBySIGPIPE() throws {
        // (The modules through __import__: an import line here would read as a Swift import to PackageManifestTests.)
        let script = """
        os, subprocess, sys = (__import__(name) for name in ("os", "subprocess", "sys"))
        r, w = os.pipe(); os.close(r)
        p = subprocess.run(sys.argv[1:], stdout=w, stderr=subprocess.PIPE, timeout=60)
        print(p.returncode); sys.stdout.write(p.stderr.decode(errors="replace"))
        """
        let result = try Lookaround.runProcess("/usr/bin/python3", ["-c", script, Lookaround.executablePath, "serve", "--catalog",
                                                                    try Self.catalog(), "--listen", "127.0.0.1:0"])
        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "\(-SIGPIPE)", "exit \(lines.first ?? ""): \(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("Fatal error"), "\(result.stdout)")
    }

    @Test func badStartsAreClearErrors() throws {
        let listen = try Lookaround.run(["serve", "--listen", "127.0.0.1:99999"])
        #expect(listen.exitCode == 64)
        #expect(listen.stderr.contains("0…65535"))
        let noCatalog = try Lookaround.run(["serve", "--catalog", "/nonexistent/catalog.sqlite", "--listen", "127.0.0.1:0"])
        #expect(noCatalog.exitCode == 66)
        #expect(noCatalog.stderr.contains("lookaround index"))
        let noKeys = try Lookaround.run(["serve", "--catalog", try Self.catalog(), "--api-key-file", "/nonexistent/keys", "--listen", "127.0.0.1:0"])
        #expect(noKeys.exitCode == 66)
        #expect(noKeys.stderr.contains("/nonexistent/keys"))
        let help = try Lookaround.run(["serve", "--help"])
        #expect(help.exitCode == 0 && help.stdout.contains("--api-key-file") && help.stdout.contains("/maps/api/streetview"))
    }

    /// `--print-config` writes the file the service reads; a mistake in it names the file and line
    /// (exit 64), and a value from it is checked like the same option on the command line.
    @Test func theConfigurationFileIsPrintedReadAndChecked() throws {
        let printed = try Lookaround.run(["serve", "--print-config", "--listen", "127.0.0.1:0", "--cache-mb", "32"])
        #expect(printed.exitCode == 0)
        #expect(printed.stdout.contains("\nlisten = 127.0.0.1:0\n") && printed.stdout.contains("\ncache-mb = 32\n"))
        #expect(printed.stdout.contains("\n# max-queue = 64\n") && !printed.stdout.contains("print-config ="))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("serve-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let typo = folder.appendingPathComponent("typo.conf").path
        try (printed.stdout + "cache-mbs = 64\n").write(toFile: typo, atomically: true, encoding: .utf8)
        let bad = try Lookaround.run(["serve", "--config", typo])
        let line = printed.stdout.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(bad.exitCode == 64 && bad.stderr.contains("\(typo):\(line): unknown option 'cache-mbs'"), "\(bad.stderr)")
        #expect(bad.stderr.contains("did you mean 'cache-mb'"), "\(bad.stderr)")
        let range = folder.appendingPathComponent("range.conf").path
        try "cache-mb = 1\n".write(toFile: range, atomically: true, encoding: .utf8)
        let outOfRange = try Lookaround.run(["serve", "--config", range, "--catalog", try Self.catalog()])
        #expect(outOfRange.exitCode == 64 && outOfRange.stderr.contains("16…65536"), "\(outOfRange.stderr)")
    }

    @Test func aPythonClientWrittenForGooglesAPIWorksUnchanged() throws {
        let probe = try Lookaround.runProcess("/usr/bin/env", ["python3", "-c", "import google_streetview.api"])
        guard probe.exitCode == 0 else {
            try Test.cancel("skipped: PyPI google-streetview is not installed (scripts/install-test-tools.sh installs it): \(probe.stderr.prefix(200))")
        }
        let server = try Server(["--catalog", try Self.catalog(), "--api-key-file", try Self.keyFile()])
        defer { _ = server.terminate() }
        let out = try Lookaround.temporaryDirectory()
        let script = SnapshotCLITests.repository.appendingPathComponent("scripts/streetview_client.py").path
        let result = try Lookaround.runProcess("/usr/bin/env", ["python3", script, "http://127.0.0.1:\(server.port)", out.path])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let metadata = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        #expect(metadata.first?["status"] as? String == "OK")
        #expect((metadata.first?["pano_id"] as? String)?.hasPrefix("senaatintori-") == true)
        let image = try JPEGCodec.decodeRGB(try ImageFile.read(out.appendingPathComponent("gsv_0.jpg").path)).image
        #expect(image.width == 640 && image.height == 400)
    }

    @Test func geocodingClientsWrittenForNominatimAndGoogleWorkUnchanged() throws {
        let probe = try Lookaround.runProcess("/usr/bin/env", ["python3", "-c", "import geopy, google_streetview.api"])
        guard probe.exitCode == 0 else {
            try Test.cancel("skipped: PyPI geopy or google-streetview is not installed (install-test-tools.sh installs them): \(probe.stderr.prefix(200))")
        }
        let server = try Server(["--catalog", try Self.catalog()])
        defer { _ = server.terminate() }
        let script = SnapshotCLITests.repository.appendingPathComponent("scripts/geopy_client.py").path
        let result = try Lookaround.runProcess("/usr/bin/env", ["python3", script, "http://127.0.0.1:\(server.port)"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let forward = try #require(answers["forward"] as? [String: Any])
        func point(_ answer: Any?) -> (Double, Double)? {
            (answer as? [String: Any]).flatMap { a in (a["latitude"] as? Double).flatMap { lat in (a["longitude"] as? Double).map { (lat, $0) } } }
        }
        let house = try #require(point(forward["Aleksanterinkatu 52, Helsinki"]))
        #expect(abs(house.0 - 60.16829) < 0.0002 && abs(house.1 - 24.94216) < 0.0004, "\(house)")
        #expect(point(forward["Alexandersgatan 52"]).map { $0 == house } == true)
        #expect(point((answers["structured"])).map { $0 == house } == true)
        #expect((forward["Senaatintori, Helsinki"] as? [String: Any])?["address"] as? String == "Senaatintori, Helsinki")
        #expect(forward["Qqqxxzz Street 5"] is NSNull, "nothing found is None")
        #expect((answers["all"] as? [Any])?.count == 3)
        #expect(((answers["swedish"] as? [String: Any])?["address"] as? String)?.hasPrefix("Alexandersgatan 52") == true)
        let reverse = try #require(answers["reverse"] as? [String: Any])
        #expect(((reverse["60.16845, 24.94205"] as? [String: Any])?["address"] as? String)?.hasPrefix("Aleksanterinkatu 52") == true)
        // A client written for Google's Street View API, with the phrasings Google's documentation uses.
        let keyed = try Server(["--catalog", try Self.catalog(), "--api-key-file", try Self.keyFile()])
        defer { _ = keyed.terminate() }
        let google = SnapshotCLITests.repository.appendingPathComponent("scripts/streetview_client.py").path
        for location in ["Senaatintori, Helsinki", "Aleksanterinkatu 52, Helsinki"] {
            let out = try Lookaround.temporaryDirectory()
            let run = try Lookaround.runProcess("/usr/bin/env", ["python3", google, "http://127.0.0.1:\(keyed.port)", out.path, location])
            let metadata = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]]
            #expect(run.exitCode == 0 && metadata?.first?["status"] as? String == "OK", "\(location): \(run.stdout)\(run.stderr)")
        }
    }

    static func keyFile() throws -> String {
        let file = try Lookaround.temporaryDirectory().appendingPathComponent("keys.txt")
        try Data("test-key\n".utf8).write(to: file)
        return file.path
    }
}
