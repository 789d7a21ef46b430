#if canImport(Glibc)
import Glibc
#endif

/// A request's head as parsed: the method, the percent-decoded path and query, the framing of its body
/// and the few headers routes read.
struct HTTPRequestHead {
    /// The method as sent (a token: `GET`, `POST`, …).
    var method: String
    /// The path, percent-decoded, without the query.
    var path: String
    /// Query arguments, decoded (`+` is a space), in order.
    var query: [(name: String, value: String)]
    /// The headers routes read (``HTTPRequest/headers``) by lower-cased name.
    var headers: [String: String]
    /// `Content-Length`, when given.
    var contentLength: Int?
    /// `Transfer-Encoding: chunked`.
    var isChunked: Bool
    /// Whether the connection stays open after the answer (HTTP/1.1 unless `Connection: close`;
    /// HTTP/1.0 only with `Connection: keep-alive`).
    var keepAlive: Bool
    /// `Expect: 100-continue`: the client waits for a `100 Continue` before it sends the body.
    var expectsContinue: Bool
    /// HTTP/1.1 (else HTTP/1.0).
    var isHTTP11: Bool

    /// Whether a body follows the head.
    var hasBody: Bool { isChunked || (contentLength ?? 0) > 0 }

    /// The request routes see (the body is filled in once read).
    func request(body: [UInt8] = []) -> HTTPRequest {
        HTTPRequest(method: method, path: path, query: query, headers: headers, body: body)
    }
}

/// What parsing the bytes received so far gave.
enum HTTPHeadParse {
    /// The head is not complete yet (and within the limits so far).
    case incomplete
    /// A whole head, and how many bytes it took (the body or the next request follows).
    case complete(HTTPRequestHead, consumedBytes: Int)
    /// A head that breaks the protocol or a limit: the error to answer with, and the path when the
    /// request line was read (the answer's shape depends on the route: Google's on its routes).
    case failed(ServiceError, path: String?)
}

/// A strict HTTP/1.1 request-head parser (RFC 9112). Strict where leniency lets two parsers disagree
/// (request smuggling): a bare CR, a folded line, white space before a field's colon, two different
/// `Content-Length`s, or `Content-Length` with `Transfer-Encoding` are refused; NUL and control
/// characters are refused in the path, the query and header values; numbers are decimal digits; an
/// HTTP/1.1 request without `Host` is refused (RFC 9112 §3.2). Lenient where RFC 9112 allows it: a bare
/// LF ends a line. (Empty lines before the request line are the connection's to skip and bound:
/// ``HTTPConnection``.)
///
/// The parser runs once per head: the connection looks for the head's end as bytes arrive
/// (``HTTPHeadScanner``, which looks at each byte once) and parses when it is there, or when what has
/// come is already over a limit.
enum HTTPHeadParser {
    /// Parses the head at the start of `bytes` (its request line's first byte).
    static func parse(_ bytes: UnsafeRawBufferPointer, limits: HTTPHeadLimits) -> HTTPHeadParse {
        let count = bytes.count
        let start = 0
        guard start < count else { return .incomplete }
        // The request line.
        guard let lineEnd = lineFeed(in: bytes, from: start) else {
            if count - start > limits.requestLineBytes {
                return .failed(.requestTargetTooLong(detail: "the request line is over \(limits.requestTargetBytes) bytes"),
                               path: pathPrefix(bytes, from: start))
            }
            return .incomplete
        }
        let requestLine: RequestLine
        switch parseRequestLine(bytes, from: start, to: lineEnd, limits: limits) {
        case .success(let line): requestLine = line
        case .failure(let failure): return .failed(failure.error, path: failure.path)
        }
        let path = requestLine.path
        // The header fields, up to the empty line.
        var headers: [String: String] = [:]
        var contentLengths: [Substring] = []
        var transferEncodings: [String] = []
        var connectionTokens = ""
        var expectation: String?
        var fields = 0
        var position = lineEnd + 1
        while true {
            if position - start > limits.headBytes {
                return .failed(.headersTooLarge(detail: "the request head is over \(limits.headBytes) bytes"), path: path)
            }
            guard let end = lineFeed(in: bytes, from: position) else {
                if count - start > limits.headBytes {
                    return .failed(.headersTooLarge(detail: "the request head is over \(limits.headBytes) bytes"), path: path)
                }
                return .incomplete
            }
            let contentEnd = end > position && bytes[end - 1] == 13 ? end - 1 : end
            if contentEnd == position { position = end + 1; break }   // the empty line
            fields += 1
            if fields > limits.headerFields {
                return .failed(.headersTooLarge(detail: "the request has over \(limits.headerFields) header fields"), path: path)
            }
            let first = bytes[position]
            if first == 32 || first == 9 {
                return .failed(.malformedRequest(detail: "a header line starts with white space (obsolete line folding)"), path: path)
            }
            var colon = position
            while colon < contentEnd, isTokenByte(bytes[colon]) { colon += 1 }
            guard colon > position, colon < contentEnd, bytes[colon] == 58 else {
                return .failed(.malformedRequest(detail: "a header line is not NAME: VALUE (a name is letters, digits and !#$%&'*+-.^_`|~, "
                                                 + "with no space before the colon)"), path: path)
            }
            var valueStart = colon + 1, valueEnd = contentEnd
            while valueStart < valueEnd, bytes[valueStart] == 32 || bytes[valueStart] == 9 { valueStart += 1 }
            while valueEnd > valueStart, bytes[valueEnd - 1] == 32 || bytes[valueEnd - 1] == 9 { valueEnd -= 1 }
            for index in valueStart..<valueEnd {
                let byte = bytes[index]
                if byte < 32 && byte != 9 || byte == 127 {
                    return .failed(.malformedRequest(detail: "a header value holds a control character (byte \(byte))"), path: path)
                }
            }
            let name = lowercasedName(bytes, from: position, to: colon)
            guard let role = HeaderRole(name) else { position = end + 1; continue }
            let value = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self)
            switch role {
            case .contentLength:
                contentLengths += value.split(separator: ",", omittingEmptySubsequences: false)
                    .map { $0.drop { $0 == " " || $0 == "\t" } }
            case .transferEncoding:
                transferEncodings += value.split(separator: ",").map { $0.trimmingSpaces.lowercased() }
            case .connection:
                connectionTokens += "," + value.lowercased()
            case .expect:
                expectation = value.lowercased()
            case .singleton:
                if headers[name] != nil {
                    return .failed(.malformedRequest(detail: "the \(name) header is given twice; give it once"), path: path)
                }
                headers[name] = value
            case .list:
                headers[name] = headers[name].map { $0 + ", " + value } ?? value
            }
            position = end + 1
        }
        // The body's framing.
        var contentLength: Int?
        for text in contentLengths {
            let trimmed = text.trimmingSpaces
            let length: Int
            switch HTTPLength.parse(trimmed.utf8, radix: 10) {
            case .value(let value): length = value
            case .notDigits:
                return .failed(.malformedRequest(detail: "Content-Length '\(trimmed.prefix(40))' is not a decimal number of bytes"), path: path)
            case .tooLong:
                return .failed(.contentLengthTooLarge(value: String(trimmed.prefix(40))), path: path)
            }
            if let contentLength, contentLength != length {
                return .failed(.malformedRequest(detail: "two different Content-Length values (\(contentLength) and \(length)); send one"),
                               path: path)
            }
            contentLength = length
        }
        var isChunked = false
        if !transferEncodings.isEmpty {
            guard requestLine.isHTTP11 else {
                return .failed(.malformedRequest(detail: "Transfer-Encoding is not allowed in an HTTP/1.0 request"), path: path)
            }
            guard contentLength == nil else {
                return .failed(.malformedRequest(detail: "a request may not have both Content-Length and Transfer-Encoding"), path: path)
            }
            if let coding = transferEncodings.first(where: { $0 != "chunked" }) {
                return .failed(.unsupportedTransferCoding(coding: coding), path: path)
            }
            guard transferEncodings.count == 1 else {
                return .failed(.malformedRequest(detail: "Transfer-Encoding lists chunked more than once"), path: path)
            }
            isChunked = true
        }
        if requestLine.isHTTP11 && headers["host"] == nil {
            return .failed(.malformedRequest(detail: "an HTTP/1.1 request must have a Host header (RFC 9112 §3.2)"), path: path)
        }
        let tokens = connectionTokens.split(separator: ",").map(\.trimmingSpaces)
        let keepAlive = requestLine.isHTTP11 ? !tokens.contains("close") : tokens.contains("keep-alive")
        if let expectation, expectation != "100-continue" {
            return .failed(.expectationFailed(expectation: expectation), path: path)
        }
        let head = HTTPRequestHead(method: requestLine.method, path: path, query: requestLine.query, headers: headers,
                                   contentLength: contentLength, isChunked: isChunked, keepAlive: keepAlive,
                                   expectsContinue: expectation != nil && requestLine.isHTTP11,
                                   isHTTP11: requestLine.isHTTP11)
        return .complete(head, consumedBytes: position)
    }

    /// The headers routes read (``HTTPRequest/headers``): their values are kept, the others skipped.
    /// A repeated `x-api-key`, `authorization`, `content-type` or `host` is refused; a repeated list header is joined.
    private enum HeaderRole {
        case contentLength, transferEncoding, connection, expect, singleton, list

        init?(_ name: String) {
            switch name {
            case "content-length": self = .contentLength
            case "transfer-encoding": self = .transferEncoding
            case "connection": self = .connection
            case "expect": self = .expect
            case "x-api-key", "content-type", "host", "x-forwarded-proto", "authorization": self = .singleton
            // CORS preflights.
            case "origin", "access-control-request-method": self = .singleton
            case "access-control-request-headers": self = .list
            // The window's size, asked for by the page (SceneService.viewportHints) for its first view.
            case "sec-ch-viewport-width", "sec-ch-viewport-height", "sec-ch-dpr": self = .singleton
            case "if-none-match", "accept", "accept-encoding": self = .list
            default: return nil
            }
        }
    }

    private struct RequestLine {
        var method: String
        var path: String
        var query: [(name: String, value: String)]
        var isHTTP11: Bool
    }

    private struct LineFailure: Error {
        var error: ServiceError
        var path: String?
    }

    /// `METHOD SP TARGET SP HTTP/1.x`, with single spaces.
    private static func parseRequestLine(_ bytes: UnsafeRawBufferPointer, from start: Int, to lineEnd: Int,
                                         limits: HTTPHeadLimits) -> Result<RequestLine, LineFailure> {
        let end = lineEnd > start && bytes[lineEnd - 1] == 13 ? lineEnd - 1 : lineEnd
        var methodEnd = start
        while methodEnd < end, isTokenByte(bytes[methodEnd]) { methodEnd += 1 }
        guard methodEnd > start, methodEnd - start <= limits.methodBytes, methodEnd < end, bytes[methodEnd] == 32 else {
            return .failure(LineFailure(error: .malformedRequest(detail: "the request line is not METHOD TARGET HTTP/1.1"), path: nil))
        }
        let method = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<methodEnd]), as: UTF8.self)
        let targetStart = methodEnd + 1
        var targetEnd = targetStart
        while targetEnd < end, bytes[targetEnd] != 32 { targetEnd += 1 }
        if targetEnd - targetStart > limits.requestTargetBytes {
            return .failure(LineFailure(error: .requestTargetTooLong(detail: "the request target is \(targetEnd - targetStart) bytes; "
                                                                     + "at most \(limits.requestTargetBytes) are allowed"),
                                        path: pathPrefix(bytes, from: start)))
        }
        let version = UnsafeRawBufferPointer(rebasing: bytes[min(targetEnd + 1, end)..<end])
        guard targetEnd > targetStart, targetEnd < end, version.count == 8, version.starts(with: "HTTP/1.".utf8) else {
            if targetEnd < end, version.starts(with: "HTTP/".utf8) {
                let text = String(decoding: version.prefix(16), as: UTF8.self)
                return .failure(LineFailure(error: .httpVersionNotSupported(version: text), path: nil))
            }
            return .failure(LineFailure(error: .malformedRequest(detail: "the request line is not METHOD TARGET HTTP/1.1"), path: nil))
        }
        let minor = version[7]
        guard minor == 48 || minor == 49 else {
            return .failure(LineFailure(error: .httpVersionNotSupported(version: String(decoding: version, as: UTF8.self)), path: nil))
        }
        let target = UnsafeRawBufferPointer(rebasing: bytes[targetStart..<targetEnd])
        switch RequestTarget.parse(target, limits: limits) {
        case .success(let parsed):
            return .success(RequestLine(method: method, path: parsed.path, query: parsed.query, isHTTP11: minor == 49))
        case .failure(let failure):
            return .failure(LineFailure(error: failure.error, path: failure.path))
        }
    }

    /// The path of a request line too long to parse, when its first kilobyte shows it (the answer's
    /// shape depends on the route); nil otherwise.
    private static func pathPrefix(_ bytes: UnsafeRawBufferPointer, from start: Int) -> String? {
        guard let space = bytes[start..<min(bytes.count, start + 64)].firstIndex(of: 32) else { return nil }
        let window = bytes[(space + 1)..<min(bytes.count, space + 1 + 1024)]
        guard let end = window.firstIndex(where: { $0 == 63 || $0 == 32 }),
              bytes[(space + 1)..<end].allSatisfy({ $0 > 32 && $0 < 127 }) else { return nil }
        return RequestTarget.decode(UnsafeRawBufferPointer(rebasing: bytes[(space + 1)..<end]), plusIsSpace: false)
    }

    /// The index of the next LF at or after `start`, nil when none.
    private static func lineFeed(in bytes: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard start < bytes.count else { return nil }
        guard let base = bytes.baseAddress else { return nil }
        guard let found = memchr(base + start, 10, bytes.count - start) else { return nil }
        let index = base.distance(to: UnsafeRawPointer(found))
        // A CR anywhere but right before the LF is refused by the callers' checks on the line's bytes;
        // here only the line's end is found.
        return index
    }

    private static func lowercasedName(_ bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> String {
        String(unsafeUninitializedCapacity: end - start) { buffer in
            for index in start..<end {
                let byte = bytes[index]
                buffer[index - start] = byte >= 65 && byte <= 90 ? byte + 32 : byte
            }
            return end - start
        }
    }

    /// RFC 9110 `tchar`.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 48...57, 65...90, 97...122: true
        case 33, 35, 36, 37, 38, 39, 42, 43, 45, 46, 94, 95, 96, 124, 126: true
        default: false
        }
    }
}

/// A length on the wire (`Content-Length` in decimal, a chunk size in hexadecimal): digits only, and
/// at most 15 of them, so every accepted value fits an `Int` with room to add (no overflow to check
/// later) and is far beyond any body limit.
enum HTTPLength {
    /// The most digits a length may have.
    static let maximumDigits = 15

    enum Parse: Equatable {
        case value(Int)
        case notDigits
        case tooLong
    }

    static func parse<Digits: Collection<UInt8>>(_ digits: Digits, radix: Int) -> Parse {
        guard !digits.isEmpty else { return .notDigits }
        var value = 0
        for byte in digits {
            let digit: Int
            switch byte {
            case 48...57: digit = Int(byte) - 48
            case 65...70 where radix == 16: digit = Int(byte) - 55
            case 97...102 where radix == 16: digit = Int(byte) - 87
            default: return .notDigits
            }
            value = value &* radix &+ digit
        }
        return digits.count > maximumDigits ? .tooLong : .value(value)
    }
}

/// Finds where a head ends as its bytes arrive, looking at each byte once however the head is split
/// into reads (a client sending a byte at a time costs one pass, not one pass per byte).
struct HTTPHeadScanner {
    /// Bytes searched so far (they hold no end of head).
    private(set) var scanned = 0
    /// Whether the request line has ended (an LF has come).
    private(set) var requestLineEnded = false

    /// Where the head at the start of `bytes` ends (the index after its empty line), nil when its end
    /// has not come; `bytes` is what came so far, the bytes already scanned at its start.
    mutating func headEnd(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        // An end (LF LF, or LF CR LF) may begin in the last two bytes searched before.
        var position = max(0, scanned - 2)
        defer { scanned = bytes.count }
        while position < bytes.count, let found = memchr(base + position, 10, bytes.count - position) {
            let index = base.distance(to: UnsafeRawPointer(found))
            requestLineEnded = true
            if index + 1 < bytes.count, bytes[index + 1] == 10 { return index + 2 }
            if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 { return index + 3 }
            position = index + 1
        }
        return nil
    }
}
