import CCurl
import Foundation

/// HTTP(S) requests over libcurl, with keep-alive connections pooled per origin: each origin keeps a
/// few idle easy handles, and each handle keeps its connection open between requests (libcurl's own
/// connection cache survives `curl_easy_reset`), so consecutive requests to one S3 endpoint reuse a
/// TCP (and TLS) connection instead of opening one each.
///
/// Blocking: a request runs on the calling thread. Timeouts: 3 s to connect, and a transfer that moves
/// no byte for 15 s is abandoned; a request may set an overall limit.
// @unchecked Sendable: the pool of idle handles is read and written under `lock` only; a handle taken from
// it is used by one thread at a time, and the rest is immutable after init (the counters lock themselves).
final class HTTPTransport: @unchecked Sendable {
    /// A request.
    struct Request {
        var method: String
        var url: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]? = nil
        /// The whole request's time limit, seconds (nil: none beyond the connect and stall limits).
        var timeoutSeconds: Double? = nil
        /// Refuse a response body larger than this (a ranged read knows its size; lists are bounded).
        var maximumBodyBytes = 1 << 30
    }

    /// A response: status, headers (names lowercased, the last value of a repeated name) and body.
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]
    }

    /// Why a request got no response: libcurl's code and message.
    struct Failure: Error {
        var code: Int
        var message: String
    }

    /// Idle handles kept per origin; more are made when more threads ask at once.
    static let idleHandlesPerOrigin = 16
    private let lock = NSLock()
    private var idle: [String: [OpaquePointer]] = [:]
    private let caBundle: String?
    /// Its client's counters (which add to the process's).
    let statistics = StorageStatistics()

    /// Connect time limit, milliseconds.
    static let connectTimeoutMilliseconds = 3000
    /// A transfer slower than 1 byte per second for this long is abandoned, seconds.
    static let stallSeconds = 15

    private static let globalInitialisation: Bool = {
        curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK
    }()

    init(caBundle: String?) {
        _ = Self.globalInitialisation
        self.caBundle = caBundle
    }

    deinit {
        for handles in idle.values { for handle in handles { curl_easy_cleanup(UnsafeMutableRawPointer(handle)) } }
    }

    /// The origin (`scheme://host[:port]`) of a URL: the pool's key.
    static func origin(of url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        return String(url[..<scheme.upperBound]) + String(rest.prefix { $0 != "/" && $0 != "?" })
    }

    private func takeHandle(for origin: String) -> OpaquePointer? {
        if let handle = lock.withLock({ idle[origin]?.popLast() }) { return handle }
        return curl_easy_init().map { OpaquePointer($0) }
    }

    private func give(_ handle: OpaquePointer, to origin: String, reusable: Bool) {
        let kept: Bool = reusable && lock.withLock {
            guard idle[origin, default: []].count < Self.idleHandlesPerOrigin else { return false }
            idle[origin, default: []].append(handle)
            return true
        }
        if !kept { curl_easy_cleanup(UnsafeMutableRawPointer(handle)) }
    }

    /// Drops every idle connection (after the server went away, so the next request connects afresh).
    func closeIdleConnections() {
        let handles = lock.withLock { () -> [OpaquePointer] in
            let all = idle.values.flatMap { $0 }
            idle.removeAll()
            return all
        }
        for handle in handles { curl_easy_cleanup(UnsafeMutableRawPointer(handle)) }
    }

    /// Performs `request`.
    /// - Throws: ``Failure`` when there is no HTTP response (no connection, a timeout, TLS, a reset).
    func perform(_ request: Request) throws(Failure) -> Response {
        let origin = Self.origin(of: request.url)
        guard let handle = takeHandle(for: origin) else { throw Failure(code: -1, message: "curl_easy_init failed") }
        let raw = UnsafeMutableRawPointer(handle)
        curl_easy_reset(raw)
        let exchange = Exchange(upload: request.body ?? [], maximumBodyBytes: request.maximumBodyBytes)
        let context = Unmanaged.passUnretained(exchange).toOpaque()
        var list: UnsafeMutablePointer<curl_slist>?
        // curl adds `Expect: 100-continue` to large bodies (an extra round trip) and a form content type
        // to POSTs; the empty values remove both.
        for (name, value) in request.headers + [("Expect", ""), ("Accept", "")] {
            list = curl_slist_append(list, value.isEmpty ? "\(name):" : "\(name): \(value)")
        }
        defer { curl_slist_free_all(list) }
        let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        defer { errorBuffer.deallocate() }

        _ = lk_curl_set_string(raw, CURLOPT_URL, request.url)
        _ = lk_curl_set_list(raw, CURLOPT_HTTPHEADER, list)
        _ = lk_curl_set_long(raw, CURLOPT_NOSIGNAL, 1)
        _ = lk_curl_set_long(raw, CURLOPT_TCP_KEEPALIVE, 1)
        _ = lk_curl_set_long(raw, CURLOPT_CONNECTTIMEOUT_MS, Int(Self.connectTimeoutMilliseconds))
        _ = lk_curl_set_long(raw, CURLOPT_LOW_SPEED_LIMIT, 1)
        _ = lk_curl_set_long(raw, CURLOPT_LOW_SPEED_TIME, Int(Self.stallSeconds))
        if let timeout = request.timeoutSeconds { _ = lk_curl_set_long(raw, CURLOPT_TIMEOUT_MS, Int(timeout * 1000)) }
        if let caBundle { _ = lk_curl_set_string(raw, CURLOPT_CAINFO, caBundle) }
        _ = lk_curl_set_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
        _ = lk_curl_set_callback(raw, CURLOPT_WRITEFUNCTION, curlWriteBody)
        _ = lk_curl_set_pointer(raw, CURLOPT_WRITEDATA, context)
        _ = lk_curl_set_callback(raw, CURLOPT_HEADERFUNCTION, curlWriteHeader)
        _ = lk_curl_set_pointer(raw, CURLOPT_HEADERDATA, context)
        switch request.method {
        case "GET": _ = lk_curl_set_long(raw, CURLOPT_HTTPGET, 1)
        case "HEAD": _ = lk_curl_set_long(raw, CURLOPT_NOBODY, 1)
        case "PUT":
            _ = lk_curl_set_long(raw, CURLOPT_UPLOAD, 1)
            _ = lk_curl_set_offset(raw, CURLOPT_INFILESIZE_LARGE, curl_off_t(exchange.upload.count))
            _ = lk_curl_set_callback(raw, CURLOPT_READFUNCTION, curlReadBody)
            _ = lk_curl_set_pointer(raw, CURLOPT_READDATA, context)
        case "POST":
            _ = lk_curl_set_long(raw, CURLOPT_POST, 1)
            _ = lk_curl_set_offset(raw, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(exchange.upload.count))
            _ = lk_curl_set_callback(raw, CURLOPT_READFUNCTION, curlReadBody)
            _ = lk_curl_set_pointer(raw, CURLOPT_READDATA, context)
        default: _ = lk_curl_set_string(raw, CURLOPT_CUSTOMREQUEST, request.method)
        }
        let code = curl_easy_perform(raw)
        var status = 0, connects = 0
        _ = lk_curl_get_long(raw, CURLINFO_RESPONSE_CODE, &status)
        _ = lk_curl_get_long(raw, CURLINFO_NUM_CONNECTS, &connects)
        statistics.record(requests: 1, bytesReceived: exchange.body.count + exchange.headerBytes,
                                        bytesSent: exchange.uploaded, connectionsOpened: connects)
        guard code == CURLE_OK else {
            give(handle, to: origin, reusable: false)
            var message = String(cString: errorBuffer)
            if message.isEmpty { message = String(cString: curl_easy_strerror(code)) }
            if exchange.bodyTooLarge { message = "the response is larger than the \(request.maximumBodyBytes) bytes expected" }
            throw Failure(code: Int(code.rawValue), message: message)
        }
        give(handle, to: origin, reusable: true)
        return Response(status: status, headers: exchange.headers, body: exchange.body)
    }
}

/// One request's state, reached from libcurl's callbacks through their context pointer.
final class Exchange {
    let upload: [UInt8]
    var uploaded = 0
    var body: [UInt8] = []
    var headers: [String: String] = [:]
    var headerBytes = 0
    let maximumBodyBytes: Int
    var bodyTooLarge = false

    init(upload: [UInt8], maximumBodyBytes: Int) {
        self.upload = upload
        self.maximumBodyBytes = maximumBodyBytes
    }
}

// libcurl's callbacks: C function pointers (no captures), the exchange through the context pointer.
let curlWriteBody: lk_curl_data_callback = { buffer, size, count, context in
    let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
    let n = size * count
    guard exchange.body.count + n <= exchange.maximumBodyBytes else {
        exchange.bodyTooLarge = true
        return 0
    }
    if let buffer { exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: n)) }
    return n
}

let curlWriteHeader: lk_curl_data_callback = { buffer, size, count, context in
    let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
    let n = size * count
    exchange.headerBytes += n
    guard let buffer else { return n }
    let line = String(decoding: UnsafeRawBufferPointer(start: buffer, count: n), as: UTF8.self)
    if line.hasPrefix("HTTP/") {
        // A new response (after a 100 Continue or a redirect): its headers replace the last one's.
        exchange.headers = [:]
    } else if let colon = line.firstIndex(of: ":") {
        let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
        exchange.headers[name] = value
    }
    return n
}

let curlReadBody: lk_curl_data_callback = { buffer, size, count, context in
    let exchange = Unmanaged<Exchange>.fromOpaque(context!).takeUnretainedValue()
    let n = min(size * count, exchange.upload.count - exchange.uploaded)
    guard n > 0, let buffer else { return 0 }
    exchange.upload.withUnsafeBytes { bytes in
        UnsafeMutableRawPointer(buffer).copyMemory(from: bytes.baseAddress! + exchange.uploaded, byteCount: n)
    }
    exchange.uploaded += n
    return n
}
