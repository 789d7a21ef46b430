import Foundation

/// One GPS position for a test recording.
public struct TestFix: Sendable {
    public var latitude: Double, longitude: Double, altitudeMeters: Double
    public var speedMetersPerSecond: Double
    public var utc: Date
    public init(latitude: Double, longitude: Double, altitudeMeters: Double = 10, speedMetersPerSecond: Double, utc: Date) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMeters = altitudeMeters
        self.speedMetersPerSecond = speedMetersPerSecond
        self.utc = utc
    }
}

/// GoPro Metadata Format payloads as a camera writes them (gopro/gpmf-parser's README): KLV entries,
/// big-endian, padded to 4 bytes; DEVC → STRM → (STNM, GPSF, GPSU, GPSP, UNIT, SCAL, GPS5) and the
/// orientation streams (CORI with SCAL 32767, GRAV).
public enum GPMFWriter {
    public static func entry(_ key: String, _ type: Character, size: Int, count: Int, _ payload: [UInt8]) -> [UInt8] {
        precondition(key.utf8.count == 4 && payload.count == size * count)
        let padding = (4 - payload.count % 4) % 4
        return Array(key.utf8) + [type.asciiValue ?? 0, UInt8(size), UInt8(count >> 8), UInt8(count & 0xFF)] + payload
            + [UInt8](repeating: 0, count: padding)
    }

    public static func nest(_ key: String, _ children: [UInt8]) -> [UInt8] {
        // Nested entries: type 0, size 4, repeat = bytes / 4.
        Array(key.utf8) + [0, 4, UInt8((children.count / 4) >> 8), UInt8((children.count / 4) & 0xFF)] + children
    }

    static func be32(_ v: Int32) -> [UInt8] { let u = UInt32(bitPattern: v); return [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)] }
    static func be16(_ v: Int16) -> [UInt8] { let u = UInt16(bitPattern: v); return [UInt8(u >> 8), UInt8(u & 0xFF)] }
    static func text(_ s: String) -> [UInt8] { Array(s.utf8) }

    /// `GPSU` text for an instant: `yymmddhhmmss.sss` UTC.
    static func gpsu(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyMMddHHmmss.SSS"
        return formatter.string(from: date)
    }

    /// One payload (one second of a `gpmd` track): the camera device with a GPS5 stream of `fixes`
    /// (fix 3, DOP `precision`), and orientation streams of `quaternions` (w, x, y, z) and `gravity`.
    public static func payload(device: String = "GoPro Max", fixes: [TestFix], fix: Int = 3, precision: Int = 150,
                               quaternions: [(Double, Double, Double, Double)] = [], gravity: [(Double, Double, Double)] = []) -> [UInt8] {
        var device = entry("DVID", "L", size: 4, count: 1, be32(1)) + entry("DVNM", "c", size: device.utf8.count, count: 1, text(device))
        if !fixes.isEmpty {
            let scale: [Int32] = [10_000_000, 10_000_000, 1000, 1000, 100]
            var gps: [UInt8] = []
            for f in fixes {
                gps += be32(Int32((f.latitude * 1e7).rounded())) + be32(Int32((f.longitude * 1e7).rounded()))
                    + be32(Int32((f.altitudeMeters * 1000).rounded())) + be32(Int32((f.speedMetersPerSecond * 1000).rounded()))
                    + be32(Int32((f.speedMetersPerSecond * 100).rounded()))
            }
            let stream = entry("STNM", "c", size: 43, count: 1, text("GPS (Lat., Long., Alt., 2D speed, 3D speed)"))
                + entry("GPSF", "L", size: 4, count: 1, be32(Int32(fix)))
                + entry("GPSU", "U", size: 16, count: 1, text(gpsu(fixes[0].utc)))
                + entry("GPSP", "S", size: 2, count: 1, be16(Int16(precision)))
                + entry("UNIT", "c", size: 3, count: 5, text("degdegm\0\0m/sm/s"))
                + entry("SCAL", "l", size: 4, count: 5, scale.flatMap(be32))
                + entry("GPS5", "l", size: 20, count: fixes.count, gps)
            device += nest("STRM", stream)
        }
        if !quaternions.isEmpty {
            let values = quaternions.flatMap { q in [q.0, q.1, q.2, q.3].flatMap { be16(Int16(($0 * 32767).rounded())) } }
            device += nest("STRM", entry("STNM", "c", size: 18, count: 1, text("CameraOrientation"))
                           + entry("SCAL", "s", size: 2, count: 1, be16(32767)) + entry("CORI", "s", size: 8, count: quaternions.count, values))
        }
        if !gravity.isEmpty {
            let values = gravity.flatMap { g in [g.0, g.1, g.2].flatMap { be16(Int16(($0 * 32767).rounded())) } }
            device += nest("STRM", entry("STNM", "c", size: 14, count: 1, text("Gravity Vector"))
                           + entry("SCAL", "s", size: 2, count: 1, be16(32767)) + entry("GRAV", "s", size: 6, count: gravity.count, values))
        }
        return nest("DEVC", device)
    }

    /// A GPS9 payload (HERO11 and later): TYPE `lllllllSS`, time per sample (days since 2000, seconds of the day).
    public static func gps9Payload(fixes: [TestFix], fix: Int = 3, dop: Double = 1.5) -> [UInt8] {
        var gps: [UInt8] = []
        for f in fixes {
            let t = f.utc.timeIntervalSince1970 - 946_684_800
            let days = (t / 86_400).rounded(.down), seconds = t - days * 86_400
            gps += be32(Int32((f.latitude * 1e7).rounded())) + be32(Int32((f.longitude * 1e7).rounded()))
                + be32(Int32((f.altitudeMeters * 1000).rounded())) + be32(Int32((f.speedMetersPerSecond * 1000).rounded()))
                + be32(Int32((f.speedMetersPerSecond * 100).rounded())) + be32(Int32(days)) + be32(Int32((seconds * 1000).rounded()))
                + be16(Int16((dop * 100).rounded())) + be16(Int16(fix))
        }
        let scale: [Int32] = [10_000_000, 10_000_000, 1000, 1000, 100, 1, 1000, 100, 1]
        let stream = entry("STNM", "c", size: 12, count: 1, text("GPS9 (test) "))
            + entry("TYPE", "c", size: 9, count: 1, text("lllllllSS"))
            + entry("SCAL", "l", size: 4, count: 9, scale.flatMap(be32))
            + entry("GPS9", "?", size: 32, count: fixes.count, gps)
        return nest("DEVC", entry("DVID", "L", size: 4, count: 1, be32(1)) + entry("DVNM", "c", size: 11, count: 1, text("HERO12 Blk ")) + nest("STRM", stream))
    }
}

/// Google's Camera Motion Metadata samples (little-endian records).
public enum CAMMWriter {
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
    static func double(_ v: Double) -> [UInt8] { let b = v.bitPattern; return le32(UInt32(b & 0xFFFF_FFFF)) + le32(UInt32(b >> 32)) }
    static func float(_ v: Float) -> [UInt8] { le32(v.bitPattern) }

    /// A type 6 record (GPS with time since the GPS epoch, fix, position, accuracy, velocity).
    public static func gps(_ f: TestFix, bearingDegrees: Double) -> [UInt8] {
        let gpsTime = f.utc.timeIntervalSince1970 - 315_964_800
        let b = bearingDegrees * .pi / 180
        return le16(0) + le16(6) + double(gpsTime) + le32(3) + double(f.latitude) + double(f.longitude) + float(Float(f.altitudeMeters))
            + float(3) + float(5) + float(Float(f.speedMetersPerSecond * sin(b))) + float(Float(f.speedMetersPerSecond * cos(b)))
            + float(0) + float(0.5)
    }

    /// A type 5 record (latitude, longitude, altitude).
    public static func position(_ f: TestFix) -> [UInt8] {
        le16(0) + le16(5) + double(f.latitude) + double(f.longitude) + double(f.altitudeMeters)
    }
}

/// The trailer Insta360 cameras append to `.insv` files (exiftool's reading of it).
public enum Insta360TrailerWriter {
    static func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    static func le32(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
    static func double(_ v: Double) -> [UInt8] { let b = v.bitPattern; return le32(Int(b & 0xFFFF_FFFF)) + le32(Int(b >> 32)) }

    /// The trailer: a maker-notes record (serial, model), a GPS record of `fixes`, then the 78-byte tail.
    public static func trailer(fixes: [TestFix], voidFixes: Int = 0, model: String = "Insta360 X3", serial: String = "IAQEB2203XXXXX") -> [UInt8] {
        var gps: [UInt8] = []
        for (k, f) in fixes.enumerated() {
            let seconds = Int(f.utc.timeIntervalSince1970), ms = Int(((f.utc.timeIntervalSince1970 - Double(seconds)) * 1000).rounded())
            let valid: UInt8 = k < voidFixes ? UInt8(ascii: "V") : UInt8(ascii: "A")
            gps += le32(seconds) + le32(0) + le16(ms) + [valid] + double(abs(f.latitude)) + [UInt8(ascii: f.latitude < 0 ? "S" : "N")]
                + double(abs(f.longitude)) + [UInt8(ascii: f.longitude < 0 ? "W" : "E")] + double(f.speedMetersPerSecond) + double(0)
                + double(f.altitudeMeters)
        }
        let notes: [UInt8] = [0x0a, UInt8(serial.utf8.count)] + Array(serial.utf8) + [0x12, UInt8(model.utf8.count)] + Array(model.utf8)
        var records = notes + le16(0x101) + le32(notes.count)
        records += gps
        // The last record's header starts the 78-byte tail: id, length, 32 bytes, the trailer length at 38.
        let tailWithoutLength = le16(0x700) + le32(gps.count) + [UInt8](repeating: 0, count: 32)
        let total = records.count + 78
        let tail = tailWithoutLength + le32(total) + le32(3) + Array("8db42d694ccc418790edff439fe026bf".utf8)
        precondition(tail.count == 78)
        return records + tail
    }
}
