import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// What a handler does with a request: answer at once on the network thread (cheap routes: scene
/// requests, metadata, JSON), or hand work to the render workers (snapshots, maps, tiles), which
/// frees the network thread while the connection waits (libmicrohttpd suspend/resume).
public enum HTTPDisposition: Sendable {
    /// The answer, sent now.
    case respond(HTTPResponse)
    /// Work for a render worker; its answer is sent when it is done.
    case render(@Sendable () -> HTTPResponse)
}

/// Answers requests. Called on libmicrohttpd's threads, concurrently.
public protocol HTTPHandler: Sendable {
    /// The route's label (for metrics and the access log) and what to do.
    func handle(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition)
    /// The answer when the render queue is full or the server is draining (503).
    func overloaded(route: String, retryAfterSeconds: Int) -> HTTPResponse
    /// The answer for a body over the limit (413).
    func bodyTooLarge(limitBytes: Int) -> HTTPResponse
    /// Called once per finished request with its outcome (metrics, access log).
    func finished(_ outcome: HTTPOutcome)
}

/// What happened to one request, for metrics and the access log.
public struct HTTPOutcome: Sendable {
    /// `GET`, `HEAD`, `POST`.
    public var method: String
    /// The path asked for (no query).
    public var path: String
    /// The route label.
    public var route: String
    /// The status sent.
    public var status: Int
    /// Body bytes sent.
    public var bytes: Int
    /// From the request's headers being read to its answer being queued, microseconds.
    public var microseconds: Int
    /// Whether the answer came from a render worker.
    public var rendered: Bool
}

/// Limits and threads of the HTTP layer.
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind (IPv4 or IPv6 text). Default loopback.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (see ``HTTPServer/port``).
    public var port: UInt16 = 8080
    /// Network threads (each runs an epoll loop and answers cheap routes itself).
    public var networkThreads = 2
    /// Render workers (snapshots, maps, tiles).
    public var renderWorkers = 2
    /// Render jobs that may wait for a worker; one more is answered 503 at once.
    public var maximumQueuedRenders = 32
    /// A render job that waited longer than this for a worker is answered 503 instead, seconds.
    public var queueTimeoutSeconds = 10.0
    /// Open connections at most (a backstop; further ones wait in the kernel's backlog).
    public var connectionLimit = 2048
    /// An idle or stalled connection (slow client) is closed after this many seconds.
    public var connectionTimeoutSeconds = 15
    /// Per-connection memory for the request line and headers: longer URLs get 414, longer headers 431.
    public var connectionMemoryBytes = 16 * 1024
    /// Largest accepted request body (413 beyond).
    public var maximumBodyBytes = 1 << 20

    /// The defaults: 127.0.0.1:8080, two network threads, two render workers.
    public init() {}
}

/// An HTTP/1.1 server over libmicrohttpd (epoll, a thread pool, keep-alive) that hands every request
/// to an ``HTTPHandler``.
///
/// Keep-alive needs libmicrohttpd's two-call pattern: the handler's first call (headers only) queues
/// nothing. Bodies arrive in chunks and are kept up to the limit; a `Content-Length` over it is
/// answered 413 at once, a chunked body over it is read to its end and then answered 413. Render
/// work runs on its own bounded queue while the connection is suspended; a full queue answers 503 at
/// once. ``stop(drainingForSeconds:)`` stops gracefully: no new connections, requests in flight finish.
public final class HTTPServer: @unchecked Sendable {
    /// The port listened on (what port 0 became).
    public private(set) var port: UInt16 = 0
    /// The address listened on.
    public let host: String
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    private var daemon: OpaquePointer?
    private var context: Unmanaged<HTTPServer>?
    private let renderQueue: OperationQueue
    /// Requests between their first handler call and their completion.
    let inFlight = Atomic<Int>(0)
    /// Render jobs queued or running.
    let queuedRenders = Atomic<Int>(0)
    /// Open connections.
    let openConnections = Atomic<Int>(0)
    /// Set by ``stop(drainingForSeconds:)``: answers close their connections, new render work gets 503.
    let draining = Atomic<Bool>(false)
    /// When draining ends (uptime nanoseconds): queued render jobs not started by then answer 503.
    let drainDeadline = Atomic<UInt64>(UInt64.max)
    private let stopLock = NSLock()

    /// Starts listening.
    /// - Throws: `ServiceError.cannotListen` when the address does not parse or cannot be bound.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(ServiceError) {
        self.configuration = configuration
        self.handler = handler
        host = configuration.host
        renderQueue = OperationQueue()
        renderQueue.maxConcurrentOperationCount = max(1, configuration.renderWorkers)
        renderQueue.name = "lookaround.render"
        let flags = MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ITC.rawValue | MHD_ALLOW_SUSPEND_RESUME.rawValue
            | MHD_USE_ERROR_LOG.rawValue
        // The context is retained for the daemon's life and released by stop().
        let context = Unmanaged.passRetained(self)
        let started = lk_mhd_start(flags, configuration.host, configuration.port, UInt32(max(1, configuration.networkThreads)),
                                   UInt32(configuration.connectionLimit), UInt32(configuration.connectionTimeoutSeconds),
                                   configuration.connectionMemoryBytes,
                                   accessHandler, context.toOpaque(), completedHandler, context.toOpaque(),
                                   connectionHandler, context.toOpaque())
        guard let started else {
            let reason = errno == 0 ? "the address does not parse" : String(cString: strerror(errno))
            context.release()
            throw .cannotListen(address: "\(configuration.host):\(configuration.port)", detail: reason)
        }
        daemon = started
        self.context = context
        port = lk_mhd_bound_port(started)
    }

    /// Stops: refuses new connections at once, lets requests in flight (render jobs included) finish for
    /// up to `seconds`, then closes every connection. Safe to call more than once.
    public func stop(drainingForSeconds seconds: Double = 10) {
        stopLock.lock()
        defer { stopLock.unlock() }
        guard let daemon else { return }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        drainDeadline.store(deadline, ordering: .sequentiallyConsistent)
        draining.store(true, ordering: .sequentiallyConsistent)
        let listening = MHD_quiesce_daemon(daemon)
        if listening >= 0 { shutdown(listening, Int32(SHUT_RDWR)) }
        func waitForRequests(until limit: UInt64) {
            while inFlight.load(ordering: .sequentiallyConsistent) > 0, DispatchTime.now().uptimeNanoseconds < limit { usleep(2_000) }
        }
        waitForRequests(until: deadline)
        // Past the deadline, jobs that have not started answer 503 at once; a running one finishes (its
        // size is bounded). No connection may stay suspended when the daemon stops, and a resumed one
        // needs a moment for its answer to be sent.
        renderQueue.waitUntilAllOperationsAreFinished()
        waitForRequests(until: DispatchTime.now().uptimeNanoseconds + 2_000_000_000)
        MHD_stop_daemon(daemon)
        if listening >= 0 { close(listening) }
        self.daemon = nil
        context?.release()
        context = nil
    }

    /// Requests in flight now.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }
    /// Open connections now.
    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }
    /// Render jobs queued or running now.
    public var rendersQueued: Int { queuedRenders.load(ordering: .relaxed) }

    // MARK: Render queue

    /// Runs `work` on a render worker and resumes `connection` with its answer; false (and nothing
    /// queued) when the queue is full or the server is draining.
    func enqueue(_ work: @escaping @Sendable () -> HTTPResponse, exchange: Exchange, connection: OpaquePointer) -> Bool {
        if draining.load(ordering: .relaxed) { return false }
        let queued = queuedRenders.add(1, ordering: .relaxed).newValue
        guard queued <= configuration.maximumQueuedRenders + configuration.renderWorkers else {
            queuedRenders.subtract(1, ordering: .relaxed)
            return false
        }
        MHD_suspend_connection(connection)
        let timeout = configuration.queueTimeoutSeconds
        let enqueued = DispatchTime.now().uptimeNanoseconds
        let connectionAddress = Int(bitPattern: UnsafeMutableRawPointer(connection))
        let server = self
        renderQueue.addOperation {
            let now = DispatchTime.now().uptimeNanoseconds
            let waited = Double(now - enqueued) / 1e9
            let tooLate = waited > timeout || now > server.drainDeadline.load(ordering: .relaxed)
            exchange.pending = tooLate ? server.handler.overloaded(route: exchange.route, retryAfterSeconds: 2) : work()
            server.queuedRenders.subtract(1, ordering: .relaxed)
            MHD_resume_connection(OpaquePointer(bitPattern: connectionAddress))
        }
        return true
    }
}

/// Per-request state, kept in libmicrohttpd's `con_cls` from the first handler call to completion.
final class Exchange: @unchecked Sendable {
    var body: [UInt8] = []
    var bodyTooLarge = false
    let started = DispatchTime.now().uptimeNanoseconds
    var route = "unknown"
    var method = ""
    var path = ""
    /// Set by a render worker before it resumes the connection.
    var pending: HTTPResponse?
    var rendered = false
}

// MARK: libmicrohttpd callbacks (C function pointers: no captured context; state through cls)

private let accessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadDataSize, conCls in
    guard let cls, let connection, let conCls else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    guard let state = conCls.pointee else {
        // First call: headers only. Queue nothing (keep-alive), except 413 for a declared body over the limit.
        let exchange = Exchange()
        exchange.method = method.map { String(cString: $0) } ?? ""
        exchange.path = url.map { String(cString: $0) } ?? "/"
        conCls.pointee = Unmanaged.passRetained(exchange).toOpaque()
        server.inFlight.add(1, ordering: .relaxed)
        if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
           let declared = Int(String(cString: length)), declared > server.configuration.maximumBodyBytes {
            exchange.route = "body_too_large"
            return server.send(server.handler.bodyTooLarge(limitBytes: server.configuration.maximumBodyBytes),
                               exchange: exchange, connection: connection)
        }
        return .YES
    }
    let exchange = Unmanaged<Exchange>.fromOpaque(state).takeUnretainedValue()
    if let pending = exchange.pending {
        // Resumed after a render worker finished.
        exchange.pending = nil
        return server.send(pending, exchange: exchange, connection: connection)
    }
    if let uploadDataSize, uploadDataSize.pointee > 0 {
        let count = uploadDataSize.pointee
        if exchange.body.count + count > server.configuration.maximumBodyBytes {
            exchange.bodyTooLarge = true
            exchange.body = []
        } else if !exchange.bodyTooLarge, let uploadData {
            exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: uploadData, count: count))
        }
        uploadDataSize.pointee = 0
        return .YES
    }
    if exchange.bodyTooLarge {
        exchange.route = "body_too_large"
        return server.send(server.handler.bodyTooLarge(limitBytes: server.configuration.maximumBodyBytes),
                           exchange: exchange, connection: connection)
    }
    let request = HTTPRequest(method: exchange.method, path: exchange.path, query: queryArguments(connection),
                              headers: requestHeaders(connection), body: exchange.body)
    exchange.body = []
    let (route, disposition) = server.handler.handle(request)
    exchange.route = route
    switch disposition {
    case .respond(let response):
        return server.send(response, exchange: exchange, connection: connection)
    case .render(let work):
        exchange.rendered = true
        if server.enqueue(work, exchange: exchange, connection: connection) { return .YES }
        return server.send(server.handler.overloaded(route: route, retryAfterSeconds: 1), exchange: exchange,
                           connection: connection)
    }
}

private let completedHandler: MHD_RequestCompletedCallback = { cls, _, conCls, _ in
    guard let cls, let conCls, let state = conCls.pointee else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    Unmanaged<Exchange>.fromOpaque(state).release()
    conCls.pointee = nil
    server.inFlight.subtract(1, ordering: .relaxed)
}

private let connectionHandler: MHD_NotifyConnectionCallback = { cls, _, _, code in
    guard let cls else { return }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        server.openConnections.add(1, ordering: .relaxed)
    } else {
        server.openConnections.subtract(1, ordering: .relaxed)
    }
}

/// Collects key/value pairs from libmicrohttpd's iterator.
private final class Pairs {
    var items: [(name: String, value: String)] = []
}

private let pairCollector: MHD_KeyValueIterator = { cls, _, key, value in
    guard let cls, let key else { return .YES }
    let pairs = Unmanaged<Pairs>.fromOpaque(cls).takeUnretainedValue()
    pairs.items.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
    return .YES
}

private func queryArguments(_ connection: OpaquePointer) -> [(name: String, value: String)] {
    let pairs = Pairs()
    let box = Unmanaged.passUnretained(pairs).toOpaque()
    withExtendedLifetime(pairs) { _ = MHD_get_connection_values(connection, .GET_ARGUMENT_KIND, pairCollector, box) }
    return pairs.items
}

/// The request headers routes read (``HTTPRequest/headers`` holds only these, lower-cased): looked up
/// one by one, which costs less than collecting every header of every request.
let routedHeaders = ["if-none-match", "x-api-key", "content-type", "accept"]

private func requestHeaders(_ connection: OpaquePointer) -> [String: String] {
    var headers: [String: String] = [:]
    for name in routedHeaders {
        if let value = MHD_lookup_connection_value(connection, .HEADER_KIND, name) { headers[name] = String(cString: value) }
    }
    return headers
}

extension HTTPServer {
    /// Queues `response` on `connection` and reports the outcome.
    func send(_ response: HTTPResponse, exchange: Exchange, connection: OpaquePointer) -> MHD_Result {
        let created = response.body.withUnsafeBytes { bytes in
            MHD_create_response_from_buffer(bytes.count, UnsafeMutableRawPointer(mutating: bytes.baseAddress),
                                            .RESPMEM_MUST_COPY)
        }
        guard let created else { return .NO }
        MHD_add_response_header(created, "Content-Type", response.contentType)
        for header in response.headers { MHD_add_response_header(created, header.name, header.value) }
        if draining.load(ordering: .relaxed) { MHD_add_response_header(created, "Connection", "close") }
        let result = MHD_queue_response(connection, UInt32(response.status), created)
        MHD_destroy_response(created)
        let elapsed = Int((DispatchTime.now().uptimeNanoseconds - exchange.started) / 1000)
        handler.finished(HTTPOutcome(method: exchange.method, path: exchange.path, route: exchange.route,
                                     status: response.status, bytes: exchange.method == "HEAD" ? 0 : response.body.count,
                                     microseconds: elapsed, rendered: exchange.rendered))
        return result
    }
}
