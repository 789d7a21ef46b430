import Catalog
import Foundation
import Geodesy

/// The catalog's panoramas and their links as a graph, loaded once: what routes are planned over.
///
/// Nodes are panoramas (by index into ``nodes``); edges are the catalog's links (sequence neighbours and
/// proximity links), weighted by their geodesic length in metres.
public struct PanoramaGraph: Sendable {
    /// One panorama of the graph.
    public struct Node: Sendable, Hashable {
        /// Panorama id.
        public var id: String
        /// Camera position (WGS84).
        public var coordinate: GeoCoordinate
        /// Capture heading, degrees clockwise from north.
        public var headingDegrees: Double
        /// Capture time (UTC).
        public var captureTime: Date
        /// Sequence name and order in it.
        public var sequenceName: String
        /// Position in its sequence, from 0.
        public var sequenceIndex: Int
        /// Edges: neighbour node index and geodesic length, metres.
        public var edges: [(node: Int, distanceMeters: Double)]

        /// A node from its parts.
        public init(id: String, coordinate: GeoCoordinate, headingDegrees: Double, captureTime: Date, sequenceName: String,
                    sequenceIndex: Int, edges: [(node: Int, distanceMeters: Double)]) {
            self.id = id
            self.coordinate = coordinate
            self.headingDegrees = headingDegrees
            self.captureTime = captureTime
            self.sequenceName = sequenceName
            self.sequenceIndex = sequenceIndex
            self.edges = edges
        }

        public static func == (a: Node, b: Node) -> Bool { a.id == b.id }
        public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    /// Every panorama, ordered by id.
    public let nodes: [Node]
    private let indexByID: [String: Int]

    /// The graph of a catalog: one table scan plus one links query per panorama.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    public init(catalog: Catalog) throws {
        let ids = try catalog.imagePaths().map(\.panoramaID)
        var index: [String: Int] = [:]
        for (i, id) in ids.enumerated() { index[id] = i }
        var nodes: [Node] = []
        nodes.reserveCapacity(ids.count)
        for id in ids {
            let record = try catalog.panorama(id: id)
            let edges = try catalog.links(ofPanoramaID: id).compactMap { link -> (node: Int, distanceMeters: Double)? in
                index[link.panoramaID].map { ($0, link.distanceMeters) }
            }
            nodes.append(Node(id: id, coordinate: record.coordinate, headingDegrees: record.headingDegrees,
                              captureTime: record.captureTime, sequenceName: record.sequenceName,
                              sequenceIndex: record.sequenceIndex, edges: edges))
        }
        self.init(nodes: nodes)
    }

    /// A graph from nodes (tests build small ones by hand). Edges are taken as given (directed).
    public init(nodes: [Node]) {
        self.nodes = nodes
        var index: [String: Int] = [:]
        for (i, node) in nodes.enumerated() { index[node.id] = i }
        indexByID = index
    }

    /// The node index of a panorama id.
    public func index(of id: String) -> Int? { indexByID[id] }

    /// The node nearest to `coordinate` and its distance, metres (nil for an empty graph). O(n).
    public func nearest(to coordinate: GeoCoordinate) -> (node: Int, distanceMeters: Double)? {
        var best: (node: Int, distanceMeters: Double)?
        for (i, node) in nodes.enumerated() {
            let d = node.coordinate.distanceMeters(to: coordinate)
            if best == nil || d < best!.distanceMeters { best = (i, d) }
        }
        return best
    }

    /// The sequence names, sorted.
    public var sequenceNames: [String] { Array(Set(nodes.map(\.sequenceName))).sorted() }

    /// The nodes of a sequence in capture order.
    public func sequence(_ name: String) -> [Int] {
        nodes.indices.filter { nodes[$0].sequenceName == name }.sorted { nodes[$0].sequenceIndex < nodes[$1].sequenceIndex }
    }

    /// The nodes reachable from `start` over the links.
    public func reachable(from start: Int) -> Set<Int> {
        var seen: Set<Int> = [start], stack = [start]
        while let n = stack.popLast() {
            for edge in nodes[n].edges where seen.insert(edge.node).inserted { stack.append(edge.node) }
        }
        return seen
    }

    /// A label per node: nodes joined by links (either way) share a label.
    public func componentLabels() -> [Int] {
        var undirected = [[Int]](repeating: [], count: nodes.count)
        for (i, node) in nodes.enumerated() {
            for edge in node.edges { undirected[i].append(edge.node); undirected[edge.node].append(i) }
        }
        var labels = [Int](repeating: -1, count: nodes.count)
        for start in nodes.indices where labels[start] < 0 {
            labels[start] = start
            var stack = [start]
            while let n = stack.popLast() {
                for m in undirected[n] where labels[m] < 0 { labels[m] = start; stack.append(m) }
            }
        }
        return labels
    }

    /// A hop of `meters` costs `meters · (1 + meters / hopPenaltyMeters)`: a little more than its
    /// length, so that of two equally long ways (one 24 m proximity link, or two 12 m steps through the
    /// capture between) the walk takes the one that visits every capture; each hop is one depth-warped
    /// move, and short moves look better.
    static let hopPenaltyMeters = 100.0

    /// The shortest path from `start` to `goal` over the links (A*; geodesic edge lengths with the
    /// small hop penalty of ``hopPenaltyMeters``; the geodesic distance to the goal, which never
    /// exceeds the cost, as the admissible heuristic), as node indices including both ends; nil when
    /// the goal cannot be reached. O(E log V).
    public func shortestPath(from start: Int, to goal: Int) -> [Int]? {
        if start == goal { return [start] }
        let target = nodes[goal].coordinate
        var cost = [Double](repeating: .infinity, count: nodes.count)
        var previous = [Int](repeating: -1, count: nodes.count)
        var closed = [Bool](repeating: false, count: nodes.count)
        var open = BinaryHeap()
        cost[start] = 0
        open.push(priority: nodes[start].coordinate.distanceMeters(to: target), node: start)
        while let (_, n) = open.pop() {
            if closed[n] { continue }
            if n == goal { break }
            closed[n] = true
            for edge in nodes[n].edges where !closed[edge.node] {
                let c = cost[n] + edge.distanceMeters * (1 + edge.distanceMeters / Self.hopPenaltyMeters)
                if c < cost[edge.node] {
                    cost[edge.node] = c
                    previous[edge.node] = n
                    open.push(priority: c + nodes[edge.node].coordinate.distanceMeters(to: target), node: edge.node)
                }
            }
        }
        guard cost[goal].isFinite else { return nil }
        var path = [goal]
        while let last = path.last, last != start { path.append(previous[last]) }
        return path.reversed()
    }

    /// Where the graph breaks between `start` and `goal` when no path joins them: the reachable
    /// panorama and the unreachable one (in the goal's part of the graph) closest to each other, and
    /// their distance, metres.
    public func gap(from start: Int, to goal: Int) -> (lastReachable: Int, nearestUnreachable: Int, gapMeters: Double) {
        let near = reachable(from: start), far = reachable(from: goal).subtracting(near)
        var best = (lastReachable: start, nearestUnreachable: goal, gapMeters: Double.infinity)
        for a in near {
            for b in far {
                let d = nodes[a].coordinate.distanceMeters(to: nodes[b].coordinate)
                if d < best.gapMeters { best = (a, b, d) }
            }
        }
        return best
    }
}

/// A min-heap of (priority, node) for A*.
struct BinaryHeap {
    private var items: [(priority: Double, node: Int)] = []

    mutating func push(priority: Double, node: Int) {
        items.append((priority, node))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].priority < items[parent].priority else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (Double, Int)? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < items.count, items[l].priority < items[m].priority { m = l }
                if r < items.count, items[r].priority < items[m].priority { m = r }
                if m == i { break }
                items.swapAt(i, m)
                i = m
            }
        }
        return (first.priority, first.node)
    }
}
