/// How a line of text is drawn: size, weight, colour and an optional halo.
public struct TextStyle: Sendable, Hashable {
    /// An outline drawn under the glyphs so that text stays legible on busy backgrounds.
    public struct Halo: Sendable, Hashable {
        /// How far the halo reaches beyond the glyph outlines, in pixels (0 < width ≤ `TextStyle.maximumHaloWidth`).
        public var width: Double
        /// The halo colour (straight alpha).
        public var color: RGBAColor
        /// A halo of `width` pixels in `color`.
        public init(width: Double, color: RGBAColor) { self.width = width; self.color = color }
    }

    /// Allowed pixel sizes (em size in pixels).
    public static let pixelSizeRange: ClosedRange<Double> = 1...512
    /// The widest halo, in pixels.
    public static let maximumHaloWidth = 32.0

    /// Em size in pixels (`pixelSizeRange`).
    public var pixelSize: Double
    /// Regular or bold.
    public var weight: FontWeight
    /// Text colour (straight alpha).
    public var color: RGBAColor
    /// The halo, or `nil` for none.
    public var halo: Halo?

    /// A text style; `pixelSize` is the em size in pixels.
    public init(pixelSize: Double, weight: FontWeight = .regular, color: RGBAColor = .black, halo: Halo? = nil) {
        self.pixelSize = pixelSize; self.weight = weight; self.color = color; self.halo = halo
    }
}
