/// A size in whole pixels, as users write it: `1280x720`.
public struct PixelSize: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    public init(width: Int, height: Int) { self.width = width; self.height = height }

    /// `width × height`.
    public var pixelCount: Int { width * height }

    /// `"1280x720"`.
    public var description: String { "\(width)x\(height)" }

    /// Parses `WIDTHxHEIGHT` (also `×` or `X`), each side 1…`maximumSide`.
    /// - Throws: `ImagingError.invalidSize` naming the text and the allowed form and range.
    public init(parsing text: String, maximumSide: Int = 65_535) throws {
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" }).map(String.init)
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else {
            throw ImagingError.invalidSize(text: text, reason: "expected WIDTHxHEIGHT, for example 1280x720")
        }
        guard (1...maximumSide).contains(w), (1...maximumSide).contains(h) else {
            throw ImagingError.invalidSize(text: text, reason: "each side must be 1…\(maximumSide) pixels")
        }
        self.init(width: w, height: h)
    }
}
