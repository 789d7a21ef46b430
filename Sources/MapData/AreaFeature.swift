/// A flat area drawn on the ground: square, park, grass, water…
public struct AreaFeature: Sendable, Hashable, Codable {
    /// The closed way or multipolygon relation it was made from.
    public var source: OSMElementReference
    /// What it is.
    public var kind: AreaKind
    /// `name`, when tagged.
    public var name: String?
    /// Names by language from `name:xx`.
    public var names: [String: String]
    /// The area: one polygon for a way, one or more (with holes) for a multipolygon.
    public var polygons: [OSMPolygon]
    /// For woods, parks and other planted areas, the leaf type the tags state or imply (`leaf_type`,
    /// `wood`, `genus`, `species`; see ``LeafType``), nil when they say nothing.
    public var leafType: LeafType?

    /// An area from its parts.
    public init(source: OSMElementReference, kind: AreaKind, name: String? = nil, names: [String: String] = [:],
                polygons: [OSMPolygon], leafType: LeafType? = nil) {
        self.source = source
        self.kind = kind
        self.name = name
        self.names = names
        self.polygons = polygons
        self.leafType = leafType
    }
}
