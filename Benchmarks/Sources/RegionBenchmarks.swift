import Diagnostics
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Orthophoto
import ProcessRunner

// The simulator at the scale of a region (issue 34), part of the simulator figures: the north-bayreuth
// suburb (../shared/data/osm/north-bayreuth-2014.osm.pbf, 0.7 MB, woods and meadows), every named street
// at 25 m spacing, 512×256 panoramas (256×128 maps) at 1 sample per pixel, built tile by tile (the
// default: 500 m tiles, 600 m of horizon), against today's whole-model build of the same plan, cut off
// after its first capture (it needs about 12 GB and 90 s for that one); then N = 2 shards on the 2
// cores against one process on the first 240 captures. Each run is the `lookaround` built beside
// this benchmark; figures from its --json report (peak resident memory: its VmHWM; set-up = the
// start to the first capture's rendering).

func runRegionBenchmarks() throws {
    let osm = "../shared/data/osm/north-bayreuth-2014.osm.pbf"
    guard FileManager.default.fileExists(atPath: osm) else {
        print("   skipped: \(osm) not found (run from the repository root, beside ../shared)")
        return
    }
    let lookaround = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("lookaround").path
    let folder = NSTemporaryDirectory() + "lookaround-bench-region-\(getpid())/"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let common = ["simulate", "--osm", osm, "--spacing-meters", "25", "--size", "512x256", "--depth-size", "256x128",
                  "--samples", "1", "--json", "-q"]

    struct Report: Decodable, Sendable {
        var captures: [Capture]; var seconds: Double; var tiles: Int?; var largestModelTriangles: Int?
        var peakResidentBytes: Int?; var setupSeconds: Double?
        struct Capture: Decodable, Sendable { var status: String }
    }
    @Sendable func run(_ extra: [String], out: String) throws -> (report: Report, wallSeconds: Double) {
        let outcome = try ChildProcess.run(lookaround, common + ["--out", folder + out] + extra)
        guard outcome.exitStatus == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSDebugDescriptionErrorKey: String(decoding: outcome.stderr, as: UTF8.self)])
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return (try decoder.decode(Report.self, from: Data(outcome.stdout)), Double(outcome.wallNanoseconds) / 1e9)
    }
    func describe(_ r: Report) -> String {
        String(format: "%d captures, %d models (largest %.2f M triangles), set-up %.1f s, peak %.2f GB",
               r.captures.count, r.tiles ?? 0, Double(r.largestModelTriangles ?? 0) / 1e6, r.setupSeconds ?? .nan,
               Double(r.peakResidentBytes ?? 0) / 1e9)
    }

    // The hybrid map of the suburb: 6 km across at 1024² (in this process, first, so its high-water mark
    // is the map's).
    let mapStart = DispatchTime.now().uptimeNanoseconds
    let dataset = try MapDataset(contentsOfFile: osm)
    var options = MapSnapshotOptions(region: try CoordinateRegion(center: try GeoCoordinate(latitude: 50.01, longitude: 11.55),
                                                                  latitudinalMeters: 6000, longitudinalMeters: 6000),
                                     size: PointSize(width: 1024, height: 1024), mapType: .hybrid)
    options.orthophotoProvider = try SimulatedOrthophoto(dataset: dataset)
    _ = try MapSnapshotter(dataset: dataset).snapshot(options).image
    let mapSeconds = Double(DispatchTime.now().uptimeNanoseconds - mapStart) / 1e9
    let mapPeak = ProcessMemory.peakResidentBytes()
    print(String(format: "   hybrid map, 6 km across at 1024×1024 (read, build, render): %.2f s, peak %.2f GB (goals ≤ 5 s, ≤ 1 GB: %@); "
                 + "today's build of the whole extract took 109 s and 12.4 GB (the issue's figures)", mapSeconds,
                 Double(mapPeak ?? 0) / 1e9, mapSeconds <= 5 && (mapPeak ?? .max) <= 1_000_000_000 ? "met" : "NOT met"))

    try measureLargeExtractRead(source: osm, folder: folder, lookaround: lookaround)

    let tiled = try run([], out: "tiled")
    print(String(format: "   tiled, every named street every 25 m: %@; %.0f s in all (%.2f captures/s)", describe(tiled.report),
                 tiled.wallSeconds, Double(tiled.report.captures.count) / tiled.wallSeconds))
    print("   goals: peak ≤ 2 GB \((tiled.report.peakResidentBytes ?? .max) <= 2_000_000_000 ? "met" : "NOT met"), "
          + "set-up ≤ 10 s \((tiled.report.setupSeconds ?? .infinity) <= 10 ? "met" : "NOT met")")
    let whole = try run(["--whole-model", "--limit", "1"], out: "whole")
    print(String(format: "   today's whole-model build, cut off after its first capture: %@; %.0f s", describe(whole.report), whole.wallSeconds))

    // Shards: the first 240 captures, one process against two at once (one per core).
    let subset = ["--limit", "240"]
    let one = try run(subset, out: "one")
    let start = DispatchTime.now().uptimeNanoseconds
    let group = DispatchGroup()
    nonisolated(unsafe) var shardReports: [Report?] = [nil, nil]
    for k in 0..<2 {
        DispatchQueue.global().async(group: group) {
            shardReports[k] = try? run(subset + ["--shard", "\(k)/2"], out: "shards").report
        }
    }
    group.wait()
    let twoSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let shardCaptures = shardReports.compactMap { $0?.captures.count }
    print(String(format: "   240 captures: one process %.1f s; 2 shards at once %.1f s (%@ captures; %.2f× faster), each shard peak %@",
                 one.wallSeconds, twoSeconds, shardCaptures.map(String.init).joined(separator: " + "), one.wallSeconds / twoSeconds,
                 shardReports.map { r in String(format: "%.2f GB", Double(r?.peakResidentBytes ?? 0) / 1e9) }.joined(separator: ", ")))
}

/// Reading a 50 MB extract: 90 copies of the suburb side by side (scripts/replicate-osm-extract.py, with
/// pyosmium; 50.7 MB, 5.3 million nodes, 702,090 ways), read by `lookaround simulate --dry-run` over a
/// box with nothing in it (the read, the assembly into features, one pass of the model builder over
/// them, then the "nothing here" error): wall time and peak resident memory (GNU time's maximum RSS).
/// With LOOKAROUND_PEER=PATH, the same for that binary (the reader before this change) in the same run.
func measureLargeExtractRead(source: String, folder: String, lookaround: String) throws {
    let big = folder + "bayreuth-x90.osm.pbf"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let made = try ChildProcess.run("/usr/bin/env", ["python3", "scripts/replicate-osm-extract.py", source, big, "90"])
    guard made.exitStatus == 0, FileManager.default.fileExists(atPath: "/usr/bin/time") else {
        print("   50 MB extract: skipped (needs python3 with pyosmium, scripts/install-test-tools.sh, and GNU time)")
        return
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: big)[.size] as? Int) ?? 0
    func read(_ binary: String) throws -> (seconds: Double, peakBytes: Double) {
        let outcome = try ChildProcess.run("/usr/bin/time", ["-f", "%e %M", binary, "simulate", "--osm", big, "--bbox", "0.1,0.1,0.2,0.2",
                                                             "--out", folder + "none", "--dry-run"])
        let last = String(decoding: outcome.stderr, as: UTF8.self).split(separator: "\n").last.map(String.init) ?? ""
        let fields = last.split(separator: " ").compactMap { Double($0) }
        guard fields.count == 2 else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSDebugDescriptionErrorKey: last]) }
        return (fields[0], fields[1] * 1024)
    }
    var lines: [(String, String)] = [("this build", lookaround)]
    if let peer = ProcessInfo.processInfo.environment["LOOKAROUND_PEER"] { lines.append(("peer \(peer)", peer)) }
    for (name, binary) in lines + lines {   // twice each, alternating: the second of each is printed too
        let r = try read(binary)
        print(String(format: "   reading a %.1f MB extract (90 copies of the suburb), %@: %.1f s, peak %.0f MB", Double(size) / 1e6, name,
                     r.seconds, r.peakBytes / 1e6))
    }
}
