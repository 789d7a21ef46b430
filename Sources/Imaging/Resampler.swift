import Dispatch
import Foundation
import Parallelism

/// A reconstruction filter for resizing.
public enum ResamplingFilter: String, Sendable, CaseIterable, Codable {
    /// Triangle (tent) kernel, support 1.
    case bilinear
    /// Keys cubic convolution with a = -0.5 (Catmull-Rom), support 2.
    case bicubic
    /// Lanczos windowed sinc with 3 lobes, support 3.
    case lanczos3
    /// Area averaging: each output pixel is the exact mean of the source area it covers
    /// (a box kernel with fractional edges). Meant for downscaling; upscaling gives nearest-like blocks.
    case area

    /// Half-width of the kernel in source pixels at scale 1.
    public var support: Double {
        switch self {
        case .bilinear: return 1
        case .bicubic: return 2
        case .lanczos3: return 3
        case .area: return 0.5
        }
    }

    /// The kernel's value at `x` (in units of the possibly widened source spacing).
    @inlinable public func weight(_ x: Double) -> Double {
        let ax = abs(x)
        switch self {
        case .bilinear:
            return ax < 1 ? 1 - ax : 0
        case .bicubic:
            let a = -0.5
            if ax <= 1 { return ((a + 2) * ax - (a + 3)) * ax * ax + 1 }
            if ax < 2 { return ((a * ax - 5 * a) * ax + 8 * a) * ax - 4 * a }
            return 0
        case .lanczos3:
            if ax < 1e-12 { return 1 }
            if ax >= 3 { return 0 }
            let px = Double.pi * ax
            return 3 * sin(px) * sin(px / 3) / (px * px)
        case .area:
            // Box of width 1 with fractional coverage handled by the weight computation.
            return ax <= 0.5 ? 1 : 0
        }
    }
}

/// Resizing of 8-bit images (`RGB8`, `RGBA8`, `Gray8`).
///
/// When shrinking, every kernel is widened by the scale factor (as Pillow and libvips do), so a large
/// image rendered small does not alias; `area` then averages exactly the covered source area.
/// Source and output pixel centres sit at (x + 0.5, y + 0.5); edges are clamped.
///
/// `resize` is the fast path: separable, weights precomputed once per axis, rows split across cores,
/// no allocation inside the per-pixel loops. `resizeReference` is the plain scalar definition
/// (one 2-D weighted sum per output pixel, in `Double`) that tests compare it against.
/// RGBA is filtered with premultiplied alpha so transparent pixels do not bleed colour.
public enum Resampler {
    /// Resizes `image` to `size` with `filter`.
    /// - Throws: `ImagingError.invalidParameter` when a side of `size` is not positive.
    public static func resize<F: PixelFormat>(_ image: Image<F>, to size: PixelSize,
                                              filter: ResamplingFilter = .lanczos3) throws -> Image<F>
    where F.Component == UInt8 {
        try validate(size)
        if size.width == image.width && size.height == image.height { return image }
        let channels = F.channelCount
        let premultiplied = channels == 4
        let horizontal = WeightTable(source: image.width, destination: size.width, filter: filter)
        let vertical = WeightTable(source: image.height, destination: size.height, filter: filter)

        // Pass 1: horizontal, every source row → Float rows of the output width.
        let intermediateStride = size.width * channels
        var intermediate = [Float](repeating: 0, count: image.height * intermediateStride)
        intermediate.withUnsafeMutableBufferPointer { mid in
            image.components.withUnsafeBufferPointer { src in
              horizontal.withPointers { starts, counts, weights in
                let midBase = mid.baseAddress!, srcBase = src.baseAddress!
                Parallel.forEachRowRange(image.height) { rows in
                  for y in rows {
                    let row = srcBase + y * image.width * channels
                    let out = midBase + y * intermediateStride
                    for x in 0..<size.width {
                        let start = starts[x], count = counts[x]
                        let w = weights + x * horizontal.maxTaps
                        var acc: (Float, Float, Float, Float) = (0, 0, 0, 0)
                        for k in 0..<count {
                            let p = row + (start + k) * channels
                            let weight = w[k]
                            if premultiplied {
                                let alpha = Float(p[3])
                                let wa = weight * alpha * (1 / 255)
                                acc.0 += wa * Float(p[0]); acc.1 += wa * Float(p[1]); acc.2 += wa * Float(p[2])
                                acc.3 += weight * alpha
                            } else {
                                acc.0 += weight * Float(p[0])
                                if channels > 1 { acc.1 += weight * Float(p[1]); acc.2 += weight * Float(p[2]) }
                            }
                        }
                        let o = out + x * channels
                        o[0] = acc.0
                        if channels > 1 { o[1] = acc.1; o[2] = acc.2 }
                        if channels > 3 { o[3] = acc.3 }
                    }
                  }
                }
              }
            }
        }

        // Pass 2: vertical, Float rows → 8-bit output rows.
        var output = Image<F>(width: size.width, height: size.height)
        output.components.withUnsafeMutableBufferPointer { dst in
            intermediate.withUnsafeBufferPointer { mid in
              vertical.withPointers { starts, counts, weights in
                let dstBase = dst.baseAddress!, midBase = mid.baseAddress!
                Parallel.forEachRowRange(size.height) { rows in
                  for y in rows {
                    let start = starts[y], count = counts[y]
                    let w = weights + y * vertical.maxTaps
                    let out = dstBase + y * intermediateStride
                    for i in 0..<intermediateStride {
                        var acc: Float = 0
                        var p = midBase + start * intermediateStride + i
                        for k in 0..<count {
                            acc += w[k] * p.pointee
                            p += intermediateStride
                        }
                        if premultiplied { continue }
                        out[i] = UInt8(clamping: Int((acc + 0.5).rounded(.down)))
                    }
                    if premultiplied {
                        // Unpremultiply: colour sums are alpha-weighted, alpha sums are plain.
                        for x in 0..<size.width {
                            var sums: (Float, Float, Float, Float) = (0, 0, 0, 0)
                            var p = midBase + start * intermediateStride + x * 4
                            for k in 0..<count {
                                sums.0 += w[k] * p[0]; sums.1 += w[k] * p[1]; sums.2 += w[k] * p[2]; sums.3 += w[k] * p[3]
                                p += intermediateStride
                            }
                            let o = out + x * 4
                            let alpha = sums.3
                            if alpha <= 0.5 {
                                o[0] = 0; o[1] = 0; o[2] = 0; o[3] = 0
                            } else {
                                let scale = 255 / alpha
                                o[0] = UInt8(clamping: Int((sums.0 * scale + 0.5).rounded(.down)))
                                o[1] = UInt8(clamping: Int((sums.1 * scale + 0.5).rounded(.down)))
                                o[2] = UInt8(clamping: Int((sums.2 * scale + 0.5).rounded(.down)))
                                o[3] = UInt8(clamping: Int((alpha + 0.5).rounded(.down)))
                            }
                        }
                    }
                  }
                }
              }
            }
        }
        return output
    }

    /// The scalar reference: for every output pixel, the normalised 2-D sum of
    /// `kernel(dx) · kernel(dy) · pixel` over the source pixels in its support, in `Double`.
    public static func resizeReference<F: PixelFormat>(_ image: Image<F>, to size: PixelSize,
                                                       filter: ResamplingFilter = .lanczos3) throws -> Image<F>
    where F.Component == UInt8 {
        try validate(size)
        if size.width == image.width && size.height == image.height { return image }
        let channels = F.channelCount
        let horizontal = ReferenceAxis(source: image.width, destination: size.width, filter: filter)
        let vertical = ReferenceAxis(source: image.height, destination: size.height, filter: filter)
        var output = Image<F>(width: size.width, height: size.height)
        for oy in 0..<size.height {
            let ys = vertical.taps(oy)
            for ox in 0..<size.width {
                let xs = horizontal.taps(ox)
                var sums = [Double](repeating: 0, count: channels)
                var weightSum = 0.0
                for (sy, wy) in ys {
                    for (sx, wx) in xs {
                        let w = wx * wy
                        weightSum += w
                        let alpha = channels == 4 ? Double(image[sx, sy, 3]) / 255 : 1
                        for c in 0..<channels {
                            let v = Double(image[sx, sy, c])
                            sums[c] += w * (channels == 4 && c < 3 ? v * alpha : v)
                        }
                    }
                }
                for c in 0..<channels { sums[c] /= weightSum }
                if channels == 4 {
                    let alpha = sums[3]
                    for c in 0..<3 { sums[c] = alpha <= 0.5 ? 0 : sums[c] * 255 / alpha }
                    if alpha <= 0.5 { sums[3] = 0 }
                }
                for c in 0..<channels {
                    output[ox, oy, c] = UInt8(clamping: Int((sums[c] + 0.5).rounded(.down)))
                }
            }
        }
        return output
    }

    private static func validate(_ size: PixelSize) throws {
        guard size.width > 0, size.height > 0 else {
            throw ImagingError.invalidParameter(name: "output size", value: size.description,
                                                allowed: "positive width and height")
        }
    }
}

/// Where an output pixel's centre falls in the source, and the kernel scale, for one axis.
private struct AxisMapping {
    let scale: Double          // source pixels per output pixel
    let filterScale: Double    // kernel widening (≥ 1 when shrinking)
    let radius: Double         // support in source pixels

    init(source: Int, destination: Int, filter: ResamplingFilter) {
        scale = Double(source) / Double(destination)
        filterScale = max(scale, 1)
        radius = filter.support * filterScale
    }

    func centre(_ output: Int) -> Double { (Double(output) + 0.5) * scale }
}

/// Normalised kernel weights per output index, computed once; weights of taps that fall
/// outside the source are folded onto the edge pixel (clamp).
private struct WeightTable {
    var starts: [Int]
    var counts: [Int]
    var weights: [Float]
    let maxTaps: Int

    init(source: Int, destination: Int, filter: ResamplingFilter) {
        let axis = AxisMapping(source: source, destination: destination, filter: filter)
        maxTaps = min(source, Int(ceil(axis.radius)) * 2 + 2)
        starts = [Int](repeating: 0, count: destination)
        counts = [Int](repeating: 0, count: destination)
        weights = [Float](repeating: 0, count: destination * maxTaps)
        for o in 0..<destination {
            let taps = ReferenceAxis.taps(centre: axis.centre(o), axis: axis, source: source, filter: filter)
            let first = taps.first!.0, last = taps.last!.0
            starts[o] = first
            counts[o] = last - first + 1
            for (index, weight) in taps { weights[o * maxTaps + index - first] += Float(weight) }
        }
    }

    /// Scoped access to the tables without bounds checks, for the hot loops.
    func withPointers<R>(_ body: (UnsafePointer<Int>, UnsafePointer<Int>, UnsafePointer<Float>) -> R) -> R {
        starts.withUnsafeBufferPointer { s in
            counts.withUnsafeBufferPointer { c in
                weights.withUnsafeBufferPointer { w in body(s.baseAddress!, c.baseAddress!, w.baseAddress!) }
            }
        }
    }
}

/// The reference computation of taps for one axis: (source index, normalised weight) pairs.
private struct ReferenceAxis {
    let axis: AxisMapping
    let source: Int
    let filter: ResamplingFilter

    init(source: Int, destination: Int, filter: ResamplingFilter) {
        axis = AxisMapping(source: source, destination: destination, filter: filter)
        self.source = source
        self.filter = filter
    }

    func taps(_ output: Int) -> [(Int, Double)] {
        Self.taps(centre: axis.centre(output), axis: axis, source: source, filter: filter)
    }

    static func taps(centre: Double, axis: AxisMapping, source: Int, filter: ResamplingFilter) -> [(Int, Double)] {
        var result: [(Int, Double)] = []
        let low = Int(floor(centre - axis.radius - 0.5)), high = Int(ceil(centre + axis.radius - 0.5))
        var total = 0.0
        var byIndex: [Int: Double] = [:]
        for i in low...high {
            let w: Double
            if filter == .area {
                // Exact overlap of source pixel [i, i+1) with the output footprint.
                let half = axis.filterScale / 2
                w = max(0, min(Double(i + 1), centre + half) - max(Double(i), centre - half))
            } else {
                w = filter.weight((Double(i) + 0.5 - centre) / axis.filterScale)
            }
            if w == 0 { continue }
            byIndex[min(max(i, 0), source - 1), default: 0] += w
            total += w
        }
        for index in byIndex.keys.sorted() { result.append((index, byIndex[index]! / total)) }
        return result
    }
}
