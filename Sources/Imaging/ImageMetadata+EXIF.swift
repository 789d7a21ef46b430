import Foundation

// EXIF tags this module reads and writes (TIFF 6.0, EXIF 2.32 §4.6).
private enum Tag {
    static let imageWidth: UInt16 = 0x0100, imageLength: UInt16 = 0x0101
    static let make: UInt16 = 0x010F, model: UInt16 = 0x0110
    static let exifIFD: UInt16 = 0x8769, gpsIFD: UInt16 = 0x8825
    static let exifVersion: UInt16 = 0x9000, dateTimeOriginal: UInt16 = 0x9003
    static let offsetTimeOriginal: UInt16 = 0x9011, subSecTimeOriginal: UInt16 = 0x9291
    static let pixelXDimension: UInt16 = 0xA002, pixelYDimension: UInt16 = 0xA003
    static let bodySerialNumber: UInt16 = 0xA431
    static let gpsVersionID: UInt16 = 0x0000, gpsLatitudeRef: UInt16 = 0x0001, gpsLatitude: UInt16 = 0x0002
    static let gpsLongitudeRef: UInt16 = 0x0003, gpsLongitude: UInt16 = 0x0004
    static let gpsAltitudeRef: UInt16 = 0x0005, gpsAltitude: UInt16 = 0x0006, gpsTimeStamp: UInt16 = 0x0007
    static let gpsImgDirectionRef: UInt16 = 0x0010, gpsImgDirection: UInt16 = 0x0011
    static let gpsDateStamp: UInt16 = 0x001D
}

// TIFF field types and their sizes in bytes.
private enum FieldType {
    static let byte: UInt16 = 1, ascii: UInt16 = 2, short: UInt16 = 3, long: UInt16 = 4, rational: UInt16 = 5
    static let undefined: UInt16 = 7, slong: UInt16 = 9, srational: UInt16 = 10
    static func size(_ type: UInt16) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11: 4
        case 5, 10, 12: 8
        default: nil
        }
    }
}

/// The 6-byte identifier that starts an EXIF APP1 payload.
let exifIdentifier: [UInt8] = Array("Exif".utf8) + [0, 0]

/// Fixed-point resolutions used when writing (so a value reads back within these).
enum ExifResolution {
    /// GPS latitude/longitude seconds: 1/10000 arc-second (about 3 mm).
    static let arcSecondDenominator: UInt32 = 10_000
    /// Altitude: 1 mm.
    static let altitudeDenominator: UInt32 = 1_000
    /// Image direction: 1/10000 degree.
    static let directionDenominator: UInt32 = 10_000
    /// GPS time seconds: 1 ms.
    static let secondDenominator: UInt32 = 1_000
}

extension ImageMetadata {
    /// The EXIF APP1 payload (`"Exif\0\0"` + a TIFF structure with IFD0, the Exif IFD and the GPS IFD),
    /// or `nil` when no EXIF field is set.
    /// - Throws: `ImagingError.invalidParameter` from `validate()`.
    public func exifPayload(byteOrder: ExifByteOrder = .littleEndian) throws -> [UInt8]? {
        try validate()
        guard hasExif else { return nil }
        let w = TIFFWriter(bigEndian: byteOrder == .bigEndian)
        var ifd0: [TIFFWriter.Entry] = [], exif: [TIFFWriter.Entry] = [], gps: [TIFFWriter.Entry] = []
        if let make { ifd0.append(w.ascii(Tag.make, make)) }
        if let model { ifd0.append(w.ascii(Tag.model, model)) }
        if dateTimeOriginal != nil || imageWidth != nil || imageHeight != nil || bodySerialNumber != nil {
            exif.append(.init(tag: Tag.exifVersion, type: FieldType.undefined, count: 4, data: Array("0232".utf8)))
        }
        if let dateTimeOriginal { exif.append(w.ascii(Tag.dateTimeOriginal, dateTimeOriginal)) }
        if let offsetTimeOriginal { exif.append(w.ascii(Tag.offsetTimeOriginal, offsetTimeOriginal)) }
        if let subSecTimeOriginal { exif.append(w.ascii(Tag.subSecTimeOriginal, subSecTimeOriginal)) }
        if let imageWidth { exif.append(w.long(Tag.pixelXDimension, UInt32(imageWidth))) }
        if let imageHeight { exif.append(w.long(Tag.pixelYDimension, UInt32(imageHeight))) }
        if let bodySerialNumber { exif.append(w.ascii(Tag.bodySerialNumber, bodySerialNumber)) }
        let hasGPS = latitudeDegrees != nil || longitudeDegrees != nil || altitudeMeters != nil
            || imageDirectionDegrees != nil || gpsTimestamp != nil
        if hasGPS {
            gps.append(.init(tag: Tag.gpsVersionID, type: FieldType.byte, count: 4, data: [2, 3, 0, 0]))
        }
        if let latitudeDegrees {
            gps.append(w.ascii(Tag.gpsLatitudeRef, latitudeDegrees < 0 ? "S" : "N"))
            gps.append(w.rationals(Tag.gpsLatitude, Self.degreesMinutesSeconds(abs(latitudeDegrees))))
        }
        if let longitudeDegrees {
            gps.append(w.ascii(Tag.gpsLongitudeRef, longitudeDegrees < 0 ? "W" : "E"))
            gps.append(w.rationals(Tag.gpsLongitude, Self.degreesMinutesSeconds(abs(longitudeDegrees))))
        }
        if let altitudeMeters {
            gps.append(.init(tag: Tag.gpsAltitudeRef, type: FieldType.byte, count: 1, data: [altitudeMeters < 0 ? 1 : 0]))
            let d = ExifResolution.altitudeDenominator
            gps.append(w.rationals(Tag.gpsAltitude, [(UInt32((abs(altitudeMeters) * Double(d)).rounded()), d)]))
        }
        if let gpsTimestamp {
            let (date, h, m, ms) = Self.utcComponents(gpsTimestamp)
            gps.append(w.rationals(Tag.gpsTimeStamp, [(h, 1), (m, 1), (ms, ExifResolution.secondDenominator)]))
            gps.append(w.ascii(Tag.gpsDateStamp, date))
        }
        if let imageDirectionDegrees {
            let d = ExifResolution.directionDenominator
            let scaled = UInt32((imageDirectionDegrees * Double(d)).rounded()) % (360 * d)
            gps.append(w.ascii(Tag.gpsImgDirectionRef, "T"))
            gps.append(w.rationals(Tag.gpsImgDirection, [(scaled, d)]))
        }
        if !exif.isEmpty { ifd0.append(w.long(Tag.exifIFD, 0)) }
        if !gps.isEmpty { ifd0.append(w.long(Tag.gpsIFD, 0)) }

        // Layout: header, IFD0, Exif IFD, GPS IFD; pointer values are fixed once sizes are known.
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + w.size(of: ifd0)
        let gpsOffset = exifOffset + (exif.isEmpty ? 0 : w.size(of: exif))
        for i in ifd0.indices {
            if ifd0[i].tag == Tag.exifIFD { ifd0[i].data = w.u32(UInt32(exifOffset)) }
            if ifd0[i].tag == Tag.gpsIFD { ifd0[i].data = w.u32(UInt32(gpsOffset)) }
        }
        var tiff: [UInt8] = byteOrder == .bigEndian ? Array("MM".utf8) : Array("II".utf8)
        tiff += w.u16(42) + w.u32(UInt32(ifd0Offset))
        tiff += w.serialize(ifd0, at: ifd0Offset)
        if !exif.isEmpty { tiff += w.serialize(exif, at: exifOffset) }
        if !gps.isEmpty { tiff += w.serialize(gps, at: gpsOffset) }
        guard tiff.count + exifIdentifier.count <= 65_533 else {
            throw ImagingError.metadata(file: nil, detail: "EXIF data of \(tiff.count) bytes exceeds one APP1 segment")
        }
        return exifIdentifier + tiff
    }

    /// Degrees as EXIF's three rationals: whole degrees, whole minutes, seconds in 1/10000.
    static func degreesMinutesSeconds(_ value: Double) -> [(UInt32, UInt32)] {
        let d = Int64(ExifResolution.arcSecondDenominator)
        let total = Int64((value * 3600 * Double(d)).rounded())
        let degrees = total / (3600 * d), rest = total % (3600 * d)
        return [(UInt32(degrees), 1), (UInt32(rest / (60 * d)), 1), (UInt32(rest % (60 * d)), UInt32(d))]
    }

    /// `("YYYY:MM:DD", hour, minute, milliseconds of the minute)` in UTC, proleptic Gregorian.
    static func utcComponents(_ date: Date) -> (String, UInt32, UInt32, UInt32) {
        let totalMs = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let dayMs: Int64 = 86_400_000
        var days = totalMs / dayMs, msOfDay = totalMs % dayMs
        if msOfDay < 0 { msOfDay += dayMs; days -= 1 }
        let date = CivilDate(daysSince1970: days)
        let pad = CivilDate.padded
        let text = "\(pad(date.year, 4)):\(pad(date.month, 2)):\(pad(date.day, 2))"
        return (text, UInt32(msOfDay / 3_600_000), UInt32(msOfDay / 60_000 % 60), UInt32(msOfDay % 60_000))
    }

    /// Seconds since 1970 for a UTC civil date and time (Howard Hinnant's days_from_civil).
    static func unixTime(year: Int64, month: Int64, day: Int64, seconds: Double) -> Double {
        let days = CivilDate(year: year, month: month, day: day).daysSince1970
        return Double(days) * 86_400 + seconds
    }

    /// Reads the fields this type knows from a TIFF structure (the APP1 payload after `"Exif\0\0"`),
    /// either byte order. Damage (offsets outside the data, wrong types, zero denominators) is reported
    /// in `warnings` and the affected field is skipped; this never traps.
    static func parseExif(_ tiff: ArraySlice<UInt8>, into metadata: inout ImageMetadata, warnings: inout [String]) {
        let bytes = Array(tiff)
        guard bytes.count >= 8 else { warnings.append("EXIF: TIFF header is only \(bytes.count) bytes"); return }
        let big: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): big = false
        case (0x4D, 0x4D): big = true
        default: warnings.append("EXIF: unknown byte order \(hexPrefix(bytes, count: 2))"); return
        }
        let r = TIFFReader(bytes: bytes, bigEndian: big)
        guard r.u16(2) == 42 else { warnings.append("EXIF: TIFF magic is not 42"); return }
        guard let ifd0Offset = r.u32(4), let ifd0 = r.entries(at: Int(ifd0Offset), name: "IFD0", warnings: &warnings)
        else { return }
        for e in ifd0 {
            switch e.tag {
            case Tag.make: metadata.make = r.ascii(e, warnings: &warnings)
            case Tag.model: metadata.model = r.ascii(e, warnings: &warnings)
            case Tag.imageWidth: metadata.imageWidth = metadata.imageWidth ?? r.integer(e, warnings: &warnings)
            case Tag.imageLength: metadata.imageHeight = metadata.imageHeight ?? r.integer(e, warnings: &warnings)
            default: break
            }
        }
        if let pointer = ifd0.first(where: { $0.tag == Tag.exifIFD }), let offset = r.integer(pointer, warnings: &warnings),
           let exif = r.entries(at: offset, name: "Exif IFD", warnings: &warnings) {
            for e in exif {
                switch e.tag {
                case Tag.dateTimeOriginal: metadata.dateTimeOriginal = r.ascii(e, warnings: &warnings)
                case Tag.offsetTimeOriginal: metadata.offsetTimeOriginal = r.ascii(e, warnings: &warnings)
                case Tag.subSecTimeOriginal: metadata.subSecTimeOriginal = r.ascii(e, warnings: &warnings)
                case Tag.pixelXDimension: metadata.imageWidth = r.integer(e, warnings: &warnings) ?? metadata.imageWidth
                case Tag.pixelYDimension: metadata.imageHeight = r.integer(e, warnings: &warnings) ?? metadata.imageHeight
                case Tag.bodySerialNumber:
                    // GoPro pads it with NULs to 30 bytes; an empty one says nothing.
                    metadata.bodySerialNumber = r.ascii(e, warnings: &warnings).flatMap { $0.isEmpty ? nil : $0 }
                default: break
                }
            }
        }
        guard let pointer = ifd0.first(where: { $0.tag == Tag.gpsIFD }), let offset = r.integer(pointer, warnings: &warnings),
              let gps = r.entries(at: offset, name: "GPS IFD", warnings: &warnings) else { return }
        func field(_ tag: UInt16) -> TIFFReader.Entry? { gps.first { $0.tag == tag } }
        func angle(_ tag: UInt16, _ refTag: UInt16, negative: String, name: String) -> Double? {
            guard let e = field(tag), let parts = r.rationals(e, warnings: &warnings), !parts.isEmpty else { return nil }
            var value = 0.0
            for (i, part) in parts.prefix(3).enumerated() { value += part / [1.0, 60.0, 3600.0][i] }
            let ref = field(refTag).flatMap { r.ascii($0, warnings: &warnings) }
            if ref == nil { warnings.append("EXIF: \(name) has no reference (N/S or E/W); read as positive") }
            return ref?.uppercased() == negative ? -value : value
        }
        metadata.latitudeDegrees = angle(Tag.gpsLatitude, Tag.gpsLatitudeRef, negative: "S", name: "GPSLatitude")
        metadata.longitudeDegrees = angle(Tag.gpsLongitude, Tag.gpsLongitudeRef, negative: "W", name: "GPSLongitude")
        if let e = field(Tag.gpsAltitude), let altitude = r.rationals(e, warnings: &warnings)?.first {
            let below = field(Tag.gpsAltitudeRef).flatMap { r.integer($0, warnings: &warnings) } == 1
            metadata.altitudeMeters = below ? -altitude : altitude
        }
        if let e = field(Tag.gpsImgDirection), let direction = r.rationals(e, warnings: &warnings)?.first {
            let ref = field(Tag.gpsImgDirectionRef).flatMap { r.ascii($0, warnings: &warnings) }
            if ref?.uppercased() == "M" {
                warnings.append("EXIF: GPSImgDirection is relative to magnetic north; not read as a true heading")
            } else {
                metadata.imageDirectionDegrees = direction
            }
        }
        if let e = field(Tag.gpsDateStamp), let text = r.ascii(e, warnings: &warnings) {
            let parts = text.split(separator: ":").compactMap { Int64($0.trimmingCharacters(in: .whitespaces)) }
            let time = field(Tag.gpsTimeStamp).flatMap { r.rationals($0, warnings: &warnings) } ?? [0, 0, 0]
            if parts.count == 3, time.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) {
                let seconds = time[0] * 3600 + time[1] * 60 + time[2]
                metadata.gpsTimestamp = Date(timeIntervalSince1970: unixTime(year: parts[0], month: parts[1],
                                                                             day: parts[2], seconds: seconds))
            } else {
                warnings.append("EXIF: GPSDateStamp '\(text)' or GPSTimeStamp is not a valid date and time")
            }
        }
    }
}

/// Builds TIFF IFDs in one byte order.
private struct TIFFWriter {
    struct Entry { var tag: UInt16; var type: UInt16; var count: UInt32; var data: [UInt8] }
    let bigEndian: Bool

    func u16(_ v: UInt16) -> [UInt8] { bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
    func u32(_ v: UInt32) -> [UInt8] {
        let b = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return bigEndian ? b : b.reversed()
    }
    func ascii(_ tag: UInt16, _ text: String) -> Entry {
        let data = Array(text.utf8) + [0]
        return Entry(tag: tag, type: FieldType.ascii, count: UInt32(data.count), data: data)
    }
    func long(_ tag: UInt16, _ value: UInt32) -> Entry {
        Entry(tag: tag, type: FieldType.long, count: 1, data: u32(value))
    }
    func rationals(_ tag: UInt16, _ values: [(UInt32, UInt32)]) -> Entry {
        Entry(tag: tag, type: FieldType.rational, count: UInt32(values.count),
              data: values.flatMap { u32($0.0) + u32($0.1) })
    }
    /// Bytes of the IFD with its out-of-line values (each padded to an even length).
    func size(of entries: [Entry]) -> Int {
        2 + 12 * entries.count + 4 + entries.reduce(0) { $0 + ($1.data.count > 4 ? ($1.data.count + 1) & ~1 : 0) }
    }
    /// The IFD placed at `offset` (from the TIFF header), entries sorted by tag, no next IFD.
    func serialize(_ entries: [Entry], at offset: Int) -> [UInt8] {
        let sorted = entries.sorted { $0.tag < $1.tag }
        var head = u16(UInt16(sorted.count)), values: [UInt8] = []
        let valuesOffset = offset + 2 + 12 * sorted.count + 4
        for e in sorted {
            head += u16(e.tag) + u16(e.type) + u32(e.count)
            if e.data.count <= 4 {
                head += e.data + [UInt8](repeating: 0, count: 4 - e.data.count)
            } else {
                head += u32(UInt32(valuesOffset + values.count))
                values += e.data
                if values.count % 2 == 1 { values.append(0) }
            }
        }
        return head + u32(0) + values
    }
}

/// Bounds-checked reads from a TIFF structure; every failure is a `nil` plus a warning.
private struct TIFFReader {
    struct Entry { var tag: UInt16; var type: UInt16; var count: Int; var entryOffset: Int }
    let bytes: [UInt8]
    let bigEndian: Bool

    func u16(_ i: Int) -> UInt16? {
        guard i >= 0, i + 2 <= bytes.count else { return nil }
        return bigEndian ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : UInt16(bytes[i + 1]) << 8 | UInt16(bytes[i])
    }
    func u32(_ i: Int) -> UInt32? {
        guard i >= 0, i + 4 <= bytes.count else { return nil }
        let b0 = UInt32(bytes[i]), b1 = UInt32(bytes[i + 1]), b2 = UInt32(bytes[i + 2]), b3 = UInt32(bytes[i + 3])
        return bigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
    }

    func entries(at offset: Int, name: String, warnings: inout [String]) -> [Entry]? {
        guard let count = u16(offset) else {
            warnings.append("EXIF: \(name) offset \(offset) is outside the \(bytes.count)-byte EXIF data")
            return nil
        }
        var result: [Entry] = []
        for k in 0..<Int(count) {
            let at = offset + 2 + 12 * k
            guard let tag = u16(at), let type = u16(at + 2), let n = u32(at + 4), u32(at + 8) != nil else {
                warnings.append("EXIF: \(name) declares \(count) entries but the data ends after \(k)")
                break
            }
            result.append(Entry(tag: tag, type: type, count: Int(n), entryOffset: at))
        }
        return result
    }

    /// The bytes of an entry's value, in file order.
    func value(_ e: Entry, warnings: inout [String]) -> ArraySlice<UInt8>? {
        guard let size = FieldType.size(e.type) else {
            warnings.append("EXIF: tag 0x\(String(e.tag, radix: 16)) has unknown type \(e.type)")
            return nil
        }
        let (total, overflow) = size.multipliedReportingOverflow(by: e.count)
        guard !overflow, total <= bytes.count else {
            warnings.append("EXIF: tag 0x\(String(e.tag, radix: 16)) declares \(e.count) values, more than the data holds")
            return nil
        }
        let start: Int
        if total <= 4 { start = e.entryOffset + 8 } else {
            guard let offset = u32(e.entryOffset + 8) else { return nil }
            start = Int(offset)
        }
        guard start + total <= bytes.count else {
            warnings.append("EXIF: tag 0x\(String(e.tag, radix: 16)) points to offset \(start), outside the "
                            + "\(bytes.count)-byte EXIF data")
            return nil
        }
        return bytes[start..<(start + total)]
    }

    func ascii(_ e: Entry, warnings: inout [String]) -> String? {
        guard e.type == FieldType.ascii || e.type == FieldType.undefined || e.type == FieldType.byte,
              let raw = value(e, warnings: &warnings) else { return nil }
        let text = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        return text.trimmingCharacters(in: .whitespaces)
    }

    func integer(_ e: Entry, warnings: inout [String]) -> Int? {
        guard e.count >= 1, let raw = value(e, warnings: &warnings) else { return nil }
        let i = raw.startIndex
        switch e.type {
        case FieldType.byte, FieldType.undefined: return Int(raw[i])
        case FieldType.short: return u16(i).map(Int.init)
        case FieldType.long, FieldType.slong: return u32(i).map(Int.init)
        default:
            warnings.append("EXIF: tag 0x\(String(e.tag, radix: 16)) has type \(e.type), expected an integer")
            return nil
        }
    }

    func rationals(_ e: Entry, warnings: inout [String]) -> [Double]? {
        guard e.type == FieldType.rational || e.type == FieldType.srational else {
            warnings.append("EXIF: tag 0x\(String(e.tag, radix: 16)) has type \(e.type), expected RATIONAL")
            return nil
        }
        guard let raw = value(e, warnings: &warnings) else { return nil }
        var out: [Double] = []
        for k in 0..<e.count {
            guard let n = u32(raw.startIndex + 8 * k), let d = u32(raw.startIndex + 8 * k + 4) else { return nil }
            guard d != 0 else {
                warnings.append("EXIF: tag 0x\(String(e.tag, radix: 16)) has a zero denominator")
                return nil
            }
            out.append(e.type == FieldType.srational ? Double(Int32(bitPattern: n)) / Double(Int32(bitPattern: d))
                                                     : Double(n) / Double(d))
        }
        return out
    }
}
