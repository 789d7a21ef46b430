import Catalog
import Geodesy
import MapData

/// A place on the map, like MapKit's `MKMapItem`: name, category, coordinate, address, phone, URL.
public struct MapItem: Sendable, Hashable, Codable {
    /// The name (in the requested language, else the local name).
    public var name: String
    /// The category, e.g. "cafe" (MapKit: `pointOfInterestCategory`).
    public var category: String
    /// The coarse group, e.g. "food".
    public var categoryGroup: PlaceGroup
    /// The position (MapKit: `placemark.coordinate`).
    public var coordinate: GeoCoordinate
    /// The postal address, when tagged.
    public var address: PostalAddress?
    /// The phone number, as tagged.
    public var phoneNumber: String?
    /// The website (MapKit: `url`), when tagged and a valid URL string.
    public var url: String?
    /// The OSM element it came from, e.g. `node/123`.
    public var identifier: String

    /// An item from its parts.
    public init(name: String, category: String, categoryGroup: PlaceGroup, coordinate: GeoCoordinate,
                address: PostalAddress? = nil, phoneNumber: String? = nil, url: String? = nil, identifier: String) {
        self.name = name
        self.category = category
        self.categoryGroup = categoryGroup
        self.coordinate = coordinate
        self.address = address
        self.phoneNumber = phoneNumber
        self.url = url
        self.identifier = identifier
    }

    /// An item for a catalog place, named in `language` when it has that name.
    public init(place: CatalogPlace, language: String? = nil) {
        self.init(name: place.name(in: language), category: place.category, categoryGroup: place.categoryGroup,
                  coordinate: place.coordinate, address: place.address, phoneNumber: place.phone, url: place.website,
                  identifier: place.osm)
    }
}
