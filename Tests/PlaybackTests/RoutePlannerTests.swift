import Foundation
import Geodesy
import Playback
import Testing

/// A* and its answers on small hand-made graphs (metres east of a point on the equator-free Helsinki latitude).
@Suite struct RoutePlannerTests {
    static let origin = (latitude: 60.17, longitude: 24.95)

    /// Nodes at (east, north) metres; edges both ways between the given pairs.
    static func graph(_ points: [(Double, Double)], _ pairs: [(Int, Int)]) throws -> PanoramaGraph {
        let frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: origin.latitude, longitude: origin.longitude))
        let coordinates = try points.map { try frame.geodetic(from: EastNorthUp(east: $0.0, north: $0.1, up: 0)).coordinate }
        var nodes = coordinates.enumerated().map { i, c in
            PanoramaGraph.Node(id: "p\(i)", coordinate: c, headingDegrees: 0, captureTime: Date(timeIntervalSince1970: 0),
                               sequenceName: i < 4 ? "a" : "b", sequenceIndex: i, edges: [])
        }
        for (a, b) in pairs {
            let d = coordinates[a].distanceMeters(to: coordinates[b])
            nodes[a].edges.append((b, d))
            nodes[b].edges.append((a, d))
        }
        return PanoramaGraph(nodes: nodes)
    }

    @Test func shortestPathPrefersTheShortWayAndVisitsEveryCapture() throws {
        // 0 —12— 1 —12— 2 —12— 3, a 24 m shortcut 0–2, and a detour 0 — 4 — 3 of 2 × 30 m.
        let g = try Self.graph([(0, 0), (12, 0), (24, 0), (36, 0), (18, 24)], [(0, 1), (1, 2), (2, 3), (0, 2), (0, 4), (4, 3)])
        #expect(g.shortestPath(from: 0, to: 3) == [0, 1, 2, 3])
        #expect(g.shortestPath(from: 3, to: 3) == [3])
    }

    @Test func noPathNamesWhereTheGraphBreaks() throws {
        // Two pieces 50 m apart: 0–1 and 2–3.
        let g = try Self.graph([(0, 0), (12, 0), (62, 0), (74, 0)], [(0, 1), (2, 3)])
        #expect(g.shortestPath(from: 0, to: 3) == nil)
        let planner = RoutePlanner(graph: g, snapRadiusMeters: 5)
        #expect {
            try planner.route(from: g.nodes[0].coordinate, to: g.nodes[3].coordinate, fromName: "A", toName: "B")
        } throws: { error in
            guard case PlaybackError.noPath(let from, let to, let last, let beyond, let gap) = error else { return false }
            return from == "A" && to == "B" && last == "p1" && beyond == "p2" && abs(gap - 50) < 0.1
                && "\(error)" == "no walk from A to B over the panorama links: the graph breaks after panorama p1; "
                    + "the nearest panorama beyond the gap is p2, 50.0 m away (capture panoramas across the gap, or choose ends the links join)"
        }
    }

    @Test func routeReportsLengthStopsAndWaypoints() throws {
        let g = try Self.graph([(0, 0), (12, 0), (24, 0)], [(0, 1), (1, 2)])
        let route = try RoutePlanner(graph: g).route(from: g.nodes[0].coordinate, to: g.nodes[2].coordinate)
        #expect(route.stops.map(\.panoramaID) == ["p0", "p1", "p2"])
        #expect(abs(route.lengthMeters - 24) < 0.05)
        #expect(route.stops.map(\.isWaypoint) == [true, false, true])
        #expect(abs(route.durationSeconds(speedMetersPerSecond: 1.2, pauseSeconds: 2) - (20 + 4)) < 0.1)
    }

    @Test func lineIsFollowedThroughTheNearestPanoramas() throws {
        // An L: 0 → 1 → 2 east, then 2 → 3 north; a parallel street 4–5 not on the line.
        let g = try Self.graph([(0, 0), (12, 0), (24, 0), (24, 12), (0, 40), (12, 40)], [(0, 1), (1, 2), (2, 3), (4, 5), (0, 4)])
        let planner = RoutePlanner(graph: g)
        let line = [g.nodes[0].coordinate, g.nodes[2].coordinate, g.nodes[3].coordinate]
        #expect(try planner.route(alongLine: line).stops.map(\.panoramaID) == ["p0", "p1", "p2", "p3"])
        #expect(try planner.route(alongLine: line).stops.map(\.isWaypoint) == [true, false, false, true])
        #expect(try planner.route(alongLine: line, pausingAtVertices: true).stops.map(\.isWaypoint) == [true, false, true, true])
    }

    @Test func sequenceForwardAndBack() throws {
        let g = try Self.graph([(0, 0), (12, 0), (24, 0), (36, 0), (0, 40)], [(0, 1), (1, 2), (2, 3)])
        let planner = RoutePlanner(graph: g)
        #expect(try planner.route(sequence: "a").stops.map(\.panoramaID) == ["p0", "p1", "p2", "p3"])
        #expect(try planner.route(sequence: "a", reversed: true).stops.map(\.panoramaID) == ["p3", "p2", "p1", "p0"])
        #expect(throws: PlaybackError.unknownSequence(id: "c", known: ["a", "b"])) { try planner.route(sequence: "c") }
    }

    @Test func farPointIsNoPanoramaNear() throws {
        let g = try Self.graph([(0, 0), (12, 0)], [(0, 1)])
        let far = try GeoCoordinate(latitude: 60.18, longitude: 24.95)
        #expect {
            try RoutePlanner(graph: g).route(from: far, to: g.nodes[1].coordinate)
        } throws: { error in
            // The far point is about 1.3 km from the graph: the error names it, the search radius and the nearest.
            guard case PlaybackError.noPanoramaNear(_, let coordinate, let radius, let nearest) = error else { return false }
            return coordinate == far && radius > 0 && radius < 1000 && (nearest ?? 0) > radius
                && "\(error)".contains("no panorama within") && "\(error)".contains("see 'lookaround scene'")
        }
    }
}
