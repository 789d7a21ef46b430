/// Scanline polygon rasterizer with anti-aliasing: `subsamples` sub-scanlines per pixel row, each
/// with *exact* horizontal coverage.
///
/// For every sub-scanline the crossings of all active edges are sorted and walked with their winding
/// directions; each inside span [xa, xb) adds its exact covered length to the pixels it touches
/// (partial end pixels into `area`, whole pixels as a difference in `cover`), weighted 1/subsamples.
/// One prefix sum per touched run of the row turns that into coverage 0…1. Both fill rules are exact per
/// sub-scanline; vertical resolution is 1/`subsamples` of a pixel. Adjacent edges of one path share their
/// endpoints, so a path rasterised in one call has no seams between its pieces.
///
/// Same algorithm and arithmetic as `ReferenceRasterizer` (the plain version the tests compare it with),
/// arranged for speed:
/// - the active edges are arrays (one per field) sorted in place by their crossing x: no index
///   indirection, no copies into crossing arrays; finished edges are dropped only
///   on sub-scanlines where one ends, and re-sorted only when a crossing is out of order;
/// - edges are ordered by the sub-scanline they start on with a counting sort (not a comparison sort),
///   and edges that no sub-scanline crosses are dropped before the sweep;
/// - each row remembers which 16-pixel blocks a span touched (a bitmap) and runs the prefix sum and
///   `emit` only over runs of touched blocks. A map's road batch spans the whole image but covers a few
///   percent of each row; the reference sums and emits the whole range between its leftmost and
///   rightmost pixel.
///
/// The scratch buffers live in the value and are reused from call to call: no allocation per pixel or
/// per row once warmed up.
struct Rasterizer: Sendable {
    /// Sub-scanlines per pixel row.
    static let subsamples = 16
    /// log2 of the pixels per block of the touched-block bitmap.
    private static let blockShift = 4

    private struct Edge: Sendable {
        var yTop: Double, yBottom: Double, xAtTop: Double, slope: Double
        var winding: Int32
    }

    private var edges: [Edge] = []
    /// `edges` ordered by the sub-scanline they start on (the first `liveEdges` entries are used).
    private var sortedEdges: [Edge] = []
    /// Per edge: its first sub-scanline relative to the fill's first, or -1 if it crosses none.
    private var edgeStarts: [Int32] = []
    /// Counting-sort buckets, one per sub-scanline of the fill.
    private var subStarts: [Int32] = []
    /// The sweep's working memory (``SweepBuffers``).
    private var sweep = SweepBuffers()

    init() {}

    /// Rasterises `path` clipped to a `width`×`height` image and calls `emit(y, x, count, coverage)`
    /// for runs of pixels x..<x+count of a row that may have coverage (rows in increasing order; a row
    /// may get several disjoint runs, left to right; coverage may be 0 inside a run and may slightly
    /// exceed 1 from rounding; callers clamp). Only `rows` are swept (all by default): a row's coverage
    /// does not depend on which other rows are swept. Only the coverage of `columns` (all by default) is
    /// exact: outside them runs may carry anything, for the caller to skip. Inside them it is the same
    /// to the bit as without `columns` (a span entering from the left adds its cover difference at the
    /// first column instead of at its own start: the running sum there adds the same multiples of
    /// 1/subsamples, exactly).
    mutating func fill(_ path: Path, rule: FillRule, width: Int, height: Int, rows: Range<Int>? = nil,
                       columns: Range<Int>? = nil,
                       emit: (_ y: Int, _ x: Int, _ count: Int, _ coverage: UnsafePointer<Float>) -> Void) {
        edges.removeAll(keepingCapacity: true)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for subpath in path.subpaths {
            subpath.points.withUnsafeBufferPointer { pts in
                guard pts.count >= 2 else { return }
                for p in pts where !(p.x.isFinite && p.y.isFinite) { return }
                var a = pts[pts.count - 1]
                for b in pts {
                    minX = min(minX, b.x); maxX = max(maxX, b.x); minY = min(minY, b.y); maxY = max(maxY, b.y)
                    if a.y != b.y {
                        let (top, bottom, winding): (PixelPoint, PixelPoint, Int32) = a.y < b.y ? (a, b, 1) : (b, a, -1)
                        let slope = (bottom.x - top.x) / (bottom.y - top.y)
                        edges.append(Edge(yTop: top.y, yBottom: bottom.y, xAtTop: top.x, slope: slope, winding: winding))
                    }
                    a = b
                }
            }
        }
        guard !edges.isEmpty, maxX > 0, minX < Double(width), maxY > 0, minY < Double(height) else { return }
        let firstRow = max(rows?.lowerBound ?? 0, Int(minY.rounded(.down)))
        let endRow = min(rows?.upperBound ?? height, Int(maxY.rounded(.up)))
        guard firstRow < endRow else { return }
        let n = Self.subsamples
        // Order the edges by the sub-scanline they start on (a counting sort, O(edges + sub-scanlines)),
        // dropping edges that no sub-scanline crosses.
        let firstSub = firstRow * n, subCount = (endRow - firstRow) * n
        if subStarts.count < subCount + 1 { subStarts = [Int32](repeating: 0, count: subCount + 1) }
        if edgeStarts.count < edges.count { edgeStarts = [Int32](repeating: 0, count: max(edges.count, 2 * edgeStarts.count)) }
        var liveEdges = 0
        edges.withUnsafeMutableBufferPointer { edgeP in
        edgeStarts.withUnsafeMutableBufferPointer { keys in
        subStarts.withUnsafeMutableBufferPointer { counts in
            for k in 0...subCount { counts[k] = 0 }
            for i in 0..<edgeP.count {
                let start = max(firstSub, Self.firstSubScanline(atOrBelow: edgeP[i].yTop))
                let end = min(firstSub + subCount, Self.firstSubScanline(atOrBelow: edgeP[i].yBottom))
                if start >= end { keys[i] = -1; continue }
                keys[i] = Int32(start - firstSub)
                counts[start - firstSub + 1] += 1
                liveEdges += 1
            }
            for k in 0..<subCount { counts[k + 1] += counts[k] }
        }}}
        if sortedEdges.count < liveEdges { sortedEdges = edges }
        edges.withUnsafeBufferPointer { edgeP in
        edgeStarts.withUnsafeBufferPointer { keys in
        subStarts.withUnsafeMutableBufferPointer { counts in
        sortedEdges.withUnsafeMutableBufferPointer { sorted in
            for i in 0..<edgeP.count where keys[i] >= 0 {
                let slot = Int(counts[Int(keys[i])])
                sorted[slot] = edgeP[i]
                counts[Int(keys[i])] += 1
            }
        }}}}
        guard liveEdges > 0 else { return }

        let blockCount = (width + (1 << Self.blockShift) - 1) >> Self.blockShift
        let wordCount = (blockCount + 63) >> 6
        // A copy of this rasterizer (a copied Canvas) shares the buffers: it gets its own before writing.
        if !isKnownUniquelyReferenced(&sweep) { sweep = SweepBuffers() }
        sweep.reserve(edges: edges.count, pixels: width + 2, words: wordCount)
        let weight = Float(1) / Float(n)
        let left = max(0, min(width, columns?.lowerBound ?? 0)), right = max(left, min(width, columns?.upperBound ?? width))
        let leftD = Double(left), rightD = Double(right)
        // Inside test without a branch per crossing: winding & mask != 0.
        let insideMask: Int32 = rule == .nonZero ? -1 : 1
        let shift = Self.blockShift

        // The loops below touch raw buffers only: the sorted edges borrowed once, the sweep's own.
        let xs = sweep.xs, xAtTops = sweep.xAtTops, yTops = sweep.yTops, slopes = sweep.slopes
        let yBottoms = sweep.yBottoms, windings = sweep.windings
        let areaP = sweep.area, coverP = sweep.cover, out = sweep.coverage, touched = sweep.touched
        sortedEdges.withUnsafeBufferPointer { sortedP in
            let edgeP = UnsafeBufferPointer(rebasing: sortedP[0..<liveEdges])
            var nextEdge = 0, activeCount = 0
            // The smallest yBottom among the active edges: no edge needs dropping before it.
            var nextExpiry = Double.infinity
            for row in firstRow..<endRow {
                var rowTouched = false
                for s in 0..<n {
                    let y = Double(row) + (Double(s) + 0.5) / Double(n)
                    if y >= nextExpiry {
                        var kept = 0
                        nextExpiry = .infinity
                        for k in 0..<activeCount where yBottoms[k] > y {
                            xs[kept] = xs[k]; xAtTops[kept] = xAtTops[k]; yTops[kept] = yTops[k]
                            slopes[kept] = slopes[k]; yBottoms[kept] = yBottoms[k]; windings[kept] = windings[k]
                            nextExpiry = min(nextExpiry, yBottoms[k])
                            kept += 1
                        }
                        activeCount = kept
                    }
                    while nextEdge < edgeP.count && edgeP[nextEdge].yTop <= y {
                        let e = edgeP[nextEdge]
                        nextEdge += 1
                        if e.yBottom <= y { continue }
                        xAtTops[activeCount] = e.xAtTop; yTops[activeCount] = e.yTop; slopes[activeCount] = e.slope
                        yBottoms[activeCount] = e.yBottom; windings[activeCount] = e.winding
                        activeCount += 1
                        nextExpiry = min(nextExpiry, e.yBottom)
                    }
                    let m = activeCount
                    if m < 2 { continue }
                    // New crossings, noting whether they are still in order (they usually are: edges
                    // rarely cross, and only new edges arrive out of place).
                    var previousX = -Double.infinity
                    var inversions = 0
                    for k in 0..<m {
                        let x = xAtTops[k] + (y - yTops[k]) * slopes[k]
                        xs[k] = x
                        inversions &+= previousX > x ? 1 : 0
                        previousX = x
                    }
                    // Insertion sort by x, all six arrays together: about one comparison per edge.
                    if inversions != 0 { for i in 1..<m {
                        let x = xs[i]
                        if xs[i - 1] <= x { continue }
                        let xAtTop = xAtTops[i], yTop = yTops[i], slope = slopes[i]
                        let yBottom = yBottoms[i], w = windings[i]
                        var j = i - 1
                        while j >= 0 && xs[j] > x {
                            xs[j + 1] = xs[j]; xAtTops[j + 1] = xAtTops[j]; yTops[j + 1] = yTops[j]
                            slopes[j + 1] = slopes[j]; yBottoms[j + 1] = yBottoms[j]; windings[j + 1] = windings[j]
                            j -= 1
                        }
                        xs[j + 1] = x; xAtTops[j + 1] = xAtTop; yTops[j + 1] = yTop
                        slopes[j + 1] = slope; yBottoms[j + 1] = yBottom; windings[j + 1] = w
                    } }
                    var winding: Int32 = 0
                    var spanStart = 0.0
                    for i in 0..<m {
                        let wasInside = winding & insideMask != 0
                        winding &+= windings[i]
                        let isInside = winding & insideMask != 0
                        if wasInside == isInside { continue }
                        if isInside { spanStart = xs[i]; continue }
                        // Exact horizontal coverage of [spanStart, x) clipped to the columns.
                        let xa = max(spanStart, leftD), xb = min(xs[i], rightD)
                        if xb <= xa { continue }
                        var ia = Int(xa)
                        let ib = Int(xb)
                        if spanStart < leftD && left > 0 {
                            // From the left of the columns: no partial pixel, the cover enters at `left`.
                            ia = left
                            coverP[left] += weight
                            coverP[ib] -= weight
                            areaP[ib] += Float(xb - Double(ib)) * weight
                        } else if ia == ib {
                            areaP[ia] += Float(xb - xa) * weight
                        } else {
                            areaP[ia] += Float(Double(ia + 1) - xa) * weight
                            coverP[ia + 1] += weight
                            coverP[ib] -= weight
                            areaP[ib] += Float(xb - Double(ib)) * weight
                        }
                        Self.markBlocks(touched, from: ia >> shift, through: min(ib, width - 1) >> shift)
                        rowTouched = true
                    }
                }
                guard rowTouched else { continue }
                // Prefix sums over the runs of touched blocks. Between runs no span touched any pixel,
                // so the running cover there is exactly 0 (it is a sum of ±1/16).
                var running: Float = 0
                for word in 0..<wordCount {
                    var bits = touched[word]
                    touched[word] = 0
                    while bits != 0 {
                        let start = bits.trailingZeroBitCount
                        let length = (~(bits >> UInt64(start))).trailingZeroBitCount
                        bits = length + start >= 64 ? 0 : bits & ~((UInt64(1) << UInt64(start + length)) - 1)
                        let x0 = (word << 6 + start) << shift
                        let x1 = min(width, (word << 6 + start + length) << shift)
                        for x in x0..<x1 {
                            running += coverP[x]
                            out[x] = areaP[x] + running
                            areaP[x] = 0; coverP[x] = 0
                        }
                        emit(row, x0, x1 - x0, UnsafePointer(out.baseAddress! + x0))
                    }
                }
                // The difference array may carry one entry past the last pixel (ib == width).
                coverP[width] = 0; areaP[width] = 0
            }
        }
    }

    /// The index k of the first sub-scanline, y = (k + 0.5) / subsamples, with y ≥ `y` (clamped to
    /// ±2³⁰ sub-scanlines for points far off the image). Sub-scanline ordinates are dyadic, so the
    /// comparison below is the same one the sweep makes.
    @inline(__always)
    private static func firstSubScanline(atOrBelow y: Double) -> Int {
        let n = Double(subsamples), limit = Double(1 << 30)
        let estimate = (y * n - 0.5).rounded(.up)
        if estimate >= limit { return 1 << 30 }
        if estimate <= -limit { return -(1 << 30) }
        var k = Int(estimate)
        while (Double(k) + 0.5) / n < y { k += 1 }
        while (Double(k - 1) + 0.5) / n >= y { k -= 1 }
        return k
    }

    /// Sets the bits of blocks `first...last` in `bitmap`.
    @inline(__always)
    private static func markBlocks(_ bitmap: UnsafeMutableBufferPointer<UInt64>, from first: Int, through last: Int) {
        let firstWord = first >> 6, lastWord = last >> 6
        let low = ~UInt64(0) << UInt64(first & 63)
        let high = ~UInt64(0) >> UInt64(63 - (last & 63))
        if firstWord == lastWord {
            bitmap[firstWord] |= low & high
        } else {
            bitmap[firstWord] |= low
            for w in (firstWord + 1)..<lastWord { bitmap[w] = ~0 }
            bitmap[lastWord] |= high
        }
    }
}

/// The rasterizer's sweep memory: the active edges (one buffer per field: the crossing x at the
/// current sub-scanline, then the edge's line and extent, kept in x order), the row's area and cover
/// difference arrays, its coverage, and the touched-block bitmap. Raw buffers it owns, grown when a
/// fill needs more and freed with it, so the sweep uses plain pointers instead of borrowing ten arrays
/// in nested closures (as swift-collections fences its unsafe storage in one type). Between fills the
/// area, cover and bitmap are all zero: the sweep clears what it touches.
///
/// `@unchecked Sendable`: only a ``Rasterizer`` that holds the sole reference writes through it
/// (`fill` makes a fresh one otherwise), so two threads never share one.
private final class SweepBuffers: @unchecked Sendable {
    private(set) var xs = UnsafeMutableBufferPointer<Double>.allocate(capacity: 0)
    private(set) var xAtTops = UnsafeMutableBufferPointer<Double>.allocate(capacity: 0)
    private(set) var yTops = UnsafeMutableBufferPointer<Double>.allocate(capacity: 0)
    private(set) var slopes = UnsafeMutableBufferPointer<Double>.allocate(capacity: 0)
    private(set) var yBottoms = UnsafeMutableBufferPointer<Double>.allocate(capacity: 0)
    private(set) var windings = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 0)
    private(set) var area = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    private(set) var cover = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    private(set) var coverage = UnsafeMutableBufferPointer<Float>.allocate(capacity: 0)
    private(set) var touched = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: 0)

    /// Room for `edges` active edges, rows of `pixels` entries and `words` bitmap words; new buffers
    /// start zeroed. Edge buffers grow to at least twice their size, as the arrays they replace did.
    func reserve(edges: Int, pixels: Int, words: Int) {
        if xs.count < edges {
            let capacity = max(edges, 2 * xs.count)
            for buffer in [xs, xAtTops, yTops, slopes, yBottoms] { buffer.deallocate() }
            windings.deallocate()
            xs = Self.zeroed(capacity); xAtTops = Self.zeroed(capacity); yTops = Self.zeroed(capacity)
            slopes = Self.zeroed(capacity); yBottoms = Self.zeroed(capacity); windings = Self.zeroed(capacity)
        }
        if area.count < pixels {
            area.deallocate(); cover.deallocate(); coverage.deallocate()
            area = Self.zeroed(pixels); cover = Self.zeroed(pixels); coverage = Self.zeroed(pixels)
        }
        if touched.count < words {
            touched.deallocate()
            touched = Self.zeroed(words)
        }
    }

    private static func zeroed<T: Numeric>(_ count: Int) -> UnsafeMutableBufferPointer<T> {
        let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: count)
        buffer.initialize(repeating: 0)
        return buffer
    }

    deinit {
        for buffer in [xs, xAtTops, yTops, slopes, yBottoms] { buffer.deallocate() }
        windings.deallocate(); area.deallocate(); cover.deallocate(); coverage.deallocate(); touched.deallocate()
    }
}
