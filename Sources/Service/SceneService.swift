import Catalog
import Foundation
import Reprojection
import Storage

/// The scene-request service: availability, panorama metadata, rendered views, maps, tiles, geocoding,
/// directions and the web viewer over HTTP — native JSON under `/v1/`, and Google Street View's,
/// Nominatim's and OSRM's routes so clients written for them work unchanged. ``start()`` listens; the
/// ``HTTPServer`` it returns stops it.
///
/// This type is the composition: it makes the shared pieces (the catalog and the answers cached from
/// it, the render pipeline, the one error table, the API keys), hands each API family the ones it needs,
/// and puts the families' routes in one ``RouteTable``. The HTTP engine calls it per request; it finds
/// the route, checks what every route checks (method, key, query parameters) and runs the route's work.
/// Cheap routes are answered on the network threads; pictures go to the render workers (503 at once
/// when their queue is full), cached with ETags.
public final class SceneService: HTTPHandler {
    /// The configuration it was made with.
    public let configuration: ServiceConfiguration
    /// The open catalog.
    public let catalog: Catalog
    /// Request counts, latencies, caches.
    public let metrics = ServiceMetrics()
    let routes: RouteTable
    private let keys: APIKeys
    private let uploadKeys: APIKeys
    private let errors = ErrorAnswers()
    private let pipeline: RenderPipeline
    private let watch: CatalogWatch
    private let accessLog: AccessLog?
    private let server = ServerReference()

    /// Opens the catalog and prepares the caches and the routes.
    /// - Throws: `CatalogError` when the catalog is missing or damaged, `ServiceError.badConfiguration`
    ///   when the access log cannot be opened.
    public init(configuration: ServiceConfiguration) throws {
        self.configuration = configuration
        catalog = try Catalog(location: CatalogLocation(parsing: configuration.catalogPath), connections: configuration.catalogConnections)
        keys = APIKeys(configuration.apiKeys)
        uploadKeys = APIKeys(configuration.uploads?.keys ?? [])
        accessLog = try configuration.accessLogPath.map { path throws(ServiceError) in try AccessLog(path: path) }
        // A quarter of the cache for answers, the rest for decoded panorama tiles.
        let cacheBytes = max(16, configuration.cacheMegabytes) << 20
        let cached = CachedAnswers(responseBytes: cacheBytes / 4, publicImagery: configuration.publicImagery)
        // A first view decodes its region of the JPEG; the tile file the next views read is made in the background.
        let panoramas = PanoramaCache(capacityBytes: cacheBytes - cacheBytes / 4, tileMaker: PanoramaTileMaker())
        let osmPath = configuration.resolvedOSMPath
        let maps = MapResources(osmPath: osmPath)
        let limit = ImageLimit(maximumPixels: configuration.maximumImagePixels)
        let places = PlaceLookup(catalog: catalog)
        let graph = RoutingGraphSource(catalog: catalog, osmPath: configuration.osmPath, resolvedOSMPath: osmPath)
        let tileStore = PanoramaTileStore(directory: catalog.location.tileDirectory)
        let images = ImageRoutes(catalog: catalog, cached: cached, panoramas: panoramas, tileStore: tileStore, maps: maps, limit: limit)
        // The object stores /v1/health checks: the tile folder's, and the bucket of the imagery (the
        // first record's; others are added as requests use them).
        for location in [catalog.location.tileDirectory, (try? catalog.firstPanorama())??.imagePath].compactMap({ $0 }) {
            if case .s3(let bucket, _)? = try? StorageLocation(parsing: location) { ObjectStorage.shared.noteBucket(bucket) }
        }
        pipeline = RenderPipeline(catalog: catalog, responses: cached.responses, metrics: metrics, errors: errors)
        let watch = CatalogWatch(catalog: catalog, cached: cached, pollSeconds: configuration.catalogPollSeconds)
        self.watch = watch
        // Uploads ingest into the catalog in the background; the catalog is reopened as soon as they are in.
        let uploadsRoot = catalog.location.uploadsDirectory
        let uploads = try configuration.uploads.map { settings throws(ServiceError) in
            try UploadSetStore(root: uploadsRoot, catalogPath: configuration.catalogPath, settings: settings,
                               onIngested: { _ = try? watch.check() })
        }
        routes = RouteTable([
            SystemRoutes(catalog: catalog, watch: watch, cached: cached, metrics: metrics, server: server),
            SceneRoutes(catalog: catalog, cached: cached, maximumBatchCount: configuration.maximumBatchCount,
                        publicImagery: configuration.publicImagery, tileStore: tileStore),
            images,
            StreetViewRoutes(catalog: catalog, cached: cached, panoramas: panoramas, limit: limit, errors: errors),
            NominatimRoutes(catalog: catalog),
            DirectionsRoutes(catalog: catalog, graph: graph, places: places),
            OSRMRoutes(graph: graph),
            MapTileRoutes(catalog: catalog, maps: maps),
            ViewerRoutes(catalog: catalog, places: places, limit: limit),
            WebPageRoutes(keys: keys, images: images, pipeline: pipeline, limit: limit),
            STACRoutes(catalog: catalog, uploadedNames: uploads),
            PictureRoutes(catalog: catalog),
            CoverageVectorTileRoutes(catalog: catalog, maps: maps),
            UploadRoutes(catalog: catalog, settings: configuration.uploads, store: uploads),
        ])
    }

    /// Starts listening (``ServiceConfiguration/http``).
    /// - Throws: `ServiceError.cannotListen`.
    public func start() throws(ServiceError) -> HTTPServer {
        let server = try HTTPServer(configuration: configuration.http, handler: self)
        self.server.server = server
        watch.start()
        return server
    }

    /// Flushes the access log (call after the server stopped) and stops polling the catalog.
    public func close() {
        watch.stop()
        accessLog?.close()
    }

    // MARK: HTTPHandler

    public func admit(_ head: HTTPRequest) -> HTTPAdmission {
        switch preflight(head) {
        case .failure(let refusal): return .refuse(route: refusal.route, Self.sharedAcrossOrigins(refusal.response))
        case .success(let route):
            return .accept(maximumBodyBytes: route.maximumBodyBytes ?? (route.method == .post ? configuration.http.maximumBodyBytes : 0),
                           decision: route)
        }
    }

    public func handle(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition) {
        handle(request, admitted: nil)
    }

    /// `decision`: the route ``admit(_:)`` found for the request's head (the head has not changed since:
    /// only its body was read), so the checks before the route are not made twice.
    public func handle(_ request: HTTPRequest, admitted decision: (any Sendable)?) -> (route: String, disposition: HTTPDisposition) {
        let route: Route
        if let admitted = decision as? Route {
            route = admitted
        } else {
            switch preflight(request) {
            case .failure(let refusal): return (refusal.route, .respond(Self.sharedAcrossOrigins(refusal.response)))
            case .success(let found): route = found
            }
        }
        let disposition: HTTPDisposition
        do {
            if let allowed = route.parameters { try QueryParameters(request: request).refuseUnknown(allowed) }
            switch route.work {
            case .answer(let answer): disposition = .respond(try answer(request))
            case .worker(let work):
                disposition = .render { [errors] in
                    do { return try work(request) } catch { return errors.response(QueryParameters.translate(error), shape: route.errors) }
                }
            case .rendered(let job): disposition = pipeline.disposition(request, shape: route.errors, job)
            case .disposition(let decide): disposition = try decide(request)
            }
        } catch {
            disposition = .respond(errors.response(QueryParameters.translate(error), shape: route.errors))
        }
        // Every answer may be read by a page of another origin (the `lookaround.js` embed): the API key,
        // not the origin, is what admits a client, and no answer depends on cookies.
        switch disposition {
        case .respond(let response): return (route.label, .respond(Self.sharedAcrossOrigins(response)))
        case .render(let work): return (route.label, .render { Self.sharedAcrossOrigins(work()) })
        case .respondAndPrepare(let response, let work): return (route.label, .respondAndPrepare(Self.sharedAcrossOrigins(response), prepare: work))
        }
    }

    public func protocolError(_ failure: ServiceError, path: String?) -> HTTPResponse {
        errors.response(failure, shape: .beforeRoute(path: path))
    }

    public func overloaded(route label: String, retryAfterSeconds: Int) -> HTTPResponse {
        let path = routes.route(labelled: label)?.pattern.prefix
        var response = errors.response(.overloaded(retryAfterSeconds: retryAfterSeconds), shape: .beforeRoute(path: path))
        response.headers.append(("Retry-After", "\(retryAfterSeconds)"))
        return response
    }

    public func finished(_ outcome: HTTPOutcome) {
        metrics.record(route: outcome.route, status: outcome.status, bytes: outcome.bytes, microseconds: outcome.microseconds)
        accessLog?.write(outcome)
    }

    // MARK: What every route goes through

    /// A request refused before its route runs, with the route label for metrics.
    struct Refusal: Error {
        var route: String
        var response: HTTPResponse
    }

    /// What every request goes through before its route, from its head alone (so a refused request's
    /// body is never read): the method, the route, the method the route takes, the API key.
    func preflight(_ request: HTTPRequest) -> Result<Route, Refusal> {
        // (Runs twice per request, at admission and before the work: nothing is made here on the way to a route.)
        var shape: ErrorShape { .beforeRoute(path: request.path) }
        let method = request.method
        // A CORS preflight is answered for every route, before the key (browsers send none with it).
        if method == "OPTIONS", routes.match(method: "GET", path: request.path).exists {
            return .failure(Refusal(route: "preflight", response: Self.preflightAnswer))
        }
        guard method == "GET" || method == "HEAD" || method == "POST" || method == "DELETE" else {
            let allowed = ["GET", "HEAD", "POST", "DELETE", "OPTIONS"]
            return .failure(Refusal(route: "method_not_allowed", response: refusal(.methodNotAllowed(method: request.method, allowed: allowed),
                                                                                   shape: shape)))
        }
        let route: Route
        switch routes.match(method: request.method, path: request.path) {
        case .none: return .failure(Refusal(route: "not_found", response: errors.response(.notFound(path: request.path), shape: shape)))
        case .wrongMethod(let other, let allowed):
            return .failure(Refusal(route: other.label, response: refusal(.methodNotAllowed(method: request.method, allowed: allowed), shape: shape)))
        case .route(let found): route = found
        }
        // One key source rule: the key is given once, as `key=` or as the `X-API-Key` header. A request
        // that gives more than one (two `key=`, or both) is refused rather than one of them picked.
        if route.access == .key && keys.isEnabled {
            let given = request.query.filter { $0.name == "key" }.map(\.value) + (request.headers["x-api-key"].map { [$0] } ?? [])
            if given.count > 1 {
                let ambiguous = ServiceError.invalidParameter(parameter: "key", message: "the API key is given \(given.count) times; "
                                                              + "give it once, as key=… or as the X-API-Key header")
                return .failure(Refusal(route: route.label, response: errors.response(ambiguous, shape: route.errors)))
            }
            if !keys.accepts(given.first) {
                return .failure(Refusal(route: route.label, response: errors.response(.forbidden, shape: route.errors)))
            }
        }
        // Uploads: a token from --upload-key-file as `Authorization: Bearer TOKEN` (the read key is not asked).
        if route.access == .upload {
            guard uploadKeys.isEnabled else {
                let off = ServiceError.uploadRefused(status: 403, code: "uploads_disabled", message: "this server takes no uploads: "
                                                     + "start lookaround serve with --upload-key-file FILE (one token a line)", parameter: nil)
                return .failure(Refusal(route: route.label, response: errors.response(off, shape: route.errors)))
            }
            let token = UploadRoutes.bearerToken(request)
            if !uploadKeys.accepts(token) {
                let message = token == nil
                    ? "an upload token is required: send it as the header 'Authorization: Bearer TOKEN' (panoramax_cli --token TOKEN); "
                        + "the tokens are the lines of the server's --upload-key-file"
                    : "the upload token is not one of this server's (its --upload-key-file); check the token you gave"
                var response = errors.response(.uploadRefused(status: 401, code: "unauthorized", message: message, parameter: "Authorization"),
                                               shape: route.errors)
                response.headers.append(("WWW-Authenticate", "Bearer realm=\"lookaround uploads\""))
                return .failure(Refusal(route: route.label, response: response))
            }
        }
        return .success(route)
    }

    /// A method's refusal, with the methods allowed (`Allow`).
    private func refusal(_ error: ServiceError, shape: ErrorShape) -> HTTPResponse {
        var response = errors.response(error, shape: shape)
        if case .methodNotAllowed(_, let allowed) = error { response.headers.append(("Allow", allowed.joined(separator: ", "))) }
        return response
    }

    /// The answer to a CORS preflight: any origin may send any of the methods, with the headers the
    /// APIs read (the key, a JSON body); browsers keep it a day.
    static let preflightAnswer = HTTPResponse(status: 204, contentType: "text/plain", headers: [
        ("Access-Control-Allow-Methods", "GET, HEAD, POST, DELETE, OPTIONS"),
        ("Access-Control-Allow-Headers", "Content-Type, X-API-Key, Authorization"),
        ("Access-Control-Max-Age", "86400")], body: [])

    static func sharedAcrossOrigins(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        // Most answers have no headers of their own: they share the one array (no copy per answer).
        if response.headers.isEmpty { response.headers = crossOriginHeaders } else { response.headers += crossOriginHeaders }
        return response
    }

    /// The headers every answer carries (``sharedAcrossOrigins(_:)``).
    private static let crossOriginHeaders: [(name: String, value: String)] = [
        ("Access-Control-Allow-Origin", "*"),
        ("Access-Control-Expose-Headers", "X-Frame-Lengths, X-Move, X-Panorama-Id, X-Heading-Degrees, X-Superseded")]
}
