import Foundation
import Imaging

/// Composites an image rotated about its centre onto a canvas (for street names along their streets),
/// through `Canvas.drawProjected` (bilinear in premultiplied alpha).
enum RotatedComposite {
    /// Draws `source` rotated by `angleRadians` (clockwise on screen) with its centre at `center` pixels.
    static func draw(_ source: RGBA8Image, center: PixelPoint, angleRadians: Double, onto canvas: inout Canvas) {
        let c = cos(angleRadians), s = sin(angleRadians)
        let hw = Double(source.width) / 2, hh = Double(source.height) / 2
        // Source (u, v) ↦ centre + R · (u − hw, v − hh).
        let rotation = Homography.affine(c, -s, center.x - c * hw + s * hh,
                                         s, c, center.y - s * hw - c * hh)
        canvas.drawProjected(source, transform: rotation)
    }
}
