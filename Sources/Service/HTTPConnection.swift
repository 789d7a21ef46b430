import CLinuxEvents
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// What a connection needs from the loop that owns it: the handler, the server's shared state, the
/// clock and the socket. The loop (``EventLoop``) is one; the fuzz target's simulated network another.
protocol HTTPConnectionContext {
    var configuration: HTTPServerConfiguration { get }
    var handler: any HTTPHandler { get }
    /// Uptime nanoseconds of the event being handled.
    var now: UInt64 { get }
    /// Whether the server is stopping (answers close their connections; idle ones are closed).
    var isDraining: Bool { get }
    var bodyBudget: HTTPBodyBudget { get }
    /// A request's head was read / its answer written or its connection lost (requests in flight).
    func requestBegan()
    func requestEnded()
    /// Queues render work whose answer comes back for `ticket`; false when the queue is full.
    func enqueue(_ work: @escaping @Sendable () -> HTTPResponse, route: String, ticket: HTTPTicket) -> Bool
    /// Runs work a client has not asked for yet, only on an idle worker.
    func prepare(_ work: @escaping @Sendable () -> Void)
    /// Writes the head and body bytes the socket takes now.
    func send(_ socket: Int32, _ head: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) -> HTTPSendResult
    /// Shuts the socket's sending side (what the client sends is still read).
    func shutdownWrite(_ socket: Int32)
    /// The head of an answer (its `Date` from the context's clock).
    func responseHead(_ response: HTTPResponse, method: String, closing: Bool, http10KeepAlive: Bool) -> [UInt8]
}

/// What one `send` did.
enum HTTPSendResult: Equatable {
    case wrote(Int)
    /// The socket's buffer is full: wait until it is writable.
    case wouldBlock
    /// The connection is gone.
    case failed
}

/// Names a request whose answer a render worker will post: its connection's epoll token (descriptor
/// and generation: a reused descriptor is another connection) and the request's number on it.
struct HTTPTicket: Equatable, Sendable {
    var token: UInt64
    var request: Int
}

/// One request from its head to its answer: what its outcome reports, and what it holds.
struct HTTPExchange {
    /// Its number on the connection (a render worker's answer names it).
    var number: Int
    var method: String
    var path: String
    var route: String
    /// Uptime nanoseconds of its first byte.
    var started: UInt64
    var rendered = false
    var keepAlive: Bool
    var isHTTP11: Bool
    /// Bytes of the body budget its body (copied for the route) holds until it ends.
    var bodyBytes = 0
}

/// An answer being written: its head, then its body, from `offset` on.
struct HTTPOutput {
    var head: [UInt8]
    var body: [UInt8]
    var offset = 0
    var total: Int { head.count + body.count }
}

/// What follows a written answer.
enum HTTPAfterAnswer {
    /// The next request (keep-alive).
    case nextRequest
    /// Close the connection.
    case close
    /// Shut the write side and read and drop what still comes for a moment, then close (a refused
    /// request's client reads its answer instead of a reset).
    case linger
    /// The answer was `100 Continue`: the body comes next.
    case readBody(HTTPBodyReader)
}

/// An admitted request's body as it arrives. A class: the phase holds it while its buffer fills, with
/// no copy per read. Its budget reservation is given back when it is dropped, unless handed on.
final class HTTPBodyReader {
    let head: HTTPRequestHead
    /// The handler's decision at admission, handed back with the whole request.
    let admitted: (any Sendable)?
    var decoder: HTTPBodyDecoder
    let buffer: HTTPBodyBuffer
    /// Uptime nanoseconds when the head was read (the body's deadline counts from here).
    let started: UInt64
    private let budget: HTTPBodyBudget
    private let limitBytes: Int
    private(set) var reserved = 0

    init?(head: HTTPRequestHead, admitted: (any Sendable)?, limitBytes: Int, lineLimitBytes: Int, budget: HTTPBodyBudget, now: UInt64) {
        guard let buffer = HTTPBodyBuffer(capacity: head.contentLength ?? limitBytes) else { return nil }
        self.head = head
        self.admitted = admitted
        self.limitBytes = limitBytes
        self.buffer = buffer
        self.budget = budget
        started = now
        decoder = HTTPBodyDecoder(contentLength: head.contentLength, limitBytes: limitBytes, lineLimitBytes: lineLimitBytes)
    }

    deinit { budget.release(reserved) }

    /// Takes `bytes` into the body: an error when the budget or the body's limit has no room.
    func take(_ bytes: UnsafeRawBufferPointer, retryAfterSeconds: Int) -> ServiceError? {
        guard budget.reserve(bytes.count) else { return .overloaded(retryAfterSeconds: retryAfterSeconds) }
        reserved += bytes.count
        // (The decoder keeps a body within its limit; the buffer holds that much.)
        return buffer.append(bytes) ? nil : .bodyTooLarge(limitBytes: limitBytes)
    }

    /// Hands the reservation on (to the exchange, which holds it until the request ends).
    func handOverReservation() -> Int {
        defer { reserved = 0 }
        return reserved
    }
}

/// One client connection, owned by one ``EventLoop`` (touched by its thread only): a state machine
/// from bytes read, answers posted and deadlines to bytes written. Everything a connection knows
/// about its current request lives in its phase; what outlives requests (the socket, bytes read
/// ahead, the time of the last progress) is all that is stored beside it.
final class HTTPConnection {
    /// Where the connection is. A request is in flight exactly while the phase carries its exchange.
    enum Phase {
        /// Between requests: no byte of the next one yet (`skipped` CR/LF bytes of empty lines before it).
        case idle(skipped: Int)
        /// A request's head is arriving, since `started` (uptime ns); `scanner` knows where its end is not.
        case head(started: UInt64, scanner: HTTPHeadScanner)
        /// An admitted request's body is arriving.
        case body(HTTPExchange, HTTPBodyReader)
        /// A render worker has the request; it is answered 503 if the worker is not done by `deadline`.
        case working(HTTPExchange, deadline: UInt64)
        /// An answer is being written; `then` says what follows it.
        case writing(HTTPExchange, HTTPOutput, then: HTTPAfterAnswer)
        /// A refused request was answered and the write side shut: input is read and dropped until
        /// `until` or `lingerBytes`, then the connection closes.
        case lingering(until: UInt64, discarded: Int)
        /// Closed; the loop forgets it.
        case closed
    }

    let socket: Int32
    /// The epoll token: the descriptor and the loop's generation for it.
    let token: UInt64
    let address: ClientAddress
    /// Set by the state machine only (here and in HTTPConnection+Answer.swift).
    var phase = Phase.idle(skipped: 0)
    /// Bytes read and not used yet (a head still arriving, or pipelined requests).
    var inbox = HTTPInbox()
    /// Uptime nanoseconds of the last progress (bytes read or written): the idle deadline.
    var lastActivity: UInt64
    /// Requests begun on this connection (the next exchange's number).
    private var requests = 0

    init(socket: Int32, token: UInt64, address: ClientAddress, now: UInt64) {
        self.socket = socket
        self.token = token
        self.address = address
        lastActivity = now
    }

    var isClosed: Bool { if case .closed = phase { true } else { false } }

    /// The epoll events the phase waits for: input while a request may come or is arriving (and a
    /// peer's shutdown, `EPOLLRDHUP`, always), only the shutdown while a worker has the request (what
    /// the client pipelines meanwhile waits in the kernel: bounded memory), writability while an
    /// answer is blocked.
    var interest: UInt32 {
        switch phase {
        case .idle, .head, .body, .lingering: EPOLLIN.rawValue | EPOLLRDHUP.rawValue
        case .working: EPOLLRDHUP.rawValue
        case .writing: EPOLLOUT.rawValue
        case .closed: 0
        }
    }

    /// Whether the phase reads input (the loop reads only then).
    var readsInput: Bool { interest & EPOLLIN.rawValue != 0 }

    // MARK: Input

    /// Bytes read from the socket.
    func received<Context: HTTPConnectionContext>(_ input: UnsafeRawBufferPointer, _ context: Context) {
        lastActivity = context.now
        switch phase {
        case .closed: return
        case .lingering(let until, let discarded):
            let total = discarded + input.count
            if total > context.configuration.lingerBytes { return close(context) }
            phase = .lingering(until: until, discarded: total)
            return
        default: break
        }
        if inbox.isEmpty {
            // The common case, a whole request in one read: parsed where it was read, never copied.
            let used = process(input, context)
            if !isClosed, used < input.count, !isLingering { inbox.append(UnsafeRawBufferPointer(rebasing: input[used...])) }
        } else {
            inbox.append(input)
            processInbox(context)
        }
    }

    /// Processes what the inbox holds (after an answer, the next pipelined request).
    func processInbox<Context: HTTPConnectionContext>(_ context: Context) {
        guard !inbox.isEmpty, !isClosed else { return }
        let used = inbox.withUnsafeBytes { process($0, context) }
        if isClosed || isLingering { inbox.clear(keepBytes: 0) } else { inbox.consume(used) }
    }

    /// The socket can take more of a blocked answer.
    func writable<Context: HTTPConnectionContext>(_ context: Context) {
        guard case .writing = phase else { return }
        flush(context)
        // The next request (or the body, after a 100 Continue) may be waiting in the inbox already.
        if case .writing = phase {} else { processInbox(context) }
    }

    /// The client shut its side (`EPOLLRDHUP`) while the request was with a worker: it left.
    func peerLeft<Context: HTTPConnectionContext>(_ context: Context) {
        if case .working = phase { close(context) }
    }

    private var isLingering: Bool { if case .lingering = phase { true } else { false } }

    /// Runs `input` through the state machine; how many bytes were used (the rest waits: an incomplete
    /// head, or the next pipelined request while this one is answered).
    private func process<Context: HTTPConnectionContext>(_ input: UnsafeRawBufferPointer, _ context: Context) -> Int {
        let limits = context.configuration.head
        var offset = 0
        while offset < input.count {
            switch phase {
            case .idle(var skipped):
                while offset < input.count, input[offset] == 13 || input[offset] == 10 {
                    skipped += 1
                    offset += 1
                }
                if skipped > 2 * limits.emptyLinesBeforeRequest {
                    refuse(.malformedRequest(detail: "more than \(limits.emptyLinesBeforeRequest) empty lines before the request line"),
                           path: nil, context)
                    return input.count
                }
                phase = offset < input.count ? .head(started: context.now, scanner: HTTPHeadScanner()) : .idle(skipped: skipped)
            case .head(let started, var scanner):
                let rest = UnsafeRawBufferPointer(rebasing: input[offset...])
                guard let end = scanner.headEnd(in: rest) else {
                    phase = .head(started: started, scanner: scanner)
                    // Past a limit already: the parser names which (414 or 431); otherwise wait for more.
                    if rest.count > limits.headBytes || (!scanner.requestLineEnded && rest.count > limits.requestLineBytes),
                       case .failed(let error, let path) = HTTPHeadParser.parse(rest, limits: limits) {
                        refuse(error, path: path, context)
                        return input.count
                    }
                    return offset
                }
                switch HTTPHeadParser.parse(UnsafeRawBufferPointer(rebasing: rest[..<end]), limits: limits) {
                case .complete(let head, let used):
                    offset += used
                    begin(head, started: started, context)
                case .failed(let error, let path):
                    refuse(error, path: path, context)
                    return input.count
                case .incomplete:
                    refuse(.malformedRequest(detail: "the request head is not complete at its empty line"), path: nil, context)
                    return input.count
                }
            case .body(let exchange, let reader):
                offset += readBody(exchange, reader, UnsafeRawBufferPointer(rebasing: input[offset...]), context)
            case .lingering, .closed:
                return input.count
            case .working, .writing:
                return offset
            }
        }
        return offset
    }

    /// A head arrived: admit it, then read its body or answer it.
    private func begin<Context: HTTPConnectionContext>(_ head: HTTPRequestHead, started: UInt64, _ context: Context) {
        requests += 1
        var exchange = HTTPExchange(number: requests, method: head.method, path: head.path, route: "unknown", started: started,
                                    keepAlive: head.keepAlive, isHTTP11: head.isHTTP11)
        context.requestBegan()
        let configuration = context.configuration
        let request = head.request()
        switch context.handler.admit(request) {
        case .refuse(let route, let response):
            exchange.route = route
            answer(exchange, response, closing: head.hasBody, linger: head.hasBody, context)
        case .accept(let limit, let decision):
            guard head.hasBody else { return dispatch(exchange, request, admitted: decision, context) }
            if limit == 0 { return refuse(.unexpectedBody(path: head.path), exchange: exchange, context) }
            if let length = head.contentLength {
                if length > limit { return refuse(.bodyTooLarge(limitBytes: limit), exchange: exchange, context) }
                // A declared body that cannot fit the budget now is refused before the client sends it.
                if context.bodyBudget.bytesInUse + length > context.bodyBudget.limitBytes {
                    return refuse(.overloaded(retryAfterSeconds: configuration.retryAfterSeconds), exchange: exchange, context)
                }
            }
            guard let reader = HTTPBodyReader(head: head, admitted: decision, limitBytes: limit, lineLimitBytes: configuration.head.chunkLineBytes,
                                              budget: context.bodyBudget, now: context.now) else {
                return refuse(.overloaded(retryAfterSeconds: configuration.retryAfterSeconds), exchange: exchange, context)
            }
            if head.expectsContinue {
                let output = HTTPOutput(head: HTTPResponseWriter.continueHead, body: [])
                phase = .writing(exchange, output, then: .readBody(reader))
                flush(context)
            } else {
                phase = .body(exchange, reader)
            }
        }
    }

    /// Takes body bytes from `input`; how many were used.
    private func readBody<Context: HTTPConnectionContext>(_ exchange: HTTPExchange, _ reader: HTTPBodyReader,
                                                          _ input: UnsafeRawBufferPointer, _ context: Context) -> Int {
        let retryAfter = context.configuration.retryAfterSeconds
        let (used, step) = reader.decoder.decode(input) { reader.take($0, retryAfterSeconds: retryAfter) }
        switch step {
        case .needMore:
            return used
        case .failed(let error):
            refuse(error, exchange: exchange, context)
            return input.count
        case .complete:
            var exchange = exchange
            exchange.bodyBytes = reader.handOverReservation()
            let request = reader.head.request(body: reader.buffer.bytes)
            dispatch(exchange, request, admitted: reader.admitted, context)
            return used
        }
    }

    /// Hands a whole request to the handler.
    private func dispatch<Context: HTTPConnectionContext>(_ exchange: HTTPExchange, _ request: HTTPRequest, admitted decision: (any Sendable)?,
                                                          _ context: Context) {
        var exchange = exchange
        let (route, disposition) = context.handler.handle(request, admitted: decision)
        exchange.route = route
        switch disposition {
        case .respond(let response):
            answer(exchange, response, context)
        case .respondAndPrepare(let response, let work):
            // Whether a worker is idle is decided before the answer goes out, so a client that has the
            // answer knows the decision was made on the server as it then was.
            context.prepare(work)
            answer(exchange, response, context)
        case .render(let work):
            exchange.rendered = true
            guard context.enqueue(work, route: route, ticket: HTTPTicket(token: token, request: exchange.number)) else {
                return answer(exchange, context.handler.overloaded(route: route, retryAfterSeconds: context.configuration.retryAfterSeconds),
                              context)
            }
            phase = .working(exchange, deadline: context.now + UInt64(context.configuration.workTimeoutSeconds) * 1_000_000_000)
        }
    }

    /// A render worker's answer for request `number`; dropped when that request is no longer waiting
    /// (it timed out, or its client left).
    func workDone<Context: HTTPConnectionContext>(request number: Int, _ response: HTTPResponse, _ context: Context) {
        guard case .working(let exchange, _) = phase, exchange.number == number else { return }
        answer(exchange, response, context)
        processInbox(context)
    }

    /// Counts a request refused before its head was whole (a bad or oversized head, a timeout).
    func beginUnreadRequest<Context: HTTPConnectionContext>(started: UInt64, _ context: Context) -> HTTPExchange {
        requests += 1
        context.requestBegan()
        return HTTPExchange(number: requests, method: "-", path: "-", route: "unknown", started: started, keepAlive: false, isHTTP11: true)
    }
}
