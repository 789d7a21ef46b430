/// Raw counts of what libreadosm delivered, made in the callbacks before any assembly. They use the
/// same definitions as `scripts/osm_counts.py` (pyosmium), so the two can be compared exactly.
public struct OSMElementCounts: Sendable, Hashable, Codable {
    /// All nodes.
    public var nodes = 0
    /// All ways.
    public var ways = 0
    /// All relations.
    public var relations = 0
    /// Tags on nodes, ways and relations.
    public var nodeTags = 0, wayTags = 0, relationTags = 0
    /// Node references of all ways.
    public var wayNodeReferences = 0
    /// Members of all relations.
    public var relationMembers = 0
    /// Ways with a `building` tag other than `building=no`.
    public var buildingWays = 0
    /// Ways with a `building:part` tag other than `no`.
    public var buildingPartWays = 0
    /// Relations with `type=multipolygon`.
    public var multipolygonRelations = 0
    /// Relations with `type=multipolygon` and a `building` tag other than `no`.
    public var buildingMultipolygonRelations = 0
    /// Ways with a `highway` tag.
    public var highwayWays = 0
    /// Ways with `railway=tram|rail|light_rail|subway`.
    public var railwayWays = 0
    /// Nodes with `natural=tree`.
    public var treeNodes = 0
    /// Nodes with a `name` and a place category (see `PlaceCategory.classify`).
    public var namedPlaceNodes = 0

    /// All zero.
    public init() {}

    /// The counts as a dictionary with the snake_case keys `scripts/osm_counts.py` prints.
    public var dictionary: [String: Int] {
        [
            "nodes": nodes, "ways": ways, "relations": relations,
            "node_tags": nodeTags, "way_tags": wayTags, "relation_tags": relationTags,
            "way_node_references": wayNodeReferences, "relation_members": relationMembers,
            "building_ways": buildingWays, "building_part_ways": buildingPartWays,
            "multipolygon_relations": multipolygonRelations,
            "building_multipolygon_relations": buildingMultipolygonRelations,
            "highway_ways": highwayWays, "railway_ways": railwayWays,
            "tree_nodes": treeNodes, "named_place_nodes": namedPlaceNodes,
        ]
    }
}
