import Foundation
import Geodesy

/// A camera transition between two views, planned the way a good map app flies:
///
/// | ground distance between the centres | kind | what the camera does |
/// |---|---|---|
/// | up to ``directMaximumMeters`` (2.5 km) | ``Kind/direct`` | moves straight there, distance, heading and pitch eased together |
/// | up to ``arcMaximumMeters`` (50 km) | ``Kind/arc`` | lifts to a peak distance (twice the hop, so both ends are in view) halfway, pitch easing to 0 at the peak, and comes down |
/// | farther | ``Kind/longHaul`` | rises to a cruise distance (0.6 × the hop, at most 20,000 km) in the first quarter, pans along the geodesic (great-circle) path, across the 180th meridian when that is shorter, and descends in the last quarter |
///
/// Along the path the centre follows the WGS84 geodesic from start to end, with a smooth speed profile
/// (ease in and out; for long hauls a constant cruise speed in the middle half). Distances are
/// interpolated in log space, so the zoom changes at a steady rate; the heading turns the shorter way.
public struct MapCameraFlight: Sendable, Hashable {
    /// How the flight moves.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// Short hops: straight there.
        case direct
        /// Medium hops: up and down in one arc.
        case arc
        /// Long hauls: rise, pan along the great circle, descend.
        case longHaul = "long-haul"
    }

    /// The longest hop flown ``Kind/direct``, metres.
    static let directMaximumMeters = 2_500.0
    /// The longest hop flown as an ``Kind/arc``, metres.
    static let arcMaximumMeters = 50_000.0
    /// The highest cruise distance of a long haul, metres.
    static let maximumCruiseMeters = 20_000_000.0

    /// Where the flight starts.
    public let start: MapCamera
    /// Where it ends.
    public let end: MapCamera
    /// The kind, from the ground distance.
    public let kind: Kind
    /// Geodesic distance between the two centres, metres.
    public let groundDistanceMeters: Double
    /// The highest camera distance on the way (the arc's peak or the cruise), metres.
    public let peakDistanceMeters: Double
    private let azimuthDegrees: Double

    /// Plans a flight from `start` to `end`.
    public init(from start: MapCamera, to end: MapCamera) {
        self.start = start
        self.end = end
        let inverse = Geodesic.wgs84.inverse(from: start.centerCoordinate, to: end.centerCoordinate)
        groundDistanceMeters = inverse.distanceMeters
        azimuthDegrees = inverse.initialAzimuth.degrees
        let d0 = start.centerCoordinateDistanceMeters, d1 = end.centerCoordinateDistanceMeters
        if groundDistanceMeters <= Self.directMaximumMeters {
            kind = .direct
            peakDistanceMeters = max(d0, d1)
        } else if groundDistanceMeters <= Self.arcMaximumMeters {
            kind = .arc
            peakDistanceMeters = max(d0, d1, 2 * groundDistanceMeters)
        } else {
            kind = .longHaul
            peakDistanceMeters = max(d0, d1, min(Self.maximumCruiseMeters, 0.6 * groundDistanceMeters))
        }
    }

    /// Cubic ease in and out, 0…1 → 0…1.
    static func ease(_ t: Double) -> Double { t * t * (3 - 2 * t) }

    /// Log-space interpolation between two distances.
    static func logLerp(_ a: Double, _ b: Double, _ t: Double) -> Double { exp(log(a) + (log(b) - log(a)) * t) }

    /// The camera at time `t` (0 = start, 1 = end; clamped).
    public func camera(at time: Double) -> MapCamera {
        let t = min(1, max(0, time.isFinite ? time : 0))
        let d0 = start.centerCoordinateDistanceMeters, d1 = end.centerCoordinateDistanceMeters
        let p0 = start.pitch.degrees, p1 = end.pitch.degrees
        var s: Double, distance: Double, pitch: Double
        switch kind {
        case .direct:
            s = Self.ease(t)
            distance = Self.logLerp(d0, d1, s)
            pitch = p0 + (p1 - p0) * s
        case .arc:
            s = Self.ease(t)
            if t < 0.5 {
                let u = Self.ease(t * 2)
                distance = Self.logLerp(d0, peakDistanceMeters, u)
                pitch = p0 * (1 - u)
            } else {
                let u = Self.ease(t * 2 - 1)
                distance = Self.logLerp(peakDistanceMeters, d1, u)
                pitch = p1 * u
            }
        case .longHaul:
            // Speed ramps up over the first quarter, cruises, ramps down over the last quarter.
            if t < 0.25 { s = 8.0 / 3 * t * t } else if t <= 0.75 { s = 1.0 / 6 + 4.0 / 3 * (t - 0.25) } else {
                let r = 1 - t
                s = 1 - 8.0 / 3 * r * r
            }
            if t < 0.25 {
                let u = Self.ease(t * 4)
                distance = Self.logLerp(d0, peakDistanceMeters, u)
                pitch = p0 * (1 - u)
            } else if t <= 0.75 {
                distance = peakDistanceMeters
                pitch = 0
            } else {
                let u = Self.ease((t - 0.75) * 4)
                distance = Self.logLerp(peakDistanceMeters, d1, u)
                pitch = p1 * u
            }
        }
        if t >= 1 { return end }
        if t <= 0 { return start }
        var center = start.centerCoordinate
        if groundDistanceMeters > 0,
           let direct = try? Geodesic.wgs84.direct(from: start.centerCoordinate, azimuth: .degrees(azimuthDegrees),
                                                   distanceMeters: groundDistanceMeters * s) {
            center = direct.destination
        }
        let turn = (end.heading.degrees - start.heading.degrees).remainder(dividingBy: 360)
        let heading = Angle(degrees: start.heading.degrees + turn * Self.ease(t))
        let clampedDistance = min(MapCamera.distanceRangeMeters.upperBound, max(MapCamera.distanceRangeMeters.lowerBound, distance))
        return (try? MapCamera(centerCoordinate: center, centerCoordinateDistanceMeters: clampedDistance, heading: heading,
                               pitch: MapCameraPitch(degrees: min(90, max(0, pitch))))) ?? start
    }

    /// The allowed frame counts.
    public static let frameCountRange: ClosedRange<Int> = 2...10_000

    /// `count` cameras at evenly spaced times, the first equal to ``start`` and the last to ``end``.
    /// - Throws: ``MapSnapshotError/invalidFlight(detail:)`` unless `count` is in ``frameCountRange``.
    public func cameras(frameCount count: Int) throws(MapSnapshotError) -> [MapCamera] {
        guard Self.frameCountRange.contains(count) else {
            throw .invalidFlight(detail: "frame count \(count) is out of range; allowed \(Self.frameCountRange.lowerBound)…\(Self.frameCountRange.upperBound)")
        }
        return (0..<count).map { camera(at: Double($0) / Double(count - 1)) }
    }
}
