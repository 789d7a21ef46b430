import Foundation

/// Fast great-circle formulas on a sphere, for hot paths where ~0.5 % distance error is acceptable
/// (ranking candidates, coarse radius filters). Use ``Geodesic`` where accuracy matters.
///
/// The sphere has the IUGG mean Earth radius R1 = (2a + b) / 3 = 6 371 008.8 m.
///
/// Error against the WGS84 ellipsoid, measured on the 1,128-case geographiclib reference table
/// (`Tests/GeodesyTests/Fixtures/geodesic-table.csv`, every non-zero distance from 1 mm to antipodal):
/// worst relative distance error 0.561 % (5.608e-3, on a 463 km meridional line across the equator);
/// ``worstRelativeDistanceError`` rounds it up to 0.57 % and the tests assert that bound. The
/// error comes from the ellipsoid's radius of curvature varying between 6 335 km (meridian at the
/// equator) and 6 400 km (at the poles), so it does not shrink for short distances. Bearings differ
/// from geodesic azimuths by up to a few tenths of a degree.
public enum SphericalEarth {
    /// Radius of the sphere, metres (IUGG mean radius of WGS84).
    public static let meanRadiusMeters = 6_371_008.8

    /// Worst relative error of ``distanceMeters(from:to:)`` against the WGS84 geodesic distance,
    /// as a fraction: 0.0057 (measured worst on the reference table: 0.005608).
    public static let worstRelativeDistanceError = 0.0057

    /// Great-circle distance, metres, by the haversine formula in its atan2 form (accurate for
    /// coincident and antipodal points alike). Cost: a handful of trigonometric calls, no iteration.
    @inlinable
    public static func distanceMeters(from start: GeoCoordinate, to end: GeoCoordinate) -> Double {
        let phi1 = start.latitude * (.pi / 180), phi2 = end.latitude * (.pi / 180)
        let dPhi = phi2 - phi1
        let dLambda = (end.longitude - start.longitude) * (.pi / 180)
        let sinHalfPhi = sin(dPhi / 2), sinHalfLambda = sin(dLambda / 2)
        let h = min(1, sinHalfPhi * sinHalfPhi + cos(phi1) * cos(phi2) * sinHalfLambda * sinHalfLambda)
        return 2 * meanRadiusMeters * atan2(h.squareRoot(), (1 - h).squareRoot())
    }

    /// Initial bearing of the great circle from `start` to `end`, a heading in [0, 360) degrees clockwise
    /// from north. 0 for coincident points.
    @inlinable
    public static func initialBearing(from start: GeoCoordinate, to end: GeoCoordinate) -> Angle {
        let phi1 = start.latitude * (.pi / 180), phi2 = end.latitude * (.pi / 180)
        let dLambda = (end.longitude - start.longitude) * (.pi / 180)
        let y = sin(dLambda) * cos(phi2)
        let x = cos(phi1) * sin(phi2) - sin(phi1) * cos(phi2) * cos(dLambda)
        return Angle(radians: atan2(y, x)).normalizedHeading
    }

    /// The point reached after `distanceMeters` along the great circle leaving `start` with `bearing`
    /// (clockwise from north). Longitude is normalised to [-180, 180).
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite bearing or distance.
    public static func destination(from start: GeoCoordinate, bearing: Angle,
                                   distanceMeters: Double) throws(GeodesyError) -> GeoCoordinate {
        guard bearing.degrees.isFinite else { throw .notFinite(parameter: "bearingDegrees", value: bearing.degrees) }
        guard distanceMeters.isFinite else { throw .notFinite(parameter: "distanceMeters", value: distanceMeters) }
        let delta = distanceMeters / meanRadiusMeters
        let theta = bearing.radians
        let phi1 = start.latitude * (.pi / 180)
        let sinPhi2 = max(-1, min(1, sin(phi1) * cos(delta) + cos(phi1) * sin(delta) * cos(theta)))
        let phi2 = asin(sinPhi2)
        let dLambda = atan2(sin(theta) * sin(delta) * cos(phi1), cos(delta) - sin(phi1) * sinPhi2)
        let latitude = max(-90, min(90, phi2 * 180 / .pi))
        return GeoCoordinate(uncheckedLatitude: latitude,
                             longitude: GeoCoordinate.normalizedLongitude(start.longitude + dLambda * 180 / .pi))
    }
}
