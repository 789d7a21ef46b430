import Foundation
import Imaging
import Testing
import TestSupport

/// `index --tiles` within `--memory-mb`: a 16384×8192 panorama (134 Mpx) is cut into tiles under the
/// bound (peak resident memory of the process measured by GNU time), and one that alone needs more
/// than the bound is refused before it is decoded, naming the figure and the limit.
@Suite struct TileMemoryCLITests {
    static let width = 16384, height = 8192

    /// A folder with one 16384×8192 JPEG (stripes, so its tiles are not trivially small) and its sidecar.
    static func setUp() throws -> URL {
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("Panoramas")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var rows: [[UInt8]] = []
        for k in 0..<8 {
            var row = [UInt8](repeating: 0, count: width * 3)
            for x in 0..<width { row[3 * x] = UInt8(truncatingIfNeeded: x >> 4); row[3 * x + 1] = UInt8(32 * k); row[3 * x + 2] = UInt8(truncatingIfNeeded: x) }
            rows.append(row)
        }
        var components: [UInt8] = []
        components.reserveCapacity(width * height * 3)
        for y in 0..<height { components.append(contentsOf: rows[(y >> 5) & 7]) }
        let jpeg = try JPEGCodec.encode(RGB8Image(width: width, height: height, components: components), quality: 80)
        try Data(jpeg).write(to: folder.appendingPathComponent("huge-000.jpg"))
        let sidecar = #"{"latitude": 60.1699, "longitude": 24.9523, "heading_degrees": 0, "capture_time": "2026-06-15T09:15:00Z"}"#
        try Data(sidecar.utf8).write(to: folder.appendingPathComponent("huge-000.json"))
        return root
    }

    /// Runs `lookaround` under GNU time; returns the result and the peak resident set, MiB.
    static func measured(_ arguments: [String], in root: URL) throws -> (ProcessResult, Int) {
        let report = root.appendingPathComponent("time.txt").path
        let result = try Lookaround.runProcess("/usr/bin/time", ["-f", "%M", "-o", report, Lookaround.executablePath] + arguments, in: root)
        let kibibytes = Int(try String(contentsOfFile: report, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
            .split(separator: "\n").last ?? "") ?? 0
        return (result, kibibytes >> 10)
    }

    @Test(.timeLimit(.minutes(5)))
    func aHugePanoramaIsTiledWithinTheBound() throws {
        let root = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        let boundMegabytes = 1024
        let (result, peak) = try Self.measured(["index", "Panoramas", "--catalog", "catalog.sqlite", "--no-osm", "--quiet",
                                                "--tiles", "--memory-mb", "\(boundMegabytes)", "--json"], in: root)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let tiles = try #require(report["tiles"] as? [String: Any])
        #expect(tiles["made"] as? Int == 1, "\(tiles)")
        // Level 0 is cut from the JPEG losslessly: its DCT coefficients are held once, 3 bytes a pixel at 4:2:0
        // (384 MiB for 16384×8192), not the 4-byte pixels (512 MiB) and their halving; the bound holds.
        #expect(peak <= boundMegabytes, "peak resident memory \(peak) MiB over --memory-mb \(boundMegabytes)")
        #expect(peak > 384, "peak \(peak) MiB: the coefficients were not read whole?")
        let file = root.appendingPathComponent("catalog.tiles/huge-000.lktiles").path
        let size = try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int)
        #expect(size > 1_000_000)
    }

    @Test(.timeLimit(.minutes(5)))
    func aPanoramaOverTheBoundIsRefusedBeforeDecoding() throws {
        let root = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        let (result, peak) = try Self.measured(["index", "Panoramas", "--catalog", "catalog.sqlite", "--no-osm", "--quiet",
                                                "--tiles", "--memory-mb", "256"], in: root)
        #expect(result.exitCode == 65, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("no tiles    huge-000:"), "\(result.stdout)")
        #expect(result.stdout.contains("over the memory limit of 256 MiB; raise --memory-mb to at least"), "\(result.stdout)")
        #expect(peak < 256, "peak resident memory \(peak) MiB: it was decoded anyway")
        let usage = try Lookaround.run(["index", "--memory-mb", "300"], in: root)
        #expect(usage.exitCode == 64 && usage.stderr.contains("--memory-mb needs --tiles"), "\(usage.stderr)")
    }
}
