import Parallelism
/// Premultiplied compositing kernels: the fast path behind every drawing call.
///
/// A kernel maps a premultiplied source pixel and a premultiplied backdrop pixel (both `SIMD4<Float>`
/// as r, g, b, a in 0…1) to the premultiplied result of the spec's general formula (see `BlendMode`).
/// The mode is chosen once per call (`BlendMode.dispatch`), so each row loop is specialised for one
/// kernel: no switch, no existential and no allocation per pixel. Tests compare every kernel with
/// `BlendMode.referenceComposite`.
public enum Compositing {
    /// Composites one premultiplied source pixel onto one premultiplied backdrop pixel with `mode`,
    /// using the same kernel as the drawing code (for tests and one-off use).
    public static func composite(_ source: PremultipliedColor, onto backdrop: PremultipliedColor,
                                 mode: BlendMode) -> PremultipliedColor {
        struct One: BlendKernelVisitor {
            let s: SIMD4<Float>, d: SIMD4<Float>
            func visit<K: BlendKernel>(_: K.Type) -> SIMD4<Float> { K.blend(s, d) }
        }
        let r = mode.dispatch(One(s: source.simd, d: backdrop.simd))
        return PremultipliedColor(red: r.x, green: r.y, blue: r.z, alpha: r.w)
    }

    /// Composites `source` onto `destination` with its top-left corner at (`x`, `y`) in destination
    /// pixels (may be negative or partly outside: the overlap is used), scaling the source alpha by
    /// `opacity` (0…1). Both images hold straight alpha; the work is done premultiplied.
    public static func composite(_ source: RGBA8Image, onto destination: inout RGBA8Image,
                                 x: Int, y: Int, opacity: Float = 1, mode: BlendMode = .normal) {
        let opacity = min(max(opacity, 0), 1)
        guard opacity > 0 else { return }
        forEachCoveredRow(of: source, onto: &destination, x: x, y: y) { from, to, count in
            mode.dispatch(ImageRowVisitor(destination: to, source: from, count: count, opacity: opacity))
        }
    }

    /// Composites `source` (straight alpha) over the opaque `destination` with its top-left corner at
    /// (`x`, `y`) (may be partly outside: the overlap is used), its alpha scaled by `opacity` (0…1):
    /// what `.normal` compositing onto an opaque RGBA copy gives (within a level of rounding), without
    /// converting the destination. Pixels the source leaves transparent are not touched, so a layer
    /// cropped to what it covers costs only its own area.
    public static func composite(_ source: RGBA8Image, onto destination: inout RGB8Image, x: Int, y: Int, opacity: Float = 1) {
        let scale = UInt32((min(max(opacity, 0), 1) * 255).rounded())
        guard scale > 0 else { return }
        forEachCoveredRow(of: source, onto: &destination, x: x, y: y) { from, to, count in
            for k in 0..<count {
                // a in 0…255·255; each channel (s·a + d·(255² − a) + 255²/2) / 255².
                let a = UInt32(from[4 * k + 3]) * scale
                guard a > 0 else { continue }
                let keep = 65_025 - a
                for c in 0..<3 {
                    to[3 * k + c] = UInt8((UInt32(from[4 * k + c]) * a + UInt32(to[3 * k + c]) * keep + 32_512) / 65_025)
                }
            }
        }
    }

    /// Calls `row` for every destination row that `source`, with its top-left corner at (`x`, `y`),
    /// covers (none when it is wholly outside), with the first covered pixel of the source row and of
    /// the destination row and the number of covered pixels. Rows are independent, so they are split
    /// across cores (each chunk writes only its rows).
    private static func forEachCoveredRow<F: PixelFormat>(
        of source: RGBA8Image, onto destination: inout Image<F>, x: Int, y: Int,
        _ row: (_ from: UnsafePointer<UInt8>, _ to: UnsafeMutablePointer<UInt8>, _ count: Int) -> Void
    ) where F.Component == UInt8 {
        guard let (x0, y0, x1, y1) = overlap(source, at: x, y, on: destination.width, destination.height) else { return }
        let dstWidth = destination.width, srcWidth = source.width, channels = F.channelCount
        source.components.withUnsafeBufferPointer { src in
            destination.components.withUnsafeMutableBufferPointer { dst in
                let srcBase = src.baseAddress!, dstBase = dst.baseAddress!
                Parallel.forEachRowRange(y1 - y0, minimumRowsPerChunk: max(1, 16_384 / (x1 - x0))) { rows in
                    for r in (y0 + rows.lowerBound)..<(y0 + rows.upperBound) {
                        row(srcBase + ((r - y) * srcWidth + (x0 - x)) * 4, dstBase + (r * dstWidth + x0) * channels, x1 - x0)
                    }
                }
            }
        }
    }

    /// The destination pixels `source` covers with its top-left corner at (`x`, `y`) on a
    /// `width`×`height` destination (columns x0..<x1, rows y0..<y1); nil when none.
    static func overlap(_ source: RGBA8Image, at x: Int, _ y: Int, on width: Int, _ height: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(width, x + source.width), y1 = min(height, y + source.height)
        return x0 < x1 && y0 < y1 ? (x0, y0, x1, y1) : nil
    }

    /// Blends one row of `count` pixels of a solid colour whose per-pixel coverage (0…1, values
    /// above 1 are clamped) is in `coverage`, skipping zero coverage.
    static func blendSolidRow(_ destination: UnsafeMutablePointer<UInt8>, coverage: UnsafePointer<Float>,
                              count: Int, color: PremultipliedColor, mode: BlendMode) {
        mode.dispatch(SolidRowVisitor(destination: destination, coverage: coverage, count: count,
                                      color: color.simd))
    }

    /// Blends a solid colour through an 8-bit coverage mask (glyphs): `count` pixels.
    static func blendMaskRow(_ destination: UnsafeMutablePointer<UInt8>, mask: UnsafePointer<UInt8>,
                             count: Int, color: PremultipliedColor, mode: BlendMode) {
        mode.dispatch(MaskRowVisitor(destination: destination, mask: mask, count: count, color: color.simd))
    }
}

extension PremultipliedColor {
    @inline(__always) var simd: SIMD4<Float> { SIMD4(red, green, blue, alpha) }
}

// MARK: - Pixel load/store (straight 8-bit ⇄ premultiplied float)

@inline(__always) func loadPremultiplied(_ p: UnsafePointer<UInt8>) -> SIMD4<Float> {
    let v = SIMD4<Float>(Float(p[0]), Float(p[1]), Float(p[2]), Float(p[3])) * (1 / 255)
    return SIMD4(v.x * v.w, v.y * v.w, v.z * v.w, v.w)
}

@inline(__always) func storeStraight(_ v: SIMD4<Float>, _ p: UnsafeMutablePointer<UInt8>) {
    let a = v.w
    guard a > 0 else { p[0] = 0; p[1] = 0; p[2] = 0; p[3] = 0; return }
    let scale = a >= 1 ? 255 : 255 / a
    var s = SIMD4<Float>(v.x * scale, v.y * scale, v.z * scale, a * 255) + 0.5
    s = fastMin(fastMax(s, SIMD4(repeating: 0)), SIMD4(repeating: 255))
    p[0] = UInt8(s.x); p[1] = UInt8(s.y); p[2] = UInt8(s.z); p[3] = UInt8(s.w)
}

// MARK: - Row visitors

protocol BlendKernelVisitor {
    associatedtype Result
    func visit<K: BlendKernel>(_ kernel: K.Type) -> Result
}

extension BlendMode {
    /// Calls `visitor` with the kernel for this mode: the one switch per call.
    @inline(__always) func dispatch<V: BlendKernelVisitor>(_ visitor: V) -> V.Result {
        switch self {
        case .normal: return visitor.visit(NormalKernel.self)
        case .multiply: return visitor.visit(MultiplyKernel.self)
        case .screen: return visitor.visit(ScreenKernel.self)
        case .overlay: return visitor.visit(FormulaKernel<OverlayFunction>.self)
        case .darken: return visitor.visit(DarkenKernel.self)
        case .lighten: return visitor.visit(LightenKernel.self)
        case .colorBurn: return visitor.visit(FormulaKernel<ColorBurnFunction>.self)
        case .hardLight: return visitor.visit(FormulaKernel<HardLightFunction>.self)
        case .hue: return visitor.visit(FormulaKernel<HueFunction>.self)
        case .saturation: return visitor.visit(FormulaKernel<SaturationFunction>.self)
        case .color: return visitor.visit(FormulaKernel<ColorFunction>.self)
        case .luminosity: return visitor.visit(FormulaKernel<LuminosityFunction>.self)
        }
    }
}

struct SolidRowVisitor: BlendKernelVisitor {
    let destination: UnsafeMutablePointer<UInt8>
    let coverage: UnsafePointer<Float>
    let count: Int
    let color: SIMD4<Float>

    func visit<K: BlendKernel>(_: K.Type) {
        let opaqueNormal = K.self == NormalKernel.self && color.w >= 1
        // Fully covered pixels of an opaque `.normal` fill all get the same four bytes: convert once.
        var opaqueBytes: UInt32 = 0
        if opaqueNormal { withUnsafeMutableBytes(of: &opaqueBytes) { storeStraight(color, $0.baseAddress!.assumingMemoryBound(to: UInt8.self)) } }
        var p = destination
        for i in 0..<count {
            let c = min(coverage[i], 1)
            if c > 0 {
                if opaqueNormal && c >= 1 {
                    UnsafeMutableRawPointer(p).storeBytes(of: opaqueBytes, as: UInt32.self)
                } else {
                    storeStraight(K.blend(color * c, loadPremultiplied(p)), p)
                }
            }
            p += 4
        }
    }
}

struct MaskRowVisitor: BlendKernelVisitor {
    let destination: UnsafeMutablePointer<UInt8>
    let mask: UnsafePointer<UInt8>
    let count: Int
    let color: SIMD4<Float>

    func visit<K: BlendKernel>(_: K.Type) {
        var p = destination
        for i in 0..<count {
            let m = mask[i]
            if m != 0 { storeStraight(K.blend(color * (Float(m) * (1 / 255)), loadPremultiplied(p)), p) }
            p += 4
        }
    }
}

struct ImageRowVisitor: BlendKernelVisitor {
    let destination: UnsafeMutablePointer<UInt8>
    let source: UnsafePointer<UInt8>
    let count: Int
    let opacity: Float

    func visit<K: BlendKernel>(_: K.Type) {
        var p = destination, s = source
        for _ in 0..<count {
            if s[3] != 0 { storeStraight(K.blend(loadPremultiplied(s) * opacity, loadPremultiplied(p)), p) }
            p += 4; s += 4
        }
    }
}

// MARK: - Kernels (premultiplied in, premultiplied out)

/// One blend mode's premultiplied kernel: `blend(source, backdrop)` for r, g, b, a in 0…1.
protocol BlendKernel {
    static func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float>
}

/// The separable modes whose general formula simplifies to a closed premultiplied form; each of
/// these also yields the right alpha (αs + αb − αs·αb) when applied to the alpha lane.
enum NormalKernel: BlendKernel {
    @inline(__always) static func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s + d * (1 - s.w)
    }
}

enum MultiplyKernel: BlendKernel {
    @inline(__always) static func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s * d + s * (1 - d.w) + d * (1 - s.w)
    }
}

enum ScreenKernel: BlendKernel {
    @inline(__always) static func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s + d - s * d
    }
}

enum DarkenKernel: BlendKernel {
    @inline(__always) static func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s + d - fastMax(s * d.w, d * s.w)
    }
}

enum LightenKernel: BlendKernel {
    @inline(__always) static func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        s + d - fastMin(s * d.w, d * s.w)
    }
}

/// Lane-wise maximum and minimum, written out: the generic `pointwiseMax` is not inlined.
@inline(__always) func fastMax(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .> a) }
@inline(__always) func fastMin(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }

/// Unpremultiplies the colour lanes (alpha must be > 0).
@inline(__always) func unpremultiplied(_ v: SIMD4<Float>) -> SIMD3<Float> {
    SIMD3(v.x, v.y, v.z) / v.w
}

/// The general formula in premultiplied form, given B(Cb, Cs) on straight colours:
/// co = (1 − αb)·cs + (1 − αs)·cb + αs·αb·B.
@inline(__always) func generalFormula(_ s: SIMD4<Float>, _ d: SIMD4<Float>, blended: SIMD3<Float>) -> SIMD4<Float> {
    let cs = SIMD3(s.x, s.y, s.z), cb = SIMD3(d.x, d.y, d.z)
    let co = cs * (1 - d.w) + cb * (1 - s.w) + blended * (s.w * d.w)
    return SIMD4(co, s.w + d.w - s.w * d.w)
}

/// B of a mode, on three channels at once (straight colours in 0…1): channel by channel for the
/// separable modes (hard light, overlay, colour burn), from the whole colour for the non-separable ones
/// (hue, saturation, colour, luminosity). Both go through the general formula (``FormulaKernel``).
protocol BlendFunction {
    static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float>
}

/// A mode given by its B, composited with ``generalFormula(_:_:blended:)``.
enum FormulaKernel<F: BlendFunction>: BlendKernel {
    @inline(__always) static func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        if s.w <= 0 { return d }
        if d.w <= 0 { return s }
        return generalFormula(s, d, blended: F.apply(backdrop: unpremultiplied(d), source: unpremultiplied(s)))
    }
}

@inline(__always) func hardLightVector(_ b: SIMD3<Float>, _ s: SIMD3<Float>) -> SIMD3<Float> {
    let twice = s + s
    let multiplied = b * twice
    let screenSource = twice - 1
    let screened = b + screenSource - b * screenSource
    return screened.replacing(with: multiplied, where: s .<= 0.5)
}

enum HardLightFunction: BlendFunction {
    @inline(__always) static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float> {
        hardLightVector(backdrop, source)
    }
}

enum OverlayFunction: BlendFunction {
    @inline(__always) static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float> {
        hardLightVector(source, backdrop)
    }
}

enum ColorBurnFunction: BlendFunction {
    @inline(__always) static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float> {
        let safeSource = source.replacing(with: 1, where: source .== 0)
        var r = 1 - ((1 - backdrop) / safeSource).replacing(with: 1, where: (1 - backdrop) / safeSource .> 1)
        r.replace(with: 0, where: source .== 0)
        r.replace(with: 1, where: backdrop .== 1)
        return r
    }
}

// MARK: Non-separable (spec §10.3), vector form

@inline(__always) func luminance(_ c: SIMD3<Float>) -> Float { (c * SIMD3(0.3, 0.59, 0.11)).sum() }

@inline(__always) func clipColorVector(_ c: SIMD3<Float>) -> SIMD3<Float> {
    let l = luminance(c)
    let n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
    var r = c
    if n < 0 { r = l + (r - l) * (l / (l - n)) }
    if x > 1 { r = l + (r - l) * ((1 - l) / (x - l)) }
    return r
}

@inline(__always) func setLuminance(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
    clipColorVector(c + (l - luminance(c)))
}

@inline(__always) func saturation(_ c: SIMD3<Float>) -> Float { max(c.x, c.y, c.z) - min(c.x, c.y, c.z) }

/// SetSat without sorting: every channel maps linearly from [min, max] onto [0, s].
@inline(__always) func setSaturation(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
    let lo = min(c.x, c.y, c.z), hi = max(c.x, c.y, c.z)
    guard hi > lo else { return SIMD3(repeating: 0) }
    return (c - lo) * (s / (hi - lo))
}


enum HueFunction: BlendFunction {
    @inline(__always) static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float> {
        setLuminance(setSaturation(source, saturation(backdrop)), luminance(backdrop))
    }
}

enum SaturationFunction: BlendFunction {
    @inline(__always) static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float> {
        setLuminance(setSaturation(backdrop, saturation(source)), luminance(backdrop))
    }
}

enum ColorFunction: BlendFunction {
    @inline(__always) static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float> {
        setLuminance(source, luminance(backdrop))
    }
}

enum LuminosityFunction: BlendFunction {
    @inline(__always) static func apply(backdrop: SIMD3<Float>, source: SIMD3<Float>) -> SIMD3<Float> {
        setLuminance(backdrop, luminance(source))
    }
}
