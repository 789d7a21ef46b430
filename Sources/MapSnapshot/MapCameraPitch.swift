/// The tilt of a map camera, in degrees from straight down (MapKit's convention): 0 looks straight
/// down at a flat map, larger values tilt the view towards the horizon.
///
/// A separate type from the street-view pitch (0 = horizon, +90 = up) so the two cannot be mixed up
/// (DESIGN §3). ``MapCamera`` clamps it to ``MapCamera/maximumPitchDegrees(centerCoordinateDistanceMeters:)``.
public struct MapCameraPitch: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Degrees from straight down, 0…90 (the camera further limits it by distance).
    public var degrees: Double

    /// A pitch in degrees from straight down.
    public init(degrees: Double) { self.degrees = degrees }

    /// Looking straight down: a flat map.
    public static let straightDown = MapCameraPitch(degrees: 0)

    /// The pitch in radians.
    public var radians: Double { degrees * .pi / 180 }

    /// "45° from straight down".
    public var description: String { "\(degrees)° from straight down" }

    /// Orders by degrees.
    public static func < (lhs: MapCameraPitch, rhs: MapCameraPitch) -> Bool { lhs.degrees < rhs.degrees }

    /// Decodes a plain number of degrees.
    public init(from decoder: any Decoder) throws {
        degrees = try decoder.singleValueContainer().decode(Double.self)
    }

    /// Encodes as a plain number of degrees.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(degrees)
    }
}
