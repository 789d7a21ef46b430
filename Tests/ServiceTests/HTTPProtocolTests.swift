import Foundation
import Service
import Testing
import TestSupport

/// The HTTP layer against clients that break the protocol or its limits, on the service's real routes:
/// each is answered with the JSON error shape (Google's on its routes) and the right status, at once,
/// and what is ambiguous (request smuggling) is refused rather than guessed.
@Suite struct HTTPProtocolTests {
    /// Sends `raw` on a fresh connection and reads one answer.
    static func exchange(_ raw: String) throws -> RawHTTPClient.Response {
        let client = try ServiceFixture.client(timeoutSeconds: 10)
        try client.send(raw)
        return try client.readResponse()
    }

    /// The native error shape: `{"error": {"code", "message", "parameter"}}`.
    static func errorCode(_ response: RawHTTPClient.Response) throws -> String? {
        #expect(response.header("content-type") == "application/json", "\(response.text.prefix(200))")
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect((error["message"] as? String)?.isEmpty == false)
        return error["code"] as? String
    }

    @Test func manyQueryParametersAreAJSON414AtOnce() throws {
        let query = (0..<300).map { _ in "&a=1" }.joined()
        let clock = ContinuousClock.now
        let response = try ServiceFixture.get("/v1/scene?lat=60.1699&lon=24.9523" + query)
        #expect(ContinuousClock.now - clock < .seconds(5))
        #expect(response.status == 414)
        #expect(try Self.errorCode(response) == "uri_too_long")
        #expect(response.text.contains("256 parameters"))
        // 200 pins on /v1/map are within the limit: the route answers (here: its own validation).
        let pins = (0..<200).map { "&pin=60.17\($0 % 10),24.95" }.joined()
        #expect(try ServiceFixture.get("/v1/scene?lat=60.1699&lon=24.9523" + pins).status != 414)
    }

    @Test(arguments: [
        ("two different Content-Length", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 60\r\n\r\nhello", 400),
        ("Content-Length in a list", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: 5, 60\r\n\r\nhello", 400),
        ("Content-Length and chunked", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("a coding other than chunked", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("chunked twice", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n", 400),
        ("chunked in HTTP/1.0", "POST /v1/scenes HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        ("a folded header", "GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Long: a\r\n b\r\n\r\n", 400),
        ("space before the colon", "GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length : 5\r\n\r\nhello", 400),
        ("a bare CR in a value", "GET /v1/health HTTP/1.1\r\nHost: x\rX-Smuggled: 1\r\n\r\n", 400),
        ("two Host headers", "GET /v1/health HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", 400),
        ("Content-Length not digits", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: +5\r\n\r\nhello", 400),
        ("a 20-digit Content-Length", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: 12345678901234567890\r\n\r\n", 413),
        ("a request line that is not one", "GARBAGE\r\n\r\n", 400),
        ("HTTP/2.0 in the request line", "GET /v1/health HTTP/2.0\r\n\r\n", 505),
        ("an Expect we do not know", "POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 200-ok\r\n\r\n[]", 417),
    ])
    func ambiguousFramingIsRefusedWithJSONAndTheConnectionClosed(name: String, raw: String, status: Int) throws {
        let client = try ServiceFixture.client(timeoutSeconds: 10)
        try client.send(raw)
        let response = try client.readResponse()
        #expect(response.status == status, "\(name): \(response.status) \(response.text.prefix(200))")
        #expect(try Self.errorCode(response) != nil, "\(name)")
        #expect(response.header("connection") == "close", "\(name)")
        #expect(client.isClosedByServer(), "\(name)")
    }

    @Test func nulAndControlCharactersAreRefusedWhereverTheyAre() throws {
        for path in ["/v1/panoramas/senaatintori-005%00.jpg", "/v1/panoramas/senaatintori-005%0a.jpg",
                     "/v1/scene?lat=60.1699&lon=24.9523&key=GOOD%00garbage", "/v1/scene?lat=60.1699%0d&lon=24.9523",
                     "/v1/scene?lat=60.1699&lon=24.9523&%00=1", "/v1/search?q=Stockmann%ZZ", "/v1/search?q=%C3%28"] {
            let response = try ServiceFixture.get(path)
            #expect(response.status == 400, "\(path): \(response.status)")
            #expect(try Self.errorCode(response) != nil, "\(path)")
        }
        // Raw bytes that must be percent-encoded: a space in the target, a byte over 127.
        #expect(try Self.exchange("GET /v1/health?x=a b HTTP/1.1\r\nHost: x\r\n\r\n").status == 400)
        #expect(try Self.exchange("GET /v1/health?x=\u{e9} HTTP/1.1\r\nHost: x\r\n\r\n").status == 400)
    }

    @Test func headsOverTheirLimitsAreJSON414And431() throws {
        let longTarget = try ServiceFixture.get("/v1/search?q=" + String(repeating: "a", count: 20_000))
        #expect(longTarget.status == 414)
        #expect(try Self.errorCode(longTarget) == "uri_too_long")
        let longHeader = try ServiceFixture.get("/v1/health", headers: ["X-Padding": String(repeating: "b", count: 40_000)])
        #expect(longHeader.status == 431)
        #expect(try Self.errorCode(longHeader) == "headers_too_large")
        var manyFields: [String: String] = [:]
        for index in 0..<120 { manyFields["X-Field-\(index)"] = "1" }
        let many = try ServiceFixture.get("/v1/health", headers: manyFields)
        #expect(many.status == 431)
        // On Google's routes the same limit answers in Google's shape.
        let streetView = try ServiceFixture.get("/maps/api/streetview?size=64x64&location=" + String(repeating: "1", count: 20_000))
        #expect(streetView.status == 414)
        #expect(streetView.header("content-type")?.hasPrefix("application/json") == false)
    }

    @Test func aRouteThatTakesNoBodyRefusesOneWithoutReadingIt() throws {
        let client = try ServiceFixture.client(timeoutSeconds: 10)
        try client.send("GET /v1/health HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n")
        try client.send([UInt8](repeating: 120, count: 10_000))
        let response = try client.readResponse()
        #expect(response.status == 413)
        #expect(try Self.errorCode(response) == "unexpected_body")
        // A body over the batch route's limit is refused before it is sent (the fixture's limit is 64 KiB).
        let batch = try Self.exchange("POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: 70000\r\n\r\n")
        #expect(batch.status == 413)
        #expect(try Self.errorCode(batch) == "body_too_large")
    }

    @Test func chunkedBodiesPipelinedRequestsAndHTTP10AreServed() throws {
        let client = try ServiceFixture.client(timeoutSeconds: 10)
        let json = #"[{"lat":60.1699,"lon":24.9523}]"#
        let first = String(json.prefix(10)), second = String(json.dropFirst(10))
        try client.send("POST /v1/scenes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + String(first.utf8.count, radix: 16) + ";ext=1\r\n" + first + "\r\n"
                        + String(second.utf8.count, radix: 16) + "\r\n" + second + "\r\n0\r\nTrailer: x\r\n\r\n")
        let chunked = try client.readResponse()
        #expect(chunked.status == 200, "\(chunked.text.prefix(200))")
        #expect(chunked.text.contains("senaatintori-005"))
        // Three requests in one write come back as three answers, in order, on the same connection.
        try client.send("GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\nGET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n"
                        + "GET /v1/scene?lat=60.1699&lon=24.9523 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        #expect(try client.readResponse().status == 404)
        let scene = try client.readResponse()
        #expect(scene.status == 200 && scene.text.contains("\"found\":true"))
        // A malformed request pipelined behind one that goes to a render worker is answered after it.
        let render = try ServiceFixture.client(timeoutSeconds: 30)
        try render.send("GET /v1/snapshot?scene=senaatintori-005&size=64x48 HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n")
        #expect(try render.readResponse().status == 200)
        #expect(try render.readResponse().status == 400)
        #expect(render.isClosedByServer())
        // HTTP/1.0 closes after the answer unless it asks to keep the connection.
        let old = try ServiceFixture.client(timeoutSeconds: 10)
        try old.send("GET /v1/health HTTP/1.0\r\n\r\n")
        #expect(try old.readResponse().status == 200)
        #expect(old.isClosedByServer())
        let kept = try ServiceFixture.client(timeoutSeconds: 10)
        try kept.send("GET /v1/health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readResponse().header("connection") == "keep-alive")
        try kept.send("GET /v1/health HTTP/1.0\r\n\r\n")
        #expect(try kept.readResponse().status == 200)
    }

    @Test func expectContinueGetsAnInterimAnswerOrTheRefusal() throws {
        let client = try ServiceFixture.client(timeoutSeconds: 10)
        let json = #"[{"lat":60.1699,"lon":24.9523}]"#
        try client.send("POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: \(json.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
        let interim = try client.readResponse()
        #expect(interim.status == 100)
        try client.send(json)
        #expect(try client.readResponse().status == 200)
        // A refused route answers at once, without the interim answer: the client never sends the body.
        let refused = try ServiceFixture.client(timeoutSeconds: 10)
        try refused.send("POST /nowhere HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
        #expect(try refused.readResponse().status == 404)
    }
}
