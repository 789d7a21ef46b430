import Foundation
import Imaging

/// Just enough XML for S3's answers (list results, errors, multipart ids): elements found by name,
/// their text with the five predefined entities and numeric references decoded. S3's answers are flat
/// and never nest an element in one of the same name, which is all this assumes.
enum S3XML {
    /// The inner text of every `<name>…</name>` (and nothing for `<name/>`), in order.
    static func elements(_ name: String, in text: Substring) -> [Substring] {
        var found: [Substring] = []
        let open = "<\(name)>", close = "</\(name)>"
        var rest = text[...]
        while let start = rest.range(of: open) {
            guard let end = rest[start.upperBound...].range(of: close) else { break }
            found.append(rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
        }
        return found
    }

    /// The decoded text of the first `<name>` in `text`, nil when there is none.
    static func value(_ name: String, in text: Substring) -> String? {
        elements(name, in: text).first.map { XMLText.unescaped($0) }
    }

    static func value(_ name: String, in text: String) -> String? { value(name, in: text[...]) }
}

/// The two date forms S3 uses: ISO 8601 in XML (`2026-12-07T09:17:38.000Z`) and RFC 1123 in headers
/// (`Mon, 07 Dec 2026 09:17:38 GMT`).
enum HTTPDate {
    static func parseISO8601(_ text: String) -> Date? {
        let digits = text.utf8.map { $0 }
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= digits.count else { return nil }
            var value = 0
            for i in from..<(from + count) {
                guard (0x30...0x39).contains(digits[i]) else { return nil }
                value = value * 10 + Int(digits[i] - 0x30)
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
              let minute = number(14, 2), let second = number(17, 2) else { return nil }
        var fraction = 0.0
        if digits.count > 20, digits[19] == UInt8(ascii: ".") {
            var scale = 0.1, i = 20
            while i < digits.count, (0x30...0x39).contains(digits[i]) {
                fraction += Double(digits[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second).map {
            $0.addingTimeInterval(fraction)
        }
    }

    static func parseRFC1123(_ text: String) -> Date? {
        let parts = text.split(separator: " ")
        let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        guard parts.count >= 5, let day = Int(parts[1]), let month = months.firstIndex(of: parts[2].lowercased()),
              let year = Int(parts[3]) else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
        return date(year: year, month: month + 1, day: day, hour: clock[0], minute: clock[1], second: clock[2])
    }

    private static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
              (0...60).contains(second) else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}
