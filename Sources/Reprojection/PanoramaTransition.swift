import Dispatch
import Foundation
import Geodesy
import Imaging

/// The move between two panoramas: the perspective view of a virtual camera part of the way from one
/// capture to the next, made from both panoramas re-projected through their depth maps.
///
/// **Depth warp** (both ends have depth maps). Each end's panorama is turned once, when the
/// transition is made, into a point cloud: every pixel of ``Endpoint/image`` becomes the 3-D point
/// where its ray meets the first surface (the depth map, interpolated in inverse depth across one
/// surface only, as ``PanoramaDepthMap/rangeMeters(x:y:)`` does; sky at ``skyDistanceMeters``). Per
/// frame, both clouds are splatted into the view of the virtual camera at
/// `from.position + t · (to.position − from.position)`: each point covers a square as wide as its
/// pixel appears from there (1…``maximumSplatPixels``), with a z-buffer; points within
/// ``depthToleranceFraction`` of the nearest depth are averaged (finer splats weigh more). The two
/// views are then blended per pixel: where both saw a surface at the same depth, by position
/// (`1 − t` and `t`); where one saw a nearer surface, that one (the other had it hidden); where only
/// one saw anything, that one. Pixels neither saw (disocclusions both panoramas miss) are filled
/// from the nearest farther (background) neighbour along the row.
///
/// **Crossfade** (either end without depth: real photos). Each panorama's view from its own
/// position, blended `1 − t`, `t` — the documented fallback; ``usesDepth`` says which one is used.
///
/// Positions are the camera centres in any local metric frame shared by both ends (east-north-up
/// metres, e.g. of a ``Geodesy/LocalTangentFrame``). Set up once (O(pixels) per end, with a bounding
/// box per 16×16 block of panorama pixels); each frame splats only the panorama rows and columns the
/// view can see (its field of view widened by the parallax of surfaces 3 m or more away) and, of
/// those, only the blocks whose boxes meet the view's frustum, O(visible panorama pixels + view
/// pixels) on both cores (the end with more points cut into bands of view rows that the cores take
/// as they come free, the other end whole on one of them), blend and hole fill split across them.
/// A block whose points would land more than one to a view pixel (the panorama ahead, seen from
/// behind its camera) is splatted from a coarser level of the cloud, made at set-up: one point per
/// 2×2 or 4×4 cell with the cell's mean colour, and of rows near the poles every 2nd or 4th cell
/// (``coarseSplatSpacingPixels``).
public struct PanoramaTransition: Sendable {
    /// One end of a transition.
    public struct Endpoint: Sendable {
        /// The panorama (any pyramid level; its width sets the point-cloud density).
        public var image: PanoramaImage
        /// Its depth map (same layout and pose), or nil for a photo without one.
        public var depth: PanoramaDepthMap?
        /// Capture pose.
        public var pose: PanoramaPose
        /// Camera centre, metres, in the frame shared with the other end.
        public var position: EastNorthUp

        /// An endpoint from its parts.
        public init(image: PanoramaImage, depth: PanoramaDepthMap?, pose: PanoramaPose, position: EastNorthUp) {
            self.image = image
            self.depth = depth
            self.pose = pose
            self.position = position
        }
    }

    /// How far sky is put, metres.
    public static let skyDistanceMeters: Float = 10_000
    /// Two samples are one surface when their depths differ by less than this fraction.
    public static let depthToleranceFraction: Float = 0.04
    /// Where the two ends disagree by more than this fraction, the nearer surface wins.
    public static let occlusionToleranceFraction: Float = 0.12
    /// The widest splat, pixels: wider means a surface seen from much nearer than it was captured;
    /// leaving a hole for the other end (or the fill) beats smearing it.
    public static let maximumSplatPixels = 8
    /// The farthest a hole is filled from along its row, pixels.
    public static let maximumFillPixels = 64
    /// A block of panorama pixels is splatted from a coarser level (one point per 2×2 or 4×4 cell,
    /// its colour the cell's mean) when that level's points still land at most this far apart in
    /// the view, pixels: the panorama ahead of the walker, seen from behind its camera, puts many
    /// points into each view pixel (its ground most of all, which the equirectangular layout
    /// oversamples towards the nadir); averaging them in the cell first costs a fraction of splatting
    /// each. At 1 the coarse splats stay one pixel wide.
    public static let coarseSplatSpacingPixels: Float = 1

    /// ``coarseSplatSpacingPixels`` for this transition; 0 splats every point (tests compare the two).
    var coarseSpacingPixels = Self.coarseSplatSpacingPixels

    /// The start.
    public let from: Endpoint
    /// The end.
    public let to: Endpoint
    /// Whether the depth warp is used (both ends have depth maps); otherwise a crossfade.
    public var usesDepth: Bool { fromCloud != nil && toCloud != nil }

    private let fromCloud: PointCloud?
    private let toCloud: PointCloud?
    private var renderer: ViewRenderer
    private var scratch = Scratch()

    /// Prepares the move from `from` to `to`: builds both point clouds (about 20 ns per panorama pixel).
    public init(from: Endpoint, to: Endpoint) {
        self.from = from
        self.to = to
        if let a = from.depth, let b = to.depth {
            var clouds: [PointCloud?] = [nil, nil]
            nonisolated(unsafe) var shared = clouds
            let ends = [(from, a), (to, b)]
            shared.withUnsafeMutableBufferPointer { out in
                nonisolated(unsafe) let out = out
                DispatchQueue.concurrentPerform(iterations: 2) { i in out[i] = PointCloud(ends[i].0, depth: ends[i].1) }
            }
            clouds = shared
            fromCloud = clouds[0]
            toCloud = clouds[1]
        } else {
            fromCloud = nil
            toCloud = nil
        }
        // 64-px blocks are always in range: this cannot throw.
        renderer = (try? ViewRenderer()) ?? { preconditionFailure("default ViewRenderer") }()
    }

    /// The virtual camera's centre at `fraction` (0 = `from`, 1 = `to`), metres.
    public func position(at fraction: Double) -> EastNorthUp {
        let a = from.position, b = to.position
        return EastNorthUp(east: a.east + fraction * (b.east - a.east), north: a.north + fraction * (b.north - a.north),
                           up: a.up + fraction * (b.up - a.up))
    }

    /// Renders the view of `camera` at `fraction` of the way (0…1) into a new image.
    /// - Throws: `ReprojectionError.invalidParameter` for a fraction outside 0…1.
    public mutating func render(fraction: Double, camera: ViewCamera) throws(ReprojectionError) -> RGB8Image {
        var out = RGB8Image(width: camera.width, height: camera.height)
        try render(fraction: fraction, camera: camera, into: &out)
        return out
    }

    /// Renders the view of `camera` at `fraction` of the way (0…1) into `output`, reusing its memory.
    /// - Throws: `ReprojectionError.invalidParameter` for a fraction outside 0…1,
    ///   `.outputSizeMismatch` when `output` is not the camera's size.
    public mutating func render(fraction: Double, camera: ViewCamera, into output: inout RGB8Image) throws(ReprojectionError) {
        guard fraction.isFinite, (0...1).contains(fraction) else {
            throw .invalidParameter(name: "transition fraction", value: "\(fraction)", allowed: "0…1 (0 = the first panorama)")
        }
        guard output.width == camera.width, output.height == camera.height else {
            throw .outputSizeMismatch(expectedWidth: camera.width, expectedHeight: camera.height,
                                      actualWidth: output.width, actualHeight: output.height)
        }
        if let a = fromCloud, let b = toCloud {
            warp(a, b, fraction: Float(fraction), camera: camera, into: &output)
        } else {
            try crossfade(fraction: fraction, camera: camera, into: &output)
        }
    }

    /// The warp through the serial reference kernels (``warpReference(_:_:fraction:camera:into:)``),
    /// for tests comparing it with the fast path; nil without depth.
    mutating func renderReference(fraction: Double, camera: ViewCamera) -> RGB8Image? {
        guard let a = fromCloud, let b = toCloud else { return nil }
        var out = RGB8Image(width: camera.width, height: camera.height)
        warpReference(a, b, fraction: Float(fraction), camera: camera, into: &out)
        return out
    }

    /// The plain crossfade at `fraction` (each end's view from its own position, blended), whatever
    /// the depth maps: the fallback, and the baseline the warp is measured against.
    public mutating func crossfade(fraction: Double, camera: ViewCamera, into output: inout RGB8Image) throws(ReprojectionError) {
        var a = RGB8Image(width: camera.width, height: camera.height), b = a
        try renderer.render(from.image, camera: camera, pose: from.pose, into: &a)
        try renderer.render(to.image, camera: camera, pose: to.pose, into: &b)
        let wb = Int((fraction * 256).rounded()), wa = 256 - wb
        a.components.withUnsafeBufferPointer { pa in
            b.components.withUnsafeBufferPointer { pb in
                output.components.withUnsafeMutableBufferPointer { po in
                    for i in 0..<po.count { po[i] = UInt8((Int(pa[i]) * wa + Int(pb[i]) * wb + 128) >> 8) }
                }
            }
        }
    }

    // MARK: Warp

    /// Per-end buffers of one view, reused between frames (allocated when the view size changes;
    /// each end clears its own on its core).
    struct Scratch {
        var width = 0, height = 0
        var depthA: [Float] = [], depthB: [Float] = []
        var colorA: [SIMD4<Float>] = [], colorB: [SIMD4<Float>] = []
        /// Pixels the leak filter empties, per end.
        var leaksA: [Int32] = [], leaksB: [Int32] = []
        /// Per end, per panorama block (see ``PointCloud/blockSize``): −1 when it cannot reach the
        /// view, else the level it is splatted from.
        var levelsA: [Int8] = [], levelsB: [Int8] = []
        /// Per end, per kept block: the view rows its splats may touch (`x..<y`).
        var viewRowsA: [SIMD2<Int32>] = [], viewRowsB: [SIMD2<Int32>] = []
        /// Per view row (and one past the last): the work of the blocks whose rows start there, for
        /// cutting the larger end's splat into bands.
        var rowStarts: [Int] = []
        /// Per column, the last pixel above with data (the column pass of the hole fill).
        var lastFilled: [Int] = []

        mutating func prepare(width: Int, height: Int, blocksA: Int, blocksB: Int) {
            if width != self.width || height != self.height {
                self.width = width
                self.height = height
                let count = width * height
                depthA = [Float](repeating: .infinity, count: count)
                depthB = depthA
                colorA = [SIMD4<Float>](repeating: .zero, count: count)
                colorB = colorA
                leaksA = [Int32](repeating: 0, count: count)
                leaksB = leaksA
                lastFilled = [Int](repeating: -1, count: width)
                rowStarts = [Int](repeating: 0, count: height + 1)
            }
            if levelsA.count != blocksA { levelsA = [Int8](repeating: 0, count: blocksA) }
            if levelsB.count != blocksB { levelsB = [Int8](repeating: 0, count: blocksB) }
            if viewRowsA.count != blocksA { viewRowsA = [SIMD2<Int32>](repeating: .zero, count: blocksA) }
            if viewRowsB.count != blocksB { viewRowsB = [SIMD2<Int32>](repeating: .zero, count: blocksB) }
        }

        /// Clears for the serial reference path.
        mutating func clear() {
            depthA.withUnsafeMutableBufferPointer { $0.update(repeating: .infinity) }
            depthB.withUnsafeMutableBufferPointer { $0.update(repeating: .infinity) }
            colorA.withUnsafeMutableBufferPointer { $0.update(repeating: .zero) }
            colorB.withUnsafeMutableBufferPointer { $0.update(repeating: .zero) }
        }
    }

    /// One frame of the depth warp: cull both panoramas' blocks to the view; splat (the smaller end
    /// whole, the larger in bands of rows, on whichever core is free; each clears its rows first);
    /// filter leaks; blend and fill the holes along rows (these two with rows split across the
    /// cores); then fill what rows could not reach down the columns and write the output (columns
    /// split).
    /// The same bytes as ``warpReference(_:_:fraction:camera:into:)``.
    private mutating func warp(_ a: PointCloud, _ b: PointCloud, fraction t: Float, camera: ViewCamera, into output: inout RGB8Image) {
        let width = camera.width, height = camera.height
        scratch.prepare(width: width, height: height, blocksA: a.blockCount, blocksB: b.blockCount)
        let eye = position(at: Double(t))
        let view = ViewSetup(camera: camera)
        func offset(_ origin: EastNorthUp) -> SIMD3<Float> {
            SIMD3<Float>(Float(eye.east - origin.east), Float(eye.north - origin.north), Float(eye.up - origin.up))
        }
        let offsetA = offset(from.position), offsetB = offset(to.position)
        func length(_ v: SIMD3<Float>) -> Double { Double((v * v).sum().squareRoot()) }
        let rangesA = a.visibleRanges(camera: camera, baselineMeters: length(offsetA))
        let rangesB = b.visibleRanges(camera: camera, baselineMeters: length(offsetB))
        let spacing = coarseSpacingPixels
        withScratch { s in
            nonisolated(unsafe) let s = s
            // Both ends' blocks first, so that the work can be shared: the end with more of it (the
            // panorama ahead, seen from behind its camera) is cut into bands of view rows of about
            // equal work, which the cores take as they come free, one of them having taken the other
            // end whole first (its points cost more each: they are splatted wider).
            a.cull(view: view, eyeOffset: offsetA, maximumSpacingPixels: spacing, into: s.levelsA, viewRows: s.viewRowsA)
            b.cull(view: view, eyeOffset: offsetB, maximumSpacingPixels: spacing, into: s.levelsB, viewRows: s.viewRowsB)
            let workA = s.levelsA.reduce(0) { $0 + PointCloud.work(ofLevel: $1) }, workB = s.levelsB.reduce(0) { $0 + PointCloud.work(ofLevel: $1) }
            let splitsA = workA > workB
            let bands = Self.workBands(Self.splatBands, levels: UnsafeBufferPointer(splitsA ? s.levelsA : s.levelsB),
                                       viewRows: UnsafeBufferPointer(splitsA ? s.viewRowsA : s.viewRowsB), height: height, starts: s.rowStarts)
            struct End { let cloud: PointCloud; let eyeOffset: SIMD3<Float>; let ranges: (rows: Range<Int>, columns: [Range<Int>])
                         let levels: UnsafeMutableBufferPointer<Int8>; let viewRows: UnsafeMutableBufferPointer<SIMD2<Int32>>
                         let depth: UnsafeMutableBufferPointer<Float>; let color: UnsafeMutableBufferPointer<SIMD4<Float>>
                         let leaks: UnsafeMutableBufferPointer<Int32> }
            let endA = End(cloud: a, eyeOffset: offsetA, ranges: rangesA, levels: s.levelsA, viewRows: s.viewRowsA, depth: s.depthA,
                           color: s.colorA, leaks: s.leaksA)
            let endB = End(cloud: b, eyeOffset: offsetB, ranges: rangesB, levels: s.levelsB, viewRows: s.viewRowsB, depth: s.depthB,
                           color: s.colorB, leaks: s.leaksB)
            nonisolated(unsafe) let whole = splitsA ? endB : endA, parted = splitsA ? endA : endB
            @Sendable func splat(_ e: End, rows: Range<Int>) {
                let pixels = (rows.lowerBound * width)..<(rows.upperBound * width)
                UnsafeMutableBufferPointer(rebasing: e.depth[pixels]).update(repeating: .infinity)
                UnsafeMutableBufferPointer(rebasing: e.color[pixels]).update(repeating: .zero)
                e.cloud.splat(view: view, eyeOffset: e.eyeOffset, ranges: e.ranges, blockLevels: UnsafeBufferPointer(e.levels),
                              viewRows: rows, blockViewRows: UnsafeBufferPointer(e.viewRows), depth: e.depth, color: e.color)
            }
            DispatchQueue.concurrentPerform(iterations: bands.count) { k in
                if k == 0 { splat(whole, rows: 0..<height) } else { splat(parted, rows: bands[k - 1]..<bands[k]) }
            }
            for e in [whole, parted] {
                Self.removeLeaks(depth: e.depth, color: e.color, width: width, height: height, scratch: e.leaks, parts: 2)
            }
            let tolerance = Self.occlusionToleranceFraction
            nonisolated(unsafe) let ca = s.colorA, cb = s.colorB, za = s.depthA, zb = s.depthB
            Parallel.forEachRowRange(height) { rows in
                for i in (rows.lowerBound * width)..<(rows.upperBound * width) {
                    let va = ca[i].w > 0, vb = cb[i].w > 0
                    var rgb: SIMD4<Float>, z: Float
                    if va && vb {
                        let pa = ca[i] / ca[i].w, pb = cb[i] / cb[i].w
                        if za[i] < zb[i] * (1 - tolerance) {
                            rgb = pa; z = za[i]
                        } else if zb[i] < za[i] * (1 - tolerance) {
                            rgb = pb; z = zb[i]
                        } else {
                            rgb = pa * (1 - t) + pb * t; z = min(za[i], zb[i])
                        }
                    } else if va {
                        rgb = ca[i] / ca[i].w; z = za[i]
                    } else if vb {
                        rgb = cb[i] / cb[i].w; z = zb[i]
                    } else {
                        rgb = .zero; z = .infinity
                    }
                    rgb.w = va || vb ? 1 : 0
                    ca[i] = rgb
                    za[i] = z
                }
                Self.fillHoleRows(rows, color: ca, depth: za, width: width)
            }
            nonisolated(unsafe) let last = s.lastFilled
            output.components.withUnsafeMutableBufferPointer { out in
                nonisolated(unsafe) let out = out
                // Columns split across cores; each walks its columns top to bottom, row by row.
                let chunks = min(4, max(1, width / 64))
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let x0 = chunk * width / chunks, x1 = (chunk + 1) * width / chunks
                    for x in x0..<x1 { last[x] = -1 }
                    for y in 0..<height {
                        let row = y * width
                        for x in x0..<x1 {
                            let i = row + x
                            var p = ca[i]
                            if p.w != 0 {
                                last[x] = i
                            } else {
                                let from = last[x]
                                p = from >= 0 ? SIMD4(ca[from].x, ca[from].y, ca[from].z, -1) : SIMD4(128, 128, 128, -1)
                                ca[i] = p
                            }
                            out[3 * i] = UInt8(max(0, min(255, p.x + 0.5)))
                            out[3 * i + 1] = UInt8(max(0, min(255, p.y + 0.5)))
                            out[3 * i + 2] = UInt8(max(0, min(255, p.z + 0.5)))
                        }
                    }
                }
            }
        }
    }

    /// Into how many bands of view rows the end with more points is cut (the cores take them as
    /// they come free; more bands balance better, each costs a pass over the panorama's block rows).
    static let splatBands = 6

    /// Band boundaries for the splat of the end with more work (`levels`, `viewRows` from its cull):
    /// `0 = b₀ ≤ b₁ ≤ … ≤ b_count = height`, each band's blocks (counted in the band where their rows
    /// start; ``PointCloud/work(ofLevel:)``) about a `count`-th of the whole. `starts` (height + 1
    /// long) is scratch.
    static func workBands(_ count: Int, levels: UnsafeBufferPointer<Int8>, viewRows: UnsafeBufferPointer<SIMD2<Int32>>,
                          height: Int, starts: UnsafeMutableBufferPointer<Int>) -> [Int] {
        starts.update(repeating: 0)
        var total = 0
        for k in 0..<levels.count where levels[k] >= 0 {
            let w = PointCloud.work(ofLevel: levels[k]), r = viewRows[k]
            guard r.x < r.y else { continue }
            starts[Int(r.x)] += w
            total += w
        }
        var bounds = [0], above = 0
        for row in 0..<height where bounds.count < count {
            above += starts[row]
            if above * count >= total * bounds.count { bounds.append(row + 1) }
        }
        while bounds.count < count { bounds.append(height) }
        bounds.append(height)
        return bounds
    }

    /// The scratch buffers as unsafe pointers, for the parallel parts of a frame (each part writes
    /// only its own end's buffers, rows or columns).
    struct ScratchPointers {
        let depthA, depthB: UnsafeMutableBufferPointer<Float>
        let colorA, colorB: UnsafeMutableBufferPointer<SIMD4<Float>>
        let leaksA, leaksB: UnsafeMutableBufferPointer<Int32>
        let levelsA, levelsB: UnsafeMutableBufferPointer<Int8>
        let viewRowsA, viewRowsB: UnsafeMutableBufferPointer<SIMD2<Int32>>
        let rowStarts: UnsafeMutableBufferPointer<Int>
        let lastFilled: UnsafeMutableBufferPointer<Int>
    }

    private mutating func withScratch(_ body: (ScratchPointers) -> Void) {
        scratch.depthA.withUnsafeMutableBufferPointer { depthA in
        scratch.depthB.withUnsafeMutableBufferPointer { depthB in
        scratch.colorA.withUnsafeMutableBufferPointer { colorA in
        scratch.colorB.withUnsafeMutableBufferPointer { colorB in
        scratch.leaksA.withUnsafeMutableBufferPointer { leaksA in
        scratch.leaksB.withUnsafeMutableBufferPointer { leaksB in
        scratch.levelsA.withUnsafeMutableBufferPointer { levelsA in
        scratch.levelsB.withUnsafeMutableBufferPointer { levelsB in
        scratch.viewRowsA.withUnsafeMutableBufferPointer { viewRowsA in
        scratch.viewRowsB.withUnsafeMutableBufferPointer { viewRowsB in
        scratch.rowStarts.withUnsafeMutableBufferPointer { rowStarts in
        scratch.lastFilled.withUnsafeMutableBufferPointer { lastFilled in
            body(ScratchPointers(depthA: depthA, depthB: depthB, colorA: colorA, colorB: colorB, leaksA: leaksA, leaksB: leaksB,
                                 levelsA: levelsA, levelsB: levelsB, viewRowsA: viewRowsA, viewRowsB: viewRowsB,
                                 rowStarts: rowStarts, lastFilled: lastFilled))
        } } } } } } } } } } } }
    }

    /// ``removeLeaksReference(depth:color:width:height:)`` reading only the depth buffer (a pixel has
    /// data exactly when its depth is finite: the splat writes both together) and keeping the pixels
    /// to empty in `scratch` (at least `width × height` long) instead of a new array. The rows are
    /// shared between `parts` cores: each marks its rows' leaks (reading depths nobody writes yet),
    /// then each empties its own.
    static func removeLeaks(depth: UnsafeMutableBufferPointer<Float>, color: UnsafeMutableBufferPointer<SIMD4<Float>>,
                            width: Int, height: Int, scratch: UnsafeMutableBufferPointer<Int32>, parts: Int) {
        guard width >= 3, height >= 3 else { return }
        nonisolated(unsafe) let depth = depth, color = color, scratch = scratch
        let inner = height - 2, parts = max(1, min(parts, inner))
        // Part k marks rows 1 + k·inner/parts ..< 1 + (k+1)·inner/parts into scratch from its first
        // pixel on (a part cannot mark more pixels than its rows have).
        @Sendable func rows(_ k: Int) -> Range<Int> { (1 + k * inner / parts)..<(1 + (k + 1) * inner / parts) }
        var marked = [Int](repeating: 0, count: parts)
        marked.withUnsafeMutableBufferPointer { counts in
            nonisolated(unsafe) let counts = counts
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                let r = rows(k)
                counts[k] = markLeaks(rows: r, depth: UnsafeBufferPointer(depth), width: width, into: scratch, from: r.lowerBound * width)
            }
            DispatchQueue.concurrentPerform(iterations: parts) { k in
                let first = rows(k).lowerBound * width
                for m in first..<(first + counts[k]) {
                    let i = Int(scratch[m])
                    color[i] = .zero
                    depth[i] = .infinity
                }
            }
        }
    }

    /// Writes into `scratch` from `start` on the pixels of `rows` (1…height − 2) that at least 5 of
    /// their 8 neighbours cover nearer by ``leakDepthFactor``, left to right; returns how many. Four
    /// pixels at a time, with the same comparisons as the reference (infinite depth, no data, is
    /// never nearer).
    static func markLeaks(rows: Range<Int>, depth: UnsafeBufferPointer<Float>, width: Int,
                          into scratch: UnsafeMutableBufferPointer<Int32>, from start: Int) -> Int {
        let factor = leakDepthFactor
        guard let base = depth.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        @inline(__always) func load(_ i: Int) -> SIMD4<Float> { raw.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self) }
        var marked = start
        for y in rows {
            let row = y * width
            var x = 1
            @inline(__always) func mark(_ i: Int) { scratch[marked] = Int32(i); marked += 1 }
            while x + 4 <= width - 1 {
                let i = row + x
                let z = load(i)
                // −1 in each lane whose neighbour is nearer: summed, minus the count.
                @inline(__always) func nearer(_ o: Int) -> SIMD4<Int32> {
                    SIMD4<Int32>().replacing(with: -1, where: load(i + o) * factor .< z)
                }
                let above = nearer(-width - 1) &+ nearer(-width) &+ nearer(-width + 1)
                let beside = nearer(-1) &+ nearer(1)
                let below = nearer(width - 1) &+ nearer(width) &+ nearer(width + 1)
                let leaks = (above &+ beside &+ below .<= -5) .& (z .< .infinity)
                if any(leaks) {
                    for lane in 0..<4 where leaks[lane] { mark(i + lane) }
                }
                x += 4
            }
            while x < width - 1 {
                let i = row + x, z = depth[i]
                x += 1
                guard z < .infinity else { continue }
                @inline(__always) func nearer(_ o: Int) -> Int { depth[i + o] * factor < z ? 1 : 0 }
                let count = nearer(-width - 1) + nearer(-width) + nearer(-width + 1) + nearer(-1) + nearer(1)
                    + nearer(width - 1) + nearer(width) + nearer(width + 1)
                if count >= 5 { mark(i) }
            }
        }
        return marked - start
    }

    /// The row pass of ``fillHolesReference(color:depth:width:height:)`` over `rows` only.
    static func fillHoleRows(_ rows: Range<Int>, color: UnsafeMutableBufferPointer<SIMD4<Float>>, depth: UnsafeMutableBufferPointer<Float>,
                             width: Int) {
        let reach = maximumFillPixels
        for y in rows {
            let row = y * width
            var x = 0
            while x < width {
                guard color[row + x].w == 0 else { x += 1; continue }
                var end = x
                while end < width, color[row + end].w == 0 { end += 1 }
                let left = x > 0 ? row + x - 1 : -1
                let right = end < width ? row + end : -1
                for k in x..<end {
                    var pick = -1
                    let dl = left >= 0 ? k - x + 1 : Int.max, dr = right >= 0 ? end - k : Int.max
                    if dl <= reach, dr <= reach {
                        pick = depth[left] >= depth[right] ? left : right
                    } else if dl <= reach {
                        pick = left
                    } else if dr <= reach {
                        pick = right
                    }
                    if pick >= 0 {
                        color[row + k] = SIMD4(color[pick].x, color[pick].y, color[pick].z, -1)
                        depth[row + k] = depth[pick]
                    }
                }
                x = end
            }
        }
    }

    /// The warp as first written, serial where it can be and without block culling: the reference
    /// ``warp(_:_:fraction:camera:into:)`` must match byte for byte (tests compare the two).
    mutating func warpReference(_ a: PointCloud, _ b: PointCloud, fraction t: Float, camera: ViewCamera, into output: inout RGB8Image) {
        let width = camera.width, height = camera.height
        scratch.prepare(width: width, height: height, blocksA: a.blockCount, blocksB: b.blockCount)
        scratch.clear()
        let eye = position(at: Double(t))
        let view = ViewSetup(camera: camera)
        func offset(_ origin: EastNorthUp) -> SIMD3<Float> {
            SIMD3<Float>(Float(eye.east - origin.east), Float(eye.north - origin.north), Float(eye.up - origin.up))
        }
        let offsetA = offset(from.position), offsetB = offset(to.position)
        func length(_ v: SIMD3<Float>) -> Double { Double((v * v).sum().squareRoot()) }
        let rangesA = a.visibleRanges(camera: camera, baselineMeters: length(offsetA))
        let rangesB = b.visibleRanges(camera: camera, baselineMeters: length(offsetB))
        let tolerance = Self.occlusionToleranceFraction
        let spacing = coarseSpacingPixels
        scratch.levelsA.withUnsafeMutableBufferPointer { a.levelsReference(view: view, eyeOffset: offsetA, maximumSpacingPixels: spacing, into: $0) }
        scratch.levelsB.withUnsafeMutableBufferPointer { b.levelsReference(view: view, eyeOffset: offsetB, maximumSpacingPixels: spacing, into: $0) }
        let levelsA = scratch.levelsA, levelsB = scratch.levelsB
        scratch.depthA.withUnsafeMutableBufferPointer { za in
            scratch.depthB.withUnsafeMutableBufferPointer { zb in
                scratch.colorA.withUnsafeMutableBufferPointer { ca in
                    scratch.colorB.withUnsafeMutableBufferPointer { cb in
                        // The two ends splat into their own buffers, one per core.
                        nonisolated(unsafe) let za = za, zb = zb, ca = ca, cb = cb
                        DispatchQueue.concurrentPerform(iterations: 2) { k in
                            if k == 0 {
                                levelsA.withUnsafeBufferPointer { levels in
                                    a.splatReference(view: view, eyeOffset: offsetA, ranges: rangesA, blockLevels: levels, depth: za, color: ca)
                                }
                                Self.removeLeaksReference(depth: za, color: ca, width: width, height: height)
                            } else {
                                levelsB.withUnsafeBufferPointer { levels in
                                    b.splatReference(view: view, eyeOffset: offsetB, ranges: rangesB, blockLevels: levels, depth: zb, color: cb)
                                }
                                Self.removeLeaksReference(depth: zb, color: cb, width: width, height: height)
                            }
                        }
                        for i in 0..<(width * height) {
                            let va = ca[i].w > 0, vb = cb[i].w > 0
                            var rgb: SIMD4<Float>, z: Float
                            if va && vb {
                                let pa = ca[i] / ca[i].w, pb = cb[i] / cb[i].w
                                if za[i] < zb[i] * (1 - tolerance) {
                                    rgb = pa; z = za[i]
                                } else if zb[i] < za[i] * (1 - tolerance) {
                                    rgb = pb; z = zb[i]
                                } else {
                                    rgb = pa * (1 - t) + pb * t; z = min(za[i], zb[i])
                                }
                            } else if va {
                                rgb = ca[i] / ca[i].w; z = za[i]
                            } else if vb {
                                rgb = cb[i] / cb[i].w; z = zb[i]
                            } else {
                                rgb = .zero; z = .infinity
                            }
                            rgb.w = va || vb ? 1 : 0
                            ca[i] = rgb
                            za[i] = z
                        }
                        Self.fillHolesReference(color: ca, depth: za, width: width, height: height)
                        output.components.withUnsafeMutableBufferPointer { out in
                            for i in 0..<(width * height) {
                                let p = ca[i]
                                out[3 * i] = UInt8(max(0, min(255, p.x + 0.5)))
                                out[3 * i + 1] = UInt8(max(0, min(255, p.y + 0.5)))
                                out[3 * i + 2] = UInt8(max(0, min(255, p.z + 0.5)))
                            }
                        }
                    }
                }
            }
        }
    }

    /// A pixel whose depth is more than this factor beyond most of its neighbours' is background
    /// seen through a gap between the splats of a nearer surface.
    public static let leakDepthFactor: Float = 1.3

    /// Empties pixels (w = 0) where a farther surface shows through a gap in a nearer one: at least 5
    /// of the 8 neighbours are nearer by ``leakDepthFactor``. Splats of a surface seen much more
    /// obliquely than it was captured leave such gaps; the other end or the fill covers them.
    static func removeLeaksReference(depth: UnsafeMutableBufferPointer<Float>, color: UnsafeMutableBufferPointer<SIMD4<Float>>,
                            width: Int, height: Int) {
        guard width >= 3, height >= 3 else { return }
        let factor = leakDepthFactor
        var marked: [Int32] = []
        let neighbours = [-width - 1, -width, -width + 1, -1, 1, width - 1, width, width + 1]
        neighbours.withUnsafeBufferPointer { offsets in
            for y in 1..<(height - 1) {
                for x in 1..<(width - 1) {
                    let i = y * width + x
                    let z = depth[i]
                    guard color[i].w > 0 else { continue }
                    var nearer = 0
                    for o in offsets where color[i + o].w > 0 && depth[i + o] * factor < z { nearer += 1 }
                    if nearer >= 5 { marked.append(Int32(i)) }
                }
            }
        }
        for i in marked {
            color[Int(i)] = .zero
            depth[Int(i)] = .infinity
        }
    }

    /// Fills pixels without data (w = 0) from the farther of the nearest filled neighbours along the
    /// row (disocclusions show what is behind), then along the column, then leaves grey.
    static func fillHolesReference(color: UnsafeMutableBufferPointer<SIMD4<Float>>, depth: UnsafeMutableBufferPointer<Float>,
                          width: Int, height: Int) {
        let reach = maximumFillPixels
        for y in 0..<height {
            let row = y * width
            var x = 0
            while x < width {
                guard color[row + x].w == 0 else { x += 1; continue }
                var end = x
                while end < width, color[row + end].w == 0 { end += 1 }
                let left = x > 0 && x - 0 <= width ? row + x - 1 : -1
                let right = end < width ? row + end : -1
                for k in x..<end {
                    var pick = -1
                    let dl = left >= 0 ? k - x + 1 : Int.max, dr = right >= 0 ? end - k : Int.max
                    if dl <= reach, dr <= reach {
                        pick = depth[left] >= depth[right] ? left : right
                    } else if dl <= reach {
                        pick = left
                    } else if dr <= reach {
                        pick = right
                    }
                    if pick >= 0 {
                        color[row + k] = SIMD4(color[pick].x, color[pick].y, color[pick].z, -1)
                        depth[row + k] = depth[pick]
                    }
                }
                x = end
            }
        }
        // Columns for what rows could not reach (w == 0 still); filled-by-row pixels have w = −1.
        for x in 0..<width {
            var last = -1
            for y in 0..<height {
                let i = y * width + x
                if color[i].w != 0 { last = i; continue }
                if last >= 0 { color[i] = SIMD4(color[last].x, color[last].y, color[last].z, -1) } else { color[i] = SIMD4(128, 128, 128, -1) }
            }
        }
    }
}

/// The view's projection in single precision, set up once per frame.
struct ViewSetup {
    let forward: SIMD3<Float>, right: SIMD3<Float>, up: SIMD3<Float>
    let focal: Float, centerX: Float, centerY: Float
    let width: Int, height: Int

    init(camera: ViewCamera) {
        let (f, r, u) = camera.basis
        forward = SIMD3(Float(f.east), Float(f.north), Float(f.up))
        right = SIMD3(Float(r.east), Float(r.north), Float(r.up))
        up = SIMD3(Float(u.east), Float(u.north), Float(u.up))
        focal = Float(camera.focalLengthPixels)
        centerX = Float(camera.width) / 2
        centerY = Float(camera.height) / 2
        width = camera.width
        height = camera.height
        // A point q (relative to the eye) can touch the view only if z = q·forward > near and its
        // splat (half-width ≤ maximumSplatPixels / 2) overlaps the image: sx + half > 0 ⇔
        // q·(focal·right + (centerX + half)·forward) > 0, and likewise for the other three edges.
        // The margin is two pixels wider than the widest half-splat, so float rounding in the
        // box test cannot cull a point the splat would have drawn.
        let margin = Float(PanoramaTransition.maximumSplatPixels) / 2 + 2
        let fw = Float(width), fh = Float(height)
        edgeNormals = (focal * right + (centerX + margin) * forward,
                       -focal * right + (fw - centerX + margin) * forward,
                       -focal * up + (centerY + margin) * forward,
                       focal * up + (fh - centerY + margin) * forward)
    }

    /// The normals of the four side planes of the view's frustum (through the eye, widened by the
    /// largest splat), pointing inwards.
    let edgeNormals: (SIMD3<Float>, SIMD3<Float>, SIMD3<Float>, SIMD3<Float>)
    /// Nothing nearer than this along `forward` is splatted, metres.
    static let nearMeters: Float = 0.05

    /// View rows `x..<y` that splats of points in the box `lower…upper` (relative to the eye) may touch:
    /// the corners' projections (the image of a box wholly in front of the eye is their hull), widened
    /// by the widest half-splat and two pixels of rounding; every row when a corner is not in front.
    /// A splat pushed down from above the top edge (see ``PointCloud``'s splat) reaches row
    /// ``PanoramaTransition/maximumSplatPixels`` − 1 at most.
    @inline(__always) func viewRows(lower: SIMD3<Float>, upper: SIMD3<Float>) -> SIMD2<Int32> {
        var top = Float.infinity, bottom = -Float.infinity
        for corner in 0..<8 {
            let q = SIMD3(corner & 1 == 0 ? lower.x : upper.x, corner & 2 == 0 ? lower.y : upper.y, corner & 4 == 0 ? lower.z : upper.z)
            let z = (q * forward).sum()
            guard z > Self.nearMeters else { return SIMD2(0, Int32(height)) }
            let sy = centerY - (q * up).sum() * (focal / z)
            top = min(top, sy)
            bottom = max(bottom, sy)
        }
        let maxSplat = Float(PanoramaTransition.maximumSplatPixels), margin = maxSplat / 2 + 2, fh = Float(height)
        guard top.isFinite, bottom.isFinite else { return SIMD2(0, Int32(height)) }
        var upperRow = max(0, min(fh, (bottom + margin).rounded(.up) + 1))
        if top - margin < 0 { upperRow = max(upperRow, min(fh, maxSplat + 1)) }
        let lowerRow = max(0, min(fh, (top - margin).rounded(.down)))
        return SIMD2(Int32(lowerRow), Int32(upperRow))
    }

    /// The smallest depth (along `forward`) of a point of the box `lower…upper` (relative to the eye), metres.
    @inline(__always) func nearestDepth(lower: SIMD3<Float>, upper: SIMD3<Float>) -> Float {
        (forward * upper.replacing(with: lower, where: forward .>= 0)).sum()
    }

    /// Whether any point of the box `lower…upper` (relative to the eye) can be splatted into the view:
    /// false only when the whole box lies behind the near plane or outside one side plane.
    @inline(__always) func mayReach(lower: SIMD3<Float>, upper: SIMD3<Float>) -> Bool {
        // The box's corner farthest along a normal (the "positive vertex").
        @inline(__always) func farthest(_ n: SIMD3<Float>) -> Float {
            (n * lower.replacing(with: upper, where: n .>= 0)).sum()
        }
        return farthest(forward) > Self.nearMeters && farthest(edgeNormals.0) > 0 && farthest(edgeNormals.1) > 0
            && farthest(edgeNormals.2) > 0 && farthest(edgeNormals.3) > 0
    }
}

/// A panorama as 3-D points relative to its camera (east-north-up metres), with colours and the size
/// each pixel has on its surface.
struct PointCloud: Sendable {
    /// Point positions relative to the capture camera, metres: the panorama's pixels row-major, then
    /// each coarser level's cells (see ``levelOffsets``).
    let points: [SIMD3<Float>]
    /// Colours (R lowest byte), laid out as ``points``.
    let colors: [UInt32]
    /// Each point's extent on its surface: range × pixel angle (× the cell's side at a coarser
    /// level), metres; laid out as ``points``.
    let extents: [Float]

    /// The coarsest level: level `L` has one point per `2^L × 2^L` cell of panorama pixels (0 is
    /// every pixel). Cells never straddle a block (2^L divides ``blockSize``).
    static let coarsestLevel = 2
    /// Where each level starts in ``points``, ``colors`` and ``extents``, and how many cells across
    /// its rows have (0…``coarsestLevel``).
    let levelOffsets: [Int], levelWidths: [Int]
    /// The panorama's size, pixels.
    let width: Int, height: Int
    /// The capture heading, degrees, and whether the pose is level (pitch and roll 0: culling by
    /// panorama rows and columns applies).
    let headingDegrees: Double, isLevel: Bool

    /// The side of the square blocks of panorama pixels whose bounds are tested against the view
    /// each frame, pixels.
    static let blockSize = 16
    /// Blocks across and down (the last ones may be partial).
    let blocksAcross: Int, blocksDown: Int
    var blockCount: Int { blocksAcross * blocksDown }
    /// Per block, row-major: the bounding box of its surface points and that of its sky points
    /// (empty: lower > upper). Apart, because one box round a façade and the sky behind it would
    /// reach kilometres and be in every view.
    let blockBounds: [BlockBounds]

    struct BlockBounds: Sendable {
        var surfaceLower = SIMD3<Float>(repeating: .infinity), surfaceUpper = SIMD3<Float>(repeating: -.infinity)
        var skyLower = SIMD3<Float>(repeating: .infinity), skyUpper = SIMD3<Float>(repeating: -.infinity)
        /// The largest extent (``extents``) of the surface points and of the sky points, metres.
        var surfaceExtent: Float = 0, skyExtent: Float = 0
        /// The largest cosine of latitude of the block's rows: how far apart a row's neighbouring
        /// points are, as a share of the rows' spacing (the equirectangular layout's oversampling).
        var columnSpacingFactor: Float = 1
    }

    /// Surfaces nearer than this are assumed out of a level view's sight when culling (only the street
    /// right below the camera is that near), metres. With 8 m the midpoints of 12 m steps lost 2–5 dB
    /// against the pinhole truth (façades beside the street move more than that allows).
    static let cullingNearestMeters = 3.0

    /// The panorama rows and column ranges whose points can appear in `camera`'s view from a camera
    /// `baselineMeters` from this cloud's: the view's angular extent plus the largest parallax shift of
    /// a surface at least ``cullingNearestMeters`` away (asin(baseline / distance)).
    func visibleRanges(camera: ViewCamera, baselineMeters: Double) -> (rows: Range<Int>, columns: [Range<Int>]) {
        let all = (rows: 0..<height, columns: [0..<width])
        guard isLevel, abs(camera.pitchDegrees) < 45 else { return all }
        let margin = asin(min(1, baselineMeters / Self.cullingNearestMeters)) * 180 / .pi + 2
        let halfWidth = camera.fieldOfViewDegrees / 2 + margin
        let halfHeight = camera.verticalFieldOfViewDegrees / 2 + margin
        let top = max(0, Int(((90 - (camera.pitchDegrees + halfHeight)) / 180 * Double(height)).rounded(.down)))
        let bottom = min(height, Int(((90 - (camera.pitchDegrees - halfHeight)) / 180 * Double(height)).rounded(.up)))
        guard halfWidth < 180, top < bottom else { return all }
        // Column of longitude λ (from the capture heading, clockwise): width/2 + λ · width/360.
        var center = (camera.headingDegrees - headingDegrees).truncatingRemainder(dividingBy: 360)
        if center < 0 { center += 360 }
        let first = Int(((Double(width) / 2 + (center - halfWidth) * Double(width) / 360)).rounded(.down))
        let last = Int(((Double(width) / 2 + (center + halfWidth) * Double(width) / 360)).rounded(.up))
        var columns: [Range<Int>] = []
        // [first, last) modulo width, as at most two ranges.
        let a = ((first % width) + width) % width, length = min(width, last - first)
        if a + length <= width { columns = [a..<(a + length)] } else { columns = [a..<width, 0..<(a + length - width)] }
        return (top..<bottom, columns)
    }

    init(_ end: PanoramaTransition.Endpoint, depth: PanoramaDepthMap) {
        let image = end.image
        self.width = image.width
        self.height = image.height
        headingDegrees = end.pose.headingDegrees
        isLevel = end.pose.pitchDegrees == 0 && end.pose.rollDegrees == 0
        let width = image.width, height = image.height, count = width * height
        let axes = ViewProjection.axes(of: end.pose)
        let f = SIMD3(axes.forward.east, axes.forward.north, axes.forward.up)
        let r = SIMD3(axes.right.east, axes.right.north, axes.right.up)
        let u = SIMD3(axes.up.east, axes.up.north, axes.up.up)
        let radiansPerPixel = 2 * Double.pi / Double(width)
        let scale = Double(depth.width) / Double(width)
        var columns = [(cos: Double, sin: Double)](repeating: (1, 0), count: width)
        for x in 0..<width {
            let longitude = (Double(x) + 0.5 - Double(width) / 2) * radiansPerPixel
            columns[x] = (cos(longitude), sin(longitude))
        }
        // All levels in one allocation: the pixels, then each coarser level's cells.
        var offsets = [0], widths = [width], total = count
        for level in 1...Self.coarsestLevel {
            let step = 1 << level, across = (width + step - 1) / step
            offsets.append(total)
            widths.append(across)
            total += across * ((height + step - 1) / step)
        }
        var points = [SIMD3<Float>](repeating: .zero, count: total)
        var extents = [Float](repeating: 0, count: total)
        var colors = [UInt32](repeating: 0, count: total)
        colors.withUnsafeMutableBufferPointer { out in
            image.pixels.withUnsafeBufferPointer { _ = out.update(fromContentsOf: $0) }
        }
        let sky = Double(PanoramaTransition.skyDistanceMeters)
        points.withUnsafeMutableBufferPointer { pp in
            extents.withUnsafeMutableBufferPointer { ep in
                nonisolated(unsafe) let pp = pp, ep = ep
                Parallel.forEachRowRange(height) { rows in
                    for y in rows {
                        let latitude = Double.pi / 2 - (Double(y) + 0.5) * radiansPerPixel
                        let cl = cos(latitude), sl = sin(latitude)
                        for x in 0..<width {
                            let (co, so) = columns[x]
                            let d = f * (cl * co) + r * (cl * so) + u * sl
                            let range = depth.fastRangeMeters(x: (Double(x) + 0.5) * scale, y: (Double(y) + 0.5) * scale) ?? sky
                            let p = d * range
                            pp[y * width + x] = SIMD3(Float(p.x), Float(p.y), Float(p.z))
                            ep[y * width + x] = Float(range * radiansPerPixel)
                        }
                    }
                }
            }
        }
        let size = Self.blockSize
        blocksAcross = (width + size - 1) / size
        blocksDown = (height + size - 1) / size
        blockBounds = Self.bounds(points: points, extents: extents, width: width, height: height,
                                  blocksAcross: blocksAcross, blocksDown: blocksDown)
        points.withUnsafeMutableBufferPointer { pts in
            colors.withUnsafeMutableBufferPointer { cols in
                extents.withUnsafeMutableBufferPointer { ext in
                    for level in 1...Self.coarsestLevel {
                        Self.fillLevel(level, offset: offsets[level], points: pts, colors: cols, extents: ext, width: width, height: height)
                    }
                }
            }
        }
        self.points = points
        self.colors = colors
        self.extents = extents
        levelOffsets = offsets
        levelWidths = widths
    }

    /// Writes level `level` (one point per `2^level`-pixel square cell, row-major) from `offset` on
    /// into the arrays, whose first `width × height` entries are the panorama's pixels. A cell's
    /// point is that of the pixel at its centre (rounded down and right) with the extent of the whole
    /// cell, its colour the mean of the cell's pixels on the same surface (ranges within
    /// ``PanoramaTransition/depthToleranceFraction`` of that pixel's), so that a coarse point is what
    /// the cell's points splatted into one view pixel would have averaged to.
    static func fillLevel(_ level: Int, offset: Int, points: UnsafeMutableBufferPointer<SIMD3<Float>>, colors: UnsafeMutableBufferPointer<UInt32>,
                          extents: UnsafeMutableBufferPointer<Float>, width: Int, height: Int) {
        let step = 1 << level
        let across = (width + step - 1) / step, down = (height + step - 1) / step
        let tolerance = PanoramaTransition.depthToleranceFraction
        nonisolated(unsafe) let pts = points, cols = colors, ext = extents
        Parallel.forEachRowRange(down) { cellRows in
            for cy in cellRows {
                let y0 = cy * step, y1 = min(height, y0 + step)
                for cx in 0..<across {
                    let x0 = cx * step, x1 = min(width, x0 + step)
                    let r = min(y1 - 1, y0 + step / 2) * width + min(x1 - 1, x0 + step / 2)
                    // Extents are range × a constant: comparing them compares ranges.
                    let e = ext[r]
                    var sum = SIMD4<UInt32>.zero
                    for y in y0..<y1 {
                        for x in x0..<x1 {
                            let i = y * width + x
                            guard abs(ext[i] - e) <= e * tolerance else { continue }
                            let c = cols[i]
                            sum &+= SIMD4(c & 0xFF, (c >> 8) & 0xFF, (c >> 16) & 0xFF, 1)
                        }
                    }
                    let mean = (sum &+ sum.w / 2) / sum.w
                    let k = offset + cy * across + cx
                    cols[k] = mean.x | (mean.y << 8) | (mean.z << 16) | (cols[r] & 0xFF00_0000)
                    pts[k] = pts[r]
                    ext[k] = e * Float(step)
                }
            }
        }
    }

    /// The bounds of each block's surface and sky points (a point is sky beyond half the sky distance).
    static func bounds(points: [SIMD3<Float>], extents: [Float], width: Int, height: Int, blocksAcross: Int, blocksDown: Int) -> [BlockBounds] {
        var bounds = [BlockBounds](repeating: BlockBounds(), count: blocksAcross * blocksDown)
        let size = blockSize
        let skySquared = (PanoramaTransition.skyDistanceMeters / 2) * (PanoramaTransition.skyDistanceMeters / 2)
        points.withUnsafeBufferPointer { pts in
          extents.withUnsafeBufferPointer { ext in
            bounds.withUnsafeMutableBufferPointer { out in
                nonisolated(unsafe) let out = out
                Parallel.forEachRowRange(blocksDown, minimumRowsPerChunk: 2) { blockRows in
                    for blockRow in blockRows {
                        for blockColumn in 0..<blocksAcross {
                            var b = BlockBounds()
                            for y in (blockRow * size)..<min(height, (blockRow + 1) * size) {
                                for x in (blockColumn * size)..<min(width, (blockColumn + 1) * size) {
                                    let p = pts[y * width + x], e = ext[y * width + x]
                                    if (p * p).sum() > skySquared {
                                        b.skyLower = pointwiseMin(b.skyLower, p); b.skyUpper = pointwiseMax(b.skyUpper, p)
                                        b.skyExtent = max(b.skyExtent, e)
                                    } else {
                                        b.surfaceLower = pointwiseMin(b.surfaceLower, p); b.surfaceUpper = pointwiseMax(b.surfaceUpper, p)
                                        b.surfaceExtent = max(b.surfaceExtent, e)
                                    }
                                }
                            }
                            let y0 = blockRow * size, y1 = min(height, y0 + size)
                            // The row nearest the equator: cos(latitude) is largest there.
                            let nearest = y1 <= height / 2 ? y1 - 1 : (y0 >= height / 2 ? y0 : height / 2)
                            b.columnSpacingFactor = Float(cos(Double.pi / 2 - (Double(nearest) + 0.5) * Double.pi / Double(height)))
                            out[blockRow * blocksAcross + blockColumn] = b
                        }
                    }
                }
            }
          }
        }
        return bounds
    }

    /// Writes into `levels` (``blockCount`` long) −1 for each block no point of which can land in
    /// `view` seen from `eyeOffset` (a conservative test of the block's boxes against the view's
    /// frustum), else how to splat it (``level(of:view:eyeOffset:maximumSpacingPixels:)``).
    /// With `viewRows`, also writes there, for each kept block, view rows `x..<y` outside which none
    /// of its points' splats reach (a conservative bound: ``ViewSetup/viewRows(lower:upper:)``).
    func cull(view: ViewSetup, eyeOffset: SIMD3<Float>, maximumSpacingPixels: Float, into levels: UnsafeMutableBufferPointer<Int8>,
              viewRows: UnsafeMutableBufferPointer<SIMD2<Int32>>? = nil) {
        blockBounds.withUnsafeBufferPointer { bounds in
            for k in 0..<bounds.count {
                let b = bounds[k]
                var reach = false
                if b.surfaceLower.x <= b.surfaceUpper.x {
                    reach = view.mayReach(lower: b.surfaceLower - eyeOffset, upper: b.surfaceUpper - eyeOffset)
                }
                if !reach, b.skyLower.x <= b.skyUpper.x {
                    reach = view.mayReach(lower: b.skyLower - eyeOffset, upper: b.skyUpper - eyeOffset)
                }
                levels[k] = reach ? Self.level(of: b, view: view, eyeOffset: eyeOffset, maximumSpacingPixels: maximumSpacingPixels) : -1
                if reach, let viewRows {
                    var rows = SIMD2<Int32>(Int32(view.height), 0)
                    if b.surfaceLower.x <= b.surfaceUpper.x {
                        let r = view.viewRows(lower: b.surfaceLower - eyeOffset, upper: b.surfaceUpper - eyeOffset)
                        rows = SIMD2(min(rows.x, r.x), max(rows.y, r.y))
                    }
                    if b.skyLower.x <= b.skyUpper.x {
                        let r = view.viewRows(lower: b.skyLower - eyeOffset, upper: b.skyUpper - eyeOffset)
                        rows = SIMD2(min(rows.x, r.x), max(rows.y, r.y))
                    }
                    viewRows[k] = rows
                }
            }
        }
    }

    /// The points splatted of the blocks `levels` keeps (from ``cull(view:eyeOffset:maximumSpacingPixels:into:viewRows:)``),
    /// as if every block were whole and in range: a measure of the work, for sharing it between cores.
    static func work(ofLevel code: Int8) -> Int {
        code < 0 ? 0 : (blockSize * blockSize) >> (2 * Int(code & 3) + Int(code >> 2))
    }

    /// Writes into `levels` (``blockCount`` long) each block's level, culling none: for the reference path.
    func levelsReference(view: ViewSetup, eyeOffset: SIMD3<Float>, maximumSpacingPixels: Float, into levels: UnsafeMutableBufferPointer<Int8>) {
        for k in 0..<blockBounds.count {
            levels[k] = Self.level(of: blockBounds[k], view: view, eyeOffset: eyeOffset, maximumSpacingPixels: maximumSpacingPixels)
        }
    }

    /// The largest column step (as a power of two) within a level: every 2nd or 4th cell of a row.
    static let largestColumnShift = 2

    /// How to splat a block seen in `view` from `eyeOffset`: `level | columnShift << 2`, where level
    /// (0…``coarsestLevel``) is the coarsest at which the block's points still land at most
    /// `maximumSpacingPixels` apart down the columns — 2^level × the largest footprint a point of the
    /// block can have (its largest extent × focal length / the nearest depth of its box) — and
    /// columnShift (0…``largestColumnShift``) the largest at which every 2^columnShift-th cell of a
    /// row still does along it (the footprint × ``BlockBounds/columnSpacingFactor``: rows near the
    /// poles are oversampled by 1/cos(latitude)). 0 when the box reaches the near plane, or when
    /// `maximumSpacingPixels` is 0 (full density). The footprint bounds the spacing of neighbouring
    /// points in the view as it sets the splat size; a coarse footprint stays under 1.25 pixels, so
    /// coarse splats are one pixel.
    @inline(__always)
    static func level(of b: BlockBounds, view: ViewSetup, eyeOffset: SIMD3<Float>, maximumSpacingPixels: Float) -> Int8 {
        guard maximumSpacingPixels > 0 else { return 0 }
        var footprint: Float = 0
        if b.surfaceLower.x <= b.surfaceUpper.x {
            let z = view.nearestDepth(lower: b.surfaceLower - eyeOffset, upper: b.surfaceUpper - eyeOffset)
            guard z > ViewSetup.nearMeters else { return 0 }
            footprint = b.surfaceExtent * view.focal / z
        }
        if b.skyLower.x <= b.skyUpper.x {
            let z = view.nearestDepth(lower: b.skyLower - eyeOffset, upper: b.skyUpper - eyeOffset)
            guard z > ViewSetup.nearMeters else { return 0 }
            footprint = max(footprint, b.skyExtent * view.focal / z)
        }
        var level = 0
        while level < coarsestLevel, footprint * Float(2 << level) <= maximumSpacingPixels { level += 1 }
        var shift = 0
        let along = footprint * Float(1 << level) * b.columnSpacingFactor
        while shift < largestColumnShift, along * Float(2 << shift) <= maximumSpacingPixels { shift += 1 }
        return Int8(level | shift << 2)
    }

    /// Splats point `i` into `depth`/`color` (accumulating weighted colour in xyz, weight in w) as seen
    /// from `eyeOffset`, writing only view rows `rowLower..<rowUpper`: the reference loop's body, one
    /// point at a time. The fast path's ``splatGroup(_:_:_:_:count:_:_:_:view:eyeOffset:rowLower:rowUpper:depth:color:)``
    /// does the same arithmetic for four points at once.
    @inline(__always)
    private static func splatPoint(_ i: Int, _ pts: UnsafeBufferPointer<SIMD3<Float>>, _ cols: UnsafeBufferPointer<UInt32>,
                                   _ ext: UnsafeBufferPointer<Float>, view: ViewSetup, eyeOffset: SIMD3<Float>,
                                   rowLower: Int, rowUpper: Int,
                                   depth: UnsafeMutableBufferPointer<Float>, color: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        let p = pts[i] - eyeOffset
        let f = view.forward, r = view.right, u = view.up
        // One lane of splatGroup's arithmetic.
        let z = p.x * f.x + p.y * f.y + p.z * f.z
        guard z > ViewSetup.nearMeters else { return }
        let inverse = view.focal / z
        let sx = view.centerX + (p.x * r.x + p.y * r.y + p.z * r.z) * inverse
        let sy = view.centerY - (p.x * u.x + p.y * u.y + p.z * u.z) * inverse
        let n = min(PanoramaTransition.maximumSplatPixels, max(1, Int(ext[i] * inverse + 0.75)))
        let half = Float(n) * 0.5
        guard sx + half > 0, sx - half < Float(view.width), sy + half > 0, sy - half < Float(view.height) else { return }
        let x0 = max(0, floorInt(sx - half + 0.5)), y0 = max(0, floorInt(sy - half + 0.5))
        guard x0 < view.width, y0 < view.height else { return }
        drawSplat(left: x0, top: y0, size: n, z: z, color: cols[i], view: view, rowLower: rowLower, rowUpper: rowUpper,
                  depth: depth, color: color)
    }

    /// The square of `size` pixels from (`left`, `top`) (both inside the view), clipped to the view
    /// and to rows `rowLower..<rowUpper` (the square as placed, then clipped: its other rows are
    /// another core's), written with depth `z` and colour `c` (R lowest byte) weighted 1 / size².
    @inline(__always)
    static func drawSplat(left: Int, top: Int, size: Int, z: Float, color c: UInt32, view: ViewSetup, rowLower: Int, rowUpper: Int,
                          depth: UnsafeMutableBufferPointer<Float>, color: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        let width = view.width
        let ya = max(top, rowLower), yb = min(top + size, view.height, rowUpper)
        guard ya < yb else { return }
        let bits = Int32(bitPattern: c)
        let weight: Float = size == 1 ? 1 : 1 / Float(size * size)
        var value = SIMD4<Float>(SIMD4<Int32>(bits, bits >> 8, bits >> 16, 0) & SIMD4(0xFF, 0xFF, 0xFF, 0)) * weight
        value.w = weight
        if size == 1 {
            writePixel(ya * width + left, z: z, value: value, depth: depth, color: color)
            return
        }
        let right = min(width, left + size)
        for yy in ya..<yb {
            let rowStart = yy * width
            for xx in left..<right { writePixel(rowStart + xx, z: z, value: value, depth: depth, color: color) }
        }
    }

    /// One point's depth `z` and weighted colour `value` into pixel `k`: nearer by more than
    /// ``PanoramaTransition/depthToleranceFraction`` replaces, within it joins (accumulates), farther
    /// is dropped. Without branches: which of the three happens is unpredictable from point to point
    /// (a surface's first point on a pixel replaces, the next ones join); in a stand-alone copy of the
    /// splat, branching on it cost about one mispredicted branch a point.
    @inline(__always)
    static func writePixel(_ k: Int, z: Float, value: SIMD4<Float>, depth: UnsafeMutableBufferPointer<Float>,
                           color: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        let current = depth[k]
        let replaces = z < current * (1 - PanoramaTransition.depthToleranceFraction)
        let joins = z <= current * (1 + PanoramaTransition.depthToleranceFraction)
        depth[k] = joins ? min(z, current) : current
        // Replace: 0 + value; join: old + value; drop: old + 0 (each exact: colours are ≥ 0).
        let old = color[k]
        color[k] = SIMD4<Float>().replacing(with: old, where: SIMDMask(repeating: !replaces))
            + SIMD4<Float>().replacing(with: value, where: SIMDMask(repeating: joins))
    }

    /// ``splatPoint(_:_:_:_:view:eyeOffset:rowLower:rowUpper:depth:color:)`` for the first `count`
    /// (1…4) of points `i0`…`i3`, in that order, with the same arithmetic lane by lane (so the same
    /// bits): the projection, the splat's size and its placement for four points at once, as vectors
    /// without conversions that trap or calls; then each point's pixels.
    @inline(__always)
    static func splatGroup(_ i0: Int, _ i1: Int, _ i2: Int, _ i3: Int, count: Int, _ pts: UnsafeBufferPointer<SIMD3<Float>>,
                           _ cols: UnsafeBufferPointer<UInt32>, _ ext: UnsafeBufferPointer<Float>, view: ViewSetup, eyeOffset: SIMD3<Float>,
                           rowLower: Int, rowUpper: Int,
                           depth: UnsafeMutableBufferPointer<Float>, color: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        let p0 = pts[i0] - eyeOffset, p1 = pts[i1] - eyeOffset, p2 = pts[i2] - eyeOffset, p3 = pts[i3] - eyeOffset
        let x = SIMD4(p0.x, p1.x, p2.x, p3.x), y = SIMD4(p0.y, p1.y, p2.y, p3.y), zz = SIMD4(p0.z, p1.z, p2.z, p3.z)
        let f = view.forward, r = view.right, u = view.up
        let z = x * f.x + y * f.y + zz * f.z
        let inverse = view.focal / z
        let sx = view.centerX + (x * r.x + y * r.y + zz * r.z) * inverse
        let sy = view.centerY - (x * u.x + y * u.y + zz * u.z) * inverse
        let footprint = SIMD4(ext[i0], ext[i1], ext[i2], ext[i3]) * inverse
        // min(maximumSplatPixels, max(1, Int(footprint + 0.75))): the sum is positive, so Int() is the floor.
        let rounded = floorLanes(footprint + 0.75), widest = Float(PanoramaTransition.maximumSplatPixels)
        let n = rounded.replacing(with: 1, where: .!(rounded .>= 1)).replacing(with: widest, where: rounded .> widest)
        let half = n * 0.5
        let left = floorLanes(sx - half + 0.5), top = floorLanes(sy - half + 0.5)
        let x0 = left.replacing(with: 0, where: left .< 0), y0 = top.replacing(with: 0, where: top .< 0)
        let fw = Float(view.width), fh = Float(view.height)
        var valid = (z .> ViewSetup.nearMeters) .& (sx + half .> 0) .& (sx - half .< fw) .& (sy + half .> 0) .& (sy - half .< fh)
        // x0 < min(width, x0 + n) and likewise for rows.
        valid = valid .& (x0 .< fw) .& (y0 .< fh) .& (SIMD4<Int32>(0, 1, 2, 3) .< Int32(count))
        guard any(valid) else { return }
        // Lanes not drawn may hold anything: zero them before reading them as integers.
        let xs = integerLanes(x0.replacing(with: 0, where: .!valid)), ys = integerLanes(y0.replacing(with: 0, where: .!valid))
        let ns = integerLanes(n.replacing(with: 1, where: .!valid))
        for lane in 0..<count where valid[lane] {
            let i = lane == 0 ? i0 : lane == 1 ? i1 : lane == 2 ? i2 : i3
            drawSplat(left: Int(xs[lane]), top: Int(ys[lane]), size: Int(ns[lane]), z: z[lane], color: cols[i], view: view,
                      rowLower: rowLower, rowUpper: rowUpper, depth: depth, color: color)
        }
    }

    /// Each lane rounded down, exactly for |v| < 2²² (no rounding instruction on baseline x86-64).
    @inline(__always) static func floorLanes(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let magic = SIMD4<Float>(repeating: 8_388_608)
        let nearest = (v + magic) - magic
        return nearest - SIMD4<Float>(repeating: 1).replacing(with: SIMD4<Float>(), where: nearest .<= v)
    }

    /// The integers held by lanes that are whole numbers in 0..<2²² (the bits of 2²³ + v).
    @inline(__always) static func integerLanes(_ v: SIMD4<Float>) -> SIMD4<Int32> {
        unsafeBitCast(v + 8_388_608, to: SIMD4<Int32>.self) &- 0x4B00_0000
    }

    /// `Int(v.rounded(.down))` for finite `v` in `Int`'s range, without a call to `floorf`.
    @inline(__always) static func floorInt(_ v: Float) -> Int {
        let t = Int(v)
        return Float(t) > v ? t - 1 : t
    }

    /// ``splatReference(view:eyeOffset:ranges:blockLevels:depth:color:)`` skipping the blocks
    /// `blockLevels` (from ``cull(view:eyeOffset:maximumSpacingPixels:into:)``) rules out (−1); the
    /// points left are visited in the same order, so the result is the same to the bit.
    ///
    /// Only view rows `viewRows` are written, and blocks whose `blockViewRows` (from the same cull) miss
    /// them are skipped: calls over complementary row ranges, on any cores, write what one call
    /// over all rows writes, each pixel receiving the same points in the same order.
    func splat(view: ViewSetup, eyeOffset: SIMD3<Float>, ranges: (rows: Range<Int>, columns: [Range<Int>]),
               blockLevels: UnsafeBufferPointer<Int8>, viewRows: Range<Int>, blockViewRows: UnsafeBufferPointer<SIMD2<Int32>>,
               depth: UnsafeMutableBufferPointer<Float>, color: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        guard !viewRows.isEmpty else { return }
        let cloudWidth = self.width, size = Self.blockSize, blocksAcross = self.blocksAcross
        let rowLower = viewRows.lowerBound, rowUpper = viewRows.upperBound
        let lowest = Int32(rowLower), highest = Int32(rowUpper)
        let offsets = (levelOffsets[1], levelOffsets[2]), widths = (levelWidths[1], levelWidths[2])
        let firstRow = ranges.rows.lowerBound
        points.withUnsafeBufferPointer { pts in
            colors.withUnsafeBufferPointer { cols in
                extents.withUnsafeBufferPointer { ext in
                    // Points are splatted four at a time, in the order they are pushed.
                    var pending = (0, 0, 0, 0), pendingCount = 0
                    @inline(__always) func flush() {
                        Self.splatGroup(pending.0, pending.1, pending.2, pending.3, count: pendingCount, pts, cols, ext, view: view,
                                        eyeOffset: eyeOffset, rowLower: rowLower, rowUpper: rowUpper, depth: depth, color: color)
                        pendingCount = 0
                    }
                    @inline(__always) func push(_ i: Int) {
                        switch pendingCount {
                        case 0: pending = (i, i, i, i)
                        case 1: pending.1 = i; pending.2 = i; pending.3 = i
                        case 2: pending.2 = i; pending.3 = i
                        default: pending.3 = i
                        }
                        pendingCount += 1
                        if pendingCount == 4 { flush() }
                    }
                    defer { if pendingCount > 0 { flush() } }
                    // Whether any kept block of the current block row reaches viewRows (a band of
                    // rows skips most block rows whole).
                    @inline(__always) func reaches(_ k: Int) -> Bool {
                        blockLevels[k] >= 0 && blockViewRows[k].y > lowest && blockViewRows[k].x < highest
                    }
                    var blockRow = -1, blockRowReaches = false
                    for row in ranges.rows {
                        let blockRowStart = (row / size) * blocksAcross
                        if row / size != blockRow {
                            blockRow = row / size
                            blockRowReaches = (blockRowStart..<(blockRowStart + blocksAcross)).contains(where: reaches)
                        }
                        guard blockRowReaches else { continue }
                        for columns in ranges.columns {
                            var column = columns.lowerBound
                            while column < columns.upperBound {
                                let blockColumn = column / size
                                let runEnd = min(columns.upperBound, (blockColumn + 1) * size)
                                let code = reaches(blockRowStart + blockColumn) ? Int(blockLevels[blockRowStart + blockColumn]) : -1
                                if code == 0 {
                                    for column in column..<runEnd { push(row * cloudWidth + column) }
                                } else if code > 0 {
                                    let level = code & 3, shift = code >> 2
                                    if row & ((1 << level) - 1) == 0 || row == firstRow {
                                        // A cell's point is splatted at the first of its rows and columns in range; of a
                                        // row's cells, every 2^shift-th and the first in range.
                                        let start = level == 0 ? row * cloudWidth
                                            : (level == 1 ? offsets.0 : offsets.1) + (row >> level) * (level == 1 ? widths.0 : widths.1)
                                        let firstCell = columns.lowerBound >> level, mask = (1 << shift) - 1
                                        for cell in (column >> level)...((runEnd - 1) >> level) where cell & mask == 0 || cell == firstCell {
                                            push(start + cell)
                                        }
                                    }
                                }
                                column = runEnd
                            }
                        }
                    }
                }
            }
        }
    }

    /// Splats the points into `depth`/`color` (accumulating weighted colour in xyz, weight in w) as
    /// seen from `eyeOffset` (the virtual camera's centre relative to this cloud's camera), point by
    /// point over `ranges`: a pixel of a level-0 block (`blockLevels`) is its own point; in a block
    /// of level L, the first pixel in range of each 2^L-square cell (first row, first column) stands
    /// for the cell's point.
    func splatReference(view: ViewSetup, eyeOffset: SIMD3<Float>, ranges: (rows: Range<Int>, columns: [Range<Int>]),
                        blockLevels: UnsafeBufferPointer<Int8>,
                        depth: UnsafeMutableBufferPointer<Float>, color: UnsafeMutableBufferPointer<SIMD4<Float>>) {
        let size = Self.blockSize
        points.withUnsafeBufferPointer { pts in
            colors.withUnsafeBufferPointer { cols in
                extents.withUnsafeBufferPointer { ext in
                    for row in ranges.rows { for columns in ranges.columns { for column in columns {
                        let code = Int(blockLevels[(row / size) * blocksAcross + column / size])
                        let level = code & 3, shift = code >> 2, step = 1 << level
                        guard row % step == 0 || row == ranges.rows.lowerBound, column % step == 0 || column == columns.lowerBound else { continue }
                        let cell = column / step
                        guard cell % (1 << shift) == 0 || cell == columns.lowerBound / step else { continue }
                        let i = levelOffsets[level] + (row / step) * levelWidths[level] + cell
                        Self.splatPoint(i, pts, cols, ext, view: view, eyeOffset: eyeOffset, rowLower: 0, rowUpper: view.height,
                                        depth: depth, color: color)
                    } } }
                }
            }
        }
    }
}

extension PanoramaDepthMap {
    /// ``rangeMeters(x:y:)`` without the general path's small loop over a literal: the same values.
    @inline(__always) func fastRangeMeters(x: Double, y: Double) -> Double? {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        let nearestColumn = tx < 0.5 ? x0 : x0 + 1, nearestRow = ty < 0.5 ? y0 : y0 + 1
        guard let nearest = rangeMeters(column: nearestColumn, row: nearestRow) else { return nil }
        let nearestInverse = 1 / nearest
        var weightedInverse = 0.0, weights = 0.0
        @inline(__always) func tap(_ column: Int, _ row: Int, _ weight: Double) {
            guard let range = rangeMeters(column: column, row: row), abs(1 / range - nearestInverse) <= continuityToleranceInverseMeters else { return }
            weightedInverse += weight / range
            weights += weight
        }
        tap(x0, y0, (1 - tx) * (1 - ty))
        tap(x0 + 1, y0, tx * (1 - ty))
        tap(x0, y0 + 1, (1 - tx) * ty)
        tap(x0 + 1, y0 + 1, tx * ty)
        return weights / weightedInverse
    }
}
