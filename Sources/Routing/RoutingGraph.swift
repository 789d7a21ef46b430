import Foundation
import Geodesy
import MapData

/// The street network as a routing graph for walking, cycling and driving at once.
///
/// Vertices are the OSM nodes where ways meet or end (and the via nodes of turn restrictions); an
/// edge is the stretch of one way between two vertices, with its geometry, its length (WGS84 geodesic,
/// summed over the OSM segments) and, per mode, whether it may be travelled forward (along the way's
/// node order) and backward, and how long that takes. Pedestrian areas and squares (`area=yes`) get,
/// besides their outline, a straight walking edge between every two of their entrances whose line
/// stays inside the area: a square is walked across, not around.
///
/// A route is searched over *directed edges* (``RoutingGraph/route(from:to:mode:)``), so turn
/// restrictions (edge-based, over via nodes and via ways: see `RoutingGraph+Restrictions.swift`) and
/// the ban on U-turns except at dead ends and where every onward turn is forbidden are part of the
/// search, not a filter after it.
///
/// Immutable after building and `Sendable`: one graph serves every thread.
public final class RoutingGraph: Sendable {
    /// A way an edge belongs to: what instructions name and classify.
    public struct WayInfo: Sendable, Hashable {
        /// The OSM way id.
        public var osmID: Int64
        /// `name` (for an area crossing, the area's name).
        public var name: String?
        /// Names by language (`name:xx`).
        public var names: [String: String]
        /// `ref` (road number), when tagged.
        public var ref: String?
        /// The `highway` value.
        public var highway: String
        /// `junction=roundabout|circular`.
        public var isRoundabout: Bool
        /// A pedestrian area or square (its crossings and outline).
        public var isArea: Bool
        /// `tunnel=*` (not `no`) or a negative `layer`: underground, so snapping prefers the streets above.
        public var isUnderground: Bool = false

        /// The name in `language` (`name:language`), else `name`.
        public func name(in language: String?) -> String? {
            if let language, let localized = names[language] { return localized }
            return name
        }
    }

    /// A resolved turn restriction at a vertex: from a directed edge arriving there onto a directed edge
    /// leaving it, banned (`no_*`) or the only one allowed (`only_*`).
    struct Restriction: Sendable, Hashable {
        var fromDirected: Int32
        var toDirected: Int32
        var mandatory: Bool
        /// Bit `mode.index` set when it binds that mode.
        var modes: UInt8
    }

    // Vertices.
    let vertexLatitude: [Double]
    let vertexLongitude: [Double]
    let vertexNode: [Int64]
    // Edges: endpoints, way, geometry (offsets into the point arrays, one past the end at count).
    let edgeSource: [Int32]
    let edgeTarget: [Int32]
    let edgeWay: [Int32]
    let edgeGeometryStart: [Int32]
    /// Bit `2 · mode.index` forward, `2 · mode.index + 1` backward.
    let edgeAccess: [UInt8]
    /// Seconds to travel the whole edge, per mode (index `mode.index`).
    let edgeSeconds: [[Double]]
    // Geometry points: coordinates, OSM node ids (0 for none), metres from the edge's start.
    let pointLatitude: [Double]
    let pointLongitude: [Double]
    let pointNode: [Int64]
    let pointOffsetMeters: [Double]
    /// Directed edges leaving each vertex (CSR: `adjacency[adjacencyStart[v]..<adjacencyStart[v + 1]]`).
    let adjacencyStart: [Int32]
    let adjacency: [Int32]
    /// The ways edges belong to.
    public let ways: [WayInfo]
    /// Turn restrictions by via vertex.
    let restrictions: [Int32: [Restriction]]
    /// Via-way restrictions: the directed edge each extra search state stands for (state
    /// `2 · edgeCount + 1 + k`), the turns into them, and the rules at each chain's end.
    let shadowBase: [Int32]
    let shadowChildren: [Int64: Int32]
    let shadowRules: [Int32: [Restriction]]
    /// Restriction relations left out, and why (while reading and while resolving onto the graph).
    public let unresolvedRestrictions: [StreetNetwork.SkippedRestriction]
    /// Whether a vertex has turn restrictions (the search's fast check before the dictionary).
    let restrictedVertex: [Bool]
    /// The fastest speed per mode, metres per second (the A* heuristic's divisor).
    let maximumSpeed: [Double]
    /// The connected component (undirected, per mode) of each edge, and each component's size in edges.
    let edgeComponent: [[Int32]]
    let componentEdgeCount: [[Int32]]
    /// The grid of segments for snapping.
    let grid: SnappingGrid
    /// The search's copies of the arrays it reads, and its scratch memory.
    let tables: SearchTables
    /// What the graph was built from.
    public let sourceDescription: String
    /// Turn restriction relations resolved onto the graph.
    public let restrictionCount: Int
    /// Restriction relations left out (``unresolvedRestrictions`` says why).
    public var unresolvedRestrictionCount: Int { unresolvedRestrictions.count }
    /// Walking edges added across pedestrian areas and squares.
    public let areaCrossingCount: Int

    /// Vertices (junctions and ends).
    public var vertexCount: Int { vertexNode.count }
    /// Edges (way stretches between vertices, and area crossings).
    public var edgeCount: Int { edgeSource.count }

    /// Bytes the graph's arrays take in memory (what `Benchmarks directions` reports).
    public var memoryBytes: Int {
        let doubles = vertexLatitude.count * 2 + pointLatitude.count * 3 + edgeSeconds.reduce(0) { $0 + $1.count }
        let int64s = vertexNode.count + pointNode.count
        let int32s = edgeSource.count * 4 + adjacencyStart.count + adjacency.count + edgeComponent.reduce(0) { $0 + $1.count }
        return doubles * 8 + int64s * 8 + int32s * 4 + edgeAccess.count + grid.memoryBytes
            + ways.reduce(0) { $0 + 64 + ($1.name?.utf8.count ?? 0) + $1.names.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count + 32 } }
            + restrictions.count * 48 + tables.memoryBytes
    }

    /// Builds the graph of an OSM extract's street network.
    /// - Throws: `MapDataError` when the file cannot be read.
    public convenience init(contentsOfFile path: String) throws {
        try self.init(network: StreetNetwork(contentsOfFile: path))
    }

    /// Builds the graph of a street network. `honoursRestrictions: false` leaves the turn restrictions
    /// out (tests compare the two).
    public convenience init(network: StreetNetwork, honoursRestrictions: Bool = true) {
        var p = Parts()
        p.sourceDescription = network.sourcePath.isEmpty ? "the street network" : network.sourcePath
        // Ways any mode may use, with their per-mode directions.
        struct Kept {
            var way: StreetNetwork.Way
            var access: UInt8
            var seconds: [Double]  // seconds per metre, per mode
        }
        var kept: [Kept] = []
        for way in network.ways {
            var access: UInt8 = 0
            var secondsPerMeter = [0.0, 0.0, 0.0]
            for mode in TransportType.allCases {
                let (forward, backward) = RoutingProfile.directions(mode, tags: way.tags)
                if forward { access |= 1 << (2 * mode.index) }
                if backward { access |= 1 << (2 * mode.index + 1) }
                secondsPerMeter[mode.index] = 1 / RoutingProfile.speedMetersPerSecond(mode, tags: way.tags)
            }
            if access != 0 { kept.append(Kept(way: way, access: access, seconds: secondsPerMeter)) }
        }
        // Vertices: ends, shared nodes, via nodes.
        var usage: [Int64: Int32] = [:]
        for entry in kept {
            let ids = entry.way.nodeIDs
            for (i, id) in ids.enumerated() where !(i == ids.count - 1 && ids.first == id && ids.count > 1) {
                usage[id, default: 0] += 1
            }
        }
        var isVertex = Set<Int64>()
        for entry in kept {
            isVertex.insert(entry.way.nodeIDs.first!)
            isVertex.insert(entry.way.nodeIDs.last!)
        }
        for (id, count) in usage where count >= 2 { isVertex.insert(id) }
        if honoursRestrictions {
            for restriction in network.restrictions {
                if let via = restriction.viaNodeID, usage[via] != nil { isVertex.insert(via) }
            }
        }

        var vertexIndex: [Int64: Int32] = [:]
        var vertexLatitude: [Double] = [], vertexLongitude: [Double] = [], vertexNode: [Int64] = []
        func vertex(_ id: Int64) -> Int32 {
            if let index = vertexIndex[id] { return index }
            let index = Int32(vertexNode.count)
            let coordinate = network.coordinates[id]!
            vertexIndex[id] = index
            vertexLatitude.append(coordinate.latitude)
            vertexLongitude.append(coordinate.longitude)
            vertexNode.append(id)
            return index
        }
        var edgeSource: [Int32] = [], edgeTarget: [Int32] = [], edgeWay: [Int32] = [], edgeGeometryStart: [Int32] = []
        var edgeAccess: [UInt8] = [], edgeSeconds: [[Double]] = [[], [], []]
        var pointLatitude: [Double] = [], pointLongitude: [Double] = [], pointNode: [Int64] = [], pointOffset: [Double] = []
        var ways: [WayInfo] = []
        var wayIndexByOSMID: [Int64: Int32] = [:]

        func addEdge(way: Int32, nodes: ArraySlice<Int64>, access: UInt8, secondsPerMeter: [Double]) {
            guard let first = nodes.first, let last = nodes.last, nodes.count >= 2 else { return }
            let start = Int32(pointLatitude.count)
            var offset = 0.0
            var previous: GeoCoordinate?
            for id in nodes {
                let c = network.coordinates[id]!
                let point = (try? GeoCoordinate(latitude: c.latitude, normalizingLongitude: c.longitude))
                if let previous, let point { offset += Geodesic.wgs84.inverse(from: previous, to: point).distanceMeters }
                previous = point
                pointLatitude.append(c.latitude)
                pointLongitude.append(c.longitude)
                pointNode.append(id)
                pointOffset.append(offset)
            }
            edgeSource.append(vertex(first))
            edgeTarget.append(vertex(last))
            edgeWay.append(way)
            edgeGeometryStart.append(start)
            edgeAccess.append(access)
            for mode in 0..<3 { edgeSeconds[mode].append(offset * secondsPerMeter[mode]) }
        }

        for entry in kept {
            let tags = entry.way.tags
            let wayIndex = Int32(ways.count)
            let isArea = entry.way.isArea
            ways.append(WayInfo(osmID: entry.way.id, name: tags["name"],
                                names: OSMTagParsing.names(from: tags),
                                ref: tags["ref"], highway: tags["highway"] ?? "", isRoundabout: tags["junction"] == "roundabout" || tags["junction"] == "circular",
                                isArea: isArea,
                                isUnderground: (tags["tunnel"].map { $0 != "no" } ?? false) || (Int(tags["layer"] ?? "") ?? 0) < 0))
            wayIndexByOSMID[entry.way.id] = wayIndex
            let ids = entry.way.nodeIDs
            var start = 0
            for i in 1..<ids.count where isVertex.contains(ids[i]) || i == ids.count - 1 {
                // Drop repeated consecutive nodes (a zero-length stretch).
                var stretch = Array(ids[start...i])
                stretch = stretch.enumerated().filter { $0.offset == 0 || stretch[$0.offset - 1] != $0.element }.map(\.element)
                if stretch.count >= 2 { addEdge(way: wayIndex, nodes: stretch[...], access: entry.access, secondsPerMeter: entry.seconds) }
                start = i
            }
        }
        // Walking across pedestrian areas: a straight edge between two entrances when the line stays inside.
        var crossings = 0
        let walkBoth: UInt8 = 0b11 << (2 * TransportType.walking.index)
        for entry in kept where entry.way.isArea && entry.access & walkBoth != 0 {
            let ring = entry.way.nodeIDs
            let wayIndex = wayIndexByOSMID[entry.way.id]!
            var entrances: [Int64] = []
            for id in ring.dropLast() where (usage[id] ?? 0) >= 2 && !entrances.contains(id) { entrances.append(id) }
            guard entrances.count >= 2, entrances.count <= 80 else { continue }
            let polygon = ring.map { network.coordinates[$0]! }
            for a in 0..<entrances.count {
                for b in (a + 1)..<entrances.count {
                    let p = network.coordinates[entrances[a]]!, q = network.coordinates[entrances[b]]!
                    guard AreaGeometry.segmentStaysInside(p, q, ring: polygon) else { continue }
                    addEdge(way: wayIndex, nodes: [entrances[a], entrances[b]][...], access: walkBoth,
                            secondsPerMeter: entry.seconds)
                    crossings += 1
                }
            }
        }
        edgeGeometryStart.append(Int32(pointLatitude.count))

        // Adjacency over directed edges.
        let vertexCount = vertexNode.count
        var degree = [Int32](repeating: 0, count: vertexCount + 1)
        for e in 0..<edgeSource.count {
            degree[Int(edgeSource[e])] += 1
            if edgeTarget[e] != edgeSource[e] { degree[Int(edgeTarget[e])] += 1 }
        }
        var adjacencyStart = [Int32](repeating: 0, count: vertexCount + 1)
        for v in 0..<vertexCount { adjacencyStart[v + 1] = adjacencyStart[v] + degree[v] }
        var fill = adjacencyStart
        var adjacency = [Int32](repeating: 0, count: Int(adjacencyStart[vertexCount]))
        for e in 0..<edgeSource.count {
            let s = Int(edgeSource[e]), t = Int(edgeTarget[e])
            adjacency[Int(fill[s])] = Int32(2 * e); fill[s] += 1
            if t != s { adjacency[Int(fill[t])] = Int32(2 * e + 1); fill[t] += 1 }
        }

        // Turn restrictions onto directed edges.
        var tables = RestrictionTables()
        if honoursRestrictions {
            tables = Self.resolve(network.restrictions, vertexIndex: vertexIndex, wayIndexByOSMID: wayIndexByOSMID,
                                  edgeSource: edgeSource, edgeTarget: edgeTarget, edgeWay: edgeWay)
            tables.unresolved = network.skippedRestrictions + tables.unresolved
        } else {
            tables.unresolved = network.restrictions.map { StreetNetwork.SkippedRestriction(id: $0.id, reason: "restrictions not honoured") }
        }

        var maximumSpeed = [RoutingProfile.walkingSpeedMetersPerSecond, RoutingProfile.cyclingSpeedMetersPerSecond, 1.0]
        for mode in 0..<3 {
            for e in 0..<edgeSource.count where edgeAccess[e] & (0b11 << (2 * mode)) != 0 && edgeSeconds[mode][e] > 0 {
                let length = pointOffset[Int(edgeGeometryStart[e + 1]) - 1]
                maximumSpeed[mode] = max(maximumSpeed[mode], length / edgeSeconds[mode][e])
            }
        }

        // Components per mode (undirected), for snapping onto the main network.
        var edgeComponent: [[Int32]] = [], componentEdgeCount: [[Int32]] = []
        for mode in 0..<3 {
            let mask: UInt8 = 0b11 << (2 * mode)
            var component = [Int32](repeating: -1, count: edgeSource.count)
            var sizes: [Int32] = []
            var stack: [Int32] = []
            for seed in 0..<edgeSource.count where component[seed] < 0 && edgeAccess[seed] & mask != 0 {
                let id = Int32(sizes.count)
                var size: Int32 = 0
                component[seed] = id
                stack.append(Int32(seed))
                while let e = stack.popLast() {
                    size += 1
                    for v in [edgeSource[Int(e)], edgeTarget[Int(e)]] {
                        for i in Int(adjacencyStart[Int(v)])..<Int(adjacencyStart[Int(v) + 1]) {
                            let next = Int(adjacency[i] >> 1)
                            if component[next] < 0, edgeAccess[next] & mask != 0 {
                                component[next] = id
                                stack.append(Int32(next))
                            }
                        }
                    }
                }
                sizes.append(size)
            }
            edgeComponent.append(component)
            componentEdgeCount.append(sizes)
        }

        p.vertexLatitude = vertexLatitude
        p.vertexLongitude = vertexLongitude
        p.vertexNode = vertexNode
        p.edgeSource = edgeSource
        p.edgeTarget = edgeTarget
        p.edgeWay = edgeWay
        p.edgeGeometryStart = edgeGeometryStart
        p.edgeAccess = edgeAccess
        p.edgeSeconds = edgeSeconds
        p.pointLatitude = pointLatitude
        p.pointLongitude = pointLongitude
        p.pointNode = pointNode
        p.pointOffsetMeters = pointOffset
        p.adjacencyStart = adjacencyStart
        p.adjacency = adjacency
        p.ways = ways
        p.restrictions = tables.byVertex
        p.shadowBase = tables.shadowBase
        p.shadowChildren = tables.shadowChildren
        p.shadowRules = tables.shadowRules
        p.unresolvedRestrictions = tables.unresolved
        p.maximumSpeed = maximumSpeed
        p.edgeComponent = edgeComponent
        p.componentEdgeCount = componentEdgeCount
        p.restrictionCount = tables.resolved
        p.areaCrossingCount = crossings
        p.grid = SnappingGrid(pointLatitude: pointLatitude, pointLongitude: pointLongitude, edgeGeometryStart: edgeGeometryStart,
                             boundingBox: network.boundingBox)
        self.init(parts: p, sourceDescription: nil)
    }

    /// Everything a graph holds, as built from a network or read from bytes.
    struct Parts {
        var sourceDescription = ""
        var vertexLatitude: [Double] = [], vertexLongitude: [Double] = [], vertexNode: [Int64] = []
        var edgeSource: [Int32] = [], edgeTarget: [Int32] = [], edgeWay: [Int32] = [], edgeGeometryStart: [Int32] = [0]
        var edgeAccess: [UInt8] = []
        var edgeSeconds: [[Double]] = [[], [], []]
        var pointLatitude: [Double] = [], pointLongitude: [Double] = [], pointNode: [Int64] = [], pointOffsetMeters: [Double] = []
        var adjacencyStart: [Int32] = [0], adjacency: [Int32] = []
        var ways: [WayInfo] = []
        var restrictions: [Int32: [Restriction]] = [:]
        var shadowBase: [Int32] = [], shadowChildren: [Int64: Int32] = [:], shadowRules: [Int32: [Restriction]] = [:]
        var unresolvedRestrictions: [StreetNetwork.SkippedRestriction] = []
        var maximumSpeed: [Double] = [1, 1, 1]
        var edgeComponent: [[Int32]] = [[], [], []], componentEdgeCount: [[Int32]] = [[], [], []]
        var restrictionCount = 0, areaCrossingCount = 0
        var grid = SnappingGrid(pointLatitude: [], pointLongitude: [], edgeGeometryStart: [0], boundingBox: nil)
    }

    init(parts p: Parts, sourceDescription: String?) {
        self.sourceDescription = sourceDescription ?? p.sourceDescription
        self.vertexLatitude = p.vertexLatitude
        self.vertexLongitude = p.vertexLongitude
        self.vertexNode = p.vertexNode
        self.edgeSource = p.edgeSource
        self.edgeTarget = p.edgeTarget
        self.edgeWay = p.edgeWay
        self.edgeGeometryStart = p.edgeGeometryStart
        self.edgeAccess = p.edgeAccess
        self.edgeSeconds = p.edgeSeconds
        self.pointLatitude = p.pointLatitude
        self.pointLongitude = p.pointLongitude
        self.pointNode = p.pointNode
        self.pointOffsetMeters = p.pointOffsetMeters
        self.adjacencyStart = p.adjacencyStart
        self.adjacency = p.adjacency
        self.ways = p.ways
        self.restrictions = p.restrictions
        self.shadowBase = p.shadowBase
        self.shadowChildren = p.shadowChildren
        self.shadowRules = p.shadowRules
        self.unresolvedRestrictions = p.unresolvedRestrictions
        var restrictedVertex = [Bool](repeating: false, count: p.vertexNode.count)
        for v in p.restrictions.keys { restrictedVertex[Int(v)] = true }
        self.restrictedVertex = restrictedVertex
        self.maximumSpeed = p.maximumSpeed
        self.edgeComponent = p.edgeComponent
        self.componentEdgeCount = p.componentEdgeCount
        self.restrictionCount = p.restrictionCount
        self.areaCrossingCount = p.areaCrossingCount
        self.grid = p.grid
        self.tables = SearchTables(edgeSource: p.edgeSource, edgeTarget: p.edgeTarget, adjacencyStart: p.adjacencyStart,
                                   adjacency: p.adjacency, edgeAccess: p.edgeAccess, edgeSeconds: p.edgeSeconds,
                                   vertexLatitude: p.vertexLatitude, vertexLongitude: p.vertexLongitude,
                                   restrictedVertex: restrictedVertex, grid: p.grid, shadowBase: p.shadowBase,
                                   shadowParents: p.shadowChildren.keys.map { Int($0 >> 32) })
    }

    // MARK: Edge helpers

    @inline(__always) func allows(edge e: Int, mode: TransportType) -> Bool { edgeAccess[e] & (0b11 << (2 * mode.index)) != 0 }
    @inline(__always) func allows(directed d: Int, mode: TransportType) -> Bool {
        edgeAccess[d >> 1] & (1 << (2 * mode.index + (d & 1))) != 0
    }
    @inline(__always) func tail(_ d: Int) -> Int { Int(d & 1 == 0 ? edgeSource[d >> 1] : edgeTarget[d >> 1]) }
    @inline(__always) func head(_ d: Int) -> Int { Int(d & 1 == 0 ? edgeTarget[d >> 1] : edgeSource[d >> 1]) }
    /// The edge's length, metres.
    @inline(__always) func length(edge e: Int) -> Double { pointOffsetMeters[Int(edgeGeometryStart[e + 1]) - 1] }

    /// The coordinate of geometry point `i`.
    func point(_ i: Int) -> GeoCoordinate {
        (try? GeoCoordinate(latitude: pointLatitude[i], normalizingLongitude: pointLongitude[i])) ?? GeoCoordinate.zero
    }

    /// The coordinate `offsetMeters` along edge `e` from its source.
    func coordinate(onEdge e: Int, offsetMeters: Double) -> GeoCoordinate {
        let start = Int(edgeGeometryStart[e]), end = Int(edgeGeometryStart[e + 1])
        for i in (start + 1)..<end where pointOffsetMeters[i] >= offsetMeters || i == end - 1 {
            let a = pointOffsetMeters[i - 1], b = pointOffsetMeters[i]
            let t = b > a ? min(max((offsetMeters - a) / (b - a), 0), 1) : 0
            return (try? GeoCoordinate(latitude: pointLatitude[i - 1] + t * (pointLatitude[i] - pointLatitude[i - 1]),
                                       normalizingLongitude: pointLongitude[i - 1] + t * (pointLongitude[i] - pointLongitude[i - 1])))
                ?? point(i)
        }
        return point(start)
    }

    /// The vertices with a way open to `mode`, as coordinates (benchmarks and tests pick route ends from them).
    public func vertexCoordinates(openTo mode: TransportType) -> [GeoCoordinate] {
        (0..<vertexCount).compactMap { v -> GeoCoordinate? in
            let open = (Int(adjacencyStart[v])..<Int(adjacencyStart[v + 1])).contains { allows(edge: Int(adjacency[$0]) >> 1, mode: mode) }
            return open ? try? GeoCoordinate(latitude: vertexLatitude[v], longitude: vertexLongitude[v]) : nil
        }
    }

    /// The way edge `e` belongs to.
    public func way(ofEdge e: Int) -> WayInfo { ways[Int(edgeWay[e])] }

    /// The OSM way id of edge `e` (tests and reports).
    public func wayOSMID(edge e: Int) -> Int64 { ways[Int(edgeWay[e])].osmID }
}

extension GeoCoordinate {
    /// 0°, 0° (a fallback that valid OSM data never needs).
    static let zero = try! GeoCoordinate(latitude: 0, longitude: 0)
}

/// Planar tests on a pedestrian area's outline, in a local equirectangular frame (metres).
enum AreaGeometry {
    /// Whether the straight line p–q stays inside the ring: it crosses no ring edge (touching at p or q
    /// is allowed) and its midpoint is inside.
    static func segmentStaysInside(_ p: OSMCoordinate, _ q: OSMCoordinate, ring: [OSMCoordinate]) -> Bool {
        let k = cos(p.latitude * .pi / 180)
        func xy(_ c: OSMCoordinate) -> (Double, Double) { ((c.longitude - p.longitude) * k * 111_320, (c.latitude - p.latitude) * 110_574) }
        let a = xy(p), b = xy(q)
        let points = ring.map(xy)
        func cross(_ o: (Double, Double), _ u: (Double, Double), _ v: (Double, Double)) -> Double {
            (u.0 - o.0) * (v.1 - o.1) - (u.1 - o.1) * (v.0 - o.0)
        }
        func near(_ u: (Double, Double), _ v: (Double, Double)) -> Bool { abs(u.0 - v.0) < 0.01 && abs(u.1 - v.1) < 0.01 }
        for i in 0..<(points.count - 1) {
            let c = points[i], d = points[i + 1]
            if near(c, a) || near(c, b) || near(d, a) || near(d, b) { continue }
            let d1 = cross(a, b, c), d2 = cross(a, b, d), d3 = cross(c, d, a), d4 = cross(c, d, b)
            if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return false }
        }
        // Midpoint (and quarter points) inside, by the even-odd rule.
        for t in [0.25, 0.5, 0.75] {
            let m = (a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1))
            var inside = false
            for i in 0..<(points.count - 1) {
                let c = points[i], d = points[i + 1]
                if (c.1 > m.1) != (d.1 > m.1) {
                    let x = c.0 + (m.1 - c.1) / (d.1 - c.1) * (d.0 - c.0)
                    if x > m.0 { inside.toggle() }
                }
            }
            if !inside { return false }
        }
        return true
    }
}
