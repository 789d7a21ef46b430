import Diagnostics
import Foundation
import Imaging

/// Every error the `Storage` module throws. Each case names the location (a path or `s3://BUCKET/KEY`),
/// what went wrong and what to do.
public enum StorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A location that is neither a path nor `s3://BUCKET[/PREFIX]` (`reason` says what is wrong).
    case invalidLocation(text: String, reason: String)
    /// A setting (an environment variable or a value in `~/.aws/config`) is malformed.
    case invalidConfiguration(name: String, value: String, allowed: String)
    /// No credentials for S3: `searched` lists where they were looked for.
    case missingCredentials(location: String, searched: String)
    /// The object or file does not exist (S3 `NoSuchKey`, a local `ENOENT`).
    case notFound(location: String)
    /// The S3 server refused the request with an error code (`NoSuchBucket`, `AccessDenied`,
    /// `SignatureDoesNotMatch`, …) or kept failing (5xx, throttling) after the retries.
    case s3(S3Failure)
    /// The endpoint cannot be reached: no connection, a timeout, a TLS failure (after the retries).
    case unreachable(endpoint: String, detail: String)
    /// A local file could not be read (`errno`).
    case readFailed(path: String, code: Int32)
    /// A local file could not be written (the disk full, no permission); nothing was replaced.
    case cannotWrite(WriteFailure)
    /// The object changed while it was read in parts (its ETag is not the one the read began with).
    case changedWhileReading(location: String)
    /// The server answered something that is not S3 (`detail` says what).
    case badResponse(location: String, detail: String)

    public var description: String {
        switch self {
        case .invalidLocation(let text, let reason):
            return "'\(text)' is not a folder path or s3://BUCKET/PREFIX: \(reason)"
        case .invalidConfiguration(let name, let value, let allowed):
            return "\(name) '\(value)' is not allowed: \(allowed)"
        case .missingCredentials(let location, let searched):
            return "no S3 credentials for \(location): looked in \(searched); set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                + "or aws_access_key_id and aws_secret_access_key under [default] in ~/.aws/credentials"
        case .notFound(let location):
            return "\(location): no such object or file"
        case .s3(let failure):
            return failure.description
        case .unreachable(let endpoint, let detail):
            return "the object store \(endpoint) cannot be reached: \(detail); check that it runs and that AWS_ENDPOINT_URL "
                + "names it, then retry"
        case .readFailed(let path, let code):
            return "cannot read \(path): \(String(cString: strerror(code))) (errno \(code))"
        case .cannotWrite(let failure):
            return failure.description
        case .changedWhileReading(let location):
            return "\(location) changed while it was being read (another writer replaced it); retry"
        case .badResponse(let location, let detail):
            return "\(location): the server's answer is not S3's: \(detail); check that AWS_ENDPOINT_URL names an S3 endpoint"
        }
    }

    /// Why the store failed, in words that name no endpoint, path or key (what a service tells its
    /// clients; the description, for the operator, has the details).
    public var publicReason: String {
        switch self {
        case .unreachable: "the object store does not answer"
        case .s3(let failure): "the object store answered \(failure.code)"
        case .missingCredentials: "no credentials are configured for the object store"
        case .changedWhileReading: "an object changed while it was read"
        case .badResponse: "the object store's answer is not S3's"
        case .notFound: "an object is missing"
        default: "the object store failed"
        }
    }

    /// Whether this says the store cannot be used now (down, throttling, refusing our credentials), as
    /// opposed to a missing object or a bad value: the service answers these 503 with `Retry-After`.
    public var isUnavailable: Bool { category == .unavailable }
}

extension StorageError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .invalidLocation, .invalidConfiguration, .missingCredentials: .usage
        case .notFound: .missingInput
        case .s3(let failure): failure.category
        case .unreachable, .changedWhileReading, .badResponse: .unavailable
        case .readFailed(_, let code): code == ENOENT || code == ENOTDIR ? .missingInput : .io
        case .cannotWrite(let failure): failure.category
        }
    }

    public var invalidValue: InvalidValue? {
        switch self {
        case .invalidLocation(let text, let reason): InvalidValue(parameter: "location", value: text, allowed: reason)
        case .invalidConfiguration(let name, let value, let allowed): InvalidValue(parameter: name, value: value, allowed: allowed)
        default: nil
        }
    }
}

/// An error answer of an S3 server: the request, the HTTP status and S3's error code and message.
public struct S3Failure: Sendable, Hashable, CustomStringConvertible {
    /// The S3 operation (`GetObject`, `PutObject`, `ListObjectsV2`, …).
    public var operation: String
    /// The bucket.
    public var bucket: String
    /// The object's key (nil for bucket operations).
    public var key: String?
    /// The HTTP status (0 when the request never got one).
    public var status: Int
    /// S3's error code (`NoSuchBucket`, `AccessDenied`, `SignatureDoesNotMatch`, `SlowDown`, …), or
    /// the status's name when the answer had no body (a HEAD).
    public var code: String
    /// S3's message, when it gave one.
    public var message: String
    /// The server's request id (`x-amz-request-id`), for its operator.
    public var requestID: String?
    /// The bucket's region when the server named it (a wrong-region redirect).
    public var region: String?
    /// The access key ID the request was signed with (never the secret).
    public var accessKeyID: String?
    /// Attempts made (more than one when it kept failing with a retryable error).
    public var attempts: Int = 1

    public init(operation: String, bucket: String, key: String?, status: Int, code: String, message: String,
                requestID: String? = nil, region: String? = nil, accessKeyID: String? = nil, attempts: Int = 1) {
        self.operation = operation
        self.bucket = bucket
        self.key = key
        self.status = status
        self.code = code
        self.message = message
        self.requestID = requestID
        self.region = region
        self.accessKeyID = accessKeyID
        self.attempts = attempts
    }

    /// `s3://BUCKET/KEY` (or `s3://BUCKET`).
    public var location: String { "s3://\(bucket)" + (key.map { "/\($0)" } ?? "") }

    /// Whether repeating the same request may succeed (5xx, throttling, a request timeout).
    public var isRetryable: Bool {
        status >= 500 || status == 429 || ["SlowDown", "RequestTimeout", "Throttling", "ThrottlingException", "InternalError",
                                           "ServiceUnavailable", "RequestLimitExceeded"].contains(code)
    }

    /// What to do about it, by code.
    public var remedy: String {
        switch code {
        case "SignatureDoesNotMatch":
            return "the secret key does not belong to the access key \(accessKeyID ?? "given"): check AWS_SECRET_ACCESS_KEY "
                + "(or aws_secret_access_key in ~/.aws/credentials)"
        case "InvalidAccessKeyId":
            return "the server knows no access key \(accessKeyID ?? "given"): check AWS_ACCESS_KEY_ID (or aws_access_key_id in ~/.aws/credentials)"
        case "ExpiredToken", "InvalidToken", "TokenRefreshRequired":
            return "the session token has expired or is malformed: get new temporary credentials (AWS_SESSION_TOKEN)"
        case "AccessDenied", "AllAccessDisabled", "Forbidden":
            return "the credentials (access key \(accessKeyID ?? "given")) may not \(operation) here: grant the permission or use other credentials"
        case "NoSuchBucket":
            return "create the bucket or check its name (and AWS_ENDPOINT_URL, the server it is looked for on)"
        case "NoSuchKey", "NotFound":
            return "check the key, or write the object first"
        case "PermanentRedirect", "AuthorizationHeaderMalformed", "IllegalLocationConstraintException":
            return "the bucket is in another region" + (region.map { " (\($0))" } ?? "") + ": set AWS_REGION to it"
        case "RequestTimeTooSkewed":
            return "this machine's clock is too far from the server's: synchronise it (NTP)"
        case "EntityTooLarge", "EntityTooSmall":
            return "the object's size is outside what the server accepts for one request"
        default:
            return isRetryable ? "the server kept failing after \(attempts) attempts: retry later" : "see the server's message"
        }
    }

    public var description: String {
        var text = "S3 \(operation) of \(location) failed: \(code)"
        if status > 0 { text += " (HTTP \(status))" }
        if !message.isEmpty { text += ": \(message)" }
        text += "; \(remedy)"
        if let requestID, !requestID.isEmpty { text += " [request id \(requestID)]" }
        return text
    }

    /// Missing objects and buckets are missing input; refusals, throttling and server errors mean the
    /// store cannot be used now.
    public var category: ErrorCategory {
        switch code {
        case "NoSuchKey", "NotFound", "NoSuchBucket", "NoSuchUpload": .missingInput
        case "InvalidArgument", "InvalidRange", "KeyTooLongError", "InvalidBucketName", "EntityTooLarge", "EntityTooSmall": .usage
        default: .unavailable
        }
    }
}
