/// A plane angle, stored in degrees, convertible to radians.
///
/// Headings and azimuths use degrees clockwise from true north; ``normalizedHeading`` maps any angle into
/// [0, 360). Arithmetic is plain (no wrapping) so differences and sums stay exact until normalised.
/// Encodes as `{"degrees": …}`.
public struct Angle: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The angle in degrees (any value; not normalised).
    public var degrees: Double

    /// Creates an angle from degrees.
    public init(degrees: Double) { self.degrees = degrees }

    /// Creates an angle from radians.
    public init(radians: Double) { self.degrees = radians * 180 / .pi }

    /// An angle of `value` degrees.
    public static func degrees(_ value: Double) -> Angle { Angle(degrees: value) }

    /// An angle of `value` radians.
    public static func radians(_ value: Double) -> Angle { Angle(radians: value) }

    /// The zero angle (north, as a heading).
    public static let zero = Angle(degrees: 0)

    /// The angle in radians.
    public var radians: Double { degrees * .pi / 180 }

    /// The same direction as a heading in [0, 360) degrees (clockwise from north).
    /// NaN and infinities become NaN.
    public var normalizedHeading: Angle { Angle(degrees: Self.normalizedHeadingDegrees(degrees)) }

    /// The same direction with degrees in [-180, 180). NaN and infinities become NaN.
    public var normalizedSigned: Angle {
        Angle(degrees: degrees.isFinite ? GeoCoordinate.normalizedLongitude(degrees) : .nan)
    }

    /// Wraps degrees into [0, 360); exact (IEEE remainder), -0 becomes 0, NaN/infinity become NaN.
    public static func normalizedHeadingDegrees(_ degrees: Double) -> Double {
        guard degrees.isFinite else { return .nan }
        var x = degrees.remainder(dividingBy: 360)  // [-180, 180]
        if x < 0 { x += 360 }
        if x >= 360 { x -= 360 }  // -tiny + 360 may round to 360
        return x == 0 ? 0 : x
    }

    /// The smallest absolute difference between two directions, in [0, 180] degrees.
    public func angularDistance(to other: Angle) -> Angle {
        Angle(degrees: abs((other.degrees - degrees).remainder(dividingBy: 360)))
    }

    /// Sine of the angle, exact at multiples of 90 degrees.
    public var sine: Double { Trigonometry.sinCosDegrees(degrees).sin }
    /// Cosine of the angle, exact at multiples of 90 degrees.
    public var cosine: Double { Trigonometry.sinCosDegrees(degrees).cos }

    /// "12.5°".
    public var description: String { "\(degrees)°" }

    /// Sum of two angles (no normalisation).
    public static func + (lhs: Angle, rhs: Angle) -> Angle { Angle(degrees: lhs.degrees + rhs.degrees) }
    /// Difference of two angles (no normalisation).
    public static func - (lhs: Angle, rhs: Angle) -> Angle { Angle(degrees: lhs.degrees - rhs.degrees) }
    /// The opposite angle.
    public static prefix func - (angle: Angle) -> Angle { Angle(degrees: -angle.degrees) }
    /// The angle scaled by a factor.
    public static func * (lhs: Angle, rhs: Double) -> Angle { Angle(degrees: lhs.degrees * rhs) }
    /// The angle scaled by a factor.
    public static func * (lhs: Double, rhs: Angle) -> Angle { Angle(degrees: lhs * rhs.degrees) }
    /// The angle divided by a factor.
    public static func / (lhs: Angle, rhs: Double) -> Angle { Angle(degrees: lhs.degrees / rhs) }
    /// Orders angles by their degree values (no normalisation).
    public static func < (lhs: Angle, rhs: Angle) -> Bool { lhs.degrees < rhs.degrees }
}
