import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import MapSnapshot

/// Raster map tiles for Leaflet, OpenLayers and QGIS: `GET /v1/tiles/{type}/{z}/{x}/{y}.png` (256 pixels;
/// `{y}@2x.png` 512) in the XYZ scheme, and `GET /v1/tiles/{type}.json`, their TileJSON 3.0.0. Type
/// `coverage` is the street-imagery overlay (the map's coverage layer: lines along the sequences, dots
/// for lone panoramas) on transparency, to lay over any base map.
///
/// A tile is the `lookaround map` renderer's picture of a larger square, ``tileMarginPoints`` wider on
/// every side, cut down to the tile (only the tile's pixels drawn: `MapSnapshotOptions.window`): a label near the edge is placed and drawn whole in the larger
/// picture, and no label may cross the tile's edges there (`MapSnapshotOptions.labelExclusions`): the
/// neighbour reserves the same line, so a label is whole in one tile or left out, never cut in two.
/// The attribution is not painted on tiles: the TileJSON carries it, for the client to show once.
public struct MapTileRoutes: RouteFamily {
    let catalog: Catalog
    let maps: MapResources

    var routes: [Route] {
        [Route(.get, PathPattern("/v1/tiles/{type}/{z}/{x}/{y}.png"), label: "map_tile", parameters: [], .rendered { try mapTileJob($0) }),
         Route(.get, PathPattern("/v1/tiles/{type}.json"), label: "tilejson", parameters: [], .answer { try tileJSON($0) })]
    }

    /// Map types served as tiles; `coverage` (nil here) is the street-imagery overlay on transparency.
    static let tileTypes: [String: MapType?] = ["standard": .standard, "muted": .muted, "imagery": .imagery, "hybrid": .hybrid,
                                                "coverage": nil]
    /// Zoom levels served.
    static let tileZoomRange = 0...20
    /// The margin rendered around a tile and cut away, points.
    static let tileMarginPoints = 64

    /// A tile path's parts: type, tile and scale (1, or 2 for `@2x`).
    static func parseTilePath(_ path: String) throws(ServiceError) -> (type: MapType?, tile: SlippyTile, scale: Int) {
        let text = String(path.dropFirst("/v1/tiles/".count))
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        let example = "write /v1/tiles/standard/15/18655/9484.png (or …/9484@2x.png)"
        guard parts.count == 4, parts[3].hasSuffix(".png") else {
            throw .invalidParameter(parameter: "tile", message: "'\(text)' is not TYPE/Z/X/Y.png; \(example)")
        }
        guard let type = tileTypes[parts[0]] else {
            throw .invalidParameter(parameter: "type", message: "'\(parts[0])' is not a map type; one of "
                                    + tileTypes.keys.sorted().joined(separator: ", "))
        }
        var last = String(parts[3].dropLast(4)), scale = 1
        if last.hasSuffix("@2x") { last = String(last.dropLast(3)); scale = 2 }
        guard let z = Int(parts[1]), let x = Int(parts[2]), let y = Int(last) else {
            throw .invalidParameter(parameter: "tile", message: "'\(text)': Z, X and Y are whole numbers; \(example)")
        }
        guard tileZoomRange.contains(z) else {
            throw .invalidParameter(parameter: "z", message: "zoom \(z) is outside \(tileZoomRange.lowerBound)…\(tileZoomRange.upperBound)")
        }
        do { return (type, try SlippyTile(x: x, y: y, zoom: z), scale) } catch {
            throw .invalidParameter(parameter: "tile", message: "tile \(z)/\(x)/\(y): \(error)")
        }
    }

    func mapTileJob(_ request: HTTPRequest) throws(ServiceError) -> RenderJob {
        let (type, tile, scale) = try Self.parseTilePath(request.path)
        let maps = self.maps, catalog = self.catalog
        // Coverage changes with the catalog: an hour (the response cache is per catalog revision anyway).
        let maxAge = type == nil ? 3600 : 86400
        return RenderJob(key: RenderPipeline.cacheKey("map_tile", request), cacheControl: "public, max-age=\(maxAge)") {
            let resources = try maps.resources(imagery: type?.needsOrthophoto ?? false)
            let png = try Self.mapTilePNG(tile, scale: scale, type: type, snapshotter: resources.snapshotter,
                                          orthophoto: resources.orthophoto, coverage: type == nil ? CatalogCoverage(catalog: catalog) : nil)
            return HTTPResponse(contentType: "image/png", body: png)
        }
    }

    /// One tile as the tile route serves it, PNG: the snapshot ``mapTileOptions(_:scale:type:orthophoto:coverage:)``
    /// describe, encoded. `type` nil is the coverage overlay (`coverage` drawn on transparency).
    /// - Throws: `MapSnapshotError` from the renderer, `ImagingError` from the encoder.
    public static func mapTilePNG(_ tile: SlippyTile, scale: Int, type: MapType?, snapshotter: MapSnapshotter,
                                  orthophoto: (any OrthophotoProvider)?, coverage: (any PanoramaCoverage)?) throws -> [UInt8] {
        let options = mapTileOptions(tile, scale: scale, type: type, orthophoto: orthophoto, coverage: coverage)
        return try encodeTile(try snapshotter.snapshot(options).image)
    }

    /// A tile's PNG: RGB when every pixel is opaque (the base maps: the same pixels in three quarters of the
    /// bytes to filter and compress), else RGBA (the coverage overlay).
    public static func encodeTile(_ image: RGBA8Image) throws -> [UInt8] {
        if let opaque = image.droppingOpaqueAlpha() { return try PNGCodec.encode(opaque) }
        return try PNGCodec.encode(image)
    }

    /// The snapshot of a tile: the tile's square and its margin (``tileMarginPoints``) with only the tile's
    /// pixels drawn, the lines of its edges closed to labels (see the extension's overview). Public so that
    /// `Benchmarks` renders tiles exactly as served.
    public static func mapTileOptions(_ tile: SlippyTile, scale: Int, type: MapType?, orthophoto: (any OrthophotoProvider)?,
                                      coverage: (any PanoramaCoverage)?) -> MapSnapshotOptions {
        var options = MapSnapshotOptions(tile: tile, marginPoints: tileMarginPoints, scale: scale, mapType: type ?? .standard)
        options.orthophotoProvider = orthophoto
        if type == nil {
            options.showsBaseMap = false
            options.coverage = coverage
        }
        options.showsAttribution = false
        // A country is named at its label point only: each tile naming it somewhere on its own land would
        // repeat the name across a map of tiles.
        options.namesCountriesOutOfView = false
        // Only the tile's pixels are drawn; the margin is there for placing labels.
        options.window = MapSnapshotOptions.tileWindow(marginPoints: tileMarginPoints, scale: scale)
        return options
    }

    /// `GET /v1/tiles/{type}.json`: TileJSON 3.0.0 for the tiles of `type`, with absolute URLs on the host
    /// the request named, the bounds and centre of the catalog's coverage (``CoverageMaps/extent(catalog:dataset:)``),
    /// and the attribution.
    func tileJSON(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let name = String(request.path.dropFirst("/v1/tiles/".count).dropLast(".json".count))
        guard let type = Self.tileTypes[name] else {
            throw .invalidParameter(parameter: "type", message: "'\(name)' is not a map type; one of "
                                    + Self.tileTypes.keys.sorted().joined(separator: ", "))
        }
        let dataset = try maps.resources(imagery: false).dataset
        let host = request.headers["host"] ?? "127.0.0.1"
        let scheme = request.headers["x-forwarded-proto"] == "https" ? "https" : "http"
        var writer = JSONWriter(capacity: 600)
        writer.beginObject()
        let credits = type?.credits(data: dataset.isEmpty ? "" : dataset.attribution, showsWorld: true) ?? ["street imagery: lookaround"]
        writer.field("attribution", credits.joined(separator: " · "))
        // The catalog's coverage (else the extract's box): what a first map of it shows.
        if let extent = CoverageMaps.extent(catalog: catalog, dataset: dataset) {
            writer.key("bounds")
            writer.beginArray()
            for value in extent.bounds { writer.value(value) }
            writer.endArray()
            writer.key("center")
            writer.beginArray()
            for value in extent.center { writer.value(value) }
            writer.endArray()
        }
        writer.field("maxzoom", Self.tileZoomRange.upperBound)
        writer.field("minzoom", Self.tileZoomRange.lowerBound)
        writer.field("name", "lookaround \(name)")
        writer.field("scheme", "xyz")
        writer.field("tilejson", "3.0.0")
        writer.key("tiles")
        writer.beginArray()
        writer.value("\(scheme)://\(host)/v1/tiles/\(name)/{z}/{x}/{y}.png")
        writer.endArray()
        writer.endObject()
        var response = HTTPResponse.json(writer.bytes)
        response.headers.append(("Cache-Control", "public, max-age=3600"))
        return response
    }
}
