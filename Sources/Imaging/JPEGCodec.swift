import CTurboJPEG
import Synchronization

/// JPEG decoding and encoding through TurboJPEG (libjpeg-turbo 2.1, `tj*` API), with DCT-scaled
/// decode, warnings surfaced instead of swallowed, and EXIF/XMP metadata written after SOI.
///
/// A decode makes its own TurboJPEG handle; an encode takes a compressor from a small pool that no two
/// encodes share at once. So every function is safe to call from any thread.
public enum JPEGCodec {
    static let format = "JPEG"

    // MARK: Reading

    /// Reads size, subsampling and colour space from the headers, without decoding pixels.
    /// - Throws: `ImagingError` (`.empty`, `.wrongFormat`, `.truncated`, `.corrupt`).
    public static func readHeader(_ data: [UInt8], file: String? = nil) throws -> JPEGHeader {
        try checkMagic(data, file: file)
        let handle = try decompressor()
        defer { tjDestroy(handle) }
        return try header(data, handle: handle, file: file)
    }

    /// Decodes to 8-bit RGB (greyscale JPEGs are expanded; CMYK is not supported).
    /// - Parameters:
    ///   - data: the whole file.
    ///   - file: a name for error messages.
    ///   - options: scale, strictness, DCT choice.
    ///   - pixelBudget: the most output pixels (after scaling) to allocate; checked before allocating.
    /// - Returns: the image and libjpeg's warnings (non-empty for truncated or damaged files unless strict).
    /// - Throws: `ImagingError`: `.empty`, `.wrongFormat`, `.corrupt`, `.truncated` (strict mode, or no
    ///   image data at all), `.exceedsPixelBudget`, `.unsupported`.
    public static func decodeRGB(_ data: [UInt8], file: String? = nil, options: JPEGDecodeOptions = JPEGDecodeOptions(),
                                 pixelBudget: Int = defaultPixelBudget) throws -> JPEGDecodeResult<RGB8> {
        let (w, h, pixels, warnings) = try decode(data, file: file, options: options, pixelBudget: pixelBudget,
                                                  pixelFormat: Int32(TJPF_RGB.rawValue), channels: 3)
        return JPEGDecodeResult(image: RGB8Image(width: w, height: h, components: pixels), warnings: warnings)
    }

    /// Decodes to 8-bit grey (colour JPEGs give their luma channel). See `decodeRGB`.
    public static func decodeGray(_ data: [UInt8], file: String? = nil, options: JPEGDecodeOptions = JPEGDecodeOptions(),
                                  pixelBudget: Int = defaultPixelBudget) throws -> JPEGDecodeResult<Gray8> {
        let (w, h, pixels, warnings) = try decode(data, file: file, options: options, pixelBudget: pixelBudget,
                                                  pixelFormat: Int32(TJPF_GRAY.rawValue), channels: 1)
        return JPEGDecodeResult(image: Gray8Image(width: w, height: h, components: pixels), warnings: warnings)
    }

    /// Decodes a JPEG into caller-owned memory as 4-byte pixels (R, G, B, then 0), one row every
    /// `rowBytes`: how a tile lands in its place inside a larger image without a copy.
    /// - Parameters:
    ///   - data: the whole file.
    ///   - destination: where the top-left pixel goes; `height` rows of `rowBytes` must be writable.
    ///   - width, height: the size the caller expects; a JPEG of another size is an error.
    /// - Throws: `ImagingError` as ``decodeRGB(_:file:options:pixelBudget:)``; `.corrupt` for a size other
    ///   than `width`×`height`. Warnings (damaged data) are errors here: a tile is all or nothing.
    public static func decodeRGBX(_ data: UnsafeRawBufferPointer, file: String? = nil, into destination: UnsafeMutableRawPointer,
                                  rowBytes: Int, width: Int, height: Int) throws {
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else {
            throw ImagingError.wrongFormat(file: file, expected: format, found: ImageFormat.describe(Array(data.prefix(16))))
        }
        let handle = try decompressor()
        defer { tjDestroy(handle) }
        let source = data.bindMemory(to: UInt8.self)
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = -1, colorSpace: Int32 = -1
        guard tjDecompressHeader3(handle, source.baseAddress, UInt(source.count), &w, &h, &subsampling, &colorSpace) == 0 else {
            throw failure(message(handle), file: file)
        }
        guard Int(w) == width, Int(h) == height else {
            throw ImagingError.corrupt(file: file, format: format, detail: "\(w)×\(h) where \(width)×\(height) was expected")
        }
        guard tjDecompress2(handle, source.baseAddress, UInt(source.count), destination.assumingMemoryBound(to: UInt8.self),
                            w, Int32(rowBytes), h, Int32(TJPF_RGBX.rawValue), TJFLAG_ACCURATEDCT) == 0 else {
            throw failure(message(handle), file: file)
        }
        // libjpeg-turbo fills X with 0xFF; the documented layout has 0 there.
        for y in 0..<height {
            let row = (destination + y * rowBytes).assumingMemoryBound(to: UInt32.self)
            for x in 0..<width { row[x] &= 0x00FF_FFFF }
        }
    }

    // MARK: Writing

    /// Encodes RGB.
    /// - Parameters:
    ///   - quality: 1…100 (85 is a good default for photos).
    ///   - subsampling: `.chroma444`, `.chroma422`, `.chroma420` or `.gray` (a greyscale JPEG of the luma).
    ///   - metadata: EXIF and GPano XMP written as APP1 segments directly after SOI; `nil` writes none.
    /// - Throws: `ImagingError.invalidParameter` for a quality or subsampling out of range,
    ///   `.encodeFailed`, `.metadata` when the metadata does not fit in APP1 segments.
    public static func encode(_ image: RGB8Image, quality: Int = 85, subsampling: JPEGSubsampling = .chroma420,
                              metadata: ImageMetadata? = nil) throws -> [UInt8] {
        guard [.chroma444, .chroma422, .chroma420, .gray].contains(subsampling) else {
            throw ImagingError.invalidParameter(name: "JPEG subsampling", value: subsampling.rawValue,
                                                allowed: "4:4:4, 4:2:2, 4:2:0 or gray")
        }
        return try encode(image.components, width: image.width, height: image.height,
                          pixelFormat: Int32(TJPF_RGB.rawValue), quality: quality, subsampling: subsampling,
                          metadata: metadata)
    }

    /// Encodes a greyscale JPEG. See `encode(_:quality:subsampling:metadata:)` for the parameters.
    public static func encode(_ image: Gray8Image, quality: Int = 85, metadata: ImageMetadata? = nil) throws -> [UInt8] {
        try encode(image.components, width: image.width, height: image.height,
                   pixelFormat: Int32(TJPF_GRAY.rawValue), quality: quality, subsampling: .gray, metadata: metadata)
    }

    /// Encodes a YCbCr 4:2:0 picture as it is (no colour conversion, no chroma resampling): the
    /// planes go straight to the DCT, so a video frame is compressed without a round trip through RGB.
    /// See `encode(_:quality:subsampling:metadata:)` for `quality` and `metadata`.
    public static func encode(_ image: YCbCr420Image, quality: Int = 85, metadata: ImageMetadata? = nil) throws -> [UInt8] {
        try compress(width: image.width, height: image.height, subsampling: Int32(TJSAMP_420.rawValue), quality: quality,
                     metadata: metadata) { handle, jpeg, size, flags in
            image.luma.withUnsafeBufferPointer { y in
                image.cb.withUnsafeBufferPointer { cb in
                    image.cr.withUnsafeBufferPointer { cr in
                        var planes: [UnsafePointer<UInt8>?] = [y.baseAddress, cb.baseAddress, cr.baseAddress]
                        var strides: [Int32] = [Int32(image.width), Int32(image.chromaWidth), Int32(image.chromaWidth)]
                        return tjCompressFromYUVPlanes(handle, &planes, Int32(image.width), &strides, Int32(image.height),
                                                       Int32(TJSAMP_420.rawValue), &jpeg, &size, Int32(quality), flags)
                    }
                }
            }
        }
    }

    /// SOI, the metadata segments, then the rest of a JPEG the encoder made.
    private static func assemble(_ body: UnsafeBufferPointer<UInt8>, segments: [[UInt8]]) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(body.count + segments.reduce(0) { $0 + $1.count })
        out.append(contentsOf: body[0..<2])                     // SOI
        for segment in segments { out.append(contentsOf: segment) }
        out.append(contentsOf: body[2...])
        return out
    }

    // MARK: Internals

    static func checkMagic(_ data: [UInt8], file: String?) throws {
        guard !data.isEmpty else { throw ImagingError.empty(file: file) }
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else {
            if data == [0xFF] { throw ImagingError.truncated(file: file, format: format, detail: "1 byte") }
            throw ImagingError.wrongFormat(file: file, expected: format, found: ImageFormat.describe(data))
        }
    }

    private static func decompressor() throws -> tjhandle {
        guard let handle = tjInitDecompress() else {
            throw ImagingError.unsupported(file: nil, format: format, detail: "tjInitDecompress failed: "
                                           + String(cString: tjGetErrorStr2(nil)))
        }
        return handle
    }

    static func message(_ handle: tjhandle?) -> String {
        guard let text = tjGetErrorStr2(handle) else { return "unknown TurboJPEG error" }
        return String(cString: text)
    }

    /// Maps a libjpeg message to the error kind: data that ends early is `.truncated`.
    static func failure(_ text: String, file: String?) -> ImagingError {
        let lower = text.lowercased()
        if lower.contains("premature end") || lower.contains("ends early") {
            return .truncated(file: file, format: format, detail: text)
        }
        if lower.contains("unsupported color conversion") || lower.contains("unsupported jpeg process")
            || lower.contains("unsupported") {
            return .unsupported(file: file, format: format, detail: text)
        }
        return .corrupt(file: file, format: format, detail: text)
    }

    private static func header(_ data: [UInt8], handle: tjhandle, file: String?) throws -> JPEGHeader {
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = -1, colorSpace: Int32 = -1
        let rc = data.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &w, &h, &subsampling, &colorSpace)
        }
        if rc != 0 {
            let text = message(handle)
            // libjpeg reads past the end as a fake EOI: a file cut before SOF has "no image" in it.
            if text.contains("JPEG datastream contains no image") || !containsMarker(data, 0xDA) {
                throw ImagingError.truncated(file: file, format: format,
                                             detail: "\(text) (\(data.count) bytes; no frame or scan found)")
            }
            throw failure(text, file: file)
        }
        guard w > 0, h > 0 else {
            // TurboJPEG reports a stream of tables only (SOI, maybe DQT/DHT, then the end) as success.
            if !containsMarker(data, 0xDA) {
                throw ImagingError.truncated(file: file, format: format,
                                             detail: "\(data.count) bytes end before a frame header and scan")
            }
            throw ImagingError.corrupt(file: file, format: format, detail: "frame size \(w)×\(h)")
        }
        return JPEGHeader(width: Int(w), height: Int(h), subsampling: JPEGSubsampling(turboJPEG: subsampling),
                          colorSpace: JPEGHeader.ColorSpace(turboJPEG: colorSpace))
    }

    /// Whether marker 0xFF `code` occurs anywhere (a cheap check used only to name an error).
    private static func containsMarker(_ data: [UInt8], _ code: UInt8) -> Bool {
        data.withUnsafeBufferPointer { p in
            guard p.count >= 2 else { return false }
            for i in 0..<(p.count - 1) where p[i] == 0xFF && p[i + 1] == code { return true }
            return false
        }
    }

    private static func decode(_ data: [UInt8], file: String?, options: JPEGDecodeOptions, pixelBudget: Int,
                               pixelFormat: Int32, channels: Int) throws -> (Int, Int, [UInt8], [String]) {
        try checkMagic(data, file: file)
        let handle = try decompressor()
        defer { tjDestroy(handle) }
        let info = try header(data, handle: handle, file: file)
        if channels == 3 && (info.colorSpace == .cmyk || info.colorSpace == .ycck) {
            throw ImagingError.unsupported(file: file, format: format,
                                           detail: "\(info.colorSpace.rawValue) colour; convert the file to RGB first")
        }
        let width = options.scale.scaled(info.width), height = options.scale.scaled(info.height)
        guard width * height <= pixelBudget else {
            throw ImagingError.exceedsPixelBudget(file: file, width: width, height: height, budget: pixelBudget)
        }
        let flags = options.fastDCT ? TJFLAG_FASTDCT : TJFLAG_ACCURATEDCT
        var rc: Int32 = 0
        let count = width * height * channels
        let pixels = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            // Not pre-filled: on success and on warnings libjpeg writes every pixel (grey where data is
            // missing); on a fatal error the buffer is thrown away.
            rc = data.withUnsafeBufferPointer { src in
                tjDecompress2(handle, src.baseAddress, UInt(src.count), buffer.baseAddress, Int32(width), 0,
                              Int32(height), pixelFormat, flags)
            }
            initialized = count
        }
        var warnings: [String] = []
        if rc != 0 {
            let text = message(handle)
            guard tjGetErrorCode(handle) == Int32(TJERR_WARNING.rawValue) else { throw failure(text, file: file) }
            if options.strict { throw failure(text, file: file) }
            warnings.append(text)
        }
        return (width, height, pixels, warnings)
    }

    private static func encode(_ pixels: [UInt8], width: Int, height: Int, pixelFormat: Int32, quality: Int,
                               subsampling: JPEGSubsampling, metadata: ImageMetadata?) throws -> [UInt8] {
        try compress(width: width, height: height, subsampling: subsampling.turboJPEG, quality: quality,
                     metadata: metadata) { handle, jpeg, size, flags in
            pixels.withUnsafeBufferPointer {
                tjCompress2(handle, $0.baseAddress, Int32(width), 0, Int32(height), pixelFormat, &jpeg, &size,
                            subsampling.turboJPEG, Int32(quality), flags)
            }
        }
    }

    /// The checks, a kept compressor, `body` (a TurboJPEG compress call into `jpeg`/`size` with `flags`), then
    /// SOI, the metadata segments and the rest.
    ///
    /// The slow (accurate) integer DCT: measured against the fast one on 1280×720 q80 4:2:0 frames of
    /// real panoramas (libjpeg-turbo 2.1.5, AVX2), the fast DCT took the same time (2.32 vs 2.33 ms) for
    /// 0.03 dB less PSNR. The Huffman tables are the standard ones (TurboJPEG 2.1 has no switch for
    /// optimised tables; libjpeg's optimize_coding is a second pass over the coefficients).
    /// The compressed bytes go into the buffer kept with the compressor (TJFLAG_NOREALLOC, sized by
    /// tjBufSize): in a C harness TurboJPEG's own output buffer, allocated and freed per encode, was
    /// 0.2–0.3 ms of a 2.1–2.3 ms encode (fresh pages each time); inside `Benchmarks web`, whose heap
    /// already reuses the freed buffer, the encode row did not move (1.31 vs 1.35 ms, one round each).
    private static func compress(width: Int, height: Int, subsampling: Int32, quality: Int, metadata: ImageMetadata?,
                                 _ body: (tjhandle, inout UnsafeMutablePointer<UInt8>?, inout UInt, Int32) -> Int32) throws -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw ImagingError.invalidParameter(name: "JPEG quality", value: "\(quality)", allowed: "1…100")
        }
        guard width <= 65_535, height <= 65_535 else {
            throw ImagingError.encodeFailed(format: format, detail: "\(width)×\(height) is over JPEG's 65535 per side")
        }
        let segments = try metadata?.jpegSegments() ?? []
        var compressor = try Compressors.take()
        var failed = false
        defer { if failed { compressor.destroy() } else { Compressors.put(compressor) } }
        let bound = tjBufSize(Int32(width), Int32(height), subsampling)
        guard bound != UInt(bitPattern: -1) else {
            failed = true
            throw ImagingError.encodeFailed(format: format, detail: "tjBufSize: " + message(nil))
        }
        // A bigger picture (a panorama) gets TurboJPEG's own buffer, freed after it.
        let keeps = bound <= Compressors.keptBufferBytes
        if keeps { try compressor.reserve(bound) }
        var jpeg: UnsafeMutablePointer<UInt8>? = keeps ? compressor.buffer : nil
        var size = keeps ? compressor.capacity : 0
        let rc = body(compressor.handle, &jpeg, &size, keeps ? TJFLAG_ACCURATEDCT | TJFLAG_NOREALLOC : TJFLAG_ACCURATEDCT)
        defer { if !keeps, let jpeg { tjFree(jpeg) } }
        guard rc == 0, let jpeg, !keeps || jpeg == compressor.buffer, size >= 4 else {
            failed = true // not kept: a compressor that failed is not trusted with the next frame
            throw ImagingError.encodeFailed(format: format, detail: message(compressor.handle))
        }
        return assemble(UnsafeBufferPointer(start: jpeg, count: Int(size)), segments: segments)
    }
}

/// A TurboJPEG compressor and the output buffer kept with it (tjAlloc'd; at least the largest bound it
/// has encoded to). Owned by one encode at a time.
private struct Compressor {
    let handle: tjhandle
    var buffer: UnsafeMutablePointer<UInt8>?
    var capacity: UInt = 0

    /// A buffer of at least `bound` bytes (the old one, or a new one in its place).
    mutating func reserve(_ bound: UInt) throws {
        guard capacity < bound else { return }
        if let buffer { tjFree(buffer) }
        buffer = tjAlloc(Int32(clamping: bound))
        capacity = buffer == nil ? 0 : bound
        guard buffer != nil else {
            throw ImagingError.encodeFailed(format: JPEGCodec.format, detail: "tjAlloc(\(bound)) failed")
        }
    }

    func destroy() {
        if let buffer { tjFree(buffer) }
        tjDestroy(handle)
    }
}

/// TurboJPEG compressors kept between encodes with their output buffers (a handle is reusable for any
/// size and quality; making one and its tables for every frame was a measurable part of a served frame,
/// and so was a fresh output buffer). At most a few are kept, and only buffers up to `keptBufferBytes`.
private enum Compressors {
    static let idle = Mutex<[(handle: UInt, buffer: UInt, capacity: UInt)]>([])
    static let kept = 8
    /// The largest output buffer kept (tjBufSize of a 1280×720 4:2:0 frame is 2.8 MB, of 1920×1080 6.2 MB);
    /// a bigger picture (a panorama's re-encode) is compressed into TurboJPEG's own buffer, freed after it.
    static let keptBufferBytes: UInt = 16 << 20

    static func take() throws -> Compressor {
        if let entry = idle.withLock({ $0.popLast() }), let handle = tjhandle(bitPattern: entry.handle) {
            return Compressor(handle: handle, buffer: UnsafeMutablePointer(bitPattern: entry.buffer), capacity: entry.capacity)
        }
        guard let handle = tjInitCompress() else {
            throw ImagingError.encodeFailed(format: JPEGCodec.format, detail: "tjInitCompress failed: " + JPEGCodec.message(nil))
        }
        return Compressor(handle: handle)
    }

    static func put(_ compressor: Compressor) {
        let entry = (handle: UInt(bitPattern: compressor.handle), buffer: UInt(bitPattern: compressor.buffer), capacity: compressor.capacity)
        let keptIt = idle.withLock { idle in
            guard idle.count < kept else { return false }
            idle.append(entry)
            return true
        }
        if !keptIt { compressor.destroy() }
    }
}
