import Catalog
import Geodesy

/// Coverage drawn from a panorama catalog: the panoramas inside the map's rect, in capture order.
public struct CatalogCoverage: PanoramaCoverage {
    /// The catalog asked.
    public let catalog: Catalog

    /// Coverage from `catalog`.
    public init(catalog: Catalog) { self.catalog = catalog }

    /// The panorama positions inside `rect`; a rect across the 180th meridian is asked as two boxes.
    /// A catalog error draws no coverage rather than failing the map (the map is still useful).
    public func panoramaCoordinates(in rect: MapRect) -> [GeoCoordinate] {
        guard let region = try? CoordinateRegion(rect) else { return [] }
        let south = region.southLatitude, north = region.northLatitude
        let west = region.westLongitude, east = region.eastLongitude
        let boxes: [(Double, Double)] = region.spans180thMeridian || region.span.longitudeDelta >= 360
            ? [(west, 180), (-180, east)] : [(west, east)]
        var coordinates: [GeoCoordinate] = []
        for (boxWest, boxEast) in boxes {
            guard let entries = try? catalog.coverage(south: south, north: north, west: boxWest, east: boxEast) else {
                continue
            }
            coordinates += entries.compactMap { try? GeoCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
        }
        return coordinates
    }
}
