import Foundation
import Testing
import TestSupport

/// The README's "Imagery on object storage" examples, run as written (the second against the test's
/// SeaweedFS with its endpoint and keys put in for the example's).
@Suite(.serialized, .enabled(if: S3TestServer.shared != nil, Comment(rawValue: S3TestServer.skipNote)))
struct ReadmeObjectStorageTests {
    /// The bash blocks of the README section.
    static func blocks() throws -> [String] {
        let readme = try String(contentsOf: Lookaround.repository.appendingPathComponent("README.md"), encoding: .utf8)
        guard let start = readme.range(of: "\n## Imagery on object storage\n") else { return [] }
        let section = readme[start.upperBound...].prefix { _ in true }
        let end = section.range(of: "\n## ")?.lowerBound ?? section.endIndex
        return section[..<end].components(separatedBy: "```bash\n").dropFirst().map { String($0.prefix { _ in true }.components(separatedBy: "```")[0]) }
    }

    /// A folder that looks like the repository to the example (its Panoramas, scripts and Makefile), with
    /// the built `lookaround` first on PATH.
    static func sandbox() throws -> (folder: URL, environment: [String: String]) {
        let folder = try Lookaround.temporaryDirectory()
        for name in ["Panoramas", "scripts", "Makefile"] {
            try FileManager.default.createSymbolicLink(at: folder.appendingPathComponent(name),
                                                       withDestinationURL: Lookaround.repository.appendingPathComponent(name))
        }
        let bin = URL(fileURLWithPath: Lookaround.executablePath).deletingLastPathComponent().path
        let path = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        // Nothing of the test's own AWS settings: only what the example sets.
        return (folder, ["PATH": path, "AWS_CONFIG_FILE": "/nonexistent", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent",
                         "AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "", "AWS_ENDPOINT_URL": "", "AWS_ENDPOINT_URL_S3": "",
                         "AWS_PROFILE": "", "AWS_REGION": "", "LOOKAROUND_TILE_DIR": "", "LOOKAROUND_CACHE_DIR": ""])
    }

    @Test func theSeaweedFSExampleRunsAsWritten() throws {
        let blocks = try Self.blocks()
        #expect(blocks.count == 2, "\(blocks)")
        let block = try #require(blocks.first)
        #expect(block.hasPrefix("make s3-up\n") && block.hasSuffix("make s3-down\n"))
        var (folder, environment) = try Self.sandbox()
        // The port: the test's (in a shared machine's range) when set, else one the system picks.
        environment["LOOKAROUND_S3_PORT"] = ProcessInfo.processInfo.environment["LOOKAROUND_TEST_S3_PRIVATE_PORT"].map { "\((Int($0) ?? 0) + 20)" }
            ?? "\(S3TestServer.freePortBlock())"
        defer {
            _ = try? Lookaround.runProcess("/bin/bash", [folder.appendingPathComponent("scripts/seaweedfs.sh").path, "down"],
                                           environment: ["LOOKAROUND_S3_DIR": folder.appendingPathComponent(".build/seaweedfs").path])
        }
        let result = try Lookaround.runProcess("/bin/bash", ["-euo", "pipefail", "-c", block], in: folder, environment: environment)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("bucket       s3://lookaround: ok"), "\(result.stdout)")
        #expect(result.stdout.contains("copied 756 of 756"))
        #expect(result.stdout.contains("panoramas   189 (189 files: 189 read") && result.stdout.contains("tile files  189 panoramas: 189 made"))
        let view = try Data(contentsOf: folder.appendingPathComponent("view.jpg"))
        #expect(view.count > 10_000 && view.starts(with: [0xFF, 0xD8]))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".build/s3-cache/objects-v1").path), "the disk cache was used")
    }

    @Test func theAnyS3ExampleRunsWithTheTestServersValues() throws {
        let server = try #require(S3TestServer.shared)
        var block = try #require(try Self.blocks().last)
        var (folder, environment) = try Self.sandbox()
        let credentials = server.credentials
        for (example, actual) in [("https://minio.example.com:9000", server.endpoint), ("AWS_ACCESS_KEY_ID=lookaround", "AWS_ACCESS_KEY_ID=\(credentials.accessKeyID)"),
                                  ("AWS_SECRET_ACCESS_KEY=change-me", "AWS_SECRET_ACCESS_KEY=\(credentials.secretAccessKey)"),
                                  ("/var/cache/lookaround", folder.appendingPathComponent("cache").path)] {
            #expect(block.contains(example), "the example names \(example)")
            block = block.replacingOccurrences(of: example, with: actual)
        }
        // serve on a free port, stopped after its first answer.
        let lines = block.split(separator: "\n").map(String.init)
        let serve = try #require(lines.last)
        #expect(serve.hasPrefix("lookaround serve "))
        block = lines.dropLast().joined(separator: "\n") + "\n" + serve + """
             --listen 127.0.0.1:0 > serve.out 2>&1 &
            pid=$!
            for i in $(seq 200); do grep -q 'listening on' serve.out && break; sleep 0.1; done
            port=$(sed -n 's|^listening on http://127.0.0.1:||p' serve.out)
            curl -sf "http://127.0.0.1:$port/v1/panoramas/senaatintori-005" > answer.json
            kill $pid; wait $pid
            """
        var database: String?
        if PostGISTestServer.url != nil { database = try PostGISTestServer.freshDatabase("readme_s3") }
        defer { if let database { PostGISTestServer.drop(database) } }
        environment["catalog"] = database ?? folder.appendingPathComponent("catalog.sqlite").path
        let result = try Lookaround.runProcess("/bin/bash", ["-euo", "pipefail", "-c", block], in: folder, environment: environment)
        #expect(result.exitCode == 0, "\(result.stdout)\n\(result.stderr)")
        let answer = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("answer.json"))) as? [String: Any])
        #expect(answer["image_url"] as? String == "https://cdn.example.com/imagery/helsinki/senaatintori-005.jpg")
        #expect((answer["tiles"] as? [String: Any])?["file_url"] as? String == "https://cdn.example.com/imagery/tiles/senaatintori-005.lktiles")
    }
}
