import Imaging
@testable import Playback
import Testing

/// The frame's base (the view copied into an opaque black frame) is what the black canvas with the
/// view composited over it held: the same bytes, for a full-frame view and a side-by-side one.
@Suite struct WalkRendererComposeTests {
    @Test(arguments: [(64, 36), (40, 36), (64, 20)])
    func opaqueFrameMatchesCompositingTheViewOverBlack(viewWidth: Int, viewHeight: Int) {
        var view = RGB8Image(width: viewWidth, height: viewHeight)
        var state: UInt32 = 12345
        for i in 0..<view.components.count {
            state = state &* 1_664_525 &+ 1_013_904_223
            view.components[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        var canvas = Canvas(width: 64, height: 36, background: .black)
        canvas.draw(view.withAlpha(), x: 0, y: 0)
        #expect(WalkRenderer.opaqueFrame(view, width: 64, height: 36) == canvas.image)
    }
}
