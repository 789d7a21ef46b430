import Foundation

/// A point on the Web Mercator (EPSG:3857) world map, in map points, with MapKit's `MKMapPoint`
/// semantics.
///
/// The world is ``MapSize/world`` = 2^28 × 2^28 map points. The origin (0, 0) is the top-left corner at
/// (≈85.0511°N, 180°W); x grows east, y grows south. x values beyond the world width (or negative)
/// describe the same places one world to the east (west): that is how ``MapRect`` spans the 180th meridian.
///
/// Projection (spherical Mercator on the WGS84 longitude/latitude, as every web map):
///   x = (λ + 180°) / 360° · W,   y = (1/2 − atanh(sin φ) / (2π)) · H.
/// Latitudes beyond ±``maximumLatitudeDegrees`` cannot be shown on the square world map; like MapKit
/// they project onto its top or bottom edge (y = 0 or y = H).
public struct MapPoint: Sendable, Hashable, Codable {
    /// East-west position in map points; [0, 268 435 456) inside the world.
    public var x: Double
    /// North-south position in map points, growing south; [0, 268 435 456] inside the world.
    public var y: Double

    /// The latitude of the top and bottom edges of the world map, degrees: atan(sinh π) ≈ 85.0511°.
    public static let maximumLatitudeDegrees = atan(sinh(Double.pi)) * 180 / .pi

    /// Creates a map point from map-point coordinates.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// Projects a coordinate onto the world map. x ∈ [0, W), y ∈ [0, H]; latitudes beyond
    /// ±``maximumLatitudeDegrees`` land on the top/bottom edge (the map has no room for them).
    public init(_ coordinate: GeoCoordinate) {
        let world = MapSize.world
        x = (coordinate.longitude + 180) / 360 * world.width
        let latitude = min(Self.maximumLatitudeDegrees, max(-Self.maximumLatitudeDegrees, coordinate.latitude))
        let sinPhi = Trigonometry.sinCosDegrees(latitude).sin
        y = min(world.height, max(0, (0.5 - atanh(sinPhi) / (2 * .pi)) * world.height))
    }

    /// The coordinate shown at this point. Any finite x is accepted and wraps around the world
    /// (x = W + 10 is the same place as x = 10); any finite y gives a latitude in (-90, 90), points above or
    /// below the world square continuing the Mercator projection.
    ///
    /// - Throws: ``GeodesyError/notFinite(parameter:value:)`` when x or y is NaN or infinite.
    public var coordinate: GeoCoordinate {
        get throws(GeodesyError) {
            guard x.isFinite else { throw .notFinite(parameter: "map point x", value: x) }
            guard y.isFinite else { throw .notFinite(parameter: "map point y", value: y) }
            let world = MapSize.world
            let longitude = GeoCoordinate.normalizedLongitude(x / world.width * 360 - 180)
            let latitude = atan(sinh(.pi * (1 - 2 * y / world.height))) * 180 / .pi
            return GeoCoordinate(uncheckedLatitude: latitude, longitude: longitude)
        }
    }

    /// Map points per metre on the ground at a latitude (the Mercator scale: W / (2π a cos φ), with
    /// a = 6 378 137 m), as MapKit's `MKMapPointsPerMeterAtLatitude`. Latitudes beyond
    /// ±``maximumLatitudeDegrees`` use that limit, like the projection.
    ///
    /// - Throws: ``GeodesyError/latitudeOutOfRange(_:)`` unless `latitude` ∈ [-90, 90] degrees.
    public static func pointsPerMeter(atLatitude latitude: Double) throws(GeodesyError) -> Double {
        guard GeoCoordinate.latitudeRange.contains(latitude) else { throw .latitudeOutOfRange(latitude) }
        let clamped = min(maximumLatitudeDegrees, max(-maximumLatitudeDegrees, latitude))
        return MapSize.world.width / (2 * .pi * WGS84.equatorialRadiusMeters * Trigonometry.sinCosDegrees(clamped).cos)
    }

    /// Metres on the ground per map point at a latitude: 1 / ``pointsPerMeter(atLatitude:)``.
    ///
    /// - Throws: ``GeodesyError/latitudeOutOfRange(_:)`` unless `latitude` ∈ [-90, 90] degrees.
    public static func metersPerMapPoint(atLatitude latitude: Double) throws(GeodesyError) -> Double {
        1 / (try pointsPerMeter(atLatitude: latitude))
    }

    /// WGS84 geodesic distance between the places shown at two map points, metres (as MapKit's
    /// `MKMetersBetweenMapPoints`). NaN if either point is not finite.
    public func distanceMeters(to other: MapPoint) -> Double {
        guard let start = try? coordinate, let end = try? other.coordinate else { return .nan }
        return start.distanceMeters(to: end)
    }
}
