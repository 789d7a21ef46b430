import Foundation

/// An Earth-centred, Earth-fixed (ECEF) Cartesian position on WGS84, metres.
///
/// Origin at the Earth's centre of mass; +x through (0°N, 0°E), +y through (0°N, 90°E), +z through the
/// North Pole. Conversions to and from ``GeodeticPosition`` use the WGS84 ellipsoid; the round trip is
/// exact to well under a micrometre for heights from the Earth's centre region out to geostationary orbit.
public struct ECEFPosition: Sendable, Hashable, Codable {
    /// Metres along the axis through (0°N, 0°E).
    public var x: Double
    /// Metres along the axis through (0°N, 90°E).
    public var y: Double
    /// Metres along the rotation axis, north positive.
    public var z: Double

    /// Creates an ECEF position from metres.
    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Converts a geodetic position (coordinate and ellipsoidal height) to ECEF.
    public init(_ position: GeodeticPosition) {
        let (sinPhi, cosPhi) = Trigonometry.sinCosDegrees(position.coordinate.latitude)
        let (sinLambda, cosLambda) = Trigonometry.sinCosDegrees(position.coordinate.longitude)
        let e2 = WGS84.eccentricitySquared
        let primeVerticalRadius = WGS84.equatorialRadiusMeters / (1 - e2 * sinPhi * sinPhi).squareRoot()
        let h = position.heightMeters
        x = (primeVerticalRadius + h) * cosPhi * cosLambda
        y = (primeVerticalRadius + h) * cosPhi * sinLambda
        z = (primeVerticalRadius * (1 - e2) + h) * sinPhi
    }

    /// Converts a coordinate at an ellipsoidal height (metres) to ECEF.
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite height.
    public init(_ coordinate: GeoCoordinate, heightMeters: Double) throws(GeodesyError) {
        self.init(try GeodeticPosition(coordinate: coordinate, heightMeters: heightMeters))
    }

    /// The geodetic position (latitude, longitude, ellipsoidal height) of this point.
    ///
    /// Bowring's iteration on the parametric latitude, which converges to the last bit in two or three
    /// steps at terrestrial heights; the height uses the formula that stays exact at the poles.
    /// On the rotation axis the longitude is 0.
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` when x, y or z is NaN or infinite.
    public func geodetic() throws(GeodesyError) -> GeodeticPosition {
        guard x.isFinite else { throw .notFinite(parameter: "ECEF x metres", value: x) }
        guard y.isFinite else { throw .notFinite(parameter: "ECEF y metres", value: y) }
        guard z.isFinite else { throw .notFinite(parameter: "ECEF z metres", value: z) }
        let a = WGS84.equatorialRadiusMeters, b = WGS84.polarRadiusMeters
        let e2 = WGS84.eccentricitySquared, f1 = 1 - WGS84.flattening
        let ep2 = e2 / (f1 * f1)
        let p = hypot(x, y)
        // Parametric (reduced) latitude β and geodetic latitude φ, refined together.
        var sinBeta = z, cosBeta = f1 * p
        var phi = 0.0
        for _ in 0..<6 {
            let h = hypot(sinBeta, cosBeta)
            if h == 0 { break }  // the Earth's centre: any latitude will do
            sinBeta /= h
            cosBeta /= h
            let next = atan2(z + ep2 * b * sinBeta * sinBeta * sinBeta, p - e2 * a * cosBeta * cosBeta * cosBeta)
            let converged = abs(next - phi) < 1e-15
            phi = next
            if converged { break }
            sinBeta = f1 * sin(phi)
            cosBeta = cos(phi)
        }
        let sinPhi = sin(phi), cosPhi = cos(phi)
        let height = p * cosPhi + z * sinPhi - a * (1 - e2 * sinPhi * sinPhi).squareRoot()
        let latitude = max(-90, min(90, phi * 180 / .pi))
        let longitude = p == 0 ? 0 : GeoCoordinate.normalizedLongitude(atan2(y, x) * 180 / .pi)
        return GeodeticPosition(unchecked: GeoCoordinate(uncheckedLatitude: latitude, longitude: longitude),
                                heightMeters: height)
    }

    /// Straight-line distance to another ECEF position, metres.
    public func distanceMeters(to other: ECEFPosition) -> Double {
        let dx = x - other.x, dy = y - other.y, dz = z - other.z
        return (dx * dx + dy * dy + dz * dz).squareRoot()
    }
}
