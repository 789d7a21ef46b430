import Foundation

/// Degree-based trigonometry with exact argument reduction, shared by the geodesic code.
///
/// Reducing in degrees (where 90 is exact) before converting to radians makes sin 180° exactly 0 and
/// keeps the last bits of near-antipodal and near-polar cases; the geodesic inverse relies on that.
enum Trigonometry {
    /// sin and cos of an angle in degrees, exact at multiples of 90°, sin(-0) = -0.
    @inline(__always)
    static func sinCosDegrees(_ degrees: Double) -> (sin: Double, cos: Double) {
        var r = degrees.remainder(dividingBy: 360)
        let quadrant = (r / 90).rounded()
        r -= 90 * quadrant
        r *= .pi / 180
        let s = Foundation.sin(r), c = Foundation.cos(r)
        var sine: Double, cosine: Double
        switch Int(quadrant) & 3 {
        case 0: (sine, cosine) = (s, c)
        case 1: (sine, cosine) = (c, -s)
        case 2: (sine, cosine) = (-s, -c)
        default: (sine, cosine) = (-c, s)
        }
        cosine += 0  // -0 -> +0
        if sine == 0 { sine = Double(signOf: degrees, magnitudeOf: 0) }
        return (sine, cosine)
    }

    /// atan2 in degrees, exact for results that are multiples of 90°; range (-180, 180].
    @inline(__always)
    static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var y = y, x = x, quadrant = 0
        if abs(y) > abs(x) { swap(&x, &y); quadrant = 2 }
        if x.sign == .minus { x = -x; quadrant += 1 }
        let angle = Foundation.atan2(y, x) * (180 / .pi)
        switch quadrant {
        case 1: return Double(signOf: y, magnitudeOf: 180) - angle
        case 2: return 90 - angle
        case 3: return -90 + angle
        default: return angle
        }
    }

    /// Error-free sum: `u + v == sum + error` exactly.
    @inline(__always)
    static func twoSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v, vpp = s - up
        up -= u
        vpp -= v
        return (s, -(up + vpp))
    }

    /// `y - x` in degrees reduced to [-180, 180], as a rounded value plus its rounding error, so that
    /// differences of longitudes near ±180 lose nothing.
    static func angleDifference(_ x: Double, _ y: Double) -> (difference: Double, error: Double) {
        var (d, t) = twoSum((-x).remainder(dividingBy: 360), y.remainder(dividingBy: 360))
        (d, t) = twoSum(d.remainder(dividingBy: 360), t)
        if d == 0 || abs(d) == 180 {
            d = Double(signOf: t == 0 ? y - x : -t, magnitudeOf: d)
        }
        return (d, t)
    }

    /// Rounds tiny angles (degrees) onto a coarse grid so that values below ~1e-17 do not underflow
    /// the azimuth and reduced-latitude computations (Karney 2013, §5 "AngRound").
    @inline(__always)
    static func roundTiny(_ x: Double) -> Double {
        let z = 1.0 / 16
        var y = abs(x)
        y = y < z ? z - (z - y) : y
        return Double(signOf: x, magnitudeOf: y)
    }

    /// Scales (s, c) onto the unit circle.
    @inline(__always)
    static func normalized(_ s: Double, _ c: Double) -> (Double, Double) {
        let h = Foundation.hypot(s, c)
        return (s / h, c / h)
    }
}
