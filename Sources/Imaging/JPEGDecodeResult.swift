/// Pixels from a JPEG plus the warnings libjpeg raised while decoding them (for example
/// "Premature end of JPEG file" for a truncated file, whose missing part is grey).
public struct JPEGDecodeResult<Format: PixelFormat>: Sendable {
    /// The decoded image.
    public var image: Image<Format>
    /// libjpeg's warnings, in its words; empty for a clean file.
    public var warnings: [String]

    /// A result.
    public init(image: Image<Format>, warnings: [String]) { self.image = image; self.warnings = warnings }
}
