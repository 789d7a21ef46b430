import Foundation
import Imaging

/// The small JPEG some cameras keep inside EXIF (IFD1: a RICOH THETA's 10 KB preview, a phone's):
/// it shows the whole photo, faces and plates too, so once regions are blurred it is made again from the
/// blurred photo — same size, written into the same bytes (the EXIF structure, its offsets and length
/// stay as they were; the new thumbnail is zero-padded to the old length).
enum ExifThumbnail {
    /// `jpeg` with its EXIF thumbnail remade from `pixels` when `regions` is not empty; `jpeg` unchanged
    /// when it has no thumbnail or nothing is blurred.
    static func blurring(_ regions: [PrivacyRegion], photoWidth: Int, photoHeight: Int, in jpeg: [UInt8],
                         pixels: RGB8Image) throws -> [UInt8] {
        guard !regions.isEmpty, let location = locate(jpeg) else { return jpeg }
        let old = Array(jpeg[location])
        guard let header = try? JPEGCodec.readHeader(old), header.width > 0, header.height > 0 else { return jpeg }
        let small = resize(pixels, width: header.width, height: header.height)
        var replacement: [UInt8]?
        for quality in [85, 70, 55, 40, 25, 10] {
            let encoded = try JPEGCodec.encode(small, quality: quality, subsampling: .chroma420)
            if encoded.count <= old.count { replacement = encoded; break }
        }
        // Too small a slot even at quality 10: one flat colour (the photo's mean) fits any real thumbnail's.
        if replacement == nil {
            let mean = (0..<3).map { c in
                UInt8(stride(from: c, to: small.components.count, by: 3).reduce(0) { $0 + Int(small.components[$1]) } / small.pixelCount)
            }
            var flat = RGB8Image(width: header.width, height: header.height)
            for i in 0..<flat.pixelCount { for c in 0..<3 { flat.components[3 * i + c] = mean[c] } }
            let encoded = try JPEGCodec.encode(flat, quality: 10, subsampling: .chroma420)
            guard encoded.count <= old.count else { return jpeg }
            replacement = encoded
        }
        guard var bytes = replacement else { return jpeg }
        bytes += [UInt8](repeating: 0, count: old.count - bytes.count)
        var out = jpeg
        out.replaceSubrange(location, with: bytes)
        return out
    }

    /// The byte range of the EXIF thumbnail (IFD1's JPEGInterchangeFormat and its length), if any.
    static func locate(_ jpeg: [UInt8]) -> Range<Int>? {
        var exif: Range<Int>?
        PrivacyMarker.walk(jpeg) { marker, _, payload in
            if exif == nil, marker == 0xE1, payload.count > 14, Array(jpeg[payload.prefix(6)]) == Array("Exif".utf8) + [0, 0] {
                exif = (payload.lowerBound + 6)..<payload.upperBound
            }
        }
        guard let tiff = exif else { return nil }
        let base = tiff.lowerBound
        let little: Bool
        switch (jpeg[base], jpeg[base + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ at: Int) -> Int? {
            guard at >= base, at + 2 <= tiff.upperBound else { return nil }
            return little ? Int(jpeg[at]) | Int(jpeg[at + 1]) << 8 : Int(jpeg[at]) << 8 | Int(jpeg[at + 1])
        }
        func u32(_ at: Int) -> Int? {
            guard let low = u16(little ? at : at + 2), let high = u16(little ? at + 2 : at) else { return nil }
            return high << 16 | low
        }
        guard let ifd0 = u32(base + 4), let count0 = u16(base + ifd0), let ifd1 = u32(base + ifd0 + 2 + 12 * count0), ifd1 > 0,
              let count1 = u16(base + ifd1) else { return nil }
        var offset: Int?, length: Int?
        for k in 0..<count1 {
            let entry = base + ifd1 + 2 + 12 * k
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0201 { offset = u32(entry + 8) }
            if tag == 0x0202 { length = u32(entry + 8) }
        }
        guard let offset, let length, length > 4, base + offset + length <= tiff.upperBound,
              jpeg[base + offset] == 0xFF, jpeg[base + offset + 1] == 0xD8 else { return nil }
        return (base + offset)..<(base + offset + length)
    }

    /// `image` resampled to `width` × `height` by averaging the pixels under each output pixel.
    static func resize(_ image: RGB8Image, width: Int, height: Int) -> RGB8Image {
        var out = RGB8Image(width: width, height: height)
        for y in 0..<height {
            let y0 = y * image.height / height, y1 = max(y0 + 1, (y + 1) * image.height / height)
            for x in 0..<width {
                let x0 = x * image.width / width, x1 = max(x0 + 1, (x + 1) * image.width / width)
                // At most 8 × 8 samples per output pixel: enough for a thumbnail.
                let stepY = max(1, (y1 - y0) / 8), stepX = max(1, (x1 - x0) / 8)
                var sums = [0, 0, 0], count = 0
                for sy in stride(from: y0, to: y1, by: stepY) {
                    for sx in stride(from: x0, to: x1, by: stepX) {
                        let i = (sy * image.width + sx) * 3
                        sums[0] += Int(image.components[i]); sums[1] += Int(image.components[i + 1]); sums[2] += Int(image.components[i + 2])
                        count += 1
                    }
                }
                for c in 0..<3 { out.components[(y * width + x) * 3 + c] = UInt8(sums[c] / count) }
            }
        }
        return out
    }
}
