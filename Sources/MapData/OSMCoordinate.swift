/// A WGS84 position as OpenStreetMap stores it, in degrees.
///
/// MapData keeps its own small coordinate type so that it does not depend on `Geodesy`'s API while
/// that module is written; converting is one initialiser call on the `Geodesy` side.
public struct OSMCoordinate: Sendable, Hashable, Codable {
    /// Latitude in degrees, positive north, in [-90, 90].
    public var latitude: Double
    /// Longitude in degrees, positive east, in [-180, 180).
    public var longitude: Double

    /// A coordinate from latitude and longitude in degrees (not validated: OSM data is trusted here).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
