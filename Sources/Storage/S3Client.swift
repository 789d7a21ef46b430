import Foundation
import Imaging
import Synchronization

/// What S3 says about an object: its key, size, ETag and modification time.
public struct ObjectInfo: Sendable, Hashable {
    /// The key (for a listing: relative to nothing, the full key).
    public var key: String
    /// Size in bytes.
    public var size: Int
    /// The ETag without its quotes (an MD5 for single-part objects, `HEX-N` for multipart ones).
    public var etag: String
    /// Last-Modified, when the server gave it.
    public var lastModified: Date?

    public init(key: String, size: Int, etag: String, lastModified: Date?) {
        self.key = key
        self.size = size
        self.etag = etag
        self.lastModified = lastModified
    }
}

/// A client of one S3 endpoint (AWS, MinIO, SeaweedFS, Ceph RGW, …): objects read whole or by byte
/// range, written whole or in parts, listed with continuation tokens, deleted; every request signed
/// with Signature Version 4 and retried with exponential backoff (and jitter) on connection failures,
/// 5xx answers and throttling, up to ``S3Configuration/maximumAttempts``.
///
/// An endpoint that stays unreachable after the retries is marked down for ``failFastSeconds``:
/// requests in that time fail at once (so a service answers 503 in microseconds, not after the
/// retries again), and the first request after it tries again — service resumes by itself.
public final class S3Client: Sendable {
    /// Where and how.
    public let configuration: S3Configuration
    /// This client's requests, bytes and connections.
    public var statistics: StorageStatistics { transport.statistics }
    let transport: HTTPTransport
    /// Keys per `ListObjectsV2` page (1…1000; AWS's maximum is 1000).
    public let listPageSize: Int
    /// Part size of multipart uploads, bytes (at least 5 MiB, S3's minimum for all but the last part).
    public let partBytes: Int
    /// Objects larger than this are uploaded in parts, bytes.
    public let multipartThresholdBytes: Int
    /// Parts uploaded at once.
    public let partConcurrency: Int
    /// After the retries failed to connect, requests fail at once for this long, seconds.
    public static let failFastSeconds = 1.0
    /// The first retry waits about this long, doubling each time (with jitter), seconds.
    public static let backoffBaseSeconds = 0.05

    private struct EndpointState {
        var downSince: Date?
        var retryAt: Date?
        var detail: String?
        var failures = 0
    }
    private let state = Mutex(EndpointState())

    public init(configuration: S3Configuration, listPageSize: Int = 1000, partBytes: Int = 8 << 20,
                multipartThresholdBytes: Int = 16 << 20, partConcurrency: Int = 4) {
        self.configuration = configuration
        self.transport = HTTPTransport(caBundle: configuration.caBundle)
        self.listPageSize = max(1, min(1000, listPageSize))
        self.partBytes = max(5 << 20, partBytes)
        self.multipartThresholdBytes = max(self.partBytes, multipartThresholdBytes)
        self.partConcurrency = max(1, partConcurrency)
    }

    // MARK: Requests

    struct Call {
        var operation: String
        var method: String
        var bucket: String
        var key: String?
        var query: [(name: String, value: String)] = []
        var headers: [(name: String, value: String)] = []
        var body: [UInt8]? = nil
        var timeoutSeconds: Double? = nil
        var maximumBodyBytes = 1 << 30
        /// Statuses that are answers, not errors (besides 2xx).
        var accepted: Set<Int> = []
        /// Ignore the fail-fast window (health probes).
        var probing = false
        var attempts: Int? = nil
    }

    /// The URL of `key` in `bucket` (or the bucket's when `key` is nil), with `query`.
    func url(bucket: String, key: String?, query: [(name: String, value: String)]) -> (url: String, host: String, path: String) {
        let base = configuration.base(for: bucket)
        let path = base.pathPrefix + "/" + (key ?? "")
        var url = base.origin + SignatureV4.percentEncoded(path, keepingSlashes: true)
        if !query.isEmpty {
            url += "?" + query.map { item in
                SignatureV4.percentEncoded(item.name, keepingSlashes: false)
                    + (item.value.isEmpty && ["uploads", "location"].contains(item.name) ? "" : "=" + SignatureV4.percentEncoded(item.value, keepingSlashes: false))
            }.joined(separator: "&")
        }
        return (url, base.host, path)
    }

    /// Sends `call`, signed, retrying what may succeed when repeated.
    func send(_ call: Call) throws(StorageError) -> HTTPTransport.Response {
        let location = "s3://\(call.bucket)" + (call.key.map { "/\($0)" } ?? "")
        guard let credentials = configuration.credentials else {
            throw .missingCredentials(location: location, searched: configuration.credentialSearch)
        }
        if !call.probing, let (retryAt, detail) = state.withLock({ s in s.retryAt.map { ($0, s.detail ?? "") } }), Date() < retryAt {
            throw .unreachable(endpoint: configuration.endpoint, detail: detail + " (not retried before \(String(format: "%.1f", retryAt.timeIntervalSinceNow)) s)")
        }
        let (url, host, path) = self.url(bucket: call.bucket, key: call.key, query: call.query)
        let signer = SignatureV4(credentials: credentials, region: configuration.region, service: "s3", isS3: true)
        let payloadHash = call.body.map { Digest.hex(Digest.sha256($0)) } ?? Digest.emptyPayloadHash
        let attempts = call.attempts ?? configuration.maximumAttempts
        var lastError: StorageError = .unreachable(endpoint: configuration.endpoint, detail: "no attempt made")
        for attempt in 1...attempts {
            if attempt > 1 {
                let base = Self.backoffBaseSeconds * Double(1 << min(attempt - 2, 6))
                usleep(UInt32(min(2.0, Double.random(in: base / 2...base)) * 1_000_000))
            }
            let request = SignatureV4.Request(method: call.method, path: path, query: call.query,
                                              headers: [("host", host)] + call.headers, payloadHash: payloadHash)
            let headers = signer.signed(request, at: Date()).filter { $0.name != "host" }
            let response: HTTPTransport.Response
            do {
                response = try transport.perform(HTTPTransport.Request(method: call.method, url: url, headers: headers, body: call.body,
                                                                       timeoutSeconds: call.timeoutSeconds,
                                                                       maximumBodyBytes: call.maximumBodyBytes))
            } catch {
                lastError = .unreachable(endpoint: configuration.endpoint, detail: "\(error.message) (curl error \(error.code))")
                if error.code == 63 || error.message.contains("larger than") {  // CURLE_FILESIZE_EXCEEDED, our body bound
                    throw .badResponse(location: location, detail: error.message)
                }
                continue
            }
            if (200..<300).contains(response.status) || call.accepted.contains(response.status) {
                markUp()
                return response
            }
            var failure = Self.failure(of: response, operation: call.operation, bucket: call.bucket, key: call.key)
            failure.accessKeyID = credentials.accessKeyID
            failure.attempts = attempt
            lastError = .s3(failure)
            if failure.isRetryable { continue }
            markUp()
            throw lastError
        }
        if case .unreachable(_, let detail) = lastError { markDown(detail) } else { markUp() }
        throw lastError
    }

    private func markUp() {
        state.withLock { $0 = EndpointState() }
    }

    private func markDown(_ detail: String) {
        state.withLock { s in
            if s.downSince == nil { s.downSince = Date() }
            s.failures += 1
            s.detail = detail
            s.retryAt = Date().addingTimeInterval(Self.failFastSeconds)
        }
        // Idle connections to a server that went away are dead; the next request connects afresh.
        transport.closeIdleConnections()
    }

    /// Whether the endpoint is known to be unreachable now, and why (nil when it answered last).
    public var unreachableReason: String? { state.withLock { $0.downSince == nil ? nil : $0.detail } }

    /// The S3 failure an error answer describes (the XML's code and message, else the status's name).
    static func failure(of response: HTTPTransport.Response, operation: String, bucket: String, key: String?) -> S3Failure {
        let text = String(decoding: response.body.prefix(64 << 10), as: UTF8.self)
        let statusCodes = [301: "PermanentRedirect", 307: "TemporaryRedirect", 400: "BadRequest", 403: "Forbidden", 404: "NotFound",
                           405: "MethodNotAllowed", 409: "Conflict", 412: "PreconditionFailed", 416: "InvalidRange", 429: "SlowDown",
                           500: "InternalError", 501: "NotImplemented", 502: "BadGateway", 503: "ServiceUnavailable", 504: "GatewayTimeout"]
        var code = S3XML.value("Code", in: text) ?? statusCodes[response.status] ?? "HTTP\(response.status)"
        if code == "NotFound" && response.status == 404 && key != nil && operation != "HeadBucket" { code = "NoSuchKey" }
        return S3Failure(operation: operation, bucket: bucket, key: key, status: response.status, code: code,
                         message: S3XML.value("Message", in: text) ?? "",
                         requestID: response.headers["x-amz-request-id"] ?? S3XML.value("RequestId", in: text),
                         region: response.headers["x-amz-bucket-region"] ?? S3XML.value("Region", in: text))
    }

    static func info(key: String, from headers: [String: String], size: Int) -> ObjectInfo {
        ObjectInfo(key: key, size: size, etag: unquoted(headers["etag"] ?? ""),
                   lastModified: headers["last-modified"].flatMap(HTTPDate.parseRFC1123))
    }

    static func unquoted(_ etag: String) -> String {
        var text = etag.hasPrefix("W/") ? String(etag.dropFirst(2)) : etag
        if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
        return text
    }

    // MARK: Objects

    /// `HEAD` of an object.
    /// - Throws: `StorageError.notFound` when there is none, `.s3`/`.unreachable` otherwise.
    public func head(bucket: String, key: String) throws(StorageError) -> ObjectInfo {
        do {
            let response = try send(Call(operation: "HeadObject", method: "HEAD", bucket: bucket, key: key))
            return Self.info(key: key, from: response.headers, size: Int(response.headers["content-length"] ?? "") ?? 0)
        } catch .s3(let failure) where failure.status == 404 && failure.code != "NoSuchBucket" {
            throw .notFound(location: failure.location)
        }
    }

    /// An object's bytes, whole or `range` of them, and what it is (its total size, ETag).
    /// - Parameter ifMatch: the ETag the object must still have (a changed object throws
    ///   `StorageError.changedWhileReading`).
    /// - Throws: `StorageError.notFound`, `.s3`, `.unreachable`, `.badResponse` for a body of the wrong size.
    public func get(bucket: String, key: String, range: Range<Int>? = nil, ifMatch: String? = nil) throws(StorageError)
        -> (bytes: [UInt8], info: ObjectInfo) {
        var headers: [(name: String, value: String)] = []
        if let range {
            guard !range.isEmpty else { return ([], try head(bucket: bucket, key: key)) }
            headers.append(("range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)"))
        }
        if let ifMatch { headers.append(("if-match", "\"\(ifMatch)\"")) }
        let location = "s3://\(bucket)/\(key)"
        let response: HTTPTransport.Response
        do {
            response = try send(Call(operation: "GetObject", method: "GET", bucket: bucket, key: key, headers: headers,
                                     maximumBodyBytes: range.map { $0.count + 1 } ?? (4 << 30)))
        } catch .s3(let failure) where failure.status == 404 && failure.code != "NoSuchBucket" {
            throw .notFound(location: location)
        } catch .s3(let failure) where failure.status == 412 {
            throw .changedWhileReading(location: location)
        }
        var total = response.body.count
        if let contentRange = response.headers["content-range"], let slash = contentRange.lastIndex(of: "/"),
           let size = Int(contentRange[contentRange.index(after: slash)...]) {
            total = size
        }
        let info = Self.info(key: key, from: response.headers, size: total)
        if let range {
            if response.status == 200 {
                // The server sent the whole object (it ignores Range): the part asked for.
                guard response.body.count >= range.upperBound else {
                    throw .badResponse(location: location, detail: "asked for bytes \(range.lowerBound)…\(range.upperBound - 1), got an object of \(response.body.count)")
                }
                return (Array(response.body[range]), info)
            }
            let expected = min(range.upperBound, total) - range.lowerBound
            guard response.body.count == expected else {
                throw .badResponse(location: location, detail: "asked for \(expected) bytes at \(range.lowerBound), got \(response.body.count)")
            }
        } else if let length = response.headers["content-length"].flatMap({ Int($0) }), length != response.body.count {
            throw .badResponse(location: location, detail: "Content-Length \(length) but \(response.body.count) bytes arrived")
        }
        return (response.body, info)
    }

    /// Writes `bytes` as the object (one `PUT`; ``upload(bucket:key:size:part:)`` for large objects):
    /// the object appears whole when the server has all of it, or not at all.
    /// - Returns: its ETag.
    @discardableResult
    public func put(bucket: String, key: String, bytes: [UInt8], contentType: String? = nil) throws(StorageError) -> String {
        var headers: [(name: String, value: String)] = [("content-length", "\(bytes.count)")]
        if let contentType { headers.append(("content-type", contentType)) }
        let response = try send(Call(operation: "PutObject", method: "PUT", bucket: bucket, key: key, headers: headers, body: bytes))
        return Self.unquoted(response.headers["etag"] ?? "")
    }

    /// Writes an object of `size` bytes whose bytes `part(range)` gives, in parts of ``partBytes``
    /// uploaded ``partConcurrency`` at a time when it is over ``multipartThresholdBytes`` (else one
    /// `PUT`). The object appears under its key only when `CompleteMultipartUpload` succeeds; a failed
    /// upload is aborted (a killed process leaves an incomplete upload, invisible as an object, which
    /// ``abandonedUploads(bucket:prefix:olderThan:)`` finds).
    /// - Returns: its ETag.
    @discardableResult
    public func upload(bucket: String, key: String, size: Int, contentType: String? = nil,
                       part: @Sendable (Range<Int>) throws(StorageError) -> [UInt8]) throws(StorageError) -> String {
        guard size > multipartThresholdBytes else {
            return try put(bucket: bucket, key: key, bytes: try part(0..<size), contentType: contentType)
        }
        var createHeaders: [(name: String, value: String)] = []
        if let contentType { createHeaders.append(("content-type", contentType)) }
        let created = try send(Call(operation: "CreateMultipartUpload", method: "POST", bucket: bucket, key: key,
                                    query: [("uploads", "")], headers: createHeaders, body: []))
        guard let uploadID = S3XML.value("UploadId", in: String(decoding: created.body, as: UTF8.self)), !uploadID.isEmpty else {
            throw .badResponse(location: "s3://\(bucket)/\(key)", detail: "CreateMultipartUpload answered no UploadId")
        }
        do throws(StorageError) {
            let count = (size + partBytes - 1) / partBytes
            let etags = Mutex([String?](repeating: nil, count: count))
            let failure = Mutex<StorageError?>(nil)
            let next = Mutex(0)
            // Parts are read in order (the reader may be a file read front to back) and sent by several threads.
            let reader = NSLock()
            DispatchQueue.concurrentPerform(iterations: min(partConcurrency, count)) { _ in
                while failure.withLock({ $0 == nil }) {
                    let bytes: [UInt8], number: Int
                    reader.lock()
                    number = next.withLock { n in defer { n += 1 }; return n }
                    guard number < count else { reader.unlock(); return }
                    do throws(StorageError) {
                        bytes = try part((number * partBytes)..<min(size, (number + 1) * partBytes))
                    } catch {
                        reader.unlock()
                        failure.withLock { $0 = $0 ?? error }
                        return
                    }
                    reader.unlock()
                    do throws(StorageError) {
                        let response = try send(Call(operation: "UploadPart", method: "PUT", bucket: bucket, key: key,
                                                     query: [("partNumber", "\(number + 1)"), ("uploadId", uploadID)],
                                                     headers: [("content-length", "\(bytes.count)")], body: bytes))
                        etags.withLock { $0[number] = Self.unquoted(response.headers["etag"] ?? "") }
                    } catch {
                        failure.withLock { $0 = $0 ?? error }
                    }
                }
            }
            if let error = failure.withLock({ $0 }) { throw error }
            let parts = etags.withLock { $0 }
            var body = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
            for (i, etag) in parts.enumerated() {
                body += "<Part><PartNumber>\(i + 1)</PartNumber><ETag>\"\(XMLText.escaped(etag ?? ""))\"</ETag></Part>"
            }
            body += "</CompleteMultipartUpload>"
            let completed = try send(Call(operation: "CompleteMultipartUpload", method: "POST", bucket: bucket, key: key,
                                          query: [("uploadId", uploadID)], headers: [("content-type", "application/xml")],
                                          body: Array(body.utf8)))
            // CompleteMultipartUpload can fail with a 200 whose body is an <Error>.
            let text = String(decoding: completed.body, as: UTF8.self)
            if text.contains("<Error>") {
                throw StorageError.s3(Self.failure(of: HTTPTransport.Response(status: 500, headers: completed.headers, body: completed.body),
                                                   operation: "CompleteMultipartUpload", bucket: bucket, key: key))
            }
            return S3XML.value("ETag", in: text).map(Self.unquoted) ?? ""
        } catch {
            try? abortUpload(bucket: bucket, key: key, uploadID: uploadID)
            throw error
        }
    }

    /// Aborts a multipart upload (its parts are deleted; no object appears).
    public func abortUpload(bucket: String, key: String, uploadID: String) throws(StorageError) {
        _ = try send(Call(operation: "AbortMultipartUpload", method: "DELETE", bucket: bucket, key: key,
                          query: [("uploadId", uploadID)], accepted: [404]))
    }

    /// An incomplete multipart upload.
    public struct Upload: Sendable, Hashable {
        public var key: String
        public var uploadID: String
        public var initiated: Date?
    }

    /// Incomplete multipart uploads under `prefix` (a killed writer's), started before `olderThan`
    /// when given.
    public func incompleteUploads(bucket: String, prefix: String, olderThan: Date? = nil) throws(StorageError) -> [Upload] {
        var uploads: [Upload] = []
        var keyMarker: String?, uploadMarker: String?
        repeat {
            var query: [(name: String, value: String)] = [("uploads", ""), ("prefix", prefix)]
            if let keyMarker { query.append(("key-marker", keyMarker)) }
            if let uploadMarker { query.append(("upload-id-marker", uploadMarker)) }
            let response = try send(Call(operation: "ListMultipartUploads", method: "GET", bucket: bucket, key: nil, query: query,
                                         maximumBodyBytes: 64 << 20))
            let text = String(decoding: response.body, as: UTF8.self)
            for element in S3XML.elements("Upload", in: text[...]) {
                guard let key = S3XML.value("Key", in: element), let id = S3XML.value("UploadId", in: element) else { continue }
                let initiated = S3XML.value("Initiated", in: element).flatMap(HTTPDate.parseISO8601)
                if let olderThan, let initiated, initiated >= olderThan { continue }
                uploads.append(Upload(key: key, uploadID: id, initiated: initiated))
            }
            let truncated = S3XML.value("IsTruncated", in: text) == "true"
            keyMarker = truncated ? S3XML.value("NextKeyMarker", in: text) : nil
            uploadMarker = truncated ? S3XML.value("NextUploadIdMarker", in: text) : nil
        } while keyMarker != nil
        return uploads
    }

    /// Every object whose key starts with `prefix`, in key order, following continuation tokens
    /// (``listPageSize`` keys per request). `page` is called after each page with the count so far.
    public func list(bucket: String, prefix: String, page: ((Int) -> Void)? = nil) throws(StorageError) -> [ObjectInfo] {
        var objects: [ObjectInfo] = []
        var token: String?
        repeat {
            var query: [(name: String, value: String)] = [("list-type", "2"), ("prefix", prefix), ("max-keys", "\(listPageSize)"),
                                                          ("encoding-type", "url")]
            if let token { query.append(("continuation-token", token)) }
            let response: HTTPTransport.Response
            do {
                response = try send(Call(operation: "ListObjectsV2", method: "GET", bucket: bucket, key: nil, query: query,
                                         maximumBodyBytes: 64 << 20))
            } catch .s3(var failure) {
                // Named by the prefix listed, not just the bucket.
                failure.key = prefix.isEmpty ? nil : prefix
                throw .s3(failure)
            }
            let text = String(decoding: response.body, as: UTF8.self)
            guard text.contains("ListBucketResult") else {
                throw .badResponse(location: "s3://\(bucket)/\(prefix)", detail: "ListObjectsV2 answered no ListBucketResult")
            }
            let encoded = S3XML.value("EncodingType", in: text) == "url"
            for element in S3XML.elements("Contents", in: text[...]) {
                guard var key = S3XML.value("Key", in: element) else { continue }
                if encoded { key = SignatureV4.percentDecoded(key.replacingOccurrences(of: "+", with: " ")) }
                objects.append(ObjectInfo(key: key, size: Int(S3XML.value("Size", in: element) ?? "") ?? 0,
                                          etag: Self.unquoted(S3XML.value("ETag", in: element) ?? ""),
                                          lastModified: S3XML.value("LastModified", in: element).flatMap(HTTPDate.parseISO8601)))
            }
            page?(objects.count)
            token = S3XML.value("IsTruncated", in: text) == "true" ? S3XML.value("NextContinuationToken", in: text) : nil
            if token?.isEmpty == true { token = nil }
        } while token != nil
        return objects
    }

    /// Deletes an object (no error when it does not exist).
    public func delete(bucket: String, key: String) throws(StorageError) {
        _ = try send(Call(operation: "DeleteObject", method: "DELETE", bucket: bucket, key: key, accepted: [404]))
    }

    /// Creates a bucket (an existing one of ours is fine).
    public func createBucket(_ bucket: String) throws(StorageError) {
        var body: [UInt8]? = []
        if !configuration.isCustomEndpoint && configuration.region != "us-east-1" {
            body = Array(("<CreateBucketConfiguration xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\"><LocationConstraint>"
                          + configuration.region + "</LocationConstraint></CreateBucketConfiguration>").utf8)
        }
        do {
            _ = try send(Call(operation: "CreateBucket", method: "PUT", bucket: bucket, key: nil, body: body))
        } catch .s3(let failure) where failure.code == "BucketAlreadyOwnedByYou" {
            return
        }
    }

    /// Checks that `bucket` answers (a `ListObjectsV2` of one key — a GET, whose refusal carries S3's
    /// code, where a HEAD's has no body —, one attempt, `timeoutSeconds` at most, the fail-fast window
    /// ignored): what `/v1/health` and `storage check` ask. Success clears a down mark.
    public func probe(bucket: String, timeoutSeconds: Double = 2) throws(StorageError) {
        _ = try send(Call(operation: "ListObjectsV2", method: "GET", bucket: bucket, key: nil,
                          query: [("list-type", "2"), ("max-keys", "1")], timeoutSeconds: timeoutSeconds,
                          maximumBodyBytes: 1 << 20, probing: true, attempts: 1))
    }
}
