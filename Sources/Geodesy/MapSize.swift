/// A size in Web Mercator map points (see ``MapPoint``), as MapKit's `MKMapSize`.
public struct MapSize: Sendable, Hashable, Codable {
    /// Width in map points (east-west).
    public var width: Double
    /// Height in map points (north-south).
    public var height: Double

    /// Creates a size in map points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The whole world: 268 435 456 × 268 435 456 map points (2^28, as in MapKit).
    public static let world = MapSize(width: 268_435_456, height: 268_435_456)
}
