import Parallelism
extension Canvas {
    /// The most sub-samples per axis ``drawProjectedReference(_:transform:opacity:maximumSubsamples:)``
    /// takes in one canvas pixel by default (what `drawProjected` did before it had mip levels).
    public static let maximumProjectedSubsamples = 4

    /// The most bilinear samples ``drawProjected(_:transform:opacity:)`` averages in one canvas pixel;
    /// where more would be needed at full resolution it samples a coarser mip level instead.
    static let projectedSampleBudget = 16

    /// Composites `source` mapped through `transform` (source continuous pixels → canvas continuous
    /// pixels), source-over, its alpha scaled by `opacity` (0…1): rotated labels, text lying on a
    /// plane seen in perspective.
    ///
    /// Each canvas pixel averages an n×m grid of bilinear samples (premultiplied alpha, outside the
    /// source transparent) spread over the pixel, as the reference does, but n, m and the mip level
    /// sampled are chosen per 8-pixel span from the local scale of the map (its Jacobian at the span's
    /// middle): the finest level at which n·m ≤ ``projectedSampleBudget`` covers the pixel's footprint
    /// with samples at most 4/3 texel apart (closer costs more and, by forcing coarser levels, blurs). Near text gets one or two samples at full resolution; far,
    /// foreshortened text a few samples of a box-filtered level, so it neither breaks up nor needs
    /// dozens of samples. Within a pixel the samples follow the map's Jacobian (one division per
    /// pixel) unless the weight varies by more than 2 % across it (near the horizon), where each is
    /// projected exactly. Rows are walked only where the inked part of the source can reach, and
    /// pixels whose reach holds only empty blocks of the source are skipped after a few texel reads.
    /// Agrees with the box filter over each pixel (``drawProjectedReference(_:transform:opacity:maximumSubsamples:)``
    /// with 16 subsamples) to at most 4 levels on average, steep perspective and near-horizon cases
    /// included; see `ProjectedDrawingFastTests`.
    /// Draws nothing when a corner of the source maps behind the viewer (weight ≤ 0), since the image
    /// of the source is then not bounded.
    public mutating func drawProjected(_ source: RGBA8Image, transform: Homography, opacity: Float = 1) {
        guard source.width > 0, source.height > 0 else { return }
        drawProjected(ProjectionSource(source), transform: transform, opacity: opacity)
    }

    /// ``drawProjected(_:transform:opacity:)`` of an image already premultiplied (text rendered
    /// straight into a ``ProjectionSource`` skips a canvas and a conversion).
    public mutating func drawProjected(_ source: ProjectionSource, transform: Homography, opacity: Float = 1) {
        let opacity = min(max(opacity, 0), 1)
        guard source.width > 0, source.height > 0, opacity > 0, let inverse = transform.inverse else { return }
        let sw = Double(source.width), sh = Double(source.height)
        var corners: [PixelPoint] = []
        for corner in [PixelPoint(0, 0), PixelPoint(sw, 0), PixelPoint(sw, sh), PixelPoint(0, sh)] {
            guard let p = transform.map(corner) else { return }
            corners.append(p)
        }
        // The same box as the reference: nothing outside it is touched.
        // (Cut to the canvas's window, when it holds one.)
        let x0 = max(windowX, Int((corners.map(\.x).min()! - 1).rounded(.down)))
        let x1 = min(windowX + image.width, Int((corners.map(\.x).max()! + 1).rounded(.up)))
        let y0 = max(windowY, Int((corners.map(\.y).min()! - 1).rounded(.down)))
        let y1 = min(windowY + image.height, Int((corners.map(\.y).max()! + 1).rounded(.up)))
        guard x0 < x1, y0 < y1, !source.isEmpty else { return }
        // The scale is most extreme at a corner (it goes with the weight, which is linear), so the
        // corners bound the levels needed inside the source's image.
        let budget = Self.projectedSampleBudget
        var maximumLevel = 0
        for p in corners {
            let (lx, ly) = Self.projectedShrink(inverse, x: p.x, y: p.y)
            maximumLevel = max(maximumLevel, Self.projectedSampling(lx, ly, budget: budget, maximumLevel: 24).level)
        }
        // A few levels more than sampling needs tell empty blocks (texel alpha 0) for skipping pixels.
        let (coarser, coarseTexels) = source.coarserLevels(upTo: max(maximumLevel, ProjectedKernel.occupancyLevels))
        let levels = [ProjectionSource.Level(width: source.width, height: source.height, offset: 0)] + coarser
        maximumLevel = min(maximumLevel, levels.count - 1)
        // Rows are walked only across the image of the inked box, grown by what a tap at the coarsest
        // level picks up from beyond it (1.5 texels) plus a pixel.
        let grow = 1.5 * Double(1 << maximumLevel) + 1
        var reach: [PixelPoint] = []
        for corner in [PixelPoint(Double(source.inkMinX) - grow, Double(source.inkMinY) - grow),
                       PixelPoint(Double(source.inkMaxX) + grow, Double(source.inkMinY) - grow),
                       PixelPoint(Double(source.inkMaxX) + grow, Double(source.inkMaxY) + grow),
                       PixelPoint(Double(source.inkMinX) - grow, Double(source.inkMaxY) + grow)] {
            guard let p = transform.map(corner) else { reach = []; break }
            reach.append(p)
        }
        let imageWidth = image.width, originX = windowX, originY = windowY
        let kernel = ProjectedKernel(inverse: inverse, budget: budget, maximumLevel: maximumLevel, opacity: opacity,
                                     source: source)
        source.buffer.texels.withUnsafeBufferPointer { fine in
            coarseTexels.texels.withUnsafeBufferPointer { coarse in
                image.components.withUnsafeMutableBufferPointer { pixels in
                    let fineBase = fine.baseAddress!, coarseBase = coarse.baseAddress ?? fineBase, pixelBase = pixels.baseAddress!
                    Parallel.forEachRowRange(y1 - y0, minimumRowsPerChunk: 32) { rows in
                        for py in (y0 + rows.lowerBound)..<(y0 + rows.upperBound) {
                            var start = x0, end = x1
                            if let (low, high) = Self.rowExtent(of: reach, top: Double(py), bottom: Double(py + 1)) {
                                start = max(x0, Int(low.rounded(.down))); end = min(x1, Int(high.rounded(.down)) + 1)
                            } else if !reach.isEmpty {
                                continue
                            }
                            guard start < end else { continue }
                            kernel.row(py, from: start, to: end, levels: levels, level0: fineBase, coarser: coarseBase,
                                       pixels: pixelBase + ((py - originY) * imageWidth) * 4, originX: originX)
                        }
                    }
                }
            }
        }
    }

    /// Source pixels per canvas pixel along the canvas's x and y axes at canvas point (x, y), for the
    /// canvas → source map `inverse` (the lengths of its Jacobian's columns); infinite at or beyond
    /// the horizon.
    @inline(__always)
    static func projectedShrink(_ inverse: Homography, x: Double, y: Double) -> (Double, Double) {
        let r0 = inverse.row0, r1 = inverse.row1, r2 = inverse.row2
        let w = r2.x * x + r2.y * y + r2.z
        guard w > 1e-12 else { return (.infinity, .infinity) }
        let k = 1 / w
        let u = (r0.x * x + r0.y * y + r0.z) * k, v = (r1.x * x + r1.y * y + r1.z) * k
        let dux = (r0.x - u * r2.x) * k, duy = (r0.y - u * r2.y) * k
        let dvx = (r1.x - v * r2.x) * k, dvy = (r1.y - v * r2.y) * k
        return ((dux * dux + dvx * dvx).squareRoot(), (duy * duy + dvy * dvy).squareRoot())
    }

    /// The finest mip level at which an n×m grid of samples 4/3 texel apart or closer covers a pixel
    /// that spans `shrinkX`×`shrinkY` source pixels with n·m ≤ `budget`, and that grid (at
    /// `maximumLevel`, the grid is cut to 4×4 at most). The 0.01 keeps a pure rotation at one sample.
    static func projectedSampling(_ shrinkX: Double, _ shrinkY: Double, budget: Int, maximumLevel: Int)
        -> (level: Int, x: Int, y: Int) {
        // Beyond the horizon (infinite) or absurd scales: the coarsest level decides.
        let lx = shrinkX < 1e9 ? shrinkX : 1e9, ly = shrinkY < 1e9 ? shrinkY : 1e9
        var level = 0, scale = 1.0
        while true {
            let nx = max(1, Int((lx * scale * 0.75 - 0.01).rounded(.up))), ny = max(1, Int((ly * scale * 0.75 - 0.01).rounded(.up)))
            if nx * ny <= budget { return (level, nx, ny) }
            if level >= maximumLevel { return (level, min(nx, 4), min(ny, 4)) }
            level += 1; scale *= 0.5
        }
    }

    /// The x-extent of the convex polygon `polygon` (canvas pixels) between rows `top` and `bottom`,
    /// or nil when it does not reach that band.
    static func rowExtent(of polygon: [PixelPoint], top: Double, bottom: Double) -> (Double, Double)? {
        var low = Double.infinity, high = -Double.infinity
        for i in polygon.indices {
            let p = polygon[i], q = polygon[(i + 1) % polygon.count]
            let ya = min(p.y, q.y), yb = max(p.y, q.y)
            guard yb >= top, ya <= bottom else { continue }
            if p.y == q.y {
                low = min(low, p.x, q.x); high = max(high, p.x, q.x)
                continue
            }
            // The edge's x at the band's edges, clipped to the edge.
            let slope = (q.x - p.x) / (q.y - p.y)
            let xa = p.x + slope * (max(ya, top) - p.y), xb = p.x + slope * (min(yb, bottom) - p.y)
            low = min(low, xa, xb); high = max(high, xa, xb)
        }
        return low <= high ? (low, high) : nil
    }

    /// The plain reference for ``drawProjected(_:transform:opacity:)``, kept for tests to compare the
    /// fast path with: composites `source` mapped through `transform` (source continuous pixels →
    /// canvas continuous pixels), source-over, its alpha scaled by `opacity` (0…1).
    ///
    /// Sampling is bilinear in premultiplied alpha, outside the source transparent. Where the map
    /// shrinks the source (a canvas pixel covers more than one source pixel along an axis), each canvas
    /// pixel averages an n×m grid of samples of the full-resolution source, n and m up to
    /// `maximumSubsamples`, chosen once from the map's largest shrink over the source's corners. With a
    /// large `maximumSubsamples` (16) this is close to the box filter over each canvas pixel, the ground
    /// truth the fast path approximates. Draws nothing when a corner of the source maps behind the viewer.
    /// Cost: every pixel of the bounding box, n·m samples each, 4 taps per sample.
    public mutating func drawProjectedReference(_ source: RGBA8Image, transform: Homography, opacity: Float = 1,
                                                maximumSubsamples: Int = Canvas.maximumProjectedSubsamples) {
        guard source.width > 0, source.height > 0, let inverse = transform.inverse else { return }
        let sw = source.width, sh = source.height
        let corners = [PixelPoint(0, 0), PixelPoint(Double(sw), 0), PixelPoint(Double(sw), Double(sh)), PixelPoint(0, Double(sh))]
        var mapped: [PixelPoint] = []
        for corner in corners {
            guard let p = transform.map(corner) else { return }
            mapped.append(p)
        }
        let x0 = max(0, Int((mapped.map(\.x).min()! - 1).rounded(.down)))
        let x1 = min(width, Int((mapped.map(\.x).max()! + 1).rounded(.up)))
        let y0 = max(0, Int((mapped.map(\.y).min()! - 1).rounded(.down)))
        let y1 = min(height, Int((mapped.map(\.y).max()! + 1).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        // Source pixels per canvas pixel along each canvas axis, largest over the corners.
        var shrinkX = 0.0, shrinkY = 0.0
        for p in mapped {
            guard let s = inverse.map(p), let sx = inverse.map(PixelPoint(p.x + 1, p.y)),
                  let sy = inverse.map(PixelPoint(p.x, p.y + 1)) else { continue }
            shrinkX = max(shrinkX, (sx - s).length)
            shrinkY = max(shrinkY, (sy - s).length)
        }
        // The 0.01 keeps a pure rotation (shrink exactly 1 up to rounding) at one sample.
        let limit = max(1, maximumSubsamples)
        let nx = min(limit, max(1, Int((shrinkX - 0.01).rounded(.up))))
        let ny = min(limit, max(1, Int((shrinkY - 0.01).rounded(.up))))
        var patch = RGBA8Image(width: x1 - x0, height: y1 - y0)
        // Samples lie within half a canvas pixel of the centre; taps one source pixel beyond them.
        let reach = (shrinkX + shrinkY) + 2
        Self.resampleProjected(source, inverse: inverse, subsamples: (nx, ny), reach: reach, originX: x0, originY: y0, into: &patch)
        draw(patch, x: x0, y: y0, opacity: opacity)
    }

    /// Fills `patch` (straight alpha), whose top-left pixel is canvas pixel (`originX`, `originY`),
    /// with `source` seen through `inverse` (canvas → source), averaging `subsamples` per pixel.
    /// `reach` bounds, in source pixels, how far from a pixel's centre its samples' bilinear taps go.
    static func resampleProjected(_ source: RGBA8Image, inverse: Homography, subsamples: (x: Int, y: Int), reach: Double,
                                  originX: Int, originY: Int, into patch: inout RGBA8Image) {
        let sw = source.width, sh = source.height, pw = patch.width, ph = patch.height
        let r0 = inverse.row0, r1 = inverse.row1, r2 = inverse.row2
        let count = Double(subsamples.x * subsamples.y)
        source.components.withUnsafeBufferPointer { src in
            patch.components.withUnsafeMutableBufferPointer { dst in
                for py in 0..<ph {
                    for px in 0..<pw {
                        // Early out: a pixel whose centre maps farther outside the source than its
                        // footprint reaches cannot pick anything up (most of a slanted label's box).
                        let cx = Double(originX + px) + 0.5, cy = Double(originY + py) + 0.5
                        let cw = r2.x * cx + r2.y * cy + r2.z
                        if cw > 1e-12 {
                            let u = (r0.x * cx + r0.y * cy + r0.z) / cw, v = (r1.x * cx + r1.y * cy + r1.z) / cw
                            if u < -reach || v < -reach || u > Double(sw) + reach || v > Double(sh) + reach { continue }
                        }
                        var acc = SIMD4<Double>(repeating: 0)
                        for j in 0..<subsamples.y {
                            let y = Double(originY + py) + (Double(j) + 0.5) / Double(subsamples.y)
                            for i in 0..<subsamples.x {
                                let x = Double(originX + px) + (Double(i) + 0.5) / Double(subsamples.x)
                                let w = r2.x * x + r2.y * y + r2.z
                                guard w > 1e-12 else { continue }
                                // Continuous source position, then to pixel-index space (centres at integers).
                                let u = (r0.x * x + r0.y * y + r0.z) / w - 0.5
                                let v = (r1.x * x + r1.y * y + r1.z) / w - 0.5
                                guard u > -1, v > -1, u < Double(sw), v < Double(sh) else { continue }
                                let iu = Int(u.rounded(.down)), iv = Int(v.rounded(.down))
                                let fu = u - Double(iu), fv = v - Double(iv)
                                @inline(__always) func add(_ sx: Int, _ sy: Int, _ weight: Double) {
                                    guard sx >= 0, sy >= 0, sx < sw, sy < sh, weight > 0 else { return }
                                    let k = (sy * sw + sx) * 4
                                    let a = Double(src[k + 3]) / 255
                                    acc += SIMD4(Double(src[k]) * a, Double(src[k + 1]) * a, Double(src[k + 2]) * a, a) * weight
                                }
                                add(iu, iv, (1 - fu) * (1 - fv)); add(iu + 1, iv, fu * (1 - fv))
                                add(iu, iv + 1, (1 - fu) * fv); add(iu + 1, iv + 1, fu * fv)
                            }
                        }
                        acc /= count
                        guard acc.w > 1e-4 else { continue }
                        let o = (py * pw + px) * 4
                        dst[o] = UInt8(min(255, (acc.x / acc.w).rounded()))
                        dst[o + 1] = UInt8(min(255, (acc.y / acc.w).rounded()))
                        dst[o + 2] = UInt8(min(255, (acc.z / acc.w).rounded()))
                        dst[o + 3] = UInt8(min(255, (acc.w * 255).rounded()))
                    }
                }
            }
        }
    }
}

/// The per-row work of ``Canvas/drawProjected(_:transform:opacity:)``: set up once per call, no
/// allocation per pixel.
struct ProjectedKernel: Sendable {
    let r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>
    let budget: Int, maximumLevel: Int
    let opacity: Float
    /// The source's inked box, level-0 pixels.
    let inkMinX: Float, inkMinY: Float, inkMaxX: Float, inkMaxY: Float
    /// Pixels per span sharing one choice of level and grid.
    static let spanLength = 8
    /// Levels built at least, so that pixels far from ink (up to 2^5 source pixels) are skipped after
    /// a look at a few texels.
    static let occupancyLevels = 5

    init(inverse: Homography, budget: Int, maximumLevel: Int, opacity: Float, source: ProjectionSource) {
        r0 = inverse.row0; r1 = inverse.row1; r2 = inverse.row2
        inkMinX = Float(source.inkMinX); inkMinY = Float(source.inkMinY)
        inkMaxX = Float(source.inkMaxX); inkMaxY = Float(source.inkMaxY)
        self.budget = budget; self.maximumLevel = maximumLevel; self.opacity = opacity
    }

    /// The bilinear sample at (`u`, `v`) in texel-index space (texel centres at integers), each in
    /// (-1, size): premultiplied, 0…255.
    @inline(__always)
    static func bilinear(_ base: UnsafePointer<SIMD4<Float>>, stride: Int, u: Float, v: Float) -> SIMD4<Float> {
        // u, v > -1, so truncation after adding 1 is the floor.
        let iu = Int32(u + 1) &- 1, iv = Int32(v + 1) &- 1
        let fu = u - Float(iu), fv = v - Float(iv)
        let t = base + (Int(iv) + 1) * stride + (Int(iu) + 1)
        let top = t[0] + (t[1] - t[0]) * fu
        let bottom = t[stride] + (t[stride + 1] - t[stride]) * fu
        return top + (bottom - top) * fv
    }

    /// Composites pixels `start..<end` of canvas row `py` (`pixels` points at the row's first pixel, which
    /// is picture column `originX`).
    /// `levels[0]` lies in `level0`, the others in `coarser`.
    func row(_ py: Int, from start: Int, to end: Int, levels: [ProjectionSource.Level],
             level0: UnsafePointer<SIMD4<Float>>, coarser: UnsafePointer<SIMD4<Float>>, pixels: UnsafeMutablePointer<UInt8>,
             originX: Int = 0) {
        let y = Double(py)
        var spanStart = start
        while spanStart < end {
            let spanEnd = min(end, spanStart + Self.spanLength)
            // One choice of level and grid for the span, from the scale at its middle.
            let middle = Double(spanStart + spanEnd) / 2
            let (shrinkX, shrinkY) = Canvas.projectedShrink(Homography(r0, r1, r2), x: middle, y: y + 0.5)
            let (level, nx, ny) = Canvas.projectedSampling(shrinkX, shrinkY, budget: budget, maximumLevel: maximumLevel)
            let l = levels[level]
            let levelScale = 1 / Double(1 << level)
            let levelWidthF = Float(l.width), levelHeightF = Float(l.height), stride = l.stride
            let base = (level == 0 ? level0 : coarser) + l.offset
            let stepX = 1 / Double(nx), stepY = 1 / Double(ny)
            // Premultiplied 0…255 sums → premultiplied 0…1 source, opacity applied.
            let normalise = opacity / (255 * Float(nx * ny))
            // Linear within a pixel: samples are the centre plus the Jacobian times their offset, when
            // the weight varies by under 2 % across the pixel (the error is that fraction of the
            // footprint); nearer the horizon every sample is projected exactly.
            let linearWeight = 50 * (abs(r2.x) + abs(r2.y))
            let tapReach = Float(1.5 * Double(1 << level) + 1)
            for px in spanStart..<spanEnd {
                let cx = Double(px) + 0.5, cy = y + 0.5
                let hw = r2.x * cx + r2.y * cy + r2.z
                var acc = SIMD4<Float>(repeating: 0)
                if hw > linearWeight {
                    let k = 1 / hw
                    let u = (r0.x * cx + r0.y * cy + r0.z) * k, v = (r1.x * cx + r1.y * cy + r1.z) * k
                    // Source pixels per canvas pixel, at level 0.
                    let dux = Float((r0.x - u * r2.x) * k), duy = Float((r0.y - u * r2.y) * k)
                    let dvx = Float((r1.x - v * r2.x) * k), dvy = Float((r1.y - v * r2.y) * k)
                    // Nothing within reach of the pixel's samples and their taps: skip it.
                    let reachU = 0.5 * (abs(dux) + abs(duy)) + tapReach, reachV = 0.5 * (abs(dvx) + abs(dvy)) + tapReach
                    let fu = Float(u), fv = Float(v)
                    if fu < inkMinX - reachU || fu > inkMaxX + reachU || fv < inkMinY - reachV || fv > inkMaxY + reachV { continue }
                    // Nor in the blocks of the first level whose texels are wider than that reach (a
                    // texel's alpha is 0 only when its whole block is): at most 2×2 texels to look at.
                    let reach = max(reachU, reachV)
                    let blockLevel = reach < 1e6 ? Int((2 * reach).exponent) + 1 : Int.max
                    if blockLevel < levels.count {
                        let b = levels[blockLevel], inverseSize = 1 / Float(1 << blockLevel)
                        let i0 = Int(max(-1, min(Float(b.width), ((fu - reach) * inverseSize).rounded(.down))))
                        let i1 = Int(max(-1, min(Float(b.width), ((fu + reach) * inverseSize).rounded(.down))))
                        let j0 = Int(max(-1, min(Float(b.height), ((fv - reach) * inverseSize).rounded(.down))))
                        let j1 = Int(max(-1, min(Float(b.height), ((fv + reach) * inverseSize).rounded(.down))))
                        let t = (blockLevel == 0 ? level0 : coarser) + b.offset
                        if t[(j0 + 1) * b.stride + i0 + 1].w == 0 && t[(j0 + 1) * b.stride + i1 + 1].w == 0
                            && t[(j1 + 1) * b.stride + i0 + 1].w == 0 && t[(j1 + 1) * b.stride + i1 + 1].w == 0 { continue }
                    }
                    // At this level, in texel-index space (texel centres at integers).
                    let scale = Float(levelScale)
                    let sx = Float(stepX), sy = Float(stepY)
                    let firstX = 0.5 * sx - 0.5, firstY = 0.5 * sy - 0.5
                    var rowU = (fu + dux * firstX + duy * firstY) * scale - 0.5
                    var rowV = (fv + dvx * firstX + dvy * firstY) * scale - 0.5
                    let stepUX = dux * sx * scale, stepVX = dvx * sx * scale, stepUY = duy * sy * scale, stepVY = dvy * sy * scale
                    for _ in 0..<ny {
                        var su = rowU, sv = rowV
                        for _ in 0..<nx {
                            defer { su += stepUX; sv += stepVX }
                            guard su > -1, sv > -1, su < levelWidthF, sv < levelHeightF else { continue }
                            acc += Self.bilinear(base, stride: stride, u: su, v: sv)
                        }
                        rowU += stepUY; rowV += stepVY
                    }
                } else {
                    for j in 0..<ny {
                        let sy = y + (Double(j) + 0.5) * stepY, sx = Double(px) + 0.5 * stepX
                        // Numerators and weight are linear in x: step them across the row of samples.
                        var hu = r0.x * sx + r0.y * sy + r0.z, hv = r1.x * sx + r1.y * sy + r1.z
                        var hw = r2.x * sx + r2.y * sy + r2.z
                        let du = r0.x * stepX, dv = r1.x * stepX, dw = r2.x * stepX
                        for _ in 0..<nx {
                            defer { hu += du; hv += dv; hw += dw }
                            guard hw > 1e-12 else { continue }
                            let k = levelScale / hw
                            let u = Float(hu * k - 0.5), v = Float(hv * k - 0.5)
                            guard u > -1, v > -1, u < levelWidthF, v < levelHeightF else { continue }
                            acc += Self.bilinear(base, stride: stride, u: u, v: v)
                        }
                    }
                }
                let s = acc * normalise
                guard s.w > 1e-4 * opacity else { continue }
                let p = pixels + (px - originX) * 4
                storeStraight(NormalKernel.blend(s, loadPremultiplied(p)), p)
            }
            spanStart = spanEnd
        }
    }
}
