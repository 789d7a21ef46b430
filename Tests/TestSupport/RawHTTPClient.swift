import Foundation
import Imaging

/// A deliberately small HTTP/1.1 client over a plain socket, for tests that must send what real
/// clients would not (malformed requests, partial headers, huge bodies) and see exactly what comes
/// back: status, headers, body, and whether the server closed the connection.
public final class RawHTTPClient {
    /// A parsed response.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [String: String]
        public var body: [UInt8]
        public var text: String { String(decoding: body, as: UTF8.self) }
        public func header(_ name: String) -> String? { headers[name.lowercased()] }
        public func json() throws -> [String: Any] {
            guard let object = try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
                throw CocoaError(.coderReadCorrupt, userInfo: [NSDebugDescriptionErrorKey: "not a JSON object: \(text.prefix(200))"])
            }
            return object
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case connect(String), closed, timeout, malformed(String)
        public var description: String {
            switch self {
            case .connect(let why): "connect: \(why)"
            case .closed: "the server closed the connection"
            case .timeout: "no answer in time"
            case .malformed(let why): "malformed response: \(why)"
            }
        }
    }

    private let descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to `host:port` (IPv4), with `timeoutSeconds` for every read; from `sourceAddress` when
    /// given (another loopback address, such as 127.0.0.2, is another client to the server).
    public init(host: String = "127.0.0.1", port: UInt16, timeoutSeconds: Double = 10, sourceAddress: String? = nil) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure.connect(String(cString: strerror(errno))) }
        /// `call` (bind or connect) on the IPv4 address `host:port`; on failure the socket is closed and
        /// the error names `what` and the system's reason.
        func attach(_ host: String, port: UInt16, _ what: String,
                    _ call: (Int32, UnsafePointer<sockaddr>, socklen_t) -> Int32) throws {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else {
                let why = String(cString: strerror(errno))
                close(descriptor)
                throw Failure.connect(what + why)
            }
        }
        if let sourceAddress { try attach(sourceAddress, port: 0, "bind \(sourceAddress): ") { bind($0, $1, $2) } }
        try attach(host, port: port, "") { connect($0, $1, $2) }
        var timeout = timeval(tv_sec: Int(timeoutSeconds), tv_usec: Int((timeoutSeconds - timeoutSeconds.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close(descriptor) }

    /// Sends raw bytes.
    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw Failure.closed }
            offset += written
        }
    }

    /// Sends raw text.
    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    /// `GET path` (keep-alive), then reads the response.
    public func get(_ path: String, headers: [String: String] = [:], method: String = "GET") throws -> Response {
        var request = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { request += "\(name): \(value)\r\n" }
        try send(request + "\r\n")
        return try readResponse(method: method)
    }

    /// `POST path` with `body`.
    public func post(_ path: String, body: [UInt8], contentType: String = "application/json") throws -> Response {
        try send("POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.count)\r\n\r\n")
        try send(body)
        return try readResponse(method: "POST")
    }

    /// The bytes that have arrived, without waiting (nil when none have).
    public func receivedWithoutWaiting() -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count > 0 ? Array(buffer[0..<count]) : nil
    }

    /// Whether the server has closed the connection (a read returns end of file within the timeout).
    public func isClosedByServer() -> Bool {
        var byte: UInt8 = 0
        let count = recv(descriptor, &byte, 1, 0)
        return count == 0 || (count < 0 && errno == ECONNRESET)
    }

    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { throw Failure.closed }
        if count < 0 { throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timeout : Failure.closed }
        pending += buffer[0..<count]
    }

    /// Reads one response (Content-Length or chunked bodies; none for HEAD, 1xx, 204 and 304).
    public func readResponse(method: String = "GET") throws -> Response {
        let separator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        while headerEnd == nil {
            if let found = pending.firstIndex(of: separator) { headerEnd = found } else { try fill() }
        }
        let head = String(decoding: pending[0..<headerEnd!], as: UTF8.self)
        pending.removeFirst(headerEnd! + 4)
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw Failure.malformed(head) }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body: [UInt8] = []
        if method == "HEAD" || status == 304 || status == 204 || (100..<200).contains(status) {
            // no body
        } else if let length = headers["content-length"].flatMap(Int.init) {
            while pending.count < length { try fill() }
            body = Array(pending[0..<length])
            pending.removeFirst(length)
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                var lineEnd: Int?
                while lineEnd == nil { if let f = pending.firstIndex(of: [13, 10]) { lineEnd = f } else { try fill() } }
                let size = Int(String(decoding: pending[0..<lineEnd!], as: UTF8.self).split(separator: ";")[0], radix: 16) ?? 0
                pending.removeFirst(lineEnd! + 2)
                while pending.count < size + 2 { try fill() }
                body += pending[0..<size]
                pending.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else {
            while (try? fill()) != nil {}
            body = pending
            pending = []
        }
        return Response(status: status, headers: headers, body: body)
    }
}

/// A `GET` sent on its own connection from its own thread, for tests that must act (stop a server,
/// send another request) while it waits for its answer.
public final class BackgroundHTTPRequest: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private var response: RawHTTPClient.Response?

    /// Sends `GET path` to `127.0.0.1:port` now.
    public init(path: String, port: UInt16) {
        Thread.detachNewThread { [self] in
            response = try? RawHTTPClient(port: port, timeoutSeconds: 30).get(path)
            done.signal()
        }
    }

    /// The response, or nil when none came within 30 s (or the connection failed).
    public func wait() -> RawHTTPClient.Response? {
        done.wait(timeout: .now() + 30) == .success ? response : nil
    }
}
