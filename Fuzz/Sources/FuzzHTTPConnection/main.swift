// The HTTP engine's connection state machine (HTTPConnection) and, through it, its parsers
// (HTTPHeadParser, HTTPBodyDecoder), driven without sockets by HTTPConnectionSimulator. The input is a
// script, one operation per byte: the client sends the next 1–32 bytes of the input (read when the
// connection reads: not while a worker has its request or an answer is blocked); the socket takes
// all, none or a few bytes of each write and becomes writable; the clock moves and deadlines run; a
// render worker finishes; the client leaves; the server starts draining; sends fail. After every step
// the connection must hold exactly what its phase says (a request in flight, body bytes of the
// budget), and at the end, closed, nothing. What it wrote must be well-framed HTTP/1.1 answers: each
// with a Date, a Content-Length exactly when it has content (never on 1xx, 204 and 304), and, but for
// HEAD, that many bytes of body. The limits are small so that inputs reach them.
import FuzzSupport
@testable import Service

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConnection(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let script = FuzzInput.bytes(data, size)
    var configuration = HTTPServerConfiguration()
    configuration.head.requestTargetBytes = 96
    configuration.head.headBytes = 256
    configuration.head.headerFields = 8
    configuration.head.queryParameters = 4
    configuration.head.chunkLineBytes = 24
    configuration.bodyBudgetBytes = 100
    configuration.lingerBytes = 200
    let handler = HTTPSimulatedHandler()
    let network = HTTPConnectionSimulator(configuration: configuration, handler: handler)
    network.queueLimit = 2
    let connection = network.connect()
    // What the client sent and the connection has not read: as the loop does, it reads only while its
    // phase asks for input (`interest`); the rest waits, as in the kernel's socket buffer.
    var unread: [UInt8] = []
    func deliver() {
        guard !unread.isEmpty, !connection.isClosed, connection.readsInput else { return }
        // At most 64 bytes a read (the loop's reads are bounded by its buffer likewise).
        let bytes = unread.prefix(64)
        unread.removeFirst(bytes.count)
        bytes.withUnsafeBytes { connection.received($0, network) }
    }
    var index = 0
    while index < script.count, !connection.isClosed {
        let operation = script[index], argument = Int(operation >> 3)
        index += 1
        switch operation & 7 {
        case 0, 1, 2, 3:
            let count = min(argument + 1, script.count - index)
            unread += script[index..<(index + count)]
            index += count
        case 4:
            network.sendCapacity = [nil, 0, 1, 7][argument % 4]
            connection.writable(network)
        case 5:
            network.now += UInt64(argument) * 700_000_000
            connection.checkDeadlines(network)
        case 6:
            network.finishWork(connection)
        default:
            switch argument % 4 {
            case 0: connection.peerLeft(network)
            case 1: network.isDraining = true
            case 2: network.sendFails = true
            default: connection.close(network)
            }
        }
        deliver()
        check(connection, network, configuration)
    }
    connection.close(network)
    precondition(network.inFlight == 0, "\(network.inFlight) requests in flight after close")
    precondition(network.bodyBudget.bytesInUse == 0, "\(network.bodyBudget.bytesInUse) body bytes held after close")
    checkFraming(network.written, handler.outcomes.withLock { $0 })
    return 0
}

/// What the phase carries is what the connection holds.
func check(_ connection: HTTPConnection, _ network: HTTPConnectionSimulator, _ configuration: HTTPServerConfiguration) {
    var inFlight = 1, bodyBytes = 0
    switch connection.phase {
    case .body(let exchange, let reader): bodyBytes = exchange.bodyBytes + reader.reserved
    case .working(let exchange, _): bodyBytes = exchange.bodyBytes
    case .writing(let exchange, _, let then):
        bodyBytes = exchange.bodyBytes
        if case .readBody(let reader) = then { bodyBytes += reader.reserved }
    case .idle, .head, .lingering, .closed: inFlight = 0
    }
    precondition(network.inFlight == inFlight, "\(network.inFlight) requests in flight in phase \(connection.phase)")
    precondition(network.bodyBudget.bytesInUse == bodyBytes, "budget \(network.bodyBudget.bytesInUse), phase holds \(bodyBytes)")
    precondition(bodyBytes <= configuration.bodyBudgetBytes)
    precondition(connection.inbox.count <= configuration.head.headBytes + 64, "inbox of \(connection.inbox.count) bytes")
}

/// Checks the answers written, in order, against the outcomes reported (a 499 wrote nothing). Bytes,
/// not text: an echoed body need not be UTF-8.
func checkFraming(_ bytes: [UInt8], _ outcomes: [(status: Int, method: String)]) {
    var rest = bytes[...]
    var answered = outcomes.filter { $0.status != 499 }[...]
    let separator: [UInt8] = [13, 10, 13, 10]
    while !rest.isEmpty {
        // Cut off by a failed send or a close: what was written ends here.
        guard let headEnd = rest.indices.dropLast(3).first(where: { rest[$0..<($0 + 4)].elementsEqual(separator) }) else { return }
        let head = String(decoding: rest[..<headEnd], as: UTF8.self)
        rest = rest[(headEnd + 4)...]
        let lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        precondition(lines[0].hasPrefix("HTTP/1.1 "), "status line \(lines[0])")
        let status = Int(lines[0].split(separator: " ")[1])!
        let fields = lines.dropFirst().map { $0.lowercased() }
        precondition(fields.contains { $0.hasPrefix("date: ") } || status == 100, "no Date in \(lines)")
        let length = fields.first { $0.hasPrefix("content-length: ") }.map { Int($0.dropFirst(16))! }
        if status < 200 { continue }   // 100 Continue: no outcome
        let outcome = answered.popFirst()
        precondition(outcome?.status == status, "wrote \(status), reported \(String(describing: outcome))")
        if status == 204 || status == 304 {
            precondition(length == nil && !fields.contains { $0.hasPrefix("content-type") }, "\(status) with \(fields)")
            continue
        }
        guard let length else { preconditionFailure("no Content-Length in \(lines)") }
        if outcome?.method == "HEAD" { continue }
        rest = rest.dropFirst(length)
    }
}

@_cdecl("FuzzHTTPConnection_main")
public func fuzzHTTPConnectionMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzConnection)
}
