#if canImport(Glibc)
import Glibc
#endif

/// Writes an answer's status line and header fields, and decides its framing (RFC 9110 §8.6, RFC 9112
/// §6.3): a 1xx, 204 or 304 has no body and no `Content-Length` (on a 204 it is forbidden; on a 304 it
/// would claim the resource is empty), nor a `Content-Type` (there is no content to type); a HEAD
/// answer has the length of the body a GET would get, and no body.
struct HTTPResponseWriter {
    /// The `Date` value, remade once a second (one per network thread: no lock).
    private var dateSecond = 0
    private var dateText: [UInt8] = []
    /// The last head written, whose memory the next one reuses: by then the connection has sent it and
    /// let it go (an answer still waiting for the socket keeps its own: the write copies it first).
    private var bytes: [UInt8] = []
    /// The status line and content type last written, and their bytes up to the length's digits
    /// (`HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: `): most answers of a
    /// thread are of one kind, so their opening is copied, not written piece by piece.
    private var opening: (status: Int, contentType: String, bytes: [UInt8]) = (0, "", [])
    /// The header fields last written and their bytes (most answers carry the same: the CORS pair).
    private var fields: (headers: [(name: String, value: String)], bytes: [UInt8]) = ([], [])

    /// Whether an answer with `status` carries content (and so its length and type).
    static func hasContent(_ status: Int) -> Bool { status >= 200 && status != 204 && status != 304 }

    /// The head of `response` to `method`, at `now` seconds since the epoch; `closing` adds
    /// `Connection: close`, `http10KeepAlive` says the connection stays open to an HTTP/1.0 client.
    mutating func head(_ response: HTTPResponse, method: String, closing: Bool, http10KeepAlive: Bool, now: Int) -> [UInt8] {
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(160 + response.contentType.utf8.count + response.headers.count * 48)
        let hasContent = Self.hasContent(response.status)
        if opening.status != response.status || (hasContent && opening.contentType != response.contentType) {
            var text = Self.statusLine(response.status)
            if hasContent {
                text.append(contentsOf: "Content-Type: ".utf8)
                text.append(contentsOf: response.contentType.utf8)
                text.append(contentsOf: "\r\nContent-Length: ".utf8)
            }
            opening = (response.status, response.contentType, text)
        }
        bytes.append(contentsOf: opening.bytes)
        if hasContent {
            Self.appendDecimal(response.body.count, to: &bytes)
            bytes.append(contentsOf: "\r\n".utf8)
        }
        bytes.append(contentsOf: "Date: ".utf8)
        bytes.append(contentsOf: date(now))
        bytes.append(contentsOf: "\r\n".utf8)
        if !Self.same(response.headers, fields.headers) {
            var text: [UInt8] = []
            for header in response.headers {
                text.append(contentsOf: header.name.utf8)
                text.append(contentsOf: ": ".utf8)
                text.append(contentsOf: header.value.utf8)
                text.append(contentsOf: "\r\n".utf8)
            }
            fields = (response.headers, text)
        }
        bytes.append(contentsOf: fields.bytes)
        if closing {
            bytes.append(contentsOf: "Connection: close\r\n".utf8)
        } else if http10KeepAlive {
            bytes.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        bytes.append(contentsOf: "\r\n".utf8)
        return bytes
    }

    /// Whether two header lists are the same, name for name and value for value (strings that share
    /// their storage, as the answers' common headers do, compare at once).
    private static func same(_ a: [(name: String, value: String)], _ b: [(name: String, value: String)]) -> Bool {
        guard a.count == b.count else { return false }
        for index in a.indices where a[index].name != b[index].name || a[index].value != b[index].value { return false }
        return true
    }

    /// The interim answer to `Expect: 100-continue`.
    static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    private static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        guard value > 0 else { return bytes.append(48) }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[19 - count] = UInt8(48 + rest % 10)
                rest /= 10
                count += 1
            }
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }

    /// The `Date` header's value (RFC 9110 IMF-fixdate).
    private mutating func date(_ now: Int) -> [UInt8] {
        if now != dateSecond || dateText.isEmpty {
            dateSecond = now
            var seconds = time_t(now)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            var buffer = [CChar](repeating: 0, count: 64)
            let count = strftime(&buffer, buffer.count, "%a, %d %b %Y %H:%M:%S GMT", &parts)
            dateText = buffer[0..<count].map { UInt8(bitPattern: $0) }
        }
        return dateText
    }

    /// `HTTP/1.1 <status> <reason>\r\n`, made once per status.
    private static func statusLine(_ status: Int) -> [UInt8] {
        if let line = statusLines[status] { return line }
        return Array("HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n".utf8)
    }

    private static let statusLines: [Int: [UInt8]] = Dictionary(uniqueKeysWithValues: HTTPStatus.known.map { status in
        (status, Array("HTTP/1.1 \(status) \(HTTPStatus.reason(status))\r\n".utf8))
    })
}

/// Reason phrases of the statuses the service sends.
enum HTTPStatus {
    static let known = [100, 200, 202, 204, 206, 301, 302, 304, 400, 401, 403, 404, 405, 408, 409, 413, 414, 415, 417, 429, 431, 500, 501, 503, 504, 505]

    static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: "Status"
        }
    }
}
