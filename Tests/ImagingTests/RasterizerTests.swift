import Foundation
@testable import Imaging
import Synchronization
import Testing
import TestSupport

/// The fast `Rasterizer` against its plain scalar reference, `ReferenceRasterizer` (same algorithm and
/// arithmetic, written the obvious way), pixel by pixel on the raw float coverage.
@Suite struct RasterizerTests {
    /// Largest coverage difference allowed per pixel: the two sum the same ±1/16-weighted spans, but
    /// crossings at equal x may be walked in a different order, so float sums may round differently.
    static let referenceToleranceCoverage: Float = 1e-5

    static func fast(_ path: Path, rule: FillRule, width: Int, height: Int) -> [Float] {
        var result = [Float](repeating: 0, count: width * height)
        var rasterizer = Rasterizer()
        var lastRow = -1, lastEnd = -1
        rasterizer.fill(path, rule: rule, width: width, height: height) { y, x, count, coverage in
            // Rows arrive in increasing order and runs left to right without overlap.
            #expect(y > lastRow || (y == lastRow && x >= lastEnd))
            #expect(x >= 0 && x + count <= width)
            lastRow = y; lastEnd = x + count
            for i in 0..<count { result[y * width + x + i] = coverage[i] }
        }
        return result
    }

    static func reference(_ path: Path, rule: FillRule, width: Int, height: Int) -> [Float] {
        var result = [Float](repeating: 0, count: width * height)
        var rasterizer = ReferenceRasterizer()
        rasterizer.fill(path, rule: rule, width: width, height: height) { y, x, count, coverage in
            for i in 0..<count { result[y * width + x + i] = coverage[i] }
        }
        return result
    }

    static func worstDifference(_ path: Path, rule: FillRule, width: Int, height: Int) -> Float {
        let a = fast(path, rule: rule, width: width, height: height)
        let b = reference(path, rule: rule, width: width, height: height)
        var worst: Float = 0
        for i in 0..<a.count { worst = max(worst, abs(a[i] - b[i])) }
        return worst
    }

    /// `columns` (a window's): inside them the coverage is the same to the bit as without them, for
    /// polygons and strokes that cross the columns' edges (spans entering from the left, leaving right).
    @Test(arguments: FillRule.allCases)
    func columnsKeepTheirCoverageExactly(rule: FillRule) {
        var generator = SeededRandom(seed: rule == .nonZero ? 31 : 32)
        func random() -> Double { generator.unit() }
        let width = 200, height = 48, columns = 64..<136
        for _ in 0..<20 {
            let line = Path(polyline: (0..<6).map { _ in PixelPoint(random() * 240 - 20, random() * 60 - 6) })
            var path = Stroker.outline(of: line, style: StrokeStyle(width: 1 + random() * 9, cap: .round, join: .miter))
            for _ in 0..<3 {
                let cx = random() * 220 - 10, cy = random() * 60 - 6, r = 4 + random() * 80
                path.addPolygon((0..<7).map { _ in PixelPoint(cx + (random() - 0.5) * r, cy + (random() - 0.5) * r) })
            }
            var all = [Float](repeating: 0, count: width * height), some = all
            var rasterizer = Rasterizer()
            rasterizer.fill(path, rule: rule, width: width, height: height) { y, x, count, coverage in
                for i in 0..<count { all[y * width + x + i] = coverage[i] }
            }
            rasterizer.fill(path, rule: rule, width: width, height: height, columns: columns) { y, x, count, coverage in
                for i in 0..<count { some[y * width + x + i] = coverage[i] }
            }
            for y in 0..<height {
                for x in columns where all[y * width + x].bitPattern != some[y * width + x].bitPattern {
                    Issue.record("\(rule): pixel (\(x), \(y)) \(some[y * width + x]) with columns, \(all[y * width + x]) without")
                    return
                }
            }
        }
    }

    @Test(arguments: FillRule.allCases)
    func randomPolygonsMatchTheReference(rule: FillRule) {
        var generator = SeededRandom(seed: rule == .nonZero ? 21 : 22)
        func random() -> Double { generator.unit() }
        for _ in 0..<20 {
            // Several self-intersecting contours scattered over a wide image (several runs per row),
            // partly outside it.
            var path = Path()
            for _ in 0..<4 {
                let cx = random() * 300 - 20, cy = random() * 80 - 10, r = 2 + random() * 30
                path.addPolygon((0..<9).map { _ in PixelPoint(cx + (random() - 0.5) * r, cy + (random() - 0.5) * r) })
            }
            let worst = Self.worstDifference(path, rule: rule, width: 280, height: 64)
            #expect(worst <= Self.referenceToleranceCoverage, "\(rule): worst difference \(worst)")
        }
    }

    @Test func strokedPolylinesMatchTheReference() {
        var generator = SeededRandom(seed: 23)
        func random() -> Double { generator.unit() }
        for join in [StrokeStyle.Join.miter, .bevel, .round] {
            var path = Path()
            for _ in 0..<6 {
                var points: [PixelPoint] = []
                var p = PixelPoint(random() * 300, random() * 100)
                for _ in 0..<12 {
                    points.append(p)
                    p = p + PixelPoint((random() - 0.5) * 40, (random() - 0.5) * 40)
                }
                path.move(to: points[0])
                for q in points.dropFirst() { path.line(to: q) }
            }
            let outline = Stroker.outline(of: path, style: StrokeStyle(width: 1 + random() * 8, cap: .round, join: join))
            let worst = Self.worstDifference(outline, rule: .nonZero, width: 300, height: 100)
            #expect(worst <= Self.referenceToleranceCoverage, "\(join): worst difference \(worst)")
        }
    }

    /// Copies of a canvas share the rasterizer's sweep buffers until one draws: each then draws with
    /// its own, so two copies filling at once on two threads get what each gets alone.
    @Test func copiedCanvasesDrawIndependentlyOnTwoThreads() {
        var warmed = Canvas(width: 300, height: 200, background: .white)
        warmed.fillPolygon([PixelPoint(10, 10), PixelPoint(290, 30), PixelPoint(150, 190)], color: RGBAColor(red: 0, green: 0, blue: 255))
        let star = (0..<10).map { k -> PixelPoint in
            let angle = Double(k) * .pi / 5, radius = k % 2 == 0 ? 90.0 : 35.0
            return PixelPoint(150 + radius * sin(angle), 100 - radius * cos(angle))
        }
        let ring = (0..<64).map { k in PixelPoint(150 + 80 * cos(Double(k) * .pi / 32), 100 + 80 * sin(Double(k) * .pi / 32)) }
        @Sendable func draw(_ points: [PixelPoint], on canvas: Canvas) -> RGBA8Image {
            var canvas = canvas
            for _ in 0..<20 { canvas.fillPolygon(points, color: RGBAColor(red: 200, green: 30, blue: 30, alpha: 40)) }
            return canvas.image
        }
        let alone = (draw(star, on: warmed), draw(ring, on: warmed))
        let results = Mutex<[Int: RGBA8Image]>([:])
        let shared = warmed
        DispatchQueue.concurrentPerform(iterations: 2) { i in
            let image = draw(i == 0 ? star : ring, on: shared)
            results.withLock { $0[i] = image }
        }
        let together = results.withLock { $0 }
        #expect(together[0] == alone.0 && together[1] == alone.1, "a copy drew into the other's buffers")
        #expect(alone.0 != alone.1)
    }

    @Test func degenerateInputsMatchTheReference() {
        var path = Path()
        path.addRectangle(x: -10, y: -10, width: 1000, height: 1000)      // covers everything
        path.addRectangle(x: 3.5, y: 2.25, width: 0, height: 5)             // zero width
        path.addPolygon([PixelPoint(0, 0), PixelPoint(.nan, 3), PixelPoint(5, 5)])   // skipped
        path.addRectangle(x: 60.75, y: 1, width: 4.5, height: 0.01)         // thinner than a sub-scanline
        for rule in FillRule.allCases {
            #expect(Self.worstDifference(path, rule: rule, width: 64, height: 16) <= Self.referenceToleranceCoverage)
        }
    }
}
