import Foundation

/// Everything one ray needs, as plain values and pointers (no reference counting in the loop).
struct TraceContext: @unchecked Sendable {
    @inline(__always) func fifth(_ x: Float) -> Float { let x2 = x * x; return x2 * x2 * x }

    let query: SceneQuery
    let sky: SkyModel
    let shader: SurfaceShader
    var bvh: BVHView { query.bvh }

    /// Radiance along one ray: the closest surface lit by the sun (if not in shadow) and the sky, or the
    /// sky. Water traces one reflection ray into the scene (buildings and trees on the far shore).
    @inline(__always)
    func shade(origin: Vec3, direction: Vec3, stack: UnsafeMutablePointer<UInt32>, rays: inout Int) -> Vec3 {
        rays += 1
        guard let hit = query.closest(origin: origin, direction: direction, stack: stack) else {
            return sky.radiance(direction)
        }
        let p = origin + direction * hit.t
        if hit.record.material == .water {
            return water(hit.record, at: p, direction: direction, stack: stack, rays: &rays)
        }
        return direct(hit.record, at: p, direction: direction, t: hit.t, stack: stack, rays: &rays)
    }

    /// A surface lit by the sun (one shadow ray) and the sky; glossy surfaces mirror the sky.
    @inline(__always)
    func direct(_ record: SurfaceRecord, at p: Vec3, direction: Vec3, t: Float, stack: UnsafeMutablePointer<UInt32>,
                rays: inout Int) -> Vec3 {
        var n = record.normal
        if n.dot(direction) > 0 { n = -n }
        let (albedo, gloss) = shader.pattern(record, at: p)
        let sunCosine = n.dot(sky.sunDirection)
        var light = sky.skyAmbient * (0.55 + 0.45 * n.z) + sky.groundAmbient * (0.5 - 0.5 * n.z)
        if sunCosine > 0 && sky.sunColor.x > 0 {
            rays += 1
            let bias = CityModel.shadowBias + t * 2e-5
            let shadowOrigin = p + n * bias
            if !query.isOccluded(origin: shadowOrigin, direction: sky.sunDirection, inverseDirection: sky.inverseSunDirection,
                               tMin: 0, tMax: 1e30, stack: stack) {
                light += sky.sunColor * sunCosine
            }
        }
        var c = albedo * light
        if gloss > 0 {
            // Mirror reflection of the sky only (no second bounce into the scene), Schlick-weighted.
            let cosine = -direction.dot(n)
            let reflected = direction - n * (2 * direction.dot(n))
            let fresnel = gloss * (0.08 + 0.92 * fifth(1 - max(0, cosine)))
            var env = sky.radiance(Vec3(reflected.x, reflected.y, abs(reflected.z)))
            // Reflections in windows see the street and the buildings opposite more than the sky.
            env = env * 0.55
            c = c * (1 - fresnel) + env * fresnel
        }
        return c
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
