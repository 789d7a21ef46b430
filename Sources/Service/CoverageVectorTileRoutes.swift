import Catalog
import Foundation
import Geodesy

/// Coverage as vector tiles, at Panoramax's paths so its viewers and style read them: `/api/map/{z}/{x}/{y}.mvt`
/// (Mapbox Vector Tile 2.1; layer `sequences`: one line per sequence with `id`, `date`, `type`, `model`;
/// layer `pictures` from zoom ``picturesMinimumZoom``: one point per panorama with `id`, `ts`, `heading`,
/// `type`, `model`, `first_sequence`) and `/api/map/style.json`, a MapLibre style with our raster
/// basemap (`/v1/tiles/standard`) under this coverage.
struct CoverageVectorTileRoutes: RouteFamily {
    let catalog: Catalog
    let maps: MapResources

    /// Zoom levels served.
    static let zoomRange = 0...22
    /// The `pictures` layer starts here (as geovisio's: below it, a point per picture is noise).
    static let picturesMinimumZoom = 15
    /// Tile coordinates span 0…extent.
    static let extent: Int32 = 4096
    /// Panoramas one tile draws at most (a line per sequence stays whole up to this; a tile of a
    /// whole country of imagery draws the first ones in ingest order).
    static let panoramaLimit = 10_000
    /// The fraction of a tile around it whose panoramas are drawn too, so lines cross tile edges.
    static let buffer = 0.125
    /// The coverage colour Panoramax's viewers use.
    static let colour = "#FF6F00"

    var routes: [Route] {
        [Route(.get, PathPattern("/api/map/style.json"), label: "coverage_style", errors: .stac, parameters: [], .answer { style($0) }),
         Route(.get, PathPattern("/api/map/{z}/{x}/{y}.mvt"), label: "coverage_mvt", errors: .stac, parameters: [], .rendered { try tileJob($0) })]
    }

    static func parse(_ path: String) throws(ServiceError) -> SlippyTile {
        let text = String(path.dropFirst("/api/map/".count).dropLast(".mvt".count))
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).compactMap { Int($0) }
        guard parts.count == 3 else {
            throw .invalidParameter(parameter: "tile", message: "'\(text)' is not Z/X/Y; write /api/map/15/18655/9484.mvt")
        }
        guard zoomRange.contains(parts[0]) else {
            throw .invalidParameter(parameter: "z", message: "zoom \(parts[0]) is outside \(zoomRange.lowerBound)…\(zoomRange.upperBound)")
        }
        do { return try SlippyTile(x: parts[1], y: parts[2], zoom: parts[0]) } catch {
            throw .invalidParameter(parameter: "tile", message: "tile \(text): \(error)")
        }
    }

    func tileJob(_ request: HTTPRequest) throws -> RenderJob {
        let tile = try Self.parse(request.path)
        let catalog = self.catalog
        return RenderJob(key: RenderPipeline.cacheKey("coverage_mvt", request), cacheControl: "public, max-age=600") {
            HTTPResponse(contentType: "application/vnd.mapbox-vector-tile", body: try Self.tile(tile, catalog: catalog))
        }
    }

    /// The tile's bytes: its sequences (and from ``picturesMinimumZoom`` its pictures) in tile coordinates.
    static func tile(_ tile: SlippyTile, catalog: Catalog) throws -> [UInt8] {
        let rect = tile.mapRect
        let margin = rect.size.width * buffer
        let north = try MapPoint(x: rect.origin.x, y: max(0, rect.origin.y - margin)).coordinate.latitude
        let south = try MapPoint(x: rect.origin.x, y: min(MapSize.world.height, rect.origin.y + rect.size.height + margin)).coordinate.latitude
        let west = max(0, rect.origin.x - margin) / MapSize.world.width * 360 - 180
        let east = min(MapSize.world.width, rect.origin.x + rect.size.width + margin) / MapSize.world.width * 360 - 180
        let page = try catalog.searchPanoramas(PanoramaSearch(box: PanoramaSearch.Box(south: south, west: west, north: north, east: east),
                                                              limit: panoramaLimit))
        func position(_ coordinate: GeoCoordinate) -> (x: Int32, y: Int32) {
            let point = MapPoint(coordinate)
            let scale = Double(extent) / rect.size.width
            return (Int32(((point.x - rect.origin.x) * scale).rounded()), Int32(((point.y - rect.origin.y) * scale).rounded()))
        }
        var sequences = VectorTile.Layer(name: "sequences", extent: UInt32(extent))
        var pictures = VectorTile.Layer(name: "pictures", extent: UInt32(extent))
        let bySequence = Dictionary(grouping: page.records, by: \.sequenceName)
        for name in bySequence.keys.sorted() {
            let members = bySequence[name]!.sorted { $0.sequenceIndex < $1.sequenceIndex }
            var points: [(x: Int32, y: Int32)] = []
            for record in members {
                let point = position(record.coordinate)
                if let last = points.last, last == point { continue }
                points.append(point)
            }
            let first = members[0]
            let attributes: [(String, VectorTile.Value)] = [("id", .string(name)), ("date", .string(String(Catalog.iso8601String(first.captureTime).prefix(10)))),
                                                            ("type", .string(type(of: first))), ("model", .string(model(of: first)))]
            if points.count >= 2 { sequences.add(id: 0, .lineString(points), attributes: attributes) }
            guard tile.zoom >= picturesMinimumZoom else { continue }
            for record in members where rect.contains(MapPoint(record.coordinate)) {
                let point = position(record.coordinate)
                pictures.add(id: 0, .point(x: point.x, y: point.y), attributes: [
                    ("id", .string(record.id)), ("ts", .string(Catalog.iso8601String(record.captureTime))),
                    ("heading", .int(Int64(record.headingDegrees.rounded()) % 360)), ("type", .string(type(of: record))),
                    ("model", .string(model(of: record))), ("first_sequence", .string(name)), ("sequences", .string(name))])
            }
        }
        return VectorTile.encode([sequences, pictures])
    }

    /// Panoramax's picture types: `equirectangular` for a whole sphere, `flat` otherwise.
    static func type(of record: PanoramaRecord) -> String { record.horizontalCoverageDegrees >= 360 ? "equirectangular" : "flat" }

    /// Make and model, as Panoramax's tiles write them.
    static func model(of record: PanoramaRecord) -> String {
        [record.make, record.model].compactMap { $0 }.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }

    /// The MapLibre style: our raster basemap, then the sequences as lines and the pictures as circles.
    func style(_ request: HTTPRequest) -> HTTPResponse {
        let base = STACDocuments(request: request).base
        let root = String(base.dropLast("/api".count))
        let attribution = (try? maps.resources(imagery: false).dataset.attribution) ?? "© OpenStreetMap contributors"
        let style: [String: Any] = [
            "version": 8, "name": "lookaround coverage",
            "metadata": ["lookaround:layers": ["sequences": ["id", "date", "type", "model"],
                                               "pictures": ["id", "ts", "heading", "type", "model", "first_sequence"]]],
            "sources": [
                "basemap": ["type": "raster", "tiles": ["\(root)/v1/tiles/standard/{z}/{x}/{y}.png"], "tileSize": 256,
                            "minzoom": 0, "maxzoom": 20, "attribution": attribution],
                "geovisio": ["type": "vector", "tiles": ["\(base)/map/{z}/{x}/{y}.mvt"], "minzoom": 0, "maxzoom": Self.picturesMinimumZoom,
                             "attribution": "street imagery: lookaround"],
            ],
            "layers": [
                ["id": "basemap", "type": "raster", "source": "basemap"],
                ["id": "geovisio_sequences", "type": "line", "source": "geovisio", "source-layer": "sequences",
                 "paint": ["line-color": Self.colour, "line-width": ["interpolate", ["linear"], ["zoom"], 0, 0.5, 10, 2, 14, 4, 16, 5, 22, 3]],
                 "layout": ["line-cap": "square"]],
                ["id": "geovisio_pictures", "type": "circle", "source": "geovisio", "source-layer": "pictures",
                 "minzoom": Self.picturesMinimumZoom,
                 "paint": ["circle-color": Self.colour, "circle-radius": ["interpolate", ["linear"], ["zoom"], 15, 4.5, 17, 8, 22, 12],
                           "circle-stroke-color": "#ffffff", "circle-stroke-width": 1]],
            ],
        ]
        let bytes = (try? JSONSerialization.data(withJSONObject: style, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return .json(Array(bytes))
    }
}
