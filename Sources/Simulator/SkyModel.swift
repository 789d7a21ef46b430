import Foundation

/// Sky radiance and the light it casts, from the sun's position: a zenith-to-horizon gradient, a sun
/// disc with a glow, a sun colour that warms near the horizon, and a hemispherical ambient term.
/// Radiance is linear RGB where a white wall in full sun is about 1.
struct SkyModel: Sendable {
    /// Unit vector towards the sun (scene axes).
    let sunDirection: Vec3
    /// Its reciprocal for the shadow rays' slab tests.
    let inverseSunDirection: Vec3
    /// Irradiance of the sun on a surface facing it (linear RGB).
    let sunColor: Vec3
    /// Ambient light from the sky on an upward surface; sideways surfaces get part of it.
    let skyAmbient: Vec3
    /// Light bounced from the ground onto downward-facing surfaces.
    let groundAmbient: Vec3
    let zenith: Vec3, horizon: Vec3
    /// cos of the sun disc's angular radius (drawn at 0.6°, twice the real size, so it reads at 2048 px).
    let sunDiscCosine: Float = cos(0.6 * .pi / 180)

    init(sun: SolarPosition) {
        let d = sun.direction
        sunDirection = Vec3(Float(d.east), Float(d.north), Float(d.up))
        inverseSunDirection = RayIntersection.safeReciprocal(sunDirection)
        let e = Float(sun.elevationDegrees)
        let day = max(0, min(1, (e + 2) / 10))           // 0 at night, 1 once the sun is 8° up
        let warm = max(0, min(1, (25 - e) / 25))          // low sun is warmer
        sunColor = Vec3(1.0, 0.93 - 0.18 * warm, 0.84 - 0.38 * warm) * (2.4 * max(0, min(1, e / 6)))
        skyAmbient = Vec3(0.40, 0.44, 0.53) * (0.08 + 0.92 * day)
        groundAmbient = Vec3(0.10, 0.095, 0.085) * (0.08 + 0.92 * day)
        zenith = Vec3(0.16, 0.32, 0.72) * (0.05 + 0.95 * day)
        horizon = Vec3(0.62, 0.72, 0.86) * (0.05 + 0.95 * day) + Vec3(0.15, 0.06, 0.0) * (warm * day)
    }

    /// Radiance seen looking in direction `d` (unit) when nothing is hit.
    @inline(__always) func radiance(_ d: Vec3) -> Vec3 {
        let up = max(d.z, 0)
        let t = up.squareRoot()
        var c = horizon * (1 - t) + zenith * t
        if d.z < 0 { c = horizon * 0.75 }   // below the horizon beyond the ground plane: haze
        let cosine = d.dot(sunDirection)
        if cosine > 0 && sunDirection.z > -0.02 {
            // cos^64 and cos^1024 by repeated squaring (pow is slow in the per-ray path).
            var c64 = cosine * cosine; c64 *= c64; c64 *= c64; c64 *= c64; c64 *= c64; c64 *= c64
            var c1024 = c64 * c64; c1024 *= c1024; c1024 *= c1024; c1024 *= c1024
            let glow = c64 * 0.35 + c1024 * 1.5
            c += sunColor * glow
            if cosine > sunDiscCosine { c += Vec3(40, 38, 34) * max(0, min(1, sunColor.x)) }
        }
        return c
    }
}
