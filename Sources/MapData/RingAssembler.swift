/// Joins the member ways of a multipolygon relation into closed rings and polygons.
///
/// Ways are joined end to end by shared node ids (not by coordinates), each in whichever direction
/// fits, so reversed members are handled. A ring that cannot be closed (a member missing from the
/// extract, a gap in the data) is dropped and reported as an `.unclosedRing` diagnostic naming the
/// relation and its ways; a ring whose nodes are partly outside the extract is dropped as
/// `.missingNodes`. Inner rings go to the outer ring that contains most of their points.
enum RingAssembler {
    /// A joined ring: node ids (closed: first == last) and the ways it was made of, in order.
    struct NodeRing {
        var nodeIDs: [Int64]
        var wayIDs: [Int64]
    }

    /// Builds the polygons of `relation`, appending diagnostics for what had to be dropped.
    static func polygons(of relation: RawRelation, in data: OSMRawData,
                         diagnostics: inout [MapDataDiagnostic]) -> [OSMPolygon] {
        let element = OSMElementReference(.relation, relation.id)
        var outerSegments: [(id: Int64, nodes: [Int64])] = []
        var innerSegments: [(id: Int64, nodes: [Int64])] = []
        for member in relation.members {
            let isOuter = member.role == "outer" || member.role.isEmpty
            guard isOuter || member.role == "inner" else { continue }
            guard let way = data.way(member.wayID) else {
                diagnostics.append(MapDataDiagnostic(.missingMemberWay, element,
                                                     "\(member.role.isEmpty ? "outer" : member.role) way \(member.wayID) is not in the extract"))
                continue
            }
            guard way.nodeIDs.count >= 2 else { continue }
            if isOuter { outerSegments.append((way.id, way.nodeIDs)) } else { innerSegments.append((way.id, way.nodeIDs)) }
        }

        func coordinateRings(_ segments: [(id: Int64, nodes: [Int64])], role: String) -> [[OSMCoordinate]] {
            let (closed, unclosed) = join(segments)
            for ways in unclosed {
                diagnostics.append(MapDataDiagnostic(.unclosedRing, element,
                    "\(role) ring from way(s) \(ways.map(String.init).joined(separator: ", ")) cannot be closed; dropped"))
            }
            var rings: [[OSMCoordinate]] = []
            for ring in closed {
                let coordinates = ring.nodeIDs.compactMap { data.coordinates[$0] }
                if coordinates.count == ring.nodeIDs.count {
                    rings.append(coordinates)
                } else {
                    diagnostics.append(MapDataDiagnostic(.missingNodes, element,
                        "\(role) ring from way(s) \(ring.wayIDs.map(String.init).joined(separator: ", ")) has "
                        + "\(ring.nodeIDs.count - coordinates.count) of \(ring.nodeIDs.count) nodes outside the extract; dropped"))
                }
            }
            return rings
        }

        let outers = coordinateRings(outerSegments, role: "outer")
        let inners = coordinateRings(innerSegments, role: "inner")
        var polygons = outers.map { OSMPolygon(outer: $0) }
        for inner in inners {
            var best = -1, bestCount = 0
            for (index, polygon) in polygons.enumerated() {
                let inside = inner.reduce(0) { $0 + (OSMPolygon.ring(polygon.outer, contains: $1) ? 1 : 0) }
                if inside > bestCount { best = index; bestCount = inside }
            }
            if best >= 0 {
                polygons[best].inners.append(OSMPolygon.oriented(inner, counterClockwise: false))
            } else {
                diagnostics.append(MapDataDiagnostic(.orphanInnerRing, element,
                                                     "an inner ring of \(inner.count) points lies in no outer ring; dropped"))
            }
        }
        return polygons
    }

    /// Joins segments (node id lists) into closed rings; returns the rings and, for each ring that
    /// could not be closed, the way ids it was made of.
    static func join(_ segments: [(id: Int64, nodes: [Int64])]) -> (closed: [NodeRing], unclosed: [[Int64]]) {
        var unused = segments
        var closed: [NodeRing] = []
        var unclosed: [[Int64]] = []
        while !unused.isEmpty {
            let first = unused.removeFirst()
            var ring = NodeRing(nodeIDs: first.nodes, wayIDs: [first.id])
            while !isClosed(ring.nodeIDs) {
                guard let head = ring.nodeIDs.first, let tail = ring.nodeIDs.last else { break }
                if let j = unused.firstIndex(where: { $0.nodes.first == tail }) {
                    ring.nodeIDs += unused[j].nodes.dropFirst()
                    ring.wayIDs.append(unused.remove(at: j).id)
                } else if let j = unused.firstIndex(where: { $0.nodes.last == tail }) {
                    ring.nodeIDs += unused[j].nodes.reversed().dropFirst()
                    ring.wayIDs.append(unused.remove(at: j).id)
                } else if let j = unused.firstIndex(where: { $0.nodes.last == head }) {
                    ring.nodeIDs = unused[j].nodes.dropLast() + ring.nodeIDs
                    ring.wayIDs.insert(unused.remove(at: j).id, at: 0)
                } else if let j = unused.firstIndex(where: { $0.nodes.first == head }) {
                    ring.nodeIDs = unused[j].nodes.reversed().dropLast() + ring.nodeIDs
                    ring.wayIDs.insert(unused.remove(at: j).id, at: 0)
                } else {
                    break
                }
            }
            if isClosed(ring.nodeIDs) { closed.append(ring) } else { unclosed.append(ring.wayIDs) }
        }
        return (closed, unclosed)
    }

    /// Closed and at least a triangle: 4 ids, first == last.
    static func isClosed(_ nodeIDs: [Int64]) -> Bool {
        nodeIDs.count >= 4 && nodeIDs.first == nodeIDs.last
    }
}
