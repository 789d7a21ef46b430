import Geodesy
import Imaging

extension MapProjection {
    /// The pixel where the segment from `a` to `b` (camera space, one end in front of the near plane and
    /// one behind it) crosses the near plane.
    @inline(__always) func nearPlaneCrossing(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> PixelPoint {
        let t = (nearDepth - a.z) / (b.z - a.z)
        let cut = a + (b - a) * t
        return pixel(ofCameraSpace: SIMD3(cut.x, cut.y, nearDepth))
    }

    /// Projects a polyline given relative to the centre (map points; `z` heights in map points) into pixel
    /// pieces, cutting it where it passes behind the near plane. Appends the pieces (≥ 2 points) to `path`.
    ///
    /// Points closer than `minimumSpacingPixels` to the previous kept point are dropped (the last point of
    /// a piece is always kept): dense OSM nodes would otherwise cost edges that change no pixel.
    ///
    /// With `clip` (pixels), the runs of segments that lie wholly beyond one of its edges are left out and
    /// the line cut there (``addClipped(_:to:clip:)``): for strokes no wider than the distance from `clip`'s
    /// edges to the pixels drawn, the drawn pixels are the same.
    func appendLine(_ count: Int, _ point: (Int) -> SIMD3<Double>, to path: inout Path,
                    minimumSpacingPixels: Double = 0, clip: PixelRect? = nil) -> Bool {
        let spacing2 = minimumSpacingPixels * minimumSpacingPixels
        var added = false
        var piece: [PixelPoint] = []
        piece.reserveCapacity(count)
        var previous = cameraSpace(point(0))
        let near = nearDepth
        if previous.z > near { piece.append(pixel(ofCameraSpace: previous)) }
        for i in 1..<max(1, count) {
            let current = cameraSpace(point(i))
            let inPrev = previous.z > near, inCur = current.z > near
            if inPrev != inCur {
                piece.append(nearPlaneCrossing(previous, current))
                if !inCur {
                    if piece.count >= 2, Self.addClipped(Self.straightened(piece, spacing2), to: &path, clip: clip) { added = true }
                    piece.removeAll(keepingCapacity: true)
                }
            }
            if inCur {
                let p = pixel(ofCameraSpace: current)
                if let last = piece.last, i < count - 1, inPrev,
                   (p.x - last.x) * (p.x - last.x) + (p.y - last.y) * (p.y - last.y) < spacing2 {
                    // Too close to the last kept point: skip it (not the end of the line).
                } else {
                    piece.append(p)
                }
            }
            previous = current
        }
        if piece.count >= 2, Self.addClipped(Self.straightened(piece, spacing2), to: &path, clip: clip) { added = true }
        return added
    }

    /// Adds an open polyline to `path`, without the segments that lie wholly beyond one edge of `clip`
    /// (both ends past it), as one subpath per run of the others; returns whether any was added. The cut
    /// ends are beyond `clip` too, so the caps that replace the joins there are at least the distance
    /// from `clip` to the pixels drawn away from them.
    static func addClipped(_ points: [PixelPoint], to path: inout Path, clip: PixelRect?) -> Bool {
        guard let clip else { path.addSubpath(points); return true }
        var start = -1, added = false
        for i in 0..<(points.count - 1) {
            let a = points[i], b = points[i + 1]
            let beyond = (a.x < clip.minX && b.x < clip.minX) || (a.x > clip.maxX && b.x > clip.maxX)
                || (a.y < clip.minY && b.y < clip.minY) || (a.y > clip.maxY && b.y > clip.maxY)
            if beyond {
                if start >= 0 { path.addSubpath(Array(points[start...i])); added = true; start = -1 }
            } else if start < 0 {
                start = i
            }
        }
        if start >= 0 { path.addSubpath(Array(points[start...])); added = true }
        return added
    }

    /// Drops interior points while every dropped point stays within a quarter of the spacing of the
    /// segment that replaces it (greedy, runs of at most 32 points): nearly straight runs of OSM nodes
    /// become one segment, saving the edges of a join at each.
    static func straightened(_ points: [PixelPoint], _ spacing2: Double) -> [PixelPoint] {
        guard spacing2 > 0, points.count > 2 else { return points }
        let tolerance2 = spacing2 / 16
        var out: [PixelPoint] = [points[0]]
        out.reserveCapacity(points.count)
        var kept = 0
        for i in 1..<(points.count - 1) {
            let a = points[kept], c = points[i + 1]
            let dx = c.x - a.x, dy = c.y - a.y
            let len2 = dx * dx + dy * dy
            var fits = len2 > 0 && i - kept < 32
            var j = kept + 1
            while fits && j <= i {
                let b = points[j]
                let cross = (b.x - a.x) * dy - (b.y - a.y) * dx
                let along = (b.x - a.x) * dx + (b.y - a.y) * dy
                fits = cross * cross <= tolerance2 * len2 && along >= 0 && along <= len2
                j += 1
            }
            if fits { continue }
            out.append(points[i])
            kept = i
        }
        out.append(points[points.count - 1])
        return out
    }

    /// Projects a closed ring (relative to the centre) clipped to the near plane (Sutherland–Hodgman);
    /// nil when nothing is in front of the camera.
    func projectRing(_ count: Int, _ point: (Int) -> SIMD3<Double>) -> [PixelPoint]? {
        guard count >= 3 else { return nil }
        let near = nearDepth
        var out: [PixelPoint] = []
        out.reserveCapacity(count + 2)
        var previous = cameraSpace(point(count - 1))
        for i in 0..<count {
            let current = cameraSpace(point(i))
            let inPrev = previous.z > near, inCur = current.z > near
            if inPrev != inCur {
                out.append(nearPlaneCrossing(previous, current))
            }
            if inCur { out.append(pixel(ofCameraSpace: current)) }
            previous = current
        }
        return out.count >= 3 ? out : nil
    }

    /// The multiple of the world width to add to a feature's absolute x values (map points) so that the
    /// feature lands on the world copy nearest the centre; apply as `x - center.x + shift`.
    @inline(__always) func worldShift(forX x: Double) -> Double { relativeX(x) - (x - center.x) }

    /// Whether a box (absolute map points) meets the visible bounds (relative), with `margin` map points.
    func isVisible(minX: Double, minY: Double, maxX: Double, maxY: Double,
                   bounds: (minX: Double, minY: Double, maxX: Double, maxY: Double), margin: Double) -> Bool {
        let shift = worldShift(forX: minX)
        let x0 = minX - center.x + shift, x1 = maxX - center.x + shift
        let y0 = minY - center.y, y1 = maxY - center.y
        return x1 >= bounds.minX - margin && x0 <= bounds.maxX + margin && y1 >= bounds.minY - margin && y0 <= bounds.maxY + margin
    }
}

extension Path {
    /// Adds an open polyline as a new subpath.
    mutating func addSubpath(_ points: [PixelPoint]) {
        guard let first = points.first else { return }
        move(to: first)
        for p in points.dropFirst() { line(to: p) }
    }
}
