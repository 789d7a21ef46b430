import Foundation

/// Image comparison measures for tests and benchmarks: PSNR, SSIM, absolute differences, and a
/// diff image that shows where two images differ.
///
/// All functions take two images of the same size and pixel format with 8-bit channels
/// (`RGB8`, `RGBA8`, `Gray8`); a size or format mismatch is a programmer error.
public enum ImageMetrics {
    /// Peak signal-to-noise ratio in decibels over all channels (alpha included for RGBA):
    /// `10·log10(255² / MSE)`. Identical images give `+infinity`.
    public static func psnr<F: PixelFormat>(_ a: Image<F>, _ b: Image<F>) -> Double where F.Component == UInt8 {
        let mse = meanSquaredError(a, b)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }

    /// Mean squared error over all channel values.
    public static func meanSquaredError<F: PixelFormat>(_ a: Image<F>, _ b: Image<F>) -> Double
    where F.Component == UInt8 {
        Double(differences(a, b, into: UInt64(0)) { sum, d in sum &+= UInt64(d * d) }) / Double(a.components.count)
    }

    /// Mean absolute difference per channel value, in grey levels (0…255).
    public static func meanAbsoluteDifference<F: PixelFormat>(_ a: Image<F>, _ b: Image<F>) -> Double
    where F.Component == UInt8 {
        Double(differences(a, b, into: UInt64(0)) { sum, d in sum &+= UInt64(abs(d)) }) / Double(a.components.count)
    }

    /// The largest difference of any channel value, in grey levels.
    public static func maximumAbsoluteDifference<F: PixelFormat>(_ a: Image<F>, _ b: Image<F>) -> Int
    where F.Component == UInt8 {
        differences(a, b, into: 0) { maximum, d in maximum = max(maximum, abs(d)) }
    }

    /// Folds every channel value's difference `a − b` (−255…255) into `result`, after checking the sizes.
    private static func differences<F: PixelFormat, Result>(_ a: Image<F>, _ b: Image<F>, into result: Result,
                                                            _ combine: (inout Result, Int) -> Void) -> Result
    where F.Component == UInt8 {
        precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
        var result = result
        a.components.withUnsafeBufferPointer { pa in
            b.components.withUnsafeBufferPointer { pb in
                for i in 0..<pa.count { combine(&result, Int(pa[i]) - Int(pb[i])) }
            }
        }
        return result
    }

    /// The fraction of pixels (0…1) in which any channel differs by more than `threshold` levels.
    public static func differingPixelFraction<F: PixelFormat>(_ a: Image<F>, _ b: Image<F>, threshold: Int) -> Double
    where F.Component == UInt8 {
        precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
        let channels = F.channelCount
        var count = 0
        a.components.withUnsafeBufferPointer { pa in
            b.components.withUnsafeBufferPointer { pb in
                for p in 0..<a.pixelCount {
                    for c in 0..<channels where abs(Int(pa[p * channels + c]) - Int(pb[p * channels + c])) > threshold {
                        count += 1
                        break
                    }
                }
            }
        }
        return Double(count) / Double(a.pixelCount)
    }

    /// Structural similarity (Wang, Bovik, Sheikh, Simoncelli 2004) of the luma channels, with the
    /// paper's parameters: an 11×11 Gaussian window of σ = 1.5, K1 = 0.01, K2 = 0.03, L = 255.
    /// Returns the mean SSIM in [-1, 1]; 1 means identical. Luma is Rec. 601 (0.299 R + 0.587 G + 0.114 B).
    public static func ssim<F: PixelFormat>(_ a: Image<F>, _ b: Image<F>) -> Double where F.Component == UInt8 {
        precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
        let x = luma(a), y = luma(b)
        let n = x.count
        var xx = [Float](repeating: 0, count: n), yy = xx, xy = xx
        for i in 0..<n { xx[i] = x[i] * x[i]; yy[i] = y[i] * y[i]; xy[i] = x[i] * y[i] }
        let w = a.width, h = a.height
        let mx = gaussianBlur(x, width: w, height: h), my = gaussianBlur(y, width: w, height: h)
        let sxx = gaussianBlur(xx, width: w, height: h), syy = gaussianBlur(yy, width: w, height: h)
        let sxy = gaussianBlur(xy, width: w, height: h)
        let c1 = Float(0.01 * 255) * Float(0.01 * 255), c2 = Float(0.03 * 255) * Float(0.03 * 255)
        var total = 0.0
        for i in 0..<n {
            let varX = sxx[i] - mx[i] * mx[i], varY = syy[i] - my[i] * my[i], cov = sxy[i] - mx[i] * my[i]
            let numerator = (2 * mx[i] * my[i] + c1) * (2 * cov + c2)
            let denominator = (mx[i] * mx[i] + my[i] * my[i] + c1) * (varX + varY + c2)
            total += Double(numerator / denominator)
        }
        return total / Double(n)
    }

    /// A picture of where two images differ: the first image in faint grey, and each differing
    /// pixel in red whose intensity grows with the largest channel difference (×`amplification`).
    public static func diffImage<F: PixelFormat>(_ a: Image<F>, _ b: Image<F>, amplification: Int = 8) -> RGBA8Image
    where F.Component == UInt8 {
        precondition(a.width == b.width && a.height == b.height, "sizes differ: \(a.size) vs \(b.size)")
        let la = luma(a)
        let channels = F.channelCount
        var out = RGBA8Image(width: a.width, height: a.height, fill: 255)
        for p in 0..<a.pixelCount {
            var d = 0
            for c in 0..<channels {
                d = max(d, abs(Int(a.components[p * channels + c]) - Int(b.components[p * channels + c])))
            }
            if d == 0 {
                let g = UInt8(191 + Int(la[p]) / 4)   // faint context
                out.components[4 * p] = g; out.components[4 * p + 1] = g; out.components[4 * p + 2] = g
            } else {
                let v = UInt8(min(255, 64 + d * amplification))
                out.components[4 * p] = v; out.components[4 * p + 1] = 0; out.components[4 * p + 2] = 0
            }
        }
        return out
    }

    /// Rec. 601 luma as floats in 0…255 (grey images pass through; alpha is ignored).
    static func luma<F: PixelFormat>(_ image: Image<F>) -> [Float] where F.Component == UInt8 {
        let channels = F.channelCount
        var out = [Float](repeating: 0, count: image.pixelCount)
        image.components.withUnsafeBufferPointer { src in
            for p in 0..<image.pixelCount {
                if channels < 3 {
                    out[p] = Float(src[p * channels])
                } else {
                    out[p] = 0.299 * Float(src[p * channels]) + 0.587 * Float(src[p * channels + 1])
                        + 0.114 * Float(src[p * channels + 2])
                }
            }
        }
        return out
    }

    /// Separable 11-tap Gaussian (σ = 1.5), edges clamped.
    static func gaussianBlur(_ values: [Float], width: Int, height: Int) -> [Float] {
        let radius = 5
        var kernel = (-radius...radius).map { Float(exp(-Double($0 * $0) / (2 * 1.5 * 1.5))) }
        let sum = kernel.reduce(0, +)
        kernel = kernel.map { $0 / sum }
        var temp = [Float](repeating: 0, count: values.count)
        var out = temp
        for y in 0..<height {
            for x in 0..<width {
                var acc: Float = 0
                for k in -radius...radius {
                    acc += kernel[k + radius] * values[y * width + min(max(x + k, 0), width - 1)]
                }
                temp[y * width + x] = acc
            }
        }
        for y in 0..<height {
            for x in 0..<width {
                var acc: Float = 0
                for k in -radius...radius {
                    acc += kernel[k + radius] * temp[min(max(y + k, 0), height - 1) * width + x]
                }
                out[y * width + x] = acc
            }
        }
        return out
    }
}
