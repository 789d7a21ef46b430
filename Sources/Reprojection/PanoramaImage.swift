import Imaging
import Parallelism

/// An equirectangular panorama in the layout the samplers read: one `UInt32` per pixel holding
/// R, G, B in its low three bytes (R lowest) and 0 in the top byte, rows top (zenith) to bottom,
/// no padding. Four bytes per pixel let a bilinear tap be one aligned load, and the samplers
/// interpolate all channels at once in 16-bit lanes of a `UInt64`.
///
/// Width = 2 × height (DESIGN §3).
public struct PanoramaImage: Sendable, Equatable {
    /// Width in pixels (= 2 × height).
    public let width: Int
    /// Height in pixels (≥ 2).
    public let height: Int
    /// Packed pixels, `width × height`, row-major.
    public internal(set) var pixels: [UInt32]

    /// Packs an RGB image.
    /// - Throws: `ReprojectionError.notEquirectangular` unless width = 2 × height and height ≥ 2.
    public init(_ image: RGB8Image) throws(ReprojectionError) {
        guard image.width == 2 * image.height, image.height >= 2 else {
            throw .notEquirectangular(width: image.width, height: image.height)
        }
        width = image.width
        height = image.height
        let count = image.pixelCount
        pixels = [UInt32](unsafeUninitializedCapacity: count) { out, initialized in
            image.components.withUnsafeBufferPointer { src in
                for i in 0..<count {
                    out[i] = UInt32(src[3 * i]) | UInt32(src[3 * i + 1]) << 8 | UInt32(src[3 * i + 2]) << 16
                }
            }
            initialized = count
        }
    }

    init(width: Int, height: Int, pixels: [UInt32]) {
        precondition(width == 2 * height && pixels.count == width * height)
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The pixels as an RGB image.
    public func rgbImage() -> RGB8Image {
        var out = [UInt8](repeating: 0, count: width * height * 3)
        pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count {
                    let p = src[i]
                    dst[3 * i] = UInt8(truncatingIfNeeded: p)
                    dst[3 * i + 1] = UInt8(truncatingIfNeeded: p >> 8)
                    dst[3 * i + 2] = UInt8(truncatingIfNeeded: p >> 16)
                }
            }
        }
        return RGB8Image(width: width, height: height, components: out)
    }

    /// The next pyramid level: half the size per side, each pixel the rounded mean of a 2×2 block
    /// (an area filter, which is what stops a small view of a large panorama from aliasing).
    /// `nil` when the height is odd or below 2 × 2.
    public func halved() -> PanoramaImage? {
        guard height % 2 == 0, height >= 4 else { return nil }
        let w = width / 2, h = height / 2
        let out = [UInt32](unsafeUninitializedCapacity: w * h) { dst, initialized in
            pixels.withUnsafeBufferPointer { src in
                Parallel.forEachRowRange(h) { rows in
                    for y in rows {
                        let r0 = 2 * y * width, r1 = r0 + width
                        for x in 0..<w {
                            let a = src[r0 + 2 * x], b = src[r0 + 2 * x + 1], c = src[r1 + 2 * x], d = src[r1 + 2 * x + 1]
                            // Per-channel sums of four bytes fit in the 16-bit lanes of the spread form.
                            let sum = Self.spread(a) &+ Self.spread(b) &+ Self.spread(c) &+ Self.spread(d)
                                &+ 0x0002_0002_0002_0002
                            dst[y * w + x] = Self.pack((sum >> 2) & 0x00FF_00FF_00FF_00FF)
                        }
                    }
                }
            }
            initialized = w * h
        }
        return PanoramaImage(width: w, height: h, pixels: out)
    }

    /// 0x00000000_00BBGGRR → 0x0000_00BB_00GG_00RR: one channel per 16-bit lane.
    @inline(__always) @usableFromInline static func spread(_ p: UInt32) -> UInt64 {
        var x = UInt64(p)
        x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
        return x
    }

    /// The inverse of ``spread(_:)`` for lanes ≤ 255.
    @inline(__always) @usableFromInline static func pack(_ x: UInt64) -> UInt32 {
        let y = (x | (x >> 8)) & 0x0000_FFFF_0000_FFFF
        return UInt32(truncatingIfNeeded: y | (y >> 16))
    }
}
