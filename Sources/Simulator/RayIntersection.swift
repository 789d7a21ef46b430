/// The ray–primitive tests of the tracer, as plain functions so tests can probe their edge cases.
///
/// Conventions: a ray is `origin + t × direction` for `t` in the open interval (`tMin`, `tMax`);
/// `direction` need not be unit length (then `t` is in units of its length).
enum RayIntersection {
    /// Möller–Trumbore ray–triangle test with precomputed edges `edge1 = v1 − v0`, `edge2 = v2 − v0`.
    ///
    /// Edges and vertices count as inside (barycentric `u ≥ 0`, `v ≥ 0`, `u + v ≤ 1`), so a ray through
    /// the shared edge of two triangles hits one of them: meshes have no cracks. Rays parallel to the
    /// plane (|det| < 1e-12) miss. Both faces are hit (no back-face culling).
    /// - Returns: `t` of the hit and the barycentric coordinates, or nil.
    @inline(__always)
    static func triangle(origin: Vec3, direction: Vec3, v0: Vec3, edge1: Vec3, edge2: Vec3,
                         tMin: Float, tMax: Float) -> (t: Float, u: Float, v: Float)? {
        let p = direction.cross(edge2)
        let det = edge1.dot(p)
        if abs(det) < 1e-12 { return nil }
        let inverse = 1 / det
        let s = origin - v0
        let u = s.dot(p) * inverse
        if u < 0 || u > 1 { return nil }
        let q = s.cross(edge1)
        let v = direction.dot(q) * inverse
        if v < 0 || u + v > 1 { return nil }
        let t = edge2.dot(q) * inverse
        if t <= tMin || t >= tMax { return nil }
        return (t, u, v)
    }

    /// Slab test of a ray against an axis-aligned box, with the reciprocal direction precomputed
    /// (`SafeReciprocal` keeps it finite). Touching the box (entry = exit) counts as a hit.
    /// - Returns: the entry distance (clamped to `tMin`), or `Float.infinity` for a miss.
    @inline(__always)
    static func box(origin: Vec3, inverseDirection inv: Vec3, minimum: Vec3, maximum: Vec3,
                    tMin: Float, tMax: Float) -> Float {
        let tx0 = (minimum.x - origin.x) * inv.x, tx1 = (maximum.x - origin.x) * inv.x
        let ty0 = (minimum.y - origin.y) * inv.y, ty1 = (maximum.y - origin.y) * inv.y
        let tz0 = (minimum.z - origin.z) * inv.z, tz1 = (maximum.z - origin.z) * inv.z
        let near = Swift.max(Swift.max(Swift.min(tx0, tx1), Swift.min(ty0, ty1)), Swift.max(Swift.min(tz0, tz1), tMin))
        let far = Swift.min(Swift.min(Swift.max(tx0, tx1), Swift.max(ty0, ty1)), Swift.min(Swift.max(tz0, tz1), tMax))
        return near <= far ? near : .infinity
    }

    /// `1 / direction` per component, with zero components replaced by ±1e-30 first so the slab test
    /// never computes `0 × ∞` (a ray starting on a slab plane and parallel to it).
    @inline(__always)
    static func safeReciprocal(_ d: Vec3) -> Vec3 {
        func r(_ v: Float) -> Float { 1 / (abs(v) < 1e-30 ? (v.sign == .minus ? -1e-30 : 1e-30) : v) }
        return Vec3(r(d.x), r(d.y), r(d.z))
    }
}
