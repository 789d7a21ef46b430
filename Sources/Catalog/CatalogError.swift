import Diagnostics
import Imaging

/// Every error the `Catalog` module throws.
///
/// Each case carries the offending value; ``description`` names it, the allowed range or form, and
/// what to do. "No coverage" is not an error: it is a ``SceneAnswer`` with a ``NoCoverageReason``.
public enum CatalogError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No catalog file at `path`.
    case catalogMissing(path: String)
    /// The file exists but is not a catalog (not SQLite, or no catalog tables).
    case notACatalog(path: String, detail: String)
    /// The catalog was written by a newer version of this tool.
    case schemaTooNew(path: String, found: Int, supported: Int)
    /// SQLite reported an error; `operation` says what was being done.
    case sqlite(path: String, operation: String, code: Int32, message: String)
    /// A request parameter is out of its range (`name` carries the unit, e.g. `radiusMeters`).
    case invalidParameter(name: String, value: String, allowed: String)
    /// A folder given to index does not exist or is not a folder.
    case directoryMissing(path: String)
    /// A line of a batch request could not be read.
    case badBatchLine(line: Int, text: String, detail: String)
    /// No panorama has this id.
    case unknownPanorama(id: String)
    /// No place matches the name given to resolve a coordinate.
    case placeNotFound(name: String)
    /// Text in a coordinate's form with an impossible part (latitude 91, minutes of 60): `reason` is the
    /// parser's message (Geodesy's `CoordinateText`).
    case badCoordinate(text: String, reason: String)
    /// The stored query index does not match the panorama table (a damaged catalog).
    case corruptIndex(path: String, detail: String)
    /// A file could not be read or written.
    case io(path: String, detail: String)
    /// A file or folder that should be there is not; `remedy` says what to pass instead.
    case fileNotFound(path: String, remedy: String)
    /// The catalog could not be written: `failure` names the catalog (not its temporary file) and the
    /// system's reason (`ENOSPC` for SQLite's "database or disk is full", `EACCES` for a folder it may not
    /// write). The old catalog is left as it was. The CLI exits 73 or 74 by ``WriteFailure/isCannotCreate``.
    case cannotWrite(WriteFailure, detail: String)
    /// The catalog's database cannot be reached (down, refusing the login, connection lost and not
    /// back after the retries, every pooled connection busy): try again later (CLI exit 69, HTTP 503).
    /// `location` is the URL with its password masked.
    case unavailable(location: String, detail: String)
    /// PostgreSQL reported an error; `sqlState` is its SQLSTATE code (`42P01`, …).
    case postgres(location: String, operation: String, sqlState: String, message: String)

    /// A one-line message naming the bad value, the allowed range and a remedy.
    public var description: String {
        switch self {
        case .catalogMissing(let path):
            return "no catalog at \(path); build it with 'lookaround index' (or pass --catalog PATH or --catalog postgres://…)"
        case .notACatalog(let path, let detail):
            return "\(path) is not a lookaround catalog (\(detail)); rebuild it with 'lookaround index --catalog \(path)'"
        case .schemaTooNew(let path, let found, let supported):
            return "catalog \(path) has schema version \(found), this tool reads versions up to \(supported); "
                + "update lookaround or rebuild the catalog with this version's 'lookaround index'"
        case .sqlite(let path, let operation, let code, let message):
            return "SQLite error \(code) while \(operation) in \(path): \(message)"
        case .invalidParameter(let name, let value, let allowed):
            return "\(name) \(value) is not allowed; allowed \(allowed)"
        case .directoryMissing(let path):
            return "\(path) is not a folder; pass folders of panoramas (JPEG) to index"
        case .badBatchLine(let line, let text, let detail):
            return "batch line \(line) '\(text.prefix(80))': \(detail); write CSV 'lat,lon[,radius_meters]' "
                + "or JSON Lines {\"latitude\":…,\"longitude\":…}"
        case .unknownPanorama(let id):
            return "no panorama with id '\(id)' in the catalog; list ids with 'lookaround scene --tile Z/X/Y --json'"
        case .placeNotFound(let name):
            return "no place matches '\(name)'; try 'lookaround search \"\(name)\"' to see close names"
        case .badCoordinate(_, let reason):
            return reason
        case .corruptIndex(let path, let detail):
            return "the query index in \(path) is damaged (\(detail)); rebuild with 'lookaround index --catalog \(path)'"
        case .io(let path, let detail):
            return "\(path): \(detail)"
        case .fileNotFound(let path, let remedy):
            return "\(path): no such file or folder; \(remedy)"
        case .cannotWrite(let failure, let detail):
            return "cannot write the catalog \(failure.path): \(failure.reason)\(detail.isEmpty ? "" : " (\(detail))"); "
                + "\(failure.remedy); the old catalog is unchanged"
        case .unavailable(let location, let detail):
            return "the catalog database \(location) is unavailable: \(detail); check that the server is up "
                + "(make postgis-up starts a local one) and try again"
        case .postgres(let location, let operation, let state, let message):
            return "PostgreSQL error \(state.isEmpty ? "" : state + " ")while \(operation) in \(location): \(message)"
        }
    }
}

extension CatalogError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .catalogMissing, .directoryMissing, .fileNotFound: .missingInput
        case .notACatalog, .schemaTooNew, .corruptIndex, .badBatchLine: .badData
        case .invalidParameter, .badCoordinate: .usage
        case .unknownPanorama, .placeNotFound: .noImagery
        case .cannotWrite(let failure, _): failure.category
        case .unavailable: .unavailable
        case .io: .io
        case .sqlite, .postgres: .internalError
        }
    }

    public var invalidValue: InvalidValue? {
        if case .invalidParameter(let name, let value, let allowed) = self { return InvalidValue(parameter: name, value: value, allowed: allowed) }
        if case .badCoordinate(let text, let reason) = self { return InvalidValue(parameter: "q", value: text, allowed: reason) }
        return nil
    }
}
