import Geodesy
import MapData

/// A house number as the catalog keeps it: the ``MapData/AddressPoint`` an index run read from its OSM
/// files (the one type that says what an address is), under its row id and at its validated coordinate.
/// The point's fields read through: `address.street` is `address.point.street`.
///
/// Its JSON (`lookaround geocode --reverse --json`) is one flat object, as it was when this type had
/// fields of its own: `id`, `osm` ("way/123"), the point's `houseNumber` … `country`, `coordinate`
/// and `isInterpolated` (``GeocodeCLITests`` pins it).
@dynamicMemberLookup
public struct CatalogAddress: Sendable, Hashable {
    /// Row id, 1…n.
    public var id: Int
    /// The address as OSM tags it.
    public var point: AddressPoint
    /// Where (the point's position, validated): the node, the building's centroid, or the interpolated point.
    public let coordinate: GeoCoordinate

    /// The row `id` of `point`, or nil when its position is not a valid coordinate.
    public init?(id: Int, point: AddressPoint) {
        guard let coordinate = try? GeoCoordinate(latitude: point.position.latitude, normalizingLongitude: point.position.longitude)
        else { return nil }
        self.id = id
        self.point = point
        self.coordinate = coordinate
    }

    /// The point's fields.
    public subscript<Value>(dynamicMember field: KeyPath<AddressPoint, Value>) -> Value { point[keyPath: field] }

    /// The OSM element, e.g. "way/123" (the interpolation way for an interpolated number).
    public var osm: String { point.source.description }
}

extension CatalogAddress: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, osm, houseNumber, street, place, postcode, city, unit, country, coordinate, isInterpolated
    }

    public init(from decoder: any Decoder) throws {
        let row = try decoder.container(keyedBy: CodingKeys.self)
        let osm = try row.decode(String.self, forKey: .osm)
        guard let source = OSMElementReference(osm) else {
            throw DecodingError.dataCorruptedError(forKey: .osm, in: row, debugDescription: "'\(osm)' is not node/N, way/N or relation/N")
        }
        let coordinate = try row.decode(GeoCoordinate.self, forKey: .coordinate)
        let point = AddressPoint(source: source, houseNumber: try row.decode(String.self, forKey: .houseNumber),
                                 street: try row.decodeIfPresent(String.self, forKey: .street),
                                 place: try row.decodeIfPresent(String.self, forKey: .place),
                                 postcode: try row.decodeIfPresent(String.self, forKey: .postcode),
                                 city: try row.decodeIfPresent(String.self, forKey: .city),
                                 unit: try row.decodeIfPresent(String.self, forKey: .unit),
                                 country: try row.decodeIfPresent(String.self, forKey: .country),
                                 position: OSMCoordinate(latitude: coordinate.latitude, longitude: coordinate.longitude),
                                 isInterpolated: try row.decode(Bool.self, forKey: .isInterpolated))
        id = try row.decode(Int.self, forKey: .id)
        self.point = point
        self.coordinate = coordinate
    }

    public func encode(to encoder: any Encoder) throws {
        var row = encoder.container(keyedBy: CodingKeys.self)
        try row.encode(id, forKey: .id)
        try row.encode(osm, forKey: .osm)
        try row.encode(point.houseNumber, forKey: .houseNumber)
        try row.encodeIfPresent(point.street, forKey: .street)
        try row.encodeIfPresent(point.place, forKey: .place)
        try row.encodeIfPresent(point.postcode, forKey: .postcode)
        try row.encodeIfPresent(point.city, forKey: .city)
        try row.encodeIfPresent(point.unit, forKey: .unit)
        try row.encodeIfPresent(point.country, forKey: .country)
        try row.encode(coordinate, forKey: .coordinate)
        try row.encode(point.isInterpolated, forKey: .isInterpolated)
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
