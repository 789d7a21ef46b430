/// A 3-vector of `Float` in scene space: metres, x = east, y = north, z = up (the ray tracer's
/// working type; public APIs take `EastNorthUp` in `Double`).
struct Vec3: Sendable, Hashable {
    var x: Float, y: Float, z: Float

    @inline(__always) init(_ x: Float, _ y: Float, _ z: Float) { self.x = x; self.y = y; self.z = z }

    static let zero = Vec3(0, 0, 0)

    @inline(__always) static func + (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x + b.x, a.y + b.y, a.z + b.z) }
    @inline(__always) static func - (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x - b.x, a.y - b.y, a.z - b.z) }
    @inline(__always) static func * (a: Vec3, s: Float) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @inline(__always) static func * (s: Float, a: Vec3) -> Vec3 { Vec3(a.x * s, a.y * s, a.z * s) }
    @inline(__always) static func * (a: Vec3, b: Vec3) -> Vec3 { Vec3(a.x * b.x, a.y * b.y, a.z * b.z) }
    @inline(__always) static prefix func - (a: Vec3) -> Vec3 { Vec3(-a.x, -a.y, -a.z) }
    @inline(__always) static func += (a: inout Vec3, b: Vec3) { a = a + b }

    @inline(__always) func dot(_ b: Vec3) -> Float { x * b.x + y * b.y + z * b.z }
    @inline(__always) func cross(_ b: Vec3) -> Vec3 {
        Vec3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x)
    }
    @inline(__always) var length: Float { dot(self).squareRoot() }
    @inline(__always) var normalized: Vec3 { let l = length; return l > 0 ? self * (1 / l) : self }
    @inline(__always) func minimum(_ b: Vec3) -> Vec3 { Vec3(Swift.min(x, b.x), Swift.min(y, b.y), Swift.min(z, b.z)) }
    @inline(__always) func maximum(_ b: Vec3) -> Vec3 { Vec3(Swift.max(x, b.x), Swift.max(y, b.y), Swift.max(z, b.z)) }
    @inline(__always) subscript(axis: Int) -> Float { axis == 0 ? x : (axis == 1 ? y : z) }
}
