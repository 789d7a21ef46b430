import Foundation
import Geodesy
import Imaging
import Parallelism
import Reprojection

/// A picture the detectors look at, cut or rendered from the photo, with the way back from its pixels
/// to the photo's.
struct DetectionView {
    /// What the view is for.
    struct Purpose: OptionSet, Sendable {
        let rawValue: Int
        static let faces = Purpose(rawValue: 1)
        static let plates = Purpose(rawValue: 2)
    }

    var name: String
    var image: RGB8Image
    var purpose: Purpose
    /// The photo enlarged (plates under 20 photo pixels found in it are dropped: the enlarged picture's
    /// detail is interpolated, and a plate that narrow cannot be read).
    var enlarged = false
    /// The photo pixel (continuous; x may leave [0, width) on a 360° panorama and is wrapped later)
    /// of a continuous view position.
    var toPhoto: @Sendable (Double, Double) -> (x: Double, y: Double)

    /// Boxes in the photo for a box in the view: its outline sampled and mapped, its bounding box taken
    /// (unwrapped around the first point); on a panorama, a box across the ±180° seam is given twice, once
    /// from each side (one reaching past x = width, the other before x = 0).
    func photoBoxes(for box: PixelBox, panoramaWidth: Int?) -> [PixelBox] {
        var xs: [Double] = [], ys: [Double] = []
        let steps = 8
        for k in 0...steps {
            let t = Double(k) / Double(steps)
            for (vx, vy) in [(box.x + t * box.width, box.y), (box.x + t * box.width, box.maxY),
                             (box.x, box.y + t * box.height), (box.maxX, box.y + t * box.height)] {
                let p = toPhoto(vx, vy)
                xs.append(p.x); ys.append(p.y)
            }
        }
        guard let width = panoramaWidth.map(Double.init) else {
            return [PixelBox(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)]
        }
        // Unwrap around the first sample, then bring the box's left edge into [0, width).
        let reference = xs[0]
        xs = xs.map { x in
            var x = x
            while x - reference > width / 2 { x -= width }
            while reference - x > width / 2 { x += width }
            return x
        }
        var minX = xs.min()!, maxX = xs.max()!
        while minX < 0 { minX += width; maxX += width }
        while minX >= width { minX -= width; maxX -= width }
        let minY = ys.min()!, maxY = ys.max()!
        if maxX - minX >= width { return [PixelBox(x: 0, y: minY, width: width, height: maxY - minY)] }
        if maxX <= width { return [PixelBox(x: minX, y: minY, width: maxX - minX, height: maxY - minY)] }
        // Across the seam: the whole box once on each side, the one reaching past the right edge, the other
        // past the left. Each is grown and blurred as the whole face or plate (its blocks are cut to the
        // photo), so the side that shows less of it is covered as far as the whole would be.
        let whole = PixelBox(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
        return [whole, PixelBox(x: minX - width, y: minY, width: whole.width, height: whole.height)]
    }
}

/// The views a 360° equirectangular panorama is searched in. Faces and plates are small near the horizon
/// and large only near the camera, so resolution is spent where they can be small:
///
/// - a band from 10° below to 6° above the horizon at the panorama's full resolution for faces, and from
///   12° below to the horizon for plates (the fine bands: faces and plates from a few metres to tens of
///   metres away, where they can be under 40 pixels);
/// - a band from 45° below to 35° above at half resolution for faces, and from 44° to 8° below for plates
///   (closer people and vehicles: a face or plate there is large; the plates' band is 288 rows of a
///   5760 × 2880 panorama, nine times the network's 32, so no row of it is padding);
/// - eight perspective views, four looking 62° up and four 62° down (headings 0°, 90°, 180°, 270°,
///   100° field of view, an eighth of the resolution, at least 320 pixels square), which reach past the zenith and the nadir and
///   keep a face there upright in one of them (the operator, someone leaning over the camera).
///
/// The bands are levelled equirectangular strips: near the horizon the projection is nearly conformal
/// (at most 1/cos 35° = 1.22 wider than tall), so faces and plates keep their shape and stay upright;
/// each strip is padded past the ±180° seam with the other side's columns, so nothing on the seam is
/// cut in two. A panorama with GPano pitch or roll is levelled first (resampled through the pose), so
/// "horizon" is the world's. Boxes found in a view are mapped back outline point by outline point.
struct PanoramaViewPlan {
    /// A levelled band of the panorama: latitudes (degrees, + up) and scale (1 = full resolution).
    struct Band {
        var name: String
        var top: Double
        var bottom: Double
        var scale: Double
        var purpose: DetectionView.Purpose
    }

    static let faceBands = [Band(name: "fine band", top: 6, bottom: -10, scale: 1, purpose: .faces),
                            Band(name: "wide band", top: 35, bottom: -45, scale: 0.5, purpose: .faces)]
    static let plateBands = [Band(name: "fine band (plates)", top: 0, bottom: -12, scale: 1, purpose: .plates),
                             Band(name: "low band (plates)", top: -8, bottom: -44, scale: 0.5, purpose: .plates)]
    /// Pitch and field of view of the cap views, degrees, and their resolution relative to the panorama.
    static let capPitch = 62.0, capFieldOfView = 100.0, capScale = 1.0 / 8, capMinimumSide = 320
    /// Columns repeated past the seam on each side, as a fraction of the width (5°).
    static let seamPadding = 5.0 / 360

    /// The views of `panorama` (2:1) taken with GPano `pitch` and `roll` (degrees).
    static func views(of panorama: RGB8Image, pitchDegrees: Double, rollDegrees: Double,
                      purposes: DetectionView.Purpose) throws -> [DetectionView] {
        let level = abs(pitchDegrees) < 0.01 && abs(rollDegrees) < 0.01
        let frame = EquirectangularFrame(headingDegrees: 0, pitchDegrees: pitchDegrees, rollDegrees: rollDegrees)
        let levelFrame = EquirectangularFrame(headingDegrees: 0)
        let bands = (purposes.contains(.faces) ? faceBands : []) + (purposes.contains(.plates) ? plateBands : [])
        // The bands and the cap views built at once, one task per band and one for the caps.
        let built = try Parallel.map(bands.count + (purposes.contains(.faces) ? 1 : 0)) { k -> [DetectionView] in
            if k < bands.count { return [strip(panorama, band: bands[k], level: level, frame: frame, levelFrame: levelFrame)] }
            return try caps(panorama, pitchDegrees: pitchDegrees, rollDegrees: rollDegrees)
        }
        return built.flatMap { $0 }
    }

    /// The eight cap views of `panorama` (faces), looking ``capPitch`` up and down.
    static func caps(_ panorama: RGB8Image, pitchDegrees: Double, rollDegrees: Double) throws -> [DetectionView] {
        let pose = PanoramaPose(headingDegrees: 0, pitchDegrees: pitchDegrees, rollDegrees: rollDegrees)
        let side = max(capMinimumSide, Int((2 * Double(panorama.width) * capScale / (2 * .pi) * tan(capFieldOfView * .pi / 360)).rounded()))
        let focal = Double(side) / 2 / tan(capFieldOfView * .pi / 360)
        // Rendered from the panorama reduced by the largest power of two that still leaves 1.5 pixels per
        // view pixel (the mean of each factor × factor square: no full-size copy of the panorama is made).
        var factor = 1
        while Double(panorama.width / (2 * factor)) / (2 * .pi) >= 1.5 * focal, panorama.height % (2 * factor) == 0,
              panorama.height / (2 * factor) >= 2 {
            factor *= 2
        }
        let reduced = try PanoramaImage(factor == 1 ? panorama : Resampling.reduce(panorama, factor: factor))
        var renderer = try ViewRenderer(kernel: .bilinear)
        var views: [DetectionView] = []
        for pitch in [capPitch, -capPitch] {
            for heading in [0.0, 90, 180, 270] {
                let camera = try ViewCamera(headingDegrees: heading, pitchDegrees: pitch, fieldOfViewDegrees: capFieldOfView,
                                            width: side, height: side)
                var image = RGB8Image(width: side, height: side)
                try renderer.render(reduced, camera: camera, pose: pose, into: &image)
                let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: panorama.width)
                views.append(DetectionView(name: "\(pitch > 0 ? "up" : "down") \(Int(heading))°", image: image, purpose: .faces) { x, y in
                    let p = projection.panoramaPixel(viewX: x, viewY: y)
                    return (p.x, p.y)
                })
            }
        }
        return views
    }

    /// A levelled band of `panorama`, padded past the seam on both sides.
    static func strip(_ panorama: RGB8Image, band: Band, level: Bool, frame: EquirectangularFrame,
                      levelFrame: EquirectangularFrame) -> DetectionView {
        let width = panorama.width, height = panorama.height
        let pixelsPerDegree = Double(height) / 180
        let top = max(0, Int(((90 - band.top) * pixelsPerDegree).rounded(.down)))
        let bottom = min(height, Int(((90 - band.bottom) * pixelsPerDegree).rounded(.up)))
        let pad = Int((seamPadding * Double(width)).rounded())
        let scale = band.scale
        let outWidth = max(1, Int((Double(width + 2 * pad) * scale).rounded()))
        let outHeight = max(1, Int((Double(bottom - top) * scale).rounded()))
        // Photo pixel of strip position (sx, sy): the levelled panorama's pixel, through the pose when not level.
        let toLevelled: @Sendable (Double, Double) -> (x: Double, y: Double) = { sx, sy in
            (sx / scale - Double(pad), sy / scale + Double(top))
        }
        let toPhoto: @Sendable (Double, Double) -> (x: Double, y: Double)
        if level {
            toPhoto = toLevelled
        } else {
            toPhoto = { sx, sy in
                let p = toLevelled(sx, sy)
                let d = levelFrame.direction(u: p.x / Double(width), v: p.y / Double(height))
                let q = frame.position(of: d)
                var x = q.u * Double(width)
                // Keep x continuous with the levelled column (the caller unwraps across the seam).
                while x - p.x > Double(width) / 2 { x -= Double(width) }
                while p.x - x > Double(width) / 2 { x += Double(width) }
                return (x, q.v * Double(height))
            }
        }
        var image = RGB8Image(unfilledWidth: outWidth, height: outHeight)
        panorama.components.withUnsafeBufferPointer { source in
            image.components.withUnsafeMutableBufferPointer { target in
                for y in 0..<outHeight {
                    for x in 0..<outWidth {
                        let o = (y * outWidth + x) * 3
                        if level && scale == 1 {
                            let px = ((x - pad) % width + width) % width, py = min(height - 1, y + top)
                            let i = (py * width + px) * 3
                            target[o] = source[i]; target[o + 1] = source[i + 1]; target[o + 2] = source[i + 2]
                            continue
                        }
                        if level && scale == 0.5 {
                            // The average of the 2 × 2 pixels under the output pixel.
                            var r = 0, g = 0, b = 0
                            for dy in 0..<2 {
                                let py = min(height - 1, top + 2 * y + dy)
                                for dx in 0..<2 {
                                    let px = ((2 * x + dx - pad) % width + width) % width
                                    let i = (py * width + px) * 3
                                    r += Int(source[i]); g += Int(source[i + 1]); b += Int(source[i + 2])
                                }
                            }
                            target[o] = UInt8((r + 2) / 4); target[o + 1] = UInt8((g + 2) / 4); target[o + 2] = UInt8((b + 2) / 4)
                            continue
                        }
                        let p = toPhoto(Double(x) + 0.5, Double(y) + 0.5)
                        let fx = p.x - 0.5, fy = min(Double(height) - 1, max(0, p.y - 0.5))
                        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
                        let ax = fx - Double(x0), ay = fy - Double(y0)
                        let xa = ((x0 % width) + width) % width, xb = (xa + 1) % width, yb = min(height - 1, y0 + 1)
                        for c in 0..<3 {
                            let v00 = Double(source[(y0 * width + xa) * 3 + c]), v01 = Double(source[(y0 * width + xb) * 3 + c])
                            let v10 = Double(source[(yb * width + xa) * 3 + c]), v11 = Double(source[(yb * width + xb) * 3 + c])
                            let v = (v00 * (1 - ax) + v01 * ax) * (1 - ay) + (v10 * (1 - ax) + v11 * ax) * ay
                            target[o + c] = UInt8(max(0, min(255, v.rounded())))
                        }
                    }
                }
            }
        }
        return DetectionView(name: band.name, image: image, purpose: band.purpose, toPhoto: toPhoto)
    }
}
