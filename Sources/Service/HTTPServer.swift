import CLinuxEvents
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

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
    /// Read the body, at most `maximumBodyBytes` (0: the route takes none), then ``HTTPHandler/handle(_:)``.
    case accept(maximumBodyBytes: Int)
    /// Answer now; the body, if any, is not read (the connection closes after the answer).
    case refuse(route: String, HTTPResponse)
}

/// Answers requests. Called on the network threads, concurrently.
public protocol HTTPHandler: Sendable {
    /// Decides from the head alone (``HTTPRequest/body`` is empty) whether the body is read.
    func admit(_ head: HTTPRequest) -> HTTPAdmission
    /// The route's label (for metrics and the access log) and what to do.
    func handle(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition)
    /// The answer when the render queue is full or the server is draining (503).
    func overloaded(route: String, retryAfterSeconds: Int) -> HTTPResponse
    /// The answer to a request the HTTP layer refuses itself (malformed, over a limit, too slow, too
    /// many connections from one address); `path` is the request's path when its request line was read.
    func protocolError(_ error: ServiceError, path: String?) -> HTTPResponse
    /// Called once per request with its outcome (metrics, access log), refused ones included.
    func finished(_ outcome: HTTPOutcome)
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

/// Limits, deadlines and threads of the HTTP layer. The limits have nginx's shapes: a total deadline
/// for the head (`client_header_timeout`) and for the body (`client_body_timeout`), connections per
/// client address (`limit_conn`), head buffers (`large_client_header_buffers`).
public struct HTTPServerConfiguration: Sendable {
    /// The address to bind (IPv4 or IPv6 text). Default loopback.
    public var host = "127.0.0.1"
    /// The port; 0 picks a free one (see ``HTTPServer/port``).
    public var port: UInt16 = 8080
    /// Network threads (each runs an epoll loop and answers cheap routes itself).
    public var networkThreads = 2
    /// Render workers (snapshots, maps, tiles, batches).
    public var renderWorkers = 2
    /// Render jobs that may wait for a worker; one more is answered 503 at once.
    public var maximumQueuedRenders = 32
    /// A render job that waited longer than this for a worker is answered 503 instead, seconds.
    public var queueTimeoutSeconds = 10.0
    /// Open connections at most, from all addresses (a backstop: beyond it new connections are closed).
    public var connectionLimit = 8192
    /// Open connections from one client address at most; one more is answered 503 and closed.
    public var connectionsPerAddress = 256
    /// A connection that makes no progress (idle between requests, a read or a write that stalls) is
    /// closed after this many seconds.
    public var connectionTimeoutSeconds = 15
    /// A request's head must arrive whole within this many seconds of its first byte (408 after).
    public var headerTimeoutSeconds = 10
    /// A request's body must arrive whole within this many seconds of its head (408 after).
    public var bodyTimeoutSeconds = 30
    /// How long the request line and the header fields may be.
    public var head = HTTPHeadLimits()
    /// Largest request body any route takes (413 beyond); routes bound their own below it.
    public var maximumBodyBytes = 1 << 20

    /// The defaults: 127.0.0.1:8080, two network threads, two render workers.
    public init() {}
}

/// An HTTP/1.1 server on epoll: keep-alive, pipelining, strict framing, bounded heads and bodies,
/// deadlines and a per-address connection limit; every request goes to an ``HTTPHandler``.
///
/// Each network thread runs an epoll loop that owns its connections (their state is touched by that
/// thread only), accepts from the shared listening socket, parses heads (``HTTPHeadParser``), asks the
/// handler to admit the request before reading its body, and answers cheap routes itself. Render work
/// runs on a bounded queue; its answer comes back through the loop's mailbox (an eventfd wakes it).
/// A sweep four times a second enforces the deadlines. ``stop(drainingForSeconds:)`` stops gracefully:
/// no new connections, requests in flight finish.
///
/// libmicrohttpd served here before; it could not do what a service facing hostile clients needs: its
/// own errors (malformed requests, 414, 431, an absurd `Content-Length`) were HTML, a head whose
/// parameters overflowed its pool got no answer at all, its timeout counted idle time only (a byte
/// every few seconds held a connection forever), its per-address limit closed without an answer, and
/// the path and query reached the handler already decoded (a `%00` truncated them).
// @unchecked Sendable: `listening`, `loops` and `threadsDone` are written by `start()` before any loop
// thread runs and by `stop()` after every loop thread has ended (it waits for them); in between the
// loops only read them. Everything else is immutable.
public final class HTTPServer: @unchecked Sendable {
    // @unchecked: the mutable state is the atomics below, `listening` and `loops` (set in init and
    // cleared by stop under `stopLock`), and each loop's connections, which only its thread touches.

    /// The port listened on (what port 0 became).
    public let port: UInt16
    /// The address listened on.
    public let host: String
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    private let renderQueue: OperationQueue
    private var listening: Int32
    private var loops: [EventLoop] = []
    private var threadsDone: [DispatchSemaphore] = []
    /// Requests between their head being read and their answer being written (or the connection lost).
    let inFlight = Atomic<Int>(0)
    /// Render jobs queued or running.
    let queuedRenders = Atomic<Int>(0)
    /// Open connections.
    let openConnections = Atomic<Int>(0)
    /// Set by ``stop(drainingForSeconds:)``: answers close their connections, new render work gets 503.
    let draining = Atomic<Bool>(false)
    /// When draining ends (uptime nanoseconds): queued render jobs not started by then answer 503.
    let drainDeadline = Atomic<UInt64>(UInt64.max)
    /// Connections per client address.
    let addresses = Mutex<[ClientAddress: Int]>([:])
    private let connectionSerial = Atomic<UInt64>(0)
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
        Self.raiseDescriptorLimit(to: configuration.connectionLimit + 256)
        let (descriptor, boundPort) = try Self.listen(host: configuration.host, port: configuration.port)
        listening = descriptor
        port = boundPort
        for index in 0..<max(1, configuration.networkThreads) {
            let loop: EventLoop
            do { loop = try EventLoop(server: self, listening: descriptor) } catch {
                for loop in loops { loop.close() }
                Glibc.close(descriptor)
                throw .cannotListen(address: "\(configuration.host):\(configuration.port)", detail: "epoll: \(error)")
            }
            loops.append(loop)
            let done = DispatchSemaphore(value: 0)
            threadsDone.append(done)
            let thread = Thread { loop.run(); done.signal() }
            thread.name = "lookaround.http.\(index)"
            thread.start()
        }
    }

    /// Stops: refuses new connections at once, lets requests in flight (render jobs included) finish for
    /// up to `seconds`, then closes every connection. Safe to call more than once.
    public func stop(drainingForSeconds seconds: Double = 10) {
        stopLock.lock()
        defer { stopLock.unlock() }
        guard listening >= 0 else { return }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        drainDeadline.store(deadline, ordering: .sequentiallyConsistent)
        draining.store(true, ordering: .sequentiallyConsistent)
        for loop in loops { loop.stopAccepting() }
        shutdown(listening, Int32(SHUT_RDWR))
        Glibc.close(listening)
        listening = -1
        func waitForRequests(until limit: UInt64) {
            while inFlight.load(ordering: .sequentiallyConsistent) > 0, DispatchTime.now().uptimeNanoseconds < limit { usleep(2_000) }
        }
        waitForRequests(until: deadline)
        // Past the deadline, jobs that have not started answer 503 at once; a running one finishes (its
        // size is bounded), and its answer needs a moment to be written.
        renderQueue.waitUntilAllOperationsAreFinished()
        waitForRequests(until: DispatchTime.now().uptimeNanoseconds + 2_000_000_000)
        for loop in loops { loop.requestStop() }
        for done in threadsDone { done.wait() }
        for loop in loops { loop.close() }
        loops = []
    }

    /// Requests in flight now.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }
    /// Open connections now.
    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }
    /// Render jobs queued or running now.
    public var rendersQueued: Int { queuedRenders.load(ordering: .relaxed) }

    func nextSerial() -> UInt64 { connectionSerial.add(1, ordering: .relaxed).newValue }

    // MARK: Render queue

    /// Runs `work` on a render worker and posts its answer to `loop` for connection `fd` (`serial`
    /// tells a reused descriptor apart); false (and nothing queued) when the queue is full or the
    /// server is draining.
    func enqueue(_ work: @escaping @Sendable () -> HTTPResponse, route: String, loop: EventLoop, fd: Int32, serial: UInt64) -> Bool {
        if draining.load(ordering: .relaxed) { return false }
        let queued = queuedRenders.add(1, ordering: .relaxed).newValue
        guard queued <= configuration.maximumQueuedRenders + configuration.renderWorkers else {
            queuedRenders.subtract(1, ordering: .relaxed)
            return false
        }
        let timeout = configuration.queueTimeoutSeconds
        let enqueued = DispatchTime.now().uptimeNanoseconds
        let server = self
        renderQueue.addOperation {
            let now = DispatchTime.now().uptimeNanoseconds
            let waited = Double(now - enqueued) / 1e9
            let tooLate = waited > timeout || now > server.drainDeadline.load(ordering: .relaxed)
            let response = tooLate ? server.handler.overloaded(route: route, retryAfterSeconds: 2) : work()
            server.queuedRenders.subtract(1, ordering: .relaxed)
            loop.post(fd: fd, serial: serial, response: response)
        }
        return true
    }

    /// Runs `work` on a render worker when one is idle now (no render waits in the queue); otherwise
    /// drops it. Work a client has not asked for yet never delays or displaces work it has.
    func prepare(_ work: @escaping @Sendable () -> Void) {
        if draining.load(ordering: .relaxed) { return }
        let queued = queuedRenders.add(1, ordering: .relaxed).newValue
        guard queued <= configuration.renderWorkers else {
            queuedRenders.subtract(1, ordering: .relaxed)
            return
        }
        let server = self
        renderQueue.addOperation {
            work()
            server.queuedRenders.subtract(1, ordering: .relaxed)
        }
    }

    // MARK: Per-address limit

    /// Counts a new connection from `address`; false (nothing counted) when it holds the most already.
    func admitConnection(from address: ClientAddress) -> Bool {
        let limit = configuration.connectionsPerAddress
        return addresses.withLock { counts in
            let count = counts[address, default: 0]
            guard count < limit else { return false }
            counts[address] = count + 1
            return true
        }
    }

    func releaseConnection(from address: ClientAddress) {
        addresses.withLock { counts in
            let count = counts[address, default: 1] - 1
            counts[address] = count > 0 ? count : nil
        }
    }

    // MARK: Socket set-up

    private static func listen(host: String, port: UInt16) throws(ServiceError) -> (Int32, UInt16) {
        let address = "\(host):\(port)"
        var storage = sockaddr_storage()
        var length: socklen_t
        var family: Int32
        var v4 = in_addr(), v6 = in6_addr()
        if inet_pton(AF_INET, host, &v4) == 1 {
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = port.bigEndian
            socketAddress.sin_addr = v4
            withUnsafeBytes(of: socketAddress) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            (family, length) = (AF_INET, socklen_t(MemoryLayout<sockaddr_in>.size))
        } else if inet_pton(AF_INET6, host, &v6) == 1 {
            var socketAddress = sockaddr_in6()
            socketAddress.sin6_family = sa_family_t(AF_INET6)
            socketAddress.sin6_port = port.bigEndian
            socketAddress.sin6_addr = v6
            withUnsafeBytes(of: socketAddress) { raw in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: raw) } }
            (family, length) = (AF_INET6, socklen_t(MemoryLayout<sockaddr_in6>.size))
        } else {
            throw .cannotListen(address: address, detail: "the address does not parse (give an IPv4 or IPv6 address)")
        }
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw .cannotListen(address: address, detail: String(cString: strerror(errno))) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        guard bound == 0, Glibc.listen(descriptor, 4096) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(descriptor)
            throw .cannotListen(address: address, detail: reason)
        }
        var boundStorage = sockaddr_storage()
        var boundLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &boundStorage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundLength) }
        }
        return (descriptor, ClientAddress.port(of: boundStorage))
    }

    /// A server holds a descriptor per connection: the soft limit is raised towards the hard one.
    private static func raiseDescriptorLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}

/// A client's IP address (the port left out), the key of the per-address limit.
struct ClientAddress: Hashable, Sendable {
    var high: UInt64
    var low: UInt64

    init(_ storage: sockaddr_storage) {
        if Int32(storage.ss_family) == AF_INET6 {
            let v6 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }
            (high, low) = withUnsafeBytes(of: v6.sin6_addr) { raw in
                (raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self), raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
            }
        } else {
            let v4 = withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }
            (high, low) = (0, UInt64(v4.sin_addr.s_addr))
        }
    }

    /// The port of a socket address.
    static func port(of storage: sockaddr_storage) -> UInt16 {
        if Int32(storage.ss_family) == AF_INET6 {
            return UInt16(bigEndian: withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) }.sin6_port)
        }
        return UInt16(bigEndian: withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) }.sin_port)
    }
}
