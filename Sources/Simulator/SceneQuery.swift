/// Closest-hit queries against the scene's triangles and its ground plane, through plain pointers.
struct SceneQuery: @unchecked Sendable {
    let bvh: BVHView
    /// Surface records in BVH leaf order.
    let records: UnsafePointer<SurfaceRecord>
    /// The ground plane up = 0, intersected analytically (two huge triangles would make every BVH
    /// box near the root as large as the city); nil for scenes without ground.
    let ground: SurfaceRecord?

    /// The closest hit including the ground plane: the record and `t`, or nil for sky.
    @inline(__always)
    func closest(origin: Vec3, direction: Vec3, stack: UnsafeMutablePointer<UInt32>) -> (record: SurfaceRecord, t: Float)? {
        var tGround: Float = 1e30
        if ground != nil && direction.z < 0 && origin.z > 0 { tGround = -origin.z / direction.z }
        if let hit = bvh.closestHit(origin: origin, direction: direction, tMin: 1e-4, tMax: tGround, stack: stack) {
            return (records[hit.index], hit.t)
        }
        if tGround < 1e30, let ground { return (ground, tGround) }
        return nil
    }
}
