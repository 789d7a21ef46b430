/// An axis-aligned rectangle on an image in pixels, by its edges (same axes as ``PixelPoint``):
/// a label's box, a reserved part of a picture.
public struct PixelRect: Sendable, Hashable {
    /// The left, top, right and bottom edges, pixels.
    public var minX: Double, minY: Double, maxX: Double, maxY: Double

    /// A rectangle from its edges.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// The empty rectangle at the origin.
    public static let zero = PixelRect(minX: 0, minY: 0, maxX: 0, maxY: 0)

    /// Width in pixels.
    public var width: Double { maxX - minX }
    /// Height in pixels.
    public var height: Double { maxY - minY }

    /// Whether the two rectangles share any area (touching edges do not).
    public func overlaps(_ other: PixelRect) -> Bool {
        minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
    }
}
