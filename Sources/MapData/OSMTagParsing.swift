/// Parsers for tag values whose syntax OSM leaves loose: lengths with units, level counts, language
/// names. All are total functions: anything they do not understand gives nil.
public enum OSMTagParsing {
    private static let metersPerFoot = 0.3048
    private static let metersPerInch = 0.0254

    /// A length in meters from a `height`, `width`, `min_height`… value.
    ///
    /// Accepted: a plain number in meters ("12", "12.5", "-1.5"), with a meter unit ("12 m", "12.5m",
    /// "12 meters", "12 metres"), feet ("40'", "40 ft", "40 feet"), feet and inches ("12'6\"",
    /// "12' 6\""), inches ("6\""), and a decimal comma ("12,5"). Rejected (nil): empty, words ("tall"),
    /// lists ("12;15"), non-finite numbers, other units.
    public static func lengthMeters(_ text: String) -> Double? {
        var s = Substring(text).drop { $0 == " " }
        while s.last == " " { s = s.dropLast() }
        guard !s.isEmpty else { return nil }
        // Feet and inches: 12'6" or 12' 6"
        if let apostrophe = s.firstIndex(where: { $0 == "'" || $0 == "’" || $0 == "′" }) {
            guard let feet = number(s[..<apostrophe]) else { return nil }
            var rest = s[s.index(after: apostrophe)...].drop { $0 == " " }
            if rest.isEmpty { return feet * metersPerFoot }
            guard rest.last == "\"" || rest.last == "”" || rest.last == "″" else { return nil }
            rest = rest.dropLast()
            guard let inches = number(rest) else { return nil }
            return feet * metersPerFoot + inches * metersPerInch
        }
        if s.last == "\"" || s.last == "″" {
            return number(s.dropLast()).map { $0 * metersPerInch }
        }
        // Split the number from a trailing unit word.
        let unitStart = s.firstIndex { $0.isLetter } ?? s.endIndex
        guard let value = number(s[..<unitStart]) else { return nil }
        let unit = s[unitStart...].lowercased()
        switch unit {
        case "", "m", "meter", "meters", "metre", "metres": return value
        case "ft", "feet", "foot": return value * metersPerFoot
        case "cm": return value / 100
        case "km": return value * 1000
        default: return nil
        }
    }

    /// A decimal number with optional surrounding spaces and a `.` or `,` decimal separator.
    static func number<S: StringProtocol>(_ text: S) -> Double? {
        var t = String(text).trimmingSpaces()
        guard !t.isEmpty, t.allSatisfy({ $0.isNumber || $0 == "." || $0 == "," || $0 == "-" || $0 == "+" }),
              t.filter({ $0 == "," || $0 == "." }).count <= 1 else { return nil }
        t = t.replacingComma()
        guard let value = Double(t), value.isFinite else { return nil }
        return value
    }

    /// A compass direction as tagged in `roof:direction` and `direction`: degrees clockwise from north
    /// ("135", "22.5") or a compass point ("N", "NE", "SSW"…, 16 points), normalised to 0..<360; nil
    /// for anything else.
    public static func compassDegrees(_ text: String) -> Double? {
        let t = text.trimmingSpaces().uppercased()
        let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        if let k = points.firstIndex(of: t) { return Double(k) * 22.5 }
        guard let value = number(t), value.isFinite else { return nil }
        let r = value.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }

    /// A level count (`building:levels`, `roof:levels`, `building:min_level`): a non-negative number,
    /// fractions allowed ("2.5" occurs for half-sunk or attic floors). Nil otherwise.
    public static func levels(_ text: String) -> Double? {
        guard let value = number(text), value >= 0, value < 500 else { return nil }
        return value
    }

    /// A lane count: a whole number ≥ 1 ("2"); nil for lists ("2;3") and anything else.
    public static func lanes(_ text: String) -> Int? {
        guard let value = Int(text.trimmingSpaces()), value >= 1, value < 100 else { return nil }
        return value
    }

    /// Names by language from `name:xx` keys: `name:sv` → "sv", `name:be-tarask` → "be-tarask".
    /// Keys with a further colon (`name:etymology:wikidata`) are not names and are left out.
    public static func names(from tags: [String: String]) -> [String: String] {
        var names: [String: String] = [:]
        for (key, value) in tags where key.hasPrefix("name:") {
            let language = key.dropFirst(5)
            guard !language.isEmpty, language.count <= 16,
                  language.allSatisfy({ $0.isLetter || $0 == "-" || $0 == "_" }) else { continue }
            names[String(language)] = value
        }
        return names
    }

    /// True for the usual spellings of yes: "yes", "true", "1".
    static func isYes(_ value: String?) -> Bool { value == "yes" || value == "true" || value == "1" }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }

    func replacingComma() -> String { String(map { $0 == "," ? "." : $0 }) }

}
