extension Canvas {
    /// The most sub-samples per axis ``drawProjected(_:transform:opacity:)`` takes in one canvas pixel.
    public static let maximumProjectedSubsamples = 4

    /// Composites `source` mapped through `transform` (source continuous pixels → canvas continuous
    /// pixels), source-over, its alpha scaled by `opacity` (0…1): rotated labels, text lying on a
    /// plane seen in perspective.
    ///
    /// Sampling is bilinear in premultiplied alpha, outside the source transparent. Where the map
    /// shrinks the source (a canvas pixel covers more than one source pixel along an axis), each canvas
    /// pixel averages an n×m grid of samples, n and m up to ``maximumProjectedSubsamples``, chosen once
    /// from the map's largest shrink over the source's corners, so letters far off do not break up.
    /// Draws nothing when a corner of the source maps behind the viewer (weight ≤ 0), since the image
    /// of the source is then not bounded.
    public mutating func drawProjected(_ source: RGBA8Image, transform: Homography, opacity: Float = 1) {
        guard source.width > 0, source.height > 0, let inverse = transform.inverse else { return }
        let sw = source.width, sh = source.height
        let corners = [PixelPoint(0, 0), PixelPoint(Double(sw), 0), PixelPoint(Double(sw), Double(sh)), PixelPoint(0, Double(sh))]
        var mapped: [PixelPoint] = []
        for corner in corners {
            guard let p = transform.map(corner) else { return }
            mapped.append(p)
        }
        let x0 = max(0, Int((mapped.map(\.x).min()! - 1).rounded(.down)))
        let x1 = min(width, Int((mapped.map(\.x).max()! + 1).rounded(.up)))
        let y0 = max(0, Int((mapped.map(\.y).min()! - 1).rounded(.down)))
        let y1 = min(height, Int((mapped.map(\.y).max()! + 1).rounded(.up)))
        guard x0 < x1, y0 < y1 else { return }
        // Source pixels per canvas pixel along each canvas axis, largest over the corners.
        var shrinkX = 0.0, shrinkY = 0.0
        for p in mapped {
            guard let s = inverse.map(p), let sx = inverse.map(PixelPoint(p.x + 1, p.y)),
                  let sy = inverse.map(PixelPoint(p.x, p.y + 1)) else { continue }
            shrinkX = max(shrinkX, (sx - s).length)
            shrinkY = max(shrinkY, (sy - s).length)
        }
        // The 0.01 keeps a pure rotation (shrink exactly 1 up to rounding) at one sample.
        let limit = Self.maximumProjectedSubsamples
        let nx = min(limit, max(1, Int((shrinkX - 0.01).rounded(.up))))
        let ny = min(limit, max(1, Int((shrinkY - 0.01).rounded(.up))))
        var patch = RGBA8Image(width: x1 - x0, height: y1 - y0)
        // Samples lie within half a canvas pixel of the centre; taps one source pixel beyond them.
        let reach = (shrinkX + shrinkY) + 2
        Self.resampleProjected(source, inverse: inverse, subsamples: (nx, ny), reach: reach, originX: x0, originY: y0, into: &patch)
        draw(patch, x: x0, y: y0, opacity: opacity)
    }

    /// Fills `patch` (straight alpha), whose top-left pixel is canvas pixel (`originX`, `originY`),
    /// with `source` seen through `inverse` (canvas → source), averaging `subsamples` per pixel.
    /// `reach` bounds, in source pixels, how far from a pixel's centre its samples' bilinear taps go.
    static func resampleProjected(_ source: RGBA8Image, inverse: Homography, subsamples: (x: Int, y: Int), reach: Double,
                                  originX: Int, originY: Int, into patch: inout RGBA8Image) {
        let sw = source.width, sh = source.height, pw = patch.width, ph = patch.height
        let r0 = inverse.row0, r1 = inverse.row1, r2 = inverse.row2
        let count = Double(subsamples.x * subsamples.y)
        source.components.withUnsafeBufferPointer { src in
            patch.components.withUnsafeMutableBufferPointer { dst in
                for py in 0..<ph {
                    for px in 0..<pw {
                        // Early out: a pixel whose centre maps farther outside the source than its
                        // footprint reaches cannot pick anything up (most of a slanted label's box).
                        let cx = Double(originX + px) + 0.5, cy = Double(originY + py) + 0.5
                        let cw = r2.x * cx + r2.y * cy + r2.z
                        if cw > 1e-12 {
                            let u = (r0.x * cx + r0.y * cy + r0.z) / cw, v = (r1.x * cx + r1.y * cy + r1.z) / cw
                            if u < -reach || v < -reach || u > Double(sw) + reach || v > Double(sh) + reach { continue }
                        }
                        var acc = SIMD4<Double>(repeating: 0)
                        for j in 0..<subsamples.y {
                            let y = Double(originY + py) + (Double(j) + 0.5) / Double(subsamples.y)
                            for i in 0..<subsamples.x {
                                let x = Double(originX + px) + (Double(i) + 0.5) / Double(subsamples.x)
                                let w = r2.x * x + r2.y * y + r2.z
                                guard w > 1e-12 else { continue }
                                // Continuous source position, then to pixel-index space (centres at integers).
                                let u = (r0.x * x + r0.y * y + r0.z) / w - 0.5
                                let v = (r1.x * x + r1.y * y + r1.z) / w - 0.5
                                guard u > -1, v > -1, u < Double(sw), v < Double(sh) else { continue }
                                let iu = Int(u.rounded(.down)), iv = Int(v.rounded(.down))
                                let fu = u - Double(iu), fv = v - Double(iv)
                                @inline(__always) func add(_ sx: Int, _ sy: Int, _ weight: Double) {
                                    guard sx >= 0, sy >= 0, sx < sw, sy < sh, weight > 0 else { return }
                                    let k = (sy * sw + sx) * 4
                                    let a = Double(src[k + 3]) / 255
                                    acc += SIMD4(Double(src[k]) * a, Double(src[k + 1]) * a, Double(src[k + 2]) * a, a) * weight
                                }
                                add(iu, iv, (1 - fu) * (1 - fv)); add(iu + 1, iv, fu * (1 - fv))
                                add(iu, iv + 1, (1 - fu) * fv); add(iu + 1, iv + 1, fu * fv)
                            }
                        }
                        acc /= count
                        guard acc.w > 1e-4 else { continue }
                        let o = (py * pw + px) * 4
                        dst[o] = UInt8(min(255, (acc.x / acc.w).rounded()))
                        dst[o + 1] = UInt8(min(255, (acc.y / acc.w).rounded()))
                        dst[o + 2] = UInt8(min(255, (acc.z / acc.w).rounded()))
                        dst[o + 3] = UInt8(min(255, (acc.w * 255).rounded()))
                    }
                }
            }
        }
    }
}
