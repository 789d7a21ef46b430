import Foundation
import Geodesy

/// A virtual camera above the map, with MapKit's `MKMapCamera` semantics.
///
/// - ``centerCoordinate``: the ground point at the centre of the view.
/// - ``centerCoordinateDistanceMeters``: from the eye to that point, metres (MapKit's
///   `centerCoordinateDistance`); ``altitudeMeters`` is the eye's height above the ground,
///   distance × cos(pitch).
/// - ``heading``: the compass direction the top of the view faces, degrees clockwise from true north,
///   normalised to [0, 360).
/// - ``pitch``: degrees from straight down, clamped to
///   ``maximumPitchDegrees(centerCoordinateDistanceMeters:)`` (80° up to 1 km, then 20° less per
///   tenfold distance: 60° at 10 km, 40° at 100 km, 0° from 10,000 km).
///
/// The view has a vertical field of view of ``verticalFieldOfViewDegrees`` (30°), whatever the image
/// size: at pitch 0 the view's height covers 2 · distance · tan 15° ≈ 0.536 × distance of ground.
/// So halving the distance (or altitude) zooms in exactly one level (map scale × 2).
///
/// `Codable` as `{"centerCoordinate": {"latitude", "longitude"}, "centerCoordinateDistanceMeters",
/// "headingDegrees", "pitchDegrees"}`; encoding and decoding restore a camera exactly.
public struct MapCamera: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The ground coordinate at the centre of the view.
    public var centerCoordinate: GeoCoordinate
    /// Eye-to-centre distance in metres, within ``distanceRangeMeters``.
    public private(set) var centerCoordinateDistanceMeters: Double
    /// Where the top of the view faces, degrees clockwise from north, in [0, 360).
    public private(set) var heading: Angle
    /// Tilt from straight down, clamped to the maximum for the distance.
    public private(set) var pitch: MapCameraPitch

    /// The vertical field of view of every map camera, degrees.
    public static let verticalFieldOfViewDegrees = 30.0
    /// Allowed eye-to-centre distances, metres (1 m to 200,000 km: enough for the whole world at zoom 0 on a 2,048-point-high view).
    public static let distanceRangeMeters: ClosedRange<Double> = 1...200_000_000
    /// Allowed pitch values before clamping, degrees from straight down.
    public static let pitchRangeDegrees: ClosedRange<Double> = 0...90

    /// The largest pitch allowed at a distance, degrees: 80° up to 1,000 m, then
    /// 80 − 20·log10(distance / 1,000 m), never below 0 (60° at 10 km, 40° at 100 km, 0° from 10,000 km).
    /// At 80° the horizon is in view (the top edge of the view looks 5° above it).
    public static func maximumPitchDegrees(centerCoordinateDistanceMeters distance: Double) -> Double {
        guard distance > 1_000 else { return 80 }
        return max(0, 80 - 20 * log10(distance / 1_000))
    }

    /// A camera from its four values.
    /// - Parameters:
    ///   - centerCoordinateDistanceMeters: eye-to-centre distance, 1…200,000,000 m.
    ///   - heading: any finite angle; normalised to [0, 360).
    ///   - pitch: 0…90 degrees from straight down; clamped to the maximum for the distance (as MapKit does).
    /// - Throws: ``MapSnapshotError/valueOutOfRange(parameter:value:allowed:)`` for a distance, heading or
    ///   pitch that is not finite or out of range.
    public init(centerCoordinate: GeoCoordinate, centerCoordinateDistanceMeters: Double,
                heading: Angle = .zero, pitch: MapCameraPitch = .straightDown) throws(MapSnapshotError) {
        try MapSnapshotError.check(centerCoordinateDistanceMeters, "centerCoordinateDistanceMeters",
                                   in: Self.distanceRangeMeters, allowed: "1…200,000,000 metres")
        try MapSnapshotError.check(heading.degrees, "headingDegrees", in: -1e9...1e9, allowed: "any finite number of degrees")
        try MapSnapshotError.check(pitch.degrees, "pitchDegrees", in: Self.pitchRangeDegrees,
                                   allowed: "0…90 degrees from straight down")
        self.centerCoordinate = centerCoordinate
        self.centerCoordinateDistanceMeters = centerCoordinateDistanceMeters
        self.heading = heading.normalizedHeading
        let maximum = Self.maximumPitchDegrees(centerCoordinateDistanceMeters: centerCoordinateDistanceMeters)
        self.pitch = MapCameraPitch(degrees: min(pitch.degrees, maximum))
    }

    /// A camera whose eye is `altitudeMeters` above the ground (distance = altitude / cos(pitch), with the
    /// pitch clamped first).
    /// - Throws: ``MapSnapshotError/valueOutOfRange(parameter:value:allowed:)`` as the main initialiser.
    public init(centerCoordinate: GeoCoordinate, altitudeMeters: Double, heading: Angle = .zero,
                pitch: MapCameraPitch = .straightDown) throws(MapSnapshotError) {
        try MapSnapshotError.check(altitudeMeters, "altitudeMeters", in: Self.distanceRangeMeters,
                                   allowed: "1…200,000,000 metres")
        try MapSnapshotError.check(pitch.degrees, "pitchDegrees", in: Self.pitchRangeDegrees,
                                   allowed: "0…90 degrees from straight down")
        // The clamp depends on the distance, which depends on the pitch: two passes settle it.
        var p = min(pitch.degrees, Self.maximumPitchDegrees(centerCoordinateDistanceMeters: altitudeMeters))
        for _ in 0..<4 {
            let distance = altitudeMeters / max(cos(p * .pi / 180), 1e-6)
            p = min(pitch.degrees, Self.maximumPitchDegrees(centerCoordinateDistanceMeters: distance))
        }
        let distance = min(Self.distanceRangeMeters.upperBound, altitudeMeters / max(cos(p * .pi / 180), 1e-6))
        try self.init(centerCoordinate: centerCoordinate, centerCoordinateDistanceMeters: distance,
                      heading: heading, pitch: MapCameraPitch(degrees: p))
    }

    /// A camera at `eyeCoordinate`, `eyeAltitude` metres above the ground, looking at `centerCoordinate`,
    /// as `MKMapCamera(lookingAtCenter:fromEyeCoordinate:eyeAltitude:)`. The heading is the geodesic
    /// azimuth from the eye to the centre; the pitch is atan(ground distance / altitude), clamped.
    /// Eye and centre at the same place give a top-down camera facing north.
    /// - Throws: ``MapSnapshotError/valueOutOfRange(parameter:value:allowed:)`` for an altitude outside
    ///   1…200,000,000 m.
    public init(lookingAtCenter centerCoordinate: GeoCoordinate, fromEyeCoordinate eyeCoordinate: GeoCoordinate,
                eyeAltitude: Double) throws(MapSnapshotError) {
        try MapSnapshotError.check(eyeAltitude, "eyeAltitude", in: Self.distanceRangeMeters, allowed: "1…200,000,000 metres")
        let inverse = Geodesic.wgs84.inverse(from: eyeCoordinate, to: centerCoordinate)
        let ground = inverse.distanceMeters
        let heading = ground > 1e-6 ? inverse.initialAzimuth : .zero
        let pitch = atan2(ground, eyeAltitude) * 180 / .pi
        try self.init(centerCoordinate: centerCoordinate,
                      centerCoordinateDistanceMeters: min(Self.distanceRangeMeters.upperBound,
                                                          (ground * ground + eyeAltitude * eyeAltitude).squareRoot()),
                      heading: heading, pitch: MapCameraPitch(degrees: min(90, pitch)))
    }

    /// The eye's height above the ground, metres: distance × cos(pitch).
    public var altitudeMeters: Double { centerCoordinateDistanceMeters * cos(pitch.radians) }

    /// The web-map zoom level (256-point tiles: zoom z shows the world 256 · 2^z points wide) at which the
    /// centre of a view `viewHeightPoints` tall is drawn. Halving the distance adds exactly 1.
    public func zoomLevel(viewHeightPoints: Double) -> Double {
        let pointsPerMeter = (try? MapPoint.pointsPerMeter(atLatitude: centerCoordinate.latitude)) ?? 1
        let visibleMapPoints = 2 * centerCoordinateDistanceMeters * pointsPerMeter
            * tan(Self.verticalFieldOfViewDegrees / 2 * .pi / 180)
        return 20 - log2(visibleMapPoints / viewHeightPoints)
    }

    /// "60.1699, 24.9523 at 1000.0 m, heading 0.0°, pitch 45.0°".
    public var description: String {
        "\(centerCoordinate) at \(centerCoordinateDistanceMeters) m, heading \(heading.degrees)°, pitch \(pitch.degrees)°"
    }

    private enum CodingKeys: String, CodingKey {
        case centerCoordinate, centerCoordinateDistanceMeters, headingDegrees, pitchDegrees
    }

    /// Decodes and validates like ``init(centerCoordinate:centerCoordinateDistanceMeters:heading:pitch:)``.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(centerCoordinate: try c.decode(GeoCoordinate.self, forKey: .centerCoordinate),
                      centerCoordinateDistanceMeters: try c.decode(Double.self, forKey: .centerCoordinateDistanceMeters),
                      heading: Angle(degrees: try c.decodeIfPresent(Double.self, forKey: .headingDegrees) ?? 0),
                      pitch: MapCameraPitch(degrees: try c.decodeIfPresent(Double.self, forKey: .pitchDegrees) ?? 0))
    }

    /// Encodes the four values (degrees and metres).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(centerCoordinate, forKey: .centerCoordinate)
        try c.encode(centerCoordinateDistanceMeters, forKey: .centerCoordinateDistanceMeters)
        try c.encode(heading.degrees, forKey: .headingDegrees)
        try c.encode(pitch.degrees, forKey: .pitchDegrees)
    }
}
