import Foundation
import Imaging

/// Composites an image rotated about its centre onto a canvas (for street names along their streets),
/// sampling bilinearly in premultiplied alpha.
enum RotatedComposite {
    /// Draws `source` rotated by `angleRadians` (clockwise on screen) with its centre at `center` pixels.
    static func draw(_ source: RGBA8Image, center: PixelPoint, angleRadians: Double, onto canvas: inout Canvas) {
        let c = cos(angleRadians), s = sin(angleRadians)
        let hw = Double(source.width) / 2, hh = Double(source.height) / 2
        let ex = abs(c) * hw + abs(s) * hh, ey = abs(s) * hw + abs(c) * hh
        let x0 = max(0, Int((center.x - ex).rounded(.down))), x1 = min(canvas.width, Int((center.x + ex).rounded(.up)))
        let y0 = max(0, Int((center.y - ey).rounded(.down))), y1 = min(canvas.height, Int((center.y + ey).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        let sw = source.width, sh = source.height
        // Render the rotated label into a small straight-alpha patch, then composite it source-over.
        var patch = RGBA8Image(width: x1 - x0, height: y1 - y0)
        let pw = patch.width
        source.components.withUnsafeBufferPointer { src in
            patch.components.withUnsafeMutableBufferPointer { dst in
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let dx = Double(x) + 0.5 - center.x, dy = Double(y) + 0.5 - center.y
                        // Inverse rotation into the source, pixel-centre convention.
                        let u = c * dx + s * dy + hw - 0.5, v = -s * dx + c * dy + hh - 0.5
                        guard u > -1, v > -1, u < Double(sw), v < Double(sh) else { continue }
                        let iu = Int(u.rounded(.down)), iv = Int(v.rounded(.down))
                        let fu = u - Double(iu), fv = v - Double(iv)
                        var acc = SIMD4<Double>(repeating: 0)
                        @inline(__always) func add(_ sx: Int, _ sy: Int, _ w: Double) {
                            guard sx >= 0, sy >= 0, sx < sw, sy < sh, w > 0 else { return }
                            let i = (sy * sw + sx) * 4
                            let a = Double(src[i + 3]) / 255
                            acc += SIMD4(Double(src[i]) * a, Double(src[i + 1]) * a, Double(src[i + 2]) * a, a) * w
                        }
                        add(iu, iv, (1 - fu) * (1 - fv)); add(iu + 1, iv, fu * (1 - fv))
                        add(iu, iv + 1, (1 - fu) * fv); add(iu + 1, iv + 1, fu * fv)
                        guard acc.w > 1e-4 else { continue }
                        let o = ((y - y0) * pw + (x - x0)) * 4
                        dst[o] = UInt8(min(255, (acc.x / acc.w).rounded()))
                        dst[o + 1] = UInt8(min(255, (acc.y / acc.w).rounded()))
                        dst[o + 2] = UInt8(min(255, (acc.z / acc.w).rounded()))
                        dst[o + 3] = UInt8(min(255, (acc.w * 255).rounded()))
                    }
                }
            }
        }
        canvas.draw(patch, x: x0, y: y0)
    }
}
