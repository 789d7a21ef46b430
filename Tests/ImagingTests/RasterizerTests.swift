@testable import Imaging
import Testing

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

    @Test(arguments: FillRule.allCases)
    func randomPolygonsMatchTheReference(rule: FillRule) {
        var state: UInt64 = rule == .nonZero ? 21 : 22
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
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
        var state: UInt64 = 23
        func random() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
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
