/// A single tree (`natural=tree` node).
public struct Tree: Sendable, Hashable, Codable {
    /// The node.
    public var source: OSMElementReference
    /// Where it stands.
    public var position: OSMCoordinate
    /// `height` in meters, when tagged and parsable.
    public var heightMeters: Double?
    /// `species` or `genus` (or `species:fi`…), when tagged.
    public var species: String?
    /// The leaf type its tags state or imply (`leaf_type`, `genus`, `species`; see ``LeafType``), nil
    /// when they say nothing.
    public var leafType: LeafType?

    /// A tree from its parts.
    public init(source: OSMElementReference, position: OSMCoordinate, heightMeters: Double? = nil,
                species: String? = nil, leafType: LeafType? = nil) {
        self.source = source
        self.position = position
        self.heightMeters = heightMeters
        self.species = species
        self.leafType = leafType
    }
}
