import Catalog
import Foundation
import Synchronization

/// A validated render request: its cache key and the work, run on a render worker.
struct RenderJob: Sendable {
    /// Route, catalog and canonical query: equal keys give equal bytes.
    var key: String
    /// `Cache-Control` of a successful answer.
    var cacheControl: String
    /// The viewer whose frame this is, when it is one (`viewer=ID&seq=N`): dropped unrendered once a
    /// newer frame of the same viewer came.
    var frame: ViewerFrame?
    /// Makes the answer.
    var work: @Sendable () throws -> HTTPResponse
}

/// A viewer's frame request: `viewer=ID&seq=N` on `/v1/snapshot` and `/v1/move`, neither part of what
/// is drawn.
struct ViewerFrame: Sendable {
    var viewer: String
    var sequence: Int

    /// The job `make` makes of what `request` draws (without `viewer` and `seq`), as the frame it names.
    static func job(_ request: HTTPRequest, _ make: (HTTPRequest) throws -> RenderJob) throws -> RenderJob {
        let (frame, drawn) = try split(request)
        var job = try make(drawn)
        job.frame = frame
        return job
    }

    /// The frame `request` names and the request without `viewer` and `seq` (what is drawn); no frame
    /// without `viewer`.
    static func split(_ request: HTTPRequest) throws(ServiceError) -> (frame: ViewerFrame?, drawn: HTTPRequest) {
        guard let id = request.argument("viewer") else { return (nil, request) }
        let sequence = try QueryParameters(request: request).int("seq", in: 0...Int(Int32.max)) ?? 0
        guard !id.isEmpty, id.utf8.count <= 64 else { throw .invalidParameter(parameter: "viewer", message: "viewer is an id of 1…64 bytes") }
        var drawn = request
        drawn.query.removeAll { $0.name == "viewer" || $0.name == "seq" }
        return (ViewerFrame(viewer: id, sequence: sequence), drawn)
    }
}

/// The one way deterministic pictures (snapshots, maps, tiles, moves, Street View images) are answered,
/// shared by every family that draws: the job is validated on the network thread (its errors answer at
/// once), answered from the response cache with its ETag (304 for `If-None-Match`) when it can be,
/// otherwise made by a render worker, cached per catalog revision and answered.
final class RenderPipeline: Sendable {
    let catalog: Catalog
    let responses: ResponseCache
    let metrics: ServiceMetrics
    let viewers = ViewerSessions()
    let errors: ErrorAnswers

    init(catalog: Catalog, responses: ResponseCache, metrics: ServiceMetrics, errors: ErrorAnswers) {
        (self.catalog, self.responses, self.metrics, self.errors) = (catalog, responses, metrics, errors)
    }

    /// The disposition of `request`, whose job `make` validates; errors in `shape`.
    func disposition(_ request: HTTPRequest, shape: ErrorShape,
                     _ make: (HTTPRequest) throws -> RenderJob) -> HTTPDisposition {
        // Before the catalog is asked anything: answers are cached per catalog revision, and one made
        // while the revision changed is not kept (it may come from the old catalog).
        let revision = catalog.revision
        let job: RenderJob
        do { job = try make(request) } catch { return .respond(errors.response(QueryParameters.translate(error), shape: shape)) }
        if let frame = job.frame { viewers.note(viewer: frame.viewer, sequence: frame.sequence) }
        let key = "\(revision)|" + job.key
        if let cached = responses.response(for: key) {
            metrics.recordResponseCache(hit: true)
            return .respond(Self.conditional(cached.response, etag: cached.etag, request: request))
        }
        metrics.recordResponseCache(hit: false)
        return .render { [self] in
            if let frame = job.frame, viewers.isSuperseded(viewer: frame.viewer, sequence: frame.sequence) {
                metrics.recordSupersededFrame()
                return HTTPResponse(status: 204, contentType: "text/plain", headers: [("X-Superseded", "true"), ("Cache-Control", "no-store")],
                                    body: [])
            }
            // Made while this waited (a page's first frame, prepared before the browser asked for it).
            if let cached = responses.response(for: key) { return Self.conditional(cached.response, etag: cached.etag, request: request) }
            do {
                var response = try job.work()
                guard response.status == 200 else { return response }
                let etag = entityTag(of: response.body)
                response.headers += [("ETag", etag), ("Cache-Control", job.cacheControl)]
                if catalog.revision == revision { responses.insert(response, etag: etag, for: key) }
                return Self.conditional(response, etag: etag, request: request)
            } catch {
                return errors.response(QueryParameters.translate(error), shape: shape)
            }
        }
    }

    /// 304 when `If-None-Match` names the answer's ETag (or `*`), else the answer.
    static func conditional(_ response: HTTPResponse, etag: String, request: HTTPRequest) -> HTTPResponse {
        guard let tags = request.headers["if-none-match"] else { return response }
        let given = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard given.contains("*") || given.contains(etag) || given.contains("W/" + etag) else { return response }
        return HTTPResponse(status: 304, contentType: response.contentType,
                            headers: response.headers.filter { ["ETag", "Cache-Control"].contains($0.name) }, body: [])
    }

    /// The cache key of a request: route, path and the query sorted (the API key left out), and `extra`.
    static func cacheKey(_ route: String, _ request: HTTPRequest, extra: String = "") -> String {
        let query = request.query.filter { $0.name != "key" }.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(route)|\(request.path)|\(query)|\(extra)"
    }
}

/// The newest frame each viewer asked for (``ViewerFrame``): a frame job still queued when a newer one of
/// its viewer arrived is dropped before it is rendered (answered 204 with `X-Superseded`), so a dragging
/// viewer costs one render per frame it will show, not one per pointer event. Bounded: past
/// ``capacity`` viewers the table starts again (a forgotten viewer's frames are rendered, never wrongly
/// dropped).
final class ViewerSessions: Sendable {
    static let capacity = 4096
    private let newest = Mutex<[String: Int]>([:])

    /// Notes that `viewer` asked for frame `sequence`.
    func note(viewer: String, sequence: Int) {
        newest.withLock { table in
            if table.count >= Self.capacity && table[viewer] == nil { table.removeAll(keepingCapacity: true) }
            table[viewer] = max(table[viewer] ?? sequence, sequence)
        }
    }

    /// Whether a newer frame than `sequence` was asked for by `viewer`.
    func isSuperseded(viewer: String, sequence: Int) -> Bool {
        newest.withLock { ($0[viewer] ?? sequence) > sequence }
    }
}
