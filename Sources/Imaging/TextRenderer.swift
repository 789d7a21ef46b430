/// Draws single lines of text onto a `Canvas` with a `FontLibrary`: glyph masks composited with the
/// canvas's premultiplied blending, halos (when the style has one) drawn first, under all glyphs.
public struct TextRenderer: Sendable {
    /// The fonts and glyph cache (shared; thread-safe).
    public let fonts: FontLibrary

    /// A renderer over `fonts`.
    public init(fonts: FontLibrary) { self.fonts = fonts }

    /// Draws `text` with its baseline starting at `origin` (pixels; the pen position of the first
    /// glyph) and returns its metrics. Glyphs are placed to a quarter pixel horizontally; the
    /// baseline is rounded to a whole pixel row. Parts outside the canvas are clipped.
    /// - Throws: `ImagingError.invalidParameter` for an out-of-range pixel size or halo width.
    @discardableResult
    public func draw(_ text: String, at origin: PixelPoint, style: TextStyle, on canvas: inout Canvas,
                     blendMode: BlendMode = .normal) throws -> TextMetrics {
        let layout = try fonts.layout(text, style: style, origin: origin)
        if let halo = style.halo {
            blendUnion(layout.halos, color: halo.color, blendMode: blendMode, on: &canvas)
        }
        blendUnion(layout.glyphs, color: style.color, blendMode: blendMode, on: &canvas)
        return layout.metrics
    }

    /// Measures `text` in `style` without drawing (see `FontLibrary.measure`).
    public func measure(_ text: String, style: TextStyle) throws -> TextMetrics {
        try fonts.measure(text, style: style)
    }

    /// Merges the masks (maximum coverage where neighbours overlap, clipped to the canvas) and blends
    /// the result once, so overlapping halos or kerned glyphs do not darken translucent colours twice.
    private func blendUnion(_ placed: [FontLibrary.PlacedGlyph], color: RGBAColor, blendMode: BlendMode,
                            on canvas: inout Canvas) {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for p in placed where p.bitmap.width > 0 && p.bitmap.height > 0 {
            x0 = min(x0, p.x); y0 = min(y0, p.y)
            x1 = max(x1, p.x + p.bitmap.width); y1 = max(y1, p.y + p.bitmap.height)
        }
        x0 = max(x0, 0); y0 = max(y0, 0); x1 = min(x1, canvas.width); y1 = min(y1, canvas.height)
        guard x0 < x1, y0 < y1 else { return }
        let width = x1 - x0, height = y1 - y0
        var union = [UInt8](repeating: 0, count: width * height)
        union.withUnsafeMutableBufferPointer { out in
            for p in placed where p.bitmap.width > 0 && p.bitmap.height > 0 {
                let b = p.bitmap
                let cx0 = max(p.x, x0), cy0 = max(p.y, y0)
                let cx1 = min(p.x + b.width, x1), cy1 = min(p.y + b.height, y1)
                guard cx0 < cx1, cy0 < cy1 else { continue }
                b.coverage.withUnsafeBufferPointer { mask in
                    for y in cy0..<cy1 {
                        let source = (y - p.y) * b.width - p.x, target = (y - y0) * width - x0
                        for x in cx0..<cx1 { out[target + x] = max(out[target + x], mask[source + x]) }
                    }
                }
            }
        }
        union.withUnsafeBufferPointer { mask in
            canvas.blendMask(mask, maskWidth: width, maskHeight: height, x: x0, y: y0, color: color,
                             blendMode: blendMode)
        }
    }
}
