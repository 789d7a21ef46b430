import Foundation

/// The instanced part of a scene: each prototype's triangles in its own BVH (with its records), each
/// placed copy as an ``InstanceRecord``, and a BVH over the copies' boxes in the scene. Our engine
/// traces it as two levels (the copies' boxes, then the prototype in its own coordinates, the ray
/// taken there by the copy's inverse transform), as Embree traces its instances; both answer a copy's
/// hit with the copy (`instID` = copy index + 1) and the prototype's triangle (`primID`, the
/// prototype BVH's leaf order). Immutable after init.
///
/// `@unchecked Sendable`: every buffer is written in `init` only and read after; freed in `deinit`.
final class InstanceLevel: @unchecked Sendable {
    /// Each prototype's BVH and its records in that BVH's leaf order.
    let prototypes: [(bvh: BoundingVolumeHierarchy, records: UnsafeMutableBufferPointer<SurfaceRecord>)]
    /// The prototypes as plain pointers, by prototype index.
    let prototypeViews: UnsafeMutableBufferPointer<PrototypeView>
    /// The copies, in the builder's order.
    let instances: UnsafeMutableBufferPointer<InstanceRecord>
    /// The builder's transforms (for Embree), in the same order.
    let transforms: [InstanceTransform]
    /// The copies' boxes in the scene.
    let boxes: BoundingVolumeHierarchy
    /// Triangles a flat scene would hold for the copies.
    let instancedTriangleCount: Int
    /// Triangles stored once in the prototypes.
    var prototypeTriangleCount: Int { prototypes.reduce(0) { $0 + $1.bvh.triangleCount } }
    /// Entries the traversal stack needs: the copies' BVH, then the deepest prototype's below it.
    let stackCapacity: Int
    /// Stack entries of the copies' level (a prototype's traversal starts after them).
    let topStackCapacity: Int

    init?(builder: SceneBuilder) {
        guard !builder.instances.isEmpty else { return nil }
        prototypes = builder.prototypes.map { prototype in
            let bvh = BoundingVolumeHierarchy(vertices: prototype.vertices)
            let records = UnsafeMutableBufferPointer<SurfaceRecord>.allocate(capacity: max(1, bvh.triangleCount))
            for k in 0..<bvh.triangleCount { (records.baseAddress! + k).initialize(to: prototype.records[Int(bvh.triangleIDs[k])]) }
            return (bvh, records)
        }
        prototypeViews = .allocate(capacity: max(1, prototypes.count))
        for (k, p) in prototypes.enumerated() {
            (prototypeViews.baseAddress! + k).initialize(to: PrototypeView(bvh: p.bvh.view, records: UnsafePointer(p.records.baseAddress!)))
        }
        let count = builder.instances.count
        instances = .allocate(capacity: count)
        var lows: [Vec3] = [], highs: [Vec3] = []
        lows.reserveCapacity(count); highs.reserveCapacity(count)
        var flat = 0
        for (k, instance) in builder.instances.enumerated() {
            let prototype = prototypes[instance.prototype].bvh
            flat += prototype.triangleCount
            let root = prototype.nodes[0]
            // The prototype's box, its eight corners taken into the scene.
            var low = Vec3(.infinity, .infinity, .infinity), high = -low
            for corner in 0..<8 {
                let c = Vec3(corner & 1 == 0 ? root.minimum.x : root.maximum.x, corner & 2 == 0 ? root.minimum.y : root.maximum.y,
                             corner & 4 == 0 ? root.minimum.z : root.maximum.z)
                let w = instance.transform.apply(c)
                low = low.minimum(w); high = high.maximum(w)
            }
            // A hair wider: the box holds the copy whatever the rounding of its transform.
            let pad = Vec3(1e-4, 1e-4, 1e-4) + (high - low) * 1e-5
            lows.append(low - pad); highs.append(high + pad)
            (instances.baseAddress! + k).initialize(to: InstanceRecord(instance))
        }
        transforms = builder.instances.map(\.transform)
        instancedTriangleCount = flat
        boxes = BoundingVolumeHierarchy(boxLows: lows, highs: highs)
        topStackCapacity = boxes.stackCapacity
        stackCapacity = boxes.stackCapacity + (prototypes.map(\.bvh.stackCapacity).max() ?? 1)
    }

    deinit {
        for p in prototypes { p.records.deallocate() }
        prototypeViews.deallocate()
        instances.deallocate()
    }

    /// Plain pointers for the tracing loops.
    var view: InstanceLevelView {
        InstanceLevelView(boxes: boxes.view, slots: UnsafePointer(boxes.triangleIDs.baseAddress!),
                          instances: UnsafePointer(instances.baseAddress!), prototypes: UnsafePointer(prototypeViews.baseAddress!),
                          topStackCapacity: topStackCapacity)
    }
}

/// A prototype as plain pointers: its BVH and its records in leaf order.
///
/// `@unchecked Sendable`: read-only pointers into an ``InstanceLevel``, which no longer changes after `init`.
struct PrototypeView: @unchecked Sendable {
    let bvh: BVHView
    let records: UnsafePointer<SurfaceRecord>
}

/// One placed copy while tracing: the scene → prototype transform (rows), the prototype → scene one
/// (for record origins), the prototype and the tint.
struct InstanceRecord: Sendable {
    /// Rows of the inverse linear part and its translation (scene → prototype).
    var inverse0: Vec3, inverse1: Vec3, inverse2: Vec3, inverseTranslation: Vec3
    /// Rows of the linear part and the translation (prototype → scene).
    var forward0: Vec3, forward1: Vec3, forward2: Vec3, forwardTranslation: Vec3
    var tintAlbedo: Vec3
    var tintStyle: UInt32
    var prototype: UInt32
    var hasTint: Bool

    init(_ instance: SceneInstance) {
        let i = instance.transform.inverseRowMajor, f = instance.transform.rowMajor.map { Float($0) }
        inverse0 = Vec3(i[0], i[1], i[2]); inverse1 = Vec3(i[4], i[5], i[6]); inverse2 = Vec3(i[8], i[9], i[10])
        inverseTranslation = Vec3(i[3], i[7], i[11])
        forward0 = Vec3(f[0], f[1], f[2]); forward1 = Vec3(f[4], f[5], f[6]); forward2 = Vec3(f[8], f[9], f[10])
        forwardTranslation = Vec3(f[3], f[7], f[11])
        tintAlbedo = instance.tint?.albedo ?? .zero
        tintStyle = instance.tint?.style ?? 0
        hasTint = instance.tint != nil
        prototype = UInt32(instance.prototype)
    }

    /// A scene point in the prototype's coordinates.
    @inline(__always) func toObject(_ p: Vec3) -> Vec3 {
        Vec3(inverse0.dot(p), inverse1.dot(p), inverse2.dot(p)) + inverseTranslation
    }
    /// A scene direction in the prototype's coordinates (not renormalised: `t` stays the scene's).
    @inline(__always) func toObjectDirection(_ d: Vec3) -> Vec3 {
        Vec3(inverse0.dot(d), inverse1.dot(d), inverse2.dot(d))
    }

    /// The prototype's record `r` as this copy shows it: the normal into the scene (by the inverse
    /// transpose), the mapping origin placed, the tint applied. (The mapping axes are left: no
    /// instanced material reads them.)
    @inline(__always) func placed(_ r: SurfaceRecord) -> SurfaceRecord {
        var out = r
        let n = r.normal
        out.normal = (inverse0 * n.x + inverse1 * n.y + inverse2 * n.z).normalized
        let o = r.origin
        out.origin = Vec3(forward0.dot(o), forward1.dot(o), forward2.dot(o)) + forwardTranslation
        if hasTint { out.albedo = tintAlbedo; out.style = tintStyle }
        return out
    }
}

/// The instance level as plain pointers, valid while its ``InstanceLevel`` lives.
///
/// `@unchecked Sendable`: read-only pointers into an ``InstanceLevel``, which no longer changes after `init`; valid while it lives.
struct InstanceLevelView: @unchecked Sendable {
    let boxes: BVHView
    /// Leaf slot → copy index.
    let slots: UnsafePointer<UInt32>
    let instances: UnsafePointer<InstanceRecord>
    let prototypes: UnsafePointer<PrototypeView>
    let topStackCapacity: Int

    /// The closest hit on any copy in (`tMin`, `tMax`): the copy, the prototype's stored triangle, `t`.
    /// `stack` holds ``InstanceLevel/stackCapacity`` entries.
    @inline(__always)
    func closestHit(origin: Vec3, direction: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> (instance: Int, index: Int, t: Float)? {
        let inner = stack + topStackCapacity
        var bestInstance = -1, bestIndex = -1, bestT: Float = 0
        boxes.visitNearest(origin: origin, inverseDirection: RayIntersection.safeReciprocal(direction), tMin: tMin, tMax: tMax,
                           stack: stack) { k, best in
            let i = Int(slots[k])
            let instance = instances[i]
            guard let hit = prototypes[Int(instance.prototype)].bvh.closestHit(
                origin: instance.toObject(origin), direction: instance.toObjectDirection(direction),
                tMin: tMin, tMax: best, stack: inner) else { return nil }
            bestInstance = i; bestIndex = hit.index; bestT = hit.t
            return hit.t
        }
        return bestInstance < 0 ? nil : (bestInstance, bestIndex, bestT)
    }

    /// Whether any copy blocks the ray in (`tMin`, `tMax`).
    @inline(__always)
    func isOccluded(origin: Vec3, direction: Vec3, inverseDirection inv: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> Bool {
        let inner = stack + topStackCapacity
        return boxes.visitUntilBlocked(origin: origin, inverseDirection: inv, tMin: tMin, tMax: tMax, stack: stack) { k in
            let instance = instances[Int(slots[k])]
            return prototypes[Int(instance.prototype)].bvh.isOccluded(origin: instance.toObject(origin),
                                                                      direction: instance.toObjectDirection(direction),
                                                                      tMin: tMin, tMax: tMax, stack: inner)
        }
    }

    /// The record of a copy's hit.
    @inline(__always)
    func record(instance: Int, primitive: Int) -> SurfaceRecord {
        let copy = instances[instance]
        return copy.placed(prototypes[Int(copy.prototype)].records[primitive])
    }
}
