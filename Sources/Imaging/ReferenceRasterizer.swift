/// The plain scalar reference for `Rasterizer`: the same sub-scanline algorithm written the obvious way
/// (an index list of active edges, crossings copied out and sorted, one prefix sum over the row's whole
/// touched range). Kept beside the fast version so the tests can compare the two pixel by pixel; not used
/// for drawing.
///
/// Scanline polygon rasterizer with anti-aliasing: `subsamples` sub-scanlines per pixel row, each
/// with *exact* horizontal coverage.
///
/// For every sub-scanline the crossings of all active edges are sorted and walked with their winding
/// directions; each inside span [xa, xb) adds its exact covered length to the pixels it touches
/// (partial end pixels into `area`, whole pixels as a difference in `cover`), weighted 1/subsamples.
/// One prefix sum per row turns that into coverage 0…1. Both fill rules are exact per sub-scanline;
/// vertical resolution is 1/`subsamples` of a pixel. Adjacent edges of one path share their
/// endpoints, so a path rasterised in one call has no seams between its pieces.
///
/// The scratch buffers live in the value and are reused from call to call (`keepingCapacity`): no
/// allocation per pixel or per row once warmed up.
struct ReferenceRasterizer: Sendable {
    /// Sub-scanlines per pixel row.
    static let subsamples = 16

    private struct Edge: Sendable {
        var yTop: Double, yBottom: Double, xAtTop: Double, slope: Double
        var winding: Int32
    }

    private var edges: [Edge] = []
    private var active: [Int32] = []
    private var crossingX: [Double] = []
    private var crossingWinding: [Int32] = []
    private var area: [Float] = []
    private var cover: [Float] = []
    private var coverage: [Float] = []

    init() {}

    /// Rasterises `path` clipped to a `width`×`height` image and calls `emit(y, x, count, coverage)`
    /// once per pixel row that has any coverage, for the pixels x..<x+count (coverage may slightly
    /// exceed 1 from rounding; callers clamp).
    mutating func fill(_ path: Path, rule: FillRule, width: Int, height: Int,
                       emit: (_ y: Int, _ x: Int, _ count: Int, _ coverage: UnsafePointer<Float>) -> Void) {
        edges.removeAll(keepingCapacity: true)
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for subpath in path.subpaths {
            let pts = subpath.points
            guard pts.count >= 2, pts.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else { continue }
            for i in 0..<pts.count {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                minX = min(minX, a.x); maxX = max(maxX, a.x); minY = min(minY, a.y); maxY = max(maxY, a.y)
                if a.y == b.y { continue }
                let (top, bottom, winding): (PixelPoint, PixelPoint, Int32) = a.y < b.y ? (a, b, 1) : (b, a, -1)
                let slope = (bottom.x - top.x) / (bottom.y - top.y)
                edges.append(Edge(yTop: top.y, yBottom: bottom.y, xAtTop: top.x, slope: slope, winding: winding))
            }
        }
        guard !edges.isEmpty, maxX > 0, minX < Double(width), maxY > 0, minY < Double(height) else { return }
        edges.sort { $0.yTop < $1.yTop }

        if area.count < width + 2 {
            area = [Float](repeating: 0, count: width + 2)
            cover = [Float](repeating: 0, count: width + 2)
            coverage = [Float](repeating: 0, count: width + 2)
        }
        if active.count < edges.count {
            let capacity = max(edges.count, 2 * active.count)
            active = [Int32](repeating: 0, count: capacity)
            crossingX = [Double](repeating: 0, count: capacity)
            crossingWinding = [Int32](repeating: 0, count: capacity)
        }
        let firstRow = max(0, Int(minY.rounded(.down)))
        let endRow = min(height, Int(maxY.rounded(.up)))
        let n = Self.subsamples
        let weight = Float(1) / Float(n)
        let widthD = Double(width)
        let nonZero = rule == .nonZero

        // All buffers are borrowed once per call; the loops below touch raw pointers only.
        edges.withUnsafeBufferPointer { edgeP in
        active.withUnsafeMutableBufferPointer { activeP in
        crossingX.withUnsafeMutableBufferPointer { xs in
        crossingWinding.withUnsafeMutableBufferPointer { ws in
        area.withUnsafeMutableBufferPointer { areaP in
        cover.withUnsafeMutableBufferPointer { coverP in
        coverage.withUnsafeMutableBufferPointer { out in
            var nextEdge = 0, activeCount = 0
            for row in firstRow..<endRow {
                var rowMin = Int.max, rowMax = -1
                for s in 0..<n {
                    let y = Double(row) + (Double(s) + 0.5) / Double(n)
                    while nextEdge < edgeP.count && edgeP[nextEdge].yTop <= y {
                        activeP[activeCount] = Int32(nextEdge); activeCount += 1; nextEdge += 1
                    }
                    // Drop finished edges and collect the crossings at this sub-scanline.
                    var kept = 0, m = 0
                    for k in 0..<activeCount {
                        let e = edgeP[Int(activeP[k])]
                        if e.yBottom <= y { continue }
                        activeP[kept] = activeP[k]; kept += 1
                        xs[m] = e.xAtTop + (y - e.yTop) * e.slope
                        ws[m] = e.winding
                        m += 1
                    }
                    activeCount = kept
                    if m < 2 { continue }
                    // Insertion sort of the crossings, carrying the active list along: the active
                    // edges stay in x order, so the next sub-scanline's crossings arrive nearly sorted
                    // and this costs about one comparison per edge.
                    for i in 1..<m {
                        let x = xs[i], w = ws[i], edge = activeP[i]
                        var j = i - 1
                        while j >= 0 && xs[j] > x {
                            xs[j + 1] = xs[j]; ws[j + 1] = ws[j]; activeP[j + 1] = activeP[j]; j -= 1
                        }
                        xs[j + 1] = x; ws[j + 1] = w; activeP[j + 1] = edge
                    }
                    var winding: Int32 = 0
                    var spanStart = 0.0
                    for i in 0..<m {
                        let wasInside = nonZero ? winding != 0 : (winding & 1) != 0
                        winding += ws[i]
                        let isInside = nonZero ? winding != 0 : (winding & 1) != 0
                        if !wasInside && isInside {
                            spanStart = xs[i]
                        } else if wasInside && !isInside {
                            // Exact horizontal coverage of [spanStart, xs[i]) clipped to the image.
                            let xa = max(spanStart, 0), xb = min(xs[i], widthD)
                            if xb <= xa { continue }
                            let ia = Int(xa), ib = Int(xb)
                            if ia == ib {
                                areaP[ia] += Float(xb - xa) * weight
                            } else {
                                areaP[ia] += Float(Double(ia + 1) - xa) * weight
                                coverP[ia + 1] += weight
                                coverP[ib] -= weight
                                areaP[ib] += Float(xb - Double(ib)) * weight
                            }
                            rowMin = min(rowMin, ia); rowMax = max(rowMax, min(ib, width - 1))
                        }
                    }
                }
                guard rowMax >= rowMin else { continue }
                var running: Float = 0
                for x in rowMin...rowMax {
                    running += coverP[x]
                    out[x] = areaP[x] + running
                    areaP[x] = 0; coverP[x] = 0
                }
                // The difference array may carry one entry past the last pixel (ib == width).
                coverP[rowMax + 1] = 0; areaP[rowMax + 1] = 0
                emit(row, rowMin, rowMax - rowMin + 1, UnsafePointer(out.baseAddress! + rowMin))
            }
        }}}}}}}
    }
}
