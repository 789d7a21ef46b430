import Diagnostics
import Foundation

/// Every error the `Service` module reports, and the one table from error to what a client is told:
/// HTTP status (``httpStatus``: the ``ErrorCategory``'s, refined only where HTTP names the refusal),
/// native error code (``code``), Street View status (``streetViewStatus``), OSRM code (``osrmCode``),
/// the parameter at fault (``parameter``, carried as data) and the public text (``publicDescription``
/// for failures inside, whose ``description`` is for the operator's log only).
///
/// Native routes answer `{"error": {"code", "message", "parameter"}}`; the Street View compatible
/// routes answer Google's shapes (a `status` field for metadata, a status code and text for images);
/// OSRM's route answers `{"code", "message"}`. `ErrorAnswers` writes every one of them.
public enum ServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `Retry-After` on the 503 of a catalog database or an imagery store that cannot be reached, seconds:
    /// longer than the engine's answer to overload (``HTTPServerConfiguration/retryAfterSeconds``), since a
    /// store comes back more slowly than a queue drains.
    public static let unreachableStoreRetryAfterSeconds = 2

    /// A query parameter is missing, malformed or out of range (`parameter` names it; nil when the
    /// mistake is not one parameter's).
    case invalidParameter(parameter: String?, message: String)
    /// No route has this path.
    case notFound(path: String)
    /// The path exists but not for this method.
    case methodNotAllowed(method: String, allowed: [String])
    /// No panorama with this id.
    case unknownPanorama(id: String)
    /// No place matches the name.
    case placeNotFound(name: String)
    /// No imagery, route or result where a library looked (its message says where and why).
    case noImagery(detail: String)
    /// No route between the places asked for: `reason` is the routing library's code
    /// (`no_street_near_source`, `no_street_near_destination`, `disconnected`), `detail` says where and why.
    case noRoute(reason: String, detail: String)
    /// The request has no valid API key (the server was started with `--api-key-file`).
    case forbidden
    /// No `kind` (an upload set, a sequence) with this id.
    case unknownResource(kind: String, id: String)
    /// The body is larger than the limit.
    case bodyTooLarge(limitBytes: Int)
    /// An upload refused (Panoramax's routes): `status` 401 (no valid upload token), 409 (already there),
    /// 413 (over `--max-upload-bytes`), 415 (not a JPEG), 400 (the picture's own checks), 503 (blurring
    /// unavailable); `code` and `message` name the value and the limit or form.
    case uploadRefused(status: Int, code: String, message: String, parameter: String?)
    /// A batch holds more requests than the limit.
    case batchTooLarge(count: Int, limit: Int)
    /// An image larger than `--max-image-pixels`.
    case imageTooLarge(pixels: Int, limit: Int)
    /// Too much work queued or the server is stopping: try again shortly.
    case overloaded(retryAfterSeconds: Int)
    /// A panorama or tile file that cannot be read (damaged, missing on disk).
    case unreadableImagery(panoramaID: String, detail: String)
    /// The catalog failed (SQLite, PostgreSQL).
    case catalogFailed(detail: String)
    /// The catalog's database cannot be reached (down, failing over, every connection busy): 503 with
    /// `Retry-After`, so a load balancer sends the request to another process or the client retries.
    case catalogUnavailable(detail: String)
    /// The object store holding the imagery cannot be used now (unreachable, throttling, refusing the
    /// credentials): 503 with `Retry-After`; `reason` names no endpoint or key (``StorageError/publicReason``),
    /// `detail` is for the operator's log. Requests that need no imagery are answered as usual.
    case storageUnavailable(reason: String, detail: String)
    /// Anything else that went wrong inside.
    case internalError(detail: String)
    /// The request breaks HTTP/1.1's framing or syntax (a bare CR, a folded header, two different
    /// `Content-Length`s, `Content-Length` with `Transfer-Encoding`, a control character): `detail` says which.
    case malformedRequest(detail: String)
    /// The request target is longer than the limit or has too many query parameters.
    case requestTargetTooLong(detail: String)
    /// The request's head (request line and header fields) is larger than the limit.
    case headersTooLarge(detail: String)
    /// A `Content-Length` too large to be a body anyone would send.
    case contentLengthTooLarge(value: String)
    /// A route that takes no body was sent one.
    case unexpectedBody(path: String)
    /// A `Transfer-Encoding` other than chunked.
    case unsupportedTransferCoding(coding: String)
    /// An `Expect` other than `100-continue`.
    case expectationFailed(expectation: String)
    /// A protocol version other than HTTP/1.0 and HTTP/1.1.
    case httpVersionNotSupported(version: String)
    /// The head or the body did not arrive within its deadline (a slow or stalled client).
    case requestTimeout(seconds: Int)
    /// The client's address holds as many connections as one address may.
    case tooManyConnections(limit: Int)
    /// The server could not listen (bad address, port in use).
    case cannotListen(address: String, detail: String)
    /// A configuration file (API keys) could not be read.
    case badConfiguration(file: String, detail: String)

    /// The HTTP status: the category's (``ErrorCategory/httpStatus``, the one table from a kind of
    /// failure to a status), or the finer status HTTP itself names for this refusal (``protocolStatus``).
    public var httpStatus: Int { protocolStatus ?? category.httpStatus }

    /// The status RFC 9110 names for a refusal more exactly than its category's (403 for a missing key,
    /// 405 for a method, 413/414/431 for sizes, 501/505 for what the server does not implement…); nil
    /// for every other error, which answers its category's status. Never the category's own status.
    var protocolStatus: Int? {
        switch self {
        case .forbidden: 403
        case .notFound, .unknownResource: 404
        case .methodNotAllowed: 405
        case .requestTimeout: 408
        case .bodyTooLarge, .contentLengthTooLarge, .unexpectedBody: 413
        case .requestTargetTooLong: 414
        case .expectationFailed: 417
        case .headersTooLarge: 431
        case .unsupportedTransferCoding: 501
        case .httpVersionNotSupported: 505
        case .uploadRefused(let status, _, _, _): status
        default: nil
        }
    }

    /// The machine-readable code of native error answers.
    public var code: String {
        switch self {
        case .invalidParameter: "invalid_parameter"
        case .notFound: "not_found"
        case .methodNotAllowed: "method_not_allowed"
        case .unknownPanorama: "unknown_panorama"
        case .placeNotFound: "place_not_found"
        case .noImagery: "no_imagery"
        case .noRoute(let reason, _): reason
        case .forbidden: "forbidden"
        case .unknownResource: "not_found"
        case .bodyTooLarge, .contentLengthTooLarge: "body_too_large"
        case .unexpectedBody: "unexpected_body"
        case .malformedRequest: "malformed_request"
        case .requestTargetTooLong: "uri_too_long"
        case .headersTooLarge: "headers_too_large"
        case .unsupportedTransferCoding: "unsupported_transfer_coding"
        case .expectationFailed: "expectation_failed"
        case .httpVersionNotSupported: "http_version_not_supported"
        case .requestTimeout: "request_timeout"
        case .tooManyConnections: "too_many_connections"
        case .batchTooLarge: "batch_too_large"
        case .imageTooLarge: "image_too_large"
        case .overloaded: "overloaded"
        case .unreadableImagery: "unreadable_imagery"
        case .catalogFailed: "catalog_failed"
        case .catalogUnavailable: "catalog_unavailable"
        case .storageUnavailable: "storage_unavailable"
        case .internalError, .cannotListen, .badConfiguration: "internal_error"
        case .uploadRefused(_, let code, _, _): code
        }
    }

    /// Google's `status` for the same failure on the Street View routes.
    public var streetViewStatus: String {
        switch self {
        case .invalidParameter, .batchTooLarge, .imageTooLarge, .bodyTooLarge, .methodNotAllowed, .notFound, .malformedRequest,
             .requestTargetTooLong, .headersTooLarge, .contentLengthTooLarge, .unexpectedBody, .unsupportedTransferCoding,
             .expectationFailed, .httpVersionNotSupported, .requestTimeout, .uploadRefused:
            "INVALID_REQUEST"
        case .unknownPanorama, .noImagery, .noRoute, .unknownResource: "ZERO_RESULTS"
        case .placeNotFound: "NOT_FOUND"
        case .forbidden: "REQUEST_DENIED"
        case .overloaded, .tooManyConnections, .unreadableImagery, .catalogFailed, .catalogUnavailable, .storageUnavailable, .internalError,
             .cannotListen, .badConfiguration:
            "UNKNOWN_ERROR"
        }
    }

    /// OSRM's `code` for the same failure on its route (`/route/v1`): its names for a bad URL, profile,
    /// coordinate or option, a start or end away from every street, no route; `InternalError` for a
    /// failure inside (answered with its category's 5xx).
    public var osrmCode: String {
        switch self {
        case .invalidParameter(let parameter, _):
            switch parameter {
            case "path": "InvalidUrl"
            case "profile": "InvalidOptions"
            case "coordinates": "InvalidValue"
            default: "InvalidQuery"
            }
        case .noRoute(let reason, _): reason.hasPrefix("no_street_near") ? "NoSegment" : "NoRoute"
        case .noImagery, .unknownPanorama, .placeNotFound, .unknownResource: "NoRoute"
        case .notFound, .methodNotAllowed, .malformedRequest, .requestTargetTooLong, .headersTooLarge, .contentLengthTooLarge,
             .unexpectedBody, .bodyTooLarge, .batchTooLarge, .imageTooLarge, .unsupportedTransferCoding, .expectationFailed,
             .httpVersionNotSupported, .requestTimeout, .forbidden, .uploadRefused:
            "InvalidUrl"
        case .overloaded, .tooManyConnections, .catalogUnavailable, .storageUnavailable, .unreadableImagery, .catalogFailed, .internalError,
             .cannotListen, .badConfiguration:
            "InternalError"
        }
    }

    /// The query parameter at fault, when there is one.
    public var parameter: String? {
        switch self {
        case .invalidParameter(let parameter, _): parameter
        case .unknownPanorama: "id"
        case .placeNotFound: "near"
        case .forbidden: "key"
        case .batchTooLarge: "body"
        case .imageTooLarge: "size"
        case .uploadRefused(_, _, _, let parameter): parameter
        default: nil
        }
    }

    /// What a client is told of a failure inside, without the details (file paths, library messages,
    /// database addresses) that ``description`` has for the operator's log; nil for the failures a
    /// client caused, whose description is for the client.
    public var publicDescription: String? {
        switch self {
        case .unreadableImagery(let id, _): "the imagery of panorama '\(id)' cannot be read"
        case .catalogFailed: "the catalog failed"
        case .catalogUnavailable: "the catalog's database cannot be reached now; retry shortly"
        case .storageUnavailable(let reason, _): "the imagery cannot be read now: \(reason); retry shortly"
        case .internalError, .cannotListen, .badConfiguration: "internal error"
        default: nil
        }
    }

    /// One sentence naming the bad value, the allowed range or form, and what to do.
    public var description: String {
        switch self {
        case .invalidParameter(_, let message): message
        case .notFound(let path): "no route \(path); see /v1/openapi.json for the routes"
        case .methodNotAllowed(let method, let allowed): "\(method) is not allowed here; allowed \(allowed.joined(separator: ", "))"
        case .unknownPanorama(let id): "no panorama with id '\(id)' in the catalog"
        case .placeNotFound(let name): "no place matches '\(name)'; try /v1/search?q=\(name)"
        case .noImagery(let detail): detail
        case .noRoute(_, let detail): detail
        case .forbidden: "a valid API key is required: pass it once, as key=… or as the X-API-Key header"
        case .unknownResource(let kind, let id): "no \(kind) with id '\(id)'"
        case .bodyTooLarge(let limit): "the request body is over the limit of \(limit) bytes"
        case .contentLengthTooLarge(let value): "Content-Length \(value) is over any limit; bodies are bounded per route (see /v1/openapi.json)"
        case .unexpectedBody(let path): "\(path) takes no request body; send the request without one"
        case .malformedRequest(let detail): "malformed HTTP/1.1 request: \(detail)"
        case .requestTargetTooLong(let detail): "\(detail); shorten the URL or use POST /v1/scenes for many requests"
        case .headersTooLarge(let detail): "\(detail); send fewer or shorter header fields"
        case .unsupportedTransferCoding(let coding): "Transfer-Encoding '\(coding)' is not supported; send Content-Length or chunked"
        case .expectationFailed(let expectation): "Expect '\(expectation)' is not supported; only 100-continue is"
        case .httpVersionNotSupported(let version): "\(version) is not supported; speak HTTP/1.1 (or HTTP/1.0)"
        case .requestTimeout(let seconds): "the request did not arrive within \(seconds) s; send the head and the body without pausing"
        case .tooManyConnections(let limit): "this address already holds \(limit) connections, the most one address may; "
            + "reuse connections (keep-alive) or retry later"
        case .batchTooLarge(let count, let limit): "the batch holds \(count) requests; at most \(limit) are allowed, split it"
        case .imageTooLarge(let pixels, let limit): "the image would have \(pixels) pixels; at most \(limit) are allowed"
        case .overloaded(let seconds): "the server is busy or stopping; retry in \(seconds) s"
        case .unreadableImagery(let id, let detail): "the imagery of panorama '\(id)' cannot be read: \(detail)"
        case .catalogFailed(let detail): "the catalog failed: \(detail)"
        case .catalogUnavailable(let detail): "\(detail)"
        case .storageUnavailable(_, let detail): "the imagery cannot be read now: \(detail)"
        case .internalError(let detail): "internal error: \(detail)"
        case .cannotListen(let address, let detail): "cannot listen on \(address): \(detail)"
        case .badConfiguration(let file, let detail): "\(file): \(detail)"
        case .uploadRefused(_, _, let message, _): message
        }
    }
}

extension ServiceError: CategorizedError {
    /// The kind of failure, from which ``httpStatus`` follows (and the exit code, where a command reports one).
    public var category: ErrorCategory {
        switch self {
        case .invalidParameter, .notFound, .methodNotAllowed, .forbidden, .bodyTooLarge, .batchTooLarge, .imageTooLarge,
             .malformedRequest, .requestTargetTooLong, .headersTooLarge, .contentLengthTooLarge, .unexpectedBody,
             .unsupportedTransferCoding, .expectationFailed, .httpVersionNotSupported, .requestTimeout: .usage
        case .uploadRefused(let status, _, _, _): status >= 500 ? .unavailable : .usage
        case .unknownPanorama, .placeNotFound, .noImagery, .noRoute, .unknownResource: .noImagery
        case .overloaded, .catalogUnavailable, .storageUnavailable, .tooManyConnections, .cannotListen: .unavailable
        case .unreadableImagery: .badData
        case .badConfiguration: .missingInput
        case .catalogFailed, .internalError: .internalError
        }
    }
}
