import Geodesy

/// What to geocode: free text ("Aleksanterinkatu 52, Helsinki", "Stockmann", "00100 Helsinki") or its
/// structured parts (Nominatim's `street`, `city`, `postalcode`), or both.
public struct GeocodeQuery: Sendable, Hashable {
    /// Free text: a street address, a place or street name, a postcode or a locality, with or without
    /// the locality it is in ("…, Helsinki"), which narrows the answer.
    public var text: String?
    /// A street with or without its house number ("Aleksanterinkatu 52" or "52 Aleksanterinkatu").
    public var street: String?
    /// A house number, when not in `street`.
    public var houseNumber: String?
    /// The city or another locality (narrows the answer).
    public var city: String?
    /// The postcode (narrows the answer, or answers alone).
    public var postcode: String?
    /// Rank equally good results nearest first from here.
    public var near: GeoCoordinate?
    /// Show street and place names in this language (`name:xx`), falling back to `name`.
    public var language: String?
    /// At most this many results, 1…1000.
    public var limit: Int

    /// A query; at least `text`, `street`, `city` or `postcode` must be given.
    public init(text: String? = nil, street: String? = nil, houseNumber: String? = nil, city: String? = nil,
                postcode: String? = nil, near: GeoCoordinate? = nil, language: String? = nil, limit: Int = 10) {
        self.text = text
        self.street = street
        self.houseNumber = houseNumber
        self.city = city
        self.postcode = postcode
        self.near = near
        self.language = language
        self.limit = limit
    }

    /// The query as one line, for messages ("Aleksanterinkatu 52, Helsinki").
    public var description: String {
        [text, [street, houseNumber].compactMap { $0 }.joined(separator: " "), postcode, city]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
    }
}

/// One answer of forward geocoding.
public struct GeocodeResult: Sendable, Hashable, Codable {
    /// How precisely the coordinate locates what was asked for.
    public enum Precision: String, Sendable, Hashable, Codable {
        /// The building or entrance tagged with that house number.
        case house
        /// A house number interpolated along an `addr:interpolation` way.
        case interpolated
        /// A named place (shop, landmark, square, stop).
        case place
        /// A point on the street (no such house number, or none asked for).
        case street
        /// The middle of a postcode's addresses.
        case postcode
        /// A locality's centre (city, suburb, neighbourhood).
        case locality
        /// The coordinate the query wrote (``CoordinateText``: decimal, degrees-minutes-seconds, `geo:`, a map URL).
        case coordinate
        /// A panorama named by its id (or its file's name): its position.
        case panorama
        /// A capture sequence named by its name: its first panorama's position.
        case sequence
    }

    /// Where.
    public var coordinate: GeoCoordinate
    /// How precisely.
    public var precision: Precision
    /// What of the query matched: some of "house", "street", "place", "postcode", "locality".
    public var matched: [String]
    /// The short name: the place's name, "Aleksanterinkatu 52", "00100", "Kluuvi".
    public var name: String
    /// The full line: "Stockmann, Aleksanterinkatu 52, 00100 Helsinki".
    public var displayName: String
    /// The house number, street, postcode and city of the answer, where known.
    public var houseNumber: String?, street: String?, postcode: String?, city: String?
    /// The named place, for a place answer.
    public var place: CatalogPlace?
    /// The OSM element ("node/123", "way/45"), when one answers.
    public var osm: String?
    /// The locality kind (`city`, `suburb`…) for a locality answer.
    public var localityKind: String?
    /// The country's ISO code, lowercased ("fi"), when the extract's addresses give one.
    public var countryCode: String?
    /// How the name matched (exact, prefix, word prefix, substring, typo).
    public var kind: PlaceMatch.Kind
    /// The ranking score (higher is better): the name match's score, more for a house number found,
    /// less for a locality or postcode that disagrees with the query's.
    public var score: Int
    /// Distance from the query's `near`, metres.
    public var distanceMeters: Double?
    /// The panorama a `panorama` answer names, or a `sequence` answer's first panorama.
    public var panoramaID: String?

    /// An answer from its parts.
    public init(coordinate: GeoCoordinate, precision: Precision, matched: [String], name: String, displayName: String,
                houseNumber: String? = nil, street: String? = nil, postcode: String? = nil, city: String? = nil,
                place: CatalogPlace? = nil, osm: String? = nil, localityKind: String? = nil, countryCode: String? = nil,
                kind: PlaceMatch.Kind, score: Int, distanceMeters: Double? = nil, panoramaID: String? = nil) {
        self.coordinate = coordinate
        self.precision = precision
        self.matched = matched
        self.name = name
        self.displayName = displayName
        self.houseNumber = houseNumber
        self.street = street
        self.postcode = postcode
        self.city = city
        self.place = place
        self.osm = osm
        self.localityKind = localityKind
        self.countryCode = countryCode
        self.kind = kind
        self.score = score
        self.distanceMeters = distanceMeters
        self.panoramaID = panoramaID
    }
}

/// The answer of reverse geocoding: what is at a coordinate.
public struct ReverseGeocode: Sendable, Hashable, Codable {
    /// The coordinate asked about.
    public var coordinate: GeoCoordinate
    /// The nearest house number within the search radius, with its distance.
    public var address: CatalogAddress?
    public var addressDistanceMeters: Double?
    /// The nearest named street (in the requested language), with its distance.
    public var street: String?
    public var streetDistanceMeters: Double?
    /// The nearest suburb, quarter or neighbourhood (within 3 km).
    public var neighbourhood: String?
    /// The city: the address's `addr:city`, else the extract's most common one, else a `place=city`.
    public var city: String?
    /// The postcode of the nearest address.
    public var postcode: String?

    /// "Aleksanterinkatu 52, 00100 Helsinki" (a house), "Mikonkatu, Helsinki" (a street), "Helsinki".
    public var displayName: String {
        let first: String? = address.map { [$0.street ?? $0.place, $0.houseNumber].compactMap { $0 }.joined(separator: " ") } ?? street
        let last = [postcode, city].compactMap { $0 }.joined(separator: " ")
        return [first, neighbourhood.flatMap { $0 == city ? nil : $0 }, last.isEmpty ? nil : last]
            .compactMap { $0 }.joined(separator: ", ")
    }
}

/// A street near a point with its name in the language asked for: the one query the viewer's status
/// line, the snapshot's hit test, walk's route naming and reverse geocoding share.
public struct NamedStreet: Sendable, Hashable {
    /// The street (one OSM way).
    public var street: CatalogStreet
    /// Its name in the requested language, else `name`.
    public var name: String
    /// Distance from the point to the line, metres.
    public var distanceMeters: Double
}
