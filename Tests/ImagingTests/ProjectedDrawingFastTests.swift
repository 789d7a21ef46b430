import Foundation
import Imaging
import Testing

/// The fast `Canvas.drawProjected` (mip levels, per-span sampling, row extents) against the plain
/// reference: with 16×16 subsamples the reference is (close to) the box filter over each canvas
/// pixel, the ground truth both approximate.
@Suite struct ProjectedDrawingFastTests {
    /// Largest mean difference from the ground truth, levels per channel over the pixels either draws.
    static let meanTolerance = 4.0
    /// Largest difference allowed on the 99th-percentile pixel, levels.
    static let percentileTolerance = 40
    /// Subsamples per axis of the ground truth.
    static let truthSubsamples = 16

    /// Street-name-like source: bold text with a dark translucent halo, as the road labels paint it,
    /// inside a transparent margin.
    static let text: RGBA8Image = {
        let renderer = TextRenderer(fonts: try! FontLibrary())
        var canvas = Canvas(width: 330, height: 60)
        let style = TextStyle(pixelSize: 40, weight: .bold, color: .white,
                              halo: .init(width: 3, color: RGBAColor(red: 16, green: 20, blue: 28, alpha: 150)))
        _ = try! renderer.draw("Aleksanterinkatu", at: PixelPoint(8, 44), style: style, on: &canvas)
        return canvas.image
    }()

    /// The map from a source lying on the ground to a view looking along the ground from
    /// `heightMeters` up: source pixel (u, v) is `pixelsPerMeter` per metre, u along `along` (a unit
    /// vector in the ground's (sideways, ahead) plane), starting `nearMeters` ahead, centred sideways
    /// at `sidewaysMeters`.
    static func ground(focal: Double, centre: PixelPoint, heightMeters: Double, pixelsPerMeter k: Double,
                       nearMeters: Double, sidewaysMeters: Double, along: SIMD2<Double>, sourceHeight: Double) -> Homography {
        // Ground point = origin + u/k·along + (v − h/2)/k·across; view x = cx + f·side/ahead, y = cy + f·height/ahead.
        let across = SIMD2(along.y, -along.x)
        let origin = SIMD2(sidewaysMeters, nearMeters) - across * (sourceHeight / 2 / k)
        let a = along / k, b = across / k
        // Homogeneous (cx·ahead + f·side, cy·ahead + f·height, ahead), linear in (u, v, 1).
        return Homography(SIMD3(centre.x * a.y + focal * a.x, centre.x * b.y + focal * b.x, centre.x * origin.y + focal * origin.x),
                          SIMD3(centre.y * a.y, centre.y * b.y, centre.y * origin.y + focal * heightMeters),
                          SIMD3(a.y, b.y, origin.y))
    }

    /// The cases: name, canvas size, map.
    static var cases: [(name: String, width: Int, height: Int, transform: Homography)] {
        let w = 200, h = 150, centre = PixelPoint(100, 20)
        return [
            // Text running straight away from the viewer, 5 m to about 40 m: shrinks up to ~20× along.
            ("steep, away", w, h, ground(focal: 100, centre: centre, heightMeters: 2.5, pixelsPerMeter: 9, nearMeters: 5,
                                        sidewaysMeters: 0, along: SIMD2(0, 1), sourceHeight: 60)),
            // The same text at 30°, off to the side: anisotropy oblique to both sets of axes.
            ("steep, oblique", w, h, ground(focal: 100, centre: centre, heightMeters: 2.5, pixelsPerMeter: 9, nearMeters: 6,
                                           sidewaysMeters: -3, along: SIMD2(0.5, 0.866), sourceHeight: 60)),
            // Near the horizon: 20 m to 185 m, shrinking some 270× along at the far end.
            ("near the horizon", w, h, ground(focal: 100, centre: centre, heightMeters: 2.5, pixelsPerMeter: 2, nearMeters: 20,
                                             sidewaysMeters: 0, along: SIMD2(0, 1), sourceHeight: 60)),
            // Across the view, seen at a grazing angle: foreshortened across the letters.
            ("grazing, across", w, h, ground(focal: 100, centre: PixelPoint(100, 40), heightMeters: 1.5, pixelsPerMeter: 20,
                                            nearMeters: 8, sidewaysMeters: -8, along: SIMD2(1, 0), sourceHeight: 60)),
            // Rotation with a uniform shrink of 3, and a magnified rotation.
            ("rotated, shrunk", w, h, .affine(0.3 * cos(0.4), -0.3 * sin(0.4), 40, 0.3 * sin(0.4), 0.3 * cos(0.4), 30)),
            ("rotated, magnified", 400, 300, .affine(1.7 * cos(-0.2), -1.7 * sin(-0.2), 10, 1.7 * sin(-0.2), 1.7 * cos(-0.2), 120)),
        ]
    }

    /// A busy opaque backdrop, so that both colour and alpha errors show.
    static func backdrop(width: Int, height: Int) -> Canvas {
        var canvas = Canvas(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let k = (y * width + x) * 4
                canvas.image.components[k] = UInt8((x * 7 + y * 3) % 256)
                canvas.image.components[k + 1] = UInt8((x * 2 + y * 5 + 90) % 256)
                canvas.image.components[k + 2] = UInt8((x + y) % 2 == 0 ? 60 : 180)
                canvas.image.components[k + 3] = 255
            }
        }
        return canvas
    }

    /// Per-pixel largest channel difference between `a` and `b` over pixels where either differs from
    /// `background`: mean and 99th percentile.
    static func compare(_ a: RGBA8Image, _ b: RGBA8Image, background: RGBA8Image) -> (mean: Double, p99: Int, count: Int) {
        var differences: [Int] = []
        for i in stride(from: 0, to: a.components.count, by: 4) {
            var touched = false, worst = 0
            for c in 0..<4 {
                touched = touched || a.components[i + c] != background.components[i + c] || b.components[i + c] != background.components[i + c]
                worst = max(worst, abs(Int(a.components[i + c]) - Int(b.components[i + c])))
            }
            if touched { differences.append(worst) }
        }
        guard !differences.isEmpty else { return (0, 0, 0) }
        differences.sort()
        let mean = Double(differences.reduce(0, +)) / Double(differences.count)
        return (mean, differences[differences.count * 99 / 100], differences.count)
    }

    @Test(arguments: 0..<6)
    func fastPathMatchesTheBoxFilter(_ index: Int) {
        let test = Self.cases[index]
        let background = Self.backdrop(width: test.width, height: test.height)
        var truth = background, fast = background, old = background
        truth.drawProjectedReference(Self.text, transform: test.transform, opacity: 0.82, maximumSubsamples: Self.truthSubsamples)
        fast.drawProjected(Self.text, transform: test.transform, opacity: 0.82)
        old.drawProjectedReference(Self.text, transform: test.transform, opacity: 0.82)
        let error = Self.compare(fast.image, truth.image, background: background.image)
        let oldError = Self.compare(old.image, truth.image, background: background.image)
        print("\(test.name): fast vs truth mean \(String(format: "%.2f", error.mean)), p99 \(error.p99) over \(error.count) px;"
              + " 4×4 reference vs truth mean \(String(format: "%.2f", oldError.mean)), p99 \(oldError.p99)")
        #expect(error.count > 200, "\(test.name): the text should be drawn")
        #expect(error.mean <= Self.meanTolerance, "\(test.name): mean difference \(error.mean) levels")
        #expect(error.p99 <= Self.percentileTolerance, "\(test.name): 99th percentile \(error.p99) levels")
        // No worse than the 4×4 reference it replaces, give or take a level.
        #expect(error.mean <= oldError.mean + 1, "\(test.name): fast \(error.mean) vs 4×4 \(oldError.mean)")
    }

    /// Pixels whose footprint cannot reach the ink stay exactly as they were, however coarse the
    /// level sampled: a pixel is "near" the ink when its square, mapped into the source and grown by
    /// twice its own size plus 2 source pixels (what the blur of the level chosen for it can reach),
    /// meets the inked box; every other pixel must be untouched.
    @Test(arguments: 0..<6)
    func transparentRegionsAreUntouched(_ index: Int) throws {
        let test = Self.cases[index]
        // Only a little ink in the middle of a big transparent source.
        var source = RGBA8Image(width: 330, height: 60)
        let ink = (x0: 150.0, y0: 25.0, x1: 180.0, y1: 35.0)
        for y in Int(ink.y0)..<Int(ink.y1) {
            for x in Int(ink.x0)..<Int(ink.x1) { for c in 0..<4 { source.components[(y * 330 + x) * 4 + c] = c == 3 ? 200 : 255 } }
        }
        let background = Self.backdrop(width: test.width, height: test.height)
        var fast = background
        fast.drawProjected(source, transform: test.transform)
        let inverse = try #require(test.transform.inverse)
        var stray = 0, near = 0, changed = 0
        for y in 0..<test.height {
            for x in 0..<test.width {
                var us: [Double] = [], vs: [Double] = []
                for (cx, cy) in [(0.0, 0.0), (1, 0), (0, 1), (1, 1)] {
                    guard let p = inverse.map(PixelPoint(Double(x) + cx, Double(y) + cy)) else { break }
                    us.append(p.x); vs.append(p.y)
                }
                let i = (y * test.width + x) * 4
                let touched = fast.image.components[i..<i + 4] != background.image.components[i..<i + 4]
                if touched { changed += 1 }
                guard us.count == 4 else { continue }  // at or beyond the horizon: anything goes
                let grow = 2 * max(us.max()! - us.min()!, vs.max()! - vs.min()!) + 2
                let meets = us.min()! - grow < ink.x1 && us.max()! + grow > ink.x0 && vs.min()! - grow < ink.y1 && vs.max()! + grow > ink.y0
                if meets { near += 1 } else if touched { stray += 1 }
            }
        }
        #expect(stray == 0, "\(test.name): \(stray) pixels changed away from the ink")
        #expect(changed > 0 && near > 0, "\(test.name): the ink should be drawn")
    }

    /// Text rendered straight into a `ProjectionSource` is the text drawn on a transparent canvas,
    /// premultiplied: to one level per channel.
    @Test func textSourceMatchesTheCanvasRoute() throws {
        let renderer = TextRenderer(fonts: try FontLibrary())
        let style = TextStyle(pixelSize: 37.3, weight: .bold, color: RGBAColor(red: 250, green: 240, blue: 200, alpha: 230),
                              halo: .init(width: 2.6, color: RGBAColor(red: 16, green: 20, blue: 28, alpha: 150)))
        var canvas = Canvas(width: 320, height: 56)
        try renderer.draw("Pohjoisesplanadi 京", at: PixelPoint(6.3, 41), style: style, on: &canvas)
        let direct = try ProjectionSource(text: "Pohjoisesplanadi 京", style: style, origin: PixelPoint(6.3, 41),
                                          width: 320, height: 56, renderer: renderer)
        let viaCanvas = ProjectionSource(canvas.image)
        #expect(direct.inkMinX == viaCanvas.inkMinX && direct.inkMaxX == viaCanvas.inkMaxX)
        #expect(direct.inkMinY == viaCanvas.inkMinY && direct.inkMaxY == viaCanvas.inkMaxY)
        var worst = 0
        let a = direct.premultipliedComponents, b = viaCanvas.premultipliedComponents
        for i in a.indices { worst = max(worst, abs(Int(a[i]) - Int(b[i]))) }
        #expect(worst <= 1, "premultiplied channels differ by up to \(worst) levels")
        #expect(a.contains { $0 != 0 })
    }

    @Test func emptySourceDrawsNothing() {
        let background = Self.backdrop(width: 64, height: 64)
        var canvas = background
        canvas.drawProjected(RGBA8Image(width: 40, height: 10), transform: .affine(0.5, 0.1, 3, -0.1, 0.5, 20))
        #expect(canvas.image == background.image)
    }
}
