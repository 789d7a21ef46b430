import CReadOSM
import Foundation

/// Reads an `.osm.pbf` or `.osm` file through libreadosm into `OSMRawData` (coordinates, ways,
/// multipolygon relations, raw counts), checking the file first so that failures are explained.
///
/// libreadosm's callbacks are C function pointers: they capture nothing and find the collector
/// through `user_data`. Every pointer they receive is freed when they return, so what is kept is
/// copied. libreadosm formats PBF timestamps with the non-reentrant `gmtime()`, so parses are
/// serialised through `parseLock`.
enum OSMReader {
    static let parseLock = NSLock()

    static func read(path: String) throws -> OSMRawData {
        let format = try checkedFormat(path: path)
        parseLock.lock()
        defer { parseLock.unlock() }
        var handle: UnsafeRawPointer? = nil
        defer { _ = readosm_close(handle) }
        let openCode = readosm_open(path, &handle)
        guard openCode == READOSM_OK else { throw error(code: openCode, path: path, format: format) }

        let data = OSMRawData()
        let parseCode = withExtendedLifetime(data) {
            readosm_parse(handle, Unmanaged.passUnretained(data).toOpaque(), onNode, onWay, onRelation)
        }
        guard parseCode == READOSM_OK else { throw error(code: parseCode, path: path, format: format) }
        if format == .pbf, data.counts.nodes == 0, data.counts.ways > 0 {
            throw MapDataError.pbfWithoutDenseNodes(path: path, wayCount: data.counts.ways)
        }
        data.declaredBounds = DeclaredBounds.read(path: path, format: format)
        return data
    }

    /// The format of the OSM file at `path`, after the checks every read makes first: it exists, is not a
    /// directory, is uncompressed OSM PBF or XML with the matching suffix, and a PBF's blocks are within
    /// libreadosm's limits.
    /// - Throws: `MapDataError` naming what is wrong.
    static func checkedFormat(path: String) throws -> OSMFileFormat {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw MapDataError.fileNotFound(path: path)
        }
        if isDirectory.boolValue { throw MapDataError.unreadable(path: path, reason: "it is a directory") }
        let format = try OSMFileFormat.sniff(path: path)
        let lower = path.lowercased()
        switch format {
        case .gzip: throw MapDataError.compressedXML(path: path, compression: "gzip")
        case .bzip2: throw MapDataError.compressedXML(path: path, compression: "bzip2")
        case .other(let found): throw MapDataError.notOSM(path: path, found: found)
        case .pbf where !lower.hasSuffix(".pbf"):
            throw MapDataError.unsupportedSuffix(path: path, detectedFormat: "OSM PBF data")
        case .xml where !lower.hasSuffix(".osm"):
            throw MapDataError.unsupportedSuffix(path: path, detectedFormat: "OSM XML data")
        case .pbf, .xml: break
        }
        if format == .pbf { try OSMFileFormat.checkPBFBlockSizes(path: path) }
        return format
    }

    private static func error(code: Int32, path: String, format: OSMFileFormat) -> MapDataError {
        if format == .pbf, code == READOSM_INVALID_PBF_HEADER || code == READOSM_UNZIP_ERROR {
            let unsupported = OSMFileFormat.pbfBlobCompressions(path: path).subtracting(["zlib", "raw"])
            if !unsupported.isEmpty {
                return .unsupportedPBFCompression(path: path, compression: unsupported.sorted().joined(separator: ", "))
            }
            if let problem = OSMFileFormat.pbfFramingProblem(path: path) {
                return .readFailed(path: path, code: code, meaning: problem)
            }
        }
        if code == READOSM_FILE_NOT_FOUND { return .fileNotFound(path: path) }
        return .readFailed(path: path, code: code, meaning: meaning(of: code))
    }

    /// The `READOSM_*` error codes in words.
    static func meaning(of code: Int32) -> String {
        switch code {
        case READOSM_INVALID_SUFFIX: return "file name does not end in .osm or .pbf"
        case READOSM_FILE_NOT_FOUND: return "file not found or not readable"
        case READOSM_NULL_HANDLE, READOSM_INVALID_HANDLE: return "invalid handle"
        case READOSM_INSUFFICIENT_MEMORY: return "out of memory"
        case READOSM_CREATE_XML_PARSER_ERROR: return "cannot create the XML parser"
        case READOSM_READ_ERROR: return "read error: the file is truncated or unreadable"
        case READOSM_XML_ERROR: return "malformed OSM XML"
        case READOSM_INVALID_PBF_HEADER: return "invalid PBF block header: truncated, corrupt or unsupported PBF"
        case READOSM_UNZIP_ERROR: return "cannot decompress a PBF block: corrupt data"
        case READOSM_ABORT: return "parse aborted"
        default: return "unknown error"
        }
    }
}

/// The collector behind `user_data`.
@inline(__always)
private func collector(_ userData: UnsafeRawPointer?) -> OSMRawData? {
    guard let userData else { return nil }
    return Unmanaged<OSMRawData>.fromOpaque(userData).takeUnretainedValue()
}

private let onNode: readosm_node_callback = { userData, nodePointer in
    guard let data = collector(userData), let node = nodePointer?.pointee else { return READOSM_ABORT }
    let coordinate = OSMCoordinate(latitude: node.latitude, longitude: node.longitude)
    data.counts.nodes += 1
    data.counts.nodeTags += Int(max(node.tag_count, 0))
    data.coordinates[node.id] = coordinate
    OSMBoundingBox.grow(&data.boundingBox, toInclude: coordinate)
    let tags = CTagList(node.tags, node.tag_count)
    let isTree = tags.value("natural", is: "tree")
    if isTree { data.counts.treeNodes += 1 }
    // Only named nodes (candidate places), address points, trees and candidate street furniture are kept
    // with tags: their dictionaries are the only per-tag String allocations on the node path.
    if isTree || tags.has("name") || tags.has("addr:housenumber")
        || StreetFurnitureKind.candidateKeys.contains(where: { tags.has($0) }) {
        let dictionary = tags.dictionary()
        if dictionary["name"] != nil, PlaceCategory.classify(dictionary) != nil { data.counts.namedPlaceNodes += 1 }
        data.taggedNodes.append(RawNode(id: node.id, coordinate: coordinate, tags: dictionary))
    }
    return READOSM_OK
}

private let onWay: readosm_way_callback = { userData, wayPointer in
    guard let data = collector(userData), let way = wayPointer?.pointee else { return READOSM_ABORT }
    data.counts.ways += 1
    data.counts.wayTags += Int(max(way.tag_count, 0))
    data.counts.wayNodeReferences += Int(max(way.node_ref_count, 0))
    let tags = CTagList(way.tags, way.tag_count)
    if tags.hasNonNo("building") { data.counts.buildingWays += 1 }
    if tags.hasNonNo("building:part") { data.counts.buildingPartWays += 1 }
    if tags.has("highway") { data.counts.highwayWays += 1 }
    if tags.value("railway", isOneOf: ["tram", "rail", "light_rail", "subway"]) { data.counts.railwayWays += 1 }
    let nodeIDs: [Int64]
    if let refs = way.node_refs, way.node_ref_count > 0 {
        nodeIDs = Array(UnsafeBufferPointer(start: refs, count: Int(way.node_ref_count)))
    } else {
        nodeIDs = []
    }
    data.wayIndex[way.id] = data.ways.count
    data.ways.append(RawWay(id: way.id, nodeIDs: nodeIDs, tags: tags.dictionary()))
    return READOSM_OK
}

private let onRelation: readosm_relation_callback = { userData, relationPointer in
    guard let data = collector(userData), let relation = relationPointer?.pointee else { return READOSM_ABORT }
    data.counts.relations += 1
    data.counts.relationTags += Int(max(relation.tag_count, 0))
    data.counts.relationMembers += Int(max(relation.member_count, 0))
    let tags = CTagList(relation.tags, relation.tag_count)
    if tags.value("type", is: "boundary"), tags.value("boundary", is: "administrative"), tags.has("name") {
        data.boundaries.append(RawRelation(id: relation.id, members: [], tags: tags.dictionary()))
    }
    if tags.value("type", is: "building") {
        var members: [(element: OSMElementReference, role: String)] = []
        if let raw = relation.members, relation.member_count > 0 {
            for i in 0..<Int(relation.member_count) {
                let kind: OSMElementKind
                switch raw[i].member_type {
                case READOSM_MEMBER_WAY: kind = .way
                case READOSM_MEMBER_RELATION: kind = .relation
                default: continue
                }
                members.append((OSMElementReference(kind, raw[i].id), raw[i].role.map { String(cString: $0) } ?? ""))
            }
        }
        data.buildingRelations.append(RawBuildingRelation(id: relation.id, members: members, tags: tags.dictionary()))
        return READOSM_OK
    }
    guard tags.value("type", is: "multipolygon") else { return READOSM_OK }
    data.counts.multipolygonRelations += 1
    if tags.hasNonNo("building") { data.counts.buildingMultipolygonRelations += 1 }
    var members: [RawMember] = []
    if let raw = relation.members, relation.member_count > 0 {
        for i in 0..<Int(relation.member_count) where raw[i].member_type == READOSM_MEMBER_WAY {
            members.append(RawMember(wayID: raw[i].id, role: raw[i].role.map { String(cString: $0) } ?? ""))
        }
    }
    data.multipolygons.append(RawRelation(id: relation.id, members: members, tags: tags.dictionary()))
    return READOSM_OK
}
