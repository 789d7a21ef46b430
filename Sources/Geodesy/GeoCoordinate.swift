/// A validated WGS84 position on the ellipsoid surface, in degrees.
///
/// `latitude` is in [-90, 90] (north positive) and `longitude` in [-180, 180) (east positive).
/// Construction checks both and throws ``GeodesyError`` naming the bad value and the range; it never
/// clamps. A longitude that comes out of arithmetic (for example `179.5 + 1.0`) can be wrapped into range
/// explicitly with ``init(latitude:normalizingLongitude:)``.
///
/// Encodes as `{"latitude": …, "longitude": …}`; decoding validates the same way.
public struct GeoCoordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Latitude in degrees, in [-90, 90], north positive.
    public let latitude: Double
    /// Longitude in degrees, in [-180, 180), east positive.
    public let longitude: Double

    /// The allowed latitude range, degrees.
    public static let latitudeRange: ClosedRange<Double> = -90...90
    /// The allowed longitude range, degrees (180 itself is written as -180).
    public static let longitudeRange: Range<Double> = -180..<180

    /// Creates a coordinate from degrees, rejecting NaN, infinities and out-of-range values.
    ///
    /// - Throws: ``GeodesyError/latitudeOutOfRange(_:)`` unless `latitude` ∈ [-90, 90];
    ///   ``GeodesyError/longitudeOutOfRange(_:)`` unless `longitude` ∈ [-180, 180).
    public init(latitude: Double, longitude: Double) throws(GeodesyError) {
        guard Self.latitudeRange.contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard Self.longitudeRange.contains(longitude) else { throw .longitudeOutOfRange(longitude) }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Creates a coordinate, wrapping any finite longitude (degrees) into [-180, 180).
    ///
    /// Use this for longitudes produced by arithmetic, e.g. `lon + 2.0` near the 180th meridian:
    /// 181 becomes -179, 180 becomes -180, -540 becomes -180. The latitude is still validated, not wrapped.
    ///
    /// - Throws: ``GeodesyError/latitudeOutOfRange(_:)`` unless `latitude` ∈ [-90, 90];
    ///   ``GeodesyError/longitudeOutOfRange(_:)`` if `longitude` is NaN or infinite.
    public init(latitude: Double, normalizingLongitude longitude: Double) throws(GeodesyError) {
        guard Self.latitudeRange.contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        guard longitude.isFinite else { throw .longitudeOutOfRange(longitude) }
        self.latitude = latitude
        self.longitude = Self.normalizedLongitude(longitude)
    }

    /// Internal fast path for values the module has computed and knows to be in range.
    init(uncheckedLatitude latitude: Double, longitude: Double) {
        assert(Self.latitudeRange.contains(latitude) && Self.longitudeRange.contains(longitude),
               "unchecked coordinate out of range: \(latitude), \(longitude)")
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Wraps a finite longitude in degrees into [-180, 180). Exact: uses the IEEE remainder.
    public static func normalizedLongitude(_ degrees: Double) -> Double {
        var x = degrees.remainder(dividingBy: 360)  // [-180, 180]
        if x >= 180 { x -= 360 }
        if x == 0 { x = 0 }  // no negative zero
        return x
    }

    /// `latitude` in radians.
    public var latitudeRadians: Double { latitude * .pi / 180 }
    /// `longitude` in radians.
    public var longitudeRadians: Double { longitude * .pi / 180 }

    /// "lat, lon" in degrees, e.g. `60.1699, 24.9384`.
    public var description: String { "\(latitude), \(longitude)" }

    /// Also the keys of the synthesized `encode(to:)`, in this order.
    private enum CodingKeys: String, CodingKey { case latitude, longitude }

    /// Decodes `{"latitude": …, "longitude": …}` (degrees) and validates it like ``init(latitude:longitude:)``.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(latitude: try container.decode(Double.self, forKey: .latitude),
                      longitude: try container.decode(Double.self, forKey: .longitude))
    }
}
