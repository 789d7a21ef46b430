/// A position given by a WGS84 coordinate and an ellipsoidal height.
public struct GeodeticPosition: Sendable, Hashable, Codable {
    /// Latitude and longitude, degrees.
    public var coordinate: GeoCoordinate
    /// Height above the WGS84 ellipsoid along its normal, metres (not above the geoid / sea level).
    public var heightMeters: Double

    /// Creates a geodetic position.
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite height.
    public init(coordinate: GeoCoordinate, heightMeters: Double) throws(GeodesyError) {
        guard heightMeters.isFinite else { throw .notFinite(parameter: "heightMeters", value: heightMeters) }
        self.coordinate = coordinate
        self.heightMeters = heightMeters
    }

    init(unchecked coordinate: GeoCoordinate, heightMeters: Double) {
        self.coordinate = coordinate
        self.heightMeters = heightMeters
    }
}
