import Foundation
import Synchronization
import Testing

/// A loopback HTTP server that answers each connection's request with the next of a list of scripted
/// responses (then closes it), and records the requests: for the S3 client's retry and error tests.
final class ScriptedHTTPServer: Sendable {
    struct Response: Sendable {
        var status: Int
        var headers: [(String, String)] = []
        var body: String = ""
    }

    let port: Int
    private let descriptor: Int32
    private let responses: Mutex<[Response]>
    private let received = Mutex<[String]>([])
    /// Signalled when the serving thread has returned (it no longer uses the socket's descriptor).
    private let finished = DispatchSemaphore(value: 0)

    init(_ responses: [Response]) throws {
        self.responses = Mutex(responses)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(descriptor, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.descriptor = descriptor
        Thread.detachNewThread { [self] in serve() }
    }

    /// The request heads received, in order.
    var requests: [String] { received.withLock { $0 } }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    private func serve() {
        defer { finished.signal() }
        while true {
            let connection = accept(descriptor, nil, nil)
            guard connection >= 0 else { return }
            var head = [UInt8]()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !head.ends(with: Array("\r\n\r\n".utf8)) {
                let n = recv(connection, &buffer, buffer.count, 0)
                if n <= 0 { break }
                head += buffer[0..<n]
                if head.count > 1 << 16 { break }
            }
            let text = String(decoding: head, as: UTF8.self)
            received.withLock { $0.append(text) }
            let response = responses.withLock { $0.isEmpty ? Response(status: 500, body: "no more scripted responses") : $0.removeFirst() }
            var out = "HTTP/1.1 \(response.status) Scripted\r\nContent-Length: \(response.body.utf8.count)\r\nConnection: close\r\n"
            for (name, value) in response.headers { out += "\(name): \(value)\r\n" }
            out += "\r\n"
            if !text.hasPrefix("HEAD") { out += response.body }
            _ = Array(out.utf8).withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(connection)
        }
    }

    /// Stops serving: the listening socket is shut down (a pending or later `accept` fails), and closed
    /// only once the serving thread has returned. Closing it first let a thread that had not yet reached
    /// `accept` call it on the descriptor number after the next test's server had reused it, and answer
    /// that test's requests from this server's script (seen once under load: 2 of 4 requests reached the
    /// next test's server).
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        if finished.wait(timeout: .now() + 10) == .timedOut {
            Issue.record("the scripted server's thread did not stop within 10 s")
            return  // the descriptor stays open rather than be reused under a running thread
        }
        close(descriptor)
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}
