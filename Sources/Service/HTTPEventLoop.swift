import CLinuxEvents
import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One network thread's epoll loop and the connections it owns.
///
/// Everything but ``post(fd:serial:response:)``, ``requestStop()`` and ``stopAccepting()`` runs on the
/// loop's own thread; those three only touch the mailbox, the eventfd and epoll, which are safe across
/// threads.
final class EventLoop: @unchecked Sendable {
    // @unchecked: the connections, buffers and clocks are confined to the loop's thread (see above);
    // the mailbox is a Mutex, the flags atomics.
    private unowned let server: HTTPServer
    private let epoll: Int32
    private let wake: Int32
    private let listening: Int32
    private var connections: [Connection?] = []
    private let mailbox = Mutex<[(fd: Int32, serial: UInt64, response: HTTPResponse)]>([])
    private let stopping = Atomic<Bool>(false)
    private let scratch: UnsafeMutableRawBufferPointer
    private let events: UnsafeMutablePointer<epoll_event>
    private let eventCapacity = 256
    private var lastSweep: UInt64 = 0
    private var acceptPausedUntil: UInt64 = 0
    private var dateSecond = 0
    private var dateText: [UInt8] = []
    private var configuration: HTTPServerConfiguration { server.configuration }
    private var handler: any HTTPHandler { server.handler }

    /// Bytes of input discarded after a refused request before the connection is closed anyway.
    private static let lingerBytes = 4 << 20
    /// How long a refused request's remaining input is read and discarded, nanoseconds.
    private static let lingerNanoseconds: UInt64 = 2_000_000_000

    private static let listenToken: UInt64 = UInt64.max
    private static let wakeToken: UInt64 = UInt64.max - 1

    struct SetUpFailure: Error, CustomStringConvertible {
        var description: String
    }

    init(server: HTTPServer, listening: Int32) throws {
        self.server = server
        self.listening = listening
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { throw SetUpFailure(description: String(cString: strerror(errno))) }
        wake = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
        guard wake >= 0 else {
            Glibc.close(epoll)
            throw SetUpFailure(description: String(cString: strerror(errno)))
        }
        scratch = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        events = UnsafeMutablePointer<epoll_event>.allocate(capacity: eventCapacity)
        var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: Self.wakeToken))
        epoll_ctl(epoll, EPOLL_CTL_ADD, wake, &event)
        // Every loop waits on the one listening socket; EPOLLEXCLUSIVE wakes one loop per connection.
        event = epoll_event(events: EPOLLIN.rawValue | EPOLLEXCLUSIVE.rawValue, data: epoll_data_t(u64: Self.listenToken))
        epoll_ctl(epoll, EPOLL_CTL_ADD, listening, &event)
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
        epoll_ctl(epoll, EPOLL_CTL_DEL, listening, nil)
    }

    /// Ends the loop: it closes its connections and returns from ``run()``.
    func requestStop() {
        stopping.store(true, ordering: .sequentiallyConsistent)
        signalWake()
    }

    /// Hands a render worker's answer to the loop (any thread).
    func post(fd: Int32, serial: UInt64, response: HTTPResponse) {
        mailbox.withLock { $0.append((fd, serial, response)) }
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
            let now = DispatchTime.now().uptimeNanoseconds
            if count > 0 {
                for index in 0..<Int(count) {
                    let event = events[index]
                    switch event.data.u64 {
                    case Self.listenToken: acceptConnections(now: now)
                    case Self.wakeToken: deliverMail(now: now)
                    default:
                        let fd = Int32(truncatingIfNeeded: event.data.u64)
                        guard let connection = connection(fd) else { continue }
                        if event.events & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0 && event.events & EPOLLIN.rawValue == 0 {
                            closeConnection(connection)
                            continue
                        }
                        if event.events & EPOLLOUT.rawValue != 0 { writable(connection, now: now) }
                        if event.events & EPOLLIN.rawValue != 0, connection.isOpen { readable(connection, now: now) }
                    }
                }
            }
            if now - lastSweep >= 250_000_000 {
                lastSweep = now
                sweep(now: now)
            }
        }
        for index in connections.indices {
            if let connection = connections[index] { closeConnection(connection) }
        }
    }

    private func connection(_ fd: Int32) -> Connection? {
        fd >= 0 && Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    // MARK: Accepting

    private func acceptConnections(now: UInt64) {
        guard now >= acceptPausedUntil else { return }
        for _ in 0..<64 {
            var storage = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept4(listening, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
                }
            }
            if fd < 0 {
                if errno == EMFILE || errno == ENFILE { acceptPausedUntil = now + 100_000_000 }   // out of descriptors: wait
                return
            }
            let address = ClientAddress(storage)
            if server.openConnections.load(ordering: .relaxed) >= configuration.connectionLimit {
                Glibc.close(fd)
                continue
            }
            guard server.admitConnection(from: address) else {
                refuseConnection(fd, now: now)
                continue
            }
            var one: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
            let connection = Connection(fd: fd, serial: server.nextSerial(), address: address, now: now)
            if Int(fd) >= connections.count {
                connections.append(contentsOf: repeatElement(nil, count: Int(fd) + 1 - connections.count + 64))
            }
            connections[Int(fd)] = connection
            var event = epoll_event(events: EPOLLIN.rawValue, data: epoll_data_t(u64: UInt64(fd)))
            epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event)
            connection.interest = EPOLLIN.rawValue
            server.openConnections.add(1, ordering: .relaxed)
        }
    }

    /// One connection too many from an address: a 503 (best effort, nothing read) and close.
    private func refuseConnection(_ fd: Int32, now: UInt64) {
        let error = ServiceError.tooManyConnections(limit: configuration.connectionsPerAddress)
        var response = handler.protocolError(error, path: nil)
        response.headers.append(("Retry-After", "1"))
        let bytes = serialize(response, method: "GET", closing: true, now: now) + response.body
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        _ = recv(fd, scratch.baseAddress, scratch.count, Int32(MSG_DONTWAIT))
        Glibc.close(fd)
        handler.finished(HTTPOutcome(method: "-", path: "-", route: error.code, status: error.httpStatus,
                                     bytes: response.body.count, microseconds: 0, rendered: false))
    }

    // MARK: Reading

    private func readable(_ connection: Connection, now: UInt64) {
        let received = recv(connection.fd, scratch.baseAddress, scratch.count, 0)
        if received == 0 || (received < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            closeConnection(connection)
            return
        }
        guard received > 0 else { return }
        connection.lastActivity = now
        let input = UnsafeRawBufferPointer(rebasing: scratch[0..<received])
        if case .lingering = connection.phase {
            connection.discarded += received
            if connection.discarded > Self.lingerBytes { closeConnection(connection) }
            return
        }
        if connection.inbox.isEmpty {
            let consumed = process(connection, input, now: now)
            if connection.isOpen, consumed < received { connection.inbox.append(contentsOf: input[consumed...]) }
        } else {
            let lineEnded = memchr(input.baseAddress!, 10, received) != nil
            connection.inbox.append(contentsOf: input)
            // A head that is still incomplete is parsed again only once a line ends (a client sending a
            // byte at a time costs a parse per line, not per byte) or it outgrows the request line's limit.
            if case .head = connection.phase, !lineEnded, connection.inbox.count <= configuration.head.requestTargetBytes + 32 { return }
            processInbox(connection, now: now)
        }
    }

    /// Processes what the connection has buffered.
    private func processInbox(_ connection: Connection, now: UInt64) {
        guard !connection.inbox.isEmpty else { return }
        let consumed = connection.inbox.withUnsafeBytes { process(connection, $0, now: now) }
        if connection.isOpen { connection.inbox.removeFirst(consumed) }
    }

    /// Runs `input` through the connection's state machine; returns how many bytes were used (the rest
    /// waits: an incomplete head, or the next pipelined request while this one is answered).
    private func process(_ connection: Connection, _ input: UnsafeRawBufferPointer, now: UInt64) -> Int {
        var offset = 0
        while connection.isOpen, offset < input.count {
            switch connection.phase {
            case .head:
                if connection.requestStarted == nil { connection.requestStarted = now }
                switch HTTPHeadParser.parse(UnsafeRawBufferPointer(rebasing: input[offset...]), limits: configuration.head) {
                case .incomplete:
                    return offset
                case .failed(let error, let path):
                    refuse(connection, error: error, path: path, method: "-", now: now)
                    return input.count
                case .complete(let head, let used):
                    offset += used
                    begin(connection, head: head, now: now)
                }
            case .body:
                offset += readBody(connection, UnsafeRawBufferPointer(rebasing: input[offset...]), now: now)
            case .lingering:
                return input.count
            case .working, .writing:
                return offset
            }
        }
        return offset
    }

    /// A head arrived: admit it, then read its body or answer it.
    private func begin(_ connection: Connection, head: HTTPRequestHead, now: UInt64) {
        connection.head = head
        connection.method = head.method
        connection.path = head.path
        connection.started = connection.requestStarted ?? now
        connection.requestActive = true
        server.inFlight.add(1, ordering: .relaxed)
        let request = head.request()
        switch handler.admit(request) {
        case .refuse(let route, let response):
            connection.route = route
            respond(connection, response, closing: head.hasBody, linger: head.hasBody, now: now)
        case .accept(let limit):
            guard head.hasBody else { return dispatch(connection, request, now: now) }
            if limit == 0 {
                return refuse(connection, error: .unexpectedBody(path: head.path), path: head.path, method: head.method, now: now)
            }
            if let length = head.contentLength, length > limit {
                return refuse(connection, error: .bodyTooLarge(limitBytes: limit), path: head.path, method: head.method, now: now)
            }
            connection.phase = .body
            connection.bodyLimit = limit
            connection.bodyStarted = now
            connection.body = []
            // Grown as the body arrives: a declared length costs nothing until its bytes come.
            connection.body.reserveCapacity(min(head.contentLength ?? 16 * 1024, limit, 64 * 1024))
            connection.chunk = head.isChunked ? .size : .none
            connection.remaining = head.contentLength ?? 0
            if head.expectsContinue {
                let interim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                _ = interim.withUnsafeBytes { send(connection.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
        }
    }

    /// Takes body bytes from `input`; returns how many were used.
    private func readBody(_ connection: Connection, _ input: UnsafeRawBufferPointer, now: UInt64) -> Int {
        guard let head = connection.head else { return input.count }
        var offset = 0
        func tooLarge() -> Int {
            refuse(connection, error: .bodyTooLarge(limitBytes: connection.bodyLimit), path: head.path, method: head.method, now: now)
            return input.count
        }
        func malformed(_ detail: String) -> Int {
            refuse(connection, error: .malformedRequest(detail: detail), path: head.path, method: head.method, now: now)
            return input.count
        }
        while offset < input.count {
            switch connection.chunk {
            case .none:
                let take = min(connection.remaining, input.count - offset)
                connection.body.append(contentsOf: input[offset..<(offset + take)])
                connection.remaining -= take
                offset += take
            case .size, .trailer:
                // A chunk-size line or a trailer line, collected in `line` (bounded).
                guard let end = memchr(input.baseAddress! + offset, 10, input.count - offset) else {
                    connection.line.append(contentsOf: input[offset...])
                    if connection.line.count > 1024 { return malformed("a chunk-size or trailer line is over 1024 bytes") }
                    return input.count
                }
                let lineEnd = input.baseAddress!.distance(to: UnsafeRawPointer(end))
                connection.line.append(contentsOf: input[offset..<lineEnd])
                offset = lineEnd + 1
                if connection.line.last == 13 { connection.line.removeLast() }
                if connection.line.count > 1024 { return malformed("a chunk-size or trailer line is over 1024 bytes") }
                if connection.chunk == .trailer {
                    if connection.line.isEmpty { connection.chunk = .done }
                    connection.line.removeAll(keepingCapacity: true)
                    continue
                }
                let digits = connection.line.prefix { $0 != 59 && $0 != 32 && $0 != 9 }   // extensions after ';' are ignored
                guard !digits.isEmpty, digits.count <= 15, let size = Int(String(decoding: digits, as: UTF8.self), radix: 16),
                      digits.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 | 32 >= 97 && $0 | 32 <= 102) }) else {
                    return malformed("a chunk size is not hexadecimal digits")
                }
                connection.line.removeAll(keepingCapacity: true)
                if size == 0 {
                    connection.chunk = .trailer
                } else {
                    if connection.body.count + size > connection.bodyLimit { return tooLarge() }
                    connection.remaining = size
                    connection.chunk = .data
                }
            case .data:
                let take = min(connection.remaining, input.count - offset)
                connection.body.append(contentsOf: input[offset..<(offset + take)])
                connection.remaining -= take
                offset += take
                if connection.remaining == 0 { connection.chunk = .dataEnd }
            case .dataEnd:
                let byte = input[offset]
                offset += 1
                if byte == 13 { continue }
                guard byte == 10 else { return malformed("a chunk's data is not followed by CRLF") }
                connection.chunk = .size
            case .done:
                break
            }
            if connection.chunk == .done || (connection.chunk == .none && connection.remaining == 0) { break }
        }
        if connection.chunk == .done || (connection.chunk == .none && connection.remaining == 0) {
            let body = connection.body
            connection.body = []
            dispatch(connection, head.request(body: body), now: now)
        }
        return offset
    }

    /// Hands a whole request to the handler.
    private func dispatch(_ connection: Connection, _ request: HTTPRequest, now: UInt64) {
        let (route, disposition) = handler.handle(request)
        connection.route = route
        switch disposition {
        case .respond(let response):
            respond(connection, response, now: now)
        case .respondAndPrepare(let response, let work):
            // Whether a worker is idle is decided before the answer goes out, so a client that has the
            // answer knows the decision was made on the server as it then was.
            server.prepare(work)
            respond(connection, response, now: now)
        case .render(let work):
            connection.rendered = true
            guard server.enqueue(work, route: route, loop: self, fd: connection.fd, serial: connection.serial) else {
                respond(connection, handler.overloaded(route: route, retryAfterSeconds: 1), now: now)
                return
            }
            connection.phase = .working
            setInterest(connection, 0)
        }
    }

    /// Answers a request the HTTP layer refuses; the connection closes after the answer (what is still
    /// coming is read and discarded for a moment, so the client reads the answer instead of a reset).
    private func refuse(_ connection: Connection, error: ServiceError, path: String?, method: String, now: UInt64) {
        if !connection.requestActive {
            connection.requestActive = true
            connection.started = connection.requestStarted ?? now
            server.inFlight.add(1, ordering: .relaxed)
        }
        connection.method = method
        connection.path = path ?? "-"
        connection.route = error.code
        respond(connection, handler.protocolError(error, path: path), closing: true, linger: true, now: now)
    }

    // MARK: Mail from the render workers

    private func deliverMail(now: UInt64) {
        var counter: UInt64 = 0
        _ = read(wake, &counter, 8)
        let letters = mailbox.withLock { letters in
            defer { letters.removeAll(keepingCapacity: true) }
            return letters
        }
        for letter in letters {
            guard let connection = connection(letter.fd), connection.serial == letter.serial, case .working = connection.phase else { continue }
            respond(connection, letter.response, now: now)
            if connection.isOpen, case .head = connection.phase { processInbox(connection, now: now) }
        }
    }

    // MARK: Writing

    /// Queues `response` and writes what the socket takes now.
    private func respond(_ connection: Connection, _ response: HTTPResponse, closing: Bool = false, linger: Bool = false, now: UInt64) {
        let head = connection.head
        let closes = closing || !(head?.keepAlive ?? false) || server.draining.load(ordering: .relaxed)
        let method = connection.method
        connection.output = serialize(response, method: method, closing: closes, http10KeepAlive: head.map { !$0.isHTTP11 } ?? false, now: now)
        connection.outputBody = method == "HEAD" ? [] : response.body
        connection.outputOffset = 0
        connection.closeAfterWrite = closes
        connection.lingerAfterWrite = linger
        connection.phase = .writing
        connection.lastActivity = now
        let elapsed = Int((now &- connection.started) / 1000)
        handler.finished(HTTPOutcome(method: method, path: connection.path, route: connection.route, status: response.status,
                                     bytes: connection.outputBody.count, microseconds: elapsed, rendered: connection.rendered))
        connection.answered = true
        flush(connection, now: now)
    }

    private func writable(_ connection: Connection, now: UInt64) {
        guard case .writing = connection.phase else { return }
        flush(connection, now: now)
        if connection.isOpen, case .head = connection.phase { processInbox(connection, now: now) }
    }

    /// Writes the pending answer; on the whole of it, the connection goes on to the next request (or closes).
    private func flush(_ connection: Connection, now: UInt64) {
        let headCount = connection.output.count
        let total = headCount + connection.outputBody.count
        while connection.outputOffset < total {
            let offset = connection.outputOffset
            let written: Int = connection.output.withUnsafeBytes { headBytes in
                connection.outputBody.withUnsafeBytes { bodyBytes in
                    var vectors = [iovec](repeating: iovec(), count: 2)
                    var used = 0
                    if offset < headCount {
                        vectors[0] = iovec(iov_base: UnsafeMutableRawPointer(mutating: headBytes.baseAddress! + offset), iov_len: headCount - offset)
                        used = 1
                    }
                    let bodyOffset = max(0, offset - headCount)
                    if bodyBytes.count > bodyOffset {
                        vectors[used] = iovec(iov_base: UnsafeMutableRawPointer(mutating: bodyBytes.baseAddress! + bodyOffset),
                                              iov_len: bodyBytes.count - bodyOffset)
                        used += 1
                    }
                    return vectors.withUnsafeMutableBufferPointer { buffer in
                        var message = msghdr()
                        message.msg_iov = buffer.baseAddress
                        message.msg_iovlen = used
                        return sendmsg(connection.fd, &message, Int32(MSG_NOSIGNAL))
                    }
                }
            }
            if written < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    setInterest(connection, EPOLLOUT.rawValue)
                    return
                }
                if errno == EINTR { continue }
                closeConnection(connection)
                return
            }
            connection.outputOffset += written
            connection.lastActivity = now
        }
        finishWrite(connection, now: now)
    }

    private func finishWrite(_ connection: Connection, now: UInt64) {
        endRequest(connection)
        connection.output = []
        connection.outputBody = []
        if connection.closeAfterWrite {
            if connection.lingerAfterWrite {
                shutdown(connection.fd, Int32(SHUT_WR))
                // (What the inbox still holds is discarded with the rest: nothing is processed while lingering.)
                connection.phase = .lingering(until: now + Self.lingerNanoseconds)
                setInterest(connection, EPOLLIN.rawValue)
            } else {
                closeConnection(connection)
            }
            return
        }
        connection.phase = .head
        connection.requestStarted = nil
        connection.head = nil
        connection.rendered = false
        connection.answered = false
        setInterest(connection, EPOLLIN.rawValue)
    }

    /// The request is over (answered, or its connection lost).
    private func endRequest(_ connection: Connection) {
        guard connection.requestActive else { return }
        connection.requestActive = false
        server.inFlight.subtract(1, ordering: .relaxed)
    }

    private func setInterest(_ connection: Connection, _ interest: UInt32) {
        guard connection.interest != interest, connection.isOpen else { return }
        var event = epoll_event(events: interest, data: epoll_data_t(u64: UInt64(connection.fd)))
        epoll_ctl(epoll, EPOLL_CTL_MOD, connection.fd, &event)
        connection.interest = interest
    }

    private func closeConnection(_ connection: Connection) {
        guard connection.isOpen else { return }
        if connection.requestActive && !connection.answered {
            let elapsed = Int((DispatchTime.now().uptimeNanoseconds &- connection.started) / 1000)
            handler.finished(HTTPOutcome(method: connection.method, path: connection.path, route: connection.route, status: 499,
                                         bytes: 0, microseconds: elapsed, rendered: connection.rendered))
        }
        endRequest(connection)
        connection.isOpen = false
        epoll_ctl(epoll, EPOLL_CTL_DEL, connection.fd, nil)
        Glibc.close(connection.fd)
        connections[Int(connection.fd)] = nil
        server.releaseConnection(from: connection.address)
        server.openConnections.subtract(1, ordering: .relaxed)
    }

    // MARK: Deadlines

    /// Enforces the deadlines: a head or body that takes too long is answered 408, a connection that
    /// makes no progress is closed; while draining, idle connections are closed.
    private func sweep(now: UInt64) {
        let idle = UInt64(configuration.connectionTimeoutSeconds) * 1_000_000_000
        let headLimit = UInt64(configuration.headerTimeoutSeconds) * 1_000_000_000
        let bodyLimit = UInt64(configuration.bodyTimeoutSeconds) * 1_000_000_000
        let draining = server.draining.load(ordering: .relaxed)
        for index in connections.indices {
            guard let connection = connections[index] else { continue }
            let quiet = now &- connection.lastActivity
            switch connection.phase {
            case .head:
                if let started = connection.requestStarted {
                    if now &- started > headLimit || quiet > idle {
                        timeOut(connection, seconds: now &- started > headLimit ? configuration.headerTimeoutSeconds
                                                                                   : configuration.connectionTimeoutSeconds, now: now)
                    }
                } else if quiet > idle || draining {
                    closeConnection(connection)
                }
            case .body:
                if now &- connection.bodyStarted > bodyLimit || quiet > idle {
                    timeOut(connection, seconds: now &- connection.bodyStarted > bodyLimit ? configuration.bodyTimeoutSeconds
                                                                                           : configuration.connectionTimeoutSeconds, now: now)
                }
            case .writing:
                if quiet > idle { closeConnection(connection) }
            case .lingering(let until):
                if now > until { closeConnection(connection) }
            case .working:
                break
            }
        }
    }

    /// A 408 and close, without lingering (the client is slow already).
    private func timeOut(_ connection: Connection, seconds: Int, now: UInt64) {
        if !connection.requestActive {
            connection.requestActive = true
            connection.started = connection.requestStarted ?? now
            server.inFlight.add(1, ordering: .relaxed)
        }
        let path = connection.head?.path
        connection.route = ServiceError.requestTimeout(seconds: seconds).code
        if connection.head == nil { connection.method = "-"; connection.path = "-" }
        respond(connection, handler.protocolError(.requestTimeout(seconds: seconds), path: path), closing: true, now: now)
    }

    // MARK: Serialising

    /// The status line and header fields of `response`.
    private func serialize(_ response: HTTPResponse, method: String, closing: Bool, http10KeepAlive: Bool = false, now: UInt64) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        bytes.append(contentsOf: "HTTP/1.1 \(response.status) \(HTTPStatus.reason(response.status))\r\nContent-Type: ".utf8)
        bytes.append(contentsOf: response.contentType.utf8)
        bytes.append(contentsOf: "\r\nContent-Length: \(response.body.count)\r\nDate: ".utf8)
        bytes.append(contentsOf: date())
        bytes.append(contentsOf: "\r\n".utf8)
        for header in response.headers {
            bytes.append(contentsOf: header.name.utf8)
            bytes.append(contentsOf: ": ".utf8)
            bytes.append(contentsOf: header.value.utf8)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        if closing {
            bytes.append(contentsOf: "Connection: close\r\n".utf8)
        } else if http10KeepAlive {
            bytes.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }

    /// The `Date` header's value (RFC 9110 IMF-fixdate), made once a second.
    private func date() -> [UInt8] {
        var seconds = time(nil)
        if Int(seconds) != dateSecond || dateText.isEmpty {
            dateSecond = Int(seconds)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            dateText = buffer[0..<count].map { UInt8(bitPattern: $0) }
        }
        return dateText
    }
}

/// One client connection, owned by one ``EventLoop``.
final class Connection {
    enum Phase {
        /// Waiting for (or reading) a request's head.
        case head
        /// Reading an admitted request's body.
        case body
        /// A render worker has the request.
        case working
        /// An answer is being written.
        case writing
        /// A refused request was answered; what still comes is discarded until the deadline, then close.
        case lingering(until: UInt64)
    }

    /// Where a body's reader is: a `Content-Length` body (`none`), or within the chunked coding.
    enum ChunkState {
        case none, size, data, dataEnd, trailer, done
    }

    let fd: Int32
    let serial: UInt64
    let address: ClientAddress
    var isOpen = true
    var phase = Phase.head
    var interest: UInt32 = 0
    /// Bytes received and not used yet (an incomplete head, or pipelined requests).
    var inbox: [UInt8] = []
    /// Uptime nanoseconds of the last progress (bytes read or written).
    var lastActivity: UInt64
    /// When the current head's first byte arrived; nil between requests.
    var requestStarted: UInt64?
    var started: UInt64 = 0
    var bodyStarted: UInt64 = 0
    var head: HTTPRequestHead?
    var method = "-"
    var path = "-"
    var route = "unknown"
    var rendered = false
    /// Counted in the server's requests in flight.
    var requestActive = false
    /// Its outcome was reported.
    var answered = false
    var body: [UInt8] = []
    var bodyLimit = 0
    var remaining = 0
    var chunk = ChunkState.none
    var line: [UInt8] = []
    var output: [UInt8] = []
    var outputBody: [UInt8] = []
    var outputOffset = 0
    var closeAfterWrite = false
    var lingerAfterWrite = false
    var discarded = 0

    init(fd: Int32, serial: UInt64, address: ClientAddress, now: UInt64) {
        self.fd = fd
        self.serial = serial
        self.address = address
        lastActivity = now
    }
}

/// Reason phrases of the statuses the service sends.
enum HTTPStatus {
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 417: "Expectation Failed"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
