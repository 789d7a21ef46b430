import CGIF
import Foundation

/// Writes an animated GIF frame by frame through giflib (the file is written as frames arrive).
///
/// Colours: GIF allows 256 per palette, of which one is kept for transparency (below), so a palette
/// has at most 255. ``Palette/perFrame`` (default) gives each frame its own palette, chosen by
/// ``PaletteQuantizer`` (median cut refined by k-means) on that frame; ``Palette/global`` chooses one
/// palette from the first frame and uses it for all (smaller files when the colours hardly change,
/// banding when they do). With ``dithering`` each pixel is mapped to the nearest palette colour with
/// Floyd–Steinberg error diffusion (smooth skies and shadows instead of bands); without, to the nearest
/// colour.
///
/// After the first frame, a pixel whose colour on screen (what the frames so far left there) is about
/// as near its new colour as the palette's best (``keptColorSlack``) is left as it is: it gets the
/// transparent index, and frames are not disposed, so still parts (sky, the heads-up line, a map inset)
/// become runs of one index, which LZW packs into little (ffmpeg's `transdiff` does this for a global
/// palette; this works for any). The animation loops forever. The file is created with mode 0644
/// (giflib's `EGifOpenFileName` would make it 0600).
public final class GIFAnimationEncoder {
    /// How palettes are chosen.
    public enum Palette: String, Sendable, Hashable, CaseIterable {
        /// One palette per frame (best colours, a local colour table per frame).
        case perFrame = "per-frame"
        /// One palette for the whole file, from the first frame.
        case global
    }

    /// Frame width, pixels.
    public let width: Int
    /// Frame height, pixels.
    public let height: Int
    /// The palette mode.
    public let palette: Palette
    /// Whether error diffusion is used.
    public let dithering: Bool
    private let path: String
    private var file: UnsafeMutablePointer<GifFileType>?
    private var globalMap: [GifColorType]?
    private var frameCount = 0
    private var indices: [UInt8]
    private var errors: [Int32]
    /// What a decoder shows after the frames so far (RGB), for the pixels kept by transparency.
    private var shown: [UInt8]

    /// How much farther than the palette's best colour the colour already on screen may be and still
    /// be kept (see the type's doc), levels: kept when its squared RGB distance is at most the best's
    /// plus this squared. 0 never shows a pixel worse than remapping it would. Measured on the
    /// benchmark's walk (640×360, 48 frames, per-frame palettes, no dithering; Benchmarks/README): 88 KiB
    /// a frame and 41.9 dB without transparency; 75 KiB and 43.3 dB at 0 (kept pixels are nearer than
    /// the palette's); 58 KiB and 42.5 dB at 4; 44 KiB and 40.5 dB at 8.
    public static let keptColorSlack: Int32 = 4

    /// Starts a GIF at `path` (replaced if it exists).
    /// - Throws: `ImagingError.invalidSize` for sides outside 1…65535, `.io` when the file cannot be created.
    public init(path: String, width: Int, height: Int, palette: Palette = .perFrame, dithering: Bool = false) throws(ImagingError) {
        guard (1...65_535).contains(width), (1...65_535).contains(height) else {
            throw .invalidSize(text: "\(width)x\(height)", reason: "GIF sides are 1…65535 pixels")
        }
        self.path = path
        self.width = width
        self.height = height
        self.palette = palette
        self.dithering = dithering
        let count = width * height
        indices = [UInt8](repeating: 0, count: count)
        errors = [Int32](repeating: 0, count: (width + 2) * 2 * 3)
        shown = [UInt8](repeating: 0, count: count * 3)
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw .cannotWrite(WriteFailure(path: path, code: errno)) }
        var error: Int32 = 0
        guard let gif = EGifOpenFileHandle(fd, &error) else {
            close(fd)
            throw .io(path: path, detail: "giflib could not start the file (error \(error))")
        }
        file = gif
    }

    deinit { if let file { var e: Int32 = 0; EGifCloseFile(file, &e) } }

    private func check(_ status: Int32, _ what: String) throws(ImagingError) {
        guard status == GIF_OK else {
            let code = file?.pointee.Error ?? 0
            // giflib's "Write failed (disk full?)" (E_GIF_ERR_DISK_IS_FULL) and "Failed to write to given
            // file": errno still holds the system's reason.
            if code == E_GIF_ERR_DISK_IS_FULL || code == E_GIF_ERR_WRITE_FAILED {
                throw .cannotWrite(WriteFailure(path: path, code: errno == 0 ? EIO : errno))
            }
            let message = GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
            throw .io(path: path, detail: "giflib failed to \(what): \(message)")
        }
    }

    /// Appends a frame shown for `delayCentiseconds` (GIF's unit; 1…65535).
    /// - Throws: `ImagingError.invalidSize` for a frame of another size, `.io` when writing fails.
    public func add(_ frame: RGB8Image, delayCentiseconds: Int) throws(ImagingError) {
        guard let file else { throw .io(path: path, detail: "the GIF is already finished") }
        guard frame.width == width, frame.height == height else {
            throw .invalidSize(text: "\(frame.width)x\(frame.height)", reason: "every frame of this GIF is \(width)x\(height)")
        }
        var map: [GifColorType]
        if palette == .global, let globalMap {
            map = globalMap
        } else {
            // 255 colours: the last index of the table is the transparent one.
            map = PaletteQuantizer.palette(of: frame, maximumColors: 255).map { GifColorType(Red: $0.red, Green: $0.green, Blue: $0.blue) }
        }
        let transparent = map.count
        remap(frame, palette: map, keepsShown: frameCount > 0, transparentIndex: UInt8(transparent))
        let mapSize = Self.powerOfTwo(map.count + 1)
        let padded = map + [GifColorType](repeating: GifColorType(), count: mapSize - map.count)
        if frameCount == 0 {
            try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0,
                                        palette == .global ? GifMakeMapObject(Int32(mapSize), padded) : nil), "write the screen")
            if palette == .global { globalMap = map }
            // NETSCAPE2.0: loop forever.
            EGifSetGifVersion(file, true)
            try check(EGifPutExtensionLeader(file, APPLICATION_EXT_FUNC_CODE), "start the loop extension")
            let netscape = Array("NETSCAPE2.0".utf8)
            try check(EGifPutExtensionBlock(file, Int32(netscape.count), netscape), "write the loop extension")
            let loop: [UInt8] = [1, 0, 0]
            try check(EGifPutExtensionBlock(file, 3, loop), "write the loop count")
            try check(EGifPutExtensionTrailer(file), "end the loop extension")
        }
        var control = GraphicsControlBlock(DisposalMode: DISPOSE_DO_NOT, UserInputFlag: false,
                                           DelayTime: Int32(max(1, min(65_535, delayCentiseconds))),
                                           TransparentColor: frameCount > 0 ? Int32(transparent) : NO_TRANSPARENT_COLOR)
        var extensionBytes = [UInt8](repeating: 0, count: 4)
        let length = EGifGCBToExtension(&control, &extensionBytes)
        try check(EGifPutExtension(file, GRAPHICS_EXT_FUNC_CODE, Int32(length), extensionBytes), "write the frame delay")
        var local: UnsafeMutablePointer<ColorMapObject>?
        if palette == .perFrame { local = GifMakeMapObject(Int32(mapSize), padded) }
        defer { if let local { GifFreeMapObject(local) } }
        try check(EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, local), "write a frame header")
        try indices.withUnsafeMutableBufferPointer { (lines: inout UnsafeMutableBufferPointer<UInt8>) throws(ImagingError) in
            for y in 0..<height {
                try check(EGifPutLine(file, lines.baseAddress! + y * width, Int32(width)), "write a row")
            }
        }
        frameCount += 1
    }

    /// Finishes and closes the file.
    /// - Throws: `ImagingError.io` when closing fails or no frame was added.
    public func finish() throws(ImagingError) {
        guard let file else { return }
        self.file = nil
        var error: Int32 = 0
        let status = EGifCloseFile(file, &error)
        guard frameCount > 0 else { throw .io(path: path, detail: "a GIF needs at least one frame") }
        if status != GIF_OK && (error == E_GIF_ERR_WRITE_FAILED || error == E_GIF_ERR_DISK_IS_FULL || error == E_GIF_ERR_CLOSE_FAILED) {
            throw .cannotWrite(WriteFailure(path: path, code: errno == 0 ? EIO : errno))
        }
        guard status == GIF_OK else { throw .io(path: path, detail: "giflib failed to close the file (error \(error))") }
    }

    static func powerOfTwo(_ n: Int) -> Int {
        var size = 2
        while size < n { size *= 2 }
        return size
    }

    /// Maps `frame` to `palette` into `indices`: the palette colour nearest (RGB distance) to the
    /// centre of the pixel's 6-bit-per-channel cell, looked up once per cell, with Floyd–Steinberg
    /// error diffusion when ``dithering`` is on. With `keepsShown`, `transparentIndex` where the colour
    /// on screen will do (the type's doc); ``shown`` follows what a decoder shows.
    private func remap(_ frame: RGB8Image, palette map: [GifColorType], keepsShown: Bool, transparentIndex: UInt8) {
        var cache = [Int16](repeating: -1, count: 1 << 18)
        let pr = map.map { Int32($0.Red) }, pg = map.map { Int32($0.Green) }, pb = map.map { Int32($0.Blue) }
        let n = map.count
        @inline(__always) func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
            let key = Int((r >> 2) << 12 | (g >> 2) << 6 | (b >> 2))
            let cached = cache[key]
            if cached >= 0 { return Int(cached) }
            // The best colour for the cell's centre: within two levels of exact, the cost of speed.
            let cr = (r & ~3) | 2, cg = (g & ~3) | 2, cb = (b & ~3) | 2
            var best = 0, bestDistance = Int32.max
            for k in 0..<n {
                let dr = pr[k] - cr, dg = pg[k] - cg, db = pb[k] - cb
                let d = dr * dr + dg * dg + db * db
                if d < bestDistance { bestDistance = d; best = k }
            }
            cache[key] = Int16(best)
            return best
        }
        let w = width, slack = Self.keptColorSlack * Self.keptColorSlack
        frame.components.withUnsafeBufferPointer { src in
          shown.withUnsafeMutableBufferPointer { screen in
            indices.withUnsafeMutableBufferPointer { out in
                errors.withUnsafeMutableBufferPointer { err in
                    for i in 0..<err.count { err[i] = 0 }
                    for y in 0..<height {
                        // Two rows of errors (this, next), each (w + 2) × 3, offset by one pixel.
                        let current = (y & 1) * (w + 2) * 3, next = ((y + 1) & 1) * (w + 2) * 3
                        for i in 0..<((w + 2) * 3) { err[next + i] = 0 }
                        for x in 0..<w {
                            let s = (y * w + x) * 3
                            var r = Int32(src[s]), g = Int32(src[s + 1]), b = Int32(src[s + 2])
                            if dithering {
                                let e = current + (x + 1) * 3
                                r = min(255, max(0, r + err[e] / 16)); g = min(255, max(0, g + err[e + 1] / 16)); b = min(255, max(0, b + err[e + 2] / 16))
                            }
                            let k = nearest(r, g, b), p = y * w + x
                            var cr = pr[k], cg = pg[k], cb = pb[k]
                            let sr = Int32(screen[3 * p]), sg = Int32(screen[3 * p + 1]), sb = Int32(screen[3 * p + 2])
                            let ds = (r - sr) * (r - sr) + (g - sg) * (g - sg) + (b - sb) * (b - sb)
                            let dc = (r - cr) * (r - cr) + (g - cg) * (g - cg) + (b - cb) * (b - cb)
                            if keepsShown, ds <= dc + slack {
                                out[p] = transparentIndex
                                cr = sr; cg = sg; cb = sb
                            } else {
                                out[p] = UInt8(k)
                                screen[3 * p] = UInt8(cr); screen[3 * p + 1] = UInt8(cg); screen[3 * p + 2] = UInt8(cb)
                            }
                            guard dithering else { continue }
                            let er = r - cr, eg = g - cg, eb = b - cb
                            let right = current + (x + 2) * 3, below = next + (x + 1) * 3
                            err[right] += er * 7; err[right + 1] += eg * 7; err[right + 2] += eb * 7
                            err[below - 3] += er * 3; err[below - 2] += eg * 3; err[below - 1] += eb * 3
                            err[below] += er * 5; err[below + 1] += eg * 5; err[below + 2] += eb * 5
                            err[below + 3] += er; err[below + 4] += eg; err[below + 5] += eb
                        }
                    }
                }
            }
          }
        }
    }
}
