import Catalog
import Foundation
import Geodesy

/// Plans walks over a ``PanoramaGraph``: shortest paths between two points, routes along a line of
/// waypoints, and whole sequences.
public struct RoutePlanner: Sendable {
    /// How far from a requested point the nearest panorama may be, metres.
    public static let defaultSnapRadiusMeters = 60.0
    /// Spacing of the samples taken along a waypoint line to find the panoramas nearest it, metres.
    static let lineSampleSpacingMeters = 4.0

    /// The graph.
    public let graph: PanoramaGraph
    /// Names streets (nil: stops have no street names).
    public let streetNamer: (@Sendable (_ coordinate: GeoCoordinate, _ sequenceName: String) -> String?)?
    /// See ``defaultSnapRadiusMeters``.
    public var snapRadiusMeters: Double

    /// A planner over `graph`.
    public init(graph: PanoramaGraph, snapRadiusMeters: Double = RoutePlanner.defaultSnapRadiusMeters,
                streetNamer: (@Sendable (_ coordinate: GeoCoordinate, _ sequenceName: String) -> String?)? = nil) {
        self.graph = graph
        self.snapRadiusMeters = snapRadiusMeters
        self.streetNamer = streetNamer
    }

    /// A planner over a catalog's graph, naming streets from the catalog's OSM streets in `language`: of
    /// the named ones within 20 m, the one the panorama's sequence is named after when it is among them
    /// (a capture at a crossing belongs to the street it was taken along), else the nearest.
    public init(catalog: Catalog, language: String? = nil) throws {
        let graph = try PanoramaGraph(catalog: catalog)
        self.init(graph: graph) { coordinate, sequenceName in
            (try? catalog.namedStreet(near: coordinate, radiusMeters: 20, language: language, preferring: sequenceName))??.name
        }
    }

    /// The node a point snaps to.
    func snap(_ coordinate: GeoCoordinate, what: String) throws(PlaybackError) -> Int {
        guard let hit = graph.nearest(to: coordinate) else {
            throw .noPanoramaNear(what: what, coordinate: coordinate, radiusMeters: snapRadiusMeters, nearestMeters: nil)
        }
        guard hit.distanceMeters <= snapRadiusMeters else {
            throw .noPanoramaNear(what: what, coordinate: coordinate, radiusMeters: snapRadiusMeters, nearestMeters: hit.distanceMeters)
        }
        return hit.node
    }

    /// The shortest walk from `from` to `to`.
    ///
    /// Each end snaps to a panorama within ``snapRadiusMeters``: the nearest one, unless the two nearest
    /// ones are in parts of the graph the links do not join; then the pair of candidates in one part
    /// with the least total distance from the requested points is taken (a place on a square whose own
    /// capture line is not linked to the streets around it is still reached from them).
    /// - Parameters: fromName, toName: how errors name the ends (a place name, or the coordinate).
    /// - Throws: ``PlaybackError/noPath(from:to:lastReachablePanoramaID:nearestUnreachablePanoramaID:gapMeters:)``,
    ///   ``PlaybackError/noPanoramaNear(what:coordinate:radiusMeters:nearestMeters:)``.
    public func route(from: GeoCoordinate, to: GeoCoordinate, fromName: String? = nil, toName: String? = nil) throws(PlaybackError) -> WalkRoute {
        var a = try snap(from, what: fromName ?? "the start"), b = try snap(to, what: toName ?? "the end")
        let joined = graph.reachable(from: a)
        if !joined.contains(b) {
            let components = graph.componentLabels()
            let nearFrom = candidates(near: from), nearTo = candidates(near: to)
            var best: (a: Int, b: Int, cost: Double)?
            for (ca, da) in nearFrom {
                for (cb, db) in nearTo where components[ca] == components[cb] && (best == nil || da + db < best!.cost) {
                    best = (ca, cb, da + db)
                }
            }
            if let best { a = best.a; b = best.b }
        }
        return try route(through: [a, b], names: [fromName ?? "\(from)", toName ?? "\(to)"], waypoints: [a, b])
    }

    /// Nodes within ``snapRadiusMeters`` of a point, with their distances.
    func candidates(near coordinate: GeoCoordinate) -> [(node: Int, distanceMeters: Double)] {
        graph.nodes.indices.compactMap { i in
            let d = graph.nodes[i].coordinate.distanceMeters(to: coordinate)
            return d <= snapRadiusMeters ? (i, d) : nil
        }
    }

    /// The walk along a line: the panoramas nearest the line (sampled every ``lineSampleSpacingMeters``),
    /// in order, joined by shortest paths. `pausingAtVertices`: every vertex of the line is a waypoint
    /// (points of a MultiPoint or a GPX route); otherwise only the ends are (a track).
    public func route(alongLine line: [GeoCoordinate], pausingAtVertices: Bool = false) throws(PlaybackError) -> WalkRoute {
        guard line.count >= 2 else {
            throw .invalidParameter(name: "waypoints", value: "\(line.count) point(s)", allowed: "at least 2 points")
        }
        var anchors: [Int] = [], waypoints: Set<Int> = []
        for (i, point) in line.enumerated() {
            let vertex = try snap(point, what: "waypoint \(i + 1)")
            if anchors.last != vertex { anchors.append(vertex) }
            if pausingAtVertices || i == 0 || i == line.count - 1 { waypoints.insert(vertex) }
            guard i + 1 < line.count else { break }
            let next = line[i + 1]
            let length = point.distanceMeters(to: next), azimuth = point.initialAzimuth(to: next)
            var s = Self.lineSampleSpacingMeters
            while s < length {
                if let sample = try? point.destination(azimuth: azimuth, distanceMeters: s),
                   let hit = graph.nearest(to: sample), hit.distanceMeters <= snapRadiusMeters, anchors.last != hit.node {
                    anchors.append(hit.node)
                }
                s += Self.lineSampleSpacingMeters
            }
        }
        if anchors.count == 1 { anchors.append(anchors[0]) }
        return try route(through: anchors, names: anchors.map { graph.nodes[$0].id }, waypoints: waypoints)
    }

    /// A whole sequence in capture order (or reversed).
    /// - Throws: ``PlaybackError/unknownSequence(id:known:)``.
    public func route(sequence name: String, reversed: Bool = false) throws(PlaybackError) -> WalkRoute {
        var nodes = graph.sequence(name)
        guard !nodes.isEmpty else { throw .unknownSequence(id: name, known: graph.sequenceNames) }
        if reversed { nodes.reverse() }
        return stops(nodes, waypoints: [nodes.first!, nodes.last!])
    }

    /// Shortest paths between consecutive anchors, joined.
    func route(through anchors: [Int], names: [String], waypoints: Set<Int>) throws(PlaybackError) -> WalkRoute {
        var path: [Int] = [anchors[0]]
        for k in 1..<anchors.count {
            guard let leg = graph.shortestPath(from: anchors[k - 1], to: anchors[k]) else {
                let gap = graph.gap(from: anchors[k - 1], to: anchors[k])
                throw .noPath(from: names[k - 1], to: names[k], lastReachablePanoramaID: graph.nodes[gap.lastReachable].id,
                              nearestUnreachablePanoramaID: graph.nodes[gap.nearestUnreachable].id, gapMeters: gap.gapMeters)
            }
            path += leg.dropFirst()
        }
        // A line sampled through a panorama and back makes a spur (a → b → a): walk it only once.
        var cleaned: [Int] = []
        for n in path {
            if cleaned.count >= 2, cleaned[cleaned.count - 2] == n, !waypoints.contains(cleaned[cleaned.count - 1]) {
                cleaned.removeLast()
                continue
            }
            if cleaned.last != n { cleaned.append(n) }
        }
        var marks = waypoints
        marks.insert(cleaned.first!)
        marks.insert(cleaned.last!)
        return stops(cleaned, waypoints: marks)
    }

    func stops(_ nodes: [Int], waypoints: Set<Int>) -> WalkRoute {
        var distance = 0.0
        var result: [WalkRoute.Stop] = []
        for (k, n) in nodes.enumerated() {
            let node = graph.nodes[n]
            if k > 0 { distance += graph.nodes[nodes[k - 1]].coordinate.distanceMeters(to: node.coordinate) }
            result.append(WalkRoute.Stop(panoramaID: node.id, coordinate: node.coordinate, distanceMeters: distance,
                                         isWaypoint: waypoints.contains(n),
                                         streetName: streetNamer?(node.coordinate, node.sequenceName), captureTime: node.captureTime))
        }
        return WalkRoute(stops: result)
    }
}
