/// A position on an image in pixels, `x` to the right and `y` downwards from the top-left corner of
/// the image. Pixel (i, j) covers [i, i+1) × [j, j+1), so its centre is at (i + 0.5, j + 0.5).
public struct PixelPoint: Sendable, Hashable {
    /// Pixels from the left edge.
    public var x: Double
    /// Pixels from the top edge.
    public var y: Double

    /// A point from its two coordinates in pixels.
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    /// A point from its two coordinates in pixels.
    public init(_ x: Double, _ y: Double) { self.x = x; self.y = y }

    /// Component-wise sum (a point moved by an offset).
    public static func + (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(a.x + b.x, a.y + b.y) }
    /// Component-wise difference (the offset from `b` to `a`).
    public static func - (a: PixelPoint, b: PixelPoint) -> PixelPoint { PixelPoint(a.x - b.x, a.y - b.y) }
    /// Both coordinates scaled by `k`.
    public static func * (a: PixelPoint, k: Double) -> PixelPoint { PixelPoint(a.x * k, a.y * k) }
    /// Distance from the origin in pixels.
    public var length: Double { (x * x + y * y).squareRoot() }
}
