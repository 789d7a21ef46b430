/// The size of a line of text at one pixel size, in pixels, relative to the pen position on the
/// baseline where drawing starts (x to the right, y *down*, like image coordinates).
public struct TextMetrics: Sendable, Hashable {
    /// Sum of the glyph advances and kerning: where the pen ends up (≥ 0).
    public var advanceWidth: Double
    /// Distance from the baseline up to the top of the tallest face used (> 0 for any text).
    public var ascent: Double
    /// Distance from the baseline down to the bottom of the deepest face used (≥ 0).
    public var descent: Double
    /// The inked box of the rendered glyphs (zero size for blank text): left, top, right, bottom.
    public var inkMinX: Double, inkMinY: Double, inkMaxX: Double, inkMaxY: Double

    /// A metrics value from its parts.
    public init(advanceWidth: Double, ascent: Double, descent: Double,
                inkMinX: Double, inkMinY: Double, inkMaxX: Double, inkMaxY: Double) {
        self.advanceWidth = advanceWidth; self.ascent = ascent; self.descent = descent
        self.inkMinX = inkMinX; self.inkMinY = inkMinY; self.inkMaxX = inkMaxX; self.inkMaxY = inkMaxY
    }

    /// `ascent + descent`: the height a line box needs.
    public var lineHeight: Double { ascent + descent }
    /// Width of the inked box.
    public var inkWidth: Double { inkMaxX - inkMinX }
    /// Height of the inked box.
    public var inkHeight: Double { inkMaxY - inkMinY }
}
