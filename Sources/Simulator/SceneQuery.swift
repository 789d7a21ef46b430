import CEmbree3

/// Closest-hit queries against the scene's triangles and its ground plane, through plain pointers.
// @unchecked Sendable: raw pointers into the BVH and surface storage, immutable after the model is
// built and valid while the model lives; queries only read.
struct SceneQuery: @unchecked Sendable {
    let bvh: BVHView
    /// Surface records in BVH leaf order.
    let records: UnsafePointer<SurfaceRecord>
    /// The ground plane up = 0, intersected analytically (two huge triangles would make every BVH
    /// box near the root as large as the city); nil for scenes without ground.
    let ground: SurfaceRecord?
    /// Embree over the same triangles (same indices), used instead of ``bvh`` when present.
    let embree: EmbreeView?
    /// The placed copies of prototypes (trees, shrubs, furniture), traced after ``bvh`` by our engine;
    /// also what an instance hit's record comes from, whichever engine traced it.
    let instances: InstanceLevelView?

    /// The closest hit including the ground plane: the record and `t`, or nil for sky.
    @inline(__always)
    func closest(origin: Vec3, direction: Vec3, stack: UnsafeMutablePointer<UInt32>) -> (record: SurfaceRecord, t: Float)? {
        var ray = RTCRayHit()
        prepare(&ray, origin: origin, direction: direction)
        if let embree { embree.intersect(&ray) } else { traceWithBVH(&ray, stack: stack) }
        return surface(of: ray)
    }

    /// Sets `ray` up for ``closest(_:count:stack:)`` (and ``closest(origin:direction:stack:)``):
    /// t in [1e-4, the ground plane's t, or 1e30 when the ray never meets it].
    @inline(__always)
    func prepare(_ ray: UnsafeMutablePointer<RTCRayHit>, origin: Vec3, direction: Vec3) {
        var tGround: Float = 1e30
        if ground != nil && direction.z < 0 && origin.z > 0 { tGround = -origin.z / direction.z }
        ray.pointee.ray = RTCRay(origin: origin, direction: direction, tMin: 1e-4, tMax: tGround)
        ray.pointee.hit.geomID = EmbreeEngine.invalidGeometryID
        ray.pointee.hit.instID = EmbreeEngine.invalidGeometryID
    }

    /// Closest hits of `count` rays set up by ``prepare(_:origin:direction:)``: one coherent Embree
    /// stream, or our BVH ray by ray. Read each answer with ``surface(of:)``.
    @inline(__always)
    func closest(_ rays: UnsafeMutablePointer<RTCRayHit>, count: Int, stack: UnsafeMutablePointer<UInt32>) {
        if let embree { embree.intersect(rays, count: count); return }
        for i in 0..<count { traceWithBVH(rays + i, stack: stack) }
    }

    /// One prepared ray through our BVH, its answer written as Embree writes it.
    @inline(__always)
    private func traceWithBVH(_ ray: UnsafeMutablePointer<RTCRayHit>, stack: UnsafeMutablePointer<UInt32>) {
        let r = ray.pointee.ray
        let origin = Vec3(r.org_x, r.org_y, r.org_z), direction = Vec3(r.dir_x, r.dir_y, r.dir_z)
        if let hit = bvh.closestHit(origin: origin, direction: direction, tMin: r.tnear, tMax: r.tfar, stack: stack) {
            ray.pointee.ray.tfar = hit.t
            ray.pointee.hit.geomID = 0
            ray.pointee.hit.primID = UInt32(hit.index)
        }
        if let instances, let hit = instances.closestHit(origin: origin, direction: direction, tMin: r.tnear,
                                                         tMax: ray.pointee.ray.tfar, stack: stack) {
            ray.pointee.ray.tfar = hit.t
            ray.pointee.hit.geomID = 0
            ray.pointee.hit.instID = UInt32(hit.instance + 1)
            ray.pointee.hit.primID = UInt32(hit.index)
        }
    }

    /// What a ray traced by ``closest(_:count:stack:)`` met, as ``closest(origin:direction:stack:)``
    /// answers: a triangle's record, else the ground plane, else nil (sky); and `t`.
    @inline(__always)
    func surface(of ray: RTCRayHit) -> (record: SurfaceRecord, t: Float)? {
        if ray.hit.geomID != EmbreeEngine.invalidGeometryID {
            if ray.hit.instID != EmbreeEngine.invalidGeometryID, let instances {
                return (instances.record(instance: Int(ray.hit.instID) - 1, primitive: Int(ray.hit.primID)), ray.ray.tfar)
            }
            return (records[Int(ray.hit.primID)], ray.ray.tfar)
        }
        if ray.ray.tfar < 1e30, let ground { return (ground, ray.ray.tfar) }
        return nil
    }

    /// Any-hit tests of `count` rays that all point along `direction` (shadow rays towards the sun),
    /// whose reciprocal our BVH takes: an occluded ray's `tfar` becomes −∞, as Embree marks it.
    @inline(__always)
    func occlude(_ rays: UnsafeMutablePointer<RTCRay>, count: Int, inverseDirection: Vec3, stack: UnsafeMutablePointer<UInt32>) {
        if let embree { embree.occlude(rays, count: count); return }
        for i in 0..<count {
            let r = rays[i]
            if isOccluded(origin: Vec3(r.org_x, r.org_y, r.org_z), direction: Vec3(r.dir_x, r.dir_y, r.dir_z),
                          inverseDirection: inverseDirection, tMin: r.tnear, tMax: r.tfar, stack: stack) {
                rays[i].tfar = -.infinity
            }
        }
    }

    /// Whether any triangle blocks the ray (shadow rays; the ground plane never does: they go up).
    @inline(__always)
    func isOccluded(origin: Vec3, direction: Vec3, inverseDirection: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> Bool {
        if let embree { return embree.isOccluded(origin: origin, direction: direction, tMin: tMin, tMax: tMax) }
        if bvh.isOccluded(origin: origin, direction: direction, inverseDirection: inverseDirection, tMin: tMin, tMax: tMax, stack: stack) {
            return true
        }
        return instances?.isOccluded(origin: origin, direction: direction, inverseDirection: inverseDirection, tMin: tMin, tMax: tMax,
                                     stack: stack) ?? false
    }
}
