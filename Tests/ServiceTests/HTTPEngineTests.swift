import Dispatch
import Foundation
@testable import Service
import Synchronization
import Testing
import TestSupport

/// The HTTP engine's protocol fixes, each against a running server (the gated handler of
/// ``HTTPServerTests``, or the service), and its state machine driven by ``HTTPConnectionSimulator``
/// where a socket cannot be made to misbehave on cue.
@Suite struct HTTPEngineTests {
    typealias Handler = HTTPServerTests.GatedHandler

    static func start(_ handler: Handler, _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.renderWorkers = 1
        configuration.maximumQueuedRenders = 4
        configure(&configuration)
        return try HTTPServer(configuration: configuration, handler: handler)
    }

    /// A new handler, a server on it (``start(_:_:)``'s settings, changed by `configure`) and a client
    /// connected to it with `timeoutSeconds` for every read. The caller stops the server.
    static func startWithClient(timeoutSeconds: Double = 10, _ configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws
        -> (handler: Handler, server: HTTPServer, client: RawHTTPClient) {
        let handler = Handler()
        let server = try start(handler, configure)
        return (handler, server, try RawHTTPClient(port: server.port, timeoutSeconds: timeoutSeconds))
    }

    /// Waits (at most 5 s) until `condition` holds.
    static func eventually(_ condition: () -> Bool) -> Bool {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }

    @Test func anHTTP11RequestWithoutHostIsRefused() throws {
        let client = try ServiceFixture.client(timeoutSeconds: 10)
        try client.send("GET /v1/health HTTP/1.1\r\n\r\n")
        let answer = try client.readResponse()
        #expect(answer.status == 400)
        #expect(answer.text.contains("Host"), "\(answer.text)")
        #expect(client.isClosedByServer())
        // HTTP/1.0 has no Host requirement.
        let old = try ServiceFixture.client(timeoutSeconds: 10)
        try old.send("GET /v1/health HTTP/1.0\r\n\r\n")
        #expect(try old.readResponse().status == 200)
    }

    @Test func noContentAndNotModifiedAnswersCarryNoLengthOrType() throws {
        let (_, server, client) = try Self.startWithClient()
        defer { server.stop(drainingForSeconds: 1) }
        // Pipelined: were a length or a body sent, the third answer would be misread.
        try client.send("GET /nocontent HTTP/1.1\r\nHost: x\r\n\r\nGET /notmodified HTTP/1.1\r\nHost: x\r\n\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
        for status in [204, 304] {
            let answer = try client.readResponse()
            #expect(answer.status == status)
            #expect(answer.header("content-length") == nil, "\(status): \(answer.headers)")
            #expect(answer.header("content-type") == nil, "\(status): \(answer.headers)")
            #expect(answer.header("date") != nil)
        }
        #expect(try client.readResponse().text == "fast GET ")
        // The service's own 304 (a tile asked for again with its ETag).
        let path = "/v1/panoramas/senaatintori-005/tiles/0/0/0.jpg"
        let tile = try ServiceFixture.get(path)
        let etag = try #require(tile.header("etag"))
        let again = try ServiceFixture.get(path, headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.header("content-length") == nil && again.header("etag") == etag)
        #expect(tile.header("content-length") == "\(tile.body.count)")
    }

    @Test func emptyLinesBeforeARequestAreSkippedUpToALimit() throws {
        let (_, server, client) = try Self.startWithClient()
        defer { server.stop(drainingForSeconds: 1) }
        try client.send("\r\nGET /fast HTTP/1.1\r\nHost: x\r\n\r\n\r\n\r\n\r\n\r\nGET /fast?second HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        #expect(try client.readResponse().text == "fast GET second=")
        // An endless stream of them is refused at once, not skipped until a deadline.
        let flood = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        let clock = ContinuousClock.now
        try? flood.send([UInt8](repeating: 0, count: 32_768).indices.map { $0 % 2 == 0 ? 13 : 10 })
        let answer = try flood.readResponse()
        #expect(answer.status == 400 && answer.text == "malformed_request")
        #expect(ContinuousClock.now - clock < .seconds(2))
        #expect(flood.isClosedByServer())
    }

    @Test func bodiesShareABudgetAnd503BeyondIt() throws {
        let handler = Handler()
        let server = try Self.start(handler) {
            $0.bodyBudgetBytes = 64_000
            $0.maximumBodyBytes = 40_000
        }
        defer { server.stop(drainingForSeconds: 1) }
        func held(_ sent: Int, of length: Int) throws -> RawHTTPClient {
            let client = try RawHTTPClient(port: server.port)
            try client.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \(length)\r\n\r\n")
            try client.send([UInt8](repeating: 65, count: sent))
            return client
        }
        let first = try held(25_000, of: 30_000)
        #expect(Self.eventually { server.bodyBytesHeld == 25_000 })
        var second: RawHTTPClient? = try held(25_000, of: 30_000)
        #expect(Self.eventually { server.bodyBytesHeld == 50_000 })
        // A declared body that does not fit is refused before it is sent.
        let third = try held(0, of: 30_000)
        let refused = try third.readResponse()
        #expect(refused.status == 503 && refused.header("retry-after") == "1" && refused.header("connection") == "close")
        // A chunked body is refused when it outgrows the budget.
        let chunked = try RawHTTPClient(port: server.port)
        try chunked.send("POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        try? chunked.send(Array("2710\r\n".utf8) + [UInt8](repeating: 66, count: 10_000) + Array("\r\n2710\r\n".utf8)
                          + [UInt8](repeating: 66, count: 10_000))
        #expect(try chunked.readResponse().status == 503)
        // A body that completes is answered; the budget gets back what the answered and the lost held.
        try first.send([UInt8](repeating: 65, count: 5_000))
        let answered = try first.readResponse()
        #expect(answered.status == 200 && answered.body.count == 30_000, "\(answered.status) \(answered.text.prefix(100))")
        #expect(Self.eventually { server.bodyBytesHeld == 25_000 })
        second = nil
        #expect(second == nil && Self.eventually { server.bodyBytesHeld == 0 })
        #expect(try RawHTTPClient(port: server.port).post("/upload", body: [UInt8](repeating: 67, count: 40_000)).status == 200)
        #expect(handler.outcomes.withLock { $0.contains { $0.path == "/upload" && $0.status == 499 } })
    }

    @Test func aServerDroppedWhileRunningKeepsServingUntilStopped() throws {
        let handler = Handler()
        weak var dropped: HTTPServer?
        var port: UInt16 = 0
        do {
            let server = try Self.start(handler)
            (dropped, port) = (server, server.port)
        }
        #expect(dropped != nil, "a running server is held by its loops")
        #expect(try RawHTTPClient(port: port).get("/fast").status == 200)
        dropped?.stop(drainingForSeconds: 1)
        #expect(Self.eventually { dropped == nil }, "a stopped server is let go")
    }

    @Test func manyPipelinedRequestsAreAnsweredInOrder() throws {
        let (_, server, client) = try Self.startWithClient(timeoutSeconds: 20)
        defer { server.stop(drainingForSeconds: 1) }
        let count = 3_000
        let requests = (0..<count).map { "GET /fast?i=\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
        let sent = DispatchSemaphore(value: 0)
        nonisolated(unsafe) let sender = client   // its send and the reads below touch different state
        Thread.detachNewThread {
            try? sender.send(requests)
            sent.signal()
        }
        var inOrder = 0
        for index in 0..<count where (try? client.readResponse())?.text == "fast GET i=\(index)" { inOrder += 1 }
        #expect(inOrder == count)
        #expect(sent.wait(timeout: .now() + 10) == .success)
    }

    @Test func workPastItsDeadlineIs503AndItsLateAnswerDropped() throws {
        let (handler, server, client) = try Self.startWithClient { $0.workTimeoutSeconds = 1 }
        defer { server.stop(drainingForSeconds: 1) }
        let clock = ContinuousClock.now
        let late = try client.get("/slow")
        #expect(late.status == 503 && late.header("retry-after") == "1")
        #expect(ContinuousClock.now - clock < .seconds(3))
        // The connection goes on; the worker's answer, when it comes, answers nothing.
        #expect(try client.get("/fast").text == "fast GET ")
        handler.gate.signal()
        #expect(try client.get("/fast?after").text == "fast GET after=")
    }

    @Test func aClientThatLeavesWhileItsWorkRunsIsNoticed() throws {
        let handler = Handler()
        let server = try Self.start(handler)
        defer { server.stop(drainingForSeconds: 1) }
        var client: RawHTTPClient? = try RawHTTPClient(port: server.port)
        try client?.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(handler.started.wait(timeout: .now() + 10) == .success)
        client = nil
        // Seen while the worker still runs (EPOLLRDHUP), not when its answer fails to go out.
        #expect(client == nil)
        #expect(Self.eventually { handler.outcomes.withLock { $0.contains { $0.route == "slow" && $0.status == 499 } } })
        #expect(Self.eventually { server.requestsInFlight == 0 && server.connectionCount == 0 })
        handler.gate.signal()
    }

    // MARK: The state machine, simulated

    @Test func aBlockedInterimAnswerIsWrittenBeforeTheBodyIsRead() {
        let network = HTTPConnectionSimulator(handler: HTTPSimulatedHandler())
        let connection = network.connect()
        network.sendCapacity = 0
        network.client(connection, sends: "POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        // The socket took nothing: the 100 waits, and so does the body (it is not read as a request).
        guard case .writing(_, _, .readBody) = connection.phase else { Issue.record("phase \(connection.phase)"); return }
        network.client(connection, sends: "hello")
        #expect(network.takeWritten().isEmpty)
        network.sendCapacity = 3
        connection.writable(network)
        network.sendCapacity = nil
        connection.writable(network)
        let written = network.takeWritten()
        #expect(written.hasPrefix("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n"), "\(written)")
        #expect(written.hasSuffix("\r\n\r\nhello"))
        #expect(network.inFlight == 0)
    }

    @Test func aStaleTokenNamesNoConnection() {
        var table = HTTPConnectionTable()
        let address = ClientAddress(high: 0, low: 1)
        let first = HTTPConnection(socket: 9, token: table.nextToken(for: 9), address: address, now: 0)
        table.insert(first, interest: 0)
        #expect(table.connection(first.token) === first)
        let removed = table.remove(first)
        #expect(removed)
        // The descriptor is reused by the next connection: the old token must not reach it.
        let second = HTTPConnection(socket: 9, token: table.nextToken(for: 9), address: address, now: 0)
        table.insert(second, interest: 0)
        #expect(table.connection(first.token) == nil)
        #expect(table.connection(second.token) === second)
        let removedAgain = table.remove(first)
        #expect(!removedAgain)
    }
}
