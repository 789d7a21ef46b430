import Foundation
import Imaging
import TestSupport
import Testing

/// Coverage, fill-rule, stroke-geometry and clipping tests for `Canvas`, plus its golden images.
@Suite struct DrawingTests {
    /// Total alpha drawn, in pixels (Σ alpha / 255): a shape's area when drawn opaque on clear.
    static func coveredArea(_ image: RGBA8Image) -> Double {
        var sum = 0
        for i in 0..<image.pixelCount { sum += Int(image.components[4 * i + 3]) }
        return Double(sum) / 255
    }

    /// Area errors allowed: 8-bit quantisation (½ level per edge pixel) plus 1/16-pixel sub-scanlines.
    static let areaTolerancePixels = 1.0

    static func area(of path: Path, rule: FillRule = .nonZero, width: Int = 100, height: Int = 100) -> Double {
        var canvas = Canvas(width: width, height: height)
        canvas.fill(path, color: .black, rule: rule)
        return coveredArea(canvas.image)
    }

    static func strokedArea(_ points: [PixelPoint], _ style: StrokeStyle, closed: Bool = false) -> Double {
        var canvas = Canvas(width: 100, height: 100)
        canvas.drawPolyline(points, style: style, color: .black, closed: closed)
        return coveredArea(canvas.image)
    }

    /// The plain reference rasterizer: coverage by brute-force supersampling (16 rows × 64 columns of
    /// sample points per pixel), each point inside or outside by its winding number. Slow and obvious.
    static func referenceCoverage(_ path: Path, rule: FillRule, width: Int, height: Int) -> [Double] {
        var coverage = [Double](repeating: 0, count: width * height)
        let rows = 16, columns = 64
        for py in 0..<height {
            for sy in 0..<rows {
                let y = Double(py) + (Double(sy) + 0.5) / Double(rows)
                // Crossings of this sample row with every edge, with direction.
                var crossings: [(x: Double, winding: Int)] = []
                for subpath in path.subpaths {
                    let pts = subpath.points
                    for i in 0..<pts.count {
                        let a = pts[i], b = pts[(i + 1) % pts.count]
                        if (a.y <= y && b.y > y) || (b.y <= y && a.y > y) {
                            crossings.append((a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x), a.y < b.y ? 1 : -1))
                        }
                    }
                }
                // Sweep the sample points left to right, adding each crossing's winding as it is passed.
                crossings.sort { $0.x < $1.x }
                var next = 0, winding = 0
                for px in 0..<width {
                    for sx in 0..<columns {
                        let x = Double(px) + (Double(sx) + 0.5) / Double(columns)
                        while next < crossings.count && crossings[next].x < x { winding += crossings[next].winding; next += 1 }
                        let inside = rule == .nonZero ? winding != 0 : winding % 2 != 0
                        if inside { coverage[py * width + px] += 1 / Double(rows * columns) }
                    }
                }
            }
        }
        return coverage
    }

    /// Largest per-pixel difference, in 8-bit levels, between the rasterizer and the reference:
    /// the reference samples 64 points across a pixel where the rasterizer is exact, so edges differ
    /// by up to 1/64 of a pixel per sub-scanline, plus 8-bit rounding (measured worst: 2 levels).
    static let referenceToleranceLevels = 2

    @Test(arguments: FillRule.allCases)
    func randomPolygonsMatchTheReferenceRasterizer(rule: FillRule) {
        var generator = SeededRandom(seed: rule == .nonZero ? 11 : 12)
        func random() -> Double { generator.unit() }
        for _ in 0..<4 {
            // Self-intersecting polygons and a second overlapping contour, partly outside the image.
            var path = Path()
            for _ in 0..<2 {
                path.addPolygon((0..<7).map { _ in PixelPoint(random() * 36 - 4, random() * 28 - 4) })
            }
            var canvas = Canvas(width: 32, height: 24)
            canvas.fill(path, color: .black, rule: rule)
            let reference = Self.referenceCoverage(path, rule: rule, width: 32, height: 24)
            var worst = 0
            for i in 0..<(32 * 24) {
                worst = max(worst, abs(Int(canvas.image.components[4 * i + 3]) - Int((reference[i] * 255).rounded())))
            }
            #expect(worst <= Self.referenceToleranceLevels, "\(rule): worst difference \(worst) levels")
        }
    }

    @Test func rectangleCoverageIsExact() {
        var path = Path()
        path.addRectangle(x: 10.25, y: 20.5, width: 30.5, height: 10.25)
        #expect(abs(Self.area(of: path) - 30.5 * 10.25) < Self.areaTolerancePixels)
        var canvas = Canvas(width: 20, height: 4)
        var half = Path()
        half.addRectangle(x: 0, y: 0, width: 10.5, height: 4)
        canvas.fill(half, color: .black)
        #expect(canvas.image[9, 1, 3] == 255)
        #expect(abs(Int(canvas.image[10, 1, 3]) - 128) <= 1)
        #expect(canvas.image[11, 1, 3] == 0)
    }

    @Test func circleAreaMatchesPiRSquared() {
        for radius in [3.0, 10.0, 37.5] {
            let area = Self.area(of: .circle(center: PixelPoint(50.3, 49.7), radius: radius))
            #expect(abs(area - .pi * radius * radius) < 0.005 * .pi * radius * radius + 1, "radius \(radius)")
        }
    }

    @Test func diagonalEdgeGivesHalfCoverage() {
        // A triangle whose hypotenuse passes through pixel centres: those pixels are half covered.
        var canvas = Canvas(width: 40, height: 40)
        canvas.fill(Path(polyline: [PixelPoint(0, 0), PixelPoint(40, 40), PixelPoint(0, 40)]), color: .black)
        for i in 2..<38 { #expect(abs(Int(canvas.image[i, i, 3]) - 128) <= 2, "pixel \(i)") }
    }

    @Test func fillRulesDifferForNestedContoursOfSameDirection() {
        var path = Path()
        path.addRectangle(x: 10, y: 10, width: 80, height: 80)
        path.addRectangle(x: 30, y: 30, width: 40, height: 40)       // same direction
        #expect(abs(Self.area(of: path, rule: .nonZero) - 6400) < Self.areaTolerancePixels)
        #expect(abs(Self.area(of: path, rule: .evenOdd) - 4800) < Self.areaTolerancePixels)
        // A counter-directed hole is a hole under both rules.
        var ring = Path()
        ring.addRing(center: PixelPoint(50, 50), innerRadius: 20, outerRadius: 40)
        let expected = Double.pi * (1600 - 400)
        #expect(abs(Self.area(of: ring, rule: .nonZero) - expected) < 0.005 * expected)
        #expect(abs(Self.area(of: ring, rule: .evenOdd) - expected) < 0.005 * expected)
    }

    @Test func pentagramCentreDependsOnFillRule() {
        let star = (0..<5).map { k -> PixelPoint in
            let t = -Double.pi / 2 + Double(k) * 4 * .pi / 5
            return PixelPoint(50 + 45 * cos(t), 50 + 45 * sin(t))
        }
        var nonZero = Canvas(width: 100, height: 100), evenOdd = Canvas(width: 100, height: 100)
        nonZero.fill(Path(polyline: star), color: .black, rule: .nonZero)
        evenOdd.fill(Path(polyline: star), color: .black, rule: .evenOdd)
        #expect(nonZero.image[50, 50, 3] == 255)
        #expect(evenOdd.image[50, 50, 3] == 0)
        #expect(evenOdd.image[50, 12, 3] == 255)   // a point of the star
    }

    @Test func strokeCapsAddTheExpectedArea() {
        let line = [PixelPoint(30, 50), PixelPoint(70, 50)]
        let tolerance = Self.areaTolerancePixels
        #expect(abs(Self.strokedArea(line, StrokeStyle(width: 4, cap: .butt)) - 160) < tolerance)
        #expect(abs(Self.strokedArea(line, StrokeStyle(width: 4, cap: .square)) - 176) < tolerance)
        #expect(abs(Self.strokedArea(line, StrokeStyle(width: 4, cap: .round)) - (160 + .pi * 4)) < tolerance)
    }

    @Test func strokeJoinsAddTheExpectedArea() {
        // An L of two 40-pixel legs, 10 wide: union of the legs is 775 px²; the outer corner adds
        // 25 (miter), 12.5 (bevel) or π·25/4 (round).
        let corner = [PixelPoint(10, 50), PixelPoint(50, 50), PixelPoint(50, 10)]
        let tolerance = Self.areaTolerancePixels
        #expect(abs(Self.strokedArea(corner, StrokeStyle(width: 10, join: .miter)) - 800) < tolerance)
        #expect(abs(Self.strokedArea(corner, StrokeStyle(width: 10, join: .bevel)) - 787.5) < tolerance)
        #expect(abs(Self.strokedArea(corner, StrokeStyle(width: 10, join: .round)) - (775 + .pi * 25 / 4)) < tolerance)
        // A right angle needs a miter ratio of √2: a limit of 1.4 bevels it.
        #expect(abs(Self.strokedArea(corner, StrokeStyle(width: 10, join: .miter, miterLimit: 1.4)) - 787.5) < tolerance)
    }

    @Test func closedStrokeHasNoGapAtItsStart() {
        var canvas = Canvas(width: 100, height: 100)
        canvas.drawPolyline([PixelPoint(20, 20), PixelPoint(80, 20), PixelPoint(80, 80), PixelPoint(20, 80)],
                            style: StrokeStyle(width: 6, join: .miter), color: .black, closed: true)
        // The outer corner at the starting vertex is mitred: pixel (17.5, 17.5) is covered.
        #expect(canvas.image[17, 17, 3] == 255)
        // Area: outer square 66² minus inner 54².
        #expect(abs(Self.coveredArea(canvas.image) - Double(66 * 66 - 54 * 54)) < Self.areaTolerancePixels)
    }

    @Test func adjacentPiecesOfOnePathHaveNoSeam() {
        // Two triangles sharing a diagonal, filled as one path: every pixel of the square is opaque.
        var path = Path()
        path.addPolygon([PixelPoint(10, 10), PixelPoint(60, 10), PixelPoint(60, 43)])
        path.addPolygon([PixelPoint(10, 10), PixelPoint(60, 43), PixelPoint(10, 43)])
        var canvas = Canvas(width: 70, height: 50, background: .white)
        canvas.fill(path, color: .black)
        for y in 10..<43 { for x in 10..<60 { #expect(canvas.image[x, y, 0] == 0) } }
    }

    @Test func drawingIsClippedToTheImage() {
        var canvas = Canvas(width: 20, height: 10)
        canvas.fillCircle(center: PixelPoint(10, 5), radius: 1000, color: .black)
        #expect(Self.coveredArea(canvas.image) == 200)
        var outside = Canvas(width: 20, height: 10)
        outside.fillCircle(center: PixelPoint(-50, 5), radius: 10, color: .black)
        outside.drawLine(from: PixelPoint(-1e9, -5), to: PixelPoint(1e9, -5), width: 2, color: .black)
        outside.drawLine(from: PixelPoint(.nan, 1), to: PixelPoint(5, 5), width: 2, color: .black)
        #expect(Self.coveredArea(outside.image) == 0)
        // A long line crossing the image covers exactly its visible part.
        var long = Canvas(width: 20, height: 10)
        long.drawLine(from: PixelPoint(-1e6, 5), to: PixelPoint(1e6, 5), width: 2, color: .black)
        #expect(Self.coveredArea(long.image) == 40)
    }

    @Test func translucentFillCompositesSourceOver() {
        var canvas = Canvas(width: 4, height: 4, background: RGBAColor(red: 0, green: 0, blue: 255))
        canvas.fillAll(RGBAColor(red: 255, green: 0, blue: 0, alpha: 128))
        #expect(canvas.image[1, 1, 0] == 128)
        #expect(canvas.image[1, 1, 2] == 127)
        #expect(canvas.image[1, 1, 3] == 255)
    }

    // MARK: - Golden images

    static let paper = RGBAColor(red: 250, green: 248, blue: 240)
    static let ink = RGBAColor(red: 30, green: 40, blue: 70)
    static let marker = RGBAColor(red: 230, green: 40, blue: 40)

    @Test func goldenLinesCapsAndJoins() {
        var canvas = Canvas(width: 512, height: 256, background: Self.paper)
        // Caps: one column per cap, widths 1, 3, 8, 16; the red hairline marks the true end points.
        for (column, cap) in StrokeStyle.Cap.allCases.enumerated() {
            let x0 = 20.0 + Double(column) * 80, x1 = x0 + 50
            for (row, width) in [1.0, 3.0, 8.0, 16.0].enumerated() {
                let y = 20.0 + Double(row) * 26
                canvas.drawLine(from: PixelPoint(x0, y), to: PixelPoint(x1, y), width: width, cap: cap, color: Self.ink)
                canvas.drawLine(from: PixelPoint(x0, y), to: PixelPoint(x1, y), width: 0.75, color: Self.marker)
            }
        }
        // Joins: one zig-zag per join, then a sharp one that exceeds the miter limit.
        for (row, join) in StrokeStyle.Join.allCases.enumerated() {
            let y = 140.0 + Double(row) * 38
            let zigzag = [PixelPoint(20, y + 20), PixelPoint(50, y), PixelPoint(80, y + 20), PixelPoint(120, y + 4),
                          PixelPoint(150, y + 24), PixelPoint(200, y + 10), PixelPoint(230, y + 28)]
            canvas.drawPolyline(zigzag, style: StrokeStyle(width: 10, join: join), color: Self.ink)
            canvas.drawPolyline(zigzag, style: StrokeStyle(width: 0.75), color: Self.marker)
        }
        // Miter limit: the same sharp corner with limit 10 (mitred) and 4 (bevelled).
        for (i, limit) in [10.0, 4.0].enumerated() {
            let x = 270.0 + Double(i) * 50
            let spike = [PixelPoint(x, 240), PixelPoint(x + 12, 160), PixelPoint(x + 24, 240)]
            canvas.drawPolyline(spike, style: StrokeStyle(width: 8, join: .miter, miterLimit: limit), color: Self.ink)
        }
        // A fan of thin lines: anti-aliasing at every angle, widths 0.5 to 2.
        let centre = PixelPoint(440, 70)
        for k in 0..<24 {
            let t = Double(k) / 24 * 2 * .pi
            let width = [0.5, 1, 1.5, 2][k % 4]
            canvas.drawLine(from: centre + PixelPoint(12 * cos(t), 12 * sin(t)),
                            to: centre + PixelPoint(60 * cos(t), 60 * sin(t)), width: width, color: Self.ink)
        }
        // A closed polygon outline with round joins and a translucent wide stroke over it.
        let hexagon = (0..<6).map { k -> PixelPoint in
            let t = Double(k) / 6 * 2 * .pi
            return PixelPoint(430 + 45 * cos(t), 195 + 45 * sin(t))
        }
        canvas.drawPolyline(hexagon, style: StrokeStyle(width: 14, join: .round), color: Self.ink, closed: true)
        canvas.drawPolyline(hexagon, style: StrokeStyle(width: 24, join: .miter),
                            color: RGBAColor(red: 40, green: 160, blue: 90, alpha: 110), closed: true)
        GoldenImage.check(canvas.image, named: "drawing-lines")
    }

    static func star(center: PixelPoint, radius: Double) -> [PixelPoint] {
        (0..<5).map { k in
            let t = -Double.pi / 2 + Double(k) * 4 * .pi / 5
            return PixelPoint(center.x + radius * cos(t), center.y + radius * sin(t))
        }
    }

    @Test func goldenPolygonsAndFillRules() {
        var canvas = Canvas(width: 512, height: 256, background: Self.paper)
        let fill = RGBAColor(red: 50, green: 90, blue: 170)
        for (column, rule) in [FillRule.nonZero, .evenOdd].enumerated() {
            let dx = Double(column) * 256
            // A self-intersecting star: the centre pentagon is inside only under non-zero.
            canvas.fill(Path(polyline: Self.star(center: PixelPoint(dx + 64, 70), radius: 58)), color: fill, rule: rule)
            // Two concentric circles in the same direction: a ring only under even-odd.
            var circles = Path()
            circles.addCircle(center: PixelPoint(dx + 190, 70), radius: 56)
            circles.addCircle(center: PixelPoint(dx + 190, 70), radius: 30)
            canvas.fill(circles, color: fill, rule: rule)
            // A polygon with two holes: the triangle runs opposite to the outline (a hole under both
            // rules), the quadrilateral runs the same way (a hole only under even-odd).
            var holed = Path()
            holed.addPolygon([PixelPoint(dx + 10, 140), PixelPoint(dx + 120, 150), PixelPoint(dx + 110, 245),
                              PixelPoint(dx + 20, 235)])
            holed.addPolygon([PixelPoint(dx + 30, 160), PixelPoint(dx + 30, 200), PixelPoint(dx + 60, 190)])
            holed.addPolygon([PixelPoint(dx + 98, 170), PixelPoint(dx + 95, 225), PixelPoint(dx + 60, 225),
                              PixelPoint(dx + 70, 200)])
            canvas.fill(holed, color: fill, rule: rule)
            // A triangle mesh on a jittered grid of shared vertices, filled as one path: no seams
            // along the shared edges.
            func vertex(_ i: Int, _ j: Int) -> PixelPoint {
                let jitter = Double((i * 7 + j * 13) % 5) - 2
                return PixelPoint(dx + 135 + Double(i) * 28 + jitter, 140 + Double(j) * 33 - jitter)
            }
            var mesh = Path()
            for i in 0..<4 {
                for j in 0..<3 {
                    mesh.addPolygon([vertex(i, j), vertex(i + 1, j), vertex(i + 1, j + 1)])
                    mesh.addPolygon([vertex(i, j), vertex(i + 1, j + 1), vertex(i, j + 1)])
                }
            }
            canvas.fill(mesh, color: RGBAColor(red: 200, green: 90, blue: 40), rule: .nonZero)
        }
        canvas.drawLine(from: PixelPoint(256, 0), to: PixelPoint(256, 256), width: 1, color: Self.ink)
        GoldenImage.check(canvas.image, named: "drawing-polygons")
    }

    @Test func goldenCirclesAndRings() {
        var canvas = Canvas(width: 256, height: 256, background: Self.paper)
        // Filled discs from sub-pixel to large radii.
        var x = 8.0
        for radius in [0.5, 1, 1.5, 2.5, 4, 6, 9] {
            canvas.fillCircle(center: PixelPoint(x + radius, 20), radius: radius, color: Self.ink)
            x += 2 * radius + 8
        }
        // Stroked circles of widths 1, 2, 4 and rings.
        for (i, width) in [1.0, 2.0, 4.0].enumerated() {
            canvas.strokeCircle(center: PixelPoint(40 + Double(i) * 80, 80), radius: 30, width: width, color: Self.ink)
        }
        canvas.fillRing(center: PixelPoint(60, 180), innerRadius: 25, outerRadius: 45,
                        color: RGBAColor(red: 40, green: 140, blue: 80))
        // Translucent overlapping discs: source-over with a shared alpha.
        let colors = [RGBAColor(red: 230, green: 40, blue: 40, alpha: 150),
                      RGBAColor(red: 40, green: 180, blue: 60, alpha: 150),
                      RGBAColor(red: 40, green: 70, blue: 230, alpha: 150)]
        for (i, color) in colors.enumerated() {
            let t = Double(i) / 3 * 2 * .pi - .pi / 2
            canvas.fillCircle(center: PixelPoint(180 + 22 * cos(t), 180 + 22 * sin(t)), radius: 36, color: color)
        }
        GoldenImage.check(canvas.image, named: "drawing-circles")
    }
}
