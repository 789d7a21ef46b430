/// A building or building part, ready to extrude: footprint polygons, bottom and top heights.
public struct Building: Sendable, Hashable, Codable {
    /// The closed way or multipolygon relation it was made from.
    public var source: OSMElementReference
    /// True for a `building:part` (a section with its own heights, drawn instead of the outline
    /// where parts exist), false for a `building` outline.
    public var isPart: Bool
    /// The `building` value ("yes", "apartments", "church"…), or the `building:part` value for parts.
    public var buildingType: String
    /// Footprint: one polygon for a way; one or more (with holes) for a multipolygon.
    public var footprint: [OSMPolygon]
    /// Top above ground, meters (see `BuildingHeightRules`).
    public var heightMeters: Double
    /// Bottom above ground, meters; 0 for buildings standing on the ground.
    public var minHeightMeters: Double
    /// Which rule gave `heightMeters`.
    public var heightSource: BuildingHeightSource
    /// `building:levels`, when tagged.
    public var levels: Double?
    /// `name`, when tagged.
    public var name: String?
    /// Names by language (`name:xx`).
    public var names: [String: String]
    /// The address, when tagged on the building.
    public var address: PostalAddress?
    /// `building:colour` as tagged (e.g. "#ffffff" or "white").
    public var colour: String?
    /// `roof:colour` as tagged.
    public var roofColour: String?
    /// `roof:shape` as tagged ("flat", "hipped", "gabled"…).
    public var roofShape: String?

    /// A building from its parts.
    public init(source: OSMElementReference, isPart: Bool, buildingType: String, footprint: [OSMPolygon],
                heightMeters: Double, minHeightMeters: Double, heightSource: BuildingHeightSource,
                levels: Double? = nil, name: String? = nil, names: [String: String] = [:],
                address: PostalAddress? = nil, colour: String? = nil, roofColour: String? = nil,
                roofShape: String? = nil) {
        self.source = source
        self.isPart = isPart
        self.buildingType = buildingType
        self.footprint = footprint
        self.heightMeters = heightMeters
        self.minHeightMeters = minHeightMeters
        self.heightSource = heightSource
        self.levels = levels
        self.name = name
        self.names = names
        self.address = address
        self.colour = colour
        self.roofColour = roofColour
        self.roofShape = roofShape
    }

    /// The vertical size, meters: `heightMeters - minHeightMeters`, never negative.
    public var extrusionMeters: Double { Swift.max(0, heightMeters - minHeightMeters) }
}
