import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An HTTP/1.1 server on epoll: keep-alive, pipelining, strict framing, bounded heads and bodies,
/// deadlines and a per-address connection limit; every request goes to an ``HTTPHandler``.
///
/// It is built of small parts, each with one job, as swift-nio is: the listener (``HTTPListener``)
/// takes connections; each network thread runs an event loop (``EventLoop``) that owns its connections
/// and turns epoll events into calls on them; a connection (``HTTPConnection``) is a state machine
/// whose phase carries everything about its request; the parsers (``HTTPHeadParser``,
/// ``HTTPBodyDecoder``) frame bytes and know nothing of sockets; the response writer
/// (``HTTPResponseWriter``) frames answers. Render work runs on a bounded queue here; its answer comes
/// back through the loop's mailbox (an eventfd wakes it). ``stop(drainingForSeconds:)`` stops
/// gracefully: no new connections, requests in flight finish.
///
/// A running server cannot be dropped: its loops hold it until ``stop(drainingForSeconds:)`` has ended
/// them (a server whose last reference goes while it runs keeps serving; it never frees what its
/// threads still use).
///
/// libmicrohttpd served here before; it could not do what a service facing hostile clients needs: its
/// own errors (malformed requests, 414, 431, an absurd `Content-Length`) were HTML, a head whose
/// parameters overflowed its pool got no answer at all, its timeout counted idle time only (a byte
/// every few seconds held a connection forever), its per-address limit closed without an answer, and
/// the path and query reached the handler already decoded (a `%00` truncated them).
// @unchecked Sendable: `loops` and `threadsDone` are written by `init` before any loop thread runs and
// by `stop()` (under `stopLock`) after every loop thread has ended (it waits for them); in between the
// loops only read them. The rest is immutable or atomic.
public final class HTTPServer: @unchecked Sendable {
    /// The port listened on (what port 0 became).
    public let port: UInt16
    /// The address listened on.
    public let host: String
    let configuration: HTTPServerConfiguration
    let handler: any HTTPHandler
    let bodyBudget: HTTPBodyBudget
    private let renderQueue: OperationQueue
    private let listener: HTTPListener
    private var loops: [EventLoop] = []
    private var threadsDone: [DispatchSemaphore] = []
    private var stopped = false
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
    private let addresses = Mutex<[ClientAddress: Int]>([:])
    private let stopLock = NSLock()

    /// Starts listening.
    /// - Throws: `ServiceError.cannotListen` when the address does not parse or cannot be bound.
    public init(configuration: HTTPServerConfiguration, handler: any HTTPHandler) throws(ServiceError) {
        self.configuration = configuration
        self.handler = handler
        host = configuration.host
        bodyBudget = HTTPBodyBudget(limitBytes: configuration.bodyBudgetBytes)
        renderQueue = OperationQueue()
        renderQueue.maxConcurrentOperationCount = max(1, configuration.renderWorkers)
        renderQueue.name = "lookaround.render"
        Self.raiseDescriptorLimit(to: configuration.connectionLimit + 256)
        listener = try HTTPListener.open(host: configuration.host, port: configuration.port, backlog: configuration.listenBacklog)
        port = listener.port
        // Every loop is made before any thread starts: a failure leaves nothing running.
        for _ in 0..<max(1, configuration.networkThreads) {
            do { loops.append(try EventLoop(server: self, listener: listener)) } catch {
                for loop in loops { loop.close() }
                loops = []
                Glibc.close(listener.descriptor)
                throw .cannotListen(address: "\(configuration.host):\(configuration.port)", detail: "epoll: \(error)")
            }
        }
        for (index, loop) in loops.enumerated() {
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
        guard !stopped else { return }
        stopped = true
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, seconds) * 1e9)
        drainDeadline.store(deadline, ordering: .sequentiallyConsistent)
        draining.store(true, ordering: .sequentiallyConsistent)
        for loop in loops { loop.stopAccepting() }
        shutdown(listener.descriptor, Int32(SHUT_RDWR))
        Glibc.close(listener.descriptor)
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
        // The loops held the server; now nothing running does.
        loops = []
    }

    /// Requests in flight now.
    public var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }
    /// Open connections now.
    public var connectionCount: Int { openConnections.load(ordering: .relaxed) }
    /// Render jobs queued or running now.
    public var rendersQueued: Int { queuedRenders.load(ordering: .relaxed) }
    /// Bytes of request bodies held now (see ``HTTPServerConfiguration/bodyBudgetBytes``).
    public var bodyBytesHeld: Int { bodyBudget.bytesInUse }

    // MARK: Render queue

    /// Runs `work` on a render worker and posts its answer to `loop` for `ticket`; false (and nothing
    /// queued) when the queue is full or the server is draining.
    func enqueue(_ work: @escaping @Sendable () -> HTTPResponse, route: String, loop: EventLoop, ticket: HTTPTicket) -> Bool {
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
            let response = tooLate ? server.handler.overloaded(route: route, retryAfterSeconds: server.configuration.retryAfterSeconds) : work()
            server.queuedRenders.subtract(1, ordering: .relaxed)
            loop.post(ticket, response)
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

    /// A server holds a descriptor per connection: the soft limit is raised towards the hard one.
    private static func raiseDescriptorLimit(to wanted: Int) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < rlim_t(wanted) else { return }
        limit.rlim_cur = min(limit.rlim_max, rlim_t(wanted))
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
