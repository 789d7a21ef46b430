import Dispatch
import Foundation
import Synchronization

// Clients that try to take `lookaround serve` down (issue: the service under hostile clients), for the
// `service` section's figures and the soak. Each connects from its own loopback address (127.0.0.2 and
// up: another client to the server, whose per-address limit then counts it apart from wrk on
// 127.0.0.1), is bounded in connections and seconds, and talks to 127.0.0.1 only.

/// A plain TCP connection to 127.0.0.1 from a chosen loopback address.
final class RawSocket {
    let descriptor: Int32

    init?(port: UInt16, source: String, timeoutSeconds: Int = 5) {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var from = sockaddr_in()
        from.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, source, &from.sin_addr)
        var to = sockaddr_in()
        to.sin_family = sa_family_t(AF_INET)
        to.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &to.sin_addr)
        let size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &from) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, size) } }
        let connected = withUnsafePointer(to: &to) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, size) } }
        guard bound == 0, connected == 0 else {
            close(descriptor)
            return nil
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) } == bytes.count
    }

    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// What has arrived, without waiting; nil when nothing has (or the connection is gone: see `isClosed`).
    func available() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// Reads one whole response on a keep-alive connection (its head, then `Content-Length` bytes of
    /// body); its status and body length, nil when the connection ended or timed out first. `pending`
    /// carries bytes read past the response over to the next call.
    func response(pending: inout [UInt8]) -> (status: Int, bodyBytes: Int)? {
        var buffer = [UInt8](repeating: 0, count: 65536)
        func more() -> Bool {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return false }
            pending += buffer[0..<count]
            return true
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            if pending.count >= 4 { headEnd = (0...(pending.count - 4)).first { pending[$0..<$0 + 4].elementsEqual(separator) } }
            if headEnd == nil && !more() { return nil }
        }
        let head = String(decoding: pending[0..<headEnd!], as: UTF8.self)
        let lines = head.split(separator: "\r\n")
        guard let first = lines.first, let status = Int(first.split(separator: " ").dropFirst().first ?? "") else { return nil }
        let length = lines.dropFirst().compactMap { line -> Int? in
            let parts = line.split(separator: ":", maxSplits: 1)
            return parts.count == 2 && parts[0].lowercased() == "content-length" ? Int(parts[1].trimmingCharacters(in: .whitespaces)) : nil
        }.first ?? 0
        let total = headEnd! + 4 + length
        while pending.count < total { if !more() { return nil } }
        pending.removeFirst(total)
        return (status, length)
    }

    /// Reads until the status line arrived (or the timeout); the status, nil when none came.
    func status() -> Int? {
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !text.contains("\r\n") {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return nil }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        let parts = text.split(separator: " ")
        return parts.count > 1 ? Int(parts[1]) : nil
    }
}

/// One `GET path` on a fresh connection from `source`: the status and the seconds to it.
func timedGet(port: UInt16, path: String, source: String) -> (status: Int?, seconds: Double) {
    let start = DispatchTime.now().uptimeNanoseconds
    guard let socket = RawSocket(port: port, source: source) else { return (nil, 0) }
    socket.send("GET \(path) HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
    let status = socket.status()
    return (status, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
}

/// `count` connections from `source`, each sending the start of a head, then a byte of it every
/// `intervalSeconds` (what slowloris does), until `stop()`; connections the server closes are reopened.
final class TricklingClients: @unchecked Sendable {
    // @unchecked: the sockets are touched by the trickling thread only; `stopped` is atomic.
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    let opened = Atomic<Int>(0)
    let answered = Atomic<Int>(0)

    init(port: UInt16, count: Int, source: String, intervalSeconds: Double) {
        Thread.detachNewThread { [self] in
            var sockets: [RawSocket?] = []
            func open() -> RawSocket? {
                guard let socket = RawSocket(port: port, source: source) else { return nil }
                socket.send("GET /v1/health HTTP/1.1\r\nHost: bench\r\n")
                opened.add(1, ordering: .relaxed)
                return socket
            }
            for _ in 0..<count where !stopped.load(ordering: .relaxed) { sockets.append(open()) }
            while !stopped.load(ordering: .relaxed) {
                for index in sockets.indices {
                    // A socket the server answered (503 too many, 408 too slow) is replaced by a new one.
                    if let socket = sockets[index], socket.available() == nil, socket.send("X") { continue }
                    if sockets[index] != nil { answered.add(1, ordering: .relaxed) }
                    sockets[index] = open()
                }
                Thread.sleep(forTimeInterval: intervalSeconds)
            }
            sockets.removeAll()
            done.signal()
        }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        done.wait()
    }
}

/// `count` connections spread over `addresses` loopback addresses (127.0.1.x), each declaring a 1 MiB
/// body on a route that does not exist, sending 64 KiB of it and holding the socket; the statuses
/// that came back.
func holdBodies(port: UInt16, count: Int, addresses: Int) -> (sockets: [RawSocket], statuses: [Int: Int]) {
    let chunk = [UInt8](repeating: 120, count: 64 * 1024)
    var sockets: [RawSocket] = []
    for index in 0..<count {
        guard let socket = RawSocket(port: port, source: "127.0.1.\(1 + index % addresses)") else { continue }
        socket.send("POST /nonexistent HTTP/1.1\r\nHost: bench\r\nContent-Length: 1048576\r\n\r\n")
        socket.send(chunk)
        sockets.append(socket)
    }
    var statuses: [Int: Int] = [:]
    for socket in sockets { statuses[socket.status() ?? 0, default: 0] += 1 }
    return (sockets, statuses)
}

/// Requests that break the protocol or its limits, one of each, from `source`: each status.
func malformedRequests(port: UInt16, source: String) -> [(name: String, status: Int?)] {
    let parameters = String(repeating: "&a=1", count: 300)
    let cases: [(String, String)] = [
        ("300 query parameters", "GET /v1/scene?lat=60.1699&lon=24.9523\(parameters) HTTP/1.1\r\nHost: b\r\n\r\n"),
        ("two Content-Lengths", "POST /v1/scenes HTTP/1.1\r\nHost: b\r\nContent-Length: 5\r\nContent-Length: 60\r\n\r\nhello"),
        ("Content-Length and chunked", "POST /v1/scenes HTTP/1.1\r\nHost: b\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n"),
        ("%00 in the path", "GET /v1/panoramas/senaatintori-005%00.jpg HTTP/1.1\r\nHost: b\r\n\r\n"),
        ("a 20-digit Content-Length", "POST /v1/scenes HTTP/1.1\r\nHost: b\r\nContent-Length: 12345678901234567890\r\n\r\n"),
        ("a 40 KB header", "GET /v1/health HTTP/1.1\r\nHost: b\r\nX-Pad: \(String(repeating: "p", count: 40_000))\r\n\r\n"),
        ("not HTTP", "HELLO\r\n\r\n"),
    ]
    return cases.map { name, raw in
        guard let socket = RawSocket(port: port, source: source) else { return (name, nil) }
        socket.send(raw)
        return (name, socket.status())
    }
}

/// The `service` section's hostile-client figures, on a running server.
func runHostileClientFigures(server: ServedProcess) {
    let port = server.port
    func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
    print("")
    print("   hostile clients (each from its own loopback address; the server's defaults: 256 connections an address, "
          + "heads within 10 s)")
    // 1. Slow senders: 2100 connections from one address, a byte each every 2 s, for 12 s.
    let trickle = TricklingClients(port: port, count: 2100, source: "127.0.0.3", intervalSeconds: 2)
    Thread.sleep(forTimeInterval: 2)
    var latencies: [Double] = []
    var failures = 0
    let end = DispatchTime.now().uptimeNanoseconds + 10_000_000_000
    while DispatchTime.now().uptimeNanoseconds < end {
        let (status, seconds) = timedGet(port: port, path: "/v1/health", source: "127.0.0.2")
        if status == 200 { latencies.append(seconds * 1000) } else { failures += 1 }
        Thread.sleep(forTimeInterval: 0.1)
    }
    trickle.stop()
    latencies.sort()
    if !latencies.isEmpty {
        print(String(format: "   2100 trickling connections from 127.0.0.3: /v1/health from 127.0.0.2, %d probes over 10 s: "
                     + "median %.2f ms, slowest %.2f ms, %d failed (goal: each within 100 ms); %d trickling connections opened, %d answered by the server",
                     latencies.count, latencies[latencies.count / 2], latencies.last!, failures,
                     trickle.opened.load(ordering: .relaxed), trickle.answered.load(ordering: .relaxed)))
    }
    // 2. Held bodies: 1000 connections (4 addresses), 1 MiB declared on an unknown route.
    Thread.sleep(forTimeInterval: 1)
    let before = server.residentBytes
    var held = holdBodies(port: port, count: 1000, addresses: 4)
    let during = server.residentBytes
    let statuses = held.statuses.sorted { $0.key < $1.key }.map { "\($0.value)× \($0.key)" }.joined(separator: ", ")
    held.sockets.removeAll()
    Thread.sleep(forTimeInterval: 3)
    let after = server.residentBytes
    print(String(format: "   1000 held 1 MiB bodies on an unknown route: answered %@; RSS %.1f -> %.1f MiB (%+.1f; goal < 50), "
                 + "%.1f MiB 3 s after they closed (%+.1f %%; goal within 10 %%)",
                 statuses, megabytes(before), megabytes(during), megabytes(during - before), megabytes(after),
                 Double(after - before) / Double(max(1, before)) * 100))
    // 3. One of each malformed request.
    let answers = malformedRequests(port: port, source: "127.0.0.5").map { "\($0.name) \($0.status.map(String.init) ?? "none")" }
    print("   malformed: " + answers.joined(separator: "; "))
}

/// Sends all of `bytes` on a non-blocking socket within `seconds` (the server may be slow to read);
/// whether all went.
@discardableResult
func sendAll(_ socket: RawSocket, _ bytes: [UInt8], seconds: Double) -> Bool {
    var offset = 0
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    while offset < bytes.count, DispatchTime.now().uptimeNanoseconds < end {
        let sent = bytes.withUnsafeBytes { Foundation.send(socket.descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
        if sent > 0 { offset += sent } else if sent < 0 && errno != EAGAIN { return false } else { usleep(1_000) }
    }
    return offset == bytes.count
}

/// `count` connections from `source` each streaming empty lines (CRLF) for at most `seconds`, or until
/// the server closes on them; how many were answered 400.
func endlessEmptyLines(port: UInt16, count: Int, source: String, seconds: Double) -> Int {
    let chunk = [UInt8](repeating: 0, count: 16 * 1024).indices.map { UInt8($0 % 2 == 0 ? 13 : 10) }
    let sockets = (0..<count).compactMap { _ in RawSocket(port: port, source: source, timeoutSeconds: 3) }
    let end = DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9)
    var open = sockets
    while !open.isEmpty, DispatchTime.now().uptimeNanoseconds < end {
        open = open.filter { $0.send(chunk) || errno == EAGAIN }
        usleep(1_000)
    }
    return sockets.filter { $0.status() == 400 }.count
}

/// Heads over the limits from `source`: `count` with a 40 KB header (431) and `count` with a 20 KB
/// target (414); how many got those answers.
func hugeHeads(port: UInt16, count: Int, source: String) -> Int {
    var answered = 0
    for index in 0..<(2 * count) {
        guard let socket = RawSocket(port: port, source: source) else { continue }
        let head = index % 2 == 0 ? "GET /v1/health HTTP/1.1\r\nHost: b\r\nX-Pad: \(String(repeating: "p", count: 40_000))\r\n\r\n"
                                  : "GET /v1/search?q=\(String(repeating: "q", count: 20_000)) HTTP/1.1\r\nHost: b\r\n\r\n"
        sendAll(socket, Array(head.utf8), seconds: 2)
        if let status = socket.status(), status == 431 || status == 414 { answered += 1 }
    }
    return answered
}

/// `count` connections from `source` that declare a 1 MiB batch on `POST /v1/scenes` (a route that
/// takes bodies), send 100 KiB of it and close.
func abandonedBodies(port: UInt16, count: Int, source: String) {
    let part = [UInt8](repeating: 10, count: 100 * 1024)
    for _ in 0..<count {
        guard let socket = RawSocket(port: port, source: source) else { continue }
        socket.send("POST /v1/scenes HTTP/1.1\r\nHost: b\r\nContent-Type: text/csv\r\nContent-Length: 1048576\r\n\r\n")
        sendAll(socket, part, seconds: 1)
    }
}

/// `count` connections over 127.0.1.1–4 that declare a 1 MiB batch on `POST /v1/scenes` and send all
/// of it but the last byte, pressing on the server's body budget; the sockets (to hold) and the
/// statuses answered at once (503 beyond the budget).
func budgetPressure(port: UInt16, count: Int) -> (sockets: [RawSocket], statuses: [Int: Int]) {
    let body = [UInt8](repeating: 10, count: (1 << 20) - 1)
    var all: [RawSocket] = []
    for index in 0..<count {
        guard let socket = RawSocket(port: port, source: "127.0.1.\(1 + index % 4)") else { continue }
        socket.send("POST /v1/scenes HTTP/1.1\r\nHost: b\r\nContent-Type: text/csv\r\nContent-Length: 1048576\r\n\r\n")
        sendAll(socket, body, seconds: 1)
        all.append(socket)
    }
    // Answers take a moment to arrive: sorted once all were sent.
    Thread.sleep(forTimeInterval: 0.3)
    var sockets: [RawSocket] = []
    var statuses: [Int: Int] = [:]
    for socket in all {
        if let answer = socket.available(), let status = Int(String(decoding: answer.prefix(12).dropFirst(9), as: UTF8.self)) {
            statuses[status, default: 0] += 1
        } else {
            sockets.append(socket)
        }
    }
    return (sockets, statuses)
}

/// Hostile clients running beside the soak's normal load until `stop()`, each kind from its own
/// loopback address: slow senders the whole time; in rounds, held bodies on an unknown route, bodies
/// pressing on the body budget, abandoned bodies, endless empty lines, huge heads, malformed requests.
final class HostileMix: @unchecked Sendable {
    // @unchecked: the state is the atomics; the thread owns its sockets.
    private let stopped = Atomic<Bool>(false)
    private let done = DispatchSemaphore(value: 0)
    let rounds = Atomic<Int>(0)
    /// Bodies refused 503 beyond the budget, and held within it, over all rounds.
    let budgetRefused = Atomic<Int>(0)
    let budgetHeld = Atomic<Int>(0)
    /// Empty-line floods and huge heads answered (400, 431/414).
    let floodsRefused = Atomic<Int>(0)
    let hugeHeadsRefused = Atomic<Int>(0)

    init(port: UInt16) {
        Thread.detachNewThread { [self] in
            let trickle = TricklingClients(port: port, count: 600, source: "127.0.0.3", intervalSeconds: 3)
            while !stopped.load(ordering: .relaxed) {
                var held = holdBodies(port: port, count: 300, addresses: 2)
                var pressing = budgetPressure(port: port, count: 100)
                budgetRefused.add(pressing.statuses[503, default: 0], ordering: .relaxed)
                budgetHeld.add(pressing.sockets.count, ordering: .relaxed)
                abandonedBodies(port: port, count: 20, source: "127.0.0.8")
                floodsRefused.add(endlessEmptyLines(port: port, count: 8, source: "127.0.0.6", seconds: 0.5), ordering: .relaxed)
                hugeHeadsRefused.add(hugeHeads(port: port, count: 5, source: "127.0.0.7"), ordering: .relaxed)
                _ = malformedRequests(port: port, source: "127.0.0.5")
                Thread.sleep(forTimeInterval: 2)
                held.sockets.removeAll()
                pressing.sockets.removeAll()
                rounds.add(1, ordering: .relaxed)
                Thread.sleep(forTimeInterval: 1)
            }
            trickle.stop()
            done.signal()
        }
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        done.wait()
    }
}
