import CPrefetch
import Imaging
import Reprojection

/// The view renderer as main had it before issue 55 (`Sources/Reprojection/ViewRenderer.swift` at
/// f95157a, measured 7.18 ms a frame on 2026-11-29), bilinear path only, kept as a frozen peer: the
/// portable C span kernel (what a CPU without AVX2 runs) must not be slower than it. Biquadratic
/// blocks with a 0.05-px tolerance (halved while any fails), 32.32 fixed-point positions, 8-bit
/// separable weights in the 16-bit lanes of a `UInt64`/`SIMD4<UInt16>`, one pixel at a time — looser
/// than today's renderer (1/1024 px, 14-bit weights, ≤ 1 grey level of the reference). Single-threaded
/// (the benchmark runs it on one core). Not used anywhere else: do not extend it.
struct LegacySwiftViewRenderer {
    static let tolerance = 0.05, checkMargin = 0.7, smallestBlock = 16, coefficientsPerBlock = 18
    static let fixedOne = 4_294_967_296.0
    let blockSizePixels = 64
    var nodeX: [Double] = [], nodeY: [Double] = []
    var nodePixelX: [Int] = [], nodePixelY: [Int] = []
    var blockExact: [Bool] = []
    var coefficients: [Double] = []
    var exactBlockCount = 0

    private static func nodePixels(_ length: Int, block: Int) -> [Int] {
        let blocks = max(1, (length - 1 + block - 1) / block)
        return (0...blocks).map { min($0 * block, length - 1) }
    }

    @inline(__always)
    static func exactTap(_ p: ViewProjection, _ x: Double, _ y: Double) -> (Double, Double) {
        let q = p.panoramaPixel(viewX: x, viewY: y)
        return (q.x - 0.5, q.y - 0.5)
    }

    @inline(__always)
    static func unwrap(_ value: Double, near reference: Double, width: Double) -> Double {
        let d = value - reference
        if d > width / 2 { return value - width }
        if d < -width / 2 { return value + width }
        return value
    }

    private static func halfGridPosition(_ nodes: [Int], _ k: Int) -> Double {
        k % 2 == 0 ? Double(nodes[k / 2]) + 0.5 : (Double(nodes[k / 2]) + Double(nodes[k / 2 + 1])) / 2 + 0.5
    }

    mutating func prepareGrid(_ projection: ViewProjection, camera: ViewCamera) {
        var block = blockSizePixels
        prepareGrid(projection, camera: camera, block: block)
        while exactBlockCount > 0 && block / 2 >= Self.smallestBlock {
            block /= 2
            prepareGrid(projection, camera: camera, block: block)
        }
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
                let x0 = Double(nodePixelX[i]), x1 = Double(nodePixelX[i + 1])
                let y0 = Double(nodePixelY[j]), y1 = Double(nodePixelY[j + 1])
                var worst = 0.0
                for (s, t) in [(0.25, 0.25), (0.75, 0.75), (0.25, 0.75), (0.75, 0.25)] {
                    let q = evaluate(block: b, s: s, t: t)
                    let e = Self.exactTap(projection, x0 + s * (x1 - x0) + 0.5, y0 + t * (y1 - y0) + 0.5)
                    worst = max(worst, abs(Self.unwrap(e.0, near: q.u, width: width) - q.u), abs(e.1 - q.v))
                }
                let isExact = worst > Self.tolerance * Self.checkMargin
                blockExact[b] = isExact
                if isExact { exact += 1 }
            }
        }
        exactBlockCount = exact
    }

    func evaluate(block b: Int, s: Double, t: Double) -> (u: Double, v: Double) {
        let c = b * Self.coefficientsPerBlock
        func column(_ k: Int) -> Double { coefficients[k] + t * (coefficients[k + 1] + t * coefficients[k + 2]) }
        let u0 = column(c), u1 = column(c + 3), u2 = column(c + 6)
        let v0 = column(c + 9), v1 = column(c + 12), v2 = column(c + 15)
        let l0 = 2 * (s - 0.5) * (s - 1), l1 = -4 * s * (s - 1), l2 = 2 * s * (s - 0.5)
        return (l0 * u0 + l1 * u1 + l2 * u2, l0 * v0 + l1 * v1 + l2 * v2)
    }

    @inline(__always)
    static func rowSegment(_ k: UnsafePointer<Double>, t: Double, n: Double)
        -> (u: Double, du: Double, ddu: Double, v: Double, dv: Double, ddv: Double,
            uMiddle: Double, uEnd: Double, vMiddle: Double, vEnd: Double) {
        @inline(__always) func column(_ i: Int) -> Double { k[i] + t * (k[i + 1] + t * k[i + 2]) }
        let u0 = column(0), u1 = column(3), u2 = column(6), v0 = column(9), v1 = column(12), v2 = column(15)
        let bu = (-3 * u0 + 4 * u1 - u2) / n, cu = (2 * u0 - 4 * u1 + 2 * u2) / (n * n)
        let bv = (-3 * v0 + 4 * v1 - v2) / n, cv = (2 * v0 - 4 * v1 + 2 * v2) / (n * n)
        return (u0, bu + cu, 2 * cu, v0, bv + cv, 2 * cv, u1, u2, v1, v2)
    }

    /// Renders on the calling thread (bilinear).
    mutating func render(_ panorama: PanoramaImage, camera: ViewCamera, pose: PanoramaPose, into output: inout RGB8Image) {
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: panorama.width)
        prepareGrid(projection, camera: camera)
        let viewWidth = camera.width, viewHeight = camera.height
        let bx = nodePixelX.count - 1, by = nodePixelY.count - 1
        let panoramaWidth = panorama.width, panoramaHeight = panorama.height
        let one = Self.fixedOne, perBlock = Self.coefficientsPerBlock
        let maxInteriorU = Double(panoramaWidth - 2), maxInteriorV = Double(panoramaHeight - 2)
        coefficients.withUnsafeBufferPointer { coefficients in
        nodePixelX.withUnsafeBufferPointer { nodePixelX in
        nodePixelY.withUnsafeBufferPointer { nodePixelY in
        blockExact.withUnsafeBufferPointer { blockExact in
        panorama.pixels.withUnsafeBufferPointer { source in
        output.components.withUnsafeMutableBufferPointer { destination in
            let src = source.baseAddress!, dst = destination.baseAddress!
            let k = coefficients.baseAddress!
            var j = 0
            for y in 0..<viewHeight {
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
                            Self.bilinear(src, panoramaWidth, panoramaHeight, Int((e.0 * one).rounded(.down)),
                                          Int((e.1 * one).rounded(.down)), rowOut + 3 * x)
                        }
                        continue
                    }
                    let q = Self.rowSegment(k + (j * bx + i) * perBlock, t: t, n: Double(max(1, x1 - x0)))
                    var u = Int(q.u * one), v = Int(q.v * one)
                    var du = Int(q.du * one), dv = Int(q.dv * one)
                    let ddu = Int(q.ddu * one), ddv = Int(q.ddv * one)
                    var out = rowOut + 3 * x0
                    let lowU = min(q.u, q.uMiddle, q.uEnd), highU = max(q.u, q.uMiddle, q.uEnd)
                    let lowV = min(q.v, q.vMiddle, q.vEnd), highV = max(q.v, q.vMiddle, q.vEnd)
                    if lowU >= 1 && highU < maxInteriorU && lowV >= 1 && highV < maxInteriorV {
                        let interior = i == bx - 1 ? count - 1 : count
                        let ahead = (v &>> 32) &+ 4 < panoramaHeight ? 2 &* panoramaWidth : 0
                        for _ in 0..<interior {
                            let p = src + ((v &>> 32) &* panoramaWidth &+ (u &>> 32))
                            lk_prefetch(p + ahead)
                            lk_prefetch(p + (ahead &+ panoramaWidth))
                            Self.bilinearInterior(src, panoramaWidth, u, v, out)
                            u &+= du; v &+= dv; du &+= ddu; dv &+= ddv; out += 3
                        }
                        if interior < count { Self.bilinear(src, panoramaWidth, panoramaHeight, u, v, out) }
                    } else {
                        for _ in 0..<count {
                            Self.bilinear(src, panoramaWidth, panoramaHeight, u, v, out)
                            u &+= du; v &+= dv; du &+= ddu; dv &+= ddv; out += 3
                        }
                    }
                }
            }
        }}}}}}
    }

    @inline(__always)
    static func spread(_ p: UInt32) -> UInt64 {
        var x = UInt64(p)
        x = (x | (x << 16)) & 0x0000_FFFF_0000_FFFF
        x = (x | (x << 8)) & 0x00FF_00FF_00FF_00FF
        return x
    }

    @inline(__always)
    private static func bilinear(_ src: UnsafePointer<UInt32>, _ width: Int, _ height: Int, _ u: Int, _ v: Int,
                                 _ out: UnsafeMutablePointer<UInt8>) {
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
        let top = ((spread(r0[x0]) &* (256 &- fx) &+ spread(r0[x1]) &* fx &+ half) &>> 8) & mask
        let bottom = ((spread(r1[x0]) &* (256 &- fx) &+ spread(r1[x1]) &* fx &+ half) &>> 8) & mask
        let p = ((top &* (256 &- fy) &+ bottom &* fy &+ half) &>> 8) & mask
        out[0] = UInt8(truncatingIfNeeded: p)
        out[1] = UInt8(truncatingIfNeeded: p &>> 16)
        out[2] = UInt8(truncatingIfNeeded: p &>> 32)
    }

    @inline(__always)
    private static func bilinearInterior(_ src: UnsafePointer<UInt32>, _ width: Int, _ u: Int, _ v: Int,
                                         _ out: UnsafeMutablePointer<UInt8>) {
        let p = src + ((v &>> 32) &* width &+ (u &>> 32))
        let fx = UInt16(truncatingIfNeeded: (u &>> 24) & 0xFF), fy = UInt16(truncatingIfNeeded: (v &>> 24) & 0xFF)
        let wx = SIMD4<UInt16>(repeating: fx), wy = SIMD4<UInt16>(repeating: fy)
        let full = SIMD4<UInt16>(repeating: 256), half = SIMD4<UInt16>(repeating: 128)
        @inline(__always) func widen(_ x: UInt32) -> SIMD4<UInt16> {
            SIMD4<UInt16>(truncatingIfNeeded: unsafeBitCast(x, to: SIMD4<UInt8>.self))
        }
        let top = (widen(p[0]) &* (full &- wx) &+ widen(p[1]) &* wx &+ half) &>> 8
        let bottom = (widen(p[width]) &* (full &- wx) &+ widen(p[width + 1]) &* wx &+ half) &>> 8
        let value = SIMD4<UInt8>(truncatingIfNeeded: (top &* (full &- wy) &+ bottom &* wy &+ half) &>> 8)
        UnsafeMutableRawPointer(out).storeBytes(of: unsafeBitCast(value, to: UInt32.self), as: UInt32.self)
    }
}
