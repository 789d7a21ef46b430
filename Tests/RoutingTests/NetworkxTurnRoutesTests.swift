import Foundation
import Geodesy
import MapData
import Testing
import TestSupport
@testable import Routing

/// Driving and cycling times against `scripts/networkx_turn_routes.py`: a graph built independently in
/// Python from the same extract and the same documented rules (access, one-way streets and contraflow,
/// speeds, turn restrictions as OSRM and GraphHopper read them, U-turns only where nothing else goes on),
/// searched with networkx over directed OSM segments. Random routes on the shipped Helsinki and Munich
/// extracts, and every route of the restriction corpus.
@Suite(.serialized) struct NetworkxTurnRoutesTests {
    static let script = Lookaround.repository.appendingPathComponent("scripts/networkx_turn_routes.py").path

    /// A point on the network as the script takes it: way, the OSM nodes of its segment, the fraction
    /// from the first to the second.
    static func segment(_ graph: RoutingGraph, _ point: SnappedPoint) -> [Any]? {
        let e = point.edge, start = Int(graph.edgeGeometryStart[e]), end = Int(graph.edgeGeometryStart[e + 1])
        for i in start..<(end - 1) where graph.pointOffsetMeters[i + 1] >= point.offsetMeters || i == end - 2 {
            let a = graph.pointOffsetMeters[i], b = graph.pointOffsetMeters[i + 1]
            guard b > a, graph.pointNode[i] != 0, graph.pointNode[i + 1] != 0 else { return nil }
            return [graph.wayOSMID(edge: e), graph.pointNode[i], graph.pointNode[i + 1], min(max((point.offsetMeters - a) / (b - a), 0), 1)]
        }
        return nil
    }

    /// The script's times for `pairs` (each the two ends' `segment`s) and its count of restrictions resolved.
    static func reference(_ extract: String, mode: TransportType, pairs: [[Any]]) throws -> (seconds: [Double?], restrictions: Int) {
        let request: [String: Any] = ["mode": mode == .driving ? "driving" : "cycling", "pairs": pairs]
        let file = try Lookaround.temporaryDirectory().appendingPathComponent("turn-request.json")
        try JSONSerialization.data(withJSONObject: request).write(to: file)
        let output = try PeerScript.run(script, [extract, file.path])
        let answer = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        let seconds = try #require(answer["seconds"] as? [Any]).map { $0 as? Double }
        return (seconds, try #require(answer["restrictions"] as? Int))
    }

    /// Random points on edges open to `mode` in its largest component, seeded.
    static func randomPoints(_ graph: RoutingGraph, mode: TransportType, count: Int, seed: UInt64) -> [(edge: Int, offset: Double)] {
        let components = graph.edgeComponent[mode.index], sizes = graph.componentEdgeCount[mode.index]
        let largest = Int32(sizes.indices.max { sizes[$0] < sizes[$1] }!)
        let edges = (0..<graph.edgeCount).filter { components[$0] == largest && graph.length(edge: $0) > 2 && !graph.way(ofEdge: $0).isArea }
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let e = edges.randomElement(using: &generator)!
            return (e, graph.length(edge: e) * Double.random(in: 0.2...0.8, using: &generator))
        }
    }

    @Test(arguments: [TransportType.driving, .cycling])
    func randomRoutesMatchNetworkxOnTheRealExtracts(mode: TransportType) throws {
        for (path, graph) in zip([RoutingGraphTests.helsinki, RoutingGraphTests.munich], try RoutingGraphTests.graphs.get()) {
            let points = Self.randomPoints(graph, mode: mode, count: 44, seed: mode == .driving ? 54 : 55)
            var pairs: [[Any]] = [], ours: [Double?] = []
            for k in stride(from: 0, to: points.count - 1, by: 2) {
                let (e1, o1) = points[k], (e2, o2) = points[k + 1]
                let from = graph.coordinate(onEdge: e1, offsetMeters: o1), to = graph.coordinate(onEdge: e2, offsetMeters: o2)
                guard let start = graph.snap(from, mode: mode, radiusMeters: 1), start.edge == e1,
                      let end = graph.snap(to, mode: mode, radiusMeters: 1), end.edge == e2,
                      let a = Self.segment(graph, start), let b = Self.segment(graph, end) else { continue }
                pairs.append(a + b)
                ours.append(graph.search(from: start, to: end, mode: mode, penalty: nil).map { graph.path($0, from: start, to: end, mode: mode).durationSeconds })
            }
            #expect(pairs.count >= 15, "\(path) \(mode): only \(pairs.count) pairs snapped onto their own edges")
            let reference = try Self.reference(path, mode: mode, pairs: pairs)
            #expect(reference.restrictions == graph.restrictionCount, "\(path): networkx resolved \(reference.restrictions) restrictions, we \(graph.restrictionCount)")
            var routed = 0
            for (k, (mine, theirs)) in zip(ours, reference.seconds).enumerated() {
                if let mine, let theirs {
                    routed += 1
                    #expect(abs(mine - theirs) <= 1e-6 * theirs + 0.01, "\(path) \(mode) pair \(k) \(pairs[k]): ours \(mine) s, networkx \(theirs) s")
                } else {
                    #expect(mine == nil && theirs == nil, "\(path) \(mode) pair \(k) \(pairs[k]): ours \(String(describing: mine)), networkx \(String(describing: theirs))")
                }
            }
            #expect(routed >= 12, "\(path) \(mode): \(routed) routes compared")
        }
    }

    /// Every driving and cycling route of the restriction corpus takes the time networkx finds.
    @Test func theRestrictionCorpusMatchesNetworkx() throws {
        let rows = RestrictionCorpusTests.table.filter { $0.mode != .walking }
        var compared = 0
        for file in Set(rows.map(\.file)).sorted() {
            let path = RestrictionCorpusTests.corpus.appendingPathComponent("\(file).osm").path
            let graph = try RestrictionCorpusTests.graph(file)
            for mode in [TransportType.driving, .cycling] {
                var pairs: [[Any]] = [], ours: [Double] = []
                for row in rows where row.file == file && row.mode == mode {
                    let from = try RestrictionCorpusTests.point(row.from.0, row.from.1), to = try RestrictionCorpusTests.point(row.to.0, row.to.1)
                    let start = try #require(graph.snap(from, mode: mode, radiusMeters: 5)), end = try #require(graph.snap(to, mode: mode, radiusMeters: 5))
                    pairs.append(try #require(Self.segment(graph, start)) + (try #require(Self.segment(graph, end))))
                    ours.append(try graph.route(from: from, to: to, mode: mode, snapRadiusMeters: 5).durationSeconds)
                }
                guard !pairs.isEmpty else { continue }
                let reference = try Self.reference(path, mode: mode, pairs: pairs)
                #expect(reference.restrictions == graph.restrictionCount, "\(file): \(reference.restrictions) against \(graph.restrictionCount)")
                for (mine, theirs) in zip(ours, reference.seconds) {
                    #expect(theirs.map { abs(mine - $0) <= 1e-6 * $0 + 0.01 } ?? false, "\(file) \(mode): ours \(mine) s, networkx \(String(describing: theirs))")
                    compared += 1
                }
            }
        }
        #expect(compared >= 20)
    }
}
