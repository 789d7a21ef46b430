import CReadOSM
import Foundation

/// The street network of an OSM extract as routing needs it: every `highway=*` way with its node ids
/// and tags (lines and pedestrian areas alike), the coordinates of those nodes, and the turn
/// restrictions (`type=restriction` relations with a via node).
///
/// ``MapDataset`` keeps streets as drawn lines without node ids; a router needs the topology (which
/// ways share which node) and the relations, so this is a second, lean read of the same file.
public struct StreetNetwork: Sendable {
    /// A `highway=*` way: its node ids in order and all its tags.
    public struct Way: Sendable, Hashable {
        /// The OSM way id.
        public var id: Int64
        /// Node ids in way order (a closed way repeats its first node at the end).
        public var nodeIDs: [Int64]
        /// Every tag of the way.
        public var tags: [String: String]

        /// A way from its parts.
        public init(id: Int64, nodeIDs: [Int64], tags: [String: String]) {
            self.id = id
            self.nodeIDs = nodeIDs
            self.tags = tags
        }

        /// Closed and tagged `area=yes` (or a `highway=pedestrian` closed way tagged `place=square`):
        /// a pedestrian area or square one may walk across, not a ring road.
        public var isArea: Bool {
            guard nodeIDs.count >= 4, nodeIDs.first == nodeIDs.last else { return false }
            return tags["area"] == "yes" || tags["place"] == "square"
        }
    }

    /// A `type=restriction` relation: a turn from one way over a node onto another.
    public struct TurnRestriction: Sendable, Hashable {
        /// The OSM relation id.
        public var id: Int64
        /// The `restriction` value, e.g. "no_left_turn", "only_straight_on" (or the value of
        /// `restriction:motorcar` / `restriction:bicycle` when only that is tagged).
        public var value: String
        /// The modes it is tagged for: empty for plain `restriction=*` (every vehicle), else the
        /// suffixes of `restriction:MODE` keys ("motorcar", "bicycle", …).
        public var modes: Set<String>
        /// `except=*`, split at `;` (e.g. "bicycle", "psv").
        public var exceptions: Set<String>
        /// The `from` way.
        public var fromWayID: Int64
        /// The `via` node.
        public var viaNodeID: Int64
        /// The `to` way.
        public var toWayID: Int64

        /// A restriction from its parts.
        public init(id: Int64, value: String, modes: Set<String> = [], exceptions: Set<String> = [], fromWayID: Int64,
                    viaNodeID: Int64, toWayID: Int64) {
            self.id = id
            self.value = value
            self.modes = modes
            self.exceptions = exceptions
            self.fromWayID = fromWayID
            self.viaNodeID = viaNodeID
            self.toWayID = toWayID
        }

        /// `only_*`: from the from-way over the via node, the to-way is the only way on.
        public var isMandatory: Bool { value.hasPrefix("only_") }
    }

    /// Where the data came from.
    public var sourcePath: String
    /// The highway ways, in file order.
    public var ways: [Way]
    /// Coordinates of every node the ways use.
    public var coordinates: [Int64: OSMCoordinate]
    /// Turn restrictions whose via member is a node (via-way restrictions are counted in
    /// ``skippedRestrictionCount`` and not used).
    public var restrictions: [TurnRestriction]
    /// Restriction relations left out: a via way, missing members, or an unknown value.
    public var skippedRestrictionCount: Int
    /// Nodes the ways name that the file does not hold (ways clipped at the extract's edge).
    public var missingNodeCount: Int
    /// The bounding box of the file's nodes.
    public var boundingBox: OSMBoundingBox?

    /// A network from its parts (tests build small ones by hand).
    public init(sourcePath: String = "", ways: [Way], coordinates: [Int64: OSMCoordinate], restrictions: [TurnRestriction] = [],
                skippedRestrictionCount: Int = 0, missingNodeCount: Int = 0, boundingBox: OSMBoundingBox? = nil) {
        self.sourcePath = sourcePath
        self.ways = ways
        self.coordinates = coordinates
        self.restrictions = restrictions
        self.skippedRestrictionCount = skippedRestrictionCount
        self.missingNodeCount = missingNodeCount
        self.boundingBox = boundingBox
    }

    /// Reads the street network of an `.osm.pbf` or `.osm` file.
    /// - Throws: `MapDataError` as ``MapDataset/init(contentsOfFile:)`` does (missing file, not OSM,
    ///   a variant libreadosm cannot read).
    public init(contentsOfFile path: String) throws {
        let collector = try StreetNetworkReader.read(path: path)
        var coordinates: [Int64: OSMCoordinate] = [:]
        var ways: [Way] = []
        var missing = 0
        for way in collector.ways {
            var kept: [Int64] = []
            kept.reserveCapacity(way.nodeIDs.count)
            for id in way.nodeIDs {
                if let coordinate = collector.coordinates[id] {
                    coordinates[id] = coordinate
                    kept.append(id)
                } else {
                    missing += 1
                }
            }
            if kept.count >= 2 { ways.append(Way(id: way.id, nodeIDs: kept, tags: way.tags)) }
        }
        self.init(sourcePath: path, ways: ways, coordinates: coordinates, restrictions: collector.restrictions,
                  skippedRestrictionCount: collector.skippedRestrictions, missingNodeCount: missing,
                  boundingBox: collector.boundingBox)
    }
}

/// The libreadosm pass behind ``StreetNetwork/init(contentsOfFile:)``: every node's coordinate, the
/// highway ways with their tags, the restriction relations. The file is checked by ``OSMReader``'s checks.
enum StreetNetworkReader {
    final class Collector {
        /// Every node's coordinate, compactly (as ``OSMReader`` keeps them).
        var coordinates = NodeCoordinateTable()
        var ways: [StreetNetwork.Way] = []
        var restrictions: [StreetNetwork.TurnRestriction] = []
        var skippedRestrictions = 0
        var boundingBox: OSMBoundingBox?
    }

    static func read(path: String) throws -> Collector {
        _ = try OSMReader.checkedFormat(path: path)
        // The same lock as every other parse: libreadosm formats PBF timestamps with gmtime().
        OSMReader.parseLock.lock()
        defer { OSMReader.parseLock.unlock() }
        var handle: UnsafeRawPointer? = nil
        defer { _ = readosm_close(handle) }
        let openCode = readosm_open(path, &handle)
        guard openCode == READOSM_OK else {
            throw MapDataError.readFailed(path: path, code: openCode, meaning: OSMReader.meaning(of: openCode))
        }
        let collector = Collector()
        let parseCode = withExtendedLifetime(collector) {
            readosm_parse(handle, Unmanaged.passUnretained(collector).toOpaque(), networkNode, networkWay, networkRelation)
        }
        guard parseCode == READOSM_OK else {
            throw MapDataError.readFailed(path: path, code: parseCode, meaning: OSMReader.meaning(of: parseCode))
        }
        return collector
    }
}

@inline(__always)
private func networkCollector(_ userData: UnsafeRawPointer?) -> StreetNetworkReader.Collector? {
    guard let userData else { return nil }
    return Unmanaged<StreetNetworkReader.Collector>.fromOpaque(userData).takeUnretainedValue()
}

private let networkNode: readosm_node_callback = { userData, nodePointer in
    guard let data = networkCollector(userData), let node = nodePointer?.pointee else { return READOSM_ABORT }
    let coordinate = OSMCoordinate(latitude: node.latitude, longitude: node.longitude)
    data.coordinates[node.id] = coordinate
    if data.boundingBox == nil {
        data.boundingBox = OSMBoundingBox(minLatitude: coordinate.latitude, minLongitude: coordinate.longitude,
                                          maxLatitude: coordinate.latitude, maxLongitude: coordinate.longitude)
    } else {
        data.boundingBox?.include(coordinate)
    }
    return READOSM_OK
}

private let networkWay: readosm_way_callback = { userData, wayPointer in
    guard let data = networkCollector(userData), let way = wayPointer?.pointee else { return READOSM_ABORT }
    let tags = CTagList(way.tags, way.tag_count)
    guard tags.has("highway"), let refs = way.node_refs, way.node_ref_count >= 2 else { return READOSM_OK }
    let nodeIDs = Array(UnsafeBufferPointer(start: refs, count: Int(way.node_ref_count)))
    data.ways.append(StreetNetwork.Way(id: way.id, nodeIDs: nodeIDs, tags: tags.dictionary()))
    return READOSM_OK
}

private let networkRelation: readosm_relation_callback = { userData, relationPointer in
    guard let data = networkCollector(userData), let relation = relationPointer?.pointee else { return READOSM_ABORT }
    let tags = CTagList(relation.tags, relation.tag_count)
    guard tags.value("type", is: "restriction") else { return READOSM_OK }
    let dictionary = tags.dictionary()
    var value = dictionary["restriction"]
    var modes: Set<String> = []
    if value == nil {
        for (key, tagged) in dictionary where key.hasPrefix("restriction:") {
            modes.insert(String(key.dropFirst("restriction:".count)))
            value = tagged
        }
    }
    guard let value, value.hasPrefix("no_") || value.hasPrefix("only_") else {
        data.skippedRestrictions += 1
        return READOSM_OK
    }
    var from: Int64?, via: Int64?, to: Int64?, viaIsWay = false
    if let members = relation.members, relation.member_count > 0 {
        for i in 0..<Int(relation.member_count) {
            let role = members[i].role.map { String(cString: $0) } ?? ""
            switch (role, members[i].member_type) {
            case ("from", READOSM_MEMBER_WAY): from = members[i].id
            case ("to", READOSM_MEMBER_WAY): to = members[i].id
            case ("via", READOSM_MEMBER_NODE): via = members[i].id
            case ("via", READOSM_MEMBER_WAY): viaIsWay = true
            default: break
            }
        }
    }
    guard let from, let via, let to, !viaIsWay else {
        data.skippedRestrictions += 1
        return READOSM_OK
    }
    let exceptions = Set((dictionary["except"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) })
    data.restrictions.append(StreetNetwork.TurnRestriction(id: relation.id, value: value, modes: modes, exceptions: exceptions,
                                                           fromWayID: from, viaNodeID: via, toWayID: to))
    return READOSM_OK
}
