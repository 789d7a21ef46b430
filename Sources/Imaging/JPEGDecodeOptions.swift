/// How `JPEGCodec` decodes.
public struct JPEGDecodeOptions: Sendable, Hashable {
    /// DCT scaling (1/1 by default).
    public var scale: JPEGScale
    /// When true, a warning (truncation, corrupt entropy data) is an error: `ImagingError.truncated`
    /// for data that ends early, `.corrupt` otherwise. When false the pixels come back with the warnings.
    public var strict: Bool
    /// Use the fast integer inverse DCT (slightly less accurate; about as fast as the accurate one on
    /// SIMD builds of libjpeg-turbo). Off by default, like `djpeg`.
    public var fastDCT: Bool

    /// Options; the defaults decode at full size, leniently, with the accurate DCT.
    public init(scale: JPEGScale = .full, strict: Bool = false, fastDCT: Bool = false) {
        self.scale = scale; self.strict = strict; self.fastDCT = fastDCT
    }
}
