import Catalog
import Storage
import Synchronization

/// The server, held weakly by the service (the server holds the service as its handler): what
/// `/metrics` reads its gauges from once it runs.
final class ServerReference: Sendable {
    private let box = Mutex<WeakServer>(WeakServer())

    struct WeakServer { weak var server: HTTPServer? }

    /// The running server, nil before `start()` or after it is gone.
    var server: HTTPServer? {
        get { box.withLock { $0.server } }
        set { box.withLock { $0.server = newValue } }
    }
}

/// The service's own routes, open to every client (no key): `/v1/health` (what a load balancer
/// checks), `/metrics` (Prometheus) and `/v1/openapi.json`.
struct SystemRoutes: RouteFamily {
    let catalog: Catalog
    let watch: CatalogWatch
    let cached: CachedAnswers
    let metrics: ServiceMetrics
    let server: ServerReference

    var routes: [Route] {
        [Route(.get, PathPattern("/v1/health"), label: "health", access: .open, parameters: [], .answer { _ in health() }),
         Route(.get, PathPattern("/metrics"), label: "metrics", access: .open, parameters: [], .answer { _ in metricsText() }),
         Route(.get, PathPattern("/v1/openapi.json"), label: "openapi", access: .open, parameters: [], .answer { _ in .json(OpenAPIDocument.bytes) })]
    }

    /// `{"catalog", "panoramas", "revision", "status", "storage"}`; for a PostGIS catalog it asks the
    /// database, and answers 503 with `"status": "catalog_unavailable"` when that fails. `storage` lists
    /// the object store buckets the imagery is in, each asked now (`HEAD`, 2 s at most):
    /// `"status": "unavailable"` and the reason for one that does not answer, and the whole answer is 503
    /// with `"status": "storage_unavailable"`.
    func health() -> HTTPResponse {
        var status = "ok", code = 200
        if catalog.location.isPostgres {
            do { try watch.check() } catch {
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
        let server = server.server
        let gauges: [(name: String, help: String, value: Int)] = [
            ("lookaround_http_in_flight", "Requests being answered now.", server?.requestsInFlight ?? 0),
            ("lookaround_http_connections", "Open connections.", server?.connectionCount ?? 0),
            ("lookaround_render_queue", "Render jobs queued or running.", server?.rendersQueued ?? 0),
            ("lookaround_response_cache_bytes", "Bytes of cached answers.", cached.responses.byteCount),
            ("lookaround_catalog_panoramas", "Panoramas in the catalog.", catalog.panoramaCount),
            ("lookaround_catalog_revision", "The catalog revision answers come from (PostGIS catalogs change it per index run).",
             Int(catalog.revision)),
        ]
        let text = metrics.prometheusText(gauges: gauges, sceneDetailCache: cached.details.statistics)
        return HTTPResponse(contentType: "text/plain; version=0.0.4; charset=utf-8",
                            headers: [("Cache-Control", "no-store")], body: Array(text.utf8))
    }
}
