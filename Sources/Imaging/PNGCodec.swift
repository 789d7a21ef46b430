import CDeflate
import CImagingShims

/// PNG decoding (libpng's low-level API through `CImagingShims`, exact sample values) and encoding
/// (this module's chunk writer with a fast filter loop and either its own deflate or libdeflate).
public enum PNGCodec {
    /// The 8-byte PNG signature.
    public static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    // MARK: Decoding

    /// Decodes to 8-bit RGBA (straight alpha). Every colour type, bit depth, palette (with tRNS as
    /// alpha) and interlaced file is converted; 16-bit samples keep their high byte; opaque images
    /// get alpha 255.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - file: a name for error messages.
    ///   - pixelBudget: the most `width × height` to allocate; checked before any pixel memory.
    /// - Throws: `ImagingError` (`.empty`, `.wrongFormat`, `.corrupt`, `.truncated`, `.exceedsPixelBudget`).
    public static func decodeRGBA(_ data: [UInt8], file: String? = nil,
                                  pixelBudget: Int = defaultPixelBudget) throws -> RGBA8Image {
        let (w, h, bytes) = try decode(data, file: file, pixelBudget: pixelBudget, layout: Int32(LK_PNG_RGBA8))
        return RGBA8Image(width: w, height: h, components: bytes)
    }

    /// Decodes to 8-bit RGB. Alpha, if any, is dropped (not composited); see `decodeRGBA` for the rest.
    public static func decodeRGB(_ data: [UInt8], file: String? = nil,
                                 pixelBudget: Int = defaultPixelBudget) throws -> RGB8Image {
        let (w, h, bytes) = try decode(data, file: file, pixelBudget: pixelBudget, layout: Int32(LK_PNG_RGB8))
        return RGB8Image(width: w, height: h, components: bytes)
    }

    /// Decodes to 8-bit grey. Grey files give their exact values (1/2/4-bit scaled to 0…255, 16-bit
    /// keeps the high byte); colour files are converted with libpng's default luma weights on the
    /// stored sRGB values; alpha is dropped.
    public static func decodeGray8(_ data: [UInt8], file: String? = nil,
                                   pixelBudget: Int = defaultPixelBudget) throws -> Gray8Image {
        let (w, h, bytes) = try decode(data, file: file, pixelBudget: pixelBudget, layout: Int32(LK_PNG_GRAY8))
        return Gray8Image(width: w, height: h, components: bytes)
    }

    /// Decodes to 16-bit grey with the exact stored sample values (no linear-light conversion): the
    /// format for depth maps. 8-bit grey is widened as `v × 257`; colour is converted as in `decodeGray8`.
    public static func decodeGray16(_ data: [UInt8], file: String? = nil,
                                    pixelBudget: Int = defaultPixelBudget) throws -> Gray16Image {
        let (w, h, bytes) = try decode(data, file: file, pixelBudget: pixelBudget, layout: Int32(LK_PNG_GRAY16))
        let samples = [UInt16](unsafeUninitializedCapacity: w * h) { buffer, initialized in
            bytes.withUnsafeBytes { raw in
                if let dst = buffer.baseAddress, let src = raw.baseAddress {
                    UnsafeMutableRawPointer(dst).copyMemory(from: src, byteCount: w * h * 2)
                }
            }
            initialized = w * h
        }
        return Gray16Image(width: w, height: h, components: samples)
    }

    /// The header fields of a PNG (from IHDR), read without decoding pixels.
    public struct Header: Sendable, Hashable {
        /// Width in pixels (1…2³¹−1).
        public var width: Int
        /// Height in pixels (1…2³¹−1).
        public var height: Int
        /// Bits per sample: 1, 2, 4, 8 or 16.
        public var bitDepth: Int
        /// PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA.
        public var colorType: Int
        /// Whether the file is Adam7-interlaced.
        public var isInterlaced: Bool
    }

    /// Reads the IHDR chunk (size, depth, colour type) without decoding; checks its CRC.
    /// - Throws: `ImagingError` for empty, non-PNG, truncated or corrupt headers.
    public static func readHeader(_ data: [UInt8], file: String? = nil) throws -> Header {
        try checkSignature(data, file: file)
        guard data.count >= 33 else {
            throw ImagingError.truncated(file: file, format: "PNG",
                                         detail: "\(data.count) bytes; the IHDR chunk needs the first 33")
        }
        func u32(_ i: Int) -> UInt32 {
            UInt32(data[i]) << 24 | UInt32(data[i + 1]) << 16 | UInt32(data[i + 2]) << 8 | UInt32(data[i + 3])
        }
        guard u32(8) == 13, Array(data[12..<16]) == Array("IHDR".utf8) else {
            throw ImagingError.corrupt(file: file, format: "PNG", detail: "the first chunk is not a 13-byte IHDR")
        }
        let crc = data.withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress! + 12, 17) }
        guard crc == u32(29) else {
            throw ImagingError.corrupt(file: file, format: "PNG", detail: "IHDR CRC mismatch")
        }
        let header = Header(width: Int(u32(16)), height: Int(u32(20)), bitDepth: Int(data[24]),
                            colorType: Int(data[25]), isInterlaced: data[28] == 1)
        guard header.width > 0, header.height > 0, header.width < 1 << 31, header.height < 1 << 31 else {
            throw ImagingError.corrupt(file: file, format: "PNG",
                                       detail: "IHDR size \(header.width)×\(header.height) is outside 1…2³¹−1")
        }
        return header
    }

    /// Checks the whole file without decoding it: every chunk complete and its CRC right, an IHDR first,
    /// at least one IDAT, and IEND last. What `lookaround index` asks of depth and label maps, at a
    /// fraction of a decode's cost (a CRC pass over the bytes).
    /// - Throws: `ImagingError.truncated` for a file that ends inside a chunk or before IEND,
    ///   `.corrupt` for a CRC mismatch or a missing IDAT.
    public static func verifyChunks(_ data: [UInt8], file: String? = nil) throws {
        _ = try readHeader(data, file: file)
        var offset = 8, sawData = false
        func u32(_ i: Int) -> Int { Int(data[i]) << 24 | Int(data[i + 1]) << 16 | Int(data[i + 2]) << 8 | Int(data[i + 3]) }
        while true {
            guard offset + 12 <= data.count else {
                throw ImagingError.truncated(file: file, format: "PNG", detail: "the data ends before the IEND chunk (at byte \(offset))")
            }
            let length = u32(offset)
            guard length <= data.count - offset - 12 else {
                throw ImagingError.truncated(file: file, format: "PNG",
                                             detail: "a \(length)-byte chunk at byte \(offset) runs past the end of the file")
            }
            let type = String(decoding: data[offset + 4..<offset + 8], as: UTF8.self)
            let crc = data.withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress! + offset + 4, length + 4) }
            guard crc == UInt32(u32(offset + 8 + length)) else {
                throw ImagingError.corrupt(file: file, format: "PNG", detail: "CRC mismatch in the \(type) chunk at byte \(offset)")
            }
            if type == "IDAT" { sawData = true }
            if type == "IEND" {
                guard sawData else { throw ImagingError.corrupt(file: file, format: "PNG", detail: "no IDAT chunk: no image data") }
                return
            }
            offset += 12 + length
        }
    }

    private static func checkSignature(_ data: [UInt8], file: String?) throws {
        guard !data.isEmpty else { throw ImagingError.empty(file: file) }
        guard data.count >= 8, data[0..<8].elementsEqual(signature) else {
            if signature.starts(with: data) {
                throw ImagingError.truncated(file: file, format: "PNG", detail: "only \(data.count) bytes of the signature")
            }
            throw ImagingError.wrongFormat(file: file, expected: "PNG", found: ImageFormat.describe(data))
        }
    }

    private static func decode(_ data: [UInt8], file: String?, pixelBudget: Int,
                               layout: Int32) throws -> (Int, Int, [UInt8]) {
        try checkSignature(data, file: file)
        if data.count < 33 {
            throw ImagingError.truncated(file: file, format: "PNG",
                                         detail: "\(data.count) bytes end inside the signature or IHDR")
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var w: UInt32 = 0, h: UInt32 = 0
        let errLength = 256
        var err = [CChar](repeating: 0, count: errLength)
        let status = data.withUnsafeBufferPointer { src in
            err.withUnsafeMutableBufferPointer { e in
                lk_png_decode(src.baseAddress, src.count, layout, UInt64(max(0, pixelBudget)),
                              &out, &w, &h, e.baseAddress, errLength)
            }
        }
        let detail = err.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        switch Int(status) {
        case Int(LK_PNG_OK):
            guard let out else { throw ImagingError.corrupt(file: file, format: "PNG", detail: "no pixels") }
            defer { lk_free(out) }
            let bytesPerPixel = [Int32(LK_PNG_GRAY8): 1, Int32(LK_PNG_GRAY16): 2, Int32(LK_PNG_RGB8): 3,
                                 Int32(LK_PNG_RGBA8): 4][layout] ?? 4
            let count = Int(w) * Int(h) * bytesPerPixel
            return (Int(w), Int(h), Array(UnsafeBufferPointer(start: out, count: count)))
        case Int(LK_PNG_OVER_BUDGET):
            throw ImagingError.exceedsPixelBudget(file: file, width: Int(w), height: Int(h), budget: pixelBudget)
        case Int(LK_PNG_TRUNCATED):
            throw ImagingError.truncated(file: file, format: "PNG", detail: detail)
        default:
            throw ImagingError.corrupt(file: file, format: "PNG", detail: detail.isEmpty ? "libpng failed" : detail)
        }
    }

    // MARK: Encoding

    /// Encodes 8-bit RGBA (colour type 6).
    public static func encode(_ image: RGBA8Image, options: PNGEncodeOptions = PNGEncodeOptions()) throws -> [UInt8] {
        try image.components.withUnsafeBufferPointer {
            try encode(bytes: $0, width: image.width, height: image.height, bytesPerPixel: 4, bitDepth: 8,
                       colorType: 6, options: options)
        }
    }

    /// Encodes 8-bit RGB (colour type 2).
    public static func encode(_ image: RGB8Image, options: PNGEncodeOptions = PNGEncodeOptions()) throws -> [UInt8] {
        try image.components.withUnsafeBufferPointer {
            try encode(bytes: $0, width: image.width, height: image.height, bytesPerPixel: 3, bitDepth: 8,
                       colorType: 2, options: options)
        }
    }

    /// Encodes 8-bit grey (colour type 0).
    public static func encode(_ image: Gray8Image, options: PNGEncodeOptions = PNGEncodeOptions()) throws -> [UInt8] {
        try image.components.withUnsafeBufferPointer {
            try encode(bytes: $0, width: image.width, height: image.height, bytesPerPixel: 1, bitDepth: 8,
                       colorType: 0, options: options)
        }
    }

    /// Encodes 16-bit grey (colour type 0, depth 16; samples stored big-endian as PNG requires),
    /// exactly: a depth map reads back with the same values through `decodeGray16`.
    public static func encode(_ image: Gray16Image, options: PNGEncodeOptions = PNGEncodeOptions()) throws -> [UInt8] {
        var bigEndian = [UInt8](repeating: 0, count: image.pixelCount * 2)
        image.components.withUnsafeBufferPointer { src in
            bigEndian.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count {
                    dst[2 * i] = UInt8(truncatingIfNeeded: src[i] >> 8)
                    dst[2 * i + 1] = UInt8(truncatingIfNeeded: src[i])
                }
            }
        }
        return try bigEndian.withUnsafeBufferPointer {
            try encode(bytes: $0, width: image.width, height: image.height, bytesPerPixel: 2, bitDepth: 16,
                       colorType: 0, options: options)
        }
    }

    /// Filters every row into one buffer (`1 + rowBytes` bytes per row, filter byte first).
    /// `adaptive` picks each row's filter by libpng's minimum-sum heuristic (all five tried: about
    /// 6 ms for 1080p RGB since the loops vectorise); otherwise every row uses `up`.
    static func filterRows(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bytesPerPixel: Int,
                           adaptive: Bool, into filtered: UnsafeMutablePointer<UInt8>) {
        let rowBytes = width * bytesPerPixel
        guard let base = pixels.baseAddress else { return }
        let filters = PNGFilter.allCases
        // One zero row (the row above the first) and one scratch row per filter.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: rowBytes * (filters.count + 1)) { scratch in
            let zeros = scratch.baseAddress!
            scratch.initialize(repeating: 0)
            for y in 0..<height {
                let row = base + y * rowBytes
                let previous = y == 0 ? UnsafePointer(zeros) : row - rowBytes
                let out = filtered + y * (rowBytes + 1)
                if !adaptive {
                    out[0] = PNGFilter.up.rawValue
                    PNGFilter.apply(.up, row: row, previous: previous, count: rowBytes, bytesPerPixel: bytesPerPixel,
                                    out: out + 1)
                    continue
                }
                var best = 0, bestCost = Int.max
                for k in 0..<filters.count {
                    let candidate = zeros + rowBytes * (k + 1)
                    PNGFilter.apply(filters[k], row: row, previous: previous, count: rowBytes,
                                    bytesPerPixel: bytesPerPixel, out: candidate)
                    let cost = PNGFilter.cost(candidate, count: rowBytes)
                    if cost < bestCost { bestCost = cost; best = k }
                }
                out[0] = filters[best].rawValue
                (out + 1).update(from: zeros + rowBytes * (best + 1), count: rowBytes)
            }
        }
    }

    private static func encode(bytes: UnsafeBufferPointer<UInt8>, width: Int, height: Int, bytesPerPixel: Int,
                               bitDepth: UInt8, colorType: UInt8, options: PNGEncodeOptions) throws -> [UInt8] {
        guard width < 1 << 31, height < 1 << 31 else {
            throw ImagingError.encodeFailed(format: "PNG", detail: "\(width)×\(height) is over PNG's 2³¹−1 limit")
        }
        let filteredCount = height * (width * bytesPerPixel + 1)
        var filtered = [UInt8](unsafeUninitializedCapacity: filteredCount) { buffer, initialized in
            filterRows(bytes, width: width, height: height, bytesPerPixel: bytesPerPixel,
                       adaptive: true, into: buffer.baseAddress!)
            initialized = filteredCount
        }
        defer { filtered = [] }

        // `.fast`: this module's Huffman-plus-runs coder only. `.balanced`/`.smallest`: libdeflate at
        // level 6/12 too, keeping whichever stream is smaller (on real photos the adaptive-filtered
        // Huffman stream is often smaller than libdeflate's, on synthetic scenes LZ77 wins).
        var compressor: OpaquePointer? = nil
        switch options.compression {
        case .fast: break
        case .balanced: compressor = libdeflate_alloc_compressor(6)
        case .smallest: compressor = libdeflate_alloc_compressor(12)
        }
        if options.compression != .fast && compressor == nil {
            throw ImagingError.encodeFailed(format: "PNG", detail: "libdeflate_alloc_compressor failed (out of memory)")
        }
        defer { if let compressor { libdeflate_free_compressor(compressor) } }
        let bound = PNGHuffmanDeflater.bound(filteredCount)
        var alternative: [UInt8] = []
        if let compressor {
            let libdeflateBound = libdeflate_zlib_compress_bound(compressor, filteredCount)
            alternative = [UInt8](unsafeUninitializedCapacity: libdeflateBound) { buffer, initialized in
                initialized = filtered.withUnsafeBufferPointer { input in
                    libdeflate_zlib_compress(compressor, input.baseAddress, input.count, buffer.baseAddress,
                                             libdeflateBound)
                }
            }
        }

        // signature 8, IHDR 25, IDAT length+type 8, payload, IDAT CRC 4, IEND 12, bit-writer slack 8.
        let headerBytes = 8 + 25 + 8
        let capacity = headerBytes + bound + 4 + 12 + 8
        var failure: ImagingError? = nil
        let png = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            let out = buffer.baseAddress!
            var position = 0
            func put32(_ v: UInt32) {
                out[position] = UInt8(v >> 24); out[position + 1] = UInt8((v >> 16) & 0xFF)
                out[position + 2] = UInt8((v >> 8) & 0xFF); out[position + 3] = UInt8(v & 0xFF)
                position += 4
            }
            func putCRC(from start: Int) { put32(libdeflate_crc32(0, out + start, position - start)) }
            for b in signature { out[position] = b; position += 1 }
            put32(13)
            let ihdr = position
            for b in "IHDR".utf8 { out[position] = b; position += 1 }
            put32(UInt32(width)); put32(UInt32(height))
            for b in [bitDepth, colorType, 0, 0, 0] { out[position] = b; position += 1 }
            putCRC(from: ihdr)
            let lengthAt = position
            position += 4
            let idat = position
            for b in "IDAT".utf8 { out[position] = b; position += 1 }
            var payload = filtered.withUnsafeBufferPointer { input -> Int in
                PNGHuffmanDeflater.compress(input, runDistance: bytesPerPixel, into: out + position)
            }
            if !alternative.isEmpty && alternative.count < payload {
                alternative.withUnsafeBufferPointer { (out + position).update(from: $0.baseAddress!, count: $0.count) }
                payload = alternative.count
            }
            guard payload > 0, payload < 1 << 31 else {
                failure = .encodeFailed(format: "PNG", detail: "compressed data (\(payload) bytes) does not fit one IDAT")
                initialized = 0
                return
            }
            position += payload
            let end = position
            position = lengthAt; put32(UInt32(payload)); position = end
            putCRC(from: idat)
            put32(0)
            let iend = position
            for b in "IEND".utf8 { out[position] = b; position += 1 }
            putCRC(from: iend)
            initialized = position
        }
        if let failure { throw failure }
        return png
    }
}

/// The first bytes of some data as hex, for "it starts with …" messages.
func hexPrefix(_ data: [UInt8], count: Int = 4) -> String {
    let digits = Array("0123456789ABCDEF")
    return data.prefix(count).map { "0x\(digits[Int($0 >> 4)])\(digits[Int($0 & 15)])" }.joined(separator: " ")
}
