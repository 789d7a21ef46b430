import ArgumentParsing
import Catalog
import Foundation
import Geodesy

/// A STAC item search (`/api/search`, GET or POST) as parsed: the catalog search, an `intersects`
/// geometry, a Panoramax `place_position` search, and the page asked for. Every bad parameter is a
/// `ServiceError.invalidParameter` naming it, the value and what is allowed.
struct STACSearchRequest {
    /// The parameters a search takes (STAC item search and Panoramax's place search), plus `page`.
    static let parameters = ["bbox", "datetime", "limit", "ids", "collections", "intersects", "place_position", "place_distance",
                             "place_fov_tolerance", "page"]

    /// A place the pictures must show.
    struct Place {
        var coordinate: GeoCoordinate
        var distanceMeters: ClosedRange<Double>
        var toleranceDegrees: Double
    }

    /// A `next` link: its URL, and for POST the body to merge.
    struct PageLink {
        var href: String
        var body: [UInt8]?
    }

    var search: PanoramaSearch
    var intersects: GeoShape?
    var place: Place?
    /// Results skipped (place searches page by count; the others by row, in ``search``).
    var offset = 0
    /// The arguments as given (GET: the query; POST: the body's members as JSON text), for `next` links.
    var arguments: [(name: String, value: String)]

    /// The search a GET's query or a POST's JSON body asks for.
    init(request: HTTPRequest) throws(ServiceError) {
        // A POST's body, after what its query gives (clients that add parameters to every request,
        // as pystac-client's `parameters`, put them in the query).
        arguments = request.query.filter { $0.name != "key" }
        if request.method == "POST" { arguments += try Self.bodyArguments(request.body) }
        for (name, _) in arguments where !Self.parameters.contains(name) {
            var message = "'\(name)' is not a search parameter; the search takes \(Self.parameters.joined(separator: ", "))"
            if let close = ArgumentParser.closestMatch(to: name, among: Self.parameters) { message += "; did you mean '\(close)'?" }
            throw .invalidParameter(parameter: name, message: message)
        }
        func value(_ name: String) -> String? { arguments.last { $0.name == name }?.value }
        search = PanoramaSearch(limit: 10)
        if let text = value("limit") {
            guard let limit = Int(text), PanoramaSearch.limitRange.contains(limit) else {
                throw .invalidParameter(parameter: "limit", message: "limit '\(text)' is not a whole number in 1…10000")
            }
            search.limit = limit
        }
        if let text = value("bbox") { search.box = try Self.box(text) }
        if let text = value("datetime") { (search.capturedFrom, search.capturedTo) = try Self.interval(text) }
        if let text = value("ids") { search.ids = try Self.list(text, parameter: "ids") }
        if let text = value("collections") { search.sequences = try Self.list(text, parameter: "collections") }
        if let text = value("intersects") {
            do { intersects = try GeoShape(geoJSON: Array(text.utf8)) } catch {
                throw .invalidParameter(parameter: "intersects", message: "intersects: \(error.message)")
            }
        }
        if let text = value("place_position") {
            guard let pair = QueryParameters.numberPair(text.trimmingCharacters(in: CharacterSet(charactersIn: "[] "))),
                  let coordinate = try? GeoCoordinate(latitude: pair.1, longitude: pair.0) else {
                throw .invalidParameter(parameter: "place_position", message: "place_position '\(text)' is not LONGITUDE,LATITUDE "
                                        + "(longitude -180…180, latitude -90…90)")
            }
            var place = Place(coordinate: coordinate, distanceMeters: 3...15, toleranceDegrees: 30)
            if let range = value("place_distance") {
                let parts = range.split(separator: "-").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2, let low = parts[0], let high = parts[1], low >= 0, low <= high, high <= 1000 else {
                    throw .invalidParameter(parameter: "place_distance", message: "place_distance '\(range)' is not MIN-MAX metres "
                                            + "with 0 ≤ MIN ≤ MAX ≤ 1000 (default 3-15)")
                }
                place.distanceMeters = low...high
            }
            if let tolerance = value("place_fov_tolerance") {
                guard let degrees = Int(tolerance), (2...180).contains(degrees) else {
                    throw .invalidParameter(parameter: "place_fov_tolerance", message: "place_fov_tolerance '\(tolerance)' is not a whole "
                                            + "number of degrees in 2…180 (default 30)")
                }
                place.toleranceDegrees = Double(degrees)
            }
            self.place = place
        } else if value("place_distance") != nil || value("place_fov_tolerance") != nil {
            throw .invalidParameter(parameter: "place_position", message: "place_distance and place_fov_tolerance need place_position=LONGITUDE,LATITUDE")
        }
        if let page = value("page") {
            guard let number = Int(page.dropFirst()), number >= 0, page.first == (self.place == nil ? "r" : "o") else {
                throw .invalidParameter(parameter: "page", message: "page '\(page)' is not a page of this search; follow the answer's next link")
            }
            if self.place == nil { search.after = number } else { offset = number }
        }
    }

    /// A POST body's members as (name, text) pairs: strings as they are, arrays of strings joined with
    /// commas, numbers and arrays of numbers as text, objects (`intersects`) as JSON.
    static func bodyArguments(_ body: [UInt8]) throws(ServiceError) -> [(name: String, value: String)] {
        guard !body.isEmpty else { return [] }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] else {
            throw .invalidParameter(parameter: "body", message: "the search body is not a JSON object; send {\"bbox\": [...], \"limit\": 10, …}")
        }
        var arguments: [(name: String, value: String)] = []
        for name in object.keys.sorted() {
            let member = object[name]
            switch member {
            case let text as String: arguments.append((name, text))
            case let number as NSNumber: arguments.append((name, number.stringValue))
            case let list as [Any] where list.allSatisfy({ $0 is String || $0 is NSNumber }):
                arguments.append((name, list.map { ($0 as? String) ?? ($0 as? NSNumber)?.stringValue ?? "" }.joined(separator: ",")))
            case is [String: Any]:
                guard let data = try? JSONSerialization.data(withJSONObject: member as Any) else { continue }
                arguments.append((name, String(decoding: data, as: UTF8.self)))
            case is NSNull: continue
            default:
                throw .invalidParameter(parameter: name, message: "\(name) has a value of a type the search does not take")
            }
        }
        return arguments
    }

    /// `west,south,east,north` (or the six numbers of a 3-D box, heights ignored), degrees.
    static func box(_ text: String) throws(ServiceError) -> PanoramaSearch.Box {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingCharacters(in: .whitespaces)) }
        let form = "bbox is WEST,SOUTH,EAST,NORTH in degrees (longitude -180…180, latitude -90…90, south ≤ north)"
        guard numbers.count == 4 || numbers.count == 6, numbers.allSatisfy({ $0?.isFinite == true }) else {
            throw .invalidParameter(parameter: "bbox", message: "bbox '\(text)' is not 4 numbers; \(form)")
        }
        let values = numbers.compactMap { $0 }
        let (west, south, east, north) = numbers.count == 4 ? (values[0], values[1], values[2], values[3]) : (values[0], values[1], values[3], values[4])
        guard (-180...180).contains(west), (-180...180).contains(east), (-90...90).contains(south), (-90...90).contains(north), south <= north,
              west <= east else {
            throw .invalidParameter(parameter: "bbox", message: "bbox '\(text)' is out of range; \(form); a box across the 180th meridian "
                                    + "is two searches")
        }
        return PanoramaSearch.Box(south: south, west: west, north: north, east: east)
    }

    /// A RFC 3339 time, or an interval `A/B` with `..` (or nothing) for an open end.
    static func interval(_ text: String) throws(ServiceError) -> (Date?, Date?) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let form = "datetime is a RFC 3339 time (2024-05-12T10:15:30Z) or an interval START/END with .. for an open end"
        guard parts.count == 1 || parts.count == 2 else {
            throw .invalidParameter(parameter: "datetime", message: "datetime '\(text)' is not a time or an interval; \(form)")
        }
        var bounds: [Date?] = []
        for part in parts {
            if parts.count == 2 && (part == ".." || part.isEmpty) { bounds.append(nil); continue }
            guard let date = Self.date(part) else {
                throw .invalidParameter(parameter: "datetime", message: "datetime '\(part)' is not a RFC 3339 time; \(form)")
            }
            bounds.append(date)
        }
        if parts.count == 1 { return (bounds[0], bounds[0]) }
        if let from = bounds[0], let to = bounds[1], from > to {
            throw .invalidParameter(parameter: "datetime", message: "datetime '\(text)' ends before it starts; \(form)")
        }
        return (bounds[0], bounds[1])
    }

    static func date(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// A comma-separated list (GET) or a JSON array (POST, already joined) of ids.
    static func list(_ text: String, parameter: String) throws(ServiceError) -> [String] {
        let items = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !items.isEmpty, items.count <= 10_000 else {
            throw .invalidParameter(parameter: parameter, message: "\(parameter) '\(text.prefix(80))' is not 1…10000 comma-separated ids")
        }
        return items
    }

    /// `value` escaped for a query string.
    static func queryEscaped(_ value: String) -> String {
        if value.utf8.allSatisfy({ $0 != UInt8(ascii: "/") && STACDocuments.isUnreservedOrSlash($0) }) { return value }
        return value.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? value
    }

    /// RFC 3986's unreserved characters (made once).
    static let queryAllowed: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return allowed
    }()

    /// The link to the page after this one, which starts at `token` (`r<row>` or `o<offset>`).
    func nextLink(base: String, method: String, token: String) -> PageLink {
        let kept = arguments.filter { $0.name != "page" }
        if method == "POST" {
            return PageLink(href: base + "/search", body: Array("{\"page\":\"\(token)\"}".utf8))
        }
        let query = (kept + [("page", token)]).map { "\($0.name)=\(Self.queryEscaped($0.value))" }.joined(separator: "&")
        return PageLink(href: base + "/search?" + query, body: nil)
    }
}
