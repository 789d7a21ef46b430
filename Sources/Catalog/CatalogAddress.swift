import Geodesy
import MapData

/// A house number as the catalog keeps it (``MapData/AddressPoint`` from the index run's OSM files).
public struct CatalogAddress: Sendable, Hashable, Codable {
    /// Row id, 1…n.
    public var id: Int
    /// The OSM element, e.g. "way/123" (the interpolation way for an interpolated number).
    public var osm: String
    /// `addr:housenumber` as tagged ("52", "12a", "12-14").
    public var houseNumber: String
    /// `addr:street`.
    public var street: String?
    /// `addr:place` (an address on a square or a quarter rather than a street).
    public var place: String?
    /// `addr:postcode`.
    public var postcode: String?
    /// `addr:city`.
    public var city: String?
    /// `addr:unit`.
    public var unit: String?
    /// `addr:country`, e.g. "FI".
    public var country: String?
    /// Where: the node, the building's centroid, or the interpolated point.
    public var coordinate: GeoCoordinate
    /// True for a number interpolated along an `addr:interpolation` way.
    public var isInterpolated: Bool

    /// An address from its parts.
    public init(id: Int, osm: String, houseNumber: String, street: String?, place: String?, postcode: String?, city: String?,
                unit: String?, country: String? = nil, coordinate: GeoCoordinate, isInterpolated: Bool) {
        self.id = id
        self.osm = osm
        self.houseNumber = houseNumber
        self.street = street
        self.place = place
        self.postcode = postcode
        self.city = city
        self.unit = unit
        self.country = country
        self.coordinate = coordinate
        self.isInterpolated = isInterpolated
    }

    /// "Aleksanterinkatu 52, 00100 Helsinki".
    public var formatted: String {
        let first = [street ?? place, houseNumber].compactMap { $0 }.joined(separator: " ")
        let last = [postcode, city].compactMap { $0 }.joined(separator: " ")
        return [first, last].filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// A named locality as the catalog keeps it: a `place=*` node or an administrative boundary's name.
public struct CatalogLocality: Sendable, Hashable, Codable {
    /// Row id, 1…n.
    public var id: Int
    /// The OSM element.
    public var osm: String
    /// `name`.
    public var name: String
    /// `name:xx` by language.
    public var names: [String: String]
    /// `city`, `suburb`, `neighbourhood`… or `boundary`.
    public var kind: String
    /// The node's position; nil for a boundary.
    public var coordinate: GeoCoordinate?

    /// A locality from its parts.
    public init(id: Int, osm: String, name: String, names: [String: String], kind: String, coordinate: GeoCoordinate?) {
        self.id = id
        self.osm = osm
        self.name = name
        self.names = names
        self.kind = kind
        self.coordinate = coordinate
    }
}

/// What an index run keeps for geocoding from its OSM files: house numbers and localities.
struct Gazetteer: Sendable {
    var addresses: [AddressPoint] = []
    var localities: [Locality] = []
}
