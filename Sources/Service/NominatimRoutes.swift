import Catalog
import Foundation
import Geodesy

/// Nominatim-compatible geocoding: `GET /search` and `GET /reverse` with Nominatim's parameters and
/// field names and types (strings for `lat`, `lon` and `boundingbox`, `display_name`, `address` parts,
/// `licence`), so geocoding clients written for Nominatim (geopy, Leaflet Control Geocoder, QGIS) work
/// unchanged against the extract's addresses.
struct NominatimRoutes: RouteFamily {
    let catalog: Catalog

    var routes: [Route] {
        // Nominatim answers `/search.php` and `/reverse.php` too (its older URLs, which some clients still use).
        [Route(.get, PathPattern("/search"), label: "nominatim_search", parameters: Self.searchParameters, .answer { try search($0) }),
         Route(.get, PathPattern("/search.php"), label: "nominatim_search", parameters: Self.searchParameters, .answer { try search($0) }),
         Route(.get, PathPattern("/reverse"), label: "nominatim_reverse", parameters: Self.reverseParameters, .answer { try reverse($0) }),
         Route(.get, PathPattern("/reverse.php"), label: "nominatim_reverse", parameters: Self.reverseParameters, .answer { try reverse($0) })]
    }

    /// The licence line Nominatim answers carry.
    static let nominatimLicence = "Data © OpenStreetMap contributors, ODbL 1.0. https://osm.org/copyright"

    /// The formats `format=` takes.
    enum NominatimFormat: String, CaseIterable { case json, jsonv2, geojson, geocodejson }

    /// The parameters of `/search` and `/reverse` (Nominatim's; the ones that only shape Nominatim's own
    /// output, such as `polygon_geojson`, are taken and have no effect).
    static let searchParameters = ["q", "street", "city", "county", "state", "country", "postalcode", "amenity", "format",
                                            "limit", "addressdetails", "accept-language", "viewbox", "bounded", "countrycodes",
                                            "layer", "featuretype", "extratags", "namedetails", "dedupe", "email", "debug",
                                            "polygon_geojson", "polygon_kml", "polygon_svg", "polygon_text", "exclude_place_ids"]
    static let reverseParameters = ["lat", "lon", "zoom", "format", "addressdetails", "accept-language", "layer",
                                             "extratags", "namedetails", "email", "debug", "polygon_geojson", "polygon_kml",
                                             "polygon_svg", "polygon_text"]

    /// `GET /search`: forward geocoding.
    func search(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let query = QueryParameters(request: request)
        let format = try nominatimFormat(query)
        let text = query.string("q")
        let structured = ["street", "city", "county", "state", "country", "postalcode", "amenity"].contains { query.string($0) != nil }
        if text != nil, structured {
            throw .invalidParameter(parameter: "q", message: "give either q or the structured parameters (street, city, postalcode…), not both")
        }
        guard !(text ?? "").trimmingCharacters(in: .whitespaces).isEmpty || structured else {
            throw .invalidParameter(parameter: "q", message: "q is missing or empty; give an address such as q=Aleksanterinkatu 52, Helsinki, "
                                    + "or street=, city=, postalcode=")
        }
        let viewbox = try Self.viewbox(query)
        let bounded = try query.choice("bounded", ["0", "1"]) == "1"
        if bounded && viewbox == nil { throw .invalidParameter(parameter: "bounded", message: "bounded=1 needs a viewbox") }
        let limit = try query.int("limit", in: 1...40) ?? 10
        let language = Self.language(query.string("accept-language") ?? request.headers["accept-language"])
        var geocode = GeocodeQuery(text: text ?? query.string("amenity"), street: query.string("street"), city: query.string("city"),
                                   postcode: query.string("postalcode"), near: viewbox?.center, language: language,
                                   limit: bounded ? 1000 : limit)
        if let countries = query.string("countrycodes").map(Self.codes), !countries.isEmpty {
            let known: Set<String>
            do { known = try catalog.countryCodes() } catch { throw QueryParameters.translate(error) }
            // The extract's addresses say their country (addr:country); none of the codes asked for: nothing.
            if !known.isEmpty, known.isDisjoint(with: countries) {
                return nominatimAnswer([], format: format, query: geocode, details: true)
            }
        }
        if geocode.text == nil && geocode.street == nil && geocode.postcode == nil { geocode.text = geocode.city; geocode.city = nil }
        var answers: [GeocodeResult]
        do { answers = try catalog.geocode(geocode) } catch { throw QueryParameters.translate(error) }
        if bounded, let viewbox {
            answers = Array(answers.filter { viewbox.contains($0.coordinate) }.prefix(limit))
        }
        let details = try query.choice("addressdetails", ["0", "1"]).map { $0 == "1" } ?? (format != .json && format != .jsonv2)
        return nominatimAnswer(answers, format: format, query: geocode, details: details)
    }

    /// `GET /reverse`: the address at a point.
    func reverse(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let query = QueryParameters(request: request)
        let format = try nominatimFormat(query)
        guard let point = try query.latitudeLongitude() else {
            throw .invalidParameter(parameter: "lat", message: "lat and lon are needed, e.g. lat=60.16845&lon=24.94205")
        }
        let zoom = try query.int("zoom", in: 0...18) ?? 18
        let language = Self.language(query.string("accept-language") ?? request.headers["accept-language"])
        var answer: ReverseGeocode
        do { answer = try catalog.reverseGeocode(point, language: language) } catch { throw QueryParameters.translate(error) }
        // Nominatim's zoom: 18 a building, 16–17 a street, 10–15 a suburb or city.
        if zoom < 18 { answer.address = nil; answer.addressDistanceMeters = nil }
        if zoom < 16 { answer.street = nil; answer.streetDistanceMeters = nil }
        let details = try query.choice("addressdetails", ["0", "1"]).map { $0 == "1" } ?? true
        guard let result = reverseResult(answer, zoom: zoom) else {
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("error", "Unable to geocode")
            writer.endObject()
            return .json(writer.bytes)
        }
        switch format {
        case .json, .jsonv2:
            var writer = JSONWriter(capacity: 1024)
            write(result, format: format, details: details, to: &writer)
            return .json(writer.bytes)
        case .geojson, .geocodejson:
            return nominatimAnswer([result], format: format, query: GeocodeQuery(text: "\(point.latitude),\(point.longitude)"), details: details)
        }
    }

    // MARK: Answers

    private func nominatimAnswer(_ answers: [GeocodeResult], format: NominatimFormat, query: GeocodeQuery, details: Bool) -> HTTPResponse {
        var writer = JSONWriter(capacity: 1024 * max(1, answers.count))
        switch format {
        case .json, .jsonv2:
            writer.beginArray()
            for answer in answers { write(answer, format: format, details: details, to: &writer) }
            writer.endArray()
        case .geojson:
            writer.beginObject()
            writer.field("type", "FeatureCollection")
            writer.field("licence", Self.nominatimLicence)
            writer.key("features")
            writer.beginArray()
            for answer in answers {
                beginFeature(&writer)
                writeIdentity(answer, to: &writer)
                writer.field("place_rank", Self.placeRank(answer))
                writer.field("category", Self.category(answer).category)
                writer.field("type", Self.category(answer).type)
                writer.field("importance", Self.importance(answer))
                writer.field("addresstype", Self.addressType(answer))
                writer.field("name", answer.name)
                writer.field("display_name", answer.displayName)
                if details { writeAddress(answer, to: &writer) }
                writer.endObject()
                writer.key("bbox")
                writer.beginArray()
                for value in Self.box(answer) { writer.value(value) }
                writer.endArray()
                writePoint(answer.coordinate, to: &writer)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        case .geocodejson:
            writer.beginObject()
            writer.field("type", "FeatureCollection")
            writer.key("geocoding")
            writer.beginObject()
            writer.field("version", "0.1.0")
            writer.field("attribution", Self.nominatimLicence)
            writer.field("licence", "ODbL")
            writer.field("query", query.description)
            writer.endObject()
            writer.key("features")
            writer.beginArray()
            for answer in answers {
                beginFeature(&writer)
                writer.key("geocoding")
                writer.beginObject()
                writeIdentity(answer, to: &writer)
                writer.field("osm_key", Self.category(answer).category)
                writer.field("osm_value", Self.category(answer).type)
                writer.field("type", Self.geocodeJSONType(answer))
                writer.field("label", answer.displayName)
                writer.field("name", answer.name)
                writer.field("housenumber", answer.houseNumber)
                writer.field("street", answer.street)
                writer.field("postcode", answer.postcode)
                writer.field("city", answer.city)
                writer.endObject()
                writer.endObject()
                writePoint(answer.coordinate, to: &writer)
                writer.endObject()
            }
            writer.endArray()
            writer.endObject()
        }
        return .json(writer.bytes)
    }

    /// `{"type":"Feature","properties":{` of a GeoJSON feature.
    private func beginFeature(_ writer: inout JSONWriter) {
        writer.beginObject()
        writer.field("type", "Feature")
        writer.key("properties")
        writer.beginObject()
    }

    /// `place_id`, `osm_type` and `osm_id`: who an answer is, in every format.
    private func writeIdentity(_ answer: GeocodeResult, to writer: inout JSONWriter) {
        let (type, id) = Self.osmElement(answer.osm)
        writer.field("place_id", Self.placeID(answer))
        writer.field("osm_type", type)
        if let id { writer.field("osm_id", id) }
    }

    /// One result in Nominatim's `json` / `jsonv2` shape (lat, lon and boundingbox as strings).
    private func write(_ answer: GeocodeResult, format: NominatimFormat, details: Bool, to writer: inout JSONWriter) {
        let category = Self.category(answer)
        writer.beginObject()
        writeIdentity(answer, to: &writer)
        writer.field("licence", Self.nominatimLicence)
        writer.field("lat", String(answer.coordinate.latitude))
        writer.field("lon", String(answer.coordinate.longitude))
        writer.field(format == .jsonv2 ? "category" : "class", category.category)
        writer.field("type", category.type)
        if format == .jsonv2 { writer.field("place_rank", Self.placeRank(answer)) }
        writer.field("importance", Self.importance(answer))
        writer.field("addresstype", Self.addressType(answer))
        writer.field("name", answer.name)
        writer.field("display_name", answer.displayName)
        if details { writeAddress(answer, to: &writer) }
        writer.key("boundingbox")
        writer.beginArray()
        let box = Self.box(answer)
        for value in [box[1], box[3], box[0], box[2]] { writer.value(String(value)) }
        writer.endArray()
        writer.endObject()
    }

    private func writeAddress(_ answer: GeocodeResult, to writer: inout JSONWriter) {
        writer.key("address")
        writer.beginObject()
        if answer.precision == .place { writer.field(Self.addressType(answer), answer.name) }
        writer.field("house_number", answer.houseNumber)
        writer.field("road", answer.street)
        if answer.precision == .locality, answer.localityKind != "city", answer.localityKind != "town" {
            writer.field(answer.localityKind == "neighbourhood" ? "neighbourhood" : "suburb", answer.name)
        }
        writer.field("city", answer.city)
        writer.field("postcode", answer.postcode)
        if let code = answer.countryCode {
            writer.field("country_code", code)
        }
        writer.endObject()
    }

    private func writePoint(_ coordinate: GeoCoordinate, to writer: inout JSONWriter) {
        writer.key("geometry")
        writer.beginObject()
        writer.field("type", "Point")
        writer.key("coordinates")
        writer.beginArray()
        writer.value(coordinate.longitude)
        writer.value(coordinate.latitude)
        writer.endArray()
        writer.endObject()
    }

    /// A reverse answer as a forward one (the same writers), or nil when nothing is there.
    private func reverseResult(_ answer: ReverseGeocode, zoom: Int) -> GeocodeResult? {
        if let address = answer.address {
            return GeocodeResult(coordinate: address.coordinate, precision: address.isInterpolated ? .interpolated : .house,
                                 matched: ["house"], name: [address.street ?? address.place, address.houseNumber].compactMap { $0 }.joined(separator: " "),
                                 displayName: answer.displayName, houseNumber: address.houseNumber, street: address.street ?? answer.street,
                                 postcode: address.postcode, city: answer.city, osm: address.osm, kind: .exact, score: 0)
        }
        if let street = answer.street {
            return GeocodeResult(coordinate: answer.coordinate, precision: .street, matched: ["street"], name: street,
                                 displayName: answer.displayName, street: street, postcode: answer.postcode, city: answer.city,
                                 kind: .exact, score: 0)
        }
        if let city = answer.neighbourhood ?? answer.city {
            return GeocodeResult(coordinate: answer.coordinate, precision: .locality, matched: ["locality"], name: city,
                                 displayName: answer.displayName, city: answer.city, localityKind: answer.neighbourhood == nil ? "city" : "suburb",
                                 kind: .exact, score: 0)
        }
        return nil
    }

    // MARK: Nominatim's vocabulary

    private func nominatimFormat(_ query: QueryParameters) throws(ServiceError) -> NominatimFormat {
        // Nominatim's own default (since 4.4) is jsonv2; `xml` is not served.
        let name = try query.choice("format", NominatimFormat.allCases.map(\.rawValue)) ?? "jsonv2"
        return NominatimFormat(rawValue: name) ?? .jsonv2
    }

    /// The first language of an `Accept-Language` list ("sv-FI,sv;q=0.9,en" → "sv").
    static func language(_ header: String?) -> String? {
        guard let first = header?.split(separator: ",").first?.split(separator: ";").first else { return nil }
        let code = first.split(separator: "-").first.map { String($0).trimmingCharacters(in: .whitespaces).lowercased() }
        return code.flatMap { $0.isEmpty || $0 == "*" ? nil : $0 }
    }

    static func codes(_ text: String) -> [String] {
        text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    /// `viewbox=x1,y1,x2,y2` (longitude, latitude of two corners, in any order).
    static func viewbox(_ query: QueryParameters) throws(ServiceError) -> CoordinateRegion? {
        guard let text = query.string("viewbox") else { return nil }
        let numbers = text.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard numbers.count == 4, numbers.allSatisfy(\.isFinite), (-180...180).contains(numbers[0]), (-180...180).contains(numbers[2]),
              (-90...90).contains(numbers[1]), (-90...90).contains(numbers[3]),
              let region = try? CoordinateRegion(north: max(numbers[1], numbers[3]), south: min(numbers[1], numbers[3]),
                                                 west: min(numbers[0], numbers[2]), east: max(numbers[0], numbers[2])) else {
            throw .invalidParameter(parameter: "viewbox", message: "viewbox '\(text)' is not x1,y1,x2,y2 (longitude, latitude of two corners)")
        }
        return region
    }

    /// "way/122595241" → ("way", 122595241).
    static func osmElement(_ osm: String?) -> (type: String, id: Int?) {
        guard let osm, let slash = osm.firstIndex(of: "/") else { return ("node", nil) }
        return (String(osm[..<slash]), Int(osm[osm.index(after: slash)...]))
    }

    /// A stable number per answer: the element's type and id, and the house number for interpolated ones.
    static func placeID(_ answer: GeocodeResult) -> Int {
        let (type, id) = osmElement(answer.osm)
        let prefix = ["node": 1, "way": 2, "relation": 3][type] ?? 4
        let base = prefix * 100_000_000_000 + (id ?? abs(answer.displayName.hashValue % 100_000_000_000))
        return answer.precision == .interpolated ? base * 10 + (Int(answer.houseNumber ?? "") ?? 0) % 10 : base
    }

    static func category(_ answer: GeocodeResult) -> (category: String, type: String) {
        switch answer.precision {
        case .house, .interpolated: ("place", "house")
        case .street: ("highway", "residential")
        case .postcode: ("place", "postcode")
        case .locality: (answer.localityKind == "boundary" ? "boundary" : "place", answer.localityKind ?? "city")
        case .place: (answer.place?.categoryGroup.rawValue ?? "amenity", answer.place?.category ?? "yes")
        }
    }

    static func addressType(_ answer: GeocodeResult) -> String {
        switch answer.precision {
        case .house, .interpolated: "building"
        case .street: "road"
        case .postcode: "postcode"
        case .locality: answer.localityKind ?? "city"
        case .place: answer.place?.categoryGroup.rawValue ?? "amenity"
        }
    }

    static func placeRank(_ answer: GeocodeResult) -> Int {
        switch answer.precision {
        case .house, .interpolated, .place: 30
        case .street: 26
        case .postcode: 21
        case .locality: answer.localityKind == "city" || answer.localityKind == "town" ? 16 : 20
        }
    }

    static func importance(_ answer: GeocodeResult) -> Double { (Double(max(0, min(1200, answer.score))) / 1200 * 1000).rounded() / 1000 }

    static func geocodeJSONType(_ answer: GeocodeResult) -> String {
        switch answer.precision {
        case .house, .interpolated: "house"
        case .street: "street"
        case .postcode: "postcode"
        case .locality: answer.localityKind == "city" || answer.localityKind == "town" ? "city" : "district"
        case .place: "poi"
        }
    }

    /// [west, south, east, north] around the answer: a point's 10 m, a street's or locality's wider.
    static func box(_ answer: GeocodeResult) -> [Double] {
        let meters: Double = switch answer.precision {
        case .house, .interpolated, .place: 10
        case .street: 150
        case .postcode: 500
        case .locality: 1500
        }
        let dLat = meters / WGS84.metersPerDegreeOfArc
        let dLon = dLat / max(0.01, cos(answer.coordinate.latitude * .pi / 180))
        let round = { (value: Double) in (value * 1e7).rounded() / 1e7 }
        return [round(answer.coordinate.longitude - dLon), round(answer.coordinate.latitude - dLat),
                round(answer.coordinate.longitude + dLon), round(answer.coordinate.latitude + dLat)]
    }
}
