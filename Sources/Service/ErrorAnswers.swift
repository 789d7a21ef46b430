import Foundation

/// The shape a route's errors take: each API answers failures the way its clients read them.
enum ErrorShape: Sendable, CustomStringConvertible {
    /// `{"error": {"code", "incident"?, "message", "parameter"}}` with the error's status (native routes).
    case native
    /// Google's Street View image: the status code and a line of text.
    case streetViewImage
    /// Google's Street View metadata: always 200, `{"error_message", "status"}`.
    case streetViewMetadata
    /// OSRM: `{"code", "message"}`, 400 for the client's mistakes and "no route" alike (as OSRM), the
    /// error's own 5xx for failures inside.
    case osrm
    /// The STAC API and Panoramax's routes under `/api`: `{"code", "description"}` as STAC API defines
    /// its errors, with Panoramax's `message` and `status_code` (what `panoramax_cli` prints) and the
    /// parameter at fault, with the error's status.
    case stac

    /// The shape of a refusal that comes before a route runs or from the HTTP engine (no such path, a
    /// method, a malformed request, overload): Street View's text on its paths, else native. Metadata
    /// clients get a status code here too: a 200 would hide that the request never reached the route.
    static func beforeRoute(path: String?) -> ErrorShape {
        if path?.hasPrefix("/maps/api/streetview") == true { return .streetViewImage }
        return path == "/api" || path?.hasPrefix("/api/") == true ? .stac : .native
    }

    var description: String {
        switch self {
        case .native: "native"
        case .streetViewImage: "Street View image"
        case .streetViewMetadata: "Street View metadata"
        case .osrm: "OSRM"
        case .stac: "STAC"
        }
    }
}

/// Every error a client sees goes through here: ``ServiceError``'s one table (status, code, Street View
/// status, OSRM code, parameter) written in the route's ``ErrorShape``, with public text only. A failure
/// inside (unreadable imagery, the catalog, a bug) answers what failed in general terms and an incident
/// id; the details (file paths, library messages, database addresses) go to the operator's log under
/// that id, never to the client.
struct ErrorAnswers: Sendable {
    /// Where incidents are written (stderr; tests pass their own).
    let log: @Sendable (String) -> Void

    init(log: @escaping @Sendable (String) -> Void = ErrorAnswers.standardError) { self.log = log }

    /// Writes `line` to stderr in one `write` (lines of concurrent requests do not interleave).
    static let standardError: @Sendable (String) -> Void = { line in
        _ = line.utf8CString.withUnsafeBufferPointer { write(2, $0.baseAddress, $0.count - 1) }
    }

    /// The answer to `error` in `shape`.
    func response(_ error: ServiceError, shape: ErrorShape) -> HTTPResponse {
        let (message, incident) = publicMessage(error)
        var response: HTTPResponse
        switch shape {
        case .native:
            var writer = JSONWriter(capacity: 256)
            writer.beginObject()
            writer.key("error")
            writer.beginObject()
            writer.field("code", error.code)
            if let incident { writer.field("incident", incident) }
            writer.field("message", message)
            writer.key("parameter")
            if let parameter = error.parameter { writer.value(parameter) } else { writer.null() }
            writer.endObject()
            writer.endObject()
            response = .json(writer.bytes, status: error.httpStatus)
        case .streetViewImage:
            response = HTTPResponse(status: error.httpStatus, contentType: "text/plain; charset=utf-8", body: Array((message + "\n").utf8))
        case .streetViewMetadata:
            return Self.streetViewStatus(error.streetViewStatus, message: message)
        case .osrm:
            var writer = JSONWriter(capacity: 256)
            writer.beginObject()
            writer.field("code", error.osrmCode)
            writer.field("message", message)
            writer.endObject()
            response = .json(writer.bytes, status: error.httpStatus >= 500 ? error.httpStatus : 400)
        case .stac:
            var writer = JSONWriter(capacity: 256)
            writer.beginObject()
            writer.field("code", error.code)
            writer.field("description", message)
            if let incident { writer.field("incident", incident) }
            writer.field("message", message)
            writer.key("parameter")
            if let parameter = error.parameter { writer.value(parameter) } else { writer.null() }
            writer.field("status_code", error.httpStatus)
            writer.endObject()
            response = .json(writer.bytes, status: error.httpStatus)
        }
        switch error {
        case .catalogUnavailable, .storageUnavailable:
            response.headers.append(("Retry-After", "\(ServiceError.unreachableStoreRetryAfterSeconds)"))
        default: break
        }
        return response
    }

    /// What a client is told of `error`: its description when the client caused it, else the public
    /// description and an incident id (the details logged under it).
    func publicMessage(_ error: ServiceError) -> (message: String, incident: String?) {
        guard let publicDescription = error.publicDescription else { return (error.description, nil) }
        let id = String(UInt32.random(in: 0...UInt32.max), radix: 16)
        let incident = String(repeating: "0", count: 8 - id.count) + id
        log("lookaround serve: incident \(incident): \(error.code): \(error.description)\n")
        return (publicDescription + "; incident \(incident) (the server's log has the details)", incident)
    }

    /// Google's metadata answer without a panorama: `{"error_message": …, "status": …}`, 200 (as Google
    /// answers metadata requests).
    static func streetViewStatus(_ status: String, message: String?) -> HTTPResponse {
        var writer = JSONWriter(capacity: 128)
        writer.beginObject()
        writer.field("error_message", message)
        writer.field("status", status)
        writer.endObject()
        return .json(writer.bytes)
    }
}
