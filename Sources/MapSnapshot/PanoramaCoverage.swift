import Geodesy

/// Where street imagery exists, for the coverage layer (blue dots and lines, as Look Around shows it).
/// The catalog provides one; ``PanoramaLocations`` is a plain list.
public protocol PanoramaCoverage: Sendable {
    /// The panorama positions inside `rect` (map points; may extend past the 180th meridian), in capture
    /// order where there is one (consecutive positions closer than ``MapStyle/coverageLinkMeters`` are drawn
    /// joined by a line).
    func panoramaCoordinates(in rect: MapRect) -> [GeoCoordinate]
}

/// Coverage from a list of panorama positions (for example read from a GeoJSON file of points).
public struct PanoramaLocations: PanoramaCoverage, Sendable, Hashable {
    /// The positions, in capture order.
    public var coordinates: [GeoCoordinate]

    /// Coverage from positions in capture order.
    public init(_ coordinates: [GeoCoordinate]) { self.coordinates = coordinates }

    /// The positions inside `rect` (linear scan: fine for thousands of points).
    public func panoramaCoordinates(in rect: MapRect) -> [GeoCoordinate] {
        coordinates.filter { rect.contains(MapPoint($0)) }
    }
}
