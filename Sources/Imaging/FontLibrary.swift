import CFreeType
import Foundation

/// FreeType-backed fonts: DejaVu Sans regular and bold, with a per-glyph fallback to WenQuanYi Micro
/// Hei for code points DejaVu lacks (`FT_Get_Char_Index` = 0), kerning, metrics and a bounded cache of
/// rendered glyphs (optionally with a halo made by `FT_Stroker`).
///
/// The fallback has no bold face: bold CJK is emboldened synthetically (`FT_Outline_Embolden`).
///
/// Text is laid out one code point at a time (no shaping): right for Latin, Cyrillic, Greek and CJK
/// labels, not for scripts that need shaping (Arabic, Indic). One line; control characters are skipped.
///
/// Thread safety: FreeType faces are not thread-safe, so every FreeType call and every cache access
/// happens under `lock`; nothing FreeType-owned escapes it (glyphs are copied into Swift arrays).
/// That is why the class is `@unchecked Sendable`: the compiler cannot see the lock discipline.
public final class FontLibrary: @unchecked Sendable {
    /// The default number of rendered glyphs kept.
    public static let defaultGlyphCacheCapacity = 2048

    /// The font files in use.
    public let paths: FontPaths

    private let lock = NSLock()
    private var library: FT_Library?
    private var faces: [FT_Face] = []           // indexed by FontFace.rawValue
    private var faceSize64: [Int] = []          // current char size of each face, 26.6
    private var stroker: FT_Stroker?
    private var cache: GlyphCache

    /// Opens the three fonts.
    /// - Throws: `ImagingError.font` naming the missing or unreadable font and the Debian package that
    ///   installs it; `ImagingError.invalidParameter` for a glyph cache capacity below 4.
    public init(paths: FontPaths = .debian, glyphCacheCapacity: Int = FontLibrary.defaultGlyphCacheCapacity) throws {
        guard glyphCacheCapacity >= 4 else {
            throw ImagingError.invalidParameter(name: "glyph cache capacity", value: "\(glyphCacheCapacity)",
                                                allowed: "at least 4 glyphs")
        }
        self.paths = paths
        self.cache = GlyphCache(capacity: glyphCacheCapacity)
        var lib: FT_Library?
        let status = FT_Init_FreeType(&lib)
        guard status == 0, let lib else {
            throw ImagingError.font(path: paths.regular, detail: "FreeType failed to start (error \(status))")
        }
        library = lib
        do {
            for face in FontFace.allCases {
                let path = paths.path(of: face)
                guard FileManager.default.fileExists(atPath: path) else {
                    throw ImagingError.font(path: path, detail: "not found; install it with "
                        + "`apt-get install \(FontPaths.debianPackage(for: face))` or pass another path in FontPaths")
                }
                var ftFace: FT_Face?
                let error = FT_New_Face(lib, path, 0, &ftFace)
                guard error == 0, let ftFace else {
                    throw ImagingError.font(path: path, detail: "FreeType cannot read it (error \(error)); the file "
                        + "may be damaged: reinstall \(FontPaths.debianPackage(for: face))")
                }
                faces.append(ftFace)
                faceSize64.append(0)
            }
            var s: FT_Stroker?
            guard FT_Stroker_New(lib, &s) == 0, let s else {
                throw ImagingError.font(path: paths.regular, detail: "FreeType could not create a stroker for halos")
            }
            stroker = s
        } catch {
            release()
            throw error
        }
    }

    deinit { release() }

    private func release() {
        if let stroker { FT_Stroker_Done(stroker) }
        stroker = nil
        for face in faces { FT_Done_Face(face) }
        faces = []
        if let library { FT_Done_FreeType(library) }
        library = nil
    }

    /// Rendered glyphs currently cached.
    public var cachedGlyphCount: Int { lock.withLock { cache.count } }

    /// The glyph for every Unicode scalar of `text` (control characters included, with the glyph
    /// each font has for them): DejaVu in `weight` when it has the code point, else the fallback.
    /// A glyph index of 0 means no font has it.
    public func mapGlyphs(_ text: String, weight: FontWeight = .regular) -> [MappedGlyph] {
        lock.withLock { text.unicodeScalars.map { mapLocked($0, weight: weight) } }
    }

    private func mapLocked(_ scalar: Unicode.Scalar, weight: FontWeight) -> MappedGlyph {
        let primary: FontFace = weight == .bold ? .bold : .regular
        let index = FT_Get_Char_Index(faces[primary.rawValue], FT_ULong(scalar.value))
        if index != 0 { return MappedGlyph(scalar: scalar, face: primary, glyphIndex: UInt32(index)) }
        let fallback = FT_Get_Char_Index(faces[FontFace.fallback.rawValue], FT_ULong(scalar.value))
        if fallback != 0 { return MappedGlyph(scalar: scalar, face: .fallback, glyphIndex: UInt32(fallback)) }
        return MappedGlyph(scalar: scalar, face: primary, glyphIndex: 0)
    }

    /// Measures one line of `text` set in `style` (colour and halo do not change the advance; the
    /// halo widens the ink box).
    /// - Throws: `ImagingError.invalidParameter` for a pixel size or halo width out of range.
    public func measure(_ text: String, style: TextStyle) throws -> TextMetrics {
        try layout(text, style: style, origin: PixelPoint(0, 0)).metrics
    }

    /// A glyph mask placed on the image: its top-left pixel.
    struct PlacedGlyph: Sendable {
        var bitmap: GlyphBitmap
        var x: Int, y: Int
    }

    /// Lays out `text` with its baseline starting at `origin` (pixels), returning the glyph masks
    /// (and halo masks, when the style has a halo) at their image positions.
    func layout(_ text: String, style: TextStyle, origin: PixelPoint) throws
        -> (glyphs: [PlacedGlyph], halos: [PlacedGlyph], metrics: TextMetrics) {
        guard TextStyle.pixelSizeRange.contains(style.pixelSize) else {
            throw ImagingError.invalidParameter(name: "text pixel size", value: "\(style.pixelSize)",
                                                allowed: "\(TextStyle.pixelSizeRange.lowerBound)…\(TextStyle.pixelSizeRange.upperBound) pixels")
        }
        if let halo = style.halo, !(halo.width > 0 && halo.width <= TextStyle.maximumHaloWidth) {
            throw ImagingError.invalidParameter(name: "halo width", value: "\(halo.width)",
                                                allowed: "more than 0 and at most \(TextStyle.maximumHaloWidth) pixels")
        }
        guard origin.x.isFinite, origin.y.isFinite else {
            throw ImagingError.invalidParameter(name: "text origin", value: "\(origin.x), \(origin.y)",
                                                allowed: "finite pixel coordinates")
        }
        let size64 = Int32((style.pixelSize * 64).rounded())
        let halo64 = style.halo.map { Int32(($0.width * 64).rounded()) } ?? 0
        return lock.withLock {
            var glyphs: [PlacedGlyph] = [], halos: [PlacedGlyph] = []
            var pen = 0.0
            var previous: MappedGlyph?
            var ascent = 0.0, descent = 0.0
            var usedFaces = Set<FontFace>()
            var inkMinX = Double.infinity, inkMinY = Double.infinity
            var inkMaxX = -Double.infinity, inkMaxY = -Double.infinity
            let baselineY = Int(origin.y.rounded())
            for scalar in text.unicodeScalars where scalar.value >= 0x20 && scalar.value != 0x7F {
                let mapped = mapLocked(scalar, weight: style.weight)
                if let previous, previous.face == mapped.face {
                    pen += kerningLocked(previous, mapped, size64: size64)
                }
                previous = mapped
                // Quarter-pixel positioning: the pen's fraction picks one of four pre-shifted renderings.
                let absolute = origin.x + pen
                var column = Int(absolute.rounded(.down))
                var quarter = Int(((absolute - Double(column)) * 4).rounded())
                if quarter == 4 { column += 1; quarter = 0 }
                let key = GlyphKey(face: mapped.face, glyphIndex: mapped.glyphIndex,
                                   embolden: style.weight == .bold && mapped.face == .fallback, size64: size64,
                                   phase64: Int8(quarter * 16), halo64: 0)
                let bitmap = glyphLocked(key)
                if !usedFaces.contains(mapped.face) {
                    usedFaces.insert(mapped.face)
                    // Size the face first: on a glyph-cache hit it may still be at another call's size.
                    let metrics = sizeFaceLocked(mapped.face, size64: size64).pointee.size.pointee.metrics
                    ascent = max(ascent, Double(metrics.ascender) / 64)
                    descent = max(descent, -Double(metrics.descender) / 64)
                }
                func place(_ b: GlyphBitmap) -> PlacedGlyph {
                    let placed = PlacedGlyph(bitmap: b, x: column + b.left, y: baselineY - b.top)
                    if b.width > 0 && b.height > 0 {
                        inkMinX = min(inkMinX, Double(placed.x) - origin.x)
                        inkMaxX = max(inkMaxX, Double(placed.x + b.width) - origin.x)
                        inkMinY = min(inkMinY, Double(placed.y - baselineY))
                        inkMaxY = max(inkMaxY, Double(placed.y + b.height - baselineY))
                    }
                    return placed
                }
                glyphs.append(place(bitmap))
                if halo64 > 0 {
                    var haloKey = key
                    haloKey.halo64 = halo64
                    halos.append(place(glyphLocked(haloKey)))
                }
                pen += bitmap.advance
            }
            if inkMinX > inkMaxX { inkMinX = 0; inkMaxX = 0; inkMinY = 0; inkMaxY = 0 }
            let metrics = TextMetrics(advanceWidth: pen, ascent: ascent, descent: descent,
                                      inkMinX: inkMinX, inkMinY: inkMinY, inkMaxX: inkMaxX, inkMaxY: inkMaxY)
            return (glyphs, halos, metrics)
        }
    }

    /// Sets the face's size if it differs from the last one used.
    private func sizeFaceLocked(_ face: FontFace, size64: Int32) -> FT_Face {
        let ftFace = faces[face.rawValue]
        if faceSize64[face.rawValue] != Int(size64) {
            FT_Set_Char_Size(ftFace, 0, FT_F26Dot6(size64), 72, 72)   // 72 dpi: points = pixels
            faceSize64[face.rawValue] = Int(size64)
        }
        return ftFace
    }

    private func kerningLocked(_ left: MappedGlyph, _ right: MappedGlyph, size64: Int32) -> Double {
        let ftFace = sizeFaceLocked(left.face, size64: size64)
        guard ftFace.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0 else { return 0 }
        var delta = FT_Vector()
        let status = FT_Get_Kerning(ftFace, FT_UInt(left.glyphIndex), FT_UInt(right.glyphIndex),
                                    FT_UInt(FT_KERNING_UNFITTED.rawValue), &delta)
        return status == 0 ? Double(delta.x) / 64 : 0
    }

    /// `FT_LOAD_TARGET_LIGHT` (a function-like macro, not imported): vertical-only hinting, so
    /// horizontal positions and advances stay true to the design.
    private static let loadTargetLight = FT_Int32(FT_RENDER_MODE_LIGHT.rawValue & 15) << 16

    private func glyphLocked(_ key: GlyphKey) -> GlyphBitmap {
        if let hit = cache.lookup(key) { return hit }
        let bitmap = renderLocked(key)
        cache.insert(bitmap, for: key)
        return bitmap
    }

    /// Renders one glyph (or its halo) into a Swift-owned mask. A glyph FreeType cannot load renders
    /// as an empty mask with zero advance rather than failing the whole label.
    private func renderLocked(_ key: GlyphKey) -> GlyphBitmap {
        let empty = GlyphBitmap(width: 0, height: 0, left: 0, top: 0, coverage: [], advance: 0)
        let ftFace = sizeFaceLocked(key.face, size64: key.size64)
        let flags = FT_Int32(FT_LOAD_NO_BITMAP) | Self.loadTargetLight
        guard FT_Load_Glyph(ftFace, FT_UInt(key.glyphIndex), flags) == 0, let slot = ftFace.pointee.glyph else {
            return empty
        }
        var advance = Double(slot.pointee.linearHoriAdvance) / 65536
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return empty }
        if key.embolden {
            // Synthetic bold as FT_GlyphSlot_Embolden does it: strength em/24, advance grows by as much.
            let strength = FT_Pos(key.size64 / 24)
            FT_Outline_Embolden(&slot.pointee.outline, strength)
            advance += Double(strength) / 64
        }
        if key.phase64 != 0 { FT_Outline_Translate(&slot.pointee.outline, FT_Pos(key.phase64), 0) }

        if key.halo64 == 0 {
            guard FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return empty }
            var out = Self.copy(slot.pointee.bitmap, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top))
            out.advance = advance
            return out
        }
        // Halo: the outer border of the outline stroked with round joins, filled: the glyph dilated.
        var glyph: FT_Glyph?
        guard FT_Get_Glyph(slot, &glyph) == 0, glyph != nil, let stroker else { return empty }
        defer { if let glyph { FT_Done_Glyph(glyph) } }
        FT_Stroker_Set(stroker, FT_Fixed(key.halo64), FT_STROKER_LINECAP_ROUND, FT_STROKER_LINEJOIN_ROUND, 0)
        guard FT_Glyph_StrokeBorder(&glyph, stroker, 0, 1) == 0,
              FT_Glyph_To_Bitmap(&glyph, FT_RENDER_MODE_NORMAL, nil, 1) == 0, let rendered = glyph else { return empty }
        let bitmapGlyph = UnsafeMutableRawPointer(rendered).assumingMemoryBound(to: FT_BitmapGlyphRec.self)
        var out = Self.copy(bitmapGlyph.pointee.bitmap, left: Int(bitmapGlyph.pointee.left),
                            top: Int(bitmapGlyph.pointee.top))
        out.advance = advance
        return out
    }

    private static func copy(_ bitmap: FT_Bitmap, left: Int, top: Int) -> GlyphBitmap {
        let width = Int(bitmap.width), height = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0, height > 0, let buffer = bitmap.buffer,
              bitmap.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else {
            return GlyphBitmap(width: 0, height: 0, left: left, top: top, coverage: [], advance: 0)
        }
        var coverage = [UInt8](repeating: 0, count: width * height)
        coverage.withUnsafeMutableBufferPointer { out in
            for row in 0..<height {
                // A negative pitch means rows are stored bottom-up.
                let source = pitch >= 0 ? buffer + row * pitch : buffer + (height - 1 - row) * (-pitch)
                for x in 0..<width { out[row * width + x] = source[x] }
            }
        }
        return GlyphBitmap(width: width, height: height, left: left, top: top, coverage: coverage, advance: 0)
    }
}
