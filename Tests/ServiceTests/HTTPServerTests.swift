import Dispatch
import Foundation
import Service
import Synchronization
import Testing
import TestSupport

/// The HTTP layer alone, with a handler whose render work waits for the test: the render queue's
/// bound (503 at once), graceful shutdown with a request in flight, slow clients, bodies.
@Suite struct HTTPServerTests {
    /// Answers `/fast` at once, `/slow` on a render worker once the test opens the gate, echoes bodies.
    final class GatedHandler: HTTPHandler {
        let gate = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let prepared = DispatchSemaphore(value: 0)
        let outcomes = Mutex<[HTTPOutcome]>([])

        func handle(_ request: HTTPRequest) -> (route: String, disposition: HTTPDisposition) {
            switch request.path {
            case "/slow":
                return ("slow", .render { [gate, started] in
                    started.signal()
                    gate.wait()
                    return HTTPResponse(contentType: "text/plain", body: Array("done".utf8))
                })
            case "/echo", "/upload":
                return ("echo", .respond(HTTPResponse(contentType: "application/octet-stream", body: request.body)))
            case "/nocontent":
                return ("nocontent", .respond(HTTPResponse(status: 204, contentType: "text/plain", body: [])))
            case "/notmodified":
                return ("notmodified", .respond(HTTPResponse(status: 304, contentType: "image/jpeg", headers: [("ETag", "\"v1\"")], body: [])))
            case "/prepare":
                return ("prepare", .respondAndPrepare(HTTPResponse(contentType: "text/plain", body: Array("page".utf8)), prepare: { [prepared] in
                    prepared.signal()
                }))
            default:
                let query = request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
                return ("fast", .respond(HTTPResponse(contentType: "text/plain", body: Array("fast \(request.method) \(query)".utf8))))
            }
        }

        func overloaded(route: String, retryAfterSeconds: Int) -> HTTPResponse {
            HTTPResponse(status: 503, contentType: "text/plain", headers: [("Retry-After", "\(retryAfterSeconds)")], body: Array("busy".utf8))
        }

        func admit(_ head: HTTPRequest) -> HTTPAdmission {
            if head.path == "/refused" { return .refuse(route: "refused", HTTPResponse(status: 403, contentType: "text/plain", body: [])) }
            return .accept(maximumBodyBytes: head.path == "/echo" ? 1000 : head.path == "/upload" ? 40_000 : 0)
        }

        func protocolError(_ error: ServiceError, path: String?) -> HTTPResponse {
            HTTPResponse(status: error.httpStatus, contentType: "text/plain", body: Array(error.code.utf8))
        }

        func finished(_ outcome: HTTPOutcome) { outcomes.withLock { $0.append(outcome) } }
    }

    static func start(_ handler: GatedHandler, queue: Int = 0, timeoutSeconds: Int = 15) throws -> HTTPServer {
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.renderWorkers = 1
        configuration.maximumQueuedRenders = queue
        configuration.connectionTimeoutSeconds = timeoutSeconds
        configuration.maximumBodyBytes = 1000
        return try HTTPServer(configuration: configuration, handler: handler)
    }

    /// A new handler, a server on it (``start(_:queue:timeoutSeconds:)``'s settings) and a client
    /// connected to it. The caller stops the server.
    static func startWithClient() throws -> (handler: GatedHandler, server: HTTPServer, client: RawHTTPClient) {
        let handler = GatedHandler()
        let server = try start(handler)
        return (handler, server, try RawHTTPClient(port: server.port))
    }

    @Test func queryArgumentsArriveDecoded() throws {
        let handler = GatedHandler()
        let server = try Self.start(handler)
        defer { server.stop(drainingForSeconds: 1) }
        let response = try RawHTTPClient(port: server.port).get("/fast?location=46.414382%2C10.013988&q=a+b&plus=%2B&amp=%26")
        #expect(response.text == "fast GET location=46.414382,10.013988&q=a b&plus=+&amp=&")
    }

    @Test func aFullRenderQueueAnswers503AtOnceWhileCheapRoutesKeepAnswering() throws {
        let handler = GatedHandler()
        let server = try Self.start(handler, queue: 0)
        defer { server.stop(drainingForSeconds: 5) }
        let first = BackgroundHTTPRequest(path: "/slow", port: server.port)
        #expect(handler.started.wait(timeout: .now() + 10) == .success, "the first render started")
        // The only worker is busy and no job may wait: the next render is refused at once.
        let clock = ContinuousClock.now
        let refused = try RawHTTPClient(port: server.port).get("/slow")
        #expect(refused.status == 503)
        #expect(refused.header("retry-after") == "1")
        #expect(ContinuousClock.now - clock < .seconds(2))
        // Cheap routes are answered on the network threads meanwhile.
        #expect(try RawHTTPClient(port: server.port).get("/fast").status == 200)
        handler.gate.signal()
        let answer = try #require(first.wait())
        #expect(answer.status == 200 && answer.text == "done")
        #expect(handler.outcomes.withLock { $0.contains { $0.route == "slow" && $0.status == 503 } })
    }

    /// Work that prepares what a client will ask for (a page's first frame) runs on an idle worker after
    /// the answer, and is dropped, never queued, while every worker is busy.
    @Test func preparedWorkRunsOnlyOnAnIdleWorker() throws {
        let handler = GatedHandler()
        let server = try Self.start(handler, queue: 4)
        defer { server.stop(drainingForSeconds: 5) }
        #expect(try RawHTTPClient(port: server.port).get("/prepare").text == "page")
        #expect(handler.prepared.wait(timeout: .now() + 10) == .success, "the prepared work ran")
        // The only worker busy: the page is answered, its work dropped (and the slow render still answered).
        let slow = BackgroundHTTPRequest(path: "/slow", port: server.port)
        #expect(handler.started.wait(timeout: .now() + 10) == .success)
        #expect(try RawHTTPClient(port: server.port).get("/prepare").text == "page")
        handler.gate.signal()
        #expect(slow.wait()?.status == 200)
        #expect(handler.prepared.wait(timeout: .now() + 0.5) == .timedOut, "work prepared while the worker was busy was dropped")
        #expect(server.rendersQueued == 0)
    }

    @Test func stopLetsTheRequestInFlightFinishAndRefusesNewConnections() throws {
        let handler = GatedHandler()
        let server = try Self.start(handler, queue: 4)
        let port = server.port
        let inFlight = BackgroundHTTPRequest(path: "/slow", port: port)
        #expect(handler.started.wait(timeout: .now() + 10) == .success)
        let stopped = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            server.stop(drainingForSeconds: 20)
            stopped.signal()
        }
        // Stop waits for the request in flight.
        #expect(stopped.wait(timeout: .now() + 0.5) == .timedOut)
        // New connections are refused at once (the listening socket is shut).
        Thread.sleep(forTimeInterval: 0.1)
        #expect {
            _ = try RawHTTPClient(port: port, timeoutSeconds: 2).get("/fast")
        } throws: { error in
            // Refused or closed at once; a timeout would mean the stopping server still took it.
            switch error as? RawHTTPClient.Failure {
            case .connect?, .closed?: true
            default: false
            }
        }
        handler.gate.signal()
        let answer = try #require(inFlight.wait())
        #expect(answer.status == 200 && answer.text == "done")
        #expect(answer.header("connection")?.lowercased() == "close")
        #expect(stopped.wait(timeout: .now() + 10) == .success)
        #expect(server.requestsInFlight == 0)
    }

    @Test func aSlowClientIsCutOffWithoutHoldingUpOthers() throws {
        let handler = GatedHandler()
        let server = try Self.start(handler, timeoutSeconds: 1)
        defer { server.stop(drainingForSeconds: 1) }
        let slow = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        try slow.send("GET /fast HTTP/1.1\r\nHost: x\r\n")   // headers never finished
        #expect(try RawHTTPClient(port: server.port).get("/fast").status == 200)
        let clock = ContinuousClock.now
        // Answered 408 (the head stalled for the timeout), then closed.
        let answer = try slow.readResponse()
        #expect(answer.status == 408 && answer.text == "request_timeout")
        #expect(slow.isClosedByServer())
        #expect(ContinuousClock.now - clock < .seconds(4))
    }

    @Test func aHeadTrickledInMustArriveWithinItsDeadline() throws {
        let handler = GatedHandler()
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.connectionTimeoutSeconds = 30
        configuration.headerTimeoutSeconds = 1
        let server = try HTTPServer(configuration: configuration, handler: handler)
        defer { server.stop(drainingForSeconds: 1) }
        let slow = try RawHTTPClient(port: server.port, timeoutSeconds: 5)
        let clock = ContinuousClock.now
        // A byte every 0.2 s: never idle for the 30 s timeout, but the head takes longer than 1 s.
        for byte in Array("GET /fast HTTP/1.1\r\nHost: x\r\n".utf8) {
            guard (try? slow.send([byte])) != nil, slow.receivedWithoutWaiting() == nil else { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        #expect(ContinuousClock.now - clock < .seconds(4), "the trickle was cut off")
        #expect(handler.outcomes.withLock { $0.contains { $0.route == "request_timeout" && $0.status == 408 } })
    }

    @Test func aRefusedRequestsBodyIsNeverRead() throws {
        let (handler, server, client) = try Self.startWithClient()
        defer { server.stop(drainingForSeconds: 1) }
        try client.send("POST /refused HTTP/1.1\r\nHost: x\r\nContent-Length: 900\r\n\r\n")
        let answer = try client.readResponse()
        #expect(answer.status == 403)
        #expect(answer.header("connection") == "close")
        #expect(handler.outcomes.withLock { $0.contains { $0.route == "refused" && $0.status == 403 } })
    }

    @Test func bodiesArriveWholeUpToTheLimit() throws {
        let (_, server, client) = try Self.startWithClient()
        defer { server.stop(drainingForSeconds: 1) }
        let body = (0..<1000).map { UInt8($0 % 251) }
        #expect(try client.post("/echo", body: body).body == body)
        #expect(try client.post("/echo", body: body + [1]).status == 413)
    }

    @Test func aBusyAddressIsAClearError() throws {
        let handler = GatedHandler()
        let server = try Self.start(handler)
        defer { server.stop(drainingForSeconds: 1) }
        var configuration = HTTPServerConfiguration()
        configuration.port = server.port
        #expect(throws: ServiceError.cannotListen(address: "127.0.0.1:\(server.port)", detail: "Address already in use")) {
            try HTTPServer(configuration: configuration, handler: handler)
        }
        configuration.host = "not-an-address"
        #expect(throws: ServiceError.cannotListen(address: "not-an-address:\(server.port)",
                                                  detail: "the address does not parse (give an IPv4 or IPv6 address)")) {
            try HTTPServer(configuration: configuration, handler: handler)
        }
    }
}
