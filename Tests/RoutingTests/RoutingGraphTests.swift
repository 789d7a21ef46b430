import Foundation
import Geodesy
import MapData
import Testing
import TestSupport
@testable import Routing

/// The router on two real extracts (the shipped Helsinki centre and Munich's old town): one-way
/// streets, turn restrictions and pedestrian streets from the data, route lengths against networkx
/// over the same ways, and steps at known junctions.
@Suite struct RoutingGraphTests {
    static let helsinki = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
    static let munich = Lookaround.repository.appendingPathComponent("Tests/Fixtures/osm/munich-centre-2020-07.osm.pbf").path
    static let networks = Result { [try StreetNetwork(contentsOfFile: helsinki), try StreetNetwork(contentsOfFile: munich)] }
    static let graphs = Result { try networks.get().map { RoutingGraph(network: $0) } }

    /// Random vertex pairs of the mode's largest component (seeded, so failures reproduce).
    static func pairs(_ graph: RoutingGraph, mode: TransportType, count: Int, seed: UInt64) -> [(Int, Int)] {
        let components = graph.edgeComponent[mode.index], sizes = graph.componentEdgeCount[mode.index]
        let largest = Int32(sizes.indices.max { sizes[$0] < sizes[$1] }!)
        var vertices = Set<Int>()
        for e in 0..<graph.edgeCount where components[e] == largest {
            vertices.insert(Int(graph.edgeSource[e]))
            vertices.insert(Int(graph.edgeTarget[e]))
        }
        let sorted = vertices.sorted()
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in (sorted.randomElement(using: &generator)!, sorted.randomElement(using: &generator)!) }
    }

    static func coordinate(_ graph: RoutingGraph, vertex v: Int) throws -> GeoCoordinate {
        try GeoCoordinate(latitude: graph.vertexLatitude[v], longitude: graph.vertexLongitude[v])
    }

    @Test func oneWayStreetsAreNeverDrivenAgainst() throws {
        for (network, graph) in zip(try Self.networks.get(), try Self.graphs.get()) {
            let ways = Dictionary(network.ways.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            var checked = 0
            for (a, b) in Self.pairs(graph, mode: .driving, count: 60, seed: 36) where a != b {
                guard let path = try? graph.route(from: try Self.coordinate(graph, vertex: a), to: try Self.coordinate(graph, vertex: b),
                                                  mode: .driving) else { continue }
                // Each consecutive pair of OSM nodes on the line: find it in its way and check the direction there.
                for piece in path.pieces {
                    let way = try #require(ways[graph.wayOSMID(edge: piece.edge)])
                    let direction = OnewayDirection.parse(oneway: way.tags["oneway"], highway: way.tags["highway"], junction: way.tags["junction"])
                    let nodes = path.nodeIDs[piece.coordinateRange].filter { $0 != 0 }
                    for (p, q) in zip(nodes, nodes.dropFirst()) {
                        guard let i = way.nodeIDs.firstIndex(of: p), let j = way.nodeIDs.firstIndex(of: q) else { continue }
                        let forward = j > i
                        #expect(direction != .reversible, "way \(way.id) is reversible")
                        if direction == .forward { #expect(forward, "way \(way.id) driven against its oneway=yes") }
                        if direction == .backward { #expect(!forward, "way \(way.id) driven against its oneway=-1") }
                        checked += 1
                    }
                }
            }
            #expect(checked > 200, "\(network.sourcePath): only \(checked) node steps checked")
        }
    }

    @Test func turnRestrictionsFromTheDataAreHonoured() throws {
        var provenCases = 0
        for (network, graph) in zip(try Self.networks.get(), try Self.graphs.get()) {
            let free = RoutingGraph(network: network, honoursRestrictions: false)
            for restriction in network.restrictions where RoutingProfile.restrictionValue(restriction, for: .driving)?.hasPrefix("no_") == true
                && restriction.fromWayIDs.count == 1 && restriction.toWayIDs.count == 1 && restriction.fromWayIDs != restriction.toWayIDs {
                guard let viaNodeID = restriction.viaNodeID, let via = network.coordinates[viaNodeID],
                      let from = network.ways.first(where: { $0.id == restriction.fromWayIDs[0] }),
                      let to = network.ways.first(where: { $0.id == restriction.toWayIDs[0] }),
                      let fromIndex = from.nodeIDs.firstIndex(of: viaNodeID),
                      let toIndex = to.nodeIDs.firstIndex(of: viaNodeID) else { continue }
                // A point on the from-way one node before the via node, and one on the to-way one node after it.
                let before = from.nodeIDs[fromIndex == 0 ? 1 : fromIndex - 1]
                let after = to.nodeIDs[toIndex == to.nodeIDs.count - 1 ? toIndex - 1 : toIndex + 1]
                guard let p = network.coordinates[before], let q = network.coordinates[after] else { continue }
                let start = try GeoCoordinate(latitude: p.latitude * 0.7 + via.latitude * 0.3, longitude: p.longitude * 0.7 + via.longitude * 0.3)
                let end = try GeoCoordinate(latitude: q.latitude * 0.7 + via.latitude * 0.3, longitude: q.longitude * 0.7 + via.longitude * 0.3)
                func takesTheTurn(_ path: RoutePath, _ graph: RoutingGraph) -> Bool {
                    let ways = path.wayIDs(graph: graph)
                    for k in 1..<max(ways.count, 1) where ways[k - 1] == from.id && ways[k] == to.id {
                        if path.nodeIDs[path.pieces[k].coordinateRange.lowerBound] == viaNodeID { return true }
                    }
                    return false
                }
                guard let unrestricted = try? free.route(from: start, to: end, mode: .driving, snapRadiusMeters: 5),
                      takesTheTurn(unrestricted, free) else { continue }
                // Without the restriction the shortest way is the forbidden turn; with it, the router goes another way.
                if let restricted = try? graph.route(from: start, to: end, mode: .driving, snapRadiusMeters: 5) {
                    #expect(!takesTheTurn(restricted, graph), "relation \(restriction.id) (\(restriction.value)) not honoured")
                    #expect(restricted.durationSeconds > unrestricted.durationSeconds)
                }
                provenCases += 1
            }
        }
        #expect(provenCases >= 2, "only \(provenCases) restrictions were on the unrestricted shortest path")
    }

    @Test func pedestrianStreetsAreWalkableButNotDrivable() throws {
        // Kaufingerstraße (Munich's pedestrian zone) and Keskuskatu's pedestrian stretch (Helsinki).
        for (graph, name) in zip(try Self.graphs.get(), ["Keskuskatu", "Kaufingerstraße"]) {
            let edges = (0..<graph.edgeCount).filter { graph.way(ofEdge: $0).name == name && graph.way(ofEdge: $0).highway == "pedestrian" }
            let e = try #require(edges.max { graph.length(edge: $0) < graph.length(edge: $1) }, "no pedestrian \(name)")
            let start = graph.coordinate(onEdge: e, offsetMeters: graph.length(edge: e) * 0.2)
            let end = graph.coordinate(onEdge: e, offsetMeters: graph.length(edge: e) * 0.8)
            let walked = try graph.route(from: start, to: end, mode: .walking)
            #expect(walked.wayIDs(graph: graph).contains(graph.wayOSMID(edge: e)))
            #expect(abs(walked.distanceMeters - graph.length(edge: e) * 0.6) < 1)
            #expect(!graph.allows(edge: e, mode: .driving))
            if let driven = try? graph.route(from: start, to: end, mode: .driving) {
                #expect(!driven.wayIDs(graph: graph).contains(graph.wayOSMID(edge: e)), "drove along pedestrian \(name)")
            }
        }
    }

    @Test func walkingLengthsMatchNetworkxOverTheSameWays() throws {
        for (network, graph) in zip(try Self.networks.get(), try Self.graphs.get()) {
            // The ways (and the area crossings, as node chains) the walking graph uses.
            var wayIDs = Set<Int64>(), chains: [[Int64]] = []
            for e in 0..<graph.edgeCount where graph.allows(edge: e, mode: .walking) {
                let info = graph.way(ofEdge: e)
                let start = Int(graph.edgeGeometryStart[e]), end = Int(graph.edgeGeometryStart[e + 1])
                if info.isArea {
                    chains.append(Array(graph.pointNode[start..<end]))
                } else {
                    wayIDs.insert(info.osmID)
                }
            }
            let pairs = Self.pairs(graph, mode: .walking, count: 25, seed: 2036).filter { $0.0 != $0.1 }
            var ours: [Double] = []
            for (a, b) in pairs {
                ours.append(try graph.route(from: try Self.coordinate(graph, vertex: a), to: try Self.coordinate(graph, vertex: b), mode: .walking,
                                            snapRadiusMeters: 1).distanceMeters)
            }
            let request: [String: Any] = ["ways": wayIDs.sorted(), "chains": chains,
                                          "pairs": pairs.map { [graph.vertexNode[$0.0], graph.vertexNode[$0.1]] }]
            let file = try Lookaround.temporaryDirectory().appendingPathComponent("request.json")
            try JSONSerialization.data(withJSONObject: request).write(to: file)
            let script = Lookaround.repository.appendingPathComponent("scripts/networkx_routes.py").path
            let output = try PeerScript.run(script, [network.sourcePath, file.path])
            let reference = try #require(try JSONSerialization.jsonObject(with: output) as? [Any])
            #expect(reference.count == pairs.count)
            var compared = 0
            for (k, value) in reference.enumerated() {
                let expected = try #require(value as? Double, "networkx found no path for pair \(k)")
                #expect(abs(ours[k] - expected) <= 0.01 * max(expected, 1), "pair \(k): ours \(ours[k]) m, networkx \(expected) m")
                compared += 1
            }
            #expect(compared >= 20)
        }
    }

    @Test func stepsTurnAsTheJunctionsDo() throws {
        let graph = try Self.graphs.get()[0]
        // (from, to, mode, an instruction the steps must contain): junctions of central Helsinki.
        let table: [(from: (Double, Double), to: (Double, Double), mode: TransportType, instruction: String)] = [
            ((60.16990, 24.95230), (60.16860, 24.94170), .driving, "Turn left onto Unioninkatu"),
            ((60.16990, 24.95230), (60.16860, 24.94170), .driving, "Turn right onto Pohjoisesplanadi"),
            ((60.16990, 24.95230), (60.16860, 24.94170), .driving, "Turn right onto Aleksanterinkatu"),
            ((60.16990, 24.95230), (60.16860, 24.94170), .walking, "Turn left onto Unioninkatu"),
        ]
        for row in table {
            let path = try graph.route(from: try GeoCoordinate(latitude: row.from.0, longitude: row.from.1),
                                       to: try GeoCoordinate(latitude: row.to.0, longitude: row.to.1), mode: row.mode)
            let steps = path.maneuvers(graph: graph)
            #expect(steps.contains { $0.instruction == row.instruction }, "\(row.instruction): \(steps.map(\.instruction))")
            #expect(steps.first?.kind == .depart && steps.last?.kind == .arrive)
            for step in steps where step.kind == .turn {
                // The modifier agrees with the bearings.
                var turn = step.bearingAfterDegrees - step.bearingBeforeDegrees
                if turn > 180 { turn -= 360 }
                if turn <= -180 { turn += 360 }
                #expect(RouteManeuver.Modifier(turnDegrees: turn) == step.modifier)
            }
        }
        // Names in the label language.
        let swedish = try graph.route(from: try GeoCoordinate(latitude: 60.16990, longitude: 24.95230),
                                      to: try GeoCoordinate(latitude: 60.16860, longitude: 24.94170), mode: .driving)
            .maneuvers(graph: graph, language: "sv")
        #expect(swedish.contains { $0.instruction == "Turn left onto Unionsgatan" }, "\(swedish.map(\.instruction))")
    }

    @Test func encodedPolylinesRoundTrip() throws {
        let line = [try GeoCoordinate(latitude: 38.5, longitude: -120.2), try GeoCoordinate(latitude: 40.7, longitude: -120.95),
                    try GeoCoordinate(latitude: 43.252, longitude: -126.453)]
        // Google's documented example.
        #expect(PolylineEncoding.encode(line) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        let decoded = try #require(PolylineEncoding.decode(PolylineEncoding.encode(line, precision: 6), precision: 6))
        #expect(zip(decoded, line).allSatisfy { abs($0.latitude - $1.latitude) < 1e-6 && abs($0.longitude - $1.longitude) < 1e-6 })
    }

    @Test func noStreetNearAnEndIsATypedError() throws {
        let graph = try Self.graphs.get()[0]
        let lake = try GeoCoordinate(latitude: 60.30, longitude: 25.30)
        let square = try GeoCoordinate(latitude: 60.16990, longitude: 24.95230)
        #expect(throws: RoutingError.noStreetNearSource(coordinate: lake, mode: .walking, radiusMeters: 250)) {
            try graph.route(from: lake, to: square, mode: .walking)
        }
        do {
            _ = try graph.route(from: square, to: lake, mode: .driving)
            Issue.record("a route to nowhere")
        } catch {
            #expect(error.code == "no_street_near_destination" && error.description.contains("60.3,25.3"))
        }
    }
}
