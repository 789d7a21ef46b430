/// The `highway=*` class of a street or path. `_link` values map to their main class (with
/// `Street.isLink` set); values not listed here become `.other` with the raw value.
public enum HighwayClass: Sendable, Hashable {
    /// `motorway`
    case motorway
    /// `trunk`
    case trunk
    /// `primary`
    case primary
    /// `secondary`
    case secondary
    /// `tertiary`
    case tertiary
    /// `unclassified` (minor public road)
    case unclassified
    /// `residential`
    case residential
    /// `living_street`
    case livingStreet
    /// `service` (access roads, alleys, parking aisles)
    case service
    /// `pedestrian` (pedestrian street; as an area it becomes a square instead)
    case pedestrian
    /// `footway` (including sidewalks drawn as ways: `footway=sidewalk`)
    case footway
    /// `cycleway`
    case cycleway
    /// `path`
    case path
    /// `steps`
    case steps
    /// `track`
    case track
    /// `bridleway`
    case bridleway
    /// `corridor` (indoor passage)
    case corridor
    /// `platform` (a bus or tram platform drawn as a way)
    case platform
    /// `construction` (road being built)
    case construction
    /// Any other value, as tagged (e.g. "trail", "elevator").
    case other(String)

    /// The class for a `highway` value, and whether it was a `_link` road.
    public static func parse(_ value: String) -> (highwayClass: HighwayClass, isLink: Bool) {
        if value.hasSuffix("_link") {
            let main = HighwayClass(tagValue: String(value.dropLast(5)))
            if case .other = main { return (.other(value), false) }
            return (main, true)
        }
        return (HighwayClass(tagValue: value), false)
    }

    /// The OSM `highway` value this class stands for (the inverse of ``init(tagValue:)``).
    public var tagValue: String {
        switch self {
        case .motorway: return "motorway"
        case .trunk: return "trunk"
        case .primary: return "primary"
        case .secondary: return "secondary"
        case .tertiary: return "tertiary"
        case .unclassified: return "unclassified"
        case .residential: return "residential"
        case .livingStreet: return "living_street"
        case .service: return "service"
        case .pedestrian: return "pedestrian"
        case .footway: return "footway"
        case .cycleway: return "cycleway"
        case .path: return "path"
        case .steps: return "steps"
        case .track: return "track"
        case .bridleway: return "bridleway"
        case .corridor: return "corridor"
        case .platform: return "platform"
        case .construction: return "construction"
        case .other(let value): return value
        }
    }

    /// The class for a `highway` value without `_link` handling.
    public init(tagValue: String) {
        switch tagValue {
        case "motorway": self = .motorway
        case "trunk": self = .trunk
        case "primary": self = .primary
        case "secondary": self = .secondary
        case "tertiary": self = .tertiary
        case "unclassified": self = .unclassified
        case "residential": self = .residential
        case "living_street": self = .livingStreet
        case "service": self = .service
        case "pedestrian": self = .pedestrian
        case "footway": self = .footway
        case "cycleway": self = .cycleway
        case "path": self = .path
        case "steps": self = .steps
        case "track": self = .track
        case "bridleway": self = .bridleway
        case "corridor": self = .corridor
        case "platform": self = .platform
        case "construction": self = .construction
        default: self = .other(tagValue)
        }
    }

    /// The usual width of a way of this class when it has no `width` or `lanes`, metres: the
    /// carriageway the simulator builds, and twice the half-width hit testing takes for a street.
    public var defaultWidthMeters: Double {
        switch self {
        case .motorway, .trunk: 14
        case .primary: 12
        case .secondary: 10
        case .tertiary: 9
        case .residential, .unclassified: 7.5
        case .livingStreet: 6
        case .service: 4.5
        case .pedestrian: 8
        case .cycleway: 2
        case .footway, .path, .steps, .platform, .bridleway, .track, .corridor: 2.5
        case .construction, .other: 3
        }
    }

    /// True for roads meant for motor traffic (motorway … service, living streets).
    public var isRoad: Bool {
        switch self {
        case .motorway, .trunk, .primary, .secondary, .tertiary, .unclassified, .residential, .livingStreet,
             .service:
            return true
        default:
            return false
        }
    }
}

extension HighwayClass: Codable, CustomStringConvertible {
    /// Encoded as its OSM tag value ("residential", "living_street"), as catalogs and JSON answers write it.
    public init(from decoder: any Decoder) throws {
        self.init(stored: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(tagValue)
    }

    /// The class a catalog stored by its tag value; "livingStreet" is how catalogs indexed before the
    /// tag value was stored wrote living streets.
    public init(stored value: String) { self.init(tagValue: value == "livingStreet" ? "living_street" : value) }

    /// The tag value.
    public var description: String { tagValue }
}
