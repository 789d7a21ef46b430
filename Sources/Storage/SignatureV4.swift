import Foundation

/// AWS Signature Version 4 (header-based), as AWS documents it and its published test suite checks:
/// a canonical request, the string to sign, the signing key derived from the secret, date, region and
/// service, and the `Authorization` header.
///
/// Two path rules: services in general normalise the path (dot segments removed, repeated slashes
/// collapsed) before encoding it; S3 signs the key exactly as it is (`a//b` is another object than
/// `a/b`), encoded once (``isS3``). Checked against the AWS suite (every case, generic rules) and
/// against botocore's S3 signer (`Tests/StorageTests`).
public struct SignatureV4: Sendable {
    /// The credentials requests are signed with.
    public var credentials: S3Credentials
    /// The region in the credential scope (`us-east-1`).
    public var region: String
    /// The service in the credential scope (`s3`).
    public var service: String
    /// S3's path rule: the path is neither normalised nor encoded twice.
    public var isS3: Bool

    public init(credentials: S3Credentials, region: String, service: String = "s3", isS3: Bool = true) {
        self.credentials = credentials
        self.region = region
        self.service = service
        self.isS3 = isS3
    }

    /// A request as it is signed.
    public struct Request: Sendable {
        /// `GET`, `PUT`, …
        public var method: String
        /// The path as sent but not percent-encoded (`/bucket/a key.jpg`).
        public var path: String
        /// Query parameters, names and values not percent-encoded, in any order.
        public var query: [(name: String, value: String)]
        /// Every header to sign (any case, in any order; a repeated name is joined with commas in order).
        public var headers: [(name: String, value: String)]
        /// The hex SHA-256 of the body (or `UNSIGNED-PAYLOAD`).
        public var payloadHash: String

        public init(method: String, path: String, query: [(name: String, value: String)] = [],
                    headers: [(name: String, value: String)], payloadHash: String = Digest.emptyPayloadHash) {
            self.method = method
            self.path = path
            self.query = query
            self.headers = headers
            self.payloadHash = payloadHash
        }
    }

    /// Percent-encoding of everything but the unreserved characters (`A-Z a-z 0-9 - . _ ~`), and of `/`
    /// too unless `keepingSlashes`: RFC 3986 as SigV4 wants it (a space is `%20`, never `+`).
    public static func percentEncoded(_ text: String, keepingSlashes: Bool) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepingSlashes:
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Percent-decoding (`%XX` to the byte; anything else as it is; invalid escapes kept as they are).
    public static func percentDecoded(_ text: String) -> String {
        var bytes = Array(text.utf8), out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        func value(_ b: UInt8) -> UInt8? {
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): b - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count, let high = value(bytes[i + 1]), let low = value(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        bytes = []
        return String(decoding: out, as: UTF8.self)
    }

    /// The canonical URI: for S3 the path encoded once as it is; otherwise normalised first (`.` and
    /// `..` segments resolved, empty segments dropped, a trailing slash kept).
    public func canonicalURI(_ path: String) -> String {
        var path = path.isEmpty ? "/" : path
        if !isS3 {
            var segments: [Substring] = []
            for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
                if segment == "." { continue }
                if segment == ".." { _ = segments.popLast(); continue }
                segments.append(segment)
            }
            let trailing = path.hasSuffix("/") && !segments.isEmpty
            path = "/" + segments.joined(separator: "/") + (trailing ? "/" : "")
        }
        return Self.percentEncoded(path, keepingSlashes: true)
    }

    /// The canonical query string: names and values encoded, sorted by name then value, `name=value`
    /// joined with `&` (a parameter without a value is `name=`).
    public static func canonicalQuery(_ query: [(name: String, value: String)]) -> String {
        var pairs: [(name: String, value: String)] = query.map { item in
            (percentEncoded(item.name, keepingSlashes: false), percentEncoded(item.value, keepingSlashes: false))
        }
        pairs.sort { a, b in a.name == b.name ? a.value < b.value : a.name < b.name }
        return pairs.map { pair in pair.name + "=" + pair.value }.joined(separator: "&")
    }

    /// The canonical headers (lowercase names, sorted; values trimmed with inner runs of whitespace
    /// made one space; repeated names joined with commas in order) and the signed-header list.
    public static func canonicalHeaders(_ headers: [(name: String, value: String)]) -> (text: String, signed: String) {
        var values: [String: [String]] = [:]
        for (name, value) in headers {
            let collapsed = value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                .joined(separator: " ")
            values[name.lowercased(), default: []].append(collapsed)
        }
        let names = values.keys.sorted()
        let text = names.map { "\($0):\(values[$0]!.joined(separator: ","))\n" }.joined()
        return (text, names.joined(separator: ";"))
    }

    /// The canonical request: method, URI, query, headers, signed headers, payload hash.
    public func canonicalRequest(_ request: Request) -> String {
        let headers = Self.canonicalHeaders(request.headers)
        return [request.method, canonicalURI(request.path), Self.canonicalQuery(request.query), headers.text,
                headers.signed, request.payloadHash].joined(separator: "\n")
    }

    /// `yyyyMMddTHHmmssZ` (UTC) of `date`, as `X-Amz-Date` carries it.
    public static func timestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday),
                      Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// `date/region/service/aws4_request` for the day of `timestamp`.
    public func credentialScope(timestamp: String) -> String {
        "\(timestamp.prefix(8))/\(region)/\(service)/aws4_request"
    }

    /// The string to sign of a canonical request at `timestamp` (`yyyyMMddTHHmmssZ`).
    public func stringToSign(canonicalRequest: String, timestamp: String) -> String {
        ["AWS4-HMAC-SHA256", timestamp, credentialScope(timestamp: timestamp), Digest.hex(Digest.sha256(canonicalRequest))]
            .joined(separator: "\n")
    }

    /// The signing key of the day `yyyyMMdd`: HMAC chain of `AWS4` + secret, date, region, service, `aws4_request`.
    public func signingKey(day: String) -> [UInt8] {
        var key = Digest.hmacSHA256(key: Array(("AWS4" + credentials.secretAccessKey).utf8), day)
        key = Digest.hmacSHA256(key: key, region)
        key = Digest.hmacSHA256(key: key, service)
        return Digest.hmacSHA256(key: key, "aws4_request")
    }

    /// The `Authorization` header value of `request` (which must carry its `X-Amz-Date` = `timestamp`).
    public func authorization(_ request: Request, timestamp: String) -> String {
        let canonical = canonicalRequest(request)
        let signature = Digest.hex(Digest.hmacSHA256(key: signingKey(day: String(timestamp.prefix(8))),
                                                     stringToSign(canonicalRequest: canonical, timestamp: timestamp)))
        return "AWS4-HMAC-SHA256 Credential=\(credentials.accessKeyID)/\(credentialScope(timestamp: timestamp)), "
            + "SignedHeaders=\(Self.canonicalHeaders(request.headers).signed), Signature=\(signature)"
    }

    /// Adds what a signed S3 request carries to `request` — `x-amz-date`, `x-amz-content-sha256`,
    /// `x-amz-security-token` for temporary credentials — and returns every header to send, the
    /// `Authorization` last.
    public func signed(_ request: Request, at date: Date) -> [(name: String, value: String)] {
        var request = request
        let timestamp = Self.timestamp(date)
        request.headers.append(("x-amz-date", timestamp))
        request.headers.append(("x-amz-content-sha256", request.payloadHash))
        if let token = credentials.sessionToken { request.headers.append(("x-amz-security-token", token)) }
        return request.headers + [("Authorization", authorization(request, timestamp: timestamp))]
    }
}
