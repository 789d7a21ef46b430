import CPrefetch
import CViewKernels
import Foundation
import Imaging
import Parallelism

/// The fast view renderer (the model is FFmpeg's `vf_v360`: set up once, an allocation-free
/// per-frame loop, a plain reference beside it — ``ReferenceRenderer``).
///
/// Per frame:
/// 1. **Grid.** The exact panorama position (two `atan2` and a square root) is computed only on a
///    grid of 4 × 4 nodes per block of ``blockSizePixels`` view pixels (at 0, ⅓, ⅔ and 1 of the block,
///    shared with the neighbours): about nine evaluations per block.
/// 2. **Bicubic blocks with a checked error.** Inside a block the position is the bicubic through its
///    16 nodes (error O(h⁴): under 0.0002 source pixels for 64-px blocks of a 1920-px 90° view of an
///    8192-px panorama). It is checked against the exact projection at five points where a cubic's
///    error peaks; a block over ``interpolationToleranceSourcePixels`` (near the zenith and nadir,
///    where longitude turns fast) is split into 4 × 4 sub-blocks with their own bicubics and checks,
///    and a sub-block that still fails uses the exact projection per pixel.
/// 3. **Sampling.** Rows are split across cores. Along a block's row the position is a cubic in the
///    pixel index; the fitted blocks whose taps all stay inside the panorama's rows (the ±180° seam may
///    be crossed; checked once per block and frame, `lk_bilinear_block_check`) are sampled a whole view
///    row at a time by `lk_bilinear_row` (CViewKernels: AVX2 where the CPU has it, else plain C), the
///    others span by span (`lk_bilinear_block_span`) — positions stepped in fixed point, 14-bit
///    bilinear weights, 8 pixels at a time; the same bytes either way. Spans reaching the poles'
///    last half row, and exact pixels, take ``edgeTap`` (rows clamp, columns wrap) with the same
///    arithmetic.
///
/// Error budget against ``ReferenceRenderer`` (Double everywhere): a bilinear tap moves at most
/// 255 grey levels per source pixel along each axis, so positions within 1/1024 px and weights
/// within 4/16384 keep every channel within 255 · 2/1024 + 0.06 < 1 grey level before rounding: at
/// most 1 grey level apart after it, for any panorama (tested on hard 0/255 edges, the poles and the seam).
///
/// Scratch memory is reused between frames; a frame allocates only when the view size changes (or,
/// the first time, when more blocks than before need sub-blocks).
public struct ViewRenderer: Sendable {
    /// The kernel.
    public let kernel: SamplingKernel
    /// The grid spacing in view pixels (4…64).
    public let blockSizePixels: Int
    /// The grid spacing the last frame used (``blockSizePixels``; sub-blocks are a quarter of it).
    public private(set) var lastBlockSizePixels = 0

    /// The largest error, in source pixels along each axis, allowed for the interpolated panorama
    /// position before a block is split (and a sub-block falls back to the exact projection per pixel):
    /// 1/1024, which keeps a bilinear tap within half a grey level of the exact one on any image.
    public static let interpolationToleranceSourcePixels = 1.0 / 1024
    /// The five-point check sees up to ~35 % less than a block's true peak error (measured over the
    /// test cameras), so blocks are accepted only below this fraction of the tolerance.
    static let checkMargin = 0.5
    /// The allowed grid spacings.
    public static let blockSizeRangePixels = 4...64
    /// The default grid spacing in view pixels (measured in `Benchmarks reprojection`: see README).
    public static let defaultBlockSizePixels = 64
    /// A block that fails its check is split into this many sub-blocks per side.
    static let subdivisions = 4
    /// Block parameters (fractions of the block) where the check compares with the exact projection:
    /// near the peaks of the cubic remainder s(s − ⅓)(s − ⅔)(s − 1) along both axes, and the centre.
    static let checkPoints: [(Double, Double)] = [(0.11, 0.11), (0.89, 0.89), (0.11, 0.89), (0.89, 0.11), (0.5, 0.5)]

    /// What a block (or sub-block) is rendered with.
    enum BlockState: UInt8 {
        /// Its bicubic.
        case fitted
        /// Its 4 × 4 sub-blocks.
        case split
        /// The exact projection per pixel.
        case exact
    }

    /// Values per (sub-)block in the coefficient arrays: for u then v, the 16 coefficients a[j][i] of
    /// sⁱ·tʲ, s and t in view pixels from the block's first pixel (index 4j + i).
    static let coefficientsPerBlock = 32

    // Scratch (per view size).
    var nodePixelX: [Int] = [], nodePixelY: [Int] = []
    var nodeU: [Double] = [], nodeV: [Double] = []
    /// The view pixel centre coordinates of the node grid's columns and rows.
    var nodeX: [Double] = [], nodeY: [Double] = []
    var state: [BlockState] = []
    var coefficients: [Double] = []
    /// For a split block, the index of its first sub-block (row-major, 4 × 4) in the sub-block arrays.
    var firstSubBlock: [Int] = []
    var subState: [BlockState] = []
    var subCoefficients: [Double] = []
    /// Per block, what `lk_bilinear_block_check` said (0 when not fitted or not bilinear): the blocks
    /// `lk_bilinear_row` samples.
    var blockModes: [UInt8] = []
    /// Catmull–Rom weights × 2^14 for fractions k/1024, 4 per entry; made once per process (a snapshot
    /// makes a renderer per frame: ~20 µs each otherwise).
    static let cubicTable: [Int32] = {
        var table = [Int32](repeating: 0, count: (cubicSteps + 1) * 4)
        for k in 0...cubicSteps {
            let w = SamplingKernel.cubicWeights(Double(k) / Double(cubicSteps))
            let one = Double(1 << cubicWeightBits)
            table[4 * k] = Int32((w.0 * one).rounded()); table[4 * k + 1] = Int32((w.1 * one).rounded())
            table[4 * k + 2] = Int32((w.2 * one).rounded()); table[4 * k + 3] = Int32((w.3 * one).rounded())
        }
        return table
    }()
    /// Whether spans use the plain C kernel even where AVX2 runs (tests and benchmarks set it; it
    /// starts true on a CPU without AVX2 and with `LOOKAROUND_VIEW_KERNEL=portable` in the environment).
    public var usesPortableKernel = !ViewRenderer.vectorKernelByDefault
    /// How many blocks of the last frame used sub-blocks.
    public private(set) var splitBlockCount = 0
    /// How many sub-blocks of the last frame used the exact projection per pixel.
    public private(set) var exactBlockCount = 0
    /// How many blocks the last frame had.
    public var blockCount: Int { state.count }

    /// Whether this CPU runs the AVX2 span kernel (AVX2 and FMA, YMM state enabled).
    public static let hasVectorKernel = lk_view_kernels_have_avx2() != 0
    /// Whether new renderers use the AVX2 kernel: where the CPU has it, unless the environment has
    /// `LOOKAROUND_VIEW_KERNEL=portable` (how a whole program is run as on a CPU without AVX2).
    public static let vectorKernelByDefault = hasVectorKernel
        && ProcessInfo.processInfo.environment["LOOKAROUND_VIEW_KERNEL"] != "portable"
    /// Whether the AVX2 kernel runs in its AVX-512 build (the same bytes; the CPU has AVX-512 F, BW, VL
    /// and DQ), unless the environment has `LOOKAROUND_VIEW_KERNEL=avx2` or `portable`.
    public static let usesAVX512Build = lk_view_kernels_have_avx512() != 0
        && !["avx2", "portable"].contains(ProcessInfo.processInfo.environment["LOOKAROUND_VIEW_KERNEL"] ?? "")

    /// A renderer.
    /// - Throws: `ReprojectionError.invalidParameter` for a block size outside ``blockSizeRangePixels``.
    public init(kernel: SamplingKernel = .bilinear,
                blockSizePixels: Int = ViewRenderer.defaultBlockSizePixels) throws(ReprojectionError) {
        guard Self.blockSizeRangePixels.contains(blockSizePixels) else {
            throw .invalidParameter(name: "block size", value: "\(blockSizePixels) pixels", allowed: "4…64 pixels")
        }
        self.kernel = kernel
        self.blockSizePixels = blockSizePixels
    }

    /// Renders a view from the pyramid level that suits it (no aliasing), into a new image.
    public mutating func render(_ pyramid: PanoramaPyramid, camera: ViewCamera, pose: PanoramaPose,
                                maximumThreads: Int? = nil) -> RGB8Image {
        var out = RGB8Image(unfilledWidth: camera.width, height: camera.height)  // every pixel is written
        renderUnchecked(pyramid.level(for: camera), camera: camera, pose: pose, into: &out,
                        maximumThreads: maximumThreads)
        return out
    }

    /// Renders `camera`'s view of `panorama` (captured with `pose`) into `output`, reusing its memory.
    /// - Parameter maximumThreads: cores to use (`nil` = all; benchmarks pass 1).
    /// - Throws: `ReprojectionError.outputSizeMismatch` when `output` is not the camera's size.
    public mutating func render(_ panorama: PanoramaImage, camera: ViewCamera, pose: PanoramaPose,
                                into output: inout RGB8Image, maximumThreads: Int? = nil) throws(ReprojectionError) {
        guard output.width == camera.width, output.height == camera.height else {
            throw .outputSizeMismatch(expectedWidth: camera.width, expectedHeight: camera.height,
                                      actualWidth: output.width, actualHeight: output.height)
        }
        renderUnchecked(panorama, camera: camera, pose: pose, into: &output, maximumThreads: maximumThreads)
    }

    // MARK: Grid

    /// Nodes at view pixels 0, B, 2B, … and the last pixel; at least two per axis.
    private static func nodePixels(_ length: Int, block: Int) -> [Int] {
        let blocks = max(1, (length - 1 + block - 1) / block)
        return (0...blocks).map { min($0 * block, length - 1) }
    }

    /// The exact tap position (panorama pixel − 0.5) of continuous view position (x, y).
    @inline(__always)
    static func exactTap(_ p: ViewProjection, _ x: Double, _ y: Double) -> (Double, Double) {
        let q = p.panoramaPixel(viewX: x, viewY: y)
        return (q.x - 0.5, q.y - 0.5)
    }

    /// `value` moved by whole panorama widths to within half a width of `reference`.
    @inline(__always)
    static func unwrap(_ value: Double, near reference: Double, width: Double) -> Double {
        let d = value - reference
        if d > width / 2 { return value - width }
        if d < -width / 2 { return value + width }
        return value
    }

    /// Lagrange values at 0, ⅓, ⅔, 1 → monomial coefficients on [0, 1]: `a = M · f`.
    static let monomialFromNodes: [Double] = {
        // Rows: coefficient of s⁰…s³; columns: nodes 0, ⅓, ⅔, 1 (the inverse Vandermonde matrix).
        [1, 0, 0, 0,
         -5.5, 9, -4.5, 1,
         9, -22.5, 18, -4.5,
         -4.5, 13.5, -13.5, 4.5]
    }()

    /// The bicubic through the 4 × 4 node values `u[4l + k]`, `v[…]` (node k along x at k/3 of `width`
    /// pixels, node l along y at l/3 of `height`), as coefficients of sⁱ·tʲ with s, t in pixels, into
    /// `out[0..<32]`.
    @inline(__always)
    static func fitBicubic(_ u: UnsafePointer<Double>, _ v: UnsafePointer<Double>, width: Double, height: Double,
                           into out: UnsafeMutablePointer<Double>) {
        monomialFromNodes.withUnsafeBufferPointer { m in
            withUnsafeTemporaryAllocation(of: Double.self, capacity: 16) { rows in
                @inline(__always) func fit(_ f: UnsafePointer<Double>, _ out: UnsafeMutablePointer<Double>) {
                    // Along x for each node row, then along y for each power of s; then to pixel units.
                    for l in 0..<4 {
                        for i in 0..<4 {
                            rows[4 * l + i] = m[4 * i] * f[4 * l] + m[4 * i + 1] * f[4 * l + 1] + m[4 * i + 2] * f[4 * l + 2]
                                + m[4 * i + 3] * f[4 * l + 3]
                        }
                    }
                    var yScale = 1.0
                    for j in 0..<4 {
                        var scale = yScale
                        for i in 0..<4 {
                            out[4 * j + i] = (m[4 * j] * rows[i] + m[4 * j + 1] * rows[4 + i] + m[4 * j + 2] * rows[8 + i]
                                              + m[4 * j + 3] * rows[12 + i]) * scale
                            scale /= width
                        }
                        yScale /= height
                    }
                }
                fit(u, out)
                fit(v, out + 16)
            }
        }
    }

    /// The bicubic `k` (32 coefficients) at (s, t) pixels from its block's first pixel.
    @inline(__always)
    static func evaluate(_ k: UnsafePointer<Double>, s: Double, t: Double) -> (u: Double, v: Double) {
        let cu = rowCubic(k, t: t), cv = rowCubic(k + 16, t: t)
        return (((cu.3 * s + cu.2) * s + cu.1) * s + cu.0, ((cv.3 * s + cv.2) * s + cv.1) * s + cv.0)
    }

    /// The cubic in s along row t of one coordinate's 16 coefficients: (c0, c1, c2, c3).
    @inline(__always)
    static func rowCubic(_ a: UnsafePointer<Double>, t: Double) -> (Double, Double, Double, Double) {
        @inline(__always) func column(_ i: Int) -> Double { ((a[12 + i] * t + a[8 + i]) * t + a[4 + i]) * t + a[i] }
        return (column(0), column(1), column(2), column(3))
    }

    /// Fits the block whose first pixel is (`x0`, `y0`) and whose node spacing spans `width` × `height`
    /// pixels from the exact projection at its 4 × 4 nodes (`u`, `v`: those values), checks it at
    /// `points` and returns whether it passed.
    static func fitAndCheck(_ projection: ViewProjection, x0: Double, y0: Double, width: Double, height: Double,
                            u: UnsafePointer<Double>, v: UnsafePointer<Double>, panoramaWidth: Double,
                            points: [(Double, Double)], into out: UnsafeMutablePointer<Double>) -> Bool {
        fitBicubic(u, v, width: width, height: height, into: out)
        let limit = interpolationToleranceSourcePixels * checkMargin
        for (s, t) in points {
            let q = evaluate(out, s: s * width, t: t * height)
            let e = exactTap(projection, x0 + s * width + 0.5, y0 + t * height + 0.5)
            if abs(unwrap(e.0, near: q.u, width: panoramaWidth) - q.u) > limit || abs(e.1 - q.v) > limit { return false }
        }
        return true
    }

    /// Sub-blocks have no neighbours' nodes for a derivative estimate: they are checked at more points
    /// (the centres of the nine node cells besides the four near-corner peaks).
    static let subBlockCheckPoints: [(Double, Double)] = checkPoints
        + [(1.0 / 6, 1.0 / 6), (0.5, 1.0 / 6), (5.0 / 6, 1.0 / 6), (1.0 / 6, 0.5), (5.0 / 6, 0.5),
           (1.0 / 6, 5.0 / 6), (0.5, 5.0 / 6), (5.0 / 6, 5.0 / 6)]

    /// An estimate of a block's largest interpolation error from fourth divided differences of the
    /// node grid: a cubic through four nodes d apart errs by at most max|f⁗|/24 · d⁴ ≈ |f[x₀…x₄]| · d⁴
    /// along each axis (f[x₀…x₄] ≈ f⁗/24). Taken along each of the block's node rows and columns, with
    /// the neighbouring block's next node as the fifth (the previous one at the view's far edge). The
    /// point checks can miss a peak where the fourth derivative changes fast across a block; this sees it.
    static func fourthDifferenceEstimate(_ nu: UnsafePointer<Double>, _ nv: UnsafePointer<Double>,
                                         x: UnsafePointer<Double>, y: UnsafePointer<Double>, columns hx: Int, rows hy: Int,
                                         block i: Int, _ j: Int, panoramaWidth: Double) -> Double {
        @inline(__always) func divided(_ f: (Double, Double, Double, Double, Double), _ p: (Double, Double, Double, Double, Double)) -> Double {
            let a1 = (f.1 - f.0) / (p.1 - p.0), b1 = (f.2 - f.1) / (p.2 - p.1), c1 = (f.3 - f.2) / (p.3 - p.2), d1 = (f.4 - f.3) / (p.4 - p.3)
            let a2 = (b1 - a1) / (p.2 - p.0), b2 = (c1 - b1) / (p.3 - p.1), c2 = (d1 - c1) / (p.4 - p.2)
            let a3 = (b2 - a2) / (p.3 - p.0), b3 = (c2 - b2) / (p.4 - p.1)
            return (b3 - a3) / (p.4 - p.0)
        }
        var total = 0.0
        for axis in 0..<2 {
            let n = axis == 0 ? hx : hy
            guard n >= 5 else { continue }
            let start = min(3 * (axis == 0 ? i : j), n - 5)
            let positions = axis == 0 ? x : y
            let p = (positions[start], positions[start + 1], positions[start + 2], positions[start + 3], positions[start + 4])
            let spacing = (positions[min(3 * (axis == 0 ? i : j) + 3, n - 1)] - positions[3 * (axis == 0 ? i : j)]) / 3
            var largest = 0.0
            for line in 0..<4 {
                @inline(__always) func index(_ k: Int) -> Int {
                    axis == 0 ? (3 * j + line) * hx + start + k : (start + k) * hx + 3 * i + line
                }
                let r = nu[index(0)]
                let fu = (r, unwrap(nu[index(1)], near: r, width: panoramaWidth), unwrap(nu[index(2)], near: r, width: panoramaWidth),
                          unwrap(nu[index(3)], near: r, width: panoramaWidth), unwrap(nu[index(4)], near: r, width: panoramaWidth))
                let fv = (nv[index(0)], nv[index(1)], nv[index(2)], nv[index(3)], nv[index(4)])
                largest = max(largest, abs(divided(fu, p)), abs(divided(fv, p)))
            }
            let d2 = spacing * spacing
            total += largest * d2 * d2
        }
        return total
    }

    /// The exact tap positions at the 4 × 4 nodes of a block (unwrapped near its first node).
    static func nodes(_ projection: ViewProjection, x0: Double, y0: Double, width: Double, height: Double,
                      panoramaWidth: Double, u: UnsafeMutablePointer<Double>, v: UnsafeMutablePointer<Double>) {
        var reference = 0.0
        for l in 0..<4 {
            for k in 0..<4 {
                let e = exactTap(projection, x0 + Double(k) * width / 3 + 0.5, y0 + Double(l) * height / 3 + 0.5)
                if k == 0 && l == 0 { reference = e.0 }
                u[4 * l + k] = unwrap(e.0, near: reference, width: panoramaWidth)
                v[4 * l + k] = e.1
            }
        }
    }

    /// Prepares the frame's blocks: fits, checks, splits.
    mutating func prepareGrid(_ projection: ViewProjection, camera: ViewCamera) {
        let block = blockSizePixels
        if nodePixelX.count < 2 || nodePixelX.last != camera.width - 1 || nodePixelY.last != camera.height - 1
            || nodePixelX[1] != min(block, camera.width - 1) || nodePixelY[1] != min(block, camera.height - 1) {
            nodePixelX = Self.nodePixels(camera.width, block: block)
            nodePixelY = Self.nodePixels(camera.height, block: block)
            let hx = 3 * (nodePixelX.count - 1) + 1, hy = 3 * (nodePixelY.count - 1) + 1
            nodeU = [Double](repeating: 0, count: hx * hy); nodeV = nodeU
            nodeX = (0..<hx).map { i in
                let x0 = Double(nodePixelX[i / 3]), x1 = Double(nodePixelX[min(i / 3 + 1, nodePixelX.count - 1)])
                return x0 + Double(i % 3) * (x1 - x0) / 3 + 0.5
            }
            nodeY = (0..<hy).map { j in
                let y0 = Double(nodePixelY[j / 3]), y1 = Double(nodePixelY[min(j / 3 + 1, nodePixelY.count - 1)])
                return y0 + Double(j % 3) * (y1 - y0) / 3 + 0.5
            }
            let blocks = (nodePixelX.count - 1) * (nodePixelY.count - 1)
            state = [BlockState](repeating: .fitted, count: blocks)
            firstSubBlock = [Int](repeating: 0, count: blocks)
            coefficients = [Double](repeating: 0, count: blocks * Self.coefficientsPerBlock)
        }
        lastBlockSizePixels = block
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1, hx = 3 * bx + 1, hy = 3 * by + 1
        let panoramaWidth = Double(projection.panoramaWidth)
        // Exact positions at every third of every block (shared between neighbours).
        nodeU.withUnsafeMutableBufferPointer { nu in
            nodeV.withUnsafeMutableBufferPointer { nv in
                for j in 0..<hy {
                    for i in 0..<hx {
                        let e = Self.exactTap(projection, nodeX[i], nodeY[j])
                        nu[j * hx + i] = e.0; nv[j * hx + i] = e.1
                    }
                }
            }
        }
        subState.removeAll(keepingCapacity: true)
        subCoefficients.removeAll(keepingCapacity: true)
        var split = 0, exact = 0
        var u = [Double](repeating: 0, count: 16), v = u
        for j in 0..<by {
            for i in 0..<bx {
                let b = j * bx + i
                let x0 = Double(nodePixelX[i]), x1 = Double(nodePixelX[i + 1])
                let y0 = Double(nodePixelY[j]), y1 = Double(nodePixelY[j + 1])
                let reference = nodeU[3 * j * hx + 3 * i]
                for l in 0..<4 {
                    for k in 0..<4 {
                        let n = (3 * j + l) * hx + 3 * i + k
                        u[4 * l + k] = Self.unwrap(nodeU[n], near: reference, width: panoramaWidth)
                        v[4 * l + k] = nodeV[n]
                    }
                }
                let estimate = nodeU.withUnsafeBufferPointer { nu in
                    nodeV.withUnsafeBufferPointer { nv in
                        nodeX.withUnsafeBufferPointer { px in
                            nodeY.withUnsafeBufferPointer { py in
                                Self.fourthDifferenceEstimate(nu.baseAddress!, nv.baseAddress!, x: px.baseAddress!, y: py.baseAddress!,
                                                              columns: hx, rows: hy, block: i, j, panoramaWidth: panoramaWidth)
                            }
                        }
                    }
                }
                let passed = estimate <= Self.interpolationToleranceSourcePixels * Self.checkMargin
                    && coefficients.withUnsafeMutableBufferPointer { c in
                        Self.fitAndCheck(projection, x0: x0, y0: y0, width: max(x1 - x0, 1), height: max(y1 - y0, 1),
                                         u: u, v: v, panoramaWidth: panoramaWidth, points: Self.checkPoints,
                                         into: c.baseAddress! + b * Self.coefficientsPerBlock)
                    }
                if passed { state[b] = .fitted; continue }
                // Split into sub-blocks with their own nodes, fits and checks.
                state[b] = .split
                split += 1
                firstSubBlock[b] = subState.count
                for l in 0..<Self.subdivisions {
                    for k in 0..<Self.subdivisions {
                        let sxa = Self.boundary(Int(x0), Int(x1), k), sxb = Self.boundary(Int(x0), Int(x1), k + 1)
                        let sya = Self.boundary(Int(y0), Int(y1), l), syb = Self.boundary(Int(y0), Int(y1), l + 1)
                        let sx0 = Double(sxa), sy0 = Double(sya), sw = Double(max(sxb - sxa, 1)), sh = Double(max(syb - sya, 1))
                        Self.nodes(projection, x0: sx0, y0: sy0, width: sw, height: sh, panoramaWidth: panoramaWidth, u: &u, v: &v)
                        let start = subCoefficients.count
                        subCoefficients.append(contentsOf: repeatElement(0, count: Self.coefficientsPerBlock))
                        let fits = subCoefficients.withUnsafeMutableBufferPointer { c in
                            Self.fitAndCheck(projection, x0: sx0, y0: sy0, width: sw, height: sh, u: u, v: v,
                                             panoramaWidth: panoramaWidth, points: Self.subBlockCheckPoints, into: c.baseAddress! + start)
                        }
                        subState.append(fits ? .fitted : .exact)
                        if !fits { exact += 1 }
                    }
                }
            }
        }
        splitBlockCount = split
        exactBlockCount = exact
    }

    /// Fills ``blockModes`` for this frame: each fitted block's rows checked at once against the span
    /// kernels' preconditions (bilinear only; the bicubic kernel samples every block in Swift).
    mutating func checkBlocks(_ panorama: PanoramaImage) {
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1
        if blockModes.count != state.count { blockModes = [UInt8](repeating: 0, count: state.count) }
        let width = Int32(panorama.width), height = Int32(panorama.height), bilinear = kernel == .bilinear
        coefficients.withUnsafeBufferPointer { k in
            for j in 0..<by {
                let rows = nodePixelY[j + 1] - nodePixelY[j] + (j == by - 1 ? 1 : 0)
                for i in 0..<bx {
                    let b = j * bx + i, count = nodePixelX[i + 1] - nodePixelX[i] + (i == bx - 1 ? 1 : 0)
                    blockModes[b] = bilinear && state[b] == .fitted
                        ? UInt8(lk_bilinear_block_check(width, height, k.baseAddress! + b * Self.coefficientsPerBlock,
                                                        Int32(rows), Int32(count)))
                        : 0
                }
            }
        }
    }

    /// Boundary `k` (0…``subdivisions``) of a block from pixel `a` to pixel `b` cut into ``subdivisions`` parts.
    @inline(__always)
    static func boundary(_ a: Int, _ b: Int, _ k: Int) -> Int { a + (b - a) * k / subdivisions }

    // MARK: Sampling

    /// Fraction steps of the bicubic weight table, and its weights' fraction bits.
    static let cubicSteps = 1024
    static let cubicWeightBits = 14

    mutating func renderUnchecked(_ panorama: PanoramaImage, camera: ViewCamera, pose: PanoramaPose,
                                  into output: inout RGB8Image, maximumThreads: Int?) {
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: panorama.width)
        prepareGrid(projection, camera: camera)
        checkBlocks(panorama)
        let vector = Self.hasVectorKernel && !usesPortableKernel
        let rowKernel: Int32 = vector ? (Self.usesAVX512Build ? 2 : 1) : 0
        let context = SpanContext(kernel: kernel, vector: vector, projection: projection,
                                  panoramaWidth: panorama.width, panoramaHeight: panorama.height)
        let viewWidth = camera.width, viewHeight = camera.height
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1
        let perBlock = Self.coefficientsPerBlock, subdivisions = Self.subdivisions
        coefficients.withUnsafeBufferPointer { coefficients in
        subCoefficients.withUnsafeBufferPointer { subCoefficients in
        nodePixelX.withUnsafeBufferPointer { nodePixelX in
        nodePixelY.withUnsafeBufferPointer { nodePixelY in
        blockModes.withUnsafeBufferPointer { blockModes in
        state.withUnsafeBufferPointer { state in
        subState.withUnsafeBufferPointer { subState in
        firstSubBlock.withUnsafeBufferPointer { firstSubBlock in
        Self.cubicTable.withUnsafeBufferPointer { cubic in
        panorama.pixels.withUnsafeBufferPointer { source in
        output.components.withUnsafeMutableBufferPointer { destination in
            let src = source.baseAddress!, dst = destination.baseAddress!, table = cubic.baseAddress!
            let k = coefficients.baseAddress!, subK = subCoefficients.baseAddress, modes = blockModes.baseAddress!
            Parallel.forEachRowRange(viewHeight, maximumThreads: maximumThreads) { rows in
                var j = 0
                for y in rows {
                    while j + 1 < by && y >= nodePixelY[j + 1] { j += 1 }
                    let y0 = nodePixelY[j], y1 = nodePixelY[j + 1]
                    let rowOut = dst + y * viewWidth * 3
                    // The row's checked blocks in one call to C (lk_bilinear_row); the others below.
                    if context.kernel == .bilinear {
                        lk_bilinear_row(src, Int32(context.panoramaWidth), Int32(context.panoramaHeight), k + j * bx * perBlock,
                                        modes + j * bx, nodePixelX.baseAddress, Int32(bx), Double(y - y0), rowOut,
                                        rowKernel)
                    }
                    for i in 0..<bx {
                        let b = j * bx + i
                        guard modes[b] == 0 else { continue }
                        let x0 = nodePixelX[i], x1 = nodePixelX[i + 1]
                        let lastColumn = i == bx - 1
                        let count = lastColumn ? x1 - x0 + 1 : x1 - x0
                        switch state[b] {
                        case .fitted:
                            context.span(k + b * perBlock, t: Double(y - y0), x0: x0, y: y, count: count,
                                         src: src, table: table, out: rowOut + 3 * x0)
                        case .split, .exact:
                            // The sub-block row holding y, then its sub-blocks left to right.
                            var l = 0
                            while l + 1 < subdivisions && y >= Self.boundary(y0, y1, l + 1) { l += 1 }
                            let sy = Self.boundary(y0, y1, l)
                            for s in 0..<subdivisions {
                                let sx = Self.boundary(x0, x1, s), end = Self.boundary(x0, x1, s + 1)
                                let n = (s == subdivisions - 1 && lastColumn ? end + 1 : end) - sx
                                guard n > 0 else { continue }
                                let sub = firstSubBlock[b] + l * subdivisions + s
                                if subState[sub] == .fitted, let subK {
                                    context.span(subK + sub * perBlock, t: Double(y - sy), x0: sx, y: y, count: n,
                                                 src: src, table: table, out: rowOut + 3 * sx)
                                } else {
                                    context.exactPixels(x0: sx, y: y, count: n, src: src, table: table, out: rowOut + 3 * sx)
                                }
                            }
                        }
                    }
                }
            }
        }}}}}}}}}}}
    }

    /// What the span sampler needs per frame.
    struct SpanContext {
        let kernel: SamplingKernel
        let vector: Bool
        let projection: ViewProjection
        let panoramaWidth: Int, panoramaHeight: Int

        /// Samples `count` pixels of row `y` from view column `x0` along the bicubic `k` at row
        /// parameter `t` (pixels from the block's first row).
        @inline(__always)
        func span(_ k: UnsafePointer<Double>, t: Double, x0: Int, y: Int, count: Int, src: UnsafePointer<UInt32>,
                  table: UnsafePointer<Int32>, out: UnsafeMutablePointer<UInt8>) {
            // Bilinear spans inside the panorama's rows: set up and sampled in C (CViewKernels).
            if kernel == .bilinear && lk_bilinear_block_span(src, Int32(panoramaWidth), Int32(panoramaHeight), k, t,
                                                             Int32(count), out, vector ? 1 : 0) != 0 {
                return
            }
            let cu = ViewRenderer.rowCubic(k, t: t), cv = ViewRenderer.rowCubic(k + 16, t: t)
            for m in 0..<count {
                let s = Double(m)
                let u = ((cu.3 * s + cu.2) * s + cu.1) * s + cu.0, v = ((cv.3 * s + cv.2) * s + cv.1) * s + cv.0
                ViewRenderer.sample(kernel, src, panoramaWidth, panoramaHeight, u, v, table, out + 3 * m)
            }
        }

        /// `count` pixels of row `y` from view column `x0`, each projected exactly.
        func exactPixels(x0: Int, y: Int, count: Int, src: UnsafePointer<UInt32>, table: UnsafePointer<Int32>,
                         out: UnsafeMutablePointer<UInt8>) {
            for m in 0..<count {
                let e = ViewRenderer.exactTap(projection, Double(x0 + m) + 0.5, Double(y) + 0.5)
                ViewRenderer.sample(kernel, src, panoramaWidth, panoramaHeight, e.0, e.1, table, out + 3 * m)
            }
        }
    }

    /// Bounds on the cubic c0 + c1·m + c2·m² + c3·m³ over m ∈ [0, count − 1] (`lk_cubic_bounds`, what
    /// `lk_bilinear_block_span` checks a span's preconditions with): the linear part's two ends widened
    /// by |c2|·n² + |c3|·n³ (n = count − 1). Conservative and free of square roots and divisions; the
    /// curved part of a 64-px span is a few pixels at most, so only spans that pass near a pole's last
    /// half row or the seam are sent to the slower paths by the slack.
    static func cubicBounds(_ c: (Double, Double, Double, Double), count: Int) -> (low: Double, high: Double) {
        var low = 0.0, high = 0.0
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 4) { p in
            p[0] = c.0; p[1] = c.1; p[2] = c.2; p[3] = c.3
            lk_cubic_bounds(p.baseAddress!, Int32(clamping: count), &low, &high)
        }
        return (low, high)
    }

    // MARK: Taps outside the span kernel

    /// Fraction bits of the positions and weights ``edgeTap`` uses (as the span kernel's).
    static let positionBits = Int(LK_SPAN_POSITION_BITS), weightBits = Int(LK_SPAN_WEIGHT_BITS)

    @inline(__always)
    static func sample(_ kernel: SamplingKernel, _ src: UnsafePointer<UInt32>, _ width: Int, _ height: Int,
                       _ u: Double, _ v: Double, _ table: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<UInt8>) {
        if kernel == .bilinear {
            edgeTap(src, width, height, u, v, out)
        } else {
            bicubic(src, width, height, Int((u * fixedOne).rounded(.down)), Int((v * fixedOne).rounded(.down)), table, out)
        }
    }

    /// The bilinear tap at (`u`, `v`) (pixel centres at integers) with the span kernel's arithmetic:
    /// position rounded to 2^-20 px, 14-bit weights summing to 1; columns wrap at the seam (within one
    /// turn), rows clamp at the poles. Writes R, G, B.
    @inline(__always)
    static func edgeTap(_ src: UnsafePointer<UInt32>, _ width: Int, _ height: Int, _ u: Double, _ v: Double,
                        _ out: UnsafeMutablePointer<UInt8>) {
        let scale = Double(1 << positionBits)
        // x + 1.5·2^52 − 1.5·2^52 rounds to the nearest integer (ties to even) without a libm call.
        let magic = 6_755_399_441_055_744.0
        let uf = Int((u * scale + magic) - magic), vf = Int((v * scale + magic) - magic)
        var x0 = uf >> positionBits
        if x0 < 0 { x0 += width } else if x0 >= width { x0 -= width }
        x0 = min(max(x0, 0), width - 1)
        let x1 = x0 + 1 == width ? 0 : x0 + 1
        let yi = vf >> positionBits
        let y0 = min(max(yi, 0), height - 1), y1 = min(max(yi + 1, 0), height - 1)
        let mask = (1 << weightBits) - 1, shift = positionBits - weightBits
        let fx = (uf >> shift) & mask, fy = (vf >> shift) & mask
        let w11 = (fx * fy) >> weightBits, w10 = fx - w11, w01 = fy - w11, w00 = (1 << weightBits) - fx - w01
        let r0 = src + y0 * width, r1 = src + y1 * width
        let tl = Int(r0[x0]), tr = Int(r0[x1]), bl = Int(r1[x0]), br = Int(r1[x1])
        let half = 1 << (weightBits - 1)
        for c in 0..<3 {
            let s = 8 * c
            let sum = w00 * ((tl >> s) & 0xFF) + w10 * ((tr >> s) & 0xFF) + w01 * ((bl >> s) & 0xFF) + w11 * ((br >> s) & 0xFF)
            out[c] = UInt8(truncatingIfNeeded: (sum + half) >> weightBits)
        }
    }

    /// 32.32 fixed point (the bicubic tap's position format).
    static let fixedOne = 4_294_967_296.0

    /// The bilinear tap at 32.32 fixed-point position (`u`, `v`) of a `width`×`height` equirectangular
    /// image (pixel centres at integers; columns wrap at the seam within one turn, rows clamp at the
    /// poles), its channels in the 16-bit lanes of ``PanoramaImage/spread(_:)``, with 8-bit weights.
    /// (The depth-warped transitions' sampler; views use ``edgeTap`` and the span kernel.)
    @inline(__always)
    static func bilinearSpread(_ src: UnsafePointer<UInt32>, _ width: Int, _ height: Int, _ u: Int, _ v: Int) -> UInt64 {
        var x0 = u &>> 32
        if x0 < 0 { x0 &+= width } else if x0 >= width { x0 &-= width }
        var x1 = x0 &+ 1
        if x1 == width { x1 = 0 }
        let yi = v &>> 32
        let y0 = yi < 0 ? 0 : (yi >= height ? height &- 1 : yi)
        let y1 = yi &+ 1 < 0 ? 0 : (yi &+ 1 >= height ? height &- 1 : yi &+ 1)
        let fx = UInt64(truncatingIfNeeded: (u &>> 24) & 0xFF), fy = UInt64(truncatingIfNeeded: (v &>> 24) & 0xFF)
        let r0 = src + y0 &* width, r1 = src + y1 &* width
        let mask: UInt64 = 0x00FF_00FF_00FF_00FF, half: UInt64 = 0x0080_0080_0080_0080
        let top = ((PanoramaImage.spread(r0[x0]) &* (256 &- fx) &+ PanoramaImage.spread(r0[x1]) &* fx &+ half) &>> 8) & mask
        let bottom = ((PanoramaImage.spread(r1[x0]) &* (256 &- fx) &+ PanoramaImage.spread(r1[x1]) &* fx &+ half) &>> 8) & mask
        return ((top &* (256 &- fy) &+ bottom &* fy &+ half) &>> 8) & mask
    }

    /// The bilinear blend of texels `r0[0]`, `r0[1]` (weights 256 − `fx`, `fx` of 256) and likewise
    /// `r1[0]`, `r1[1]`, then of the two (256 − `fy`, `fy`): four channels at once in 16-bit SIMD lanes.
    /// (The depth-warped transitions' grid lookup.)
    @inline(__always)
    static func bilinear(_ r0: UnsafePointer<UInt32>, _ r1: UnsafePointer<UInt32>, fx: UInt16, fy: UInt16) -> SIMD4<UInt8> {
        let wx = SIMD4<UInt16>(repeating: fx), wy = SIMD4<UInt16>(repeating: fy)
        let full = SIMD4<UInt16>(repeating: 256), half = SIMD4<UInt16>(repeating: 128)
        @inline(__always) func widen(_ x: UInt32) -> SIMD4<UInt16> {
            SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(x, to: SIMD4<UInt8>.self))
        }
        let top = (widen(r0[0]) &* (full &- wx) &+ widen(r0[1]) &* wx &+ half) &>> 8
        let bottom = (widen(r1[0]) &* (full &- wx) &+ widen(r1[1]) &* wx &+ half) &>> 8
        return SIMD4<UInt8>(truncatingIfNeeded: (top &* (full &- wy) &+ bottom &* wy &+ half) &>> 8)
    }

    /// Catmull–Rom tap at 32.32 fixed-point position (`u`, `v`): 14-bit weights for fractions in steps
    /// of 1/1024.
    @inline(__always)
    private static func bicubic(_ src: UnsafePointer<UInt32>, _ width: Int, _ height: Int, _ u: Int, _ v: Int,
                                _ table: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<UInt8>) {
        var xc = u &>> 32
        if xc < 0 { xc &+= width } else if xc >= width { xc &-= width }
        var columns = (xc &- 1, xc, xc &+ 1, xc &+ 2)
        if columns.0 < 0 { columns.0 &+= width }
        if columns.2 >= width { columns.2 &-= width }
        if columns.3 >= width { columns.3 &-= width }
        let yc = v &>> 32
        // The fraction rounded to the nearest of the table's 1024 steps (1024: the next column, t = 0).
        let fu = ((u & 0xFFFF_FFFF) &+ (1 << 21)) &>> 22, fv = ((v & 0xFFFF_FFFF) &+ (1 << 21)) &>> 22
        let wx = table + 4 &* fu, wy = table + 4 &* fv
        var r = 0, g = 0, b = 0
        for k in 0..<4 {
            var row = yc &- 1 &+ k
            row = row < 0 ? 0 : (row >= height ? height &- 1 : row)
            let line = src + row &* width
            var rr = 0, gg = 0, bb = 0
            @inline(__always) func tap(_ column: Int, _ w: Int32) {
                let p = line[column], weight = Int(w)
                rr &+= weight &* Int(p & 0xFF); gg &+= weight &* Int((p &>> 8) & 0xFF); bb &+= weight &* Int((p &>> 16) & 0xFF)
            }
            tap(columns.0, wx[0]); tap(columns.1, wx[1]); tap(columns.2, wx[2]); tap(columns.3, wx[3])
            let w = Int(wy[k])
            r &+= rr &* w; g &+= gg &* w; b &+= bb &* w
        }
        @inline(__always) func clamp(_ s: Int) -> UInt8 {
            let q = (s &+ (1 << (2 * cubicWeightBits - 1))) &>> (2 * cubicWeightBits)
            return UInt8(truncatingIfNeeded: q < 0 ? 0 : (q > 255 ? 255 : q))
        }
        out[0] = clamp(r); out[1] = clamp(g); out[2] = clamp(b)
    }
}

extension ViewRenderer {
    /// For tests: the largest distance, in source pixels along either axis, between the position the
    /// spans sample (the blocks' and sub-blocks' bicubics, before fixed-point rounding) and the exact
    /// projection, over every pixel of the view that is not projected exactly.
    mutating func largestInterpolationError(panoramaWidth: Int, camera: ViewCamera, pose: PanoramaPose) -> Double {
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: panoramaWidth)
        prepareGrid(projection, camera: camera)
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1, width = Double(panoramaWidth)
        var worst = 0.0
        func measure(_ k: UnsafePointer<Double>, t: Double, x0: Int, y: Int, count: Int) {
            for m in 0..<count {
                let q = Self.evaluate(k, s: Double(m), t: t)
                let e = Self.exactTap(projection, Double(x0 + m) + 0.5, Double(y) + 0.5)
                worst = max(worst, abs(Self.unwrap(e.0, near: q.u, width: width) - q.u), abs(e.1 - q.v))
            }
        }
        coefficients.withUnsafeBufferPointer { k in
            subCoefficients.withUnsafeBufferPointer { subK in
                var j = 0
                for y in 0..<camera.height {
                    while j + 1 < by && y >= nodePixelY[j + 1] { j += 1 }
                    for i in 0..<bx {
                        let x0 = nodePixelX[i], x1 = nodePixelX[i + 1], b = j * bx + i
                        let lastColumn = i == bx - 1
                        if state[b] == .fitted {
                            measure(k.baseAddress! + b * Self.coefficientsPerBlock, t: Double(y - nodePixelY[j]), x0: x0, y: y,
                                    count: lastColumn ? x1 - x0 + 1 : x1 - x0)
                            continue
                        }
                        let y0 = nodePixelY[j], y1 = nodePixelY[j + 1]
                        var l = 0
                        while l + 1 < Self.subdivisions && y >= Self.boundary(y0, y1, l + 1) { l += 1 }
                        for s in 0..<Self.subdivisions {
                            let sub = firstSubBlock[b] + l * Self.subdivisions + s
                            let sx = Self.boundary(x0, x1, s), end = Self.boundary(x0, x1, s + 1)
                            let n = (s == Self.subdivisions - 1 && lastColumn ? end + 1 : end) - sx
                            guard n > 0, subState[sub] == .fitted else { continue }
                            measure(subK.baseAddress! + sub * Self.coefficientsPerBlock, t: Double(y - Self.boundary(y0, y1, l)),
                                    x0: sx, y: y, count: n)
                        }
                    }
                }
            }
        }
        return worst
    }
}
