import Foundation
import Imaging

/// The plain reference: every view pixel projected exactly (Double, two `atan2` per pixel) and
/// sampled with Double weights. Slow on purpose and obviously right; the fast ``ViewRenderer`` is
/// tested against it.
///
/// Sampling rules shared with the fast path: a continuous panorama position (x, y) is sampled at
/// (x − 0.5, y − 0.5) in tap indices (pixel centres at +0.5); columns wrap around the 0°/360°
/// seam; rows are clamped at the poles.
public enum ReferenceRenderer {
    /// Renders `camera`'s view of `panorama` (captured with `pose`).
    public static func render(_ panorama: PanoramaImage, camera: ViewCamera, pose: PanoramaPose,
                              kernel: SamplingKernel = .bilinear) -> RGB8Image {
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: panorama.width)
        var out = RGB8Image(width: camera.width, height: camera.height)
        for y in 0..<camera.height {
            for x in 0..<camera.width {
                let p = projection.panoramaPixel(viewX: Double(x) + 0.5, viewY: Double(y) + 0.5)
                let rgb = sample(panorama, x: p.x - 0.5, y: p.y - 0.5, kernel: kernel)
                for c in 0..<3 { out[x, y, c] = rgb[c] }
            }
        }
        return out
    }

    /// One pixel at tap position (`x`, `y`) (pixel centres at integers), channels R, G, B.
    public static func sample(_ panorama: PanoramaImage, x: Double, y: Double, kernel: SamplingKernel) -> [UInt8] {
        let ix = Int(x.rounded(.down)), iy = Int(y.rounded(.down))
        let fx = x - Double(ix), fy = y - Double(iy)
        let offsets: [Int], wx: [Double], wy: [Double]
        switch kernel {
        case .bilinear:
            offsets = [0, 1]; wx = [1 - fx, fx]; wy = [1 - fy, fy]
        case .bicubic:
            offsets = [-1, 0, 1, 2]
            let a = SamplingKernel.cubicWeights(fx), b = SamplingKernel.cubicWeights(fy)
            wx = [a.0, a.1, a.2, a.3]; wy = [b.0, b.1, b.2, b.3]
        }
        var sum = [0.0, 0.0, 0.0]
        for (j, dy) in offsets.enumerated() {
            let row = min(max(iy + dy, 0), panorama.height - 1)
            for (i, dx) in offsets.enumerated() {
                var column = (ix + dx) % panorama.width
                if column < 0 { column += panorama.width }
                let p = panorama.pixels[row * panorama.width + column]
                let w = wx[i] * wy[j]
                sum[0] += w * Double(p & 0xFF)
                sum[1] += w * Double((p >> 8) & 0xFF)
                sum[2] += w * Double((p >> 16) & 0xFF)
            }
        }
        return sum.map { UInt8(min(max(($0 + 0.5).rounded(.down), 0), 255)) }
    }
}
