import Foundation

/// Everything one ray needs, as plain values and pointers (no reference counting in the loop).
struct TraceContext: @unchecked Sendable {
    @inline(__always) func fifth(_ x: Float) -> Float { let x2 = x * x; return x2 * x2 * x }

    let query: SceneQuery
    let sky: SkyModel
    let shader: SurfaceShader
    var bvh: BVHView { query.bvh }

    /// Radiance along one ray: the closest surface lit by the sun (if not in shadow) and the sky, or the sky.
    @inline(__always)
    func shade(origin: Vec3, direction: Vec3, stack: UnsafeMutablePointer<UInt32>, rays: inout Int) -> Vec3 {
        rays += 1
        guard let hit = query.closest(origin: origin, direction: direction, stack: stack) else {
            return sky.radiance(direction)
        }
        let record = hit.record
        let p = origin + direction * hit.t
        var n = record.normal
        if n.dot(direction) > 0 { n = -n }
        let (albedo, gloss) = shader.pattern(record, at: p)
        let sunCosine = n.dot(sky.sunDirection)
        var light = sky.skyAmbient * (0.55 + 0.45 * n.z) + sky.groundAmbient * (0.5 - 0.5 * n.z)
        if sunCosine > 0 && sky.sunColor.x > 0 {
            rays += 1
            let bias = CityModel.shadowBias + hit.t * 2e-5
            let shadowOrigin = p + n * bias
            if !bvh.isOccluded(origin: shadowOrigin, direction: sky.sunDirection, inverseDirection: sky.inverseSunDirection,
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

}
