import Geodesy
import MapData

/// A place (point of interest) as the catalog stores it, from the OSM source.
public struct CatalogPlace: Sendable, Hashable, Codable {
    /// The catalog's id for the place.
    public var id: Int
    /// The OSM element, e.g. `node/123`.
    public var osm: String
    /// The `name` tag (the local name).
    public var name: String
    /// Names by language code from `name:xx` (without `name` itself).
    public var names: [String: String]
    /// Category name, e.g. "cafe" (see MapData's `PlaceCategory`).
    public var category: String
    /// Coarse group, e.g. `.food` (JSON: its name, "food").
    public var categoryGroup: PlaceGroup
    /// The address, when tagged.
    public var address: PostalAddress?
    /// Phone, as tagged.
    public var phone: String?
    /// Website, as tagged.
    public var website: String?
    /// Opening hours, OSM syntax.
    public var openingHours: String?
    /// Position.
    public var coordinate: GeoCoordinate

    /// The name in `language`, falling back to `name`.
    public func name(in language: String?) -> String { language.flatMap { names[$0] } ?? name }
}
