import Foundation

extension ImageMetadata {
    /// EXIF `DateTimeOriginal` as a date, read as UTC (EXIF 2.2 stores no zone); nil when absent or
    /// not of the form `YYYY:MM:DD HH:MM:SS`.
    public var dateTimeOriginalDate: Date? { dateTimeOriginal.flatMap(Self.exifDate) }

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
        // Days from civil (H. Hinnant).
        let yy = m <= 2 ? y - 1 : y
        let era = (yy >= 0 ? yy : yy - 399) / 400
        let yoe = yy - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        let days = era * 146_097 + doe - 719_468
        return Date(timeIntervalSince1970: Double(days * 86_400 + h * 3600 + minute * 60 + s))
    }
}
