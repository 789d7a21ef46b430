import Dispatch
import Foundation
import Geodesy
import Imaging
import Parallelism

/// The depth warp of a move, done along epipolar great circles.
///
/// A camera moving along a straight line sees every point move along the great circle through the
/// point and the line's two ends on the sphere (the epipoles): the half-plane through the line and
/// the point. Each end's panorama is resampled once, when the move is set up, into an equirectangular
/// grid whose pole is the direction of travel (``pole``): a column (meridian) is one such half-plane,
/// sampled from the pole (θ = 0) to the opposite one (θ = π). A sample at polar angle θ and range r
/// is `r sin θ` from the line and `r cos θ` along it; seen from `s` metres along the line, its cotangent
/// becomes `cot θ − s / (r sin θ)`. So a frame warps each meridian on its own, in one dimension: per
/// sample one multiply-add and an arctangent, no z-buffer. Samples are drawn in McMillan's
/// occlusion-compatible order (towards the epipole the new camera lies on: what is drawn later is
/// nearer wherever two land together), each at its nearest row, and between two consecutive samples
/// on one surface (inverse ranges within the depth map's
/// ``PanoramaDepthMap/continuityToleranceInverseMeters``, scaled to the grid's spacing) every row they
/// span is drawn, interpolated: a surface seen nearer or more squarely than it was captured stretches
/// without holes, and gaps open only where a nearer surface uncovers a farther one.
///
/// Both ends share the grid, so the two warped meridians are blended sample by sample (as
/// ``PanoramaTransition`` describes) and disocclusions are filled along the meridian — the epipolar
/// line, the direction in which they open — from the farther side. The view is then looked up in the
/// blended grid: per view pixel, its direction's polar angle and meridian, and a bilinear tap (the taps
/// kept while the camera does not change).
///
/// A frame touches only the meridians and polar angles its view can show (from its outline, with
/// the poles when they are in view; near a pole in view, where meridians crowd, only every 2nd, 4th…
/// one, as far apart as the view's pixels), and of each meridian only the 16-sample chunks whose
/// samples can land there (from the chunk's nearest and farthest distance from the line); a chunk
/// whose samples all land within a few rows, two or more to a row, is drawn sparse (every other
/// sample). Meridians are shared between the cores; each one's two ends, blend and fill stay in its
/// core's first-level cache.
struct EpipolarWarp: Sendable {
    /// One end resampled into the move's grid, meridian by meridian (`i × samples + j`).
    struct End: Sendable {
        /// Per sample: 1 / (range × sin θ), the inverse distance from the line of travel, 1/metres
        /// (and seven zeros, so that four can be loaded from any sample, or every other of eight).
        let inverseRadial: [Float]
        /// Per sample: the colour (R lowest byte); the top byte is non-zero (``connected``) when the
        /// sample and the next one down the meridian (j + 1) lie on one surface.
        let colors: [UInt32]
        /// Per meridian, per chunk of ``chunkSamples``: the smallest and largest ``inverseRadial``.
        let chunkBounds: [SIMD2<Float>]
        /// The camera centre, metres along the line of travel from the move's start.
        let offset: Double
    }

    /// The direction of travel (θ = 0), east-north-up, unit length.
    let pole: SIMD3<Double>
    /// θ = π/2 on meridian φ = 0 and on φ = π/2: world up made perpendicular to the pole (north when
    /// the move is vertical), and pole × that.
    let first: SIMD3<Double>, second: SIMD3<Double>
    /// Meridians (φ of meridian i: (i + 0.5) · 2π / meridians) and samples on each (θ of sample j:
    /// (j + 0.5) · π / samples): the first end's panorama size.
    let meridians: Int, samples: Int
    /// The move's length, metres.
    let length: Double
    let from: End, to: End
    /// cot θ of each sample row (and seven zeros, as ``End/inverseRadial``).
    let cotangents: [Float]

    /// The flag of ``End/colors`` that joins a sample to the next.
    static let connected: UInt32 = 0xFF00_0000
    /// cot(k · π / samples) for k = 0…samples: the cotangents of the rows' boundaries (±∞ at the poles).
    let boundaryCotangents: [Float]

    /// The samples in a chunk of a meridian (whose bounds decide whether a frame visits it).
    static let chunkSamples = 16
    /// The most grid samples one pair of consecutive samples is stretched over; beyond it they are
    /// taken for two surfaces (a wall seen edge-on at capture, which another end sees better).
    static let maximumStretchSamples: Float = 16
    /// How far past a meridian's rows a sample may land and still be drawn onto them (stretched to a
    /// neighbour there), samples.
    static let landingReachSamples = Int(maximumStretchSamples) + 1
    /// A chunk whose samples all land within this many rows is drawn sparse (every other sample): at
    /// least two land on a row, where one is seen (an end seen from farther than it was captured, as
    /// the end ahead is from behind it: on the benchmark's frame its samples drawn fell from 767 k to
    /// 555 k, and the ground-truth PSNR was unchanged to a tenth of a dB). Negative: never sparse.
    var sparseLandingRows: Float = 8
    /// The farthest a hole is filled from along its meridian, samples.
    static let maximumFillSamples = 64

    /// Resamples both ends into the grid of the move from `a` to `b` (both with depth maps).
    init(from a: PanoramaTransition.Endpoint, depth depthA: PanoramaDepthMap, to b: PanoramaTransition.Endpoint, depth depthB: PanoramaDepthMap) {
        let delta = SIMD3(b.position.east - a.position.east, b.position.north - a.position.north, b.position.up - a.position.up)
        let distance = (delta * delta).sum().squareRoot()
        length = distance
        // A move of no length has no direction: any pole will do (every sample stays put).
        let pole = distance > 1e-6 ? delta / distance : SIMD3(0, 1, 0)
        let up = abs(pole.z) < 0.9 ? SIMD3<Double>(0, 0, 1) : SIMD3<Double>(0, 1, 0)
        var first = up - pole * (up * pole).sum()
        first /= (first * first).sum().squareRoot()
        self.pole = pole
        self.first = first
        second = SIMD3(pole.y * first.z - pole.z * first.y, pole.z * first.x - pole.x * first.z, pole.x * first.y - pole.y * first.x)
        meridians = a.image.width
        samples = a.image.height
        let samples = self.samples
        cotangents = (0..<samples).map { j in
            let theta = (Double(j) + 0.5) * .pi / Double(samples)
            return Float(cos(theta) / sin(theta))
        } + [Float](repeating: 0, count: 7)
        boundaryCotangents = (0...samples).map { k in
            k == 0 ? .infinity : k == samples ? -.infinity : Float(1 / tan(Double(k) * .pi / Double(samples)))
        }
        var ends: [End?] = [nil, nil]
        let axes = (pole, first, self.second), meridians = self.meridians
        ends.withUnsafeMutableBufferPointer { out in
            nonisolated(unsafe) let out = out
            let sources = [(a, depthA, 0.0), (b, depthB, distance)]
            DispatchQueue.concurrentPerform(iterations: 2) { k in
                out[k] = Self.resample(sources[k].0, depth: sources[k].1, offset: sources[k].2, axes: axes, meridians: meridians, samples: samples)
            }
        }
        from = ends[0]!
        to = ends[1]!
    }

    /// Samples `end`'s panorama (bilinear colour) and depth map (``inverseRange(_:width:height:tolerance:x:y:)``;
    /// sky at ``PanoramaTransition/skyDistanceMeters``) at every grid position, and marks which
    /// neighbours down a meridian lie on one surface.
    private static func resample(_ end: PanoramaTransition.Endpoint, depth: PanoramaDepthMap, offset: Double,
                                 axes frame: (pole: SIMD3<Double>, first: SIMD3<Double>, second: SIMD3<Double>),
                                 meridians: Int, samples: Int) -> End {
        let (pole, first, second) = frame
        let count = meridians * samples
        let chunks = (samples + chunkSamples - 1) / chunkSamples
        var inverseRadial = [Float](repeating: 0, count: count + 7)
        var colors = [UInt32](repeating: 0, count: count)
        var bounds = [SIMD2<Float>](repeating: .zero, count: meridians * chunks)
        let axes = ViewProjection.axes(of: end.pose)
        let f = SIMD3(axes.forward.east, axes.forward.north, axes.forward.up)
        let r = SIMD3(axes.right.east, axes.right.north, axes.right.up)
        let u = SIMD3(axes.up.east, axes.up.north, axes.up.up)
        let width = end.image.width, height = end.image.height
        let scale = Float(depth.width) / Float(width), depthTolerance = Float(depth.continuityToleranceInverseMeters)
        let sky = Double(PanoramaTransition.skyDistanceMeters)
        let step = Double.pi / Double(samples)
        // The depth map's tolerance is for neighbours one of its pixels (× √2) apart; grid samples
        // are `step` apart.
        let tolerance = depth.continuityToleranceInverseMeters * step / (2.0.squareRoot() * 2 * .pi / Double(depth.width))
        // 1 / sin θ per row, and the sky's inverse distance from the line there.
        let inverseSines = (0..<samples).map { 1 / sin((Double($0) + 0.5) * step) }
        let skyRadial = inverseSines.map { Float($0 / sky) }
        // The depth map as inverse ranges (0 for sky and for no value), once: each grid sample reads four.
        let inverseTable = depth.image.components.map { value in
            value == DepthEncoding.skyValue || value == 0 ? 0 : Float(1 / DepthEncoding.metersPerUnit) / Float(value)
        }
        // Single precision, three past the end (read by the last four).
        let cosines = (0..<(samples + 3)).map { Float(cos((Double($0) + 0.5) * step)) }
        let floatSines = (0..<(samples + 3)).map { Float(sin((Double($0) + 0.5) * step)) }
        inverseTable.withUnsafeBufferPointer { inverses in
        end.image.pixels.withUnsafeBufferPointer { pixelBuffer in
            let pixels = pixelBuffer.baseAddress!
            inverseRadial.withUnsafeMutableBufferPointer { qs in
                colors.withUnsafeMutableBufferPointer { cs in
                    bounds.withUnsafeMutableBufferPointer { bs in
                        // One end per core: its meridians in turn.
                        var inverseRanges = [Double](repeating: 0, count: samples)
                        for i in 0..<meridians {
                            let phi = (Double(i) + 0.5) * 2 * .pi / Double(meridians)
                            let across = first * cos(phi) + second * sin(phi)
                            // Each direction's components along the pose's forward, right and up are
                            // c · cos θ + s · sin θ; longitude and latitude four samples at a time.
                            let cf = Float((pole * f).sum()), sf = Float((across * f).sum())
                            let cr = Float((pole * r).sum()), sr = Float((across * r).sum())
                            let cu = Float((pole * u).sum()), su = Float((across * u).sum())
                            var j = 0
                            while j < samples {
                                let cosine = SIMD4<Float>(cosines[j], cosines[j + 1], cosines[j + 2], cosines[j + 3])
                                let sine = SIMD4<Float>(floatSines[j], floatSines[j + 1], floatSines[j + 2], floatSines[j + 3])
                                let vf = cosine * cf + sine * sf, vr = cosine * cr + sine * sr, vu = cosine * cu + sine * su
                                let longitude = Self.atan2Lanes(vr, vf), latitude = Self.atan2Lanes(vu, (vf * vf + vr * vr).squareRoot())
                                let xs = Float(width) / 2 + longitude * (Float(width) / (2 * .pi))
                                let ys = (Float.pi / 2 - latitude) * (Float(height) / .pi)
                                for lane in 0..<min(4, samples - j) {
                                    let x = xs[lane], y = ys[lane], jj = j + lane
                                    let inverse = Self.inverseRange(inverses, width: depth.width, height: depth.height, tolerance: depthTolerance,
                                                                    x: x * scale, y: y * scale)
                                    inverseRanges[jj] = Double(inverse)
                                    let k = i * samples + jj
                                    qs[k] = inverse > 0 ? Float(Double(inverse) * inverseSines[jj]) : skyRadial[jj]
                                    // Pixel centres at integers, in 32.32 fixed point.
                                    let u = Int((x - 0.5) * 4_294_967_296), v = Int((y - 0.5) * 4_294_967_296)
                                    cs[k] = PanoramaImage.pack(ViewRenderer.bilinearSpread(pixels, width, height, u, v)) & 0x00FF_FFFF
                                }
                                j += 4
                            }
                            for j in 0..<(samples - 1) {
                                let a = inverseRanges[j], b = inverseRanges[j + 1]
                                if (a == 0 && b == 0) || (a > 0 && b > 0 && abs(a - b) <= tolerance) { cs[i * samples + j] |= Self.connected }
                            }
                            for c in 0..<chunks {
                                var low = Float.infinity, high: Float = 0
                                for j in (c * Self.chunkSamples)..<min(samples, (c + 1) * Self.chunkSamples) {
                                    low = min(low, qs[i * samples + j]); high = max(high, qs[i * samples + j])
                                }
                                bs[i * chunks + c] = SIMD2(low, high)
                            }
                        }
                    }
                }
            }
        }
        }
        return End(inverseRadial: inverseRadial, colors: colors, chunkBounds: bounds, offset: offset)
    }

    /// ``PanoramaDepthMap/rangeMeters(x:y:)`` in single precision, as an inverse range (1/metres; 0 for
    /// sky), from the map's inverse ranges (`inverses`, 0 for sky): those of the four pixels round the
    /// position (0 ≤ x ≤ width) that lie on the nearest one's surface (within `tolerance`, the map's
    /// continuity tolerance), interpolated. Set-up takes it at 2 M positions an end: calling the
    /// double-precision original instead (its nine divisions a position) was measured 40–60 ms slower
    /// a move, and dividing per tap instead of reading a table of inverses (made once an end) cost
    /// about a fifth of the set-up's instructions.
    @inline(__always)
    static func inverseRange(_ inverses: UnsafeBufferPointer<Float>, width: Int, height: Int, tolerance: Float, x: Float, y: Float) -> Float {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = floorInt(fx), y0 = floorInt(fy)
        let tx = fx - Float(x0), ty = fy - Float(y0)
        // Columns are within two of the map: one turn at most either way; rows clamp.
        var c0 = x0, c1 = x0 + 1
        if c0 < 0 { c0 += width } else if c0 >= width { c0 -= width }
        if c1 < 0 { c1 += width } else if c1 >= width { c1 -= width }
        let d = inverses.baseAddress!
        let r0 = d + max(0, min(height - 1, y0)) &* width, r1 = d + max(0, min(height - 1, y0 + 1)) &* width
        let v00 = r0[c0], v10 = r0[c1], v01 = r1[c0], v11 = r1[c1]
        let nearest = ty < 0.5 ? (tx < 0.5 ? v00 : v10) : (tx < 0.5 ? v01 : v11)
        guard nearest > 0 else { return 0 }
        var weighted: Float = 0, weights: Float = 0
        @inline(__always) func tap(_ v: Float, _ weight: Float) {
            guard v > 0, abs(v - nearest) <= tolerance else { return }
            weighted += weight * v
            weights += weight
        }
        tap(v00, (1 - tx) * (1 - ty))
        tap(v10, tx * (1 - ty))
        tap(v01, (1 - tx) * ty)
        tap(v11, tx * ty)
        return weighted / weights
    }

    // MARK: Frames

    /// The part of the grid a view needs: meridians `firstMeridian ..< firstMeridian + meridianCount`
    /// (modulo ``meridians``), each its own rows (`meridianRows`, `x..<y`), all within `rows`.
    struct Region {
        var rows: Range<Int>, firstMeridian: Int, meridianCount: Int
        var meridianRows: [SIMD2<Int32>]
        /// Per row of `rows` (and one more), the level the view is looked up at: every 2^level-th
        /// meridian (the coarser of the row's and the next one's). All 0 unless the region has every
        /// meridian.
        var lookupLevels: [Int32]
    }

    /// The meridians and rows `camera`'s view can show, from its outline (64 directions per edge:
    /// each stretch of it bounds the rows of the meridians it crosses) and the poles (a pole in view
    /// puts row 0, or the last, on every meridian), with two samples' margin (bilinear taps) and the
    /// meridians either side.
    func region(camera: ViewCamera) -> Region {
        let (f, r, u) = camera.basis
        let forward = SIMD3(f.east, f.north, f.up), right = SIMD3(r.east, r.north, r.up), up = SIMD3(u.east, u.north, u.up)
        let focal = camera.focalLengthPixels, w = Double(camera.width), h = Double(camera.height)
        func inView(_ d: SIMD3<Double>) -> Bool {
            let z = (d * forward).sum()
            guard z > 0 else { return false }
            let x = w / 2 + focal * (d * right).sum() / z, y = h / 2 - focal * (d * up).sum() / z
            return x >= 0 && x <= w && y >= 0 && y <= h
        }
        let poleInView = inView(pole), antipoleInView = inView(-pole)
        let perSample = Double(samples) / .pi, perMeridian = Double(meridians) / (2 * .pi)
        // The outline as (row, meridian) positions, the meridian unwrapped along it.
        let perEdge = 64
        var outline: [SIMD2<Double>] = []
        outline.reserveCapacity(4 * perEdge)
        var previousPhi = 0.0, unwrap = 0.0
        for k in 0..<(4 * perEdge) {
            let edge = k / perEdge, s = Double(k % perEdge) / Double(perEdge)
            let (x, y) = edge == 0 ? (s * w, 0) : edge == 1 ? (w, s * h) : edge == 2 ? ((1 - s) * w, h) : (0, (1 - s) * h)
            let d = forward * focal + right * (x - w / 2) - up * (y - h / 2)
            let along = (d * pole).sum(), a = (d * first).sum(), b = (d * second).sum()
            let theta = atan2((a * a + b * b).squareRoot(), along), phi = atan2(b, a)
            if k > 0 {
                if phi - previousPhi > .pi { unwrap -= 2 * .pi } else if phi - previousPhi < -.pi { unwrap += 2 * .pi }
            }
            previousPhi = phi
            outline.append(SIMD2(theta * perSample - 0.5, (phi + unwrap) * perMeridian - 0.5))
        }
        var lowest = outline.map(\.x).min() ?? 0, highest = outline.map(\.x).max() ?? 0
        if poleInView { lowest = -0.5 }
        if antipoleInView { highest = Double(samples) - 0.5 }
        let rows = max(0, Int(lowest.rounded(.down)) - 2)..<min(samples, Int(highest.rounded(.up)) + 3)
        // Meridians: all when a pole is in view (the outline winds round it), else the outline's span.
        var firstMeridian = 0, count = meridians
        if !poleInView && !antipoleInView {
            let low = outline.map(\.y).min() ?? 0, high = outline.map(\.y).max() ?? 0
            let firstIndex = Int(low.rounded(.down)) - 2, lastIndex = Int(high.rounded(.up)) + 3
            if lastIndex - firstIndex < meridians {
                firstMeridian = ((firstIndex % meridians) + meridians) % meridians
                count = lastIndex - firstIndex
            }
        }
        // Each meridian's rows: the least and greatest row of every stretch of outline that comes
        // within a meridian of it.
        var low = [Double](repeating: .infinity, count: count), high = [Double](repeating: -.infinity, count: count)
        for k in 0..<outline.count {
            let p = outline[k], q = outline[(k + 1) % outline.count]
            var qy = q.y
            // The closing stretch of an outline round a pole jumps by a full turn: take it back.
            if qy - p.y > Double(meridians) / 2 { qy -= Double(meridians) } else if p.y - qy > Double(meridians) / 2 { qy += Double(meridians) }
            let a = Int(min(p.y, qy).rounded(.down)) - 1, b = Int(max(p.y, qy).rounded(.up)) + 1
            let top = min(p.x, q.x), bottom = max(p.x, q.x)
            for m in a...b {
                let index = (((m - firstMeridian) % meridians) + meridians) % meridians
                guard index < count else { continue }
                low[index] = min(low[index], top)
                high[index] = max(high[index], bottom)
            }
        }
        // Near a pole in view meridians crowd: there every 2nd, 4th… meridian is as close as the
        // view's pixels (the rows' levels), and a meridian is warped only on the rows whose level its
        // index is a multiple of 2^level of.
        let levels = count == meridians ? rowLevels(camera: camera, rows: rows) : [Int32](repeating: 0, count: rows.count + 1)
        var lookupLevels = levels
        for k in 0..<rows.count { lookupLevels[k] = max(levels[k], levels[k + 1]) }
        // Per level, the rows a meridian of that level (or coarser) is needed on: from the first row
        // of at most that level to the last (levels fall away from the poles).
        var needed: [Range<Int>] = []
        for level in 0...Self.coarsestLookupLevel {
            let first = lookupLevels.firstIndex { $0 <= Int32(level) } ?? rows.count
            let last = lookupLevels.lastIndex { $0 <= Int32(level) } ?? -1
            // Rows k and k + 1 are read at lookupLevels[k]: a row is needed through the pair before it too.
            needed.append((rows.lowerBound + first)..<(rows.lowerBound + max(first, min(rows.count, last + 2))))
        }
        let meridianRows = (0..<count).map { m -> SIMD2<Int32> in
            guard low[m] <= high[m] || poleInView || antipoleInView else { return SIMD2(Int32(rows.lowerBound), Int32(rows.lowerBound)) }
            var top = poleInView ? rows.lowerBound : max(rows.lowerBound, Int(low[m].rounded(.down)) - 2)
            var bottom = antipoleInView ? rows.upperBound : min(rows.upperBound, Int(high[m].rounded(.up)) + 3)
            if count == meridians {
                let i = (firstMeridian + m) % meridians
                let level = i == 0 ? Self.coarsestLookupLevel : min(Self.coarsestLookupLevel, i.trailingZeroBitCount)
                top = max(top, needed[level].lowerBound)
                bottom = min(bottom, needed[level].upperBound)
            }
            return SIMD2(Int32(top), Int32(max(top, bottom)))
        }
        return Region(rows: rows, firstMeridian: firstMeridian, meridianCount: count, meridianRows: meridianRows, lookupLevels: lookupLevels)
    }

    /// The coarsest lookup level: every 16th meridian.
    static let coarsestLookupLevel = 4

    /// Per row of `rows` and one past: the largest level (0…``coarsestLookupLevel``) at which every
    /// 2^level-th meridian is at most as far apart as the view's pixels there. A view pixel at θ from
    /// the pole (or the opposite pole) is at most the pole's angle from the view's axis plus θ off
    /// the axis (capped at its corners'), and such a pixel subtends at least cos² of that angle over
    /// the focal length.
    func rowLevels(camera: ViewCamera, rows: Range<Int>) -> [Int32] {
        let (f, _, _) = camera.basis
        let forward = SIMD3(f.east, f.north, f.up)
        let focal = camera.focalLengthPixels
        let corner = atan((Double(camera.width * camera.width + camera.height * camera.height)).squareRoot() / 2 / focal)
        let poleAngle = acos(max(-1, min(1, (forward * pole).sum())))
        let spacing = 2 * Double.pi / Double(meridians), step = Double.pi / Double(samples)
        return (rows.lowerBound...rows.upperBound).map { k -> Int32 in
            // The row's edge farther from its nearer pole, and that pole's angle from the axis.
            let nearPole = Double(k) < Double(samples) / 2
            let theta = nearPole ? Double(k + 1) * step : Double(samples - k + 1) * step
            let axis = nearPole ? poleAngle : Double.pi - poleAngle
            let angle = min(axis + theta, corner)
            let pixel = cos(angle) * cos(angle) / focal, apart = spacing * sin(min(theta, .pi / 2))
            var level: Int32 = 0
            while level < Int32(Self.coarsestLookupLevel), apart * Double(2 << level) <= pixel { level += 1 }
            return level
        }
    }

    /// Per-frame buffers, reused: the blended grid of the region (meridian by meridian, each
    /// `region.rows.count` long), and the last camera's region and lookup taps.
    struct Scratch {
        var grid: [UInt32] = []
        var lookup: Lookup?
    }

    /// What a camera's view looks up in the grid, whatever the fraction: its region, and per view
    /// pixel (row by row) its bilinear tap. A camera that does not turn between frames (a walk along
    /// a straight street) looks up where the frame before did.
    struct Lookup {
        let camera: ViewCamera
        let region: Region
        var taps: [Tap]
    }

    /// A view pixel's tap: the grid offsets of its rows k0 and k0 + 1 on meridians m0 and m1 (each
    /// pair adjacent in the grid), and its fractions (of 256) between the rows and between the meridians.
    struct Tap {
        var first: Int32, second: Int32, rowFraction: UInt16, meridianFraction: UInt16
    }

    /// One frame: the view of `camera` at `fraction` of the way, into `output` (the camera's size).
    func render(fraction t: Float, camera: ViewCamera, occlusionTolerance: Float, scratch: inout Scratch, into output: inout RGB8Image) {
        if scratch.lookup?.camera != camera {
            // A new camera's taps go into the last one's memory (every entry is written).
            var taps = scratch.lookup?.taps ?? []
            scratch.lookup = nil
            let region = self.region(camera: camera)
            fillTaps(&taps, region: region, camera: camera)
            scratch.lookup = Lookup(camera: camera, region: region, taps: taps)
        }
        let lookup = scratch.lookup!, region = lookup.region
        let stride = region.rows.count, count = region.meridianCount
        if scratch.grid.count < stride * count { scratch.grid = [UInt32](repeating: 0, count: stride * count) }
        let eye = Double(t) * length
        let shiftA = Float(eye - from.offset), shiftB = Float(eye - to.offset)
        let weightB = UInt64(max(0, min(256, (t * 256).rounded()))), weightA = 256 - weightB
        let reach = Self.landingReachSamples
        scratch.grid.withUnsafeMutableBufferPointer { grid in
            nonisolated(unsafe) let grid = grid
            region.meridianRows.withUnsafeBufferPointer { meridianRows in
            cotangents.withUnsafeBufferPointer { cot in boundaryCotangents.withUnsafeBufferPointer { boundaries in
                from.inverseRadial.withUnsafeBufferPointer { qa in from.colors.withUnsafeBufferPointer { ca in from.chunkBounds.withUnsafeBufferPointer { ba in
                to.inverseRadial.withUnsafeBufferPointer { qb in to.colors.withUnsafeBufferPointer { cb in to.chunkBounds.withUnsafeBufferPointer { bb in
                    nonisolated(unsafe) let cot = cot, boundaries = boundaries, qa = qa, ca = ca, ba = ba, qb = qb, cb = cb, bb = bb
                    nonisolated(unsafe) let meridianRows = meridianRows
                    let parts = min(count, 16)
                    DispatchQueue.concurrentPerform(iterations: parts) { part in
                        let range = (part * count / parts)..<((part + 1) * count / parts)
                        // Each end's meridian with a spare entry either side (where samples outside the rows are drawn).
                        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 2 * stride + 4) { colors in
                            withUnsafeTemporaryAllocation(of: Float.self, capacity: 2 * stride + 4) { inverses in
                                let colorA = colors.baseAddress! + 1, colorB = colorA + stride + 2
                                let inverseA = inverses.baseAddress! + 1, inverseB = inverseA + stride + 2
                                let floats = UnsafeMutablePointer<Float>.allocate(capacity: 2 * (samples + 6))
                                let integers = UnsafeMutablePointer<Int32>.allocate(capacity: samples + 6)
                                defer { floats.deallocate(); integers.deallocate() }
                                let work = Work(rows: floats, nearest: integers, inverses: floats + samples + 6)
                                for m in range {
                                    let i = (region.firstMeridian + m) % meridians
                                    let rows = Int(meridianRows[m].x)..<Int(meridianRows[m].y)
                                    guard !rows.isEmpty else { continue }
                                    // Cotangents a sample must land between to touch the rows, or be stretched onto them.
                                    let landing = (lowest: boundaries[min(samples, rows.upperBound + reach)],
                                                   highest: boundaries[max(0, rows.lowerBound - reach)])
                                    UnsafeMutableBufferPointer(start: inverseA, count: rows.count).update(repeating: 0)
                                    UnsafeMutableBufferPointer(start: inverseB, count: rows.count).update(repeating: 0)
                                    warpMeridian(i, q: qa, colors: ca, bounds: ba, shift: shiftA, rows: rows, reach: landing, cot: cot,
                                                 color: colorA, inverse: inverseA, work: work)
                                    warpMeridian(i, q: qb, colors: cb, bounds: bb, shift: shiftB, rows: rows, reach: landing, cot: cot,
                                                 color: colorB, inverse: inverseB, work: work)
                                    Self.blend(colorA, inverseA, colorB, inverseB, count: rows.count, weights: (weightA, weightB),
                                               tolerance: occlusionTolerance,
                                               into: grid.baseAddress! + m * stride + (rows.lowerBound - region.rows.lowerBound))
                                }
                            }
                        }
                    }
                } } }
                } } }
            } }
            }
        }
        Self.lookUp(lookup.taps, grid: scratch.grid, into: &output)
    }

    /// Warps meridian `i` of one end (its ``End/inverseRadial``, ``End/colors`` and
    /// ``End/chunkBounds``), seen from `shift` metres along the line from its camera, into grid
    /// rows `rows` (`color`, `inverse` indexed from `rows.lowerBound`; inverse 0 where nothing lands).
    /// Only samples that can land between the cotangents `reach` are visited (by chunks).
    @inline(__always)
    func warpMeridian(_ i: Int, q: UnsafeBufferPointer<Float>, colors: UnsafeBufferPointer<UInt32>, bounds: UnsafeBufferPointer<SIMD2<Float>>,
                      shift s: Float, rows: Range<Int>, reach: (lowest: Float, highest: Float), cot: UnsafeBufferPointer<Float>,
                      color: UnsafeMutablePointer<UInt64>, inverse: UnsafeMutablePointer<Float>, work: Work) {
        let samples = self.samples, chunkSize = Self.chunkSamples, chunks = (samples + chunkSize - 1) / chunkSize
        let base = i * samples
        guard let qs = q.baseAddress.map({ UnsafeRawPointer($0 + base) }), let cs = cot.baseAddress.map(UnsafeRawPointer.init),
              let colorBase = colors.baseAddress else { return }
        // Occlusion-compatible order: towards the epipole the eye has moved to.
        let descending = s > 0
        let line = Line(q: qs, cot: cs, colors: colorBase + base, shift: s, perSample: Float(samples) / .pi,
                        offset: 0.5 + Float(rows.lowerBound), rowCount: rows.count, color: color, inverse: inverse)
        // Per chunk: skipped when none of its samples can land in reach (from the chunk's least and
        // greatest inverse distance), sparse when all land within ``sparseLandingRows`` rows. A row's
        // span in cotangent is at least π / samples × (1 + cot²) at the interval's least |cot|.
        let sparseSpan = sparseLandingRows * .pi / Float(samples)
        @inline(__always) func kind(_ c: Int) -> ChunkKind {
            let b = bounds[i * chunks + c]
            let top = cot[c * chunkSize], bottom = cot[min(samples, (c + 1) * chunkSize) - 1]
            let lowest = bottom - s * (s >= 0 ? b.y : b.x), highest = top - s * (s >= 0 ? b.x : b.y)
            guard highest >= reach.lowest && lowest <= reach.highest else { return .skipped }
            let least = lowest > 0 ? lowest : highest < 0 ? -highest : 0
            return highest - lowest <= sparseSpan * (1 + least * least) ? .sparse : .dense
        }
        // Runs of consecutive chunks of one kind, in order, each widened by one sample at an end where
        // no run follows or precedes (the partner of the pair across the boundary). Where two runs meet,
        // the one drawn second has both samples of the pair, the first only the one it ends on (drawn
        // again at once: the order stays occlusion-compatible).
        // Seen from ahead (descending) samples only move away from the pole, from behind only towards
        // it: chunks wholly past the rows' far end (or before their near end) cannot land in reach
        // (they would be skipped) and are not looked at.
        let reachRows = Self.landingReachSamples
        if descending {
            var c = min(chunks, (min(samples, rows.upperBound + reachRows) + chunkSize - 1) / chunkSize) - 1
            var k = kind(c)
            while c >= 0 {
                guard k != .skipped else { c -= 1; if c >= 0 { k = kind(c) }; continue }
                let last = c, runKind = k
                repeat { c -= 1; k = c >= 0 ? kind(c) : .skipped } while k == runKind
                let lower = k != .skipped ? (c + 1) * chunkSize : max(0, (c + 1) * chunkSize - 1)
                line.run(lower, min(samples, (last + 1) * chunkSize + 1), descending: true, sparse: runKind == .sparse,
                         rows: work.rows, nearest: work.nearest, inverses: work.inverses)
            }
        } else {
            var c = max(0, rows.lowerBound - reachRows) / chunkSize
            var k = kind(c)
            while c < chunks {
                guard k != .skipped else { c += 1; if c < chunks { k = kind(c) }; continue }
                let start = c, runKind = k
                repeat { c += 1; k = c < chunks ? kind(c) : .skipped } while k == runKind
                let upper = k != .skipped ? c * chunkSize : min(samples, c * chunkSize + 1)
                line.run(max(0, start * chunkSize - 1), upper, descending: false, sparse: runKind == .sparse,
                         rows: work.rows, nearest: work.nearest, inverses: work.inverses)
            }
        }
    }

    /// How a frame draws a chunk of a meridian (``warpMeridian(_:q:colors:bounds:shift:rows:reach:cot:color:inverse:work:)``).
    enum ChunkKind { case skipped, dense, sparse }

    /// A core's buffers for ``Line/run(_:_:descending:rows:nearest:inverses:)`` (``samples`` + 6 long).
    struct Work {
        let rows: UnsafeMutablePointer<Float>, nearest: UnsafeMutablePointer<Int32>, inverses: UnsafeMutablePointer<Float>
    }

    /// One meridian of one end being warped: its samples' inverse radial distances and colours, the
    /// cotangent of each row, the eye's shift along the line, and the rows drawn into.
    struct Line {
        let q: UnsafeRawPointer, cot: UnsafeRawPointer, colors: UnsafePointer<UInt32>
        let shift: Float, perSample: Float, offset: Float
        let rowCount: Int
        let color: UnsafeMutablePointer<UInt64>, inverse: UnsafeMutablePointer<Float>

        /// Samples j…j + 3, or with `sparse` j, j + 2, j + 4, j + 6 (``End/inverseRadial`` and
        /// ``cotangents`` have seven more entries than samples, for the last; a meridian's last samples
        /// read the next one's first, unused): their rows (continuous, from the first drawn) and inverse
        /// ranges.
        @inline(__always) func positions(_ j: Int, sparse: Bool) -> (u: SIMD4<Float>, inverse: SIMD4<Float>, rows: SIMD4<Int32>) {
            let qv: SIMD4<Float>, cv: SIMD4<Float>
            if sparse {
                qv = q.loadUnaligned(fromByteOffset: 4 * j, as: SIMD8<Float>.self).evenHalf
                cv = cot.loadUnaligned(fromByteOffset: 4 * j, as: SIMD8<Float>.self).evenHalf
            } else {
                qv = q.loadUnaligned(fromByteOffset: 4 * j, as: SIMD4<Float>.self)
                cv = cot.loadUnaligned(fromByteOffset: 4 * j, as: SIMD4<Float>.self)
            }
            let moved = cv - shift * qv
            let theta = EpipolarWarp.atan2Lanes(SIMD4(repeating: 1), moved)
            let u = theta * perSample - offset
            // The nearest row, −1 below the first and rowCount past the last: floor(u + 1.5) − 1 on 0…rowCount + 1.
            let shifted = u + 1.5, top = Float(rowCount + 1)
            let clamped = shifted.replacing(with: 0, where: .!(shifted .> 0)).replacing(with: top, where: shifted .> top)
            return (u, qv / (1 + moved * moved).squareRoot(), EpipolarWarp.integerLanes(EpipolarWarp.floorLanes(clamped)) &- 1)
        }

        /// Draws samples `lower..<upper` (with `sparse`, every other one from `lower`: where the
        /// samples land at least two to a row, as a surface seen from farther than it was captured
        /// does) in order (descending or ascending) in two passes: their rows, nearest rows and inverse
        /// ranges four at a time into `rows`, `nearest`, `inverses` (each at least `upper − lower + 3`
        /// long); then each at its nearest row (−1 or ``rowCount`` when outside: spare entries), after
        /// the rows between it and the previous sample when the two are more than a row apart and on
        /// one surface (a stretched surface; apart and not on one surface, a gap: a disocclusion).
        @inline(__always) func run(_ lower: Int, _ upper: Int, descending: Bool, sparse: Bool, rows: UnsafeMutablePointer<Float>,
                                   nearest: UnsafeMutablePointer<Int32>, inverses: UnsafeMutablePointer<Float>) {
            let stride = sparse ? 2 : 1
            let n = sparse ? (upper &- lower &+ 1) >> 1 : upper &- lower
            var g = 0
            while g < n {
                let s = positions(lower &+ stride &* g, sparse: sparse)
                UnsafeMutableRawPointer(rows + g).storeBytes(of: s.u, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(inverses + g).storeBytes(of: s.inverse, as: SIMD4<Float>.self)
                UnsafeMutableRawPointer(nearest + g).storeBytes(of: s.rows, as: SIMD4<Int32>.self)
                g &+= 4
            }
            let stretch = EpipolarWarp.maximumStretchSamples, flag = EpipolarWarp.connected
            let sample = colors + lower
            var previousU = Float.nan, previousInverse: Float = 0, previousColor: UInt64 = 0, previous = 0, previousRow = 0
            let mask: UInt64 = 0x00FF_00FF_00FF_00FF, half: UInt64 = 0x0080_0080_0080_0080
            // In order: o = t ascending, n − 1 − t descending.
            let first = descending ? n &- 1 : 0, step = descending ? -1 : 1
            var o = first
            for _ in 0..<n {
                let u = rows[o], v = inverses[o], c = PanoramaImage.spread(sample[stride &* o] & 0x00FF_FFFF), k = Int(nearest[o])
                let d = u - previousU
                // One surface: the pair's flag, or both flags between two samples apart.
                let m = stride &* min(previous, o)
                if d > 1 || d < -1, (sparse ? sample[m] & sample[m &+ 1] : sample[m]) & flag != 0, d <= stretch, d >= -stretch {
                    // The rows strictly between the two nearest rows (so within 0..<rowCount), interpolated
                    // at their positions (strictly between the two samples').
                    let scale = 1 / d, a = previousColor & mask, b = c & mask, dv = v - previousInverse
                    var row = min(previousRow, k) &+ 1
                    let last = max(previousRow, k)
                    while row < last {
                        let f = (Float(row) - previousU) * scale
                        let w = UInt64(truncatingIfNeeded: Int32(f * 256 + 0.5))
                        color[row] = ((a &* (256 &- w) &+ b &* w &+ half) >> 8) & mask
                        inverse[row] = previousInverse + dv * f
                        row &+= 1
                    }
                }
                color[k] = c
                inverse[k] = v
                previousU = u; previousInverse = v; previousColor = c; previous = o; previousRow = k
                o &+= step
            }
        }
    }

    /// `Int(v.rounded(.down))` for finite `v` in `Int`'s range, without a call to `floorf`.
    @inline(__always) static func floorInt(_ v: Float) -> Int {
        let t = Int(v)
        return Float(t) > v ? t - 1 : t
    }

    /// Each lane rounded down, exactly for |v| < 2²² (no rounding instruction on baseline x86-64).
    @inline(__always) static func floorLanes(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let magic = SIMD4<Float>(repeating: 8_388_608)
        let nearest = (v + magic) - magic
        return nearest - SIMD4<Float>(repeating: 1).replacing(with: SIMD4<Float>(), where: nearest .<= v)
    }

    /// The nearest integers to lanes in 0..<2²² (ties to even): the bits of 2²³ + v.
    @inline(__always) static func integerLanes(_ v: SIMD4<Float>) -> SIMD4<Int32> {
        unsafeBitCast(v + 8_388_608, to: SIMD4<Int32>.self) &- 0x4B00_0000
    }

    /// The two ends' warped meridians (colours spread) into one (`into`, `count` samples, packed):
    /// where both have a surface at about the same range (inverse ranges within `tolerance` of each
    /// other), mixed by `weights` (of 256); where one is nearer, that one; where one has none, the
    /// other. Then holes are filled from the farther of the nearest filled samples either side
    /// (within ``maximumFillSamples``: disocclusions show what is behind), what is left from the
    /// nearest filled sample above, else below, else grey.
    ///
    /// Not inlined: inlined into the frame's loop it was measured 23 M instructions slower over the
    /// benchmark's 21 frames (callgrind).
    @inline(never)
    static func blend(_ ca: UnsafeMutablePointer<UInt64>, _ ia: UnsafeMutablePointer<Float>, _ cb: UnsafeMutablePointer<UInt64>,
                      _ ib: UnsafeMutablePointer<Float>, count: Int, weights: (UInt64, UInt64), tolerance: Float,
                      into out: UnsafeMutablePointer<UInt32>) {
        let mask: UInt64 = 0x00FF_00FF_00FF_00FF, half: UInt64 = 0x0080_0080_0080_0080
        let keep = 1 - tolerance
        for k in 0..<count {
            let a = ia[k], b = ib[k]
            if a > 0 && b > 0 {
                if b < a * keep {
                    out[k] = PanoramaImage.pack(ca[k] & mask)
                } else if a < b * keep {
                    out[k] = PanoramaImage.pack(cb[k] & mask); ia[k] = b
                } else {
                    out[k] = PanoramaImage.pack((((ca[k] & mask) &* weights.0 &+ (cb[k] & mask) &* weights.1 &+ half) >> 8) & mask)
                    ia[k] = max(a, b)
                }
            } else if a > 0 {
                out[k] = PanoramaImage.pack(ca[k] & mask)
            } else if b > 0 {
                out[k] = PanoramaImage.pack(cb[k] & mask); ia[k] = b
            }
        }
        // Holes: inverse 0 in ia, which now holds the blend's inverse ranges.
        let reach = maximumFillSamples
        var k = 0
        while k < count {
            guard ia[k] == 0 else { k += 1; continue }
            var end = k
            while end < count, ia[end] == 0 { end += 1 }
            let above = k - 1, below = end
            for h in k..<end {
                let dAbove = above >= 0 ? h - above : Int.max, dBelow = below < count ? below - h : Int.max
                if dAbove <= reach, dBelow <= reach {
                    out[h] = out[ia[above] <= ia[below] ? above : below]
                } else if dAbove <= reach {
                    out[h] = out[above]
                } else if dBelow <= reach {
                    out[h] = out[below]
                } else {
                    out[h] = above >= 0 ? out[above] : below < count ? out[below] : 0x0080_8080
                }
            }
            k = end
        }
    }

    /// The taps of `camera`'s view in the grid of `region`, into `taps` (resized to the view's pixels):
    /// per pixel its direction's polar angle and meridian (meridians wrapping when the region has them
    /// all, else clamped to it; rows clamped), four pixels at a time.
    func fillTaps(_ taps: inout [Tap], region: Region, camera: ViewCamera) {
        let (f, r, u) = camera.basis
        let forward = SIMD3(f.east, f.north, f.up), right = SIMD3(r.east, r.north, r.up), up = SIMD3(u.east, u.north, u.up)
        let focal = camera.focalLengthPixels, width = camera.width, height = camera.height
        // The ray of pixel (x, y) in (pole, first, second) components: origin + x · dx + y · dy.
        func components(_ d: SIMD3<Double>) -> SIMD3<Float> { SIMD3(Float((d * pole).sum()), Float((d * first).sum()), Float((d * second).sum())) }
        let origin = components(forward * focal + right * (0.5 - Double(width) / 2) - up * (0.5 - Double(height) / 2))
        let dx = components(right), dy = components(-up)
        let stride = region.rows.count, count = region.meridianCount, wraps = count == meridians
        let perSample = Float(samples) / .pi, perMeridian = Float(meridians) / (2 * .pi)
        let rowOffset = 0.5 + Float(region.rows.lowerBound), meridianOffset = 0.5 + Float(region.firstMeridian)
        let fullCircle = Float(meridians), lastRow = Float(stride) - 1.001, lastMeridian = Float(count - 1)
        let halfGap = Float((meridians - count) / 2)
        let xs = SIMD4<Float>(0, 1, 2, 3)
        if taps.count != width * height { taps = [Tap](repeating: Tap(first: 0, second: 0, rowFraction: 0, meridianFraction: 0), count: width * height) }
        taps.withUnsafeMutableBufferPointer { taps in
          region.lookupLevels.withUnsafeBufferPointer { levels in
                nonisolated(unsafe) let taps = taps, levels = levels
                Parallel.forEachRowRange(height) { rowsOfView in
                    guard let base = taps.baseAddress else { return }
                    for y in rowsOfView {
                        let rowOrigin = origin + dy * Float(y)
                        var x = 0
                        while x < width {
                            let px = xs + Float(x)
                            let along = rowOrigin.x + px * dx.x, a = rowOrigin.y + px * dx.y, b = rowOrigin.z + px * dx.z
                            let theta = Self.atan2Lanes((a * a + b * b).squareRoot(), along)
                            var phi = Self.atan2Lanes(b, a)
                            phi = phi.replacing(with: phi + 2 * .pi, where: phi .< 0)
                            var v = theta * perSample - rowOffset
                            v = v.replacing(with: 0, where: .!(v .> 0)).replacing(with: lastRow, where: v .> lastRow)
                            var w = phi * perMeridian - meridianOffset
                            w = w.replacing(with: w + fullCircle, where: w .< 0)
                            w = w.replacing(with: w - fullCircle, where: w .>= fullCircle)
                            w = w.replacing(with: 0, where: .!(w .>= 0))
                            if !wraps {
                                // Past the region's end by rounding (or before its start, wrapped): its nearer end.
                                let past = w .> lastMeridian
                                let toEnd = past .& (w - Float(count) .< halfGap)
                                w = w.replacing(with: lastMeridian, where: toEnd).replacing(with: 0, where: past .& .!toEnd)
                            }
                            let k0 = Self.floorLanes(v)
                            let fk = SIMD4<UInt16>(truncatingIfNeeded: Self.integerLanes((v - k0) * 256))
                            let ki = Self.integerLanes(k0)
                            var mi: SIMD4<Int32>, mj: SIMD4<Int32>, fm: SIMD4<UInt16>
                            if wraps {
                                // At the rows' level: meridians that are multiples of 2^level, the fraction between two.
                                let level = SIMD4<Int32>(levels[Int(ki[0])], levels[Int(ki[1])], levels[Int(ki[2])], levels[Int(ki[3])])
                                let spacing = SIMD4<Float>(SIMD4<Int32>(repeating: 1) &<< level)
                                let m0 = Self.floorLanes(w / spacing) * spacing
                                fm = SIMD4<UInt16>(truncatingIfNeeded: Self.integerLanes((w - m0) / spacing * 256))
                                mi = Self.integerLanes(m0)
                                mj = mi &+ (SIMD4<Int32>(repeating: 1) &<< level)
                                mj = mj.replacing(with: mj &- Int32(meridians), where: mj .>= Int32(meridians))
                            } else {
                                let m0 = Self.floorLanes(w)
                                fm = SIMD4<UInt16>(truncatingIfNeeded: Self.integerLanes((w - m0) * 256))
                                mi = Self.integerLanes(m0)
                                mj = (mi &+ 1).replacing(with: Int32(count - 1), where: mi &+ 1 .>= Int32(count))
                            }
                            let i0 = mi &* Int32(stride) &+ ki, i1 = mj &* Int32(stride) &+ ki
                            let row = base + y * width + x
                            for lane in 0..<min(4, width - x) {
                                row[lane] = Tap(first: i0[lane], second: i1[lane], rowFraction: fk[lane], meridianFraction: fm[lane])
                            }
                            x += 4
                        }
                    }
                }
          }
        }
    }

    /// The view from the blended grid, one bilinear tap a pixel (`taps`, the output's pixels in order).
    static func lookUp(_ taps: [Tap], grid: [UInt32], into output: inout RGB8Image) {
        let width = output.width
        grid.withUnsafeBufferPointer { grid in
            taps.withUnsafeBufferPointer { taps in
                output.components.withUnsafeMutableBufferPointer { out in
                    nonisolated(unsafe) let out = out, grid = grid, taps = taps
                    Parallel.forEachRowRange(output.height) { rowsOfView in
                        guard let texels = grid.baseAddress, let pixels = out.baseAddress, let tapBase = taps.baseAddress else { return }
                        // Rows k0 and k0 + 1 of meridians m0 and m1 (adjacent in the grid).
                        @inline(__always) func value(_ tap: Tap) -> SIMD4<UInt8> {
                            ViewRenderer.bilinear(texels + Int(tap.first), texels + Int(tap.second), fx: tap.rowFraction, fy: tap.meridianFraction)
                        }
                        for y in rowsOfView {
                            let row = tapBase + y * width, o = pixels + 3 * y * width
                            // Four bytes a pixel (the fourth is the next pixel's, written after) but the row's
                            // last: the next row may be another core's.
                            for x in 0..<(width - 1) {
                                UnsafeMutableRawPointer(o + 3 * x).storeBytes(of: unsafeBitCast(value(row[x]), to: UInt32.self), as: UInt32.self)
                            }
                            let v = value(row[width - 1]), last = o + 3 * (width - 1)
                            last[0] = v[0]; last[1] = v[1]; last[2] = v[2]
                        }
                    }
                }
            }
        }
    }

    /// atan2(y, x) lane by lane, within 1.2 × 10⁻⁵ rad (Abramowitz & Stegun 4.4.49 on the octant,
    /// then reflected); 0 for (0, 0).
    @inline(__always)
    static func atan2Lanes(_ y: SIMD4<Float>, _ x: SIMD4<Float>) -> SIMD4<Float> {
        let ax = x.replacing(with: -x, where: x .< 0), ay = y.replacing(with: -y, where: y .< 0)
        let steep = ay .> ax
        let big = ax.replacing(with: ay, where: steep), small = ay.replacing(with: ax, where: steep)
        let a = (small / big).replacing(with: 0, where: big .== 0)
        let s = a * a
        var r: SIMD4<Float> = 0.0208351 * s - 0.0851330
        r = r * s + 0.1801410
        r = r * s - 0.3302995
        r = (r * s + 0.9998660) * a
        r = r.replacing(with: .pi / 2 - r, where: steep)
        r = r.replacing(with: .pi - r, where: x .< 0)
        return r.replacing(with: -r, where: y .< 0)
    }
}
