/// Closest-hit queries against the scene's triangles and its ground plane, through plain pointers.
struct SceneQuery: @unchecked Sendable {
    let bvh: BVHView
    /// Surface records in BVH leaf order.
    let records: UnsafePointer<SurfaceRecord>
    /// The ground plane up = 0, intersected analytically (two huge triangles would make every BVH
    /// box near the root as large as the city); nil for scenes without ground.
    let ground: SurfaceRecord?
    /// Embree over the same triangles (same indices), used instead of ``bvh`` when present.
    let embree: EmbreeView?

    /// The closest hit including the ground plane: the record and `t`, or nil for sky.
    @inline(__always)
    func closest(origin: Vec3, direction: Vec3, stack: UnsafeMutablePointer<UInt32>) -> (record: SurfaceRecord, t: Float)? {
        var tGround: Float = 1e30
        if ground != nil && direction.z < 0 && origin.z > 0 { tGround = -origin.z / direction.z }
        if let embree {
            if let hit = embree.closestHit(origin: origin, direction: direction, tMin: 1e-4, tMax: tGround) {
                return (records[hit.index], hit.t)
            }
        } else if let hit = bvh.closestHit(origin: origin, direction: direction, tMin: 1e-4, tMax: tGround, stack: stack) {
            return (records[hit.index], hit.t)
        }
        if tGround < 1e30, let ground { return (ground, tGround) }
        return nil
    }

    /// Whether any triangle blocks the ray (shadow rays; the ground plane never does: they go up).
    @inline(__always)
    func isOccluded(origin: Vec3, direction: Vec3, inverseDirection: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> Bool {
        if let embree { return embree.isOccluded(origin: origin, direction: direction, tMin: tMin, tMax: tMax) }
        return bvh.isOccluded(origin: origin, direction: direction, inverseDirection: inverseDirection, tMin: tMin, tMax: tMax, stack: stack)
    }
}
