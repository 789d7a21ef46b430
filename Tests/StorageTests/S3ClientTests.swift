import Diagnostics
import Foundation
import Storage
import Testing
import TestSupport

/// The S3 client against a real S3 server (SeaweedFS, with credentials) and against a scripted one
/// (retries, error answers, an endpoint that is gone).
@Suite(.serialized) struct S3ClientTests {
    static func client(_ server: S3TestServer, secret: String? = nil, accessKey: String? = nil, listPageSize: Int = 1000,
                       partBytes: Int = 8 << 20, threshold: Int = 16 << 20) throws -> S3Client {
        let credentials = server.credentials
        let configuration = try S3Configuration(endpoint: server.endpoint,
                                                credentials: S3Credentials(accessKeyID: accessKey ?? credentials.accessKeyID,
                                                                           secretAccessKey: secret ?? credentials.secretAccessKey))
        return S3Client(configuration: configuration, listPageSize: listPageSize, partBytes: partBytes, multipartThresholdBytes: threshold)
    }

    static func pattern(_ count: Int, seed: UInt32 = 1) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }

    @Test(.enabled(if: S3TestServer.shared != nil, Comment(rawValue: S3TestServer.skipNote)))
    func objectsRoundTripWholeByRangeListedAndDeleted() throws {
        let server = try #require(S3TestServer.shared)
        let s3 = try Self.client(server, listPageSize: 3)
        let bucket = S3TestServer.bucketName("roundtrip")
        try s3.createBucket(bucket)
        try s3.createBucket(bucket)  // again: already ours, fine
        let bytes = Self.pattern(100_000)
        let etag = try s3.put(bucket: bucket, key: "a dir/ä b+c.bin", bytes: bytes)
        #expect(etag == Digest.hex(md5(bytes)), "single-part ETag is the MD5")
        let whole = try s3.get(bucket: bucket, key: "a dir/ä b+c.bin")
        #expect(whole.bytes == bytes && whole.info.size == bytes.count && whole.info.etag == etag)
        let part = try s3.get(bucket: bucket, key: "a dir/ä b+c.bin", range: 1000..<1010)
        #expect(part.bytes == Array(bytes[1000..<1010]))
        #expect(part.info.size == bytes.count, "the total size comes from Content-Range")
        let tail = try s3.get(bucket: bucket, key: "a dir/ä b+c.bin", range: 99_990..<100_100)
        #expect(tail.bytes == Array(bytes[99_990...]), "a range past the end gives what there is")
        #expect(try s3.head(bucket: bucket, key: "a dir/ä b+c.bin").size == bytes.count)

        // Keep-alive: consecutive requests reuse one pooled connection.
        let before = s3.statistics.snapshot
        for _ in 0..<20 { _ = try s3.get(bucket: bucket, key: "a dir/ä b+c.bin", range: 0..<16) }
        let used = s3.statistics.snapshot.since(before)
        #expect(used.requests == 20 && used.connectionsOpened <= 1, "\(used.connectionsOpened) connections for 20 requests")
        for i in 0..<10 { try s3.put(bucket: bucket, key: "list/\(String(format: "%02d", i)).txt", bytes: Array("\(i)".utf8)) }
        var pages = 0
        let listed = try s3.list(bucket: bucket, prefix: "list/") { _ in pages += 1 }
        #expect(listed.map(\.key) == (0..<10).map { "list/\(String(format: "%02d", $0)).txt" })
        #expect(pages == 4, "10 keys at 3 a page: continuation tokens followed")
        #expect(listed.allSatisfy { $0.size == 1 && !$0.etag.isEmpty && $0.lastModified != nil })

        try s3.delete(bucket: bucket, key: "a dir/ä b+c.bin")
        try s3.delete(bucket: bucket, key: "a dir/ä b+c.bin")  // gone already: fine
        #expect(throws: StorageError.notFound(location: "s3://\(bucket)/a dir/ä b+c.bin")) {
            try s3.head(bucket: bucket, key: "a dir/ä b+c.bin")
        }
        #expect(throws: StorageError.notFound(location: "s3://\(bucket)/nothing")) { try s3.get(bucket: bucket, key: "nothing") }
    }

    @Test(.enabled(if: S3TestServer.shared != nil, Comment(rawValue: S3TestServer.skipNote)))
    func largeObjectsGoUpInPartsAndAppearWhole() throws {
        let server = try #require(S3TestServer.shared)
        let s3 = try Self.client(server, partBytes: 5 << 20, threshold: 5 << 20)
        let bucket = S3TestServer.bucketName("multipart")
        try s3.createBucket(bucket)
        let bytes = Self.pattern(12 << 20, seed: 7)
        let etag = try s3.upload(bucket: bucket, key: "big.bin", size: bytes.count) { range in Array(bytes[range]) }
        #expect(etag.hasSuffix("-3"), "three parts: \(etag)")
        let back = try s3.get(bucket: bucket, key: "big.bin")
        #expect(back.bytes.count == bytes.count && Digest.sha256(back.bytes) == Digest.sha256(bytes))
        #expect(try s3.incompleteUploads(bucket: bucket, prefix: "").isEmpty, "nothing left incomplete")

        // A part that cannot be read: the upload is aborted and no object appears.
        #expect(throws: StorageError.self) {
            try s3.upload(bucket: bucket, key: "broken.bin", size: bytes.count) { range throws(StorageError) in
                if range.lowerBound >= 5 << 20 { throw .readFailed(path: "source", code: EIO) }
                return Array(bytes[range])
            }
        }
        #expect(throws: StorageError.notFound(location: "s3://\(bucket)/broken.bin")) { try s3.head(bucket: bucket, key: "broken.bin") }
        #expect(try s3.incompleteUploads(bucket: bucket, prefix: "").isEmpty, "the failed upload was aborted")
    }

    @Test(.enabled(if: S3TestServer.shared != nil, Comment(rawValue: S3TestServer.skipNote)))
    func errorsNameTheBucketTheKeyAndS3sCode() throws {
        let server = try #require(S3TestServer.shared)
        let s3 = try Self.client(server)
        let bucket = S3TestServer.bucketName("errors")
        try s3.createBucket(bucket)
        try s3.put(bucket: bucket, key: "pano.jpg", bytes: [1, 2, 3])

        func failure(_ body: () throws -> Void) -> (S3Failure?, String) {
            do { try body() } catch let error as StorageError {
                if case .s3(let failure) = error { return (failure, error.description) }
                return (nil, error.description)
            } catch { return (nil, "\(error)") }
            return (nil, "no error")
        }
        let (missingBucket, missingText) = failure { _ = try s3.get(bucket: "no-such-bucket-here", key: "pano.jpg") }
        #expect(missingBucket?.code == "NoSuchBucket", "\(missingText)")
        #expect(missingText.contains("s3://no-such-bucket-here/pano.jpg") && missingText.contains("NoSuchBucket"), "\(missingText)")
        #expect(StorageError.s3(missingBucket!).category == .missingInput)

        let wrong = try Self.client(server, secret: "not-the-secret")
        let (signature, signatureText) = failure { _ = try wrong.get(bucket: bucket, key: "pano.jpg") }
        #expect(signature?.code == "SignatureDoesNotMatch", "\(signatureText)")
        #expect(signatureText.contains("s3://\(bucket)/pano.jpg") && signatureText.contains("AWS_SECRET_ACCESS_KEY")
                && signatureText.contains(server.credentials.accessKeyID) && !signatureText.contains(server.credentials.secretAccessKey),
                "\(signatureText)")
        #expect(signature?.attempts == 1, "a refused signature is not retried")
        #expect(StorageError.s3(signature!).isUnavailable)

        let unknown = try Self.client(server, accessKey: "AKIANOBODYKNOWS")
        let (key, keyText) = failure { _ = try unknown.get(bucket: bucket, key: "pano.jpg") }
        #expect(key?.code == "InvalidAccessKeyId", "\(keyText)")

        let readerSecret = try String(contentsOfFile: server.directory + "/aws/credentials", encoding: .utf8)
            .split(separator: "\n").filter { $0.hasPrefix("aws_secret_access_key") }.last.map { String($0.split(separator: " ").last!) }
        let reader = try Self.client(server, secret: readerSecret, accessKey: "LOOKAROUNDREADER")
        #expect(try reader.get(bucket: bucket, key: "pano.jpg").bytes == [1, 2, 3], "the reader may read")
        let (denied, deniedText) = failure { try reader.put(bucket: bucket, key: "pano.jpg", bytes: [9]) }
        #expect(denied?.code == "AccessDenied", "\(deniedText)")
        #expect(deniedText.contains("PutObject") && deniedText.contains("s3://\(bucket)/pano.jpg"), "\(deniedText)")
        #expect(try s3.get(bucket: bucket, key: "pano.jpg").bytes == [1, 2, 3], "nothing was written")
    }

    @Test func serverErrorsAndThrottlingAreRetriedWithBackoff() throws {
        let server = try ScriptedHTTPServer([
            .init(status: 503, body: "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>"),
            .init(status: 500, body: "<Error><Code>InternalError</Code><Message>We encountered an internal error.</Message></Error>"),
            .init(status: 200, headers: [("ETag", "\"abc\""), ("Content-Type", "text/plain")], body: "hello"),
        ])
        defer { server.stop() }
        let s3 = S3Client(configuration: try S3Configuration(endpoint: server.endpoint, credentials: S3Credentials(accessKeyID: "K", secretAccessKey: "S")))
        let start = Date()
        let got = try s3.get(bucket: "bucket", key: "key")
        #expect(got.bytes == Array("hello".utf8) && got.info.etag == "abc")
        #expect(server.requests.count == 3, "two retries")
        #expect(Date().timeIntervalSince(start) >= S3Client.backoffBaseSeconds / 2, "it waited before retrying")
        #expect(server.requests.allSatisfy { $0.contains("Authorization: AWS4-HMAC-SHA256 Credential=K/") && $0.contains("x-amz-content-sha256:") })
        #expect(server.requests[0].hasPrefix("GET /bucket/key HTTP/1.1"), "path-style: \(server.requests[0])")
    }

    @Test func persistentServerErrorsEndWithTheCodeAndTheAttempts() throws {
        let slowDown = ScriptedHTTPServer.Response(status: 503, body: "<Error><Code>SlowDown</Code><Message>Reduce your rate.</Message></Error>")
        let server = try ScriptedHTTPServer(Array(repeating: slowDown, count: 4))
        defer { server.stop() }
        let s3 = S3Client(configuration: try S3Configuration(endpoint: server.endpoint, credentials: S3Credentials(accessKeyID: "K", secretAccessKey: "S"),
                                                             maximumAttempts: 4))
        do {
            _ = try s3.get(bucket: "bucket", key: "a/b.jpg")
            Issue.record("no error")
        } catch {
            guard case .s3(let failure) = error else { Issue.record("\(error)"); return }
            #expect(failure.code == "SlowDown" && failure.attempts == 4 && failure.status == 503, "\(error)")
            #expect(error.description.contains("s3://bucket/a/b.jpg") && error.description.contains("after 4 attempts"), "\(error)")
            #expect(error.isUnavailable)
        }
        #expect(server.requests.count == 4, "\(server.requests)")
    }

    @Test func anEndpointThatIsGoneFailsFastThenIsTriedAgain() throws {
        // A port nothing listens on.
        let server = try ScriptedHTTPServer([])
        let endpoint = server.endpoint
        server.stop()
        let s3 = S3Client(configuration: try S3Configuration(endpoint: endpoint, credentials: S3Credentials(accessKeyID: "K", secretAccessKey: "S"),
                                                             maximumAttempts: 3))
        let start = Date()
        #expect(throws: StorageError.self) { try s3.head(bucket: "bucket", key: "x") }
        let first = Date().timeIntervalSince(start)
        #expect(s3.unreachableReason != nil)
        let again = Date()
        do {
            _ = try s3.head(bucket: "bucket", key: "x")
        } catch {
            guard case .unreachable(let named, let detail) = error else { Issue.record("\(error)"); return }
            #expect(named == endpoint && detail.contains("not retried before"), "\(detail)")
            #expect(error.description.contains("AWS_ENDPOINT_URL"))
        }
        #expect(Date().timeIntervalSince(again) < 0.05, "failed fast (the first took \(first) s)")
        Thread.sleep(forTimeInterval: S3Client.failFastSeconds + 0.1)
        #expect(throws: StorageError.self) { try s3.head(bucket: "bucket", key: "x") }
    }

    @Test func virtualHostAddressingPutsTheBucketInTheHost() throws {
        let server = try ScriptedHTTPServer([.init(status: 200, headers: [("ETag", "\"e\"")], body: "x")])
        defer { server.stop() }
        // curl resolves *.localhost to the loopback address itself (RFC 6761), so no DNS is needed.
        let s3 = S3Client(configuration: try S3Configuration(endpoint: "http://localhost:\(server.port)", credentials: S3Credentials(accessKeyID: "K", secretAccessKey: "S"),
                                                             addressingStyle: .virtual))
        _ = try s3.get(bucket: "imagery", key: "helsinki/pano.jpg")
        let head = try #require(server.requests.first)
        #expect(head.hasPrefix("GET /helsinki/pano.jpg HTTP/1.1"), "\(head)")
        #expect(head.contains("Host: imagery.localhost:\(server.port)"), "\(head)")
    }
}

/// MD5, only to check S3's single-part ETags (through the system's md5sum, no library needed).
func md5(_ bytes: [UInt8]) -> [UInt8] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("md5-\(UUID().uuidString)")
    try? Data(bytes).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let result = try? Lookaround.runProcess("/usr/bin/md5sum", [file.path])
    let hex = String(result?.stdout.prefix(32) ?? "")
    return stride(from: 0, to: hex.count, by: 2).compactMap { i in
        UInt8(hex[hex.index(hex.startIndex, offsetBy: i)..<hex.index(hex.startIndex, offsetBy: i + 2)], radix: 16)
    }
}
