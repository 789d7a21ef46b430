import Catalog
import Foundation
import Geodesy
import Reprojection

/// The native scene routes (JSON under `/v1/`): scene requests one at a time and in batches, place
/// search, coverage tiles and panorama records.
struct SceneRoutes: RouteFamily {
    let catalog: Catalog
    let cached: CachedAnswers
    /// Requests in one batch at most.
    let maximumBatchCount: Int
    /// `--public-imagery-url`: where clients fetch the files of imagery in object storage themselves.
    let publicImagery: PublicImageryURL?
    /// The panoramas' tile files (their public URLs).
    let tileStore: PanoramaTileStore

    var routes: [Route] {
        [Route(.get, PathPattern("/v1/scene"), label: "scene",
               parameters: ["lat", "lon", "near", "radius_meters", "zoom", "preference", "source", "after", "before", "language", "id"],
               .answer { try scene($0) }),
         // Parsing a body of up to --max-body-bytes and answering each line is work for a render worker,
         // not for a network thread that other clients' scene requests wait for.
         Route(.post, PathPattern("/v1/scenes"), label: "scenes", parameters: ["radius_meters", "zoom", "preference", "source", "after", "before"],
               .worker { try batch($0) }),
         Route(.get, PathPattern("/v1/search"), label: "search", parameters: ["q", "near", "category", "language", "limit"],
               .answer { try search($0) }),
         Route(.get, PathPattern("/v1/coverage/{z}/{x}/{y}"), label: "coverage", parameters: [], .answer { try coverage($0) }),
         Route(.get, PathPattern("/v1/coverage/clusters/{z}/{x}/{y}"), label: "coverage_clusters", parameters: [],
               .answer { try coverageClusters($0) }),
         Route(.get, PathPattern("/v1/panoramas/{id}"), label: "panorama", parameters: [], .answer { try panorama($0) })]
    }

    /// The scene request of a query: `lat`/`lon` or `near`, `radius_meters`, `preference`, `source`,
    /// `after`, `before`; also the request id (the place's name for `near`).
    func sceneRequest(_ query: QueryParameters) throws(ServiceError) -> (request: SceneRequest, requestID: String?) {
        var request = try sceneFilters(query)
        var point = try query.latitudeLongitude()
        var requestID = query.string("id")
        if let name = query.string("near") {
            guard point == nil else { throw .invalidParameter(parameter: "near", message: "give either lat/lon or near, not both") }
            let place: GeocodeResult
            do { place = try catalog.locate(name, language: query.string("language")) } catch {
                throw QueryParameters.translate(error)
            }
            point = place.coordinate
            requestID = requestID ?? place.name
        }
        guard let point else {
            throw .invalidParameter(parameter: "lat", message: "give lat and lon (decimal degrees) or near=PLACE")
        }
        request.coordinate = point
        if let zoom = try Self.clickZoom(query) { request.radiusMeters = SceneRequest.clickRadiusMeters(zoom: zoom, latitude: point.latitude) }
        return (request, requestID)
    }

    /// The radius, preference, source and date window of a query (a batch's defaults); the coordinate
    /// is a placeholder.
    func sceneFilters(_ query: QueryParameters) throws(ServiceError) -> SceneRequest {
        let radius = try query.double("radius_meters", in: SceneRequest.radiusRange, unit: "metres") ?? SceneRequest.defaultRadiusMeters
        let preference = try query.choice("preference", Self.preferences).flatMap(ScenePreference.init) ?? .nearest
        let source = try query.choice("source", Self.sources).flatMap(SourceFilter.init) ?? .any
        let after = try query.date("after", endOfDay: false), before = try query.date("before", endOfDay: true)
        if let after, let before, after > before {
            throw .invalidParameter(parameter: "after", message: "after is later than before; give a window whose start is not after its end")
        }
        return SceneRequest(coordinate: Self.placeholderCoordinate, radiusMeters: radius, preference: preference, source: source,
                            capturedAfter: after, capturedBefore: before)
    }

    /// `zoom=`: the web-map zoom a click was made at, whose radius (``SceneRequest/clickRadiusMeters(zoom:latitude:)``)
    /// replaces `radius_meters` (the two together are refused).
    static func clickZoom(_ query: QueryParameters) throws(ServiceError) -> Double? {
        guard let zoom = try query.double("zoom", in: SceneRequest.zoomRange, unit: "") else { return nil }
        if query.string("radius_meters") != nil {
            throw .invalidParameter(parameter: "zoom", message: "give radius_meters or zoom (a click's radius at that map zoom), not both")
        }
        return zoom
    }

    /// The values `preference=` and `source=` take (made once: every scene request checks them).
    private static let preferences = ScenePreference.allCases.map(\.rawValue), sources = SourceFilter.allCases.map(\.rawValue)

    /// The coordinate of a request that has none yet (0°, 0°; a batch's lines bring their own).
    private static let placeholderCoordinate: GeoCoordinate = {
        do { return try GeoCoordinate(latitude: 0, longitude: 0) } catch { preconditionFailure("0°, 0° is a valid coordinate") }
    }()

    /// `GET /v1/scene`: the scene, or 404 with `no_coverage.reason`.
    func scene(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let (sceneRequest, requestID) = try sceneRequest(QueryParameters(request: request))
        let revision = catalog.revision
        let answer: SceneAnswer
        do { answer = try catalog.scene(for: sceneRequest, requestID: requestID, detailCache: cached.details) } catch {
            throw QueryParameters.translate(error)
        }
        var writer = JSONWriter(capacity: 1536)
        writer.write(answer, fragments: cached.fragments, revision: revision)
        return .json(writer.bytes, status: answer.found ? 200 : 404)
    }

    /// `POST /v1/scenes`: a JSON array of requests, or JSON Lines / CSV lines (as `lookaround scene
    /// --batch` reads them); answers in order, as a JSON array (array in) or JSON Lines (lines in).
    func batch(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        // Blank lines are skipped as bytes: a megabyte of newlines is a few milliseconds, not a million strings.
        func isBlank(_ byte: UInt8) -> Bool { byte == 32 || byte == 9 || byte == 10 || byte == 13 }
        let isArray = request.body.first { !isBlank($0) } == UInt8(ascii: "[")
        var lines: [(number: Int, text: String)] = []
        if isArray {
            guard let items = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [Any] else {
                throw .invalidParameter(parameter: "body", message: "the body starts with '[' but is not a JSON array; send an array of {\"latitude\":…,\"longitude\":…} or JSON Lines")
            }
            if items.count > maximumBatchCount {
                throw .batchTooLarge(count: items.count, limit: maximumBatchCount)
            }
            for (i, item) in items.enumerated() {
                guard item is [String: Any], let data = try? JSONSerialization.data(withJSONObject: item) else {
                    throw .invalidParameter(parameter: "body", message: "batch item \(i + 1) is not a JSON object")
                }
                lines.append((i + 1, String(decoding: data, as: UTF8.self)))
            }
        } else {
            request.body.withUnsafeBufferPointer { bytes in
                var start = 0, number = 0
                for end in 0...bytes.count where end == bytes.count || bytes[end] == 10 {
                    number += 1
                    let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    if line.contains(where: { !isBlank($0) }) { lines.append((number, String(decoding: line, as: UTF8.self))) }
                    start = end + 1
                }
            }
        }
        let parser = SceneBatchParser(defaults: try sceneFilters(QueryParameters(request: request)), zoom: try Self.clickZoom(QueryParameters(request: request)))
        var requests: [(SceneRequest, String?)] = []
        for line in lines {
            do {
                if let parsed = try parser.parse(line.text, number: line.number) { requests.append(parsed) }
            } catch {
                throw .invalidParameter(parameter: "body", message: error.description)
            }
            if requests.count > maximumBatchCount {
                throw .batchTooLarge(count: lines.count, limit: maximumBatchCount)
            }
        }
        var writer = JSONWriter(capacity: 600 * requests.count + 2)
        var body: [UInt8] = []
        if isArray { writer.beginArray() }
        for (sceneRequest, id) in requests {
            let revision = catalog.revision
            let answer: SceneAnswer
            do { answer = try catalog.scene(for: sceneRequest, requestID: id, detailCache: cached.details) } catch {
                throw QueryParameters.translate(error)
            }
            if isArray {
                writer.write(answer, fragments: cached.fragments, revision: revision)
            } else {
                var line = JSONWriter(capacity: 1536)
                line.write(answer, fragments: cached.fragments, revision: revision)
                body += line.bytes
                body.append(0x0A)
            }
        }
        if isArray {
            writer.endArray()
            return .json(writer.bytes)
        }
        return HTTPResponse(contentType: "application/x-ndjson", body: body)
    }

    /// `GET /v1/search?q=`: places by name (`near`, `category`, `language`, `limit`).
    func search(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let query = QueryParameters(request: request)
        guard let text = query.string("q"), !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidParameter(parameter: "q", message: "q is missing or empty; give a name such as q=Stockmann")
        }
        let search = PlaceSearchQuery(text: text, near: try query.coordinate("near"), category: query.string("category"),
                                      language: query.string("language"), limit: try query.int("limit", in: 1...1000) ?? 10)
        do { return .json(JSONWriter.encode(try catalog.searchPlaces(search))) } catch { throw QueryParameters.translate(error) }
    }

    /// `GET /v1/coverage/clusters/{z}/{x}/{y}`: the coverage tiles' clusters (``CoverageMaps``).
    func coverageClusters(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        guard let tile = try CoverageMaps.clusterTile(request.path) else { throw .notFound(path: request.path) }
        return HTTPResponse(contentType: "application/geo+json", body: try CoverageMaps.clustersGeoJSON(tile: tile, catalog: catalog))
    }

    /// `GET /v1/coverage/{z}/{x}/{y}`: the panoramas in a slippy tile as a GeoJSON FeatureCollection.
    func coverage(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let text = String(request.path.dropFirst("/v1/coverage/".count))
        let parts = text.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
            throw .invalidParameter(parameter: "tile", message: "'\(text)' is not Z/X/Y; write whole numbers such as /v1/coverage/15/18655/9484")
        }
        let tile: SlippyTile
        do { tile = try SlippyTile(x: x, y: y, zoom: z) } catch {
            throw .invalidParameter(parameter: "tile", message: "tile \(text): \(error)")
        }
        let entries: [CoverageEntry]
        do { entries = try catalog.coverage(tile: tile) } catch { throw QueryParameters.translate(error) }
        let body = JSONWriter.pointFeatures(entries, tile: tile.description, capacity: 200 * entries.count + 100,
                                            position: { ($0.longitude, $0.latitude) }) { writer, entry in
            writer.field("capture_time", entry.captureTime)
            writer.field("heading_degrees", entry.headingDegrees)
            writer.field("panorama_id", entry.panoramaID)
            writer.field("source", entry.source.rawValue)
        }
        return HTTPResponse(contentType: "application/geo+json", body: body)
    }

    /// `GET /v1/panoramas/{id}`: the catalog record, links and the pyramid's tile levels.
    func panorama(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let id = String(request.path.dropFirst("/v1/panoramas/".count))
        let record: PanoramaRecord, links: [PanoramaLink]
        do {
            record = try catalog.panorama(id: id)
            links = try catalog.links(ofPanoramaID: id)
        } catch { throw QueryParameters.translate(error) }
        struct Level: Encodable { var level: Int; var width: Int; var height: Int; var columns: Int; var rows: Int }
        struct Tiles: Encodable { var tileSize: Int; var levels: [Level]; var url: String; var fileUrl: String? }
        struct Described: Encodable {
            var panorama: PanoramaRecord; var captureTime: String; var links: [PanoramaLink]; var tiles: Tiles
            // With --public-imagery-url, where a client fetches the files of imagery in object storage itself.
            var imageUrl: String?; var depthUrl: String?; var labelsUrl: String?
        }
        let tileSize = PanoramaTileFile.defaultTileSize
        let levels = TilePath.levels(fullWidth: record.fullWidth, fullHeight: record.fullHeight, tileSize: tileSize)
        let escaped = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? id
        let tiles = Tiles(tileSize: tileSize,
                          levels: levels.enumerated().map { Level(level: $0.offset, width: $0.element.width, height: $0.element.height,
                                                                  columns: $0.element.columns, rows: $0.element.rows) },
                          url: "/v1/panoramas/\(escaped)/tiles/{level}/{x}/{y}.jpg",
                          fileUrl: publicImagery?.url(for: tileStore.path(panoramaID: id)))
        return .json(JSONWriter.encode(Described(panorama: record, captureTime: Catalog.iso8601String(record.captureTime),
                                                 links: links, tiles: tiles, imageUrl: publicImagery?.url(for: record.imagePath),
                                                 depthUrl: publicImagery?.url(for: record.depthPath),
                                                 labelsUrl: publicImagery?.url(for: record.labelsPath))))
    }
}
