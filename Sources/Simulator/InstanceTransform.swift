import Foundation

/// Where a prototype stands in the scene: world = linear · object + translation, with the linear part a
/// turn about the vertical axis after a scale along the object's own axes (a tree's height and crown,
/// a bench's heading). Kept in `Double`; the ray engines get it as `Float`.
struct InstanceTransform: Sendable, Hashable {
    /// Row-major 3 × 3 linear part.
    var linear: (Double, Double, Double, Double, Double, Double, Double, Double, Double)
    /// Translation, metres.
    var translation: (x: Double, y: Double, z: Double)

    static func == (a: InstanceTransform, b: InstanceTransform) -> Bool {
        a.rowMajor == b.rowMajor
    }
    func hash(into hasher: inout Hasher) { hasher.combine(rowMajor) }

    /// Scale by (`scaleX`, `scaleY`, `scaleZ`), turn by `angle` (radians counter-clockwise from east)
    /// about the vertical, then move to `translation`.
    init(scaleX: Double = 1, scaleY: Double = 1, scaleZ: Double = 1, angle: Double = 0, translation: (x: Double, y: Double, z: Double)) {
        let c = angle == 0 ? 1 : cos(angle), s = angle == 0 ? 0 : sin(angle)
        linear = (c * scaleX, -s * scaleY, 0, s * scaleX, c * scaleY, 0, 0, 0, scaleZ)
        self.translation = translation
    }

    /// The 12 numbers row by row (3 × 4, translation last in each row).
    var rowMajor: [Double] {
        let l = linear
        return [l.0, l.1, l.2, translation.x, l.3, l.4, l.5, translation.y, l.6, l.7, l.8, translation.z]
    }

    /// A point of the prototype in the scene (computed in `Double`, rounded once).
    @inline(__always)
    func apply(_ p: Vec3) -> Vec3 {
        let x = Double(p.x), y = Double(p.y), z = Double(p.z), l = linear
        return Vec3(Float(l.0 * x + l.1 * y + l.2 * z + translation.x), Float(l.3 * x + l.4 * y + l.5 * z + translation.y),
                    Float(l.6 * x + l.7 * y + l.8 * z + translation.z))
    }

    /// The inverse, as 12 floats row by row (scene → prototype), for tracing rays in the prototype's space.
    var inverseRowMajor: [Float] {
        let l = linear
        let det = l.0 * (l.4 * l.8 - l.5 * l.7) - l.1 * (l.3 * l.8 - l.5 * l.6) + l.2 * (l.3 * l.7 - l.4 * l.6)
        precondition(abs(det) > 1e-18, "a singular instance transform")
        let inv = 1 / det
        let m = [(l.4 * l.8 - l.5 * l.7) * inv, (l.2 * l.7 - l.1 * l.8) * inv, (l.1 * l.5 - l.2 * l.4) * inv,
                 (l.5 * l.6 - l.3 * l.8) * inv, (l.0 * l.8 - l.2 * l.6) * inv, (l.2 * l.3 - l.0 * l.5) * inv,
                 (l.3 * l.7 - l.4 * l.6) * inv, (l.1 * l.6 - l.0 * l.7) * inv, (l.0 * l.4 - l.1 * l.3) * inv]
        let t = translation
        return (0..<3).flatMap { r -> [Float] in
            [Float(m[3 * r]), Float(m[3 * r + 1]), Float(m[3 * r + 2]),
             Float(-(m[3 * r] * t.x + m[3 * r + 1] * t.y + m[3 * r + 2] * t.z))]
        }
    }

    /// Embree's `RTC_FORMAT_FLOAT3X4_COLUMN_MAJOR`: the four columns (three linear, then translation).
    var columnMajorFloats: [Float] {
        let l = linear
        return [l.0, l.3, l.6, l.1, l.4, l.7, l.2, l.5, l.8, translation.x, translation.y, translation.z].map { Float($0) }
    }
}

/// One placed copy of a prototype, as the builder records it.
struct SceneInstance: Sendable {
    /// Index into the builder's prototypes.
    var prototype: Int
    var transform: InstanceTransform
    /// Colour and pattern seed for this copy (a tree's crown, a shrub), replacing every one of the
    /// prototype's records' albedo and style; nil keeps the prototype's.
    var tint: (albedo: Vec3, style: UInt32)?
}
