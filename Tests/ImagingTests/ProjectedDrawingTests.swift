import Foundation
import Imaging
import Testing

/// `Homography` algebra and `Canvas.drawProjected`.
@Suite struct ProjectedDrawingTests {
    /// A perspective map of the kind the road labels use (a plane seen obliquely).
    static let oblique = Homography(SIMD3(1.2, 0.3, 40), SIMD3(-0.1, 0.8, 25), SIMD3(0.002, 0.004, 1))

    @Test func inverseAndCompositionRoundTrip() throws {
        let inverse = try #require(Self.oblique.inverse)
        for point in [PixelPoint(0, 0), PixelPoint(37.5, 12.25), PixelPoint(-20, 90)] {
            let there = try #require(Self.oblique.map(point))
            let back = try #require(inverse.map(there))
            #expect((back - point).length < 1e-9, "\(point) → \(there) → \(back)")
            let composed = try #require((inverse * Self.oblique).map(point))
            #expect((composed - point).length < 1e-9)
        }
        #expect(Homography.affine(1, 2, 3, 2, 4, 6).inverse == nil)  // singular: rows 1 and 2 parallel
        // Points on the far side of the horizon have no image.
        #expect(Homography(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -0.01, 1)).map(PixelPoint(0, 200)) == nil)
    }

    static func checker(width: Int, height: Int) -> RGBA8Image {
        var image = RGBA8Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width where (x + y) % 2 == 0 {
                for c in 0..<4 { image.components[(y * width + x) * 4 + c] = 255 }
            }
        }
        return image
    }

    @Test func identityCopiesAndTranslationMoves() {
        let source = Self.checker(width: 9, height: 7)
        var expected = Canvas(width: 20, height: 16)
        expected.draw(source, x: 5, y: 3)
        var projected = Canvas(width: 20, height: 16)
        projected.drawProjected(source, transform: .affine(1, 0, 5, 0, 1, 3))
        #expect(projected.image == expected.image)
    }

    /// Shrunk four times, a one-pixel checker must average to grey; one bilinear sample per pixel
    /// would alias it to whatever sample positions happen to hit.
    @Test func shrinkingAveragesInsteadOfAliasing() {
        let source = Self.checker(width: 64, height: 64)
        var canvas = Canvas(width: 16, height: 16, background: .black)
        canvas.drawProjected(source, transform: .affine(0.25, 0, 0, 0, 0.25, 0))
        var worst = 0
        for y in 2..<14 {
            for x in 2..<14 { worst = max(worst, abs(Int(canvas.image.components[(y * 16 + x) * 4]) - 128)) }
        }
        #expect(worst <= 12, "interior pixels should be mid grey; worst deviation \(worst) levels")
    }

    @Test func nothingDrawnWhenTheSourceCrossesTheHorizon() {
        var canvas = Canvas(width: 32, height: 32)
        canvas.drawProjected(Self.checker(width: 10, height: 10),
                             transform: Homography(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, -0.2, 1)))
        #expect(canvas.image.components.allSatisfy { $0 == 0 })
    }
}
