import Foundation
import Geodesy
import MapData
import Routing

// Directions: graph build time and bytes, and routes per second on one core for random pairs in the
// Helsinki and Munich extracts (A* over directed edges, with steps), against Debian's Routino (AGPL,
// run as its own programs, never linked) on the same pairs in the same run: planetsplitter builds its
// database once, routino-router answers one route per process, as Routino is used from scripts.

func runDirectionsBenchmarks() throws {
    let extracts = [("Helsinki", "Panoramas/sources/helsinki-centre.osm.pbf"),
                    ("Munich", "Tests/Fixtures/osm/munich-centre-2020-07.osm.pbf")]
    let splitter = BenchmarkReport.which("planetsplitter"), router = BenchmarkReport.which("routino-router")
    for (place, osm) in extracts {
        let network = try StreetNetwork(contentsOfFile: osm)
        let readMs = try BenchmarkReport.medianMilliseconds(runs: 5) { _ = try StreetNetwork(contentsOfFile: osm) }
        let buildMs = BenchmarkReport.medianMilliseconds(runs: 5) { _ = RoutingGraph(network: network) }
        let graph = RoutingGraph(network: network)
        print("   \(place): \(graph.vertexCount) vertices, \(graph.edgeCount) edges (\(graph.areaCrossingCount) across squares), "
              + "\(graph.restrictionCount) turn restrictions; \(graph.memoryBytes) bytes in memory")
        print(String(format: "   \(place): graph built in %.1f ms (reading the extract %.1f ms more), median of 5", buildMs, readMs))
        // What `lookaround index` stores in the catalog, and reading it back (what directions do without --osm).
        let bytes = graph.serialized()
        let loadMs = try BenchmarkReport.medianMilliseconds(runs: 5) { _ = try RoutingGraph(serialized: bytes) }
        print(String(format: "   \(place): stored in the catalog as %d bytes, read back in %.1f ms, median of 5", bytes.count, loadMs))
        // Random pairs of street points (seeded): coordinates of vertices open to the mode.
        var generator = SeededRandom(seed: 36)
        for mode in [TransportType.walking, .driving] {
            let vertices = graph.vertexCoordinates(openTo: mode)
            let pairs: [(GeoCoordinate, GeoCoordinate)] = (0..<200).map { _ in
                (vertices[Int(generator.next() % UInt64(vertices.count))], vertices[Int(generator.next() % UInt64(vertices.count))])
            }
            var found = 0, meters = 0.0
            let oursMs = BenchmarkReport.medianMilliseconds(runs: 5) {
                found = 0; meters = 0
                for (p, q) in pairs {
                    if let path = try? graph.route(from: p, to: q, mode: mode) {
                        found += 1
                        meters += path.distanceMeters
                        _ = path.maneuvers(graph: graph)
                    }
                }
            }
            let ours = Double(pairs.count) / (oursMs / 1000)
            print(String(format: "   \(place) \(mode): lookaround %8.0f routes/s on one core (%d pairs, %d found, mean %.0f m, with steps; median of 5)",
                         ours, pairs.count, found, meters / Double(max(found, 1))))
            guard let splitter, let router else {
                print("   \(place) \(mode): Routino not installed (apt-get install routino): no peer figure")
                continue
            }
            let folder = NSTemporaryDirectory() + "lookaround-bench-routino-\(getpid())-\(place)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            guard let splitMs = BenchmarkReport.spawnMilliseconds(splitter, ["--dir=\(folder)", "--tagging=/usr/share/routino/tagging.xml",
                                                                            FileManager.default.currentDirectoryPath + "/" + osm]) else {
                print("   \(place): planetsplitter failed: no peer figure")
                continue
            }
            var peerFound = 0
            let peerPairs = Array(pairs.prefix(100))
            let start = Date()
            for (p, q) in peerPairs {
                let arguments = ["--dir=\(folder)", "--profiles=/usr/share/routino/profiles.xml", "--translations=/usr/share/routino/translations.xml",
                                 "--transport=\(mode == .walking ? "foot" : "motorcar")", mode == .walking ? "--shortest" : "--quickest",
                                 "--lat1=\(p.latitude)", "--lon1=\(p.longitude)", "--lat2=\(q.latitude)", "--lon2=\(q.longitude)",
                                 "--output-none", "--quiet"]
                if BenchmarkReport.spawnMilliseconds(router, arguments) != nil { peerFound += 1 }
            }
            let peer = Double(peerPairs.count) / Date().timeIntervalSince(start)
            print(String(format: "   \(place) \(mode): Routino  %8.0f routes/s (one routino-router process per route, %d of %d found; "
                         + "planetsplitter %.0f ms) → lookaround %.1f× Routino", peer, peerFound, peerPairs.count, splitMs, ours / peer))
        }
    }
}

/// SplitMix64, so the pairs are the same every run.
struct SeededRandom {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
