import CLinuxEvents
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One network thread's epoll loop: it turns events into calls on the connections it owns, takes
/// connections from the listener, delivers render workers' answers and runs the deadlines. What a
/// connection does with them is the connection's (``HTTPConnection``); the loop is its context.
///
/// Everything but ``post(_:_:)``, ``requestStop()`` and ``stopAccepting()`` runs on the loop's own
/// thread; those three only touch the mailbox, the eventfd and epoll, which are safe across threads.
// @unchecked Sendable: the connections, buffers and clocks are confined to the loop's thread (see above);
// the mailbox is a Mutex, the flags atomics.
final class EventLoop: @unchecked Sendable {

    /// Strong: a running loop keeps its server alive (it is let go when ``HTTPServer/stop(drainingForSeconds:)`` ends the loop).
    let server: HTTPServer
    private let epoll: Int32
    private let wake: Int32
    private let listener: HTTPListener
    private var connections = HTTPConnectionTable()
    private let mailbox = Mutex<[(ticket: HTTPTicket, response: HTTPResponse)]>([])
    private let stopping = Atomic<Bool>(false)
    private let scratch: UnsafeMutableRawBufferPointer
    private let events: UnsafeMutablePointer<epoll_event>
    private let eventCapacity = 256
    private var lastSweep: UInt64 = 0
    /// While out of descriptors: when the listener goes back into the loop (nil: it is in).
    private var acceptPausedUntil: UInt64?
    private(set) var now: UInt64 = 0
    private var writer = HTTPResponseWriter()

    private static let listenToken: UInt64 = UInt64.max
    private static let wakeToken: UInt64 = UInt64.max - 1
    private static let sweepNanoseconds: UInt64 = 250_000_000

    struct SetUpFailure: Error, CustomStringConvertible {
        var description: String
    }

    init(server: HTTPServer, listener: HTTPListener) throws {
        self.server = server
        self.listener = listener
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SetUpFailure(description: String(cString: strerror(errno))) }
        wake = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wake >= 0 else {
            Glibc.close(epoll)
            throw SetUpFailure(description: String(cString: strerror(errno)))
        }
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: server.configuration.readBufferBytes, alignment: 16)
        events = UnsafeMutablePointer<epoll_event>.allocate(capacity: eventCapacity)
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.wakeToken))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event)
        addListener()
    }

    /// Frees the loop's descriptors and buffers (after its thread ended).
    func close() {
        Glibc.close(epoll)
        Glibc.close(wake)
        scratch.deallocate()
        events.deallocate()
    }

    /// Takes the listening socket out of this loop (stop: no new connections).
    func stopAccepting() {
        epoll_ctl(epoll, EPOLL_CTL_DEL, listener.descriptor, nil)
    }

    /// Ends the loop: it closes its connections and returns from ``run()``.
    func requestStop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        signalWake()
    }

    /// Hands a render worker's answer to the loop (any thread).
    func post(_ ticket: HTTPTicket, _ response: HTTPResponse) {
        mailbox.withLock { $0.append((ticket, response)) }
        signalWake()
    }

    private func signalWake() {
        var one: UInt64 = 1
        _ = write(wake, &one, 8)
    }

    // MARK: The loop

    func run() {
        while !stopping.load(ordering: .relaxed) {
            let count = epoll_wait(epoll, events, Int32(eventCapacity), 250)
            if count < 0 && errno != EINTR { break }   // the loop's epoll is gone (a server that failed to start)
            now = DispatchTime.now().uptimeNanoseconds
            for index in 0..<Int(max(0, count)) {
                let event = events[index]
                switch event.data.u64 {
                case Self.listenToken: acceptConnections()
                case Self.wakeToken: deliverMail()
                default: handle(event.events, token: event.data.u64)
                }
            }
            if now - lastSweep >= Self.sweepNanoseconds {
                lastSweep = now
                sweep()
            }
        }
        for index in 0..<connections.capacity {
            guard let connection = connections.connection(at: index) else { continue }
            connection.close(self)
            settle(connection)
        }
    }

    private func handle(_ events: UInt32, token: UInt64) {
        // A stale token (its connection closed earlier in this batch, the descriptor maybe reused) names nothing.
        guard let connection = connections.connection(token) else { return }
        if events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && events & EPOLLIN.rawValue == 0 {
            connection.close(self)
        } else {
            if events & EPOLLOUT.rawValue != 0 { connection.writable(self) }
            if events & EPOLLIN.rawValue != 0 {
                read(connection)
            } else if events & EPOLLRDHUP.rawValue != 0 {
                connection.peerLeft(self)
            }
        }
        settle(connection)
    }

    private func read(_ connection: HTTPConnection) {
        let received = recv(connection.socket, scratch.baseAddress, scratch.count, 0)
        if received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            return connection.close(self)
        }
        guard received > 0 else { return }
        connection.received(UnsafeRawBufferPointer(rebasing: scratch[0..<received]), self)
    }

    /// After a connection handled something: forgets it when it closed, else registers the events its
    /// phase now waits for.
    private func settle(_ connection: HTTPConnection) {
        if connection.isClosed {
            guard connections.remove(connection) else { return }
            epoll_ctl(epoll, EPOLL_CTL_DEL, connection.socket, nil)
            Glibc.close(connection.socket)
            server.releaseConnection(from: connection.address)
            server.openConnections.subtract(1, ordering: .relaxed)
            return
        }
        let interest = connection.interest
        guard connections.interest(of: connection) != interest else { return }
        var event = epoll_event(events: interest, data: epoll_data_t(u64: connection.token))
        epoll_ctl(epoll, EPOLL_CTL_MOD, connection.socket, &event)
        connections.setInterest(interest, of: connection)
    }

    // MARK: Accepting

    private func acceptConnections() {
        for _ in 0..<64 {
            switch listener.accept() {
            case .none:
                return
            case .failed:
                continue
            case .outOfDescriptors:
                // The connection waits in the kernel's queue, and a level-triggered listener would wake
                // this loop for it at once, again and again: the listener leaves the loop for a while.
                stopAccepting()
                acceptPausedUntil = now + UInt64(server.configuration.acceptPauseMilliseconds) * 1_000_000
                return
            case .connection(let fd, let address):
                if server.openConnections.load(ordering: .relaxed) >= server.configuration.connectionLimit {
                    Glibc.close(fd)
                    continue
                }
                guard server.admitConnection(from: address) else {
                    refuseConnection(fd)
                    continue
                }
                let connection = HTTPConnection(socket: fd, token: connections.nextToken(for: fd), address: address, now: now)
                connections.insert(connection, interest: connection.interest)
                var event = epoll_event(events: connection.interest, data: epoll_data_t(u64: connection.token))
                epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
                server.openConnections.add(1, ordering: .relaxed)
            }
        }
    }

    private func addListener() {
        // Every loop waits on the one listening socket; EPOLLEXCLUSIVE wakes one loop per connection.
        var event = epoll_event(events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, data: epoll_data_t(u64: Self.listenToken))
        epoll_ctl(epoll, EPOLL_CTL_ADD, listener.descriptor, &event)
    }

    /// One connection too many from an address: a 503 (best effort, nothing read) and close.
    private func refuseConnection(_ fd: Int32) {
        let configuration = server.configuration
        let error = ServiceError.tooManyConnections(limit: configuration.connectionsPerAddress)
        var response = server.handler.protocolError(error, path: nil)
        response.headers.append(("Retry-After", "\(configuration.retryAfterSeconds)"))
        let bytes = responseHead(response, method: "GET", closing: true, http10KeepAlive: false) + response.body
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        _ = recv(fd, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT))
        Glibc.close(fd)
        server.handler.finished(HTTPOutcome(method: "-", path: "-", route: error.code, status: error.httpStatus,
                                            bytes: response.body.count, microseconds: 0, rendered: false))
    }

    // MARK: Mail and deadlines

    private func deliverMail() {
        var counter: UInt64 = 0
        _ = Glibc.read(wake, &counter, 8)
        let letters = mailbox.withLock { letters in
            defer { letters.removeAll(keepingCapacity: true) }
            return letters
        }
        for letter in letters {
            guard let connection = connections.connection(letter.ticket.token) else { continue }
            connection.workDone(request: letter.ticket.request, letter.response, self)
            settle(connection)
        }
    }

    /// Runs every connection's deadlines; puts the listener back once a pause for descriptors is over.
    private func sweep() {
        if let until = acceptPausedUntil, now >= until {
            acceptPausedUntil = nil
            if !server.draining.load(ordering: .relaxed) { addListener() }
        }
        for index in 0..<connections.capacity {
            guard let connection = connections.connection(at: index) else { continue }
            connection.checkDeadlines(self)
            settle(connection)
        }
    }
}

extension EventLoop: HTTPConnectionContext {
    var configuration: HTTPServerConfiguration { server.configuration }
    var handler: any HTTPHandler { server.handler }
    var isDraining: Bool { server.draining.load(ordering: .relaxed) }
    var bodyBudget: HTTPBodyBudget { server.bodyBudget }

    func requestBegan() { server.inFlight.add(1, ordering: .relaxed) }
    func requestEnded() { server.inFlight.subtract(1, ordering: .relaxed) }

    func enqueue(_ work: @escaping @Sendable () -> HTTPResponse, route: String, ticket: HTTPTicket) -> Bool {
        server.enqueue(work, route: route, loop: self, ticket: ticket)
    }

    func prepare(_ work: @escaping @Sendable () -> Void) { server.prepare(work) }

    func send(_ socket: Int32, _ head: UnsafeRawBufferPointer, _ body: UnsafeRawBufferPointer) -> HTTPSendResult {
        func vector(_ part: UnsafeRawBufferPointer) -> iovec {
            iovec(iov_base: UnsafeMutableRawPointer(mutating: part.baseAddress), iov_len: part.count)
        }
        var vectors = (vector(head), vector(body))
        var used = 2
        if head.isEmpty {
            vectors.0 = vectors.1
            used = 1
        }
        if body.isEmpty { used -= 1 }
        while true {
            let written = withUnsafeMutablePointer(to: &vectors) { pointer in
                pointer.withMemoryRebound(to: iovec.self, capacity: 2) { iov in
                    var message = msghdr()
                    message.msg_iov = iov
                    message.msg_iovlen = used
                    return sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
                }
            }
            if written >= 0 { return .wrote(written) }
            if errno == EINTR { continue }
            return errno == EAGAIN || errno == EWOULDBLOCK ? .wouldBlock : .failed
        }
    }

    func shutdownWrite(_ socket: Int32) { shutdown(socket, Int32(SHUT_WR)) }

    func responseHead(_ response: HTTPResponse, method: String, closing: Bool, http10KeepAlive: Bool) -> [UInt8] {
        writer.head(response, method: method, closing: closing, http10KeepAlive: http10KeepAlive, now: time(nil))
    }
}
