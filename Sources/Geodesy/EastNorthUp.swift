/// A vector in a ``LocalTangentFrame``: metres east, north and up from the frame's origin.
public struct EastNorthUp: Sendable, Hashable, Codable {
    /// Metres towards east, along the tangent plane.
    public var east: Double
    /// Metres towards true north, along the tangent plane.
    public var north: Double
    /// Metres along the ellipsoid normal at the origin, away from the Earth.
    public var up: Double

    /// Creates a local vector from metres east, north and up.
    public init(east: Double, north: Double, up: Double) {
        self.east = east
        self.north = north
        self.up = up
    }

    /// Length of the vector, metres.
    public var lengthMeters: Double { (east * east + north * north + up * up).squareRoot() }

    /// Horizontal direction of the vector as a heading in [0, 360) degrees clockwise from north
    /// (0 for a vertical or zero vector).
    public var heading: Angle { Self.heading(east: east, north: north) }

    /// The heading of a horizontal direction `east`, `north` in [0, 360) degrees clockwise from north
    /// (0 for a zero vector): the one bearing formula, for callers holding the components in other types.
    public static func heading(east: Double, north: Double) -> Angle {
        east == 0 && north == 0 ? .zero : Angle(degrees: Trigonometry.atan2Degrees(east, north)).normalizedHeading
    }
}
