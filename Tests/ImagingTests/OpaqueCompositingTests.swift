import Imaging
import Testing

/// `Compositing.composite(_:onto:x:y:opacity:)` onto an opaque RGB image: what compositing onto an
/// opaque RGBA copy of it gives, within a level, and nothing outside what the layer covers.
@Suite struct OpaqueCompositingTests {
    static func noise(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    /// Layers partly outside on every side, fully transparent and opaque pixels among the random
    /// alphas, at several opacities.
    @Test(arguments: [(-7, -5, Float(1)), (30, 12, 0.95), (50, 30, 0.4), (-3, 20, 0)])
    func matchesCompositingOntoAnOpaqueCopy(x: Int, y: Int, opacity: Float) {
        let view = RGB8Image(width: 64, height: 36, components: Self.noise(64 * 36 * 3, seed: 7))
        var layer = RGBA8Image(width: 24, height: 20, components: Self.noise(24 * 20 * 4, seed: 99))
        for i in stride(from: 3, to: layer.components.count, by: 28) { layer.components[i] = 0 }
        for i in stride(from: 7, to: layer.components.count, by: 36) { layer.components[i] = 255 }
        var canvas = Canvas(image: view.withAlpha())
        canvas.draw(layer, x: x, y: y, opacity: opacity)
        let expected = canvas.image.droppingAlpha()
        var composed = view
        Compositing.composite(layer, onto: &composed, x: x, y: y, opacity: opacity)
        var worst = 0, changedOutside = 0
        for py in 0..<view.height {
            for px in 0..<view.width {
                let lx = px - x, ly = py - y
                let inside = lx >= 0 && lx < layer.width && ly >= 0 && ly < layer.height
                let transparent = !inside || layer[lx, ly, 3] == 0 || opacity == 0
                for c in 0..<3 {
                    let got = Int(composed[px, py, c])
                    worst = max(worst, abs(got - Int(expected[px, py, c])))
                    if transparent && got != Int(view[px, py, c]) { changedOutside += 1 }
                }
            }
        }
        #expect(worst <= 1, "largest difference from compositing onto an RGBA copy: \(worst) levels")
        #expect(changedOutside == 0, "\(changedOutside) channels changed where the layer is transparent or absent")
        if opacity == 1 {
            // An opaque layer pixel replaces the view's exactly: pixels 1, 10, 19… (alpha bytes 7, 43, 79…).
            var replaced = 0
            for k in stride(from: 1, to: layer.width * layer.height, by: 9) {
                let px = x + k % layer.width, py = y + k / layer.width
                guard px >= 0, py >= 0, px < view.width, py < view.height else { continue }
                #expect(layer[k % layer.width, k / layer.width, 3] == 255)
                for c in 0..<3 where composed[px, py, c] == layer[k % layer.width, k / layer.width, c] { replaced += 1 }
                replaced -= 3
            }
            #expect(replaced == 0, "opaque layer pixels that did not replace the view's")
        }
    }
}
