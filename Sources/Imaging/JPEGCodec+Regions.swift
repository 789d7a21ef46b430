import CImagingShims

/// What TurboJPEG's API cannot do, through libjpeg's (CImagingShims): cut a JPEG into tiles without
/// decoding it, and decode only a region of it at a DCT scale.
extension JPEGCodec {
    /// A JPEG cut into tiles losslessly (``losslessTiles(_:tileSize:file:)``).
    public struct LosslessTiles: Sendable {
        /// The image's size, pixels.
        public var width: Int, height: Int
        /// Tiles across and down.
        public var columns: Int, rows: Int
        /// The tiles, row-major: each a baseline JPEG of its part (edge tiles smaller), no metadata.
        public var tiles: [[UInt8]]
    }

    /// Cuts `data` into `tileSize`-pixel tiles holding the very DCT coefficients of the original: no
    /// decoding, no generation loss, each tile's Huffman tables optimised (together about the original's
    /// size). The coefficients are read once: about `2 × pixels × components' share` bytes (3 bytes per pixel
    /// for 4:2:0) held while the tiles are written.
    /// - Returns: nil when the tiles would not be whole MCUs (a 256-pixel tile of a JPEG with 24-pixel MCUs).
    /// - Throws: `ImagingError.truncated` or `.corrupt` for damaged data (even what libjpeg would work around).
    public static func losslessTiles(_ data: [UInt8], tileSize: Int, file: String? = nil) throws -> LosslessTiles? {
        let header = try readHeader(data, file: file)
        let columns = (header.width + tileSize - 1) / max(1, tileSize), rows = (header.height + tileSize - 1) / max(1, tileSize)
        let capacity = max(1, columns * rows)
        var pointers = [UnsafeMutablePointer<UInt8>?](repeating: nil, count: capacity)
        var sizes = [UInt](repeating: 0, count: capacity)
        var outColumns: Int32 = 0, outRows: Int32 = 0, width: UInt32 = 0, height: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { bytes in
            lk_jpeg_lossless_tiles(bytes.baseAddress, bytes.count, Int32(tileSize), Int32(capacity), &pointers, &sizes,
                                   &outColumns, &outRows, &width, &height, &message, message.count)
        }
        switch Int(status) {
        case Int(LK_JPEG_OK): break
        case Int(LK_JPEG_UNALIGNED): return nil
        default:
            throw failure(String(cString: message), file: file)
        }
        let count = Int(outColumns) * Int(outRows)
        var tiles: [[UInt8]] = []
        tiles.reserveCapacity(count)
        for i in 0..<count {
            tiles.append(Array(UnsafeBufferPointer(start: pointers[i], count: Int(sizes[i]))))
            lk_free(pointers[i])
        }
        return LosslessTiles(width: Int(width), height: Int(height), columns: Int(outColumns), rows: Int(outRows), tiles: tiles)
    }

    /// Decodes the rows `rows` and (at least) the columns `columns` of `data` scaled by `scale` (1/1, 1/2,
    /// 1/4 or 1/8; in the scaled image's pixels, whose size must be `width` × `height`) into `destination`,
    /// 4 bytes a pixel (R, G, B, 0), `rowBytes` a row, laid out as the whole scaled image: rows above are
    /// skipped without their inverse DCT, rows below are never read, columns outside are not transformed.
    /// What the first view of a large panorama without tile files needs (a 90° view reads a quarter of
    /// the columns and the rows down to the bottom of the view).
    /// - Returns: the columns decoded (widened to whole iMCUs).
    /// - Throws: `ImagingError.truncated` or `.corrupt` for damaged data; `.invalidParameter` for a scale other than those
    ///   four, a size that is not the file's at that scale, or an empty region.
    public static func decodeRegion(_ data: [UInt8], file: String? = nil, scale: JPEGScale, width: Int, height: Int,
                                    columns: Range<Int>, rows: Range<Int>, into destination: UnsafeMutableRawPointer,
                                    rowBytes: Int) throws -> Range<Int> {
        guard scale.numerator == 1, [1, 2, 4, 8].contains(scale.denominator) else {
            throw ImagingError.invalidParameter(name: "region decode scale", value: "\(scale)", allowed: "1/1, 1/2, 1/4 or 1/8")
        }
        guard columns.lowerBound >= 0, rows.lowerBound >= 0, !columns.isEmpty, !rows.isEmpty,
              columns.upperBound <= width, rows.upperBound <= height, rowBytes >= 4 * width else {
            throw ImagingError.invalidParameter(name: "region", value: "columns \(columns), rows \(rows)", allowed: "inside \(width)×\(height)")
        }
        var decoded0: UInt32 = 0, decoded1: UInt32 = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { bytes in
            lk_jpeg_decode_region(bytes.baseAddress, bytes.count, Int32(scale.denominator), UInt32(width), UInt32(height),
                                  UInt32(columns.lowerBound), UInt32(columns.upperBound), UInt32(rows.lowerBound), UInt32(rows.upperBound),
                                  destination.assumingMemoryBound(to: UInt8.self), rowBytes, &decoded0, &decoded1, &message, message.count)
        }
        switch Int(status) {
        case Int(LK_JPEG_OK): return Int(decoded0)..<Int(decoded1)
        case Int(LK_JPEG_UNALIGNED):
            throw ImagingError.invalidParameter(name: "region decode", value: String(cString: message), allowed: "the file's size at the scale")
        default:
            throw failure(String(cString: message), file: file)
        }
    }
}
