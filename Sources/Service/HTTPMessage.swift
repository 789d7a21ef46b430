import Foundation

/// One HTTP request as the service's routes see it: method, percent-decoded path, decoded query
/// arguments in the order given, the few headers routes read, and the body.
public struct HTTPRequest: Sendable {
    /// `GET`, `HEAD` or `POST` (other methods never reach a route; `OPTIONS` is answered before).
    public var method: String
    /// The path without the query string, percent-decoded (`/v1/scene`); never holds a NUL or another control character.
    public var path: String
    /// Query arguments, decoded (`%2C` → `,`, `+` → space), in order; a name may repeat. Neither names nor
    /// values hold a NUL or another control character (the HTTP layer refuses those requests).
    public var query: [(name: String, value: String)]
    /// The request headers routes read, by lower-cased name: `if-none-match`, `x-api-key`, `authorization`,
    /// `content-type`, `accept`, `accept-encoding`, `host`, `x-forwarded-proto`, the CORS
    /// preflight's `origin`, `access-control-request-method` and `-headers`, and the viewport's client
    /// hints `sec-ch-viewport-width`, `sec-ch-viewport-height`, `sec-ch-dpr` (the server keeps only these;
    /// the single-valued ones given twice are refused, list headers given twice are joined with `, `).
    public var headers: [String: String]
    /// The body (POST), at most the configured limit.
    public var body: [UInt8]

    /// A request from its parts (tests and the server).
    public init(method: String = "GET", path: String, query: [(name: String, value: String)] = [],
                headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// The last value of query argument `name`, nil when absent.
    public func argument(_ name: String) -> String? { query.last { $0.name == name }?.value }
}

/// An answer: status, headers and body. `HEAD` requests get the same headers without the body.
public struct HTTPResponse: Sendable {
    /// The HTTP status code.
    public var status: Int
    /// `Content-Type`.
    public var contentType: String
    /// Further headers, in order.
    public var headers: [(name: String, value: String)]
    /// The body.
    public var body: [UInt8]

    /// A response.
    public init(status: Int = 200, contentType: String, headers: [(name: String, value: String)] = [], body: [UInt8]) {
        self.status = status
        self.contentType = contentType
        self.headers = headers
        self.body = body
    }

    /// A JSON response of already-encoded bytes.
    public static func json(_ body: [UInt8], status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json", body: body)
    }
}
