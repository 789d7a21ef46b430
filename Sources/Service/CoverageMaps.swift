import Catalog
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot

/// What the maps of a catalog show first and how its coverage is clicked, for any catalog, with or
/// without an OSM extract: the TileJSON's `bounds` and `center` (the catalog's coverage, not a fixed
/// city), and the coverage's clusters as data (`GET /v1/coverage/clusters/{z}/{x}/{y}`), the same
/// clusters the raster coverage tiles draw below zoom 14 (``CoverageClustering``).
///
/// Kept apart from the route handlers: each is a function of the catalog and the extract's data, which
/// the handlers call.
enum CoverageMaps {
    /// The view a first map of the catalog fits: TileJSON's `bounds` ([west, south, east, north]) and
    /// `center` ([longitude, latitude, zoom]). The catalog's coverage when it has panoramas (the zoom
    /// fits it in a 1280×800 window, up to 17 for a single spot); else the extract's box; else nil
    /// (TileJSON's defaults: the whole world).
    static func extent(catalog: Catalog, dataset: MapDataset?) -> (bounds: [Double], center: [Double])? {
        if let coverage = try? catalog.coverageBounds() {
            let zoom = coverage.fittingZoom(widthPoints: 1280, heightPoints: 800)
            let center = coverage.center
            return ([coverage.west, coverage.south, coverage.east, coverage.north].map(rounded),
                    [rounded(center.longitude), rounded(center.latitude), Double(zoom)])
        }
        guard let box = dataset?.boundingBox else { return nil }
        let bounds = CoverageBounds(south: box.minLatitude, north: box.maxLatitude, west: box.minLongitude, east: box.maxLongitude,
                                    panoramaCount: 0)
        return ([box.minLongitude, box.minLatitude, box.maxLongitude, box.maxLatitude].map(rounded),
                [rounded(bounds.center.longitude), rounded(bounds.center.latitude),
                 Double(bounds.fittingZoom(widthPoints: 1280, heightPoints: 800, range: 1...16))])
    }

    /// The region a map of the catalog's coverage frames when no view is named; nil for an empty catalog.
    static func region(catalog: Catalog) -> CoordinateRegion? { (try? catalog.coverageBounds())?.region() }

    /// Degrees to 1e-7 (about a centimetre): what TileJSON needs, without float noise.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

    /// `/v1/coverage/clusters/{z}/{x}/{y}`'s tile, nil for another path.
    /// - Throws: `ServiceError.invalidParameter` for a malformed or out-of-range tile.
    static func clusterTile(_ path: String) throws(ServiceError) -> SlippyTile? {
        let prefix = "/v1/coverage/clusters/"
        guard path.hasPrefix(prefix) else { return nil }
        let text = String(path.dropFirst(prefix.count))
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
            throw .invalidParameter(parameter: "tile", message: "'\(text)' is not Z/X/Y; write whole numbers such as /v1/coverage/clusters/5/16/10")
        }
        do { return try SlippyTile(x: x, y: y, zoom: z) } catch {
            throw .invalidParameter(parameter: "tile", message: "tile \(text): \(error)")
        }
    }

    /// The clusters whose centre lies in `tile` at its zoom, as GeoJSON: a Point feature each with
    /// `count`, `bounds` ([west, south, east, north] of its members), `zoom` (the level that shows its
    /// members apart: where a click on it should go) and, for a lone panorama, `panorama_id`. The tile is
    /// 4 × 4 whole cells of the grid, so the clusters are exactly those the raster tile draws. From zoom
    /// 14 on, where the tiles draw lines, every panorama is its own feature.
    static func clustersGeoJSON(tile: SlippyTile, catalog: Catalog) throws(ServiceError) -> [UInt8] {
        let entries: [CoverageEntry]
        do { entries = try catalog.coverage(tile: tile) } catch { throw QueryParameters.translate(error) }
        var points: [GeoCoordinate] = [], kept: [CoverageEntry] = []
        for entry in entries {
            guard let point = try? GeoCoordinate(latitude: entry.latitude, normalizingLongitude: entry.longitude) else { continue }
            points.append(point)
            kept.append(entry)
        }
        // Past the clustering zooms each panorama is its own cell (the grid at zoom 30 is finer than the catalog).
        let level = tile.zoom < CoverageClustering.maximumZoom ? tile.zoom : 30
        let clusters = CoverageClustering.clusters(points, zoom: level)
        return JSONWriter.pointFeatures(clusters, tile: tile.description, capacity: 240 * clusters.count + 120,
                                        position: { (rounded($0.center.longitude), rounded($0.center.latitude)) }) { writer, cluster in
            writer.key("bounds")
            writer.beginArray()
            for value in [cluster.west, cluster.south, cluster.east, cluster.north] { writer.value(rounded(value)) }
            writer.endArray()
            writer.field("count", cluster.count)
            if cluster.count == 1 { writer.field("panorama_id", kept[cluster.members[0]].panoramaID) }
            writer.field("zoom", cluster.count == 1 ? max(tile.zoom, 17) : cluster.zoomToShowMembers(from: tile.zoom))
        }
    }
}

/// The `imagery` and `hybrid` maps' stand-in without an OSM extract: there is no city to photograph
/// from above, so those maps are the world layer too (the renderer never asks for an orthophoto outside
/// an extract; if it ever did, this says why there is none).
struct WorldOnlyImagery: OrthophotoProvider {
    func orthophoto(of rect: MapRect, size: PixelSize) throws -> RGB8Image {
        throw ServiceError.invalidParameter(parameter: "type", message: "simulated imagery needs an OSM extract; start the server with --osm FILE")
    }
}
