import CEmbree3
import Foundation

/// Everything one ray needs, as plain values and pointers (no reference counting in the loop).
// @unchecked Sendable: plain values and raw pointers into the model's storage, which is immutable while
// rays are traced and outlives every trace (the model owns it).
struct TraceContext: @unchecked Sendable {
    @inline(__always) func fifth(_ x: Float) -> Float { let x2 = x * x; return x2 * x2 * x }

    let query: SceneQuery
    let sky: SkyModel
    let shader: SurfaceShader
    var bvh: BVHView { query.bvh }

    /// Radiance along the `count` camera rays `batch.primary` holds (set up by
    /// ``SceneQuery/prepare(_:origin:direction:)``), into `batch.radiance`: the closest surface lit by
    /// the sun (if not in shadow) and the sky, or the sky. Water traces one reflection ray into the
    /// scene (buildings and trees on the far shore). The camera rays go to the engine as one coherent
    /// stream and the shadow rays of their hits as another; each ray is shaded as one traced alone
    /// would be (Embree's streams break ties between coplanar surfaces differently on a few rays).
    @inline(__always)
    func shade(_ batch: RayBatch, count: Int, stack: UnsafeMutablePointer<UInt32>, rays: inout Int) {
        query.closest(batch.primary, count: count, stack: stack)
        rays += count
        var shadows = 0
        for i in 0..<count {
            let r = batch.primary[i].ray
            let origin = Vec3(r.org_x, r.org_y, r.org_z), direction = Vec3(r.dir_x, r.dir_y, r.dir_z)
            guard let hit = query.surface(of: batch.primary[i]) else {
                batch.radiance[i] = sky.radiance(direction)
                continue
            }
            let p = origin + direction * hit.t
            if hit.record.material == .water {
                batch.radiance[i] = water(hit.record, at: p, direction: direction, stack: stack, rays: &rays)
                continue
            }
            let surface = litSurface(hit.record, at: p, direction: direction, t: hit.t)
            if surface.facesSun {
                batch.lit[i] = surface
                batch.setShadowRay(shadows, origin: surface.shadowOrigin, direction: sky.sunDirection)
                batch.shadowLane[shadows] = Int32(i)
                shadows += 1
            } else {
                batch.radiance[i] = radiance(of: surface, sunVisible: false)
            }
        }
        guard shadows > 0 else { return }
        rays += shadows
        query.occlude(batch.shadow, count: shadows, inverseDirection: sky.inverseSunDirection, stack: stack)
        for j in 0..<shadows {
            let i = Int(batch.shadowLane[j])
            batch.radiance[i] = radiance(of: batch.lit[i], sunVisible: !batch.isShadowRayOccluded(j))
        }
    }

    /// A surface point seen along a ray, lit by everything but the sun, whose visibility a shadow ray
    /// decides when the point faces it by day.
    struct LitSurface {
        var albedo: Vec3, gloss: Float
        /// The normal turned towards the viewer, and the viewing ray's direction.
        var normal: Vec3, direction: Vec3
        /// Sky and ground ambient light.
        var ambient: Vec3
        var sunCosine: Float
        var facesSun: Bool
        var shadowOrigin: Vec3
    }

    /// The surface's pattern, its viewer-facing normal and ambient light at `p`, `t` along `direction`,
    /// and where its shadow ray starts (off the surface by a bias that grows with `t`).
    @inline(__always)
    func litSurface(_ record: SurfaceRecord, at p: Vec3, direction: Vec3, t: Float) -> LitSurface {
        var n = record.normal
        if n.dot(direction) > 0 { n = -n }
        let (albedo, gloss) = shader.pattern(record, at: p)
        let sunCosine = n.dot(sky.sunDirection)
        let ambient = sky.skyAmbient * (0.55 + 0.45 * n.z) + sky.groundAmbient * (0.5 - 0.5 * n.z)
        let bias = CityModel.shadowBias + t * 2e-5
        return LitSurface(albedo: albedo, gloss: gloss, normal: n, direction: direction, ambient: ambient, sunCosine: sunCosine,
                          facesSun: sunCosine > 0 && sky.sunColor.x > 0, shadowOrigin: p + n * bias)
    }

    /// The radiance of a lit surface once the sun's visibility is known; glossy surfaces mirror the sky.
    @inline(__always)
    func radiance(of s: LitSurface, sunVisible: Bool) -> Vec3 {
        var light = s.ambient
        if s.facesSun && sunVisible { light += sky.sunColor * s.sunCosine }
        var c = s.albedo * light
        if s.gloss > 0 {
            // Mirror reflection of the sky only (no second bounce into the scene), Schlick-weighted.
            let n = s.normal, direction = s.direction
            let cosine = -direction.dot(n)
            let reflected = direction - n * (2 * direction.dot(n))
            let fresnel = s.gloss * (0.08 + 0.92 * fifth(1 - max(0, cosine)))
            var env = sky.radiance(Vec3(reflected.x, reflected.y, abs(reflected.z)))
            // Reflections in windows see the street and the buildings opposite more than the sky.
            env = env * 0.55
            c = c * (1 - fresnel) + env * fresnel
        }
        return c
    }

    /// A surface lit by the sun (one shadow ray, traced alone) and the sky.
    @inline(__always)
    func direct(_ record: SurfaceRecord, at p: Vec3, direction: Vec3, t: Float, stack: UnsafeMutablePointer<UInt32>,
                rays: inout Int) -> Vec3 {
        let surface = litSurface(record, at: p, direction: direction, t: t)
        var sunVisible = false
        if surface.facesSun {
            rays += 1
            sunVisible = !query.isOccluded(origin: surface.shadowOrigin, direction: sky.sunDirection,
                                           inverseDirection: sky.inverseSunDirection, tMin: 0, tMax: 1e30, stack: stack)
        }
        return radiance(of: surface, sunVisible: sunVisible)
    }

    /// Water: a dark body seen through the surface plus a Fresnel-weighted mirror image of whatever the
    /// reflected ray meets (sky, sun glint, buildings lit as ``direct``), on a rippled normal.
    @inline(__always)
    func water(_ record: SurfaceRecord, at p: Vec3, direction: Vec3, stack: UnsafeMutablePointer<UInt32>, rays: inout Int) -> Vec3 {
        let n = Self.rippleNormal(p)
        let cosine = max(0, -direction.dot(n))
        var reflected = direction - n * (2 * direction.dot(n))
        if reflected.z < 0.002 { reflected = Vec3(reflected.x, reflected.y, 0.002).normalized }
        // Water's reflectance at normal incidence is 2 %.
        let fresnel = 0.02 + 0.98 * fifth(1 - cosine)
        let body = record.albedo * (sky.skyAmbient + sky.sunColor * (0.25 * max(0, sky.sunDirection.z)))
        rays += 1
        let start = p + Vec3(0, 0, 2e-3)
        var env: Vec3
        if let mirrored = query.closest(origin: start, direction: reflected, stack: stack), mirrored.record.material != .water {
            env = direct(mirrored.record, at: start + reflected * mirrored.t, direction: reflected, t: mirrored.t,
                         stack: stack, rays: &rays)
        } else {
            env = sky.radiance(reflected)
        }
        return body * (1 - fresnel) + env * fresnel
    }

    /// The normal of small wind ripples at a point of a water surface: four deterministic sine waves of
    /// 0.7–3.1 m wavelength, slopes up to about 0.05.
    @inline(__always)
    static func rippleNormal(_ p: Vec3) -> Vec3 {
        // (direction x, direction y, wave number, slope amplitude, phase)
        let a1 = 2.0 * Float.pi / 3.1 * (0.80 * p.x + 0.60 * p.y) + 0.3
        let a2 = 2.0 * Float.pi / 1.9 * (-0.45 * p.x + 0.89 * p.y) + 1.7
        let a3 = 2.0 * Float.pi / 1.1 * (0.97 * p.x - 0.24 * p.y) + 2.9
        let a4 = 2.0 * Float.pi / 0.7 * (0.28 * p.x + 0.96 * p.y) + 4.1
        let c1 = 0.022 * cos(a1), c2 = 0.018 * cos(a2), c3 = 0.012 * cos(a3), c4 = 0.008 * cos(a4)
        let gx = c1 * 0.80 - c2 * 0.45 + c3 * 0.97 + c4 * 0.28
        let gy = c1 * 0.60 + c2 * 0.89 - c3 * 0.24 + c4 * 0.96
        return Vec3(-gx, -gy, 1).normalized
    }
}

/// Per-thread storage for ``TraceContext/shade(_:count:stack:rays:)``: up to `capacity` camera rays,
/// their shadow rays and answers, reused from batch to batch. Owned by one loop, which deallocates it.
struct RayBatch {
    let capacity: Int
    let primary: UnsafeMutablePointer<RTCRayHit>
    let shadow: UnsafeMutablePointer<RTCRay>
    let lit: UnsafeMutablePointer<TraceContext.LitSurface>
    /// The camera ray (index into `primary`) of each shadow ray.
    let shadowLane: UnsafeMutablePointer<Int32>
    let radiance: UnsafeMutablePointer<Vec3>

    init(capacity: Int) {
        self.capacity = capacity
        primary = .allocate(capacity: capacity)   // RTCRayHit and RTCRay are 16-byte aligned, as Embree requires
        shadow = .allocate(capacity: capacity)
        lit = .allocate(capacity: capacity)
        shadowLane = .allocate(capacity: capacity)
        radiance = .allocate(capacity: capacity)
    }

    /// Shadow ray `j`: from `origin` along `direction`, t in [0, 1e30], for ``SceneQuery/occlude(_:count:inverseDirection:stack:)``.
    @inline(__always)
    func setShadowRay(_ j: Int, origin o: Vec3, direction d: Vec3) {
        shadow[j] = RTCRay(origin: o, direction: d, tMin: 0, tMax: 1e30)
    }

    /// Whether shadow ray `j` was blocked (its `tfar` set to −∞ by the occlusion query).
    @inline(__always)
    func isShadowRayOccluded(_ j: Int) -> Bool { shadow[j].tfar < 0 }

    func deallocate() {
        primary.deallocate(); shadow.deallocate(); lit.deallocate(); shadowLane.deallocate(); radiance.deallocate()
    }
}
