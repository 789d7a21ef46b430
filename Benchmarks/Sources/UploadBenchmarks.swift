import Foundation
import ProcessRunner

// Uploads (issue 50): photos ingested per second through Panoramax's upload API of `lookaround serve`
// (`panoramax_cli upload --wait --parallel-uploads 2`, the PyPI client run unchanged: each picture sent,
// checked, blurred, kept, then the set indexed into the catalog, until the set reads ready), against the
// same photos indexed by `lookaround index --blur` into the same kind of catalog, in the same run, on this
// machine's cores. geovisio, Panoramax's own server, is not a peer here: it needs its whole stack (Flask,
// PostgreSQL with its own schema, a blurring API) and cannot be installed from PyPI alone.
//
// Needs the GoPro Max photos of ../shared/data (or $LOOKAROUND_SHARED_DATA), the privacy models
// (scripts/fetch-models.sh) and panoramax_cli (scripts/install-test-tools.sh). Run from the repository root.

func runUploadBenchmarks() throws {
    let shared = ProcessInfo.processInfo.environment["LOOKAROUND_SHARED_DATA"] ?? "../shared/data"
    let photos = (1...5).map { "\(shared)/real-photos/gopro-max-sequence/\($0).jpg" }
    guard photos.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
        print("   skipped: the GoPro Max photos of \(shared)/real-photos are missing (run from the repository root, ../shared beside it)")
        return
    }
    let python = BenchmarkReport.which("python3") ?? "/usr/bin/python3"
    guard (try? ChildProcess.run(python, ["-c", "import panoramax_cli"]))?.exitStatus == 0 else {
        print("   skipped: panoramax_cli is not installed (scripts/install-test-tools.sh)")
        return
    }
    let lookaround = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("lookaround").path
    let work = NSTemporaryDirectory() + "lookaround-bench-uploads-\(getpid())/"
    defer { try? FileManager.default.removeItem(atPath: work) }
    let rounds = 3
    var uploadSeconds: [Double] = [], indexSeconds: [Double] = []
    for round in 0..<rounds {
        // Each round: fresh copies of the photos (not yet blurred) and a fresh catalog of three shipped panoramas.
        let folder = work + "round\(round)/"
        for name in ["upload/gopro", "index/gopro", "base"] {
            try FileManager.default.createDirectory(atPath: folder + name, withIntermediateDirectories: true)
        }
        for (k, photo) in photos.enumerated() {
            for side in ["upload", "index"] { try FileManager.default.copyItem(atPath: photo, toPath: folder + "\(side)/gopro/\(k + 1).jpg") }
        }
        let shipped = try FileManager.default.contentsOfDirectory(atPath: "Panoramas/helsinki").filter { $0.hasSuffix(".jpg") }.sorted().prefix(3)
        for name in shipped {
            try FileManager.default.createSymbolicLink(atPath: folder + "base/" + name,
                                                       withDestinationPath: FileManager.default.currentDirectoryPath + "/Panoramas/helsinki/" + name)
        }
        for side in ["upload", "index"] {
            let made = try ChildProcess.run(lookaround, ["index", folder + "base", "--catalog", folder + "\(side)/photos.sqlite", "--no-osm", "--quiet"])
            guard made.exitStatus == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["stderr": String(decoding: made.stderr, as: UTF8.self)]) }
        }
        // Through the API.
        try "benchmark-token\n".write(toFile: folder + "keys.txt", atomically: true, encoding: .utf8)
        let server = try ServedProcess(catalog: folder + "upload/photos.sqlite", extra: ["--upload-key-file", folder + "keys.txt"], osm: nil)
        defer { server.stop() }
        var uploaded: ChildProcess.Outcome?
        let upload = try BenchmarkReport.milliseconds {
            uploaded = try ChildProcess.run(python, ["-m", "panoramax_cli", "upload", "--api-url", "http://127.0.0.1:\(server.port)",
                                                     "--token", "benchmark-token", "--wait", "--parallel-uploads", "2", folder + "upload/gopro"],
                                            environment: ["COLUMNS": "160", "XDG_CONFIG_HOME": folder + "config"])
        }
        guard uploaded?.exitStatus == 0, String(decoding: uploaded?.stdout ?? [], as: UTF8.self).contains("5 pictures uploaded") else {
            print("   FAILED: panoramax_cli upload: \(String(decoding: (uploaded?.stdout ?? []) + (uploaded?.stderr ?? []), as: UTF8.self).suffix(1500))")
            return
        }
        uploadSeconds.append(upload / 1000)
        // The peer: the same photos by lookaround index --blur into the same kind of catalog (the base folder kept).
        var indexed: ChildProcess.Outcome?
        let index = try BenchmarkReport.milliseconds {
            indexed = try ChildProcess.run(lookaround, ["index", folder + "base", folder + "index/gopro", "--catalog", folder + "index/photos.sqlite",
                                                        "--no-osm", "--blur", "--quiet"])
        }
        guard indexed?.exitStatus == 0 else {
            print("   FAILED: lookaround index --blur: \(String(decoding: indexed?.stderr ?? [], as: UTF8.self).suffix(1500))")
            return
        }
        indexSeconds.append(index / 1000)
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    let api = Double(photos.count) / median(uploadSeconds), index = Double(photos.count) / median(indexSeconds)
    print(String(format: "   through the API (panoramax_cli upload --wait --parallel-uploads 2, 5 photos 5760×2880, blurred on arrival, "
                 + "indexed): %.2f photos/s (median of %d: %@ s)", api, rounds, uploadSeconds.map { String(format: "%.2f", $0) }.joined(separator: ", ")))
    print(String(format: "   peer, lookaround index --blur of the same photos: %.2f photos/s (median of %d: %@ s)", index, rounds,
                 indexSeconds.map { String(format: "%.2f", $0) }.joined(separator: ", ")))
    print(String(format: "   ratio API / index: %.2f×", api / index))
}
