extension GeoCoordinate {
    /// WGS84 geodesic distance to `other`, metres (Karney's algorithm, accurate to well under 1 mm).
    public func distanceMeters(to other: GeoCoordinate) -> Double {
        Geodesic.wgs84.inverse(from: self, to: other).distanceMeters
    }

    /// Initial azimuth of the WGS84 geodesic to `other`: a heading in [0, 360) degrees clockwise from north.
    public func initialAzimuth(to other: GeoCoordinate) -> Angle {
        Geodesic.wgs84.inverse(from: self, to: other).initialAzimuth
    }

    /// The point reached by following the WGS84 geodesic from here with `azimuth` for `distanceMeters`.
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` for a NaN or infinite azimuth or distance.
    public func destination(azimuth: Angle, distanceMeters: Double) throws(GeodesyError) -> GeoCoordinate {
        try Geodesic.wgs84.direct(from: self, azimuth: azimuth, distanceMeters: distanceMeters).destination
    }
}
