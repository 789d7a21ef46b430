import Foundation
import Geodesy

extension Catalog {
    /// Forward geocoding: addresses, streets, places, postcodes and localities matching the query,
    /// best first (see ``GeocodingIndex`` for how text is read and ranked).
    /// - Throws: `CatalogError.invalidParameter` for a limit outside 1…1000 or a query with nothing to look for.
    public func geocode(_ query: GeocodeQuery) throws(CatalogError) -> [GeocodeResult] {
        guard (1...1000).contains(query.limit) else {
            throw .invalidParameter(name: "limit", value: "\(query.limit)", allowed: "1…1000")
        }
        guard [query.text, query.street, query.city, query.postcode].contains(where: { !($0 ?? "").trimmingCharacters(in: .whitespaces).isEmpty })
        else {
            throw .invalidParameter(name: "q", value: "\"\"", allowed: "an address, a street, a place, a postcode or a locality")
        }
        // What the text names by itself (a coordinate, a panorama id, a sequence) comes first, with or
        // without map data; a coordinate is the whole answer.
        let direct = try query.text.map { text throws(CatalogError) in try directAnswers(to: text, near: query.near, limit: query.limit) } ?? []
        if direct.first?.precision == .coordinate { return direct }
        let (places, index) = try geocodingIndexes()
        var query = query
        while true {
            let answers = index.geocode(query, places: places)
            // A trailing part the extract does not know ("…, Tampere", "…, Finland") narrows nothing: without it.
            guard answers.isEmpty, let text = query.text, let comma = text.lastIndex(of: ",") else {
                return Array(Self.merged(direct, answers, score: \.score).prefix(query.limit))
            }
            query.text = String(text[..<comma])
        }
    }

    /// The best answer for a place given by name or address wherever one is asked for (`--near`,
    /// `walk --from`, `location=`, `near=`): "Senaatintori", "Aleksanterinkatu 52, Helsinki", "00100".
    /// - Throws: `CatalogError.placeNotFound` when nothing matches.
    public func locate(_ text: String, language: String?) throws -> GeocodeResult {
        guard let best = try geocode(GeocodeQuery(text: text, language: language, limit: 1)).first else {
            throw CatalogError.placeNotFound(name: text)
        }
        return best
    }

    /// The countries the catalog's addresses are in (`addr:country`, lowercased ISO 3166-1 codes).
    public func countryCodes() throws(CatalogError) -> Set<String> { try geocodingIndexes().geocoding.countryCodes }

    /// Reverse geocoding: the nearest house number within `radiusMeters`, the nearest named street
    /// within `streetRadiusMeters` (names in `language`; 0: no street asked for), the neighbourhood and the city.
    /// - Throws: `CatalogError.invalidParameter` for a radius outside 0…10,000 m.
    public func reverseGeocode(_ coordinate: GeoCoordinate, radiusMeters: Double = 100, streetRadiusMeters: Double = 60,
                               language: String? = nil) throws(CatalogError) -> ReverseGeocode {
        guard radiusMeters.isFinite, SceneRequest.radiusRange.contains(radiusMeters) else {
            throw .invalidParameter(name: "radiusMeters", value: "\(radiusMeters)", allowed: "0…10000 metres")
        }
        let street = streetRadiusMeters > 0 ? try namedStreet(near: coordinate, radiusMeters: streetRadiusMeters, language: language) : nil
        return try geocodingIndexes().geocoding.reverse(coordinate, radiusMeters: radiusMeters, street: street)
    }

    /// The nearest street with a name within `radiusMeters` of `coordinate`, named in `language` (else
    /// `name`). `preferring` a name (folded) picks that street among those in range (a sequence named
    /// after its street keeps its name at crossings); `accepting` drops streets, e.g. those whose
    /// carriageway does not reach the point.
    /// - Throws: `CatalogError.invalidParameter` for a radius outside 0…10,000 m.
    public func namedStreet(near coordinate: GeoCoordinate, radiusMeters: Double, language: String?, preferring: String? = nil,
                            accepting: (CatalogStreet, Double) -> Bool = { _, _ in true }) throws(CatalogError) -> NamedStreet? {
        let named = try streets(near: coordinate, radiusMeters: radiusMeters)
            .filter { $0.street.name != nil && accepting($0.street, $0.distanceMeters) }
        let preferred = preferring.map(TextFolding.fold).flatMap { wanted in
            named.first { TextFolding.fold($0.street.name!) == wanted }
        }
        guard let (street, distance) = preferred ?? named.first else { return nil }
        return NamedStreet(street: street, name: language.flatMap { street.names[$0] } ?? street.name!, distanceMeters: distance)
    }

    /// Two ranked lists as one: each list's order kept, an element of `first` before those of `second`
    /// whose `score` it is not below.
    static func merged<T>(_ first: [T], _ second: [T], score: (T) -> Int) -> [T] {
        var result: [T] = [], i = 0, j = 0
        result.reserveCapacity(first.count + second.count)
        while i < first.count || j < second.count {
            if j == second.count || (i < first.count && score(first[i]) >= score(second[j])) {
                result.append(first[i])
                i += 1
            } else {
                result.append(second[j])
                j += 1
            }
        }
        return result
    }
}
