import Foundation
import Geodesy
import MapData

/// A ``WorldBasemap`` prepared for drawing: every band's land polygons and borders in Web Mercator map
/// points with their boxes, and the country labels ordered by importance. Built once per basemap
/// (``shipped`` once per process); immutable and shareable.
public final class WorldLayer: Sendable {
    struct Polygon: Sendable { var country: Int; var rings: [[MapPoint]]; var box: MapContent.Box }
    struct Line: Sendable { var points: [MapPoint]; var box: MapContent.Box }
    struct Band: Sendable { var minimumZoom: Double; var polygons: [Polygon]; var borders: [Line] }
    struct Label: Sendable {
        var country: Int; var position: MapPoint; var name: String; var names: [String: String]
        var minimumZoom: Double; var maximumZoom: Double; var isMajor: Bool
    }

    let bands: [Band]
    /// Country labels, the ones shown earliest (then the most populous) first: they win collisions.
    let labels: [Label]

    /// The layer of `basemap`.
    public init(_ basemap: WorldBasemap) {
        func mp(_ c: OSMCoordinate) -> MapPoint {
            MapPoint(x: (c.longitude + 180) / 360 * MapSize.world.width, y: MapContent.mercatorY(latitude: c.latitude))
        }
        bands = basemap.bands.map { band in
            Band(minimumZoom: band.minimumZoom,
                 polygons: band.polygons.map { polygon in
                     let rings = polygon.rings.map { $0.map(mp) }
                     return Polygon(country: polygon.country, rings: rings, box: MapContent.Box(rings[0]))
                 },
                 borders: band.borders.map { line in
                     let points = line.map(mp)
                     return Line(points: points, box: MapContent.Box(points))
                 })
        }
        labels = basemap.countries.enumerated()
            .sorted { ($0.1.minimumLabelZoom, -$0.1.population, $0.1.code) < ($1.1.minimumLabelZoom, -$1.1.population, $1.1.code) }
            .map { index, country in
                Label(country: index, position: mp(country.labelPosition), name: country.name, names: country.names,
                      minimumZoom: country.minimumLabelZoom, maximumZoom: country.maximumLabelZoom,
                      isMajor: country.population >= 20_000_000)
            }
    }

    /// The band to draw at `zoom`.
    func band(forZoom zoom: Double) -> Band { bands.last { $0.minimumZoom <= zoom } ?? bands[0] }

    private static let loadedShipped: Result<WorldLayer, any Error> = Result { WorldLayer(try WorldBasemap.shipped()) }

    /// The layer of the shipped basemap (``WorldBasemap/shipped()``), prepared once per process.
    /// - Throws: ``MapDataError/worldBasemapNotFound(searched:)`` when the basemap file is missing.
    public static func shipped() throws -> WorldLayer { try loadedShipped.get() }
}
