// The one interface between the protocol engine and the routes: the engine frames requests, enforces
// limits and deadlines and writes answers; a handler decides what a request means. Neither knows the
// other's insides (the engine has no route table; a handler never sees a socket).

/// What a handler does with a request: answer at once on the network thread (cheap routes: scene
/// requests, metadata, JSON), or hand work to the render workers (snapshots, maps, tiles, batches),
/// which frees the network thread while the connection waits.
public enum HTTPDisposition: Sendable {
    /// The answer, sent now.
    case respond(HTTPResponse)
    /// Work for a render worker; its answer is sent when it is done.
    case render(@Sendable () -> HTTPResponse)
    /// The answer, sent now, and work that prepares what the client is about to ask for (a page's first
    /// frame): run by a render worker only if one is idle, never queued behind or ahead of requests.
    case respondAndPrepare(HTTPResponse, prepare: @Sendable () -> Void)
}

/// What a handler decides from a request's head, before any of its body is read: a request that will
/// be refused (no such route, wrong method, no valid key) is answered without its body being read or
/// kept, and a route's body is bounded by what that route takes.
public enum HTTPAdmission: Sendable {
    /// Read the body, at most `maximumBodyBytes` (0: the route takes none), then
    /// ``HTTPHandler/handle(_:admitted:)`` with `decision`: what the handler decided from the head (its
    /// route), handed back as it was so it is not decided twice. The engine never looks inside it.
    case accept(maximumBodyBytes: Int, decision: (any Sendable)? = nil)
    /// Answer now; the body, if any, is not read (the connection closes after the answer).
    case refuse(route: String, HTTPResponse)
}

/// Answers requests. Called on the network threads, concurrently.
public protocol HTTPHandler: Sendable {
    /// Decides from the head alone (``HTTPRequest/body`` is empty) whether the body is read.
    func admit(_ head: HTTPRequest) -> HTTPAdmission
    /// The route's label (for metrics and the access log) and what to do.
    func handle(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition)
    /// The same for a request admitted with `decision` (``HTTPAdmission/accept(maximumBodyBytes:decision:)``).
    func handle(_ request: HTTPRequest, admitted decision: (any Sendable)?) -> (route: String, disposition: HTTPDisposition)
    /// The answer when the render queue is full or the server is draining (503).
    func overloaded(route: String, retryAfterSeconds: Int) -> HTTPResponse
    /// The answer to a request the HTTP layer refuses itself (malformed, over a limit, too slow, too
    /// many connections from one address); `path` is the request's path when its request line was read.
    func protocolError(_ error: ServiceError, path: String?) -> HTTPResponse
    /// Called once per request with its outcome (metrics, access log), refused ones included.
    func finished(_ outcome: HTTPOutcome)
}

extension HTTPHandler {
    /// A handler that decides nothing at admission decides again from the whole request.
    public func handle(_ request: HTTPRequest, admitted decision: (any Sendable)?) -> (route: String, disposition: HTTPDisposition) {
        handle(request)
    }
}

/// What happened to one request, for metrics and the access log.
public struct HTTPOutcome: Sendable {
    /// `GET`, `HEAD`, `POST`; "-" when the request line could not be read.
    public var method: String
    /// The path asked for (no query), decoded; "-" when the request line could not be read.
    public var path: String
    /// The route label.
    public var route: String
    /// The status sent (499: the client closed the connection before the answer).
    public var status: Int
    /// Body bytes sent.
    public var bytes: Int
    /// From the request's first byte to its answer being queued, microseconds.
    public var microseconds: Int
    /// Whether the answer came from a render worker.
    public var rendered: Bool
}
