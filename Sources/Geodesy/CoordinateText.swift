import Foundation

/// Reads a coordinate the way people paste one: the one parser behind every search box and place
/// argument (`lookaround search`, `geocode`, `--near`, Nominatim's `/search`, the page's search).
///
/// | form | example |
/// |---|---|
/// | decimal degrees, comma, semicolon or space between | `43.6124,1.4564` · `43.6124, 1.4564` · `43.6124 1.4564` · `-33.86;151.21` |
/// | with degree signs and hemispheres, either side | `43.6124° N, 1.4564° E` · `N43.6124 E1.4564` · `33.86S 151.21E` |
/// | degrees and decimal minutes | `43°36.743′N 1°27.383′E` · `N 43 36.743 E 1 27.383` |
/// | degrees, minutes and seconds (typographic or ASCII marks, `d m s`) | `43°36′44.6″N 1°27′23″E` · `43°36'44.6"N 1°27'23"E` · `43d36m44.6sN 1d27m23sE` |
/// | a `geo:` URI (RFC 5870, Android's `?q=`) | `geo:43.6124,1.4564` · `geo:43.6124,1.4564,150;u=30` · `geo:0,0?q=43.6124,1.4564(Capitole)` |
/// | a map URL | Google Maps `https://www.google.com/maps/@43.6124,1.4564,17z` (and `…/place/…/data=…!3d43.6124!4d1.4564`, `?q=`, `?ll=`, `?query=`, `?viewpoint=`), OpenStreetMap `…#map=17/43.6124/1.4564` and `?mlat=…&mlon=…`, Apple Maps `?ll=`, this server's deep links `/@43.6124,1.4564,3a,…` |
///
/// Latitude comes first unless the hemisphere letters say otherwise (`1.4564 E 43.6124 N`). Text that
/// is no coordinate (a place name, a house number, a postcode such as `00100`, a range such as `12-14`)
/// is `nil`, not an error: the caller looks it up by name. Two bare integers with only a space between
/// (`52 12`) are not taken as a coordinate either; with a comma (`52,12`) or a decimal point they are.
public enum CoordinateText {
    /// The coordinate `text` writes, nil when it writes none.
    /// - Throws: ``GeodesyError/malformedCoordinate(text:reason:)`` for text that is a coordinate's form with a
    ///   bad part (minutes or seconds of 60 or more, two signs, two latitudes), ``GeodesyError/latitudeOutOfRange(_:)``
    ///   and ``GeodesyError/longitudeOutOfRange(_:)`` for values outside -90…90 and -180…180 degrees
    ///   (180 is read as -180, the same meridian).
    public static func parse(_ text: String) throws(GeodesyError) -> GeoCoordinate? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.utf8.count <= maximumLength else { return nil }
        let lowered = trimmed.lowercased()
        if lowered.hasPrefix("geo:") { return try geoURI(trimmed) }
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("www.")
            || lowered.hasPrefix("maps.") || lowered.hasPrefix("google.") || lowered.hasPrefix("openstreetmap.") {
            return try mapURL(trimmed)
        }
        if trimmed.hasPrefix("/@") || trimmed.hasPrefix("@") { return try atCamera(trimmed) }
        return try degrees(trimmed)
    }

    /// Longer text is no coordinate (and is not scanned).
    static let maximumLength = 4096

    // MARK: URIs and URLs

    /// `geo:LAT,LON[,ALT][;param…][?q=…]`: Android's `geo:0,0?q=LAT,LON(label)` names the point in `q`.
    static func geoURI(_ text: String) throws(GeodesyError) -> GeoCoordinate? {
        var rest = Substring(text.dropFirst(4))
        var query: Substring?
        if let mark = rest.firstIndex(of: "?") {
            query = rest[rest.index(after: mark)...]
            rest = rest[..<mark]
        }
        let path = rest.split(separator: ";", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        let numbers = path.split(separator: ",", omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? String($0) }
        if let q = query.flatMap({ queryItems(String($0))["q"] }), !q.isEmpty {
            // Android: geo:0,0?q=LAT,LON(label) names the point; geo:0,0?q=NAME names a place, not a coordinate.
            if let point = try pairInQuery(q) { return point }
            if numbers.count >= 2, decimal(numbers[0]) == 0, decimal(numbers[1]) == 0 { return nil }
        }
        guard numbers.count == 2 || numbers.count == 3, let latitude = decimal(numbers[0]), let longitude = decimal(numbers[1]) else {
            throw .malformedCoordinate(text: text, reason: "a geo: URI is geo:LATITUDE,LONGITUDE[,ALTITUDE], e.g. geo:43.6124,1.4564")
        }
        return try checked(latitude: latitude, longitude: longitude)
    }

    /// A map site's URL: the place's own point (`!3d…!4d…` in Google's `data=`) first, then the map's
    /// centre (`/@LAT,LON,…`), then the query parameters and OpenStreetMap's `#map=Z/LAT/LON`.
    static func mapURL(_ text: String) throws(GeodesyError) -> GeoCoordinate? {
        if let place = googlePlacePoint(text) { return try checked(latitude: place.latitude, longitude: place.longitude) }
        if let at = text.range(of: "/@"), let next = text[at.upperBound...].first, next.isASCII && next.isNumber || "-+.".contains(next) {
            return try atCamera(String(text[at.lowerBound...]))
        }
        var query = "", fragment = ""
        if let hash = text.firstIndex(of: "#") { fragment = String(text[text.index(after: hash)...]) }
        let beforeFragment = text.firstIndex(of: "#").map { String(text[..<$0]) } ?? text
        if let mark = beforeFragment.firstIndex(of: "?") { query = String(beforeFragment[beforeFragment.index(after: mark)...]) }
        let items = queryItems(query)
        if let latitude = items["mlat"].flatMap(decimal), let longitude = items["mlon"].flatMap(decimal) {
            return try checked(latitude: latitude, longitude: longitude)
        }
        for name in ["q", "query", "ll", "sll", "viewpoint", "center", "destination", "daddr", "saddr", "cp"] {
            if let value = items[name], let point = try pairInQuery(value) { return point }
        }
        if let latitude = items["lat"].flatMap(decimal), let longitude = (items["lon"] ?? items["lng"]).flatMap(decimal) {
            return try checked(latitude: latitude, longitude: longitude)
        }
        // OpenStreetMap: #map=ZOOM/LAT/LON (also in the query of some links).
        for part in [fragment, query] {
            for item in part.split(separator: "&") where item.hasPrefix("map=") {
                let values = item.dropFirst(4).split(separator: "/").map(String.init)
                if values.count >= 3, let latitude = decimal(values[1]), let longitude = decimal(values[2]) {
                    return try checked(latitude: latitude, longitude: longitude)
                }
            }
        }
        return nil
    }

    /// `/@LAT,LON,…` (Google's camera and this server's deep links): the first two numbers.
    static func atCamera(_ text: String) throws(GeodesyError) -> GeoCoordinate? {
        let start = text.drop { $0 == "/" || $0 == "@" }
        let camera = start.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let parts = camera.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count >= 2, let latitude = decimal(String(parts[0])), let longitude = decimal(String(parts[1])) else {
            // "@home" is a name; "/@60.1,x" a broken link.
            guard let first = start.first, first.isASCII && first.isNumber || "-+.".contains(first) else { return nil }
            throw .malformedCoordinate(text: text, reason: "a map link's camera is /@LATITUDE,LONGITUDE,…")
        }
        return try checked(latitude: latitude, longitude: longitude)
    }

    /// Google's `!3dLAT!4dLON` (the place itself, where `/@` is only the map's centre).
    static func googlePlacePoint(_ text: String) -> (latitude: Double, longitude: Double)? {
        guard let three = text.range(of: "!3d", options: .backwards) else { return nil }
        let after = text[three.upperBound...]
        guard let four = after.range(of: "!4d") else { return nil }
        let latitudeText = after[..<four.lowerBound]
        let longitudeText = after[four.upperBound...].prefix { $0 == "-" || $0 == "." || $0.isASCII && $0.isNumber }
        guard let latitude = decimal(String(latitudeText)), let longitude = decimal(String(longitudeText)) else { return nil }
        return (latitude, longitude)
    }

    /// A query value naming a point: a coordinate in any of the text forms, with a `(label)` after it
    /// dropped; nil when the value is a name ("Capitole, Toulouse").
    static func pairInQuery(_ value: String) throws(GeodesyError) -> GeoCoordinate? {
        var text = value
        if let open = text.firstIndex(of: "(") { text = String(text[..<open]) }
        return try degrees(text.trimmingCharacters(in: .whitespaces))
    }

    /// A URL query's items, percent-decoded, `+` read as a space; the first of a repeated name wins.
    static func queryItems(_ query: String) -> [String: String] {
        var items: [String: String] = [:]
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts[0]).lowercased()
            let raw = parts.count > 1 ? String(parts[1]).replacingOccurrences(of: "+", with: " ") : ""
            if items[name] == nil { items[name] = raw.removingPercentEncoding ?? raw }
        }
        return items
    }

    // MARK: Degrees, minutes, seconds

    enum Token: Equatable {
        case number(Double, hasPoint: Bool, signed: Bool)
        case degree, minute, second
        case hemisphere(Character)
        case separator
        case space

        var isNumber: Bool { if case .number = self { true } else { false } }
        var hasPoint: Bool { if case .number(_, true, _) = self { true } else { false } }
        var isHemisphere: Bool { if case .hemisphere = self { true } else { false } }
        /// A degree, minute or second mark or a hemisphere letter.
        var isMark: Bool { self == .degree || self == .minute || self == .second || isHemisphere }
    }

    /// The text forms: decimal degrees and degrees-minutes-seconds with hemispheres.
    static func degrees(_ text: String) throws(GeodesyError) -> GeoCoordinate? {
        guard let tokens = tokenize(text) else { return nil }
        let meaningful = tokens.filter { $0 != .space }
        let numberCount = meaningful.filter(\.isNumber).count
        guard numberCount >= 2 else { return nil }
        let hasMarks = meaningful.contains(where: \.isMark)
        let separators = meaningful.filter { $0 == .separator }.count
        guard separators <= 1 else { return nil }
        if !hasMarks {
            // Bare numbers: "LAT,LON", "LAT LON" (a decimal point in one of them), or 4 / 6 numbers (D M D M, D M S D M S).
            guard separators == 1 || tokens.contains(.space) else { return nil }
            if numberCount == 2 && separators == 0 {
                guard meaningful.contains(where: \.hasPoint) else { return nil }
            }
        }
        let (first, second) = try split(meaningful, text: text)
        var a = try component(first, text: text), b = try component(second, text: text)
        // Which is the latitude: the hemispheres say; else the first.
        let aIsLongitude = a.hemisphere == "E" || a.hemisphere == "W", bIsLatitude = b.hemisphere == "N" || b.hemisphere == "S"
        let aIsLatitude = a.hemisphere == "N" || a.hemisphere == "S", bIsLongitude = b.hemisphere == "E" || b.hemisphere == "W"
        if (aIsLatitude && bIsLatitude) || (aIsLongitude && bIsLongitude) {
            throw .malformedCoordinate(text: text, reason: "both parts are \(aIsLatitude ? "latitudes (N/S)" : "longitudes (E/W)"); "
                                       + "write one latitude (N or S) and one longitude (E or W)")
        }
        if aIsLongitude || bIsLatitude { swap(&a, &b) }
        return try checked(latitude: a.value, longitude: b.value)
    }

    /// The text as tokens, nil when it holds anything a coordinate does not (a letter of a name).
    static func tokenize(_ text: String) -> [Token]? {
        var tokens: [Token] = []
        let characters = Array(text)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            if c.isASCII && c.isNumber || ((c == "-" || c == "+" || c == "−" || c == ".") && i + 1 < characters.count
                                           && (characters[i + 1].isASCII && characters[i + 1].isNumber || characters[i + 1] == ".")) {
                var j = i, signed = false, negative = false
                if characters[j] == "-" || characters[j] == "+" || characters[j] == "−" {
                    signed = true
                    negative = characters[j] != "+"
                    j += 1
                }
                var digits = "", hasPoint = false
                while j < characters.count, characters[j].isASCII && characters[j].isNumber || characters[j] == "." && !hasPoint {
                    if characters[j] == "." { hasPoint = true }
                    digits.append(characters[j])
                    j += 1
                }
                guard let value = Double(digits), value.isFinite else { return nil }
                // A sign right after a number ("12-14") is a range, not a coordinate.
                if signed, let last = tokens.last, case .number = last { return nil }
                tokens.append(.number(negative ? -value : value, hasPoint: hasPoint, signed: signed))
                i = j
                continue
            }
            let afterNumber = tokens.last?.isNumber ?? false
            switch c {
            case "°", "º", "˚":
                guard afterNumber else { return nil }
                tokens.append(.degree)
            case "d", "D" where afterNumber:
                tokens.append(.degree)
            case "′", "'", "’", "´", "`":
                guard afterNumber else { return nil }
                // Two apostrophes are the seconds mark.
                if c == "'" && i + 1 < characters.count && characters[i + 1] == "'" {
                    tokens.append(.second)
                    i += 1
                } else {
                    tokens.append(.minute)
                }
            case "m", "M" where afterNumber:
                tokens.append(.minute)
            case "″", "\"", "”":
                guard afterNumber else { return nil }
                tokens.append(.second)
            case "s", "S" where afterNumber && tokens.dropLast().last == .minute:
                // After "36m44" (or 36'44) an s is the seconds mark; elsewhere S is the southern hemisphere.
                tokens.append(.second)
            case "N", "n": tokens.append(.hemisphere("N"))
            case "S", "s": tokens.append(.hemisphere("S"))
            case "E", "e": tokens.append(.hemisphere("E"))
            case "W", "w": tokens.append(.hemisphere("W"))
            case ",", ";": tokens.append(.separator)
            case " ", "\t", "\u{00A0}", "\n": if tokens.last != .space { tokens.append(.space) }
            default: return nil
            }
            i += 1
        }
        // Hemisphere letters must stand alone (not "Nice" or "Essen").
        for k in tokens.indices.dropLast() where tokens[k].isHemisphere && tokens[k + 1].isHemisphere { return nil }
        return tokens
    }

    /// The two parts: at the separator; else at the hemisphere letters; else where the second degree
    /// mark's number starts; else half the numbers each.
    static func split(_ tokens: [Token], text: String) throws(GeodesyError) -> ([Token], [Token]) {
        if let comma = tokens.firstIndex(of: .separator) {
            return (Array(tokens[..<comma]), Array(tokens[(comma + 1)...]))
        }
        let hemispheres = tokens.indices.filter { tokens[$0].isHemisphere }
        if hemispheres.count == 2 {
            if hemispheres[0] == 0 { return (Array(tokens[..<hemispheres[1]]), Array(tokens[hemispheres[1]...])) }
            return (Array(tokens[...hemispheres[0]]), Array(tokens[(hemispheres[0] + 1)...]))
        }
        if hemispheres.count > 2 { throw .malformedCoordinate(text: text, reason: "more than two hemisphere letters") }
        let degreeMarks = tokens.indices.filter { tokens[$0] == .degree }
        if degreeMarks.count == 2 {
            let secondNumber = degreeMarks[1] - 1
            return (Array(tokens[..<secondNumber]), Array(tokens[secondNumber...]))
        }
        let numbers = tokens.indices.filter { tokens[$0].isNumber }
        guard [2, 4, 6].contains(numbers.count) else {
            throw .malformedCoordinate(text: text, reason: "cannot tell the latitude from the longitude; separate them with a comma")
        }
        let cut = numbers[numbers.count / 2]
        return (Array(tokens[..<cut]), Array(tokens[cut...]))
    }

    /// One part's value in degrees (signed) and its hemisphere letter.
    static func component(_ tokens: [Token], text: String) throws(GeodesyError) -> (value: Double, hemisphere: Character?) {
        var hemisphere: Character?
        var values: [(value: Double, hasPoint: Bool, signed: Bool)] = [], units: [Token?] = []
        for token in tokens {
            switch token {
            case .number(let value, let hasPoint, let signed):
                values.append((value, hasPoint, signed))
                units.append(nil)
            case .degree, .minute, .second:
                guard !units.isEmpty, units[units.count - 1] == nil else {
                    throw .malformedCoordinate(text: text, reason: "a degree, minute or second mark without its number")
                }
                units[units.count - 1] = token
            case .hemisphere(let letter):
                if hemisphere != nil { throw .malformedCoordinate(text: text, reason: "two hemisphere letters in one part") }
                hemisphere = letter
            case .separator, .space: break
            }
        }
        guard (1...3).contains(values.count) else {
            throw .malformedCoordinate(text: text, reason: "each of latitude and longitude is degrees [minutes [seconds]]")
        }
        // Units by position where unmarked: degrees, minutes, seconds.
        let expected: [Token] = [.degree, .minute, .second]
        for (k, unit) in units.enumerated() where unit != nil && unit != expected[k] {
            throw .malformedCoordinate(text: text, reason: "degrees, minutes and seconds come in that order")
        }
        var degrees = abs(values[0].value)
        let negative = values[0].value.sign == .minus
        for k in 1..<values.count {
            if values[k].signed { throw .malformedCoordinate(text: text, reason: "only the degrees may carry a sign") }
            if values[k - 1].hasPoint {
                throw .malformedCoordinate(text: text, reason: "\(k == 1 ? "degrees" : "minutes") with a fraction cannot be followed by "
                                           + "\(k == 1 ? "minutes" : "seconds")")
            }
            let part = values[k].value
            guard part < 60 else {
                throw .malformedCoordinate(text: text, reason: "\(k == 1 ? "minutes" : "seconds") \(format(part)) is 60 or more")
            }
            degrees += part / (k == 1 ? 60 : 3600)
        }
        if negative && (hemisphere == "S" || hemisphere == "W" || hemisphere == "N" || hemisphere == "E") {
            throw .malformedCoordinate(text: text, reason: "a minus sign and a hemisphere letter together; write one of them")
        }
        let southOrWest = hemisphere == "S" || hemisphere == "W"
        return (negative || southOrWest ? -degrees : degrees, hemisphere)
    }

    // MARK: Helpers

    /// A plain decimal number (digits, one point, a leading sign): no exponents, `inf`, `nan` or hex.
    static func decimal(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy({ (48...57).contains($0) || $0 == 43 || $0 == 45 || $0 == 46 }),
              let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// The coordinate, its ranges checked: latitude -90…90, longitude -180…180 (180 read as -180).
    static func checked(latitude: Double, longitude: Double) throws(GeodesyError) -> GeoCoordinate {
        guard GeoCoordinate.latitudeRange.contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard longitude >= -180 && longitude <= 180 else { throw .longitudeOutOfRange(longitude) }
        return try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}
