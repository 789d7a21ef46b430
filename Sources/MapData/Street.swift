/// A street, path or other `highway=*` line (not a highway area: those become `AreaFeature`s).
public struct Street: Sendable, Hashable, Codable {
    /// The way it was made from. A way clipped at the extract's edge in several places gives several
    /// `Street`s with the same source.
    public var source: OSMElementReference
    /// The `highway` class.
    public var highwayClass: HighwayClass
    /// True for `*_link` ramps and connectors.
    public var isLink: Bool
    /// `name`, when tagged.
    public var name: String?
    /// Names by language from `name:xx`, e.g. `["sv": "Alexandersgatan"]`, and the other names it is known
    /// by under their keys (`alt_name`, `old_name`, `official_name`, `short_name`).
    public var names: [String: String]
    /// `lanes`, when tagged as one whole number.
    public var lanes: Int?
    /// `width` in meters, when tagged and parsable.
    public var widthMeters: Double?
    /// Allowed travel direction relative to `points`.
    public var oneway: OnewayDirection
    /// Sidewalks tagged on the street, when tagged.
    public var sidewalk: SidewalkSides?
    /// `footway=*` on footways ("sidewalk", "crossing"), when tagged.
    public var footwayType: String?
    /// `surface`, when tagged ("asphalt", "paving_stones", "sett"…).
    public var surface: String?
    /// `layer` (0 when untagged or unparsable): vertical order of crossing ways.
    public var layer: Int
    /// `bridge=*` other than `no`.
    public var isBridge: Bool
    /// `tunnel=*` other than `no`, or `covered=yes`.
    public var isTunnel: Bool
    /// The line, in node order, at least 2 points.
    public var points: [OSMCoordinate]

    /// A street from its parts.
    public init(source: OSMElementReference, highwayClass: HighwayClass, isLink: Bool = false, name: String? = nil,
                names: [String: String] = [:], lanes: Int? = nil, widthMeters: Double? = nil,
                oneway: OnewayDirection = .both, sidewalk: SidewalkSides? = nil, footwayType: String? = nil,
                surface: String? = nil, layer: Int = 0, isBridge: Bool = false, isTunnel: Bool = false,
                points: [OSMCoordinate]) {
        self.source = source
        self.highwayClass = highwayClass
        self.isLink = isLink
        self.name = name
        self.names = names
        self.lanes = lanes
        self.widthMeters = widthMeters
        self.oneway = oneway
        self.sidewalk = sidewalk
        self.footwayType = footwayType
        self.surface = surface
        self.layer = layer
        self.isBridge = isBridge
        self.isTunnel = isTunnel
        self.points = points
    }

    /// The Swedish name (`name:sv`), when tagged.
    public var swedishName: String? { names["sv"] }
}
