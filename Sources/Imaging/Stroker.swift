/// Turns a stroked path into a fill path: one convex polygon per segment, join and cap, each oriented
/// the same way (clockwise on screen), so their union filled with `.nonZero` is the stroke — overlaps
/// add winding instead of cancelling, and the pieces share exact vertices, so there are no seams.
enum Stroker {
    static func outline(of path: Path, style: StrokeStyle) -> Path {
        var out = Path()
        let h = style.width / 2
        guard h > 0, h.isFinite else { return out }
        for subpath in path.subpaths {
            // Drop repeated points: a zero-length segment has no direction.
            var pts: [PixelPoint] = []
            for p in subpath.points where p.x.isFinite && p.y.isFinite {
                if let last = pts.last, (p - last).length < 1e-9 { continue }
                pts.append(p)
            }
            let closed = subpath.isClosed && pts.count >= 3
            if closed, let first = pts.first, let last = pts.last, (first - last).length < 1e-9 { pts.removeLast() }
            if pts.count == 1 {
                // A dot: round and square caps draw it, as SVG does.
                let p = pts[0]
                switch style.cap {
                case .butt: break
                case .round: out.addCircle(center: p, radius: h)
                case .square: out.addRectangle(x: p.x - h, y: p.y - h, width: 2 * h, height: 2 * h)
                }
                continue
            }
            guard pts.count >= 2 else { continue }
            let segmentCount = closed ? pts.count : pts.count - 1
            for i in 0..<segmentCount {
                let a = pts[i], b = pts[(i + 1) % pts.count]
                let n = normal(a, b) * h
                addOriented(&out, [a + n, b + n, b - n, a - n])
            }
            // Joins at interior vertices (all vertices when closed).
            let joinIndices = closed ? Array(0..<pts.count) : Array(1..<(pts.count - 1))
            for i in joinIndices {
                let prev = pts[(i - 1 + pts.count) % pts.count], p = pts[i], next = pts[(i + 1) % pts.count]
                addJoin(&out, prev: prev, at: p, next: next, halfWidth: h, style: style)
            }
            if !closed {
                addCap(&out, at: pts[0], awayFrom: pts[1], halfWidth: h, cap: style.cap)
                addCap(&out, at: pts[pts.count - 1], awayFrom: pts[pts.count - 2], halfWidth: h, cap: style.cap)
            }
        }
        return out
    }

    /// The unit left normal of a → b (screen coordinates).
    private static func normal(_ a: PixelPoint, _ b: PixelPoint) -> PixelPoint {
        let d = b - a, len = d.length
        return PixelPoint(-d.y / len, d.x / len)
    }

    private static func addJoin(_ out: inout Path, prev: PixelPoint, at p: PixelPoint, next: PixelPoint,
                                halfWidth h: Double, style: StrokeStyle) {
        let n0 = normal(prev, p), n1 = normal(p, next)
        let d0 = p - prev, d1 = next - p
        let cross = d0.x * d1.y - d0.y * d1.x
        let dot = d0.x * d1.x + d0.y * d1.y
        if abs(cross) < 1e-12 * d0.length * d1.length && dot > 0 { return }   // straight on: no join
        if style.join == .round {
            out.addCircle(center: p, radius: h)
            return
        }
        // The outer side is where the path turns away from: opposite the turn direction.
        let side: Double = cross > 0 ? -1 : 1
        let a = p + n0 * (h * side), b = p + n1 * (h * side)
        if style.join == .miter {
            // Miter length from the corner is h / cos(θ/2), θ the angle between the two normals.
            let cosTheta = max(-1, min(1, n0.x * n1.x + n0.y * n1.y))
            let cosHalf = ((1 + cosTheta) / 2).squareRoot()
            if cosHalf > 1e-9 && 1 / cosHalf <= style.miterLimit {
                let bisector = n0 + n1
                let len = bisector.length
                if len > 1e-12 {
                    let tip = p + bisector * (side * h / cosHalf / len)
                    addOriented(&out, [p, a, tip, b])
                    return
                }
            }
        }
        addOriented(&out, [p, a, b])
    }

    private static func addCap(_ out: inout Path, at p: PixelPoint, awayFrom q: PixelPoint,
                               halfWidth h: Double, cap: StrokeStyle.Cap) {
        switch cap {
        case .butt: return
        case .round: out.addCircle(center: p, radius: h)
        case .square:
            let d = p - q, len = d.length
            let dir = PixelPoint(d.x / len * h, d.y / len * h)
            let n = PixelPoint(-dir.y, dir.x)
            addOriented(&out, [p + n, p + n + dir, p - n + dir, p - n])
        }
    }

    /// Adds a closed convex polygon, reversed if needed so that its signed area is positive
    /// (clockwise on screen, like `Path.addCircle`'s default).
    private static func addOriented(_ out: inout Path, _ points: [PixelPoint]) {
        var twiceArea = 0.0
        for i in 0..<points.count {
            let a = points[i], b = points[(i + 1) % points.count]
            twiceArea += a.x * b.y - b.x * a.y
        }
        if twiceArea == 0 { return }
        out.addPolygon(twiceArea > 0 ? points : points.reversed())
    }
}
