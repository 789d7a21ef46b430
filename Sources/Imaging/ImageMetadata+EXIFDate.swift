import Foundation

extension ImageMetadata {
    /// DateTimeOriginal as a date in UTC, to the fraction of a second the file gives: SubSecTimeOriginal's
    /// digits (or a fraction written in the text) added, OffsetTimeOriginal's offset (or one written in
    /// the text: "…+02:00", "…Z") taken off. An ISO 8601 DateTimeOriginal ("2023-07-05T10:15:30.250+02:00",
    /// as some municipal capture systems write it) reads the same way. Without an offset the local time is
    /// read as UTC (EXIF before 2.31 has no time zone).
    public var dateTimeOriginalDate: Date? {
        guard let text = dateTimeOriginal, let base = Self.exifDate(text) else { return nil }
        let rest = Array(text.utf8.dropFirst(19))
        var k = 0
        var fraction = 0.0
        if k < rest.count, rest[k] == UInt8(ascii: ".") || rest[k] == UInt8(ascii: ",") {
            k += 1
            var scale = 0.1
            while k < rest.count, (48...57).contains(rest[k]) {
                fraction += Double(rest[k] - 48) * scale
                scale /= 10
                k += 1
            }
        } else if let digits = subSecTimeOriginal?.trimmingCharacters(in: .whitespaces), !digits.isEmpty,
                  digits.allSatisfy(\.isASCII), let value = Double("0." + digits) {
            fraction = value
        }
        let offset = Self.utcOffsetSeconds(String(decoding: rest[k...], as: UTF8.self))
            ?? offsetTimeOriginal.flatMap(Self.utcOffsetSeconds)
        return base.addingTimeInterval(fraction - Double(offset ?? 0))
    }

    /// "+02:00", "-0530", "Z" → seconds east of UTC; nil for anything else (empty included).
    static func utcOffsetSeconds(_ text: String) -> Int? {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t == "Z" { return 0 }
        let u = Array(t.utf8)
        guard u.count == 6 || u.count == 5, u[0] == UInt8(ascii: "+") || u[0] == UInt8(ascii: "-") else { return nil }
        let digits = u.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, digits.allSatisfy({ (48...57).contains($0) }) else { return nil }
        let d = digits.map { Int($0 - 48) }
        let hours = d[0] * 10 + d[1], minutes = d[2] * 10 + d[3]
        guard hours <= 14, minutes < 60 else { return nil }
        return (u[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }



    /// `"YYYY:MM:DD HH:MM:SS"` as a UTC date (no formatter: thread-safe and fast).
    static func exifDate(_ text: String) -> Date? {
        let u = Array(text.utf8)
        guard u.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard (48...57).contains(u[i]) else { return nil }
                value = value * 10 + Int(u[i] - 48)
            }
            return value
        }
        guard let y = number(0..<4), let m = number(5..<7), let d = number(8..<10), let h = number(11..<13),
              let minute = number(14..<16), let s = number(17..<19),
              (1...12).contains(m), (1...31).contains(d), h < 24, minute < 60, s < 61, y > 0 else { return nil }
        let days = Int(CivilDate(year: Int64(y), month: Int64(m), day: Int64(d)).daysSince1970)
        return Date(timeIntervalSince1970: Double(days * 86_400 + h * 3600 + minute * 60 + s))
    }
}
