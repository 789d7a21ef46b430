/// The defining constants of the WGS84 ellipsoid.
public enum WGS84 {
    /// Equatorial radius (semi-major axis) a, metres.
    public static let equatorialRadiusMeters = 6_378_137.0
    /// Flattening f = (a − b) / a.
    public static let flattening = 1 / 298.257223563
    /// Polar radius (semi-minor axis) b = a (1 − f), metres.
    public static let polarRadiusMeters = equatorialRadiusMeters * (1 - flattening)
    /// First eccentricity squared, e² = f (2 − f).
    public static let eccentricitySquared = flattening * (2 - flattening)
    /// Metres per degree of arc on the equator (2π a / 360, about 111,319.49 m): the scale of local
    /// equirectangular approximations over city distances (× cos latitude for longitude).
    public static let metersPerDegreeOfArc = equatorialRadiusMeters * .pi / 180
}
