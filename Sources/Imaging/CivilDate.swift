/// A day of the proleptic Gregorian calendar, converted to and from days since 1970-01-01 with
/// Howard Hinnant's `civil_from_days` / `days_from_civil` (exact for every Int64 day, no Foundation
/// calendar object: EXIF times and catalog answers format thousands of these per second).
public struct CivilDate: Sendable, Hashable {
    /// Year (astronomical numbering: 0 is 1 BC).
    public var year: Int64
    /// Month 1…12.
    public var month: Int64
    /// Day of the month 1…31.
    public var day: Int64

    public init(year: Int64, month: Int64, day: Int64) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `days` after 1970-01-01 (negative: before).
    public init(daysSince1970 days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// Days from 1970-01-01 to this date.
    public var daysSince1970: Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = month > 2 ? month - 3 : month + 9
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// `value` in decimal, left-padded with zeros to `width` digits (negative values keep their sign).
    public static func padded(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}
