import Foundation
import Imaging

/// A GPS log recorded beside the camera: a GPX file (track points with `<time>`; `<ele>` and GPX 1.0's
/// `<speed>` when present) or NMEA 0183 sentences (`RMC` for date, time, position and speed, `GGA` for
/// altitude, fix quality and HDOP; checksums verified). Times are UTC; they are put on the video's clock
/// by the caller (``Telemetry`` from ``fixes(startUTC:)``).
public struct GPSLog: Sendable {
    /// The file.
    public var path: String
    /// The fixes with their UTC, in time order.
    public var fixes: [GPSSample]
    /// `GPX` or `NMEA`.
    public var format: String
    /// Sentences or points that could not be used (bad checksum, no time, void fix).
    public var skipped: Int

    /// The extensions read, lowercase.
    public static let extensions = ["gpx", "nmea", "nmea0183", "log"]

    /// Reads `path` (GPX when it starts like XML, else NMEA).
    /// - Throws: `VideoError.fileNotFound`, `.unreadable`, `.badTelemetry` (no usable fix, no times).
    public init(contentsOf path: String, defaultDate: Date? = nil) throws(VideoError) {
        guard FileManager.default.fileExists(atPath: path) else { throw .fileNotFound(path: path) }
        guard let data = FileManager.default.contents(atPath: path) else { throw .unreadable(path: path, detail: "permission denied?") }
        guard data.count <= 512 << 20 else { throw .badTelemetry(path: path, detail: "\(data.count) bytes is over the 512 MiB a log may have") }
        let text = String(decoding: data, as: UTF8.self)
        self.path = path
        let start = text.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        if start.hasPrefix("<") {
            format = "GPX"
            (fixes, skipped) = try Self.parseGPX(text, path: path)
        } else {
            format = "NMEA"
            (fixes, skipped) = try Self.parseNMEA(text, path: path, defaultDate: defaultDate)
        }
        fixes.sort { $0.utc! < $1.utc! }
        guard fixes.count >= 1 else {
            throw .badTelemetry(path: path, detail: "no \(format == "GPX" ? "<trkpt> with a <time>" : "valid RMC or GGA sentence") in it")
        }
    }

    /// The log as telemetry on a video clock whose time 0 is `startUTC`.
    public func telemetry(startUTC: Date) -> Telemetry {
        var result = Telemetry(source: "\(format) \(FilePath.name(of: path))",
                               gps: fixes.map { var p = $0; p.timeSeconds = p.utc!.timeIntervalSince(startUTC); return p })
        result.gpsRead = fixes.count + skipped
        result.startUTC = startUTC
        result.filter()
        return result
    }

    // MARK: GPX

    /// A tolerant scan of `<trkpt>` (else `<rtept>`) elements: attributes `lat`/`lon`, children `<time>`,
    /// `<ele>`, `<speed>`. No XML parser is involved, so no document can crash it.
    static func parseGPX(_ text: String, path: String) throws(VideoError) -> ([GPSSample], Int) {
        let bytes = Array(text.utf8)
        var fixes: [GPSSample] = [], skipped = 0
        for element in ["trkpt", "rtept"] {
            var i = 0
            while let open = find(bytes, "<", from: i) {
                i = open + 1
                // Element name, possibly with a namespace prefix.
                var j = i
                while j < bytes.count, bytes[j] != UInt8(ascii: " "), bytes[j] != UInt8(ascii: ">"), bytes[j] != UInt8(ascii: "/"),
                      bytes[j] != UInt8(ascii: "\n"), bytes[j] != UInt8(ascii: "\t"), bytes[j] != UInt8(ascii: "\r") { j += 1 }
                let name = String(decoding: bytes[i..<j], as: UTF8.self)
                guard name == element || name.hasSuffix(":" + element) else { continue }
                guard let tagEnd = find(bytes, ">", from: j) else { break }
                let attributes = String(decoding: bytes[j..<tagEnd], as: UTF8.self)
                let selfClosing = tagEnd > 0 && bytes[tagEnd - 1] == UInt8(ascii: "/")
                var bodyEnd = tagEnd
                if !selfClosing {
                    bodyEnd = find(bytes, "</", from: tagEnd).flatMap { close -> Int? in
                        var k = close
                        while let c = find(bytes, "</", from: k) {
                            let n = find(bytes, ">", from: c) ?? bytes.count
                            let closing = String(decoding: bytes[(c + 2)..<n], as: UTF8.self)
                            if closing == element || closing.hasSuffix(":" + element) { return c }
                            k = n
                        }
                        return nil
                    } ?? bytes.count
                }
                let body = String(decoding: bytes[tagEnd..<bodyEnd], as: UTF8.self)
                i = bodyEnd
                guard let lat = attribute("lat", in: attributes).flatMap(Double.init),
                      let lon = attribute("lon", in: attributes).flatMap(Double.init), abs(lat) <= 90, abs(lon) <= 180,
                      let timeText = child("time", in: body), let utc = parseISO8601(timeText) else {
                    skipped += 1
                    continue
                }
                fixes.append(GPSSample(timeSeconds: 0, latitude: lat, longitude: lon, altitudeMeters: child("ele", in: body).flatMap(Double.init),
                                       speedMetersPerSecond: child("speed", in: body).flatMap(Double.init), utc: utc))
            }
            if !fixes.isEmpty { break }
        }
        return (fixes, skipped)
    }

    static func find(_ bytes: [UInt8], _ needle: String, from start: Int) -> Int? {
        let n = Array(needle.utf8)
        guard start <= bytes.count - n.count else { return nil }
        var i = start
        while i <= bytes.count - n.count {
            if bytes[i] == n[0] && (n.count == 1 || bytes[i + 1] == n[1]) { return i }
            i += 1
        }
        return nil
    }

    static func attribute(_ name: String, in text: String) -> String? {
        for quote in ["\"", "'"] {
            for prefix in [" \(name)=\(quote)", "\n\(name)=\(quote)", "\t\(name)=\(quote)"] {
                if let r = text.range(of: prefix), let end = text.range(of: quote, range: r.upperBound..<text.endIndex) {
                    return String(text[r.upperBound..<end.lowerBound]).trimmingCharacters(in: .whitespaces)
                }
            }
        }
        return nil
    }

    static func child(_ name: String, in body: String) -> String? {
        guard let open = body.range(of: "<\(name)>") ?? body.range(of: ":\(name)>"),
              let close = body.range(of: "</", range: open.upperBound..<body.endIndex) else { return nil }
        return String(body[open.upperBound..<close.lowerBound]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `YYYY-MM-DDTHH:MM:SS[.fff](Z|±HH:MM)`; a time without a zone is UTC (GPX says UTC).
    static func parseISO8601(_ text: String) -> Date? {
        let u = Array(text.utf8)
        guard u.count >= 19, u.count <= 40, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"),
              u[10] == UInt8(ascii: "T") || u[10] == UInt8(ascii: " "), u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":") else { return nil }
        func number(_ r: Range<Int>) -> Int? { Int(String(decoding: u[r], as: UTF8.self)) }
        guard let y = number(0..<4), let mo = number(5..<7), let d = number(8..<10), let h = number(11..<13),
              let mi = number(14..<16), let s = number(17..<19), (1...12).contains(mo), (1...31).contains(d), h < 24, mi < 60, s < 61 else { return nil }
        var i = 19
        var fraction = 0.0
        if i < u.count, u[i] == UInt8(ascii: ".") {
            var j = i + 1
            while j < u.count, (48...57).contains(u[j]) { j += 1 }
            fraction = Double("0" + String(decoding: u[i..<j], as: UTF8.self)) ?? 0
            i = j
        }
        var offset = 0
        if i < u.count {
            if u[i] == UInt8(ascii: "Z") {
                i += 1
            } else if u[i] == UInt8(ascii: "+") || u[i] == UInt8(ascii: "-"), i + 6 <= u.count, let oh = number((i + 1)..<(i + 3)),
                      let om = number((i + 4)..<(i + 6)) {
                offset = (u[i] == UInt8(ascii: "-") ? -1 : 1) * (oh * 3600 + om * 60)
                i += 6
            } else {
                return nil
            }
        }
        guard i == u.count else { return nil }
        return civilUTC(year: y, month: mo, day: d, hour: h, minute: mi, second: Double(s) + fraction).map { $0.addingTimeInterval(Double(-offset)) }
    }

    /// A UTC instant from calendar fields (proleptic Gregorian).
    static func civilUTC(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Date? {
        let days = Int(CivilDate(year: Int64(year), month: Int64(month), day: Int64(day)).daysSince1970)
        return Date(timeIntervalSince1970: Double(days * 86_400 + hour * 3600 + minute * 60) + second)
    }

    // MARK: NMEA

    /// `RMC` and `GGA` sentences from any talker (`GP`, `GN`, `GL`…); a GGA without a date takes the
    /// date of the nearest RMC, else `defaultDate`'s.
    static func parseNMEA(_ text: String, path: String, defaultDate: Date?) throws(VideoError) -> ([GPSSample], Int) {
        var rmc: [GPSSample] = []
        var gga: [(secondsOfDay: Double, sample: GPSSample)] = []
        var skipped = 0
        for rawLine in text.split(whereSeparator: \.isNewline) {   // "\r\n" is one Character
            guard let dollar = rawLine.firstIndex(of: "$") else { continue }
            let line = rawLine[dollar...]
            guard let sentence = checkedSentence(line) else { skipped += 1; continue }
            let fields = sentence.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard let type = fields.first, type.count >= 5 else { continue }
            let kind = type.suffix(3)
            if kind == "RMC", fields.count >= 10 {
                guard fields[2] == "A", let position = coordinate(fields[3], fields[4], fields[5], fields[6]),
                      let time = secondsOfDay(fields[1]), let date = dateFields(fields[9]) else { skipped += 1; continue }
                let utc = civilUTC(year: date.0, month: date.1, day: date.2, hour: 0, minute: 0, second: time)
                let knots = Double(fields[7])
                rmc.append(GPSSample(timeSeconds: 0, latitude: position.0, longitude: position.1,
                                     speedMetersPerSecond: knots.map { $0 * 1852 / 3600 }, fix: 2, utc: utc))
            } else if kind == "GGA", fields.count >= 10 {
                guard let quality = Int(fields[6]), quality > 0, let position = coordinate(fields[2], fields[3], fields[4], fields[5]),
                      let time = secondsOfDay(fields[1]) else { skipped += 1; continue }
                let hdop = Double(fields[8])
                gga.append((time, GPSSample(timeSeconds: 0, latitude: position.0, longitude: position.1, altitudeMeters: Double(fields[9]),
                                            fix: 3, precision: hdop.map { $0 * 100 })))
            }
        }
        if !rmc.isEmpty {
            // GGA adds altitude and HDOP to the RMC of the same second.
            var bySecond: [Int: GPSSample] = [:]
            for g in gga { bySecond[Int(g.secondsOfDay.rounded())] = g.sample }
            let calendarDay = 86_400.0
            let merged = rmc.map { r -> GPSSample in
                var r = r
                let seconds = r.utc!.timeIntervalSince1970.truncatingRemainder(dividingBy: calendarDay)
                if let g = bySecond[Int(seconds.rounded())] {
                    r.altitudeMeters = g.altitudeMeters
                    r.precision = g.precision
                    r.fix = g.fix
                }
                return r
            }
            return (merged, skipped)
        }
        guard !gga.isEmpty else { return ([], skipped) }
        guard let defaultDate else {
            throw .badTelemetry(path: path, detail: "only GGA sentences, which carry no date, and no video date to put them on")
        }
        let midnight = floor(defaultDate.timeIntervalSince1970 / 86_400) * 86_400
        return (gga.map { var s = $0.sample; s.utc = Date(timeIntervalSince1970: midnight + $0.secondsOfDay); return s }, skipped)
    }

    /// The sentence between `$` and `*` when its checksum (if any) is right.
    static func checkedSentence(_ line: Substring) -> Substring? {
        let body = line.dropFirst()
        guard let star = body.firstIndex(of: "*") else { return body.trimmingCharacters(in: .whitespaces).isEmpty ? nil : body }
        let sentence = body[..<star]
        let given = body[body.index(after: star)...].prefix(2)
        guard let expected = UInt8(given, radix: 16) else { return nil }
        let sum = sentence.utf8.reduce(UInt8(0)) { $0 ^ $1 }
        return sum == expected ? sentence : nil
    }

    static func secondsOfDay(_ text: String) -> Double? {
        guard text.count >= 6, let h = Double(text.prefix(2)), let m = Double(text.dropFirst(2).prefix(2)),
              let s = Double(text.dropFirst(4)), h < 24, m < 60, s < 61 else { return nil }
        return h * 3600 + m * 60 + s
    }

    static func dateFields(_ text: String) -> (Int, Int, Int)? {
        guard text.count == 6, let d = Int(text.prefix(2)), let m = Int(text.dropFirst(2).prefix(2)), let y = Int(text.suffix(2)),
              (1...31).contains(d), (1...12).contains(m) else { return nil }
        return (y < 80 ? 2000 + y : 1900 + y, m, d)
    }

    /// `ddmm.mmmm`, `N`, `dddmm.mmmm`, `E` as signed degrees.
    static func coordinate(_ lat: String, _ ns: String, _ lon: String, _ ew: String) -> (Double, Double)? {
        guard let la = Double(lat), let lo = Double(lon), ["N", "S"].contains(ns), ["E", "W"].contains(ew) else { return nil }
        var latitude = floor(la / 100) + la.truncatingRemainder(dividingBy: 100) / 60
        var longitude = floor(lo / 100) + lo.truncatingRemainder(dividingBy: 100) / 60
        if ns == "S" { latitude = -latitude }
        if ew == "W" { longitude = -longitude }
        guard abs(latitude) <= 90, abs(longitude) <= 180 else { return nil }
        return (latitude, longitude)
    }
}
