import Synchronization

// A connection driven without sockets, threads or clocks, as swift-nio's EmbeddedChannel drives a
// pipeline: the fuzz target (Fuzz/Sources/FuzzHTTPConnection) and the engine's tests feed it bytes,
// writes that block, deadlines and render answers in any order, and check what it wrote and what it
// holds. Internal: reached with `@testable import Service`.

/// The context of one simulated connection: the network is `written` (what the client received) and
/// `sendCapacity` (how much one send takes: 0 blocks), the clock is `now`, the render queue `queued`.
final class HTTPConnectionSimulator: HTTPConnectionContext {
    var configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    var now: UInt64 = 1_000_000_000
    var isDraining = false
    let bodyBudget: HTTPBodyBudget
    /// Requests in flight (the server's counter).
    private(set) var inFlight = 0
    /// Bytes one send takes (nil: all); 0 makes sends block.
    var sendCapacity: Int?
    /// Sends fail (the client reset the connection).
    var sendFails = false
    /// Everything written to the client.
    private(set) var written: [UInt8] = []
    private(set) var writeShut = false
    /// Render work queued, with the ticket its answer is for.
    private(set) var queued: [(ticket: HTTPTicket, work: @Sendable () -> HTTPResponse)] = []
    var queueLimit = 4
    private var writer = HTTPResponseWriter()

    init(configuration: HTTPServerConfiguration = HTTPServerConfiguration(), handler: any HTTPHandler) {
        self.configuration = configuration
        self.handler = handler
        bodyBudget = HTTPBodyBudget(limitBytes: configuration.bodyBudgetBytes)
    }

    /// A connection for this context.
    func connect() -> HTTPConnection {
        HTTPConnection(socket: -1, token: 1 << 32 | 7, address: ClientAddress(high: 0, low: 1), now: now)
    }

    /// Sends `text` from the client.
    func client(_ connection: HTTPConnection, sends text: String) {
        Array(text.utf8).withUnsafeBytes { connection.received($0, self) }
    }

    /// Runs the oldest queued render job and delivers its answer.
    func finishWork(_ connection: HTTPConnection) {
        guard !queued.isEmpty else { return }
        let job = queued.removeFirst()
        connection.workDone(request: job.ticket.request, job.work(), self)
    }

    /// Takes what was written so far.
    func takeWritten() -> String {
        defer { written = [] }
        return String(decoding: written, as: UTF8.self)
    }

    func requestBegan() { inFlight += 1 }
    func requestEnded() { inFlight -= 1 }

    func enqueue(_ work: @escaping @Sendable () -> HTTPResponse, route: String, ticket: HTTPTicket) -> Bool {
        guard queued.count < queueLimit else { return false }
        queued.append((ticket, work))
        return true
    }

    func prepare(_ work: @escaping @Sendable () -> Void) {}

    func send(_ socket: Int32, _ head: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) -> HTTPSendResult {
        if sendFails { return .failed }
        let total = head.count + body.count
        let count = min(total, sendCapacity ?? total)
        if count == 0 && total > 0 { return .wouldBlock }
        written.append(contentsOf: head.prefix(count))
        if count > head.count { written.append(contentsOf: body.prefix(count - head.count)) }
        return .wrote(count)
    }

    func shutdownWrite(_ socket: Int32) { writeShut = true }

    func responseHead(_ response: HTTPResponse, method: String, closing: Bool, http10KeepAlive: Bool) -> [UInt8] {
        writer.head(response, method: method, closing: closing, http10KeepAlive: http10KeepAlive, now: 1_800_000_000)
    }
}

/// A handler with one route of each kind, for the simulator: `/render` (render work), `/echo` (a body
/// of at most 64 bytes, echoed), `/refused` (refused from its head), `/empty` (204), `/cached` (304);
/// anything else answers its path. It keeps every outcome's status.
final class HTTPSimulatedHandler: HTTPHandler {
    /// Each outcome's status and method, in order.
    let outcomes = Mutex<[(status: Int, method: String)]>([])

    func admit(_ head: HTTPRequest) -> HTTPAdmission {
        if head.path == "/refused" { return .refuse(route: "refused", HTTPResponse(status: 403, contentType: "text/plain", body: Array("no".utf8))) }
        return .accept(maximumBodyBytes: head.path == "/echo" ? 64 : 0)
    }

    func handle(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition) {
        switch request.path {
        case "/render": ("render", .render { HTTPResponse(contentType: "text/plain", body: Array("rendered".utf8)) })
        case "/echo": ("echo", .respond(HTTPResponse(contentType: "application/octet-stream", body: request.body)))
        case "/empty": ("empty", .respond(HTTPResponse(status: 204, contentType: "text/plain", body: [])))
        case "/cached": ("cached", .respond(HTTPResponse(status: 304, contentType: "image/jpeg", headers: [("ETag", "\"1\"")], body: [])))
        default: ("path", .respond(HTTPResponse(contentType: "text/plain", body: Array(request.path.utf8))))
        }
    }

    func overloaded(route: String, retryAfterSeconds: Int) -> HTTPResponse {
        HTTPResponse(status: 503, contentType: "text/plain", headers: [("Retry-After", "\(retryAfterSeconds)")], body: Array("busy".utf8))
    }

    func protocolError(_ error: ServiceError, path: String?) -> HTTPResponse {
        HTTPResponse(status: error.httpStatus, contentType: "text/plain", body: Array(error.code.utf8))
    }

    func finished(_ outcome: HTTPOutcome) { outcomes.withLock { $0.append((outcome.status, outcome.method)) } }
}
