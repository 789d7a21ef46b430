import CEmbree3
import Foundation

/// Intel Embree 3 (Debian's libembree3) over the city's triangles: the default ray engine where it is
/// faster than our BVH (see Benchmarks, `simulator`). Triangles go in in the BVH's leaf order, so
/// Embree's `primID` indexes the same surface records. The device has `threads=1` (the scene builds on
/// the calling thread; no TBB worker stays behind) and MEDIUM build quality (HIGH was never faster in
/// the measurements of ../shared/notes/embree-and-s3db.md). Immutable after init.
///
/// `@unchecked Sendable`: the device and scenes are committed in `init` and never changed after; Embree traces a committed scene from any number of threads at once.
final class EmbreeEngine: @unchecked Sendable {
    /// `RTC_INVALID_GEOMETRY_ID` (the C macro is not imported).
    static let invalidGeometryID = UInt32.max
    let device: OpaquePointer
    let scene: OpaquePointer
    /// One scene per prototype, instanced by the copies (released after ``scene``).
    let prototypeScenes: [OpaquePointer]

    /// The scene over `bvh`'s triangles (geometry 0) and `instances`' copies (geometry k + 1 for copy
    /// k, each an `RTC_GEOMETRY_TYPE_INSTANCE` of its prototype's own scene, whose triangles go in in
    /// the prototype BVH's leaf order); nil when Embree cannot create a device or the scene fails.
    init?(bvh: BoundingVolumeHierarchy, instances: InstanceLevel? = nil) {
        guard bvh.triangleCount > 0 || instances != nil, let device = rtcNewDevice("threads=1") else { return nil }
        let scene = rtcNewScene(device)!
        rtcSetSceneBuildQuality(scene, RTC_BUILD_QUALITY_MEDIUM)
        var prototypeScenes: [OpaquePointer] = []
        func release() {
            rtcReleaseScene(scene)
            for s in prototypeScenes { rtcReleaseScene(s) }
            rtcReleaseDevice(device)
        }
        if bvh.triangleCount > 0 {
            guard let geometry = Self.triangleGeometry(device: device, bvh: bvh) else { release(); return nil }
            rtcAttachGeometryByID(scene, geometry, 0)
            rtcReleaseGeometry(geometry)
        }
        if let instances {
            for prototype in instances.prototypes {
                let prototypeScene = rtcNewScene(device)!
                rtcSetSceneBuildQuality(prototypeScene, RTC_BUILD_QUALITY_MEDIUM)
                prototypeScenes.append(prototypeScene)
                if prototype.bvh.triangleCount > 0 {
                    guard let geometry = Self.triangleGeometry(device: device, bvh: prototype.bvh) else { release(); return nil }
                    rtcAttachGeometryByID(prototypeScene, geometry, 0)
                    rtcReleaseGeometry(geometry)
                }
                rtcCommitScene(prototypeScene)
            }
            for (k, transform) in instances.transforms.enumerated() {
                let geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_INSTANCE)
                rtcSetGeometryInstancedScene(geometry, prototypeScenes[Int(instances.instances[k].prototype)])
                rtcSetGeometryTimeStepCount(geometry, 1)
                transform.columnMajorFloats.withUnsafeBufferPointer {
                    rtcSetGeometryTransform(geometry, 0, RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR, $0.baseAddress)
                }
                rtcCommitGeometry(geometry)
                rtcAttachGeometryByID(scene, geometry, UInt32(k + 1))
                rtcReleaseGeometry(geometry)
            }
        }
        rtcCommitScene(scene)
        guard rtcGetDeviceError(device).rawValue == RTC_ERROR_NONE.rawValue else { release(); return nil }
        self.device = device
        self.scene = scene
        self.prototypeScenes = prototypeScenes
    }

    /// A committed triangle geometry over `bvh`'s triangles in leaf order (`primID` = leaf index).
    private static func triangleGeometry(device: OpaquePointer, bvh: BoundingVolumeHierarchy) -> OpaquePointer? {
        let count = bvh.triangleCount
        let geometry = rtcNewGeometry(device, RTC_GEOMETRY_TYPE_TRIANGLE)
        guard let vertexBuffer = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3, 12, count * 3),
              let indexBuffer = rtcSetNewGeometryBuffer(geometry, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3, 12, count) else {
            rtcReleaseGeometry(geometry)
            return nil
        }
        let vertices = vertexBuffer.bindMemory(to: Float.self, capacity: count * 9)
        let indices = indexBuffer.bindMemory(to: UInt32.self, capacity: count * 3)
        let t = bvh.triangles
        for k in 0..<count {
            for c in 0..<3 {
                let v0 = t[9 * k + c], e1 = t[9 * k + 3 + c], e2 = t[9 * k + 6 + c]
                // The same sums the BVH's Möller–Trumbore test sees: v0, v0 + e1, v0 + e2.
                vertices[9 * k + c] = v0; vertices[9 * k + 3 + c] = v0 + e1; vertices[9 * k + 6 + c] = v0 + e2
            }
            indices[3 * k] = UInt32(3 * k); indices[3 * k + 1] = UInt32(3 * k + 1); indices[3 * k + 2] = UInt32(3 * k + 2)
        }
        rtcCommitGeometry(geometry)
        return geometry
    }

    deinit {
        rtcReleaseScene(scene)
        for s in prototypeScenes { rtcReleaseScene(s) }
        rtcReleaseDevice(device)
    }

    var view: EmbreeView { EmbreeView(scene: scene) }
}

/// The Embree scene as a plain value for the tracing loops, valid while its ``EmbreeEngine`` lives.
///
/// `@unchecked Sendable`: a committed Embree scene is immutable and Embree allows `rtcIntersect1`/`rtcOccluded1` on it from any number of threads at once; the engine outlives every trace.
struct EmbreeView: @unchecked Sendable {
    let scene: OpaquePointer

    /// An intersect context for one call; `coherent` for streams of neighbouring rays.
    @inline(__always)
    static func context(coherent: Bool) -> RTCIntersectContext {
        var context = RTCIntersectContext()
        rtcInitIntersectContext(&context)
        if coherent { context.flags = RTC_INTERSECT_CONTEXT_FLAG_COHERENT }
        return context
    }

    /// The closest hit of one ray (`rtcIntersect1`): a hit sets `geomID`, `primID` the stored
    /// triangle (of the scene, or with `instID` k + 1 of copy k's prototype) and `tfar` the distance; a miss keeps `geomID` invalid and its `tfar`. Rays must be
    /// finite (the Debian build asserts on NaN directions); camera and shadow rays always are.
    @inline(__always)
    func intersect(_ ray: UnsafeMutablePointer<RTCRayHit>) {
        var context = Self.context(coherent: false)
        rtcIntersect1(scene, &context, ray)
    }

    /// Whether anything blocks the ray in [`tMin`, `tMax`].
    @inline(__always)
    func isOccluded(origin: Vec3, direction: Vec3, tMin: Float, tMax: Float) -> Bool {
        var context = Self.context(coherent: false)
        var ray = RTCRay(origin: origin, direction: direction, tMin: tMin, tMax: tMax)
        rtcOccluded1(scene, &context, &ray)
        return ray.tfar < 0    // −∞ when occluded
    }

    /// ``intersect(_:)`` for `count` rays in one call, a coherent stream (`rtcIntersect1M`): Embree
    /// regroups neighbouring rays into packets, about 4× the rate of single rays for camera rays on the
    /// Helsinki benchmark.
    @inline(__always)
    func intersect(_ rays: UnsafeMutablePointer<RTCRayHit>, count: Int) {
        var context = Self.context(coherent: true)
        rtcIntersect1M(scene, &context, rays, UInt32(count), MemoryLayout<RTCRayHit>.stride)
    }

    /// Any-hit tests of `count` rays in one coherent stream (`rtcOccluded1M`): an occluded ray's `tfar`
    /// becomes −∞.
    @inline(__always)
    func occlude(_ rays: UnsafeMutablePointer<RTCRay>, count: Int) {
        var context = Self.context(coherent: true)
        rtcOccluded1M(scene, &context, rays, UInt32(count), MemoryLayout<RTCRay>.stride)
    }
}

extension RTCRay {
    /// A ray from `origin` along `direction` over t in [`tMin`, `tMax`], every mask bit set.
    @inline(__always)
    init(origin: Vec3, direction: Vec3, tMin: Float, tMax: Float) {
        self.init(org_x: origin.x, org_y: origin.y, org_z: origin.z, tnear: tMin, dir_x: direction.x, dir_y: direction.y,
                  dir_z: direction.z, time: 0, tfar: tMax, mask: .max, id: 0, flags: 0)
    }
}

/// Which ray engine a ``CityModel`` traces with.
public enum RayEngine: String, Sendable, Hashable, CaseIterable {
    /// Intel Embree 3 through libembree3 (falls back to ``bvh`` when no Embree device can be made).
    case embree
    /// Our own BVH: the reference the tests compare Embree with.
    case bvh
}
