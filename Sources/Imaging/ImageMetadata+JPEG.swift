import Foundation

extension ImageMetadata {
    /// The APP1 segments (marker, length, payload) to place right after SOI: EXIF first, then XMP.
    func jpegSegments(byteOrder: ExifByteOrder = .littleEndian) throws -> [[UInt8]] {
        var segments: [[UInt8]] = []
        if let exif = try exifPayload(byteOrder: byteOrder) { segments.append(Self.app1(exif)) }
        if let xmp = try xmpPacket() {
            let payload = xmpIdentifier + Array(xmp.utf8)
            guard payload.count <= 65_533 else {
                throw ImagingError.metadata(file: nil, detail: "XMP packet of \(payload.count) bytes exceeds one APP1 segment")
            }
            segments.append(Self.app1(payload))
        }
        return segments
    }

    private static func app1(_ payload: [UInt8]) -> [UInt8] {
        let length = payload.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
    }

    /// A copy of `jpeg` with its EXIF and XMP APP1 segments replaced by this metadata's (pixels untouched).
    /// - Throws: `ImagingError` when `jpeg` is not a JPEG or its markers are damaged before the first scan.
    public func replacingMetadata(in jpeg: [UInt8], file: String? = nil,
                                  byteOrder: ExifByteOrder = .littleEndian) throws -> [UInt8] {
        try JPEGCodec.checkMagic(jpeg, file: file)
        var kept: [UInt8] = [0xFF, 0xD8]
        var scanStart = jpeg.count
        try Self.walkMarkers(jpeg, file: file) { marker, start, end in
            let payload = jpeg[(start + 4)..<end]
            let isOurs = marker == 0xE1 && (payload.starts(with: exifIdentifier) || payload.starts(with: xmpIdentifier))
            if !isOurs { kept += jpeg[start..<end] }
        } atScan: { scanStart = $0 }
        guard scanStart < jpeg.count else {
            throw ImagingError.truncated(file: file, format: JPEGCodec.format, detail: "no scan (SOS) after the headers")
        }
        return [0xFF, 0xD8] + (try jpegSegments(byteOrder: byteOrder)).flatMap { $0 } + kept.dropFirst(2) + jpeg[scanStart...]
    }

    /// Reads EXIF (either byte order) and GPano XMP by walking the markers up to the first scan; no
    /// pixel is decoded, so this takes microseconds. Damaged metadata gives warnings, not errors.
    /// - Throws: `ImagingError.empty` / `.wrongFormat` when `data` is not a JPEG at all.
    public static func read(fromJPEG data: [UInt8], file: String? = nil) throws -> ImageMetadataReadResult {
        try JPEGCodec.checkMagic(data, file: file)
        var result = ImageMetadataReadResult(metadata: ImageMetadata(), pixelSize: nil, warnings: [])
        var sawScan = false
        do {
            try walkMarkers(data, file: file) { marker, start, end in
                let payload = data[(start + 4)..<end]
                switch marker {
                case 0xE1 where payload.starts(with: exifIdentifier):
                    parseExif(payload.dropFirst(exifIdentifier.count), into: &result.metadata, warnings: &result.warnings)
                case 0xE1 where payload.starts(with: xmpIdentifier):
                    if let p = parseXMP(payload.dropFirst(xmpIdentifier.count), warnings: &result.warnings) {
                        result.metadata.panorama = p
                    }
                case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                    if payload.count >= 5 {
                        let i = payload.startIndex
                        let h = Int(payload[i + 1]) << 8 | Int(payload[i + 2])
                        let w = Int(payload[i + 3]) << 8 | Int(payload[i + 4])
                        result.pixelSize = PixelSize(width: w, height: h)
                    }
                default: break
                }
            } atScan: { _ in sawScan = true }
        } catch let error as ImagingError {
            result.warnings.append("\(error)")
        }
        if !sawScan && result.warnings.isEmpty {
            result.warnings.append("no scan (SOS) marker: the file ends after its headers")
        }
        return result
    }

    /// Reads metadata from a JPEG file, loading only its first 256 KiB unless the headers run longer.
    /// - Throws: `ImagingError.fileNotFound` for a missing file, `.io` for an unreadable one, and as `read(fromJPEG:file:)`.
    public static func read(fromJPEGFile path: String) throws -> ImageMetadataReadResult {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { throw ImagingError.fileNotFound(path: path) }
            throw ImagingError.io(path: path, detail: "cannot be read (check its permissions)")
        }
        defer { try? handle.close() }
        let prefixBytes = 256 * 1024
        let head = [UInt8]((try? handle.read(upToCount: prefixBytes)) ?? Data())
        let result = try read(fromJPEG: head, file: path)
        let endedEarly = result.warnings.contains { $0.contains("past the end") || $0.contains("before the first scan") }
        guard head.count == prefixBytes, endedEarly else {
            return result
        }
        return try read(fromJPEG: try ImageFile.read(path), file: path)
    }

    /// Calls `segment(marker, start, end)` for each marker segment between SOI and the first SOS
    /// (`start` is the 0xFF, `end` one past the payload), then `atScan(start of SOS)`.
    /// - Throws: `ImagingError.truncated` / `.corrupt` naming the offset where the structure breaks.
    static func walkMarkers(_ data: [UInt8], file: String?, segment: (UInt8, Int, Int) throws -> Void,
                            atScan: (Int) -> Void) throws {
        var i = 2
        while i < data.count {
            guard data[i] == 0xFF else {
                throw ImagingError.corrupt(file: file, format: JPEGCodec.format,
                                           detail: "expected a marker at offset \(i), found \(hexPrefix([data[i]], count: 1))")
            }
            var m = i + 1
            while m < data.count && data[m] == 0xFF { m += 1 }     // fill bytes
            guard m < data.count else { break }
            let marker = data[m]
            let start = m - 1
            if marker == 0xDA { atScan(start); return }
            if marker == 0xD9 { return }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 { i = m + 1; continue }
            guard m + 2 < data.count else { break }
            let length = Int(data[m + 1]) << 8 | Int(data[m + 2])
            guard length >= 2 else {
                throw ImagingError.corrupt(file: file, format: JPEGCodec.format,
                                           detail: "segment 0xFF\(hexPrefix([marker], count: 1).dropFirst(2)) at offset \(start) has length \(length)")
            }
            let end = m + 1 + length
            guard end <= data.count else {
                throw ImagingError.truncated(file: file, format: JPEGCodec.format,
                                             detail: "segment at offset \(start) runs past the end of the data (\(data.count) bytes)")
            }
            try segment(marker, start, end)
            i = end
        }
        throw ImagingError.truncated(file: file, format: JPEGCodec.format,
                                     detail: "the data (\(data.count) bytes) ends before the first scan")
    }
}
