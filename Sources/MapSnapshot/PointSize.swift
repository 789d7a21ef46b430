import Imaging

/// A map image's size in points, as MapKit's snapshot options give it: line widths, text and
/// markers are laid out in points, and the image has `points × scale` pixels
/// (``MapSnapshotOptions/pixelSize``). A distinct type from Imaging's `PixelSize` so the two cannot
/// be passed for each other.
public struct PointSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in points.
    public var width: Int
    /// Height in points.
    public var height: Int

    /// A size of `width` × `height` points.
    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// Parses `WIDTHxHEIGHT` (also `X` or `×`), each side 1…`maximumSide`.
    /// - Throws: `ImagingError.invalidSize` naming the text and the allowed range.
    public init(parsing text: String, maximumSide: Int) throws {
        let parsed = try PixelSize(parsing: text, maximumSide: maximumSide)
        self.init(width: parsed.width, height: parsed.height)
    }

    /// The size in pixels at `scale` pixels per point, each side rounded to the nearest pixel.
    public func pixels(scale: Double) -> PixelSize {
        PixelSize(width: Int((Double(width) * scale).rounded()), height: Int((Double(height) * scale).rounded()))
    }

    /// `"1024x768"`.
    public var description: String { "\(width)x\(height)" }
}
