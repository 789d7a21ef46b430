/// What a ``StreetFurniture`` node is, decided by the first matching rule in this order:
///
/// | kind | tags |
/// |---|---|
/// | `streetLamp` | `highway=street_lamp` |
/// | `trafficSignals` | `highway=traffic_signals`, `crossing=traffic_signals` on a `highway=crossing` |
/// | `tramStop` | `railway=tram_stop` |
/// | `busStop` | `highway=bus_stop` |
/// | `bench` | `amenity=bench`, `leisure=picnic_table` |
/// | `wasteBasket` | `amenity=waste_basket` |
/// | `bollard` | `barrier=bollard` |
/// | `fountain` | `amenity=fountain` |
/// | `statue` | `historic=memorial|monument` or `tourism=artwork` with `memorial=statue`, `artwork_type=statue|sculpture|bust` |
/// | `memorial` | other `historic=memorial|monument` (plaques, stones, obelisks) |
/// | `artwork` | other `tourism=artwork` |
public enum StreetFurnitureKind: String, Sendable, Hashable, Codable, CaseIterable {
    case streetLamp = "street_lamp"
    case trafficSignals = "traffic_signals"
    case tramStop = "tram_stop"
    case busStop = "bus_stop"
    case bench
    case wasteBasket = "waste_basket"
    case bollard
    case fountain
    case statue
    case memorial
    case artwork

    /// The kind for a node's tags, or nil when it is none of these.
    public static func classify(_ tags: [String: String]) -> StreetFurnitureKind? {
        let highway = tags["highway"], amenity = tags["amenity"]
        if highway == "street_lamp" { return .streetLamp }
        if highway == "traffic_signals" || (highway == "crossing" && tags["crossing"] == "traffic_signals") {
            return .trafficSignals
        }
        if tags["railway"] == "tram_stop" { return .tramStop }
        if highway == "bus_stop" { return .busStop }
        if amenity == "bench" || tags["leisure"] == "picnic_table" { return .bench }
        if amenity == "waste_basket" { return .wasteBasket }
        if tags["barrier"] == "bollard" { return .bollard }
        if amenity == "fountain" { return .fountain }
        let historic = tags["historic"]
        let isMemorial = historic == "memorial" || historic == "monument"
        let isArtwork = tags["tourism"] == "artwork"
        if isMemorial || isArtwork {
            let statueTypes: Set<String> = ["statue", "sculpture", "bust"]
            if statueTypes.contains(tags["memorial"] ?? "") || statueTypes.contains(tags["artwork_type"] ?? "") { return .statue }
            return isMemorial ? .memorial : .artwork
        }
        return nil
    }

    /// Whether a node's tags may make street furniture: a cheap key test for the reader, which keeps
    /// the tags of only these nodes (and named ones, and trees).
    static let candidateKeys: [StaticString] = ["highway", "railway", "amenity", "barrier", "historic", "tourism", "leisure"]
}

/// A piece of street furniture mapped as an OSM node: a street lamp, bench, stop, signal, bollard,
/// waste basket, statue, memorial, artwork or fountain.
public struct StreetFurniture: Sendable, Hashable, Codable {
    /// The node.
    public var source: OSMElementReference
    /// What it is.
    public var kind: StreetFurnitureKind
    /// Where it stands.
    public var position: OSMCoordinate
    /// `name`, when tagged.
    public var name: String?
    /// `height` in metres, when tagged and parsable.
    public var heightMeters: Double?
    /// `direction` in degrees clockwise from north (compass letters converted), when tagged: where a
    /// bench's sitter, a stop's shelter opening or a signal face looks.
    public var directionDegrees: Double?
    /// `shelter=yes` on a stop (or `covered=yes`).
    public var hasShelter: Bool
    /// `bench=yes` on a stop.
    public var hasBench: Bool

    /// A piece of furniture from its parts.
    public init(source: OSMElementReference, kind: StreetFurnitureKind, position: OSMCoordinate, name: String? = nil,
                heightMeters: Double? = nil, directionDegrees: Double? = nil, hasShelter: Bool = false, hasBench: Bool = false) {
        self.source = source
        self.kind = kind
        self.position = position
        self.name = name
        self.heightMeters = heightMeters
        self.directionDegrees = directionDegrees
        self.hasShelter = hasShelter
        self.hasBench = hasBench
    }
}

/// A hedge (`barrier=hedge` way, open or closed): a line of shrubs.
public struct Hedge: Sendable, Hashable, Codable {
    /// The way.
    public var source: OSMElementReference
    /// The line, at least 2 points (a closed way repeats its first point at the end).
    public var points: [OSMCoordinate]
    /// `height` in metres, when tagged and parsable.
    public var heightMeters: Double?

    /// A hedge from its way and points.
    public init(source: OSMElementReference, points: [OSMCoordinate], heightMeters: Double? = nil) {
        self.source = source
        self.points = points
        self.heightMeters = heightMeters
    }
}
