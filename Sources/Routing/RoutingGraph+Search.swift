import Foundation
import Geodesy

/// A path found over the graph: the stretches of edges travelled, in order, with the whole line.
public struct RoutePath: Sendable {
    /// One stretch of one edge, travelled in one direction.
    public struct Piece: Sendable, Hashable {
        /// The directed edge: `2 · edge` along the way's node order, `2 · edge + 1` against it.
        public var directedEdge: Int
        /// Where the stretch starts and ends, metres from the edge's source (start > end when travelled backward).
        public var startOffsetMeters: Double
        public var endOffsetMeters: Double
        /// Length, metres, and travel time, seconds.
        public var distanceMeters: Double
        public var durationSeconds: Double
        /// The stretch's coordinates (``RoutePath/coordinates``) as a range of indexes (both ends included).
        public var coordinateRange: ClosedRange<Int>

        /// The undirected edge.
        public var edge: Int { directedEdge >> 1 }
        /// Travelled along the way's node order.
        public var isForward: Bool { directedEdge & 1 == 0 }
    }

    /// The mode it was found for.
    public var mode: TransportType
    /// Where the start and the destination landed on the network.
    public var source: SnappedPoint
    public var destination: SnappedPoint
    /// The stretches, in travel order.
    public var pieces: [Piece]
    /// The line from ``source`` to ``destination``.
    public var coordinates: [GeoCoordinate]
    /// The OSM node id of each coordinate (0 where the line starts or ends between nodes).
    public var nodeIDs: [Int64]
    /// Length, metres, and expected travel time, seconds.
    public var distanceMeters: Double
    public var durationSeconds: Double
}

/// A binary min-heap of (key, state) pairs.
struct StateHeap {
    private(set) var keys: [Double] = []
    private(set) var states: [Int32] = []

    var isEmpty: Bool { keys.isEmpty }

    mutating func push(_ key: Double, _ state: Int32) {
        keys.append(key)
        states.append(state)
        var i = keys.count - 1
        while i > 0 {
            let parent = (i - 1) >> 1
            guard keys[parent] > keys[i] else { break }
            keys.swapAt(parent, i)
            states.swapAt(parent, i)
            i = parent
        }
    }

    mutating func pop() -> (key: Double, state: Int32)? {
        guard let key = keys.first, let state = states.first else { return nil }
        let lastKey = keys.removeLast(), lastState = states.removeLast()
        if !keys.isEmpty {
            keys[0] = lastKey
            states[0] = lastState
            var i = 0
            let n = keys.count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n, keys[l] < keys[m] { m = l }
                if r < n, keys[r] < keys[m] { m = r }
                if m == i { break }
                keys.swapAt(m, i)
                states.swapAt(m, i)
                i = m
            }
        }
        return (key, state)
    }
}

extension RoutingGraph {
    /// The fastest route from `source` to `destination` for `mode` (for walking, the shortest).
    /// - Throws: `RoutingError.noStreetNearSource`/`.noStreetNearDestination` when no open way lies
    ///   within `snapRadiusMeters`, `.disconnected` when no path joins the two, `.invalidParameter`
    ///   for a radius outside 1…5,000 m.
    public func route(from source: GeoCoordinate, to destination: GeoCoordinate, mode: TransportType,
                      snapRadiusMeters: Double = RoutingGraph.defaultSnapRadiusMeters) throws(RoutingError) -> RoutePath {
        try routes(from: source, to: destination, mode: mode, alternatives: 0, snapRadiusMeters: snapRadiusMeters)[0]
    }

    /// The fastest route and up to `alternatives` others that differ from it in at least 30 % of their
    /// length and take at most 50 % longer (found by making the routes already found 40 % dearer and
    /// searching again).
    public func routes(from source: GeoCoordinate, to destination: GeoCoordinate, mode: TransportType, alternatives: Int,
                       snapRadiusMeters: Double = RoutingGraph.defaultSnapRadiusMeters) throws(RoutingError) -> [RoutePath] {
        guard snapRadiusMeters.isFinite, (1...5_000).contains(snapRadiusMeters) else {
            throw .invalidParameter(name: "snap radius", value: "\(snapRadiusMeters)", allowed: "1…5000 metres")
        }
        guard (0...5).contains(alternatives) else {
            throw .invalidParameter(name: "alternatives", value: "\(alternatives)", allowed: "0…5")
        }
        guard !componentEdgeCount[mode.index].isEmpty else {
            throw .emptyNetwork(mode: mode, source: sourceDescription)
        }
        guard let start = snap(source, mode: mode, radiusMeters: snapRadiusMeters) else {
            throw .noStreetNearSource(coordinate: source, mode: mode, radiusMeters: snapRadiusMeters)
        }
        guard let end = snap(destination, mode: mode, radiusMeters: snapRadiusMeters) else {
            throw .noStreetNearDestination(coordinate: destination, mode: mode, radiusMeters: snapRadiusMeters)
        }
        guard let best = search(from: start, to: end, mode: mode, penalty: nil) else {
            throw .disconnected(source: source, destination: destination, mode: mode,
                                sourceStreet: ways[Int(edgeWay[start.edge])].name, destinationStreet: ways[Int(edgeWay[end.edge])].name)
        }
        var found = [path(best, from: start, to: end, mode: mode)]
        guard alternatives > 0 else { return found }
        var penalty = [Double](repeating: 1, count: edgeSource.count)
        for _ in 0..<(alternatives * 2) where found.count <= alternatives {
            for piece in found.last!.pieces { penalty[piece.edge] *= 1.4 }
            guard let pieces = search(from: start, to: end, mode: mode, penalty: penalty) else { break }
            let candidate = path(pieces, from: start, to: end, mode: mode)
            guard candidate.durationSeconds <= found[0].durationSeconds * 1.5 else { break }
            let distinct = found.allSatisfy { other in
                let shared = Set(other.pieces.map(\.edge))
                let overlap = candidate.pieces.filter { shared.contains($0.edge) }.reduce(0) { $0 + $1.distanceMeters }
                return overlap <= 0.7 * candidate.distanceMeters
            }
            if distinct { found.append(candidate) }
        }
        return found
    }

    /// A* over directed edges, the plain version over the graph's arrays: what ``search(from:to:mode:penalty:)``
    /// (the same steps over ``SearchTables``) is tested against. Returns the pieces as (directed edge,
    /// start offset, end offset).
    func referenceSearch(from source: SnappedPoint, to target: SnappedPoint, mode: TransportType,
                penalty: [Double]?) -> [(directed: Int, start: Double, end: Double)]? {
        let directedCount = 2 * edgeSource.count
        let targetState = directedCount
        // States: the directed edges, the target, then the extra states of via-way restrictions.
        let shadowOffset = directedCount + 1, stateCount = shadowOffset + shadowBase.count
        func baseEdge(_ state: Int) -> Int { state < shadowOffset ? state : Int(shadowBase[state - shadowOffset]) }
        let branching = Set(shadowChildren.keys.map { Int($0 >> 32) })
        var distance = [Double](repeating: .infinity, count: stateCount)
        var parent = [Int32](repeating: -1, count: stateCount)
        var settled = [Bool](repeating: false, count: stateCount)
        var heap = StateHeap()
        let seconds = edgeSeconds[mode.index]
        let modeBit: UInt8 = 1 << mode.index
        let speed = maximumSpeed[mode.index]
        let targetPoint = grid.xy(latitude: target.coordinate.latitude, longitude: target.coordinate.longitude)
        func heuristic(_ v: Int) -> Double {
            let p = grid.xy(latitude: vertexLatitude[v], longitude: vertexLongitude[v])
            let dx = p.x - targetPoint.x, dy = p.y - targetPoint.y
            // 0.98: the local frame's distances may exceed the geodesic ones by a little.
            return 0.98 * (dx * dx + dy * dy).squareRoot() / speed
        }
        func factor(_ e: Int) -> Double { penalty?[e] ?? 1 }
        // The directed edge that reaches the target, and whether the path is the source edge alone.
        var targetDirected = -1
        let es = source.edge, et = target.edge
        let sourceLength = length(edge: es), targetLength = length(edge: et)
        func share(_ meters: Double, of e: Int, _ total: Double) -> Double { total > 0 ? meters / total * seconds[e] * factor(e) : 0 }
        if allows(directed: 2 * es, mode: mode) {
            let cost = share(sourceLength - source.offsetMeters, of: es, sourceLength)
            distance[2 * es] = cost
            parent[2 * es] = -2
            heap.push(cost + heuristic(head(2 * es)), Int32(2 * es))
            if es == et, target.offsetMeters >= source.offsetMeters {
                let direct = share(target.offsetMeters - source.offsetMeters, of: es, sourceLength)
                if direct < distance[targetState] { distance[targetState] = direct; parent[targetState] = -2; targetDirected = 2 * es }
            }
        }
        if allows(directed: 2 * es + 1, mode: mode) {
            let cost = share(source.offsetMeters, of: es, sourceLength)
            distance[2 * es + 1] = cost
            parent[2 * es + 1] = -2
            heap.push(cost + heuristic(head(2 * es + 1)), Int32(2 * es + 1))
            if es == et, target.offsetMeters <= source.offsetMeters {
                let direct = share(source.offsetMeters - target.offsetMeters, of: es, sourceLength)
                if direct < distance[targetState] { distance[targetState] = direct; parent[targetState] = -2; targetDirected = 2 * es + 1 }
            }
        }
        if distance[targetState].isFinite { heap.push(distance[targetState], Int32(targetState)) }
        while let (_, stateValue) = heap.pop() {
            let state = Int(stateValue)
            if state == targetState { break }
            if settled[state] { continue }
            settled[state] = true
            let base = baseEdge(state)
            let v = head(base)
            let here = distance[state]
            let begin = Int(adjacencyStart[v]), finish = Int(adjacencyStart[v + 1])
            let checksTurns = restrictedVertex[v] || state >= shadowOffset || branching.contains(state)
            func turn(_ next: Int) -> Int { checksTurns ? step(from: state, base: base, to: next, at: v, modeBit: modeBit) : next }
            // U-turns only where nothing else goes on: a dead end for this mode, or every onward turn forbidden.
            var others = 0
            for i in begin..<finish {
                let d = Int(adjacency[i])
                if d != (base ^ 1), allows(directed: d, mode: mode), turn(d) >= 0 { others += 1 }
            }
            for i in begin..<finish {
                let next = Int(adjacency[i])
                guard allows(directed: next, mode: mode) else { continue }
                if next == (base ^ 1), others > 0 { continue }
                let nextState = turn(next)
                guard nextState >= 0 else { continue }
                let e = next >> 1
                if e == et {
                    let partial = next & 1 == 0 ? target.offsetMeters : targetLength - target.offsetMeters
                    let candidate = here + share(partial, of: e, targetLength)
                    if candidate < distance[targetState] {
                        distance[targetState] = candidate
                        parent[targetState] = Int32(state)
                        targetDirected = next
                        heap.push(candidate, Int32(targetState))
                    }
                }
                let reached = here + seconds[e] * factor(e)
                if reached < distance[nextState] {
                    distance[nextState] = reached
                    parent[nextState] = Int32(state)
                    heap.push(reached + heuristic(head(next)), Int32(nextState))
                }
            }
        }
        guard distance[targetState].isFinite, targetDirected >= 0 else { return nil }
        return walkBack(from: targetState, parent: { parent[$0] }, baseEdge: baseEdge, source: source, target: target,
                        targetDirected: targetDirected, targetLength: targetLength)
    }

    /// A found path as its pieces of directed edges (each with the metres it starts and ends at along
    /// the edge), walked back from the target's state through `parent` (-2: the source's first edge);
    /// both searches, the fast one and the reference, end here.
    func walkBack(from targetState: Int, parent: (Int) -> Int32, baseEdge: (Int) -> Int, source: SnappedPoint, target: SnappedPoint,
                  targetDirected: Int, targetLength: Double) -> [(directed: Int, start: Double, end: Double)] {
        if parent(targetState) == -2 {
            return [(targetDirected, source.offsetMeters, target.offsetMeters)]
        }
        var chain: [Int] = []
        var state = Int(parent(targetState))
        while state >= 0 {
            chain.append(state)
            let p = Int(parent(state))
            if p == -2 { break }
            state = p
        }
        chain.reverse()
        var pieces: [(directed: Int, start: Double, end: Double)] = []
        pieces.reserveCapacity(chain.count + 1)
        for (k, state) in chain.enumerated() {
            let d = baseEdge(state)
            let e = d >> 1, total = length(edge: e)
            let forward = d & 1 == 0
            let start = k == 0 ? source.offsetMeters : (forward ? 0 : total)
            pieces.append((d, start, forward ? total : 0))
        }
        let forward = targetDirected & 1 == 0
        pieces.append((targetDirected, forward ? 0 : targetLength, target.offsetMeters))
        return pieces
    }

    /// The path of found pieces: line, node ids, lengths and times.
    func path(_ raw: [(directed: Int, start: Double, end: Double)], from source: SnappedPoint, to target: SnappedPoint,
              mode: TransportType) -> RoutePath {
        var coordinates: [GeoCoordinate] = [], nodes: [Int64] = []
        var pieces: [RoutePath.Piece] = []
        var totalMeters = 0.0, totalSeconds = 0.0
        for (directed, startOffset, endOffset) in raw {
            let e = directed >> 1
            let total = length(edge: e)
            let meters = abs(endOffset - startOffset)
            if meters < 0.001, raw.count > 1 { continue }  // a zero-length stretch at a snapped end
            let seconds = total > 0 ? meters / total * edgeSeconds[mode.index][e] : 0
            let first = Int(edgeGeometryStart[e]), last = Int(edgeGeometryStart[e + 1]) - 1
            var line: [(GeoCoordinate, Int64)] = []
            func node(at offset: Double) -> Int64 {
                for i in first...last where abs(pointOffsetMeters[i] - offset) < 0.001 { return pointNode[i] }
                return 0
            }
            line.append((coordinate(onEdge: e, offsetMeters: startOffset), node(at: startOffset)))
            let inner = (first...last).filter {
                let o = pointOffsetMeters[$0]
                return o > min(startOffset, endOffset) + 0.001 && o < max(startOffset, endOffset) - 0.001
            }
            for i in (endOffset >= startOffset ? inner : inner.reversed()) { line.append((point(i), pointNode[i])) }
            line.append((coordinate(onEdge: e, offsetMeters: endOffset), node(at: endOffset)))
            let startIndex: Int
            if coordinates.isEmpty {
                startIndex = 0
                coordinates.append(line[0].0)
                nodes.append(line[0].1)
            } else {
                startIndex = coordinates.count - 1
            }
            for (c, n) in line.dropFirst() {
                coordinates.append(c)
                nodes.append(n)
            }
            pieces.append(RoutePath.Piece(directedEdge: directed, startOffsetMeters: startOffset, endOffsetMeters: endOffset,
                                          distanceMeters: meters, durationSeconds: seconds,
                                          coordinateRange: startIndex...(coordinates.count - 1)))
            totalMeters += meters
            totalSeconds += seconds
        }
        return RoutePath(mode: mode, source: source, destination: target, pieces: pieces, coordinates: coordinates, nodeIDs: nodes,
                         distanceMeters: totalMeters, durationSeconds: totalSeconds)
    }
}
