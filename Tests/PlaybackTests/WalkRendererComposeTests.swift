import Imaging
@testable import Playback
import Testing

/// The frame's base: the view copied into an opaque black frame (the view itself when it fills it),
/// for a full-frame view and side-by-side ones.
@Suite struct WalkRendererComposeTests {
    @Test(arguments: [(64, 36), (40, 36), (64, 20)])
    func opaqueFrameHoldsTheViewOverBlack(viewWidth: Int, viewHeight: Int) {
        var view = RGB8Image(width: viewWidth, height: viewHeight)
        var state: UInt32 = 12345
        for i in 0..<view.components.count {
            state = state &* 1_664_525 &+ 1_013_904_223
            view.components[i] = UInt8(truncatingIfNeeded: state >> 24)
        }
        let frame = WalkRenderer.opaqueFrame(view, width: 64, height: 36)
        #expect(frame.width == 64 && frame.height == 36)
        var mismatches = 0
        for y in 0..<36 {
            for x in 0..<64 {
                for c in 0..<3 {
                    let expected = x < viewWidth && y < viewHeight ? view[x, y, c] : 0
                    if frame[x, y, c] != expected { mismatches += 1 }
                }
            }
        }
        #expect(mismatches == 0)
    }
}
