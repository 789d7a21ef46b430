/// An image prepared for ``Canvas/drawProjected(_:transform:opacity:)``: premultiplied 8-bit RGBA,
/// framed by one transparent pixel (so a bilinear tap anywhere in `(-1, size)` needs no bounds check),
/// with the box of its inked pixels (alpha > 0) so drawing can skip the empty space around them.
///
/// Make one from a straight-alpha image, or render text straight into one
/// (`init(text:style:origin:width:height:renderer:)`, one pass, no intermediate canvas).
public struct ProjectionSource: Sendable {
    /// Size in pixels.
    public let width: Int, height: Int
    /// Pixels with the frame, row after row, `(width + 2) × (height + 2)`: r, g, b, a premultiplied,
    /// 0…255 (8-bit values; floats so that a bilinear tap is one load).
    let buffer: TexelBuffer
    var texels: [SIMD4<Float>] { buffer.texels }
    /// The inked box, pixels (`inkMinX < inkMaxX` unless every pixel is transparent).
    public let inkMinX: Int, inkMinY: Int, inkMaxX: Int, inkMaxY: Int

    /// Whether every pixel is transparent.
    public var isEmpty: Bool { inkMinX >= inkMaxX }

    /// `image` (straight alpha) premultiplied. O(width × height).
    public init(_ image: RGBA8Image) {
        let w = image.width, h = image.height, stride = w + 2
        let texels = TexelBuffer(zeroedCount: (w + 2) * (h + 2))
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        image.components.withUnsafeBufferPointer { src in
            texels.fill { out in
                for y in 0..<h {
                    var rowMin = Int.max, rowMax = Int.min
                    let row = (y + 1) * stride + 1
                    for x in 0..<w {
                        let k = (y * w + x) * 4
                        let a = UInt32(src[k + 3])
                        guard a > 0 else { continue }
                        if rowMin == Int.max { rowMin = x }
                        rowMax = x
                        let r = (UInt32(src[k]) * a + 127) / 255, g = (UInt32(src[k + 1]) * a + 127) / 255
                        let b = (UInt32(src[k + 2]) * a + 127) / 255
                        out[row + x] = SIMD4(Float(r), Float(g), Float(b), Float(a))
                    }
                    if rowMin != Int.max {
                        minX = min(minX, rowMin); maxX = max(maxX, rowMax + 1)
                        minY = min(minY, y); maxY = max(maxY, y + 1)
                    }
                }
            }
        }
        self.init(width: w, height: h, texels: texels, ink: minX == Int.max ? nil : (minX, minY, maxX, maxY))
    }

    init(width: Int, height: Int, texels: TexelBuffer, ink: (Int, Int, Int, Int)?) {
        self.width = width; self.height = height; self.buffer = texels
        (inkMinX, inkMinY, inkMaxX, inkMaxY) = ink ?? (0, 0, 0, 0)
    }

    /// The premultiplied pixels without the frame, row after row, r, g, b, a bytes each (for tests).
    public var premultipliedComponents: [UInt8] {
        var components: [UInt8] = []
        components.reserveCapacity(width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let t = texels[(y + 1) * (width + 2) + x + 1]
                for c in 0..<4 { components.append(UInt8(t[c].rounded())) }
            }
        }
        return components
    }

    /// The image as straight-alpha RGBA8 (for tests and pictures).
    public var image: RGBA8Image {
        var image = RGBA8Image(width: width, height: height)
        let stride = width + 2
        for y in 0..<height {
            for x in 0..<width {
                let t = texels[(y + 1) * stride + x + 1], a = t.w
                guard a > 0 else { continue }
                let k = (y * width + x) * 4
                for c in 0..<3 { image.components[k + c] = UInt8(min(255, (t[c] * 255 / a).rounded())) }
                image.components[k + 3] = UInt8(a.rounded())
            }
        }
        return image
    }

    /// A level of a mip pyramid: `width × height` texels in a transparent frame, starting at `offset`
    /// in its buffer. Level `L` texel `(i, j)` covers level-0 pixels `[i·2^L, (i+1)·2^L) × [j·2^L, (j+1)·2^L)`.
    struct Level {
        var width: Int, height: Int
        var offset: Int
        var stride: Int { width + 2 }
    }

    /// Levels 1 through `maximumLevel` (fewer when the image shrinks to one texel first), each the 2×2
    /// box average of the one before (outside the image counts as transparent), unrounded, in one new buffer.
    /// O(width × height / 3).
    func coarserLevels(upTo maximumLevel: Int) -> (levels: [Level], texels: TexelBuffer) {
        var levels: [Level] = []
        var total = 0, w = width, h = height
        while levels.count < maximumLevel, w > 1 || h > 1 {
            w = (w + 1) / 2; h = (h + 1) / 2
            levels.append(Level(width: w, height: h, offset: total))
            total += (w + 2) * (h + 2)
        }
        let coarse = TexelBuffer(zeroedCount: total)
        buffer.texels.withUnsafeBufferPointer { level0 in
            coarse.fill { out in
                for l in levels.indices {
                    let fine = l == 0 ? Level(width: width, height: height, offset: 0) : levels[l - 1]
                    let finePixels = l == 0 ? UnsafePointer(level0.baseAddress!) : UnsafePointer(out.baseAddress!)
                    let level = levels[l]
                    for y in 0..<level.height {
                        let top = fine.offset + (2 * y + 1) * fine.stride + 1, bottom = top + fine.stride
                        let row = level.offset + (y + 1) * level.stride + 1
                        for x in 0..<level.width {
                            // An odd edge averages with the transparent frame.
                            let p = finePixels[top + 2 * x], q = finePixels[top + 2 * x + 1]
                            let r = finePixels[bottom + 2 * x], s = finePixels[bottom + 2 * x + 1]
                            out[row + x] = (p + q + r + s) * 0.25
                        }
                    }
                }
            }
        }
        return (levels, coarse)
    }
}
