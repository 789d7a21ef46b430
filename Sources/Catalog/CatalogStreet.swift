import Geodesy
import MapData

/// A street (an OSM `highway=*` line) as the catalog stores it.
public struct CatalogStreet: Sendable, Hashable, Codable {
    /// The catalog's id for the street.
    public var id: Int
    /// The OSM element, e.g. `way/123`.
    public var osm: String
    /// The `name` tag, when tagged.
    public var name: String?
    /// Names by language code from `name:xx`.
    public var names: [String: String]
    /// The OSM `highway` value of its class (`pedestrian`, `living_street`, `footway`…; `_link` roads
    /// as their main class).
    public var highwayClass: HighwayClass
    /// The line, in node order.
    public var points: [GeoCoordinate]
}
