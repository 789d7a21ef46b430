import Foundation

/// The trailer Insta360 cameras append to `.insv` files (exiftool's `ProcessInsta360`): the last 78 bytes
/// end with the ASCII magic `8db42d694ccc418790edff439fe026bf`, hold the trailer's length (little-endian
/// `uint32` at offset 38) and begin with the last record's header. Records are read from the end: each is
/// its data followed by a 6-byte header (`uint16` id, `uint32` length). Record 0x700 is GPS, 53 bytes per
/// fix: Unix time (`uint64`), milliseconds (`uint16`), `A` for a valid fix, latitude (double) with `N`/`S`,
/// longitude (double) with `E`/`W`, speed (m/s), track (degrees), altitude (metres), little-endian.
/// Record 0x101 holds the camera's model and serial.
public enum Insta360Trailer {
    /// The magic at the very end of the file.
    static let magic = Array("8db42d694ccc418790edff439fe026bf".utf8)
    /// The GPS record's id and one fix's size.
    static let gpsRecord: UInt16 = 0x700, gpsFixBytes = 53
    /// The largest trailer read (an hour's IMU records are tens of MB).
    static let maximumTrailerBytes: Int64 = 512 << 20

    /// What the trailer holds.
    public struct Contents: Sendable {
        /// The GPS fixes with their UTC, valid ones only, in time order.
        public var fixes: [GPSSample]
        /// Fixes marked void.
        public var voidFixes: Int
        /// Record ids present, in file order.
        public var recordIDs: [Int]
        /// The camera model and serial from record 0x101, when present.
        public var model: String?, serial: String?
    }

    /// Whether the file ends with the trailer's magic.
    static func hasTrailer(_ reader: VideoFileReader) -> Bool {
        guard reader.size >= 78, let tail = try? reader.read(at: reader.size - 32, count: 32) else { return false }
        return tail == magic
    }

    /// Reads the trailer of `reader`'s file; nil when there is none.
    /// - Throws: `VideoError.badTelemetry` for a trailer whose length or records do not fit the file.
    static func read(_ reader: VideoFileReader) throws(VideoError) -> Contents? {
        guard hasTrailer(reader) else { return nil }
        let tail = try reader.read(at: reader.size - 78, count: 78)[...]
        let trailerLength = Int64(ByteCursor.le32(tail, 38))
        guard trailerLength >= 78, trailerLength <= reader.size, trailerLength <= maximumTrailerBytes else {
            throw .badTelemetry(path: reader.path, detail: "the Insta360 trailer declares \(trailerLength) bytes in a file of \(reader.size)")
        }
        let start = reader.size - trailerLength
        let trailer = try reader.read(at: start, count: Int(trailerLength))[...]
        var contents = Contents(fixes: [], voidFixes: 0, recordIDs: [])
        // Positions relative to the trailer's start; the first header is the tail's first 6 bytes.
        var header = trailer.count - 78
        var guardCount = 0
        while header >= 0, header + 6 <= trailer.count, guardCount < 100_000 {
            guardCount += 1
            let id = ByteCursor.le16(trailer, header), length = Int(ByteCursor.le32(trailer, header + 2))
            let dataStart = header - length
            guard length >= 0, dataStart >= 0 else { break }
            contents.recordIDs.insert(Int(id), at: 0)
            let data = trailer[dataStart..<header]
            switch id {
            case gpsRecord:
                guard length % gpsFixBytes == 0 else {
                    throw .badTelemetry(path: reader.path, detail: "the Insta360 GPS record is \(length) bytes, not a multiple of \(gpsFixBytes)")
                }
                for p in stride(from: data.startIndex, to: data.endIndex, by: gpsFixBytes) {
                    let seconds = Double(ByteCursor.le64(trailer, p)), ms = Double(ByteCursor.le16(trailer, p + 8))
                    guard trailer[p + 10] == UInt8(ascii: "A") else { contents.voidFixes += 1; continue }
                    let ns = trailer[p + 19], ew = trailer[p + 28]
                    guard ns == UInt8(ascii: "N") || ns == UInt8(ascii: "S"),
                          ew == UInt8(ascii: "E") || ew == UInt8(ascii: "W") || ew == UInt8(ascii: "O") else {
                        throw .badTelemetry(path: reader.path, detail: "an Insta360 GPS fix has hemisphere letters '\(Character(Unicode.Scalar(ns)))', "
                                            + "'\(Character(Unicode.Scalar(ew)))' (expected N/S and E/W)")
                    }
                    var latitude = abs(ByteCursor.leDouble(trailer, p + 11)), longitude = abs(ByteCursor.leDouble(trailer, p + 20))
                    if ns == UInt8(ascii: "S") { latitude = -latitude }
                    if ew != UInt8(ascii: "E") { longitude = -longitude }
                    let utc = Date(timeIntervalSince1970: seconds + (ms < 1000 ? ms / 1000 : 0))
                    let speed = ByteCursor.leDouble(trailer, p + 29)
                    contents.fixes.append(GPSSample(timeSeconds: 0, latitude: latitude, longitude: longitude,
                                                    altitudeMeters: ByteCursor.leDouble(trailer, p + 45),
                                                    speedMetersPerSecond: speed.isFinite ? speed : nil, fix: 3, utc: utc))
                }
            case 0x101:
                // Maker notes: up to four (tag, length, text) triples; 0x0a serial, 0x12 model, 0x1a firmware (exiftool).
                var p = data.startIndex
                for _ in 0..<8 where p + 2 <= data.endIndex {
                    let tag = trailer[p], n = Int(trailer[p + 1])
                    guard p + 2 + n <= data.endIndex else { break }
                    let text = BoxParser.text(trailer[(p + 2)..<(p + 2 + n)])
                    if tag == 0x0a { contents.serial = text }
                    if tag == 0x12 { contents.model = text }
                    p += 2 + n
                }
            default:
                break
            }
            header = dataStart - 6
        }
        contents.fixes.sort { ($0.utc ?? .distantPast) < ($1.utc ?? .distantPast) }
        return contents
    }

    /// The trailer's fixes as telemetry on a video clock that starts at `startUTC`.
    static func telemetry(_ contents: Contents, startUTC: Date) -> Telemetry {
        var fixes = contents.fixes
        for k in fixes.indices { fixes[k].timeSeconds = fixes[k].utc!.timeIntervalSince(startUTC) }
        var result = Telemetry(source: "Insta360 trailer", gps: fixes)
        result.gpsRead = fixes.count + contents.voidFixes
        result.droppedNoFix = contents.voidFixes
        result.startUTC = startUTC
        result.deviceName = contents.model
        result.serialNumber = contents.serial
        result.filter()
        return result
    }
}
