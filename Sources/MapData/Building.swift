/// A building or building part, ready to extrude: footprint polygons, bottom and top heights.
public struct Building: Sendable, Hashable, Codable {
    /// The closed way or multipolygon relation it was made from.
    public var source: OSMElementReference
    /// True for a `building:part` (a section with its own heights, drawn instead of the outline
    /// where parts exist), false for a `building` outline.
    public var isPart: Bool
    /// True for an element tagged both `building` and `building:part` (other than `no`): an outline
    /// for 2D maps that Simple 3D Buildings renderers also draw as a part, never replaced by others.
    public var isAlsoPart: Bool = false
    /// The `type=building` relation (Simple 3D Buildings) it is an `outline` or `part` member of; nil
    /// for buildings not in one. The relation's roles decide what is outline and what is part
    /// (``isPart``), and its parts belong to its outlines whether or not they lie inside them.
    public var buildingRelation: Int64?
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
    /// `roof:height`, meters from the top of the walls to the top of the roof (part of `heightMeters`).
    public var roofHeightMeters: Double?
    /// `roof:angle`, degrees from the horizontal (an alternative to `roof:height`).
    public var roofAngleDegrees: Double?
    /// `roof:levels`, the storeys inside the roof.
    public var roofLevels: Double?
    /// `roof:direction` in degrees clockwise from north (compass letters converted): the direction a
    /// roof's main face looks towards (downhill for a skillion).
    public var roofDirectionDegrees: Double?
    /// `roof:orientation`: "along" (ridge parallel to the longer side) or "across".
    public var roofOrientation: String?
    /// `building:material` as tagged ("brick", "glass", "concrete"…).
    public var material: String?
    /// `roof:material` as tagged ("copper", "roof_tiles", "metal"…).
    public var roofMaterial: String?

    /// A building from its parts.
    public init(source: OSMElementReference, isPart: Bool, buildingType: String, footprint: [OSMPolygon],
                heightMeters: Double, minHeightMeters: Double, heightSource: BuildingHeightSource,
                levels: Double? = nil, name: String? = nil, names: [String: String] = [:],
                address: PostalAddress? = nil, colour: String? = nil, roofColour: String? = nil,
                roofShape: String? = nil, roofHeightMeters: Double? = nil, roofAngleDegrees: Double? = nil,
                roofLevels: Double? = nil, roofDirectionDegrees: Double? = nil, roofOrientation: String? = nil,
                material: String? = nil, roofMaterial: String? = nil) {
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
        self.roofHeightMeters = roofHeightMeters
        self.roofAngleDegrees = roofAngleDegrees
        self.roofLevels = roofLevels
        self.roofDirectionDegrees = roofDirectionDegrees
        self.roofOrientation = roofOrientation
        self.material = material
        self.roofMaterial = roofMaterial
    }

    /// The vertical size, meters: `heightMeters - minHeightMeters`, never negative.
    public var extrusionMeters: Double { Swift.max(0, heightMeters - minHeightMeters) }
}
