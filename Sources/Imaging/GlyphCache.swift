/// A rendered glyph: an 8-bit coverage mask and where it sits relative to the pen position.
struct GlyphBitmap: Sendable {
    /// Mask size in pixels (0×0 for blank glyphs such as the space).
    var width: Int, height: Int
    /// Pixels from the pen position to the mask's left edge (right is positive).
    var left: Int
    /// Pixels from the baseline up to the mask's top edge (up is positive, as FreeType has it).
    var top: Int
    /// Coverage 0…255, `width × height`, row-major, top row first.
    var coverage: [UInt8]
    /// Horizontal advance in pixels (unhinted, fractional).
    var advance: Double
}

/// What identifies a rendered glyph: face, glyph index, synthetic emboldening, size and sub-pixel
/// phase in 1/64 pixel, and the halo radius in 1/64 pixel (0 for the glyph itself).
struct GlyphKey: Hashable, Sendable {
    var face: FontFace
    var glyphIndex: UInt32
    /// Bold asked of a face that has no bold (the CJK fallback): the outline is emboldened.
    var embolden: Bool
    var size64: Int32
    var phase64: Int8
    var halo64: Int32
}

/// A bounded store of rendered glyphs with least-recently-used eviction. Not synchronised:
/// `FontLibrary` uses it under its lock.
struct GlyphCache: Sendable {
    /// The most glyphs kept; when full, the least recently used quarter is dropped.
    let capacity: Int
    private var entries: [GlyphKey: (bitmap: GlyphBitmap, lastUse: UInt64)] = [:]
    private var clock: UInt64 = 0

    init(capacity: Int) {
        precondition(capacity >= 4, "glyph cache capacity must be at least 4, got \(capacity)")
        self.capacity = capacity
    }

    /// Glyphs held.
    var count: Int { entries.count }

    mutating func lookup(_ key: GlyphKey) -> GlyphBitmap? {
        clock += 1
        guard let hit = entries[key] else { return nil }
        entries[key] = (hit.bitmap, clock)
        return hit.bitmap
    }

    mutating func insert(_ bitmap: GlyphBitmap, for key: GlyphKey) {
        clock += 1
        if entries.count >= capacity {
            let oldest = entries.sorted { $0.value.lastUse < $1.value.lastUse }.prefix(max(1, capacity / 4))
            for (k, _) in oldest { entries[k] = nil }
        }
        entries[key] = (bitmap, clock)
    }
}
