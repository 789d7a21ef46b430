/// A picture in the form JPEG stores it: 8-bit YCbCr as JFIF defines it (full range 0…255, BT.601
/// matrix) with the chroma planes halved in both directions (4:2:0, each chroma sample covering a 2×2
/// block of luma). Video decoders give pictures in this shape, so frames go from a decoder through a
/// remap to the JPEG encoder without a round trip through RGB.
///
/// Each plane is contiguous, rows top to bottom, no padding: luma `width × height`, Cb and Cr
/// `chromaWidth × chromaHeight` (the halves rounded up).
public struct YCbCr420Image: Sendable, Equatable {
    /// Size of the luma plane, pixels (≥ 1).
    public let width: Int, height: Int
    /// Luma (Y), `width × height`.
    public var luma: [UInt8]
    /// Blue-difference chroma, `chromaWidth × chromaHeight`.
    public var cb: [UInt8]
    /// Red-difference chroma, `chromaWidth × chromaHeight`.
    public var cr: [UInt8]

    /// Chroma plane width: `(width + 1) / 2`.
    @inlinable public var chromaWidth: Int { (width + 1) / 2 }
    /// Chroma plane height: `(height + 1) / 2`.
    @inlinable public var chromaHeight: Int { (height + 1) / 2 }

    /// A picture whose samples are left as the allocator gave them (for a writer that sets every sample).
    /// Sizes come from code: a non-positive size is a programmer error.
    public init(unfilledWidth width: Int, height: Int) {
        precondition(width > 0 && height > 0, "image size must be positive, got \(width)×\(height)")
        self.width = width
        self.height = height
        let chroma = ((width + 1) / 2) * ((height + 1) / 2)
        luma = [UInt8](unsafeUninitializedCapacity: width * height) { _, n in n = width * height }
        cb = [UInt8](unsafeUninitializedCapacity: chroma) { _, n in n = chroma }
        cr = [UInt8](unsafeUninitializedCapacity: chroma) { _, n in n = chroma }
    }

    /// The picture of an RGB image (JFIF's matrix; each chroma sample the mean of its 2×2 block).
    public init(_ image: RGB8Image) {
        self.init(unfilledWidth: image.width, height: image.height)
        let w = width, h = height, cw = chromaWidth
        image.components.withUnsafeBufferPointer { rgb in
            for y in 0..<h {
                for x in 0..<w {
                    let i = 3 * (y * w + x)
                    let r = Double(rgb[i]), g = Double(rgb[i + 1]), b = Double(rgb[i + 2])
                    luma[y * w + x] = Self.clamp(0.299 * r + 0.587 * g + 0.114 * b)
                }
            }
            for cy in 0..<chromaHeight {
                for cx in 0..<cw {
                    var r = 0.0, g = 0.0, b = 0.0, n = 0.0
                    for y in (2 * cy)..<min(2 * cy + 2, h) {
                        for x in (2 * cx)..<min(2 * cx + 2, w) {
                            let i = 3 * (y * w + x)
                            r += Double(rgb[i]); g += Double(rgb[i + 1]); b += Double(rgb[i + 2]); n += 1
                        }
                    }
                    (r, g, b) = (r / n, g / n, b / n)
                    cb[cy * cw + cx] = Self.clamp(128 - 0.168736 * r - 0.331264 * g + 0.5 * b)
                    cr[cy * cw + cx] = Self.clamp(128 + 0.5 * r - 0.418688 * g - 0.081312 * b)
                }
            }
        }
    }

    /// The picture as RGB (JFIF's matrix, chroma taken from the sample covering each pixel).
    public func rgbImage() -> RGB8Image {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        let w = width, cw = chromaWidth
        for y in 0..<height {
            for x in 0..<w {
                let l = Double(luma[y * w + x]), c = (y / 2) * cw + x / 2
                let b = Double(cb[c]) - 128, r = Double(cr[c]) - 128
                let i = 3 * (y * w + x)
                out[i] = Self.clamp(l + 1.402 * r)
                out[i + 1] = Self.clamp(l - 0.344136 * b - 0.714136 * r)
                out[i + 2] = Self.clamp(l + 1.772 * b)
            }
        }
        return RGB8Image(width: width, height: height, components: out)
    }

    @inline(__always) static func clamp(_ v: Double) -> UInt8 { UInt8(max(0, min(255, v.rounded()))) }
}
