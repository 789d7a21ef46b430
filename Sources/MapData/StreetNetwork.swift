import CReadOSM
import Foundation

/// The street network of an OSM extract as routing needs it: every `highway=*` way with its node ids
/// and tags (lines and pedestrian areas alike), the coordinates of those nodes, and the turn
/// restrictions (`type=restriction` relations over a via node or via ways).
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

    /// A `type=restriction` relation as OSRM and GraphHopper read it: from way(s), over a via node or a
    /// chain of via ways, onto to way(s), with its value for each kind of vehicle.
    public struct TurnRestriction: Sendable, Hashable {
        /// Where the turn is made: at a node, or along one or more ways (a median gap, a short link).
        public enum Via: Sendable, Hashable {
            /// A via node.
            case node(Int64)
            /// Via ways, in member order (they form a chain between the from and the to way).
            case ways([Int64])
        }

        /// The OSM relation id.
        public var id: Int64
        /// The restriction's values by key: `restriction` and each `restriction:MODE` (`restriction:motorcar`,
        /// `restriction:bicycle`…), only the values routers know (``knownValues``); conditional ones left out.
        public var values: [String: String]
        /// `except=*`, split at `;` (e.g. "bicycle", "psv").
        public var exceptions: Set<String>
        /// The `from` ways: one, or several for `no_entry`.
        public var fromWayIDs: [Int64]
        /// The via node or ways.
        public var via: Via
        /// The `to` ways: one, or several for `no_exit`.
        public var toWayIDs: [Int64]

        /// A restriction from its parts.
        public init(id: Int64, values: [String: String], exceptions: Set<String> = [], fromWayIDs: [Int64], via: Via, toWayIDs: [Int64]) {
            self.id = id
            self.values = values
            self.exceptions = exceptions
            self.fromWayIDs = fromWayIDs
            self.via = via
            self.toWayIDs = toWayIDs
        }

        /// A plain `restriction=VALUE` over a via node, from one way to one way.
        public init(id: Int64, value: String, exceptions: Set<String> = [], fromWayID: Int64, viaNodeID: Int64, toWayID: Int64) {
            self.init(id: id, values: ["restriction": value], exceptions: exceptions, fromWayIDs: [fromWayID], via: .node(viaNodeID),
                      toWayIDs: [toWayID])
        }

        /// The value under the first of `keys` that is tagged (a mode's keys, most specific first), or nil.
        public func value(forKeys keys: [String]) -> String? {
            for key in keys { if let value = values[key] { return value } }
            return nil
        }

        /// The via node, for a via-node restriction.
        public var viaNodeID: Int64? { if case .node(let id) = via { id } else { nil } }

        /// The values routers read: `no_*` bans the turn from the from way onto the to way, `only_*` bans every
        /// other turn from the from way. `no_right_turn_on_red`, `give_way` and the like are not turn bans.
        public static let knownValues: Set<String> = [
            "no_left_turn", "no_right_turn", "no_straight_on", "no_u_turn", "no_entry", "no_exit",
            "only_left_turn", "only_right_turn", "only_straight_on", "only_u_turn",
        ]
    }

    /// A restriction relation left out, and why (a member missing or malformed, an unknown value, a
    /// way not split at its via node): what `lookaround directions` reports and tests check.
    public struct SkippedRestriction: Sendable, Hashable, CustomStringConvertible {
        /// The OSM relation id.
        public var id: Int64
        /// Why, in words.
        public var reason: String

        /// A skipped restriction from its parts.
        public init(id: Int64, reason: String) {
            self.id = id
            self.reason = reason
        }

        /// `relation/123: reason`.
        public var description: String { "relation/\(id): \(reason)" }
    }

    /// Where the data came from.
    public var sourcePath: String
    /// The highway ways, in file order.
    public var ways: [Way]
    /// Coordinates of every node the ways use.
    public var coordinates: [Int64: OSMCoordinate]
    /// Turn restrictions, over via nodes and via ways, in file order.
    public var restrictions: [TurnRestriction]
    /// Restriction relations left out while reading, with the reason (malformed members, no value a
    /// router reads); those whose ways do not meet as the relation says are left out by the routing graph.
    public var skippedRestrictions: [SkippedRestriction]
    /// How many restriction relations were left out while reading.
    public var skippedRestrictionCount: Int { skippedRestrictions.count }
    /// Nodes the ways name that the file does not hold (ways clipped at the extract's edge).
    public var missingNodeCount: Int
    /// The bounding box of the file's nodes.
    public var boundingBox: OSMBoundingBox?

    /// A network from its parts (tests build small ones by hand).
    public init(sourcePath: String = "", ways: [Way], coordinates: [Int64: OSMCoordinate], restrictions: [TurnRestriction] = [],
                skippedRestrictions: [SkippedRestriction] = [], missingNodeCount: Int = 0, boundingBox: OSMBoundingBox? = nil) {
        self.sourcePath = sourcePath
        self.ways = ways
        self.coordinates = coordinates
        self.restrictions = restrictions
        self.skippedRestrictions = skippedRestrictions
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
                  skippedRestrictions: collector.skippedRestrictions, missingNodeCount: missing,
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
        var skippedRestrictions: [StreetNetwork.SkippedRestriction] = []
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
    OSMBoundingBox.grow(&data.boundingBox, toInclude: coordinate)
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
    var members: [(kind: Int32, id: Int64, role: String)] = []
    if let raw = relation.members, relation.member_count > 0 {
        for i in 0..<Int(relation.member_count) {
            members.append((raw[i].member_type, raw[i].id, raw[i].role.map { String(cString: $0) } ?? ""))
        }
    }
    switch StreetNetworkReader.restriction(id: relation.id, tags: tags.dictionary(), members: members) {
    case .kept(let restriction): data.restrictions.append(restriction)
    case .skipped(let skipped): data.skippedRestrictions.append(skipped)
    }
    return READOSM_OK
}

extension StreetNetworkReader {
    /// A restriction relation read: kept, or skipped with the reason.
    enum ReadRestriction {
        case kept(StreetNetwork.TurnRestriction)
        case skipped(StreetNetwork.SkippedRestriction)
    }

    /// A restriction relation's members and tags checked as GraphHopper's reader checks them: from and to
    /// members are ways; via is one node or one or more ways, not both; several from members only on a
    /// `no_entry`, several to members only on a `no_exit`, never both; at least one value routers know.
    static func restriction(id: Int64, tags: [String: String], members: [(kind: Int32, id: Int64, role: String)])
        -> ReadRestriction {
        func skip(_ reason: String) -> ReadRestriction { .skipped(StreetNetwork.SkippedRestriction(id: id, reason: reason)) }
        var values: [String: String] = [:], unknown: [String] = []
        for (key, value) in tags where key == "restriction" || (key.hasPrefix("restriction:") && !key.hasSuffix("conditional")) {
            let trimmed = value.trimmingCharacters(in: .whitespaces)
            if StreetNetwork.TurnRestriction.knownValues.contains(trimmed) { values[key] = trimmed } else { unknown.append("\(key)=\(value)") }
        }
        guard !values.isEmpty else {
            return skip(unknown.isEmpty ? "no restriction or restriction:MODE tag" : "no value a router reads (\(unknown.sorted().joined(separator: ", ")))")
        }
        var from: [Int64] = [], to: [Int64] = [], viaNodes: [Int64] = [], viaWays: [Int64] = []
        for member in members {
            switch member.role {
            case "from":
                guard member.kind == READOSM_MEMBER_WAY else { return skip("a from member that is not a way") }
                from.append(member.id)
            case "to":
                guard member.kind == READOSM_MEMBER_WAY else { return skip("a to member that is not a way") }
                to.append(member.id)
            case "via":
                if member.kind == READOSM_MEMBER_NODE { viaNodes.append(member.id) }
                else if member.kind == READOSM_MEMBER_WAY { viaWays.append(member.id) }
                else { return skip("a via member that is neither a node nor a way") }
            default: continue   // location_hint and the like
            }
        }
        guard !from.isEmpty, !to.isEmpty else { return skip(from.isEmpty ? "no from member" : "no to member") }
        guard from.count == 1 || to.count == 1 else { return skip("several from and several to members") }
        let kinds = Set(values.values)
        if from.count > 1, !kinds.contains("no_entry") { return skip("\(from.count) from members on a restriction that is not no_entry") }
        if to.count > 1, !kinds.contains("no_exit") { return skip("\(to.count) to members on a restriction that is not no_exit") }
        let via: StreetNetwork.TurnRestriction.Via
        switch (viaNodes.count, viaWays.count) {
        case (1, 0): via = .node(viaNodes[0])
        case (0, 1...): via = .ways(viaWays)
        case (0, 0): return skip("no via member")
        case (_, 0): return skip("\(viaNodes.count) via nodes")
        default: return skip("via members of both kinds, node and way")
        }
        let exceptions = Set((tags["except"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty })
        return .kept(StreetNetwork.TurnRestriction(id: id, values: values, exceptions: exceptions, fromWayIDs: from, via: via, toWayIDs: to))
    }
}
