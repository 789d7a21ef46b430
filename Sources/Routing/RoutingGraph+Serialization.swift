import Foundation
import MapData

/// The graph as bytes, so `lookaround index` builds it once and stores it in the catalog (which keeps
/// it as an opaque blob with ``RoutingGraph/serializationFormatVersion``: Catalog sits beside Routing,
/// not above it, and does not read it).
///
/// Layout: the magic `LKRG`, the format version (UInt32), then every array the search and snapping use
/// as a count (UInt64) and its elements' bytes, little-endian, in a fixed order; strings as UTF-8 with
/// a length. Reading copies each array once (no per-element parsing): a city centre's graph loads in a
/// few milliseconds, against about 100 ms to build it from the extract.
extension RoutingGraph {
    /// The version of ``serialized()``'s layout; a stored graph of another version is rebuilt by
    /// `lookaround index` and refused by ``init(serialized:sourceDescription:)``. Version 2: turn
    /// restrictions by directed edge, via-way restrictions' extra states, the relations left out.
    public static let serializationFormatVersion = 2

    private static let magic: [UInt8] = Array("LKRG".utf8)

    /// The graph as bytes (see the extension's comment for the layout).
    public func serialized() -> [UInt8] {
        var writer = GraphByteWriter()
        writer.bytes.append(contentsOf: Self.magic)
        writer.scalar(UInt32(Self.serializationFormatVersion))
        writer.string(sourceDescription)
        writer.scalar(Int64(restrictionCount))
        writer.scalar(Int64(unresolvedRestrictions.count))
        for skipped in unresolvedRestrictions {
            writer.scalar(skipped.id)
            writer.string(skipped.reason)
        }
        writer.scalar(Int64(areaCrossingCount))
        writer.array(vertexLatitude)
        writer.array(vertexLongitude)
        writer.array(vertexNode)
        writer.array(edgeSource)
        writer.array(edgeTarget)
        writer.array(edgeWay)
        writer.array(edgeGeometryStart)
        writer.array(edgeAccess)
        for seconds in edgeSeconds { writer.array(seconds) }
        writer.array(pointLatitude)
        writer.array(pointLongitude)
        writer.array(pointNode)
        writer.array(pointOffsetMeters)
        writer.array(adjacencyStart)
        writer.array(adjacency)
        writer.scalar(Int64(ways.count))
        for way in ways {
            writer.scalar(way.osmID)
            writer.optionalString(way.name)
            writer.scalar(Int64(way.names.count))
            for key in way.names.keys.sorted() {
                writer.string(key)
                writer.string(way.names[key]!)
            }
            writer.optionalString(way.ref)
            writer.string(way.highway)
            writer.scalar(UInt8((way.isRoundabout ? 1 : 0) | (way.isArea ? 2 : 0) | (way.isUnderground ? 4 : 0)))
        }
        func write(_ list: [Restriction]) {
            writer.scalar(Int64(list.count))
            for restriction in list {
                writer.scalar(restriction.fromDirected)
                writer.scalar(restriction.toDirected)
                writer.scalar(UInt8(restriction.mandatory ? 1 : 0))
                writer.scalar(restriction.modes)
            }
        }
        writer.scalar(Int64(restrictions.count))
        for via in restrictions.keys.sorted() {
            writer.scalar(via)
            write(restrictions[via]!)
        }
        writer.array(shadowBase)
        let childKeys = shadowChildren.keys.sorted()
        writer.array(childKeys)
        writer.array(childKeys.map { shadowChildren[$0]! })
        writer.scalar(Int64(shadowRules.count))
        for k in shadowRules.keys.sorted() {
            writer.scalar(k)
            write(shadowRules[k]!)
        }
        writer.array(maximumSpeed)
        for component in edgeComponent { writer.array(component) }
        for sizes in componentEdgeCount { writer.array(sizes) }
        writer.scalar(grid.originLatitude)
        writer.scalar(grid.originLongitude)
        writer.scalar(grid.metersPerDegreeLongitude)
        for value in [grid.minX, grid.minY, grid.columns, grid.rows] { writer.scalar(Int64(value)) }
        writer.array(grid.cellStart)
        writer.array(grid.cellSegments)
        writer.array(grid.segmentEdge)
        return writer.bytes
    }

    /// Reads a graph ``serialized()`` wrote.
    /// - Parameter sourceDescription: what to name it after (the catalog it came from); nil keeps the
    ///   stored one (the extract it was built from).
    /// - Throws: `RoutingError.corruptGraph` for bytes of another format version, cut short, or whose
    ///   arrays do not fit together.
    public convenience init(serialized bytes: [UInt8], sourceDescription: String? = nil) throws(RoutingError) {
        try self.init(parts: Self.parts(bytes), sourceDescription: sourceDescription)
    }

    private static func parts(_ bytes: [UInt8]) throws(RoutingError) -> Parts {
        guard bytes.count >= 8, Array(bytes[0..<4]) == magic else {
            throw .corruptGraph(detail: "not a lookaround routing graph (no LKRG header)")
        }
        var reader = GraphByteReader(bytes: bytes, position: 4)
        let version = Int(try reader.scalar(UInt32.self))
        guard version == serializationFormatVersion else {
            throw .corruptGraph(detail: "format version \(version); this lookaround reads version \(serializationFormatVersion)")
        }
        var p = Parts()
        p.sourceDescription = try reader.string()
        p.restrictionCount = Int(try reader.scalar(Int64.self))
        for _ in 0..<(try reader.count()) {
            let id = try reader.scalar(Int64.self)
            p.unresolvedRestrictions.append(StreetNetwork.SkippedRestriction(id: id, reason: try reader.string()))
        }
        p.areaCrossingCount = Int(try reader.scalar(Int64.self))
        p.vertexLatitude = try reader.array()
        p.vertexLongitude = try reader.array()
        p.vertexNode = try reader.array()
        p.edgeSource = try reader.array()
        p.edgeTarget = try reader.array()
        p.edgeWay = try reader.array()
        p.edgeGeometryStart = try reader.array()
        p.edgeAccess = try reader.array()
        p.edgeSeconds = [try reader.array(), try reader.array(), try reader.array()]
        p.pointLatitude = try reader.array()
        p.pointLongitude = try reader.array()
        p.pointNode = try reader.array()
        p.pointOffsetMeters = try reader.array()
        p.adjacencyStart = try reader.array()
        p.adjacency = try reader.array()
        let wayCount = try reader.count()
        p.ways.reserveCapacity(wayCount)
        for _ in 0..<wayCount {
            let osmID = try reader.scalar(Int64.self)
            let name = try reader.optionalString()
            var names: [String: String] = [:]
            for _ in 0..<(try reader.count()) {
                let key = try reader.string()
                names[key] = try reader.string()
            }
            let ref = try reader.optionalString()
            let highway = try reader.string()
            let flags = try reader.scalar(UInt8.self)
            p.ways.append(WayInfo(osmID: osmID, name: name, names: names, ref: ref, highway: highway, isRoundabout: flags & 1 != 0,
                                  isArea: flags & 2 != 0, isUnderground: flags & 4 != 0))
        }
        func readList(_ reader: inout GraphByteReader) throws(RoutingError) -> [Restriction] {
            var list: [Restriction] = []
            for _ in 0..<(try reader.count()) {
                let from = try reader.scalar(Int32.self), to = try reader.scalar(Int32.self)
                let mandatory = try reader.scalar(UInt8.self) != 0
                list.append(Restriction(fromDirected: from, toDirected: to, mandatory: mandatory, modes: try reader.scalar(UInt8.self)))
            }
            return list
        }
        for _ in 0..<(try reader.count()) {
            let via = try reader.scalar(Int32.self)
            p.restrictions[via] = try readList(&reader)
        }
        p.shadowBase = try reader.array()
        let childKeys: [Int64] = try reader.array(), childValues: [Int32] = try reader.array()
        guard childKeys.count == childValues.count else { throw .corruptGraph(detail: "via-way restriction tables of different lengths") }
        for (key, value) in zip(childKeys, childValues) { p.shadowChildren[key] = value }
        for _ in 0..<(try reader.count()) {
            let k = try reader.scalar(Int32.self)
            p.shadowRules[k] = try readList(&reader)
        }
        p.maximumSpeed = try reader.array()
        p.edgeComponent = [try reader.array(), try reader.array(), try reader.array()]
        p.componentEdgeCount = [try reader.array(), try reader.array(), try reader.array()]
        let originLatitude = try reader.scalar(Double.self), originLongitude = try reader.scalar(Double.self)
        let metersPerDegreeLongitude = try reader.scalar(Double.self)
        let minX = Int(try reader.scalar(Int64.self)), minY = Int(try reader.scalar(Int64.self))
        let columns = Int(try reader.scalar(Int64.self)), rows = Int(try reader.scalar(Int64.self))
        let cellStart: [Int32] = try reader.array(), cellSegments: [Int32] = try reader.array(), segmentEdge: [Int32] = try reader.array()
        guard reader.position == bytes.count else {
            throw .corruptGraph(detail: "\(bytes.count - reader.position) bytes left over after the graph")
        }
        // The arrays must fit together, or the search would read out of bounds.
        let vertices = p.vertexNode.count, edges = p.edgeSource.count, points = p.pointLatitude.count
        let consistent = p.vertexLatitude.count == vertices && p.vertexLongitude.count == vertices
            && p.edgeTarget.count == edges && p.edgeWay.count == edges && p.edgeAccess.count == edges
            && p.edgeGeometryStart.count == edges + 1 && p.edgeSeconds.allSatisfy { $0.count == edges }
            && p.pointLongitude.count == points && p.pointNode.count == points && p.pointOffsetMeters.count == points
            && p.adjacencyStart.count == vertices + 1 && p.adjacency.count == Int(p.adjacencyStart.last ?? -1)
            && p.edgeComponent.allSatisfy { $0.count == edges } && p.maximumSpeed.count == 3
            && p.edgeSource.allSatisfy { $0 >= 0 && Int($0) < vertices } && p.edgeTarget.allSatisfy { $0 >= 0 && Int($0) < vertices }
            && p.edgeWay.allSatisfy { $0 >= 0 && Int($0) < p.ways.count }
            && p.edgeGeometryStart.allSatisfy { $0 >= 0 && Int($0) <= points }
            && p.adjacency.allSatisfy { $0 >= 0 && Int($0) < 2 * edges }
            && p.restrictions.keys.allSatisfy { $0 >= 0 && Int($0) < vertices }
            && p.restrictions.values.allSatisfy { $0.allSatisfy { $0.fromDirected >= 0 && Int($0.fromDirected) < 2 * edges
                                                                    && $0.toDirected >= 0 && Int($0.toDirected) < 2 * edges } }
            && p.shadowBase.allSatisfy { $0 >= 0 && Int($0) < 2 * edges }
            && p.shadowChildren.allSatisfy { Int($0.key >> 32) < 2 * edges + 1 + p.shadowBase.count && $0.key >> 32 >= 0
                                              && Int($0.key & 0xFFFF_FFFF) < 2 * edges && $0.value >= 0 && Int($0.value) < p.shadowBase.count }
            && p.shadowRules.allSatisfy { $0.key >= 0 && Int($0.key) < p.shadowBase.count
                                          && $0.value.allSatisfy { $0.toDirected >= 0 && Int($0.toDirected) < 2 * edges } }
            && segmentEdge.count == points && columns >= 1 && rows >= 1 && cellStart.count == columns * rows + 1
            && cellSegments.count == Int(cellStart.last ?? -1) && cellSegments.allSatisfy { $0 >= 0 && Int($0) + 1 < max(points, 1) }
        guard consistent else { throw .corruptGraph(detail: "arrays of inconsistent sizes or indexes out of range") }
        p.grid = SnappingGrid(originLatitude: originLatitude, originLongitude: originLongitude,
                             metersPerDegreeLongitude: metersPerDegreeLongitude, minX: minX, minY: minY, columns: columns, rows: rows,
                             cellStart: cellStart, cellSegments: cellSegments, segmentEdge: segmentEdge)
        return p
    }
}

/// Appends scalars and arrays as their little-endian bytes.
struct GraphByteWriter {
    var bytes: [UInt8] = []

    mutating func scalar<T: FixedWidthInteger>(_ value: T) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func scalar(_ value: Double) { scalar(value.bitPattern) }

    mutating func array<T: BitwiseCopyable>(_ values: [T]) {
        scalar(UInt64(values.count))
        // Little-endian hosts only (x86-64, arm64): the element bytes are written as they are in memory.
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        scalar(UInt32(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func optionalString(_ value: String?) {
        scalar(UInt8(value == nil ? 0 : 1))
        if let value { string(value) }
    }
}

/// Reads what ``GraphByteWriter`` wrote, throwing when the bytes end early.
struct GraphByteReader {
    let bytes: [UInt8]
    var position: Int

    private mutating func take(_ count: Int) throws(RoutingError) -> Range<Int> {
        guard count >= 0, count <= bytes.count - position else {
            throw .corruptGraph(detail: "cut short at byte \(position) of \(bytes.count)")
        }
        defer { position += count }
        return position..<(position + count)
    }

    mutating func scalar<T: FixedWidthInteger>(_ type: T.Type) throws(RoutingError) -> T {
        let range = try take(MemoryLayout<T>.size)
        return T(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: range.lowerBound, as: T.self) })
    }

    mutating func scalar(_ type: Double.Type) throws(RoutingError) -> Double { Double(bitPattern: try scalar(UInt64.self)) }

    mutating func count() throws(RoutingError) -> Int {
        let value = try scalar(UInt64.self)
        guard value <= UInt64(bytes.count) else { throw .corruptGraph(detail: "a count of \(value) at byte \(position - 8)") }
        return Int(value)
    }

    mutating func array<T: BitwiseCopyable>() throws(RoutingError) -> [T] {
        let n = try count()
        let range = try take(n * MemoryLayout<T>.stride)
        return [T](unsafeUninitializedCapacity: n) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[range]))
            }
            initialized = n
        }
    }

    mutating func string() throws(RoutingError) -> String {
        let n = Int(try scalar(UInt32.self))
        let range = try take(n)
        return String(decoding: bytes[range], as: UTF8.self)
    }

    mutating func optionalString() throws(RoutingError) -> String? {
        try scalar(UInt8.self) == 0 ? nil : try string()
    }
}
