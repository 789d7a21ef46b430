import ArgumentParsing
import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import MapSnapshot
import Orthophoto
import Reprojection
import Storage
import Synchronization

/// The scene-request service: availability, panorama metadata, rendered views, maps and pyramid
/// tiles over HTTP — native JSON under `/v1/`, and Google Street View's Static API routes so clients
/// written for Google work unchanged against it. ``start()`` listens; the ``HTTPServer`` it returns
/// stops it.
///
/// Cheap routes (scene requests, metadata, search, coverage) are answered on the network threads;
/// images go to the render workers, with a bounded queue (503 at once when it is full), a cache of
/// answers with ETags (304 for `If-None-Match`) and a cache of decoded panorama tiles.
public final class SceneService: HTTPHandler {
    /// The configuration it was made with.
    public let configuration: ServiceConfiguration
    /// The open catalog.
    public let catalog: Catalog
    /// Request counts, latencies, caches.
    public let metrics = ServiceMetrics()
    let details = SceneDetailCache()
    let fragments: SceneFragments
    let keys: APIKeys
    let responses: ResponseCache
    let panoramas: PanoramaCache
    let tileStore: PanoramaTileStore
    let accessLog: AccessLog?
    let maps = MapResources()
    let viewers = ViewerSessions()
    let labelSources = LabelSourceCache()
    let walkPlanners = Mutex(WalkPlanners())
    private let serverBox = Mutex<WeakServer>(WeakServer())

    /// Opens the catalog and prepares the caches.
    /// - Throws: `CatalogError` when the catalog is missing or damaged, `ServiceError.badConfiguration`
    ///   when the access log cannot be opened.
    public init(configuration: ServiceConfiguration) throws {
        self.configuration = configuration
        catalog = try Catalog(location: CatalogLocation(parsing: configuration.catalogPath),
                              connections: configuration.catalogConnections)
        keys = APIKeys(configuration.apiKeys)
        fragments = SceneFragments(publicImagery: configuration.publicImagery)
        let cacheBytes = max(16, configuration.cacheMegabytes) << 20
        responses = ResponseCache(capacityBytes: cacheBytes / 4)
        panoramas = PanoramaCache(capacityBytes: cacheBytes - cacheBytes / 4)
        tileStore = PanoramaTileStore(directory: catalog.location.tileDirectory)
        // The object stores /v1/health checks: the tile folder's, and the bucket of the imagery (the
        // first record's; others are added as requests use them).
        for location in [catalog.location.tileDirectory, (try? catalog.firstPanorama())??.imagePath].compactMap({ $0 }) {
            if case .s3(let bucket, _)? = try? StorageLocation(parsing: location) { ObjectStorage.shared.noteBucket(bucket) }
        }
        accessLog = try configuration.accessLogPath.map { path throws(ServiceError) in try AccessLog(path: path) }
    }

    /// Starts listening (``ServiceConfiguration/http``).
    /// - Throws: `ServiceError.cannotListen`.
    public func start() throws(ServiceError) -> HTTPServer {
        let server = try HTTPServer(configuration: configuration.http, handler: self)
        serverBox.withLock { $0.server = server }
        startPollingRevisions()
        return server
    }

    /// Flushes the access log (call after the server stopped) and stops polling the catalog.
    public func close() {
        polling.withLock { $0 = false }
        accessLog?.close()
    }

    private let polling = Mutex(false)

    /// A PostGIS catalog is shared: another machine's index run may replace it at any time. A thread
    /// asks for its revision every ``ServiceConfiguration/catalogPollSeconds``; a new one drops every
    /// cached answer (scene details, JSON fragments, rendered responses). A failed poll changes
    /// nothing (requests meanwhile get 503 from their own queries).
    private func startPollingRevisions() {
        guard catalog.location.isPostgres, configuration.catalogPollSeconds > 0 else { return }
        polling.withLock { $0 = true }
        let interval = configuration.catalogPollSeconds
        Thread.detachNewThread { [weak self] in
            while true {
                Thread.sleep(forTimeInterval: interval)
                guard let self, self.polling.withLock({ $0 }) else { return }
                self.pollRevision()
            }
        }
    }

    /// One poll: true when the revision changed and the caches were dropped.
    @discardableResult
    func pollRevision() -> Bool {
        guard (try? catalog.checkForNewRevision()) == true else { return false }
        dropCachedAnswers()
        return true
    }

    /// Forgets every answer made from the catalog.
    func dropCachedAnswers() {
        details.removeAll()
        fragments.removeAll()
        responses.removeAll()
        labelSources.removeAll()
    }

    // MARK: HTTPHandler

    public func admit(_ head: HTTPRequest) -> HTTPAdmission {
        switch preflight(head) {
        case .failure(let refusal): return .refuse(route: refusal.route, refusal.response)
        case .success(let route): return .accept(maximumBodyBytes: route == .scenes ? configuration.http.maximumBodyBytes : 0)
        }
    }

    public func handle(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition) {
        let (route, disposition) = dispatch(request)
        // Every answer may be read by a page of another origin (the `lookaround.js` embed): the API key,
        // not the origin, is what admits a client, and no answer depends on cookies.
        switch disposition {
        case .respond(let response): return (route, .respond(Self.sharedAcrossOrigins(response)))
        case .render(let work): return (route, .render { Self.sharedAcrossOrigins(work()) })
        case .respondAndPrepare(let response, let work): return (route, .respondAndPrepare(Self.sharedAcrossOrigins(response), prepare: work))
        }
    }

    static func sharedAcrossOrigins(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        response.headers.append(("Access-Control-Allow-Origin", "*"))
        response.headers.append(("Access-Control-Expose-Headers", "X-Frame-Lengths, X-Move, X-Panorama-Id, X-Heading-Degrees, X-Superseded"))
        return response
    }

    private func dispatch(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition) {
        let route: Route
        switch preflight(request) {
        case .failure(let refusal): return (refusal.route, .respond(refusal.response))
        case .success(let admitted): route = admitted
        }
        if let allowed = route.parameters {
            do { try QueryParameters(request: request).refuseUnknown(allowed) } catch {
                return (route.label, .respond(self.error(error, streetView: false)))
            }
        }
        switch route {
        case .health: return (route.label, .respond(health()))
        case .metrics: return (route.label, .respond(metricsText()))
        case .openAPI: return (route.label, .respond(.json(OpenAPIDocument.bytes)))
        case .scene: return (route.label, .respond(answer { () throws(ServiceError) in try scene(request) }))
        case .scenes:
            // Parsing a body of up to --max-body-bytes and answering each line is work for a render
            // worker, not for a network thread that other clients' scene requests wait for.
            return (route.label, .render { [self] in answer { () throws(ServiceError) in try batch(request) } })
        case .search: return (route.label, .respond(answer { () throws(ServiceError) in try search(request) }))
        case .coverage: return (route.label, .respond(answer { () throws(ServiceError) in try coverage(request) }))
        case .panorama: return (route.label, .respond(answer { () throws(ServiceError) in try panorama(request) }))
        case .streetViewMetadata: return (route.label, .respond(streetViewMetadata(request)))
        case .nominatimSearch: return (route.label, .respond(answer { () throws(ServiceError) in try nominatimSearch(request) }))
        case .nominatimReverse: return (route.label, .respond(answer { () throws(ServiceError) in try nominatimReverse(request) }))
        case .tileJSON: return (route.label, .respond(answer { () throws(ServiceError) in try tileJSON(request) }))
        case .page: return (route.label, page(request))
        case .asset: return (route.label, .respond(answer { () throws(ServiceError) in try webFile(request) }))
        case .walk: return (route.label, .render { [self] in answer { () throws(ServiceError) in try walk(request) } })
        // Routing can take tens of milliseconds (and the first request builds the graph): a render worker's job.
        case .directions: return (route.label, .render { [self] in answer { () throws(ServiceError) in try directions(request) } })
        case .osrmRoute: return (route.label, .render { [self] in osrmRoute(request) })
        case .tile, .snapshot, .map, .mapTile, .move, .streetViewImage: return (route.label, rendered(route, request))
        }
    }

    /// A request refused before its route runs, with the route label for metrics.
    struct Refusal: Error {
        var route: String
        var response: HTTPResponse
    }

    /// What every request goes through before its route, from its head alone (so a refused request's
    /// body is never read): the method, the route, the method the route takes, the API key.
    func preflight(_ request: HTTPRequest) -> Result<Route, Refusal> {
        let path = request.path
        let streetView = path.hasPrefix("/maps/api/streetview")
        guard request.method == "GET" || request.method == "HEAD" || request.method == "POST" else {
            var response = error(.methodNotAllowed(method: request.method, allowed: ["GET", "HEAD", "POST"]),
                                 streetView: streetView)
            response.headers.append(("Allow", "GET, HEAD, POST"))
            return .failure(Refusal(route: "method_not_allowed", response: response))
        }
        guard let route = Self.route(for: path) else {
            return .failure(Refusal(route: "not_found", response: error(.notFound(path: path), streetView: streetView)))
        }
        let wantedMethod = route == .scenes ? "POST" : "GET"
        if request.method != wantedMethod && !(wantedMethod == "GET" && request.method == "HEAD") {
            let allowed = wantedMethod == "GET" ? ["GET", "HEAD"] : ["POST"]
            var response = error(.methodNotAllowed(method: request.method, allowed: allowed), streetView: streetView)
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return .failure(Refusal(route: route.label, response: response))
        }
        // One key source rule: the key is given once, as `key=` or as the `X-API-Key` header. A request
        // that gives more than one (two `key=`, or both) is refused rather than one of them picked.
        if route.needsKey && keys.isEnabled {
            let given = request.query.filter { $0.name == "key" }.map(\.value) + (request.headers["x-api-key"].map { [$0] } ?? [])
            if given.count > 1 {
                let ambiguous = ServiceError.invalidParameter(parameter: "key", message: "the API key is given \(given.count) times; "
                                                              + "give it once, as key=… or as the X-API-Key header")
                if route == .streetViewMetadata {
                    return .failure(Refusal(route: route.label, response: streetViewStatus("INVALID_REQUEST", message: ambiguous.description)))
                }
                return .failure(Refusal(route: route.label, response: error(ambiguous, streetView: streetView)))
            }
            if !keys.accepts(given.first) {
                if route == .streetViewMetadata {
                    return .failure(Refusal(route: route.label,
                                            response: streetViewStatus("REQUEST_DENIED", message: ServiceError.forbidden.description)))
                }
                return .failure(Refusal(route: route.label, response: error(.forbidden, streetView: streetView)))
            }
        }
        return .success(route)
    }

    public func protocolError(_ failure: ServiceError, path: String?) -> HTTPResponse {
        error(failure, streetView: path?.hasPrefix("/maps/api/streetview") ?? false)
    }

    public func overloaded(route: String, retryAfterSeconds: Int) -> HTTPResponse {
        var response = error(.overloaded(retryAfterSeconds: retryAfterSeconds), streetView: route.hasPrefix("streetview"))
        response.headers.append(("Retry-After", "\(retryAfterSeconds)"))
        return response
    }

    public func finished(_ outcome: HTTPOutcome) {
        metrics.record(route: outcome.route, status: outcome.status, bytes: outcome.bytes, microseconds: outcome.microseconds)
        accessLog?.write(outcome)
    }

    // MARK: Routes

    /// Every route the service answers (`OpenAPIDocument` describes each; a test checks that the paths
    /// it documents are the ones served).
    enum Route: CaseIterable {
        case health, metrics, openAPI, scene, scenes, search, coverage, panorama, tile, snapshot, map
        case mapTile, tileJSON
        case page, asset, move, walk
        case streetViewMetadata, streetViewImage
        case nominatimSearch, nominatimReverse
        case directions, osrmRoute

        /// The label in metrics and the access log.
        var label: String {
            switch self {
            case .health: "health"
            case .metrics: "metrics"
            case .openAPI: "openapi"
            case .scene: "scene"
            case .scenes: "scenes"
            case .search: "search"
            case .coverage: "coverage"
            case .panorama: "panorama"
            case .tile: "tile"
            case .snapshot: "snapshot"
            case .map: "map"
            case .mapTile: "map_tile"
            case .tileJSON: "tilejson"
            case .page: "page"
            case .asset: "asset"
            case .move: "move"
            case .walk: "walk"
            case .streetViewMetadata: "streetview_metadata"
            case .streetViewImage: "streetview_image"
            case .nominatimSearch: "nominatim_search"
            case .nominatimReverse: "nominatim_reverse"
            case .directions: "directions"
            case .osrmRoute: "osrm_route"
            }
        }

        /// The query parameters a native route takes (besides `key`), nil where the route's option
        /// spec checks them (snapshot, map) or Google's routes take Google's.
        var parameters: [String]? {
            switch self {
            case .scene: ["lat", "lon", "near", "radius_meters", "preference", "source", "after", "before", "language", "id"]
            case .scenes: ["radius_meters", "preference", "source", "after", "before"]
            case .search: ["q", "near", "category", "language", "limit"]
            case .health, .metrics, .openAPI, .coverage, .panorama, .tile, .mapTile, .tileJSON: []
            case .move: SceneService.moveParameters + ["viewer", "seq"]
            case .walk: ["from", "to", "language"]
            case .nominatimSearch: SceneService.nominatimSearchParameters
            case .nominatimReverse: SceneService.nominatimReverseParameters
            case .directions: SceneService.directionsParameters
            case .osrmRoute: nil
            // The page takes a camera (`?pano=&heading=&pitch=&fov=`) for its script; its files, cache busters.
            case .snapshot, .map, .streetViewMetadata, .streetViewImage, .page, .asset: nil
            }
        }

        /// Whether an API key is needed (when the server has keys): every route but health, metrics,
        /// the API description and the web page's own files (the page asks for the key).
        var needsKey: Bool { ![.health, .metrics, .openAPI, .page, .asset].contains(self) }
    }

    static func route(for path: String) -> Route? {
        switch path {
        case "/v1/health": return .health
        case "/metrics": return .metrics
        case "/v1/openapi.json": return .openAPI
        case "/v1/scene": return .scene
        case "/v1/scenes": return .scenes
        case "/v1/search": return .search
        case "/v1/snapshot": return .snapshot
        case "/v1/map": return .map
        case "/maps/api/streetview/metadata": return .streetViewMetadata
        case "/maps/api/streetview": return .streetViewImage
        case "/search", "/search.php": return .nominatimSearch
        case "/reverse", "/reverse.php": return .nominatimReverse
        case "/v1/move": return .move
        case "/v1/walk": return .walk
        case "/lookaround.js", "/first-view.js", "/first-view.css", "/app.js", "/app.css", "/lookaround.css", "/favicon.svg": return .asset
        default: break
        }
        if path == "/v1/directions" { return .directions }
        if path.hasPrefix("/route/v1/") { return .osrmRoute }
        if isPagePath(path) { return .page }
        if path.hasPrefix("/leaflet/") && !path.contains("..") { return .asset }
        if path.hasPrefix("/v1/coverage/") { return .coverage }
        if path.hasPrefix("/v1/tiles/") { return path.hasSuffix(".json") ? .tileJSON : .mapTile }
        if path.hasPrefix("/v1/panoramas/") && path.count > "/v1/panoramas/".count {
            return TilePath(path) != nil ? .tile : .panorama
        }
        return nil
    }

    /// Runs a route's work, turning its error into the native error answer.
    func answer(_ work: () throws(ServiceError) -> HTTPResponse) -> HTTPResponse {
        do { return try work() } catch { return self.error(error, streetView: false) }
    }

    /// The error answer: native JSON, or Google's shape on the Street View routes.
    func error(_ error: ServiceError, streetView: Bool) -> HTTPResponse {
        var response = errorBody(error, streetView: streetView)
        switch error {
        case .catalogUnavailable, .storageUnavailable: response.headers.append(("Retry-After", "2"))
        default: break
        }
        return response
    }

    /// A failure inside (unreadable imagery, the catalog, a bug) answers what failed in general terms
    /// and an incident id; the details (file paths, library messages, database addresses) go to the
    /// operator's log (stderr) under that id, never to the client.
    private func errorBody(_ error: ServiceError, streetView: Bool) -> HTTPResponse {
        var message = error.description
        var incident: String?
        if error.publicDescription != nil { (message, incident) = logIncident(error) }
        if streetView {
            return HTTPResponse(status: error.httpStatus, contentType: "text/plain; charset=utf-8",
                                body: Array((message + "\n").utf8))
        }
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("error")
        writer.beginObject()
        writer.field("code", error.code)
        if let incident { writer.field("incident", incident) }
        writer.field("message", message)
        writer.key("parameter")
        if let parameter = error.parameter { writer.value(parameter) } else { writer.null() }
        writer.endObject()
        writer.endObject()
        return .json(writer.bytes, status: error.httpStatus)
    }

    /// The client's message of a failure inside (``ServiceError/publicDescription`` and an incident id),
    /// the details written to stderr under the id.
    func logIncident(_ error: ServiceError) -> (message: String, incident: String) {
        let id = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let incident = String(repeating: "0", count: 8 - id.count) + id
        let line = "lookaround serve: incident \(incident): \(error.code): \(error.description)\n"
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
        return ((error.publicDescription ?? "internal error") + "; incident \(incident) (the server's log has the details)", incident)
    }

    /// ``logIncident(_:)``'s message alone.
    func publicMessage(_ error: ServiceError) -> String { logIncident(error).message }

    /// `{"catalog", "panoramas", "revision", "status", "storage"}`; for a PostGIS catalog it asks the
    /// database, and answers 503 with `"status": "catalog_unavailable"` when that fails (what a load
    /// balancer checks). `storage` lists the object store buckets the imagery is in, each asked now
    /// (`HEAD`, 2 s at most): `"status": "unavailable"` and the reason for one that does not answer,
    /// and the whole answer is 503 with `"status": "storage_unavailable"`.
    func health() -> HTTPResponse {
        var status = "ok", code = 200
        if catalog.location.isPostgres {
            do {
                if try catalog.checkForNewRevision() { dropCachedAnswers() }
            } catch {
                status = "catalog_unavailable"
                code = 503
            }
        }
        let storage = ObjectStorage.shared
        let stores = storage.bucketsInUse.map { bucket in (bucket: bucket, problem: storage.problem(withBucket: bucket)) }
        if code == 200, stores.contains(where: { $0.problem != nil }) {
            status = "storage_unavailable"
            code = 503
        }
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        // The kind of store only: no file path or database URL for whoever asks (health needs no key).
        writer.field("catalog", catalog.location.isPostgres ? "postgis" : "sqlite")
        writer.field("panoramas", catalog.panoramaCount)
        writer.field("revision", Int(catalog.revision))
        writer.field("status", status)
        if !stores.isEmpty {
            writer.key("storage")
            writer.beginArray()
            for store in stores {
                writer.beginObject()
                writer.field("kind", "s3")
                writer.field("reason", store.problem?.publicReason)
                writer.field("status", store.problem == nil ? "ok" : "unavailable")
                writer.field("store", "s3://\(store.bucket)")
                writer.endObject()
            }
            writer.endArray()
        }
        writer.endObject()
        var response = HTTPResponse.json(writer.bytes, status: code)
        response.headers.append(("Cache-Control", "no-store"))
        return response
    }

    func metricsText() -> HTTPResponse {
        let server = serverBox.withLock { $0.server }
        let gauges: [(name: String, help: String, value: Int)] = [
            ("lookaround_http_in_flight", "Requests being answered now.", server?.requestsInFlight ?? 0),
            ("lookaround_http_connections", "Open connections.", server?.connectionCount ?? 0),
            ("lookaround_render_queue", "Render jobs queued or running.", server?.rendersQueued ?? 0),
            ("lookaround_response_cache_bytes", "Bytes of cached answers.", responses.byteCount),
            ("lookaround_catalog_panoramas", "Panoramas in the catalog.", catalog.panoramaCount),
            ("lookaround_catalog_revision", "The catalog revision answers come from (PostGIS catalogs change it per index run).",
             Int(catalog.revision)),
        ]
        let text = metrics.prometheusText(gauges: gauges, sceneDetailCache: details.statistics)
        return HTTPResponse(contentType: "text/plain; version=0.0.4; charset=utf-8",
                            headers: [("Cache-Control", "no-store")], body: Array(text.utf8))
    }
}

/// The server, held weakly by its handler (the server holds the handler).
struct WeakServer {
    weak var server: HTTPServer?
}

/// `/v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg` taken apart (ids may contain `/`).
struct TilePath {
    var panoramaID: String
    var level: Int, x: Int, y: Int

    init?(_ path: String) {
        let prefix = "/v1/panoramas/"
        guard path.hasPrefix(prefix), path.hasSuffix(".jpg") else { return nil }
        let rest = path.dropFirst(prefix.count).dropLast(4)
        let parts = rest.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count >= 5, parts[parts.count - 4] == "tiles",
              let level = Int(parts[parts.count - 3]), let x = Int(parts[parts.count - 2]), let y = Int(parts[parts.count - 1])
        else { return nil }
        panoramaID = parts[0..<(parts.count - 4)].joined(separator: "/")
        guard !panoramaID.isEmpty else { return nil }
        self.level = level
        self.x = x
        self.y = y
    }
}

/// The OSM data and the map renderer `/v1/map` draws with, loaded on first use.
// @unchecked Sendable: the loaded data and the failure are read and written under `lock` only.
final class MapResources: @unchecked Sendable {
    private var loaded: (snapshotter: MapSnapshotter, dataset: MapDataset)?
    private var orthophoto: SimulatedOrthophoto?
    private var failure: String?
    /// Guards the three above; held while loading, so concurrent first requests load once.
    private let lock = NSLock()

    /// The renderer, its data and (when `imagery`) the simulated orthophoto.
    func resources(osmPath: String?, imagery: Bool) throws(ServiceError)
        -> (snapshotter: MapSnapshotter, dataset: MapDataset, orthophoto: SimulatedOrthophoto?) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw .internalError(detail: failure) }
        if loaded == nil {
            guard let osmPath else {
                throw .internalError(detail: "no OSM extract to draw maps from; start the server with --osm FILE")
            }
            do {
                let dataset = try MapDataset(contentsOfFile: osmPath)
                loaded = (try MapSnapshotter(dataset: dataset), dataset)
            } catch {
                let reason = "cannot load the OSM extract \(osmPath): \(error)"
                failure = reason
                throw .internalError(detail: reason)
            }
        }
        guard let (snapshotter, dataset) = loaded else { throw .internalError(detail: "the map renderer did not load") }
        if imagery, orthophoto == nil {
            do { orthophoto = try SimulatedOrthophoto(dataset: dataset) } catch {
                throw .internalError(detail: "cannot build the simulated imagery: \(error)")
            }
        }
        return (snapshotter, dataset, orthophoto)
    }
}
