import Foundation
import Geodesy

/// Forward and reverse geocoding over the catalog's addresses, streets, places and localities, in memory
/// (loaded once per ``Catalog``, like place search).
///
/// **Streets** are keyed by their folded name: a street's OSM ways, every name they carry (`name`,
/// `name:sv`, `alt_name`, `old_name`…) and the house numbers whose `addr:street` (or `addr:place`) is that
/// name are one entry, so "Alexandersgatan 52" finds the number tagged on "Aleksanterinkatu".
///
/// **Free text** is read as: postcodes (five digits), a house number ("52", "12a", "12-14", "52 B"),
/// locality names ("Helsinki", "Helsingfors", a suburb), and the rest, a name. The name is matched
/// (``NameMatcher``: folded, typo-tolerant) against streets, places and localities; a house number is
/// looked up on the matched streets (exactly, then inside ranges such as "12-14"); a locality or postcode
/// in the query narrows the answers (a different city's counts less; one without a city is unaffected).
struct GeocodingIndex: Sendable {
    struct StreetEntry: Sendable {
        var name: String
        var names: [String: String] = [:]
        var aliases: [String] = []
        var points: [GeoCoordinate] = []
        var addresses: [Int] = []
        var matcher = NameMatcher(names: [])
    }

    struct LocalityEntry: Sendable {
        var locality: CatalogLocality
        var matcher: NameMatcher
    }

    let addresses: [CatalogAddress]
    private(set) var streets: [StreetEntry] = []
    private(set) var localities: [LocalityEntry] = []
    /// Folded locality names and cities (the words a query's locality part is made of), each with the
    /// folded primary names it stands for ("helsingfors" → ["helsinki"]).
    private(set) var localityNames: [String: Set<String>] = [:]
    /// Address indices by postcode.
    private(set) var postcodes: [String: [Int]] = [:]
    /// The most common `addr:city`, the city of an address without one.
    private(set) var dominantCity: String?
    /// The countries of the addresses (`addr:country`, lowercased ISO codes).
    private(set) var countryCodes: Set<String> = []

    init(addresses: [CatalogAddress], streets namedStreets: [CatalogStreet], localities: [CatalogLocality]) {
        self.addresses = addresses
        var byKey: [String: Int] = [:]
        func entry(_ name: String) -> Int {
            let key = TextFolding.fold(name)
            if let index = byKey[key] { return index }
            byKey[key] = streets.count
            streets.append(StreetEntry(name: name))
            return streets.count - 1
        }
        for street in namedStreets {
            guard let name = street.name else { continue }
            let i = entry(name)
            streets[i].points += street.points
            streets[i].aliases += street.names.values
            streets[i].names.merge(street.names) { old, _ in old }
        }
        var cityCounts: [String: Int] = [:]
        for (index, address) in addresses.enumerated() {
            if let name = address.street ?? address.place { streets[entry(name)].addresses.append(index) }
            if let postcode = address.postcode { postcodes[postcode, default: []].append(index) }
            if let city = address.city { cityCounts[city, default: 0] += 1 }
            if let country = address.country { countryCodes.insert(country.lowercased()) }
        }
        for i in streets.indices {
            var seen = Set<String>()
            streets[i].aliases = ([streets[i].name] + streets[i].aliases.sorted()).filter { seen.insert($0).inserted }
            streets[i].matcher = NameMatcher(names: streets[i].aliases)
        }
        dominantCity = cityCounts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        self.localities = localities.map { LocalityEntry(locality: $0, matcher: NameMatcher(names: [$0.name] + $0.names.values.sorted())) }
        for locality in localities {
            let primary = TextFolding.fold(locality.name)
            for name in [locality.name] + Array(locality.names.values) { localityNames[TextFolding.fold(name), default: []].insert(primary) }
        }
        for city in cityCounts.keys { localityNames[TextFolding.fold(city), default: []].insert(TextFolding.fold(city)) }
        localityNames[""] = nil
    }

    // MARK: Reading the query

    /// A query taken apart.
    struct ParsedQuery {
        var name = ""
        var houseNumber: String?
        var postcode: String?
        var localities: [String] = []
    }

    /// "12", "12a", "12-14", "12a-c", "3/5".
    static func isHouseNumber(_ token: Substring) -> Bool {
        guard let first = token.first, first.isASCII, first.isNumber, token.count <= 12 else { return false }
        return token.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || "-–/".contains($0) }
            && token.filter(\.isLetter).count <= 3
    }

    /// A house number as compared: lowercase, without spaces ("52 B" → "52b").
    static func normalizedNumber(_ text: String) -> String {
        String(text.lowercased().filter { !$0.isWhitespace }).replacingOccurrences(of: "–", with: "-")
    }

    func parse(_ query: GeocodeQuery) -> ParsedQuery {
        var parsed = ParsedQuery()
        var words: [String] = []
        func read(_ text: String, numbers: Bool) {
            let tokens = text.split { $0.isWhitespace || $0 == "," }
            var k = 0
            while k < tokens.count {
                let token = tokens[k]
                if token.count == 5, token.allSatisfy({ $0.isASCII && $0.isNumber }), postcodes.isEmpty || postcodes[String(token)] != nil
                    || parsed.houseNumber != nil {
                    parsed.postcode = String(token)
                } else if numbers, Self.isHouseNumber(token) {
                    var number = String(token)
                    // "52 B": a lone letter after the number belongs to it.
                    if k + 1 < tokens.count, tokens[k + 1].count == 1, tokens[k + 1].first!.isLetter {
                        number += tokens[k + 1]
                        k += 1
                    }
                    if let earlier = parsed.houseNumber { words.append(earlier) }
                    parsed.houseNumber = number
                } else {
                    words += TextFolding.fold(String(token)).split(separator: " ").map(String.init)
                }
                k += 1
            }
        }
        if let text = query.text { read(text, numbers: true) }
        if let street = query.street { read(street, numbers: true) }
        if let number = query.houseNumber { parsed.houseNumber = number }
        if let postcode = query.postcode { parsed.postcode = postcode.trimmingCharacters(in: .whitespaces) }
        if let city = query.city { parsed.localities.append(TextFolding.fold(city)) }
        // Locality words (one or two words) come off the name while some name is left.
        // With a postcode or a house number the rest may be a locality alone ("00100 Helsinki").
        let keep = parsed.postcode != nil || parsed.houseNumber != nil ? 0 : 1
        var k = words.count - 1
        while k >= 0, words.count > keep {
            if k > 0, localityNames[words[k - 1] + " " + words[k]] != nil, words.count > keep + 1 {
                parsed.localities.append(words[k - 1] + " " + words[k])
                words.removeSubrange((k - 1)...k)
                k -= 2
            } else if localityNames[words[k]] != nil {
                parsed.localities.append(words[k])
                words.remove(at: k)
                k -= 1
            } else {
                k -= 1
            }
            k = min(k, words.count - 1)
        }
        parsed.name = words.joined(separator: " ")
        return parsed
    }

    // MARK: Forward

    func geocode(_ query: GeocodeQuery, places: PlaceSearchIndex) -> [GeocodeResult] {
        let parsed = parse(query)
        var results: [GeocodeResult] = []
        let name = NameMatcher.Query(folded: parsed.name)
        if !name.isEmpty {
            for entry in streets {
                guard let match = entry.matcher.match(name) else { continue }
                results += streetResults(entry, match: match, parsed: parsed, language: query.language)
            }
            // The best places by name; more than asked for, as streets and houses rank among them.
            let placeQuery = PlaceSearchQuery(text: parsed.name, near: query.near, language: query.language, limit: max(50, query.limit * 4))
            for match in places.search(placeQuery) {
                var result = placeResult(match)
                if let number = parsed.houseNumber, let tagged = match.place.address?.houseNumber {
                    // A number asked for: a place whose own number agrees is a good answer, others are not
                    // what was meant (a stop named after the street).
                    result.score += Self.normalizedNumber(tagged) == Self.normalizedNumber(number) ? 100 : -200
                } else if parsed.houseNumber != nil {
                    result.score -= 200
                }
                results.append(result)
            }
            for entry in localities {
                guard let match = entry.matcher.match(name), let coordinate = entry.locality.coordinate else { continue }
                results.append(localityResult(entry.locality, coordinate: coordinate, match: match, language: query.language))
            }
        } else if let postcode = parsed.postcode, let members = postcodes[postcode] {
            let points = members.map { addresses[$0].coordinate }
            let city = members.lazy.compactMap { addresses[$0].city }.first ?? dominantCity
            results.append(GeocodeResult(coordinate: Self.centre(of: points), precision: .postcode, matched: ["postcode"], name: postcode,
                                         displayName: [postcode, city].compactMap { $0 }.joined(separator: " "), postcode: postcode,
                                         city: city, kind: .exact, score: 1000))
        } else if let locality = parsed.localities.first {
            let wanted = NameMatcher.Query(folded: locality)
            for entry in localities {
                guard let match = entry.matcher.match(wanted), let coordinate = entry.locality.coordinate else { continue }
                results.append(localityResult(entry.locality, coordinate: coordinate, match: match, language: query.language))
            }
        }
        for i in results.indices {
            narrow(&results[i], by: parsed, near: query.near)
            // One country in the extract: every answer is in it.
            if countryCodes.count == 1 { results[i].countryCode = countryCodes.first }
        }
        results.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            if let da = a.distanceMeters, let db = b.distanceMeters, da != db { return da < db }
            return (a.displayName.count, a.displayName, a.osm ?? "") < (b.displayName.count, b.displayName, b.osm ?? "")
        }
        var seen = Set<String>()
        // One answer per house (a building and its entrances carry the same number), per street and per
        // locality; places of the same name stay apart.
        results = results.filter { result in
            let key = result.precision == .place ? result.osm ?? result.displayName : result.displayName
            return seen.insert("\(result.precision)|\(key)").inserted
        }
        return Array(results.prefix(max(0, query.limit)))
    }

    /// The house on a matched street, or the street itself.
    private func streetResults(_ entry: StreetEntry, match: NameMatcher.Match, parsed: ParsedQuery, language: String?) -> [GeocodeResult] {
        let streetName = language.flatMap { entry.names[$0] } ?? entry.name
        if let number = parsed.houseNumber.map(Self.normalizedNumber) {
            var found = entry.addresses.filter { Self.normalizedNumber(addresses[$0].houseNumber) == number }
            if found.isEmpty { found = entry.addresses.filter { Self.range(addresses[$0].houseNumber, contains: number) } }
            if !found.isEmpty {
                // Several elements may carry one number (the building and its entrances): prefer the one whose
                // postcode or city agrees, then the building (a way) over a node, then the lowest id.
                return found.map { index in
                    let address = addresses[index]
                    let line = "\(streetName) \(address.houseNumber)"
                    return GeocodeResult(coordinate: address.coordinate, precision: address.isInterpolated ? .interpolated : .house,
                                         matched: ["house", "street"], name: line,
                                         displayName: [line, [address.postcode, address.city ?? dominantCity].compactMap { $0 }.joined(separator: " ")]
                                            .filter { !$0.isEmpty }.joined(separator: ", "),
                                         houseNumber: address.houseNumber, street: streetName, postcode: address.postcode,
                                         city: address.city ?? dominantCity, osm: address.osm, kind: match.kind,
                                         score: match.score + 200 - (address.osm.hasPrefix("way/") ? 0 : 1))
                }
            }
        }
        let points = entry.points.isEmpty ? entry.addresses.map { addresses[$0].coordinate } : entry.points
        guard !points.isEmpty else { return [] }
        let centre = Self.centre(of: points)
        let point = points.min { Self.planeDistance($0, centre) < Self.planeDistance($1, centre) }!
        let postcode = entry.addresses.lazy.compactMap { addresses[$0].postcode }.first
        let city = entry.addresses.lazy.compactMap { addresses[$0].city }.first ?? dominantCity
        return [GeocodeResult(coordinate: point, precision: .street, matched: ["street"], name: streetName,
                              displayName: [streetName, [postcode, city].compactMap { $0 }.joined(separator: " ")]
                                .filter { !$0.isEmpty }.joined(separator: ", "),
                              street: streetName, postcode: postcode, city: city, kind: match.kind,
                              // A number asked for and not found: still the street, below a house elsewhere.
                              score: match.score - (parsed.houseNumber == nil ? 0 : 150))]
    }

    private func placeResult(_ match: PlaceMatch) -> GeocodeResult {
        let place = match.place
        let address = place.address
        let line = [address?.street, address?.houseNumber].compactMap { $0 }.joined(separator: " ")
        let city = address?.city ?? dominantCity
        let tail = [line, [address?.postcode, city].compactMap { $0 }.joined(separator: " ")].filter { !$0.isEmpty }
        // A stop is usually named after the landmark beside it: the landmark first (as place search ranks).
        let stop = place.categoryGroup == .transport ? 1 : 0
        return GeocodeResult(coordinate: place.coordinate, precision: .place, matched: ["place"], name: match.displayName,
                             displayName: ([match.displayName] + tail).joined(separator: ", "),
                             houseNumber: address?.houseNumber, street: address?.street, postcode: address?.postcode, city: city,
                             place: place, osm: place.osm, kind: match.kind, score: match.score - stop,
                             distanceMeters: match.distanceMeters)
    }

    private func localityResult(_ locality: CatalogLocality, coordinate: GeoCoordinate, match: NameMatcher.Match,
                                language: String?) -> GeocodeResult {
        let name = language.flatMap { locality.names[$0] } ?? locality.name
        let city = locality.kind == "city" || locality.kind == "town" ? name : dominantCity
        return GeocodeResult(coordinate: coordinate, precision: .locality, matched: ["locality"], name: name,
                             displayName: [name, city == name ? nil : city].compactMap { $0 }.joined(separator: ", "),
                             city: city, osm: locality.osm, localityKind: locality.kind, kind: match.kind,
                             // A city or town outranks a station or a shop of the same name.
                             score: match.score + (city == name ? 10 : 0))
    }

    /// A locality or postcode in the query that the answer's disagrees with lowers it; one that agrees raises it.
    private func narrow(_ result: inout GeocodeResult, by parsed: ParsedQuery, near: GeoCoordinate?) {
        if let postcode = parsed.postcode, result.precision != .postcode {
            if let own = result.postcode { result.score += own == postcode ? 60 : -300 }
            if !result.matched.contains("postcode"), result.postcode == postcode { result.matched.append("postcode") }
        }
        if !parsed.localities.isEmpty, result.precision != .locality {
            let own = result.city.map(TextFolding.fold)
            // The answer's city by any of its names ("Helsingfors" is Helsinki's name:sv).
            let agrees = own.map { city in parsed.localities.contains { $0 == city || localityNames[$0]?.contains(city) == true } } ?? false
            if agrees {
                result.score += 40
                result.matched.append("locality")
            } else if own != nil, !parsed.localities.contains(where: { localityNames[$0] != nil }) {
                result.score -= 300
            }
        }
        if let near, result.distanceMeters == nil {
            result.distanceMeters = Geodesic.wgs84.inverse(from: near, to: result.coordinate).distanceMeters
        }
    }

    /// Whether a tagged range ("12-14", "3/5", "12a-c") holds `number` (a normalized plain number).
    static func range(_ tagged: String, contains number: String) -> Bool {
        let parts = normalizedNumber(tagged).split(whereSeparator: { $0 == "-" || $0 == "/" })
        guard parts.count == 2, let low = Int(parts[0].prefix { $0.isNumber }), let target = Int(number) else {
            return false
        }
        let high = Int(parts[1].prefix { $0.isNumber }) ?? low
        return (min(low, high)...max(low, high)).contains(target)
    }

    // MARK: Reverse

    func reverse(_ coordinate: GeoCoordinate, radiusMeters: Double, street: NamedStreet?) -> ReverseGeocode {
        var answer = ReverseGeocode(coordinate: coordinate)
        var best: (index: Int, distance: Double)?
        let scale = cos(coordinate.latitude * .pi / 180)
        let degrees = radiusMeters / WGS84.metersPerDegreeOfArc
        for (index, address) in addresses.enumerated() {
            let dLat = address.coordinate.latitude - coordinate.latitude
            let dLon = (address.coordinate.longitude - coordinate.longitude) * scale
            guard abs(dLat) <= degrees, abs(dLon) <= degrees else { continue }
            let distance = Geodesic.wgs84.inverse(from: coordinate, to: address.coordinate).distanceMeters
            if distance <= radiusMeters, best.map({ distance < $0.distance }) ?? true { best = (index, distance) }
        }
        if let best {
            answer.address = addresses[best.index]
            answer.addressDistanceMeters = best.distance
            answer.postcode = addresses[best.index].postcode
        }
        answer.street = street?.name
        answer.streetDistanceMeters = street?.distanceMeters
        var nearest: (name: String, distance: Double)?
        var city: (name: String, distance: Double)?
        for entry in localities {
            guard let position = entry.locality.coordinate else { continue }
            let distance = Geodesic.wgs84.inverse(from: coordinate, to: position).distanceMeters
            if ["city", "town"].contains(entry.locality.kind) {
                if city.map({ distance < $0.distance }) ?? true { city = (entry.locality.name, distance) }
            } else if distance <= 3000, nearest.map({ distance < $0.distance }) ?? true {
                nearest = (entry.locality.name, distance)
            }
        }
        answer.neighbourhood = nearest?.name
        // Far from everything the extract holds (no house, street or neighbourhood, no city within 20 km): no city either.
        let isNear = answer.address != nil || street != nil || nearest != nil || (city?.distance ?? .infinity) <= 20_000
        answer.city = isNear ? answer.address?.city ?? dominantCity ?? city?.name : nil
        return answer
    }

    // MARK: Geometry

    static func centre(of points: [GeoCoordinate]) -> GeoCoordinate {
        let latitude = points.map(\.latitude).reduce(0, +) / Double(points.count)
        let longitude = points.map(\.longitude).reduce(0, +) / Double(points.count)
        return (try? GeoCoordinate(latitude: latitude, longitude: longitude)) ?? points[0]
    }

    static func planeDistance(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        let dLon = (a.longitude - b.longitude) * cos(a.latitude * .pi / 180)
        return (a.latitude - b.latitude) * (a.latitude - b.latitude) + dLon * dLon
    }
}

extension ReverseGeocode {
    init(coordinate: GeoCoordinate) { self.coordinate = coordinate }
}
