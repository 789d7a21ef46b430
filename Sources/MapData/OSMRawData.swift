/// A node kept with its tags (named or a tree); other nodes keep only their coordinate.
struct RawNode {
    var id: Int64
    var coordinate: OSMCoordinate
    var tags: [String: String]
}

/// A way: node ids, and tags when it had any.
struct RawWay {
    var id: Int64
    var nodeIDs: [Int64]
    var tags: [String: String]
}

/// A member way of a multipolygon relation.
struct RawMember {
    var wayID: Int64
    var role: String
}

/// A multipolygon relation: its way members and tags.
struct RawRelation {
    var id: Int64
    var members: [RawMember]
    var tags: [String: String]
}

/// A `type=building` relation (Simple 3D Buildings): its way and relation members with their roles
/// (`outline`, `part`), and its tags.
struct RawBuildingRelation {
    var id: Int64
    var members: [(element: OSMElementReference, role: String)]
    var tags: [String: String]
}

/// What the libreadosm callbacks collect: one mutable object, passed to them as `user_data`, used
/// from one thread only.
final class OSMRawData {
    var counts = OSMElementCounts()
    var coordinates = NodeCoordinateTable()
    var taggedNodes: [RawNode] = []
    /// Every way. ``FeatureAssembler/run()`` empties each tagged way's tags once its features are made
    /// (all but `addr:interpolation` ways): read tags in `addWay`, not after the run.
    var ways: [RawWay] = []
    var wayIndex: [Int64: Int] = [:]
    var multipolygons: [RawRelation] = []
    /// `type=building` relations.
    var buildingRelations: [RawBuildingRelation] = []
    /// Named `boundary=administrative` relations, tags only (their names are localities).
    var boundaries: [RawRelation] = []
    var boundingBox: OSMBoundingBox?
    /// The box the file declares (`<bounds>`, the PBF header's bbox), when it declares one.
    var declaredBounds: OSMBoundingBox?

    func way(_ id: Int64) -> RawWay? { wayIndex[id].map { ways[$0] } }
}
