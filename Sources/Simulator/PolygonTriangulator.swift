/// Ear-clipping triangulation of simple polygons with holes (roofs, squares, parks).
///
/// Holes are joined to the outer ring by a bridge from each hole's rightmost vertex to a visible
/// outer vertex (Eberly's method, simplified); a polygon the ear clipper cannot finish (self-
/// intersecting data) falls back to a fan, which is wrong only for that broken polygon.
enum PolygonTriangulator {
    typealias Point = (x: Double, y: Double)

    /// Triangles as index triples into the returned vertex list (outer ring then holes, bridged).
    static func triangulate(outer: [Point], holes: [[Point]] = []) -> (vertices: [Point], triangles: [(Int, Int, Int)]) {
        var ring = ccw(outer)
        for hole in holes.sorted(by: { maxX($0) > maxX($1) }) where hole.count >= 3 {
            ring = bridge(ring, cw(hole))
        }
        return (ring, clip(ring))
    }

    static func signedArea(_ p: [Point]) -> Double {
        var a = 0.0
        for i in 0..<p.count { let j = (i + 1) % p.count; a += p[i].x * p[j].y - p[j].x * p[i].y }
        return a / 2
    }
    static func ccw(_ p: [Point]) -> [Point] { signedArea(p) < 0 ? p.reversed() : p }
    static func cw(_ p: [Point]) -> [Point] { signedArea(p) > 0 ? p.reversed() : p }
    static func maxX(_ p: [Point]) -> Double { p.map(\.x).max() ?? 0 }

    /// Joins a hole into the ring through the closest ring vertex to the hole's rightmost vertex
    /// that lies to its right (a cheap visibility approximation that holds for building courtyards).
    static func bridge(_ ring: [Point], _ hole: [Point]) -> [Point] {
        guard let h = hole.indices.max(by: { hole[$0].x < hole[$1].x }) else { return ring }
        let m = hole[h]
        var best = -1, bestDistance = Double.infinity
        for (i, p) in ring.enumerated() where p.x >= m.x {
            let d = (p.x - m.x) * (p.x - m.x) + (p.y - m.y) * (p.y - m.y)
            if d < bestDistance && !crossesRing(m, p, ring, skip: i) { bestDistance = d; best = i }
        }
        if best < 0 { best = ring.indices.min(by: { dist2(ring[$0], m) < dist2(ring[$1], m) }) ?? 0 }
        var out = Array(ring[0...best])
        for k in 0...hole.count { out.append(hole[(h + k) % hole.count]) }
        out.append(ring[best])
        if best + 1 < ring.count { out.append(contentsOf: ring[(best + 1)...]) }
        return out
    }

    static func dist2(_ a: Point, _ b: Point) -> Double { (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) }

    static func crossesRing(_ a: Point, _ b: Point, _ ring: [Point], skip: Int) -> Bool {
        for i in 0..<ring.count {
            let j = (i + 1) % ring.count
            if i == skip || j == skip { continue }
            if segmentsCross(a, b, ring[i], ring[j]) { return true }
        }
        return false
    }

    static func cross(_ o: Point, _ a: Point, _ b: Point) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }

    static func segmentsCross(_ a: Point, _ b: Point, _ c: Point, _ d: Point) -> Bool {
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0))
    }

    /// Ear clipping of a counter-clockwise ring, O(n²) (roofs have tens of vertices).
    static func clip(_ p: [Point]) -> [(Int, Int, Int)] {
        var idx = Array(p.indices)
        var out: [(Int, Int, Int)] = []
        var guardCount = 0
        while idx.count > 3 && guardCount < 4 * p.count * p.count + 16 {
            guardCount += 1
            var clipped = false
            for k in 0..<idx.count {
                let a = idx[(k + idx.count - 1) % idx.count], b = idx[k], c = idx[(k + 1) % idx.count]
                let turn = cross(p[a], p[b], p[c])
                if turn <= 1e-12 { continue }
                var inside = false
                for other in idx where other != a && other != b && other != c {
                    let q = p[other]
                    if (q.x == p[a].x && q.y == p[a].y) || (q.x == p[b].x && q.y == p[b].y) || (q.x == p[c].x && q.y == p[c].y) { continue }
                    if cross(p[a], p[b], q) >= 0 && cross(p[b], p[c], q) >= 0 && cross(p[c], p[a], q) >= 0 { inside = true; break }
                }
                if inside { continue }
                out.append((a, b, c))
                idx.remove(at: k)
                clipped = true
                break
            }
            if !clipped {
                // Degenerate or self-intersecting rest: drop collinear vertices, else fan it.
                if let k = idx.indices.first(where: { k in
                    abs(cross(p[idx[(k + idx.count - 1) % idx.count]], p[idx[k]], p[idx[(k + 1) % idx.count]])) <= 1e-12 }) {
                    idx.remove(at: k)
                    continue
                }
                for k in 1..<(idx.count - 1) { out.append((idx[0], idx[k], idx[k + 1])) }
                return out
            }
        }
        if idx.count == 3 { out.append((idx[0], idx[1], idx[2])) }
        return out
    }
}
