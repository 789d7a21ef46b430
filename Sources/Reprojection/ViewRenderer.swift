import CPrefetch
import Foundation
import Imaging
import Parallelism

/// The fast view renderer (the model is FFmpeg's `vf_v360`: set up once, an allocation-free
/// per-frame loop, a plain reference beside it — ``ReferenceRenderer``).
///
/// Per frame:
/// 1. **Grid.** The exact panorama position (two `atan2` and a square root) is computed only at the
///    corners, edge midpoints and centre of blocks of ``blockSizePixels`` view pixels: about four
///    evaluations per block. When any block fails the check of step 2, the grid is redone with
///    blocks half as large, down to ``smallestAdaptiveBlockSizePixels`` (wide or steep views).
/// 2. **Biquadratic blocks with a checked error.** Inside a block the position is the biquadratic
///    through those nine values (error O(h³), where bilinear interpolation's O(h²) error reaches
///    0.13 source pixels for 16-px blocks of a 90° view). It is checked against the exact projection
///    at four quarter points; blocks over ``interpolationToleranceSourcePixels`` (near the poles,
///    where longitude turns fast) are rendered with the exact projection per pixel instead.
/// 3. **Sampling.** Rows are split across cores; along a row segment the position is a quadratic in
///    the pixel index, advanced by 32.32 fixed-point forward differences (integer adds: no
///    trigonometry, no division per pixel); bilinear sampling works on all four channels at once in
///    16-bit lanes of a `UInt64` with 8-bit weights; columns wrap at the seam with one compare, rows
///    clamp at the poles.
///
/// Scratch memory is reused between frames; a frame allocates only when the view size changes.
public struct ViewRenderer: Sendable {
    /// The kernel.
    public let kernel: SamplingKernel
    /// The largest grid spacing in view pixels (4…64); halved per frame while blocks fail the check.
    public let blockSizePixels: Int
    /// The grid spacing the last frame used.
    public private(set) var lastBlockSizePixels = 0

    /// The largest error, in source pixels, allowed for the interpolated panorama position before a
    /// block falls back to the exact projection per pixel.
    public static let interpolationToleranceSourcePixels = 0.05
    /// The quarter-point check sees up to ~25 % less than a block's true peak error (measured over
    /// the test cameras), so blocks are accepted only below this fraction of the tolerance.
    static let checkMargin = 0.7
    /// The allowed grid spacings.
    public static let blockSizeRangePixels = 4...64
    /// The default grid spacing in view pixels (measured in `Benchmarks reprojection`: see README).
    public static let defaultBlockSizePixels = 64
    /// Adaptive halving stops here: a finer grid costs more than the blocks it would save from the
    /// exact per-pixel path.
    static let smallestAdaptiveBlockSizePixels = 16

    // Scratch (per view size).
    var nodeX: [Double] = [], nodeY: [Double] = []
    var nodePixelX: [Int] = [], nodePixelY: [Int] = []
    var blockExact: [Bool] = []
    var coefficients: [Double] = []
    /// Catmull–Rom weights × 2^10 for fractions k/256, 4 per entry.
    let cubicTable: [Int32]
    /// How many blocks of the last frame used the exact projection (for tests and benchmarks).
    public private(set) var exactBlockCount = 0
    /// How many blocks the last frame had.
    public var blockCount: Int { blockExact.count }

    /// A renderer.
    /// - Throws: `ReprojectionError.invalidParameter` for a block size outside ``blockSizeRangePixels``.
    public init(kernel: SamplingKernel = .bilinear,
                blockSizePixels: Int = ViewRenderer.defaultBlockSizePixels) throws(ReprojectionError) {
        guard Self.blockSizeRangePixels.contains(blockSizePixels) else {
            throw .invalidParameter(name: "block size", value: "\(blockSizePixels) pixels", allowed: "4…64 pixels")
        }
        self.kernel = kernel
        self.blockSizePixels = blockSizePixels
        var table = [Int32](repeating: 0, count: 257 * 4)
        for k in 0...256 {
            let w = SamplingKernel.cubicWeights(Double(k) / 256)
            table[4 * k] = Int32((w.0 * 1024).rounded()); table[4 * k + 1] = Int32((w.1 * 1024).rounded())
            table[4 * k + 2] = Int32((w.2 * 1024).rounded()); table[4 * k + 3] = Int32((w.3 * 1024).rounded())
        }
        cubicTable = table
    }

    /// Renders a view from the pyramid level that suits it (no aliasing), into a new image.
    public mutating func render(_ pyramid: PanoramaPyramid, camera: ViewCamera, pose: PanoramaPose,
                                maximumThreads: Int? = nil) -> RGB8Image {
        var out = RGB8Image(width: camera.width, height: camera.height)
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

    /// Values per block in `coefficients`: for u then v, for the block's left, middle and right
    /// columns, the quadratic in t (row parameter 0…1): A + B·t + C·t².
    static let coefficientsPerBlock = 18

    /// The pixel centre of half-grid index `k` (even: nodes, odd: midpoints between them).
    @inline(__always)
    private static func halfGridPosition(_ nodes: [Int], _ k: Int) -> Double {
        k % 2 == 0 ? Double(nodes[k / 2]) + 0.5 : (Double(nodes[k / 2]) + Double(nodes[k / 2 + 1])) / 2 + 0.5
    }

    /// Prepares the grid at ``blockSizePixels``, halving the spacing while blocks fail the check.
    mutating func prepareGrid(_ projection: ViewProjection, camera: ViewCamera) {
        var block = blockSizePixels
        prepareGrid(projection, camera: camera, block: block)
        while exactBlockCount > 0 && block / 2 >= Self.smallestAdaptiveBlockSizePixels {
            block /= 2
            prepareGrid(projection, camera: camera, block: block)
        }
        lastBlockSizePixels = block
    }

    mutating func prepareGrid(_ projection: ViewProjection, camera: ViewCamera, block: Int) {
        if nodePixelX.count < 2 || nodePixelX.last != camera.width - 1 || nodePixelY.last != camera.height - 1
            || nodePixelX[1] != min(block, camera.width - 1) || nodePixelY[1] != min(block, camera.height - 1) {
            nodePixelX = Self.nodePixels(camera.width, block: block)
            nodePixelY = Self.nodePixels(camera.height, block: block)
            let hx = 2 * nodePixelX.count - 1, hy = 2 * nodePixelY.count - 1
            nodeX = [Double](repeating: 0, count: hx * hy); nodeY = nodeX
            let blocks = (nodePixelX.count - 1) * (nodePixelY.count - 1)
            blockExact = [Bool](repeating: false, count: blocks)
            coefficients = [Double](repeating: 0, count: blocks * Self.coefficientsPerBlock)
        }
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1, hx = 2 * bx + 1, hy = 2 * by + 1
        let width = Double(projection.panoramaWidth)
        // Exact positions at the corners, edge midpoints and centres of all blocks.
        for j in 0..<hy {
            let y = Self.halfGridPosition(nodePixelY, j)
            for i in 0..<hx {
                let t = Self.exactTap(projection, Self.halfGridPosition(nodePixelX, i), y)
                nodeX[j * hx + i] = t.0; nodeY[j * hx + i] = t.1
            }
        }
        var exact = 0
        for j in 0..<by {
            for i in 0..<bx {
                let b = j * bx + i, c = b * Self.coefficientsPerBlock
                let corner = (2 * j) * hx + 2 * i, reference = nodeX[corner]
                for column in 0..<3 {
                    let k0 = corner + column, k1 = k0 + hx, k2 = k1 + hx
                    let u0 = Self.unwrap(nodeX[k0], near: reference, width: width)
                    let u1 = Self.unwrap(nodeX[k1], near: reference, width: width)
                    let u2 = Self.unwrap(nodeX[k2], near: reference, width: width)
                    coefficients[c + 3 * column] = u0
                    coefficients[c + 3 * column + 1] = -3 * u0 + 4 * u1 - u2
                    coefficients[c + 3 * column + 2] = 2 * u0 - 4 * u1 + 2 * u2
                    let v0 = nodeY[k0], v1 = nodeY[k1], v2 = nodeY[k2]
                    coefficients[c + 9 + 3 * column] = v0
                    coefficients[c + 9 + 3 * column + 1] = -3 * v0 + 4 * v1 - v2
                    coefficients[c + 9 + 3 * column + 2] = 2 * v0 - 4 * v1 + 2 * v2
                }
                // Check the biquadratic against the exact projection where its error peaks for a cubic
                // remainder (quarter points); a block that fails is rendered exactly per pixel.
                let x0 = Double(nodePixelX[i]), x1 = Double(nodePixelX[i + 1])
                let y0 = Double(nodePixelY[j]), y1 = Double(nodePixelY[j + 1])
                var worst = 0.0
                for (s, t) in [(0.25, 0.25), (0.75, 0.75), (0.25, 0.75), (0.75, 0.25)] {
                    let q = evaluate(block: b, s: s, t: t)
                    let e = Self.exactTap(projection, x0 + s * (x1 - x0) + 0.5, y0 + t * (y1 - y0) + 0.5)
                    worst = max(worst, abs(Self.unwrap(e.0, near: q.u, width: width) - q.u), abs(e.1 - q.v))
                }
                let isExact = worst > Self.interpolationToleranceSourcePixels * Self.checkMargin
                blockExact[b] = isExact
                if isExact { exact += 1 }
            }
        }
        exactBlockCount = exact
    }

    /// The biquadratic position of block `b` at block parameters (s, t) ∈ [0, 1]².
    func evaluate(block b: Int, s: Double, t: Double) -> (u: Double, v: Double) {
        let c = b * Self.coefficientsPerBlock
        func column(_ k: Int) -> Double { coefficients[k] + t * (coefficients[k + 1] + t * coefficients[k + 2]) }
        let u0 = column(c), u1 = column(c + 3), u2 = column(c + 6)
        let v0 = column(c + 9), v1 = column(c + 12), v2 = column(c + 15)
        // Quadratic through s = 0, ½, 1.
        let l0 = 2 * (s - 0.5) * (s - 1), l1 = -4 * s * (s - 1), l2 = 2 * s * (s - 0.5)
        return (l0 * u0 + l1 * u1 + l2 * u2, l0 * v0 + l1 * v1 + l2 * v2)
    }

    /// Along row parameter `t` of a block `n` pixels wide: the position at its first pixel and the
    /// first and second forward differences per pixel, for u and v.
    @inline(__always)
    static func rowSegment(_ k: UnsafePointer<Double>, t: Double, n: Double)
        -> (u: Double, du: Double, ddu: Double, v: Double, dv: Double, ddv: Double,
            uMiddle: Double, uEnd: Double, vMiddle: Double, vEnd: Double) {
        @inline(__always) func column(_ i: Int) -> Double { k[i] + t * (k[i + 1] + t * k[i + 2]) }
        let u0 = column(0), u1 = column(3), u2 = column(6), v0 = column(9), v1 = column(12), v2 = column(15)
        // q(m) = q0 + b·m + c·m² for m = 0…n pixels: b = (−3q0 + 4q1 − q2)/n, c = (2q0 − 4q1 + 2q2)/n².
        let bu = (-3 * u0 + 4 * u1 - u2) / n, cu = (2 * u0 - 4 * u1 + 2 * u2) / (n * n)
        let bv = (-3 * v0 + 4 * v1 - v2) / n, cv = (2 * v0 - 4 * v1 + 2 * v2) / (n * n)
        return (u0, bu + cu, 2 * cu, v0, bv + cv, 2 * cv, u1, u2, v1, v2)
    }

    // MARK: Sampling

    /// 32.32 fixed point: the sample loop steps positions with integer adds.
    static let fixedOne = 4_294_967_296.0

    mutating func renderUnchecked(_ panorama: PanoramaImage, camera: ViewCamera, pose: PanoramaPose,
                                  into output: inout RGB8Image, maximumThreads: Int?) {
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: panorama.width)
        prepareGrid(projection, camera: camera)
        let kernel = self.kernel
        let viewWidth = camera.width, viewHeight = camera.height
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1
        let panoramaWidth = panorama.width, panoramaHeight = panorama.height
        let one = Self.fixedOne, perBlock = Self.coefficientsPerBlock
        let maxInteriorU = Double(panoramaWidth - 2), maxInteriorV = Double(panoramaHeight - 2)
        coefficients.withUnsafeBufferPointer { coefficients in
        nodePixelX.withUnsafeBufferPointer { nodePixelX in
        nodePixelY.withUnsafeBufferPointer { nodePixelY in
        blockExact.withUnsafeBufferPointer { blockExact in
        cubicTable.withUnsafeBufferPointer { cubic in
        panorama.pixels.withUnsafeBufferPointer { source in
        output.components.withUnsafeMutableBufferPointer { destination in
            let src = source.baseAddress!, dst = destination.baseAddress!, table = cubic.baseAddress!
            let k = coefficients.baseAddress!
            Parallel.forEachRowRange(viewHeight, maximumThreads: maximumThreads) { rows in
                var j = 0
                for y in rows {
                    while j + 1 < by && y >= nodePixelY[j + 1] { j += 1 }
                    let y0 = nodePixelY[j], y1 = nodePixelY[j + 1]
                    let t = y1 > y0 ? Double(y - y0) / Double(y1 - y0) : 0
                    let rowOut = dst + y * viewWidth * 3
                    for i in 0..<bx {
                        let x0 = nodePixelX[i], x1 = nodePixelX[i + 1]
                        let count = (i == bx - 1) ? x1 - x0 + 1 : x1 - x0
                        if blockExact[j * bx + i] {
                            for x in x0..<(x0 + count) {
                                let e = Self.exactTap(projection, Double(x) + 0.5, Double(y) + 0.5)
                                Self.samplePixel(kernel, src, panoramaWidth, panoramaHeight,
                                                 Int((e.0 * one).rounded(.down)), Int((e.1 * one).rounded(.down)),
                                                 table, rowOut + 3 * x)
                            }
                            continue
                        }
                        let q = Self.rowSegment(k + (j * bx + i) * perBlock, t: t, n: Double(max(1, x1 - x0)))
                        // Truncation, not floor: the difference is 2^-32 px, and floor is a libm call
                        // on baseline x86-64.
                        var u = Int(q.u * one), v = Int(q.v * one)
                        var du = Int(q.du * one), dv = Int(q.dv * one)
                        let ddu = Int(q.ddu * one), ddv = Int(q.ddv * one)
                        var out = rowOut + 3 * x0
                        // Interior segments (no seam, no pole row within a pixel of the path; the
                        // quadratic's samples at both ends and the middle bound it to well under a
                        // pixel) take the branch-free sampler with a 4-byte store; the byte it writes
                        // past the pixel is the next pixel's, so the row's last pixel is left out.
                        let lowU = min(q.u, q.uMiddle, q.uEnd), highU = max(q.u, q.uMiddle, q.uEnd)
                        let lowV = min(q.v, q.vMiddle, q.vEnd), highV = max(q.v, q.vMiddle, q.vEnd)
                        if kernel == .bilinear && lowU >= 1 && highU < maxInteriorU && lowV >= 1 && highV < maxInteriorV {
                            let interior = i == bx - 1 ? count - 1 : count
                            // Prefetch the source lines the next output row will read first (its lower
                            // tap row is 2–3 rows below this one's), one row of work ahead. (Once per four
                            // pixels was measured no faster.)
                            let ahead = (v &>> 32) &+ 4 < panoramaHeight ? 2 &* panoramaWidth : 0
                            for _ in 0..<interior {
                                let p = src + ((v &>> 32) &* panoramaWidth &+ (u &>> 32))
                                lk_prefetch(p + ahead)
                                lk_prefetch(p + (ahead &+ panoramaWidth))
                                Self.bilinearInterior(src, panoramaWidth, u, v, out)
                                u &+= du; v &+= dv; du &+= ddu; dv &+= ddv; out += 3
                            }
                            if interior < count { Self.bilinear(src, panoramaWidth, panoramaHeight, u, v, out) }
                        } else if kernel == .bilinear {
                            for _ in 0..<count {
                                Self.bilinear(src, panoramaWidth, panoramaHeight, u, v, out)
                                u &+= du; v &+= dv; du &+= ddu; dv &+= ddv; out += 3
                            }
                        } else {
                            for _ in 0..<count {
                                Self.bicubic(src, panoramaWidth, panoramaHeight, u, v, table, out)
                                u &+= du; v &+= dv; du &+= ddu; dv &+= ddv; out += 3
                            }
                        }
                    }
                }
            }
        }}}}}}}
    }

    @inline(__always)
    private static func samplePixel(_ kernel: SamplingKernel, _ src: UnsafePointer<UInt32>, _ width: Int, _ height: Int,
                                    _ u: Int, _ v: Int, _ table: UnsafePointer<Int32>, _ out: UnsafeMutablePointer<UInt8>) {
        if kernel == .bilinear { bilinear(src, width, height, u, v, out) } else { bicubic(src, width, height, u, v, table, out) }
    }

    /// Bilinear tap at 32.32 fixed-point position (`u`, `v`) (pixel centres at integers).
    @inline(__always)
    private static func bilinear(_ src: UnsafePointer<UInt32>, _ width: Int, _ height: Int, _ u: Int, _ v: Int,
                                 _ out: UnsafeMutablePointer<UInt8>) {
        let p = bilinearSpread(src, width, height, u, v)
        out[0] = UInt8(truncatingIfNeeded: p)
        out[1] = UInt8(truncatingIfNeeded: p &>> 16)
        out[2] = UInt8(truncatingIfNeeded: p &>> 32)
    }

    /// The bilinear tap at 32.32 fixed-point position (`u`, `v`) of a `width`×`height` equirectangular
    /// image (pixel centres at integers; columns wrap at the seam within one turn, rows clamp at the
    /// poles), its channels in the 16-bit lanes of ``PanoramaImage/spread(_:)``.
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

    /// Bilinear tap at 32.32 fixed-point (`u`, `v`) known to be at least one pixel inside the
    /// panorama (no wrap, no clamp): four channels at once in 16-bit SIMD lanes, one 4-byte store.
    @inline(__always)
    private static func bilinearInterior(_ src: UnsafePointer<UInt32>, _ width: Int, _ u: Int, _ v: Int,
                                         _ out: UnsafeMutablePointer<UInt8>) {
        let p = src + ((v &>> 32) &* width &+ (u &>> 32))
        let value = bilinear(p, p + width, fx: UInt16(truncatingIfNeeded: (u &>> 24) & 0xFF), fy: UInt16(truncatingIfNeeded: (v &>> 24) & 0xFF))
        UnsafeMutableRawPointer(out).storeBytes(of: unsafeBitCast(value, to: UInt32.self), as: UInt32.self)
    }

    /// The bilinear blend of texels `r0[0]`, `r0[1]` (weights 256 − `fx`, `fx` of 256) and likewise
    /// `r1[0]`, `r1[1]`, then of the two (256 − `fy`, `fy`): four channels at once in 16-bit SIMD lanes.
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

    /// Catmull–Rom tap at 32.32 fixed-point position (`u`, `v`).
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
        let wx = table + 4 &* ((u &>> 24) & 0xFF), wy = table + 4 &* ((v &>> 24) & 0xFF)
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
            let q = (s &+ (1 << 19)) &>> 20
            return UInt8(truncatingIfNeeded: q < 0 ? 0 : (q > 255 ? 255 : q))
        }
        out[0] = clamp(r); out[1] = clamp(g); out[2] = clamp(b)
    }
}

extension ViewRenderer {
    /// For tests: the largest distance, in source pixels, between the position the fast path samples
    /// (the same row segments and forward differences as the sample loop, before fixed-point
    /// rounding) and the exact projection, over every pixel of the view.
    mutating func largestInterpolationError(panoramaWidth: Int, camera: ViewCamera, pose: PanoramaPose) -> Double {
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: panoramaWidth)
        prepareGrid(projection, camera: camera)
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1, width = Double(panoramaWidth)
        var worst = 0.0
        var j = 0
        coefficients.withUnsafeBufferPointer { k in
            for y in 0..<camera.height {
                while j + 1 < by && y >= nodePixelY[j + 1] { j += 1 }
                let y0 = nodePixelY[j], y1 = nodePixelY[j + 1]
                let t = y1 > y0 ? Double(y - y0) / Double(y1 - y0) : 0
                for i in 0..<bx where !blockExact[j * bx + i] {
                    let x0 = nodePixelX[i], x1 = nodePixelX[i + 1]
                    let count = (i == bx - 1) ? x1 - x0 + 1 : x1 - x0
                    var q = Self.rowSegment(k.baseAddress! + (j * bx + i) * Self.coefficientsPerBlock, t: t,
                                            n: Double(max(1, x1 - x0)))
                    for m in 0..<count {
                        let e = Self.exactTap(projection, Double(x0 + m) + 0.5, Double(y) + 0.5)
                        worst = max(worst, abs(Self.unwrap(e.0, near: q.u, width: width) - q.u), abs(e.1 - q.v))
                        q.u += q.du; q.v += q.dv; q.du += q.ddu; q.dv += q.ddv
                    }
                }
            }
        }
        return worst
    }
}
