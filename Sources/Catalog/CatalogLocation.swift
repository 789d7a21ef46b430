import Foundation

/// Where a catalog lives: an SQLite file (the embedded default) or a PostgreSQL + PostGIS database
/// named by a `postgres://` or `postgresql://` URL, shared by many machines.
///
/// A URL never carries its password: libpq takes it from the password file (`?passfile=FILE`,
/// `$PGPASSFILE`, `~/.pgpass`) or `$PGPASSWORD`. ``description`` is what is printed; it masks a
/// password if one slipped into a URL (which ``init(parsing:)`` refuses anyway).
public enum CatalogLocation: Sendable, Hashable, CustomStringConvertible {
    /// An SQLite catalog file.
    case file(path: String)
    /// A PostGIS catalog: the libpq connection URL (no password in it).
    case postgres(url: String)

    /// `--catalog VALUE` (or `$LOOKAROUND_CATALOG`): a URL starting `postgres://` or `postgresql://`
    /// is a PostGIS catalog, anything else a file path.
    /// - Throws: `CatalogError.invalidParameter` for a URL with a password in it, without a host or
    ///   database, or with a scheme close to but not `postgres`/`postgresql`.
    public init(parsing text: String) throws(CatalogError) {
        let lower = text.lowercased()
        guard lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") else {
            for near in ["postgis://", "pg://", "psql://", "postgre://", "postgress://"] where lower.hasPrefix(near) {
                throw .invalidParameter(name: "catalog", value: Self.masked(text),
                                        allowed: "a file path, or a URL postgres://USER@HOST[:PORT]/DATABASE (or postgresql://)")
            }
            self = .file(path: text)
            return
        }
        let rest = text[text.range(of: "://")!.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" }
        if let at = authority.lastIndex(of: "@"), authority[..<at].contains(":") {
            throw .invalidParameter(name: "catalog", value: Self.masked(text),
                                    allowed: "a URL without a password: put it in a password file (?passfile=FILE, "
                                        + "$PGPASSFILE or ~/.pgpass) or $PGPASSWORD, never on the command line")
        }
        let afterAuthority = rest.dropFirst(authority.count)
        let database = afterAuthority.hasPrefix("/") ? afterAuthority.dropFirst().prefix { $0 != "?" } : ""
        guard !database.isEmpty else {
            throw .invalidParameter(name: "catalog", value: Self.masked(text),
                                    allowed: "a URL naming its database: postgres://USER@HOST[:PORT]/DATABASE")
        }
        self = .postgres(url: text)
    }

    /// The catalog `--catalog` names when it is not given: `$LOOKAROUND_CATALOG`, else
    /// `Panoramas/catalog.sqlite`.
    public static var defaultText: String {
        ProcessInfo.processInfo.environment["LOOKAROUND_CATALOG"] ?? "Panoramas/catalog.sqlite"
    }

    /// The path or the URL with any password replaced by `****`: what messages and `/v1/health` show.
    public var description: String {
        switch self {
        case .file(let path): path
        case .postgres(let url): Self.masked(url)
        }
    }

    /// Where the panoramas' tile files are: `$LOOKAROUND_TILE_DIR` when it names object storage
    /// (`s3://BUCKET/PREFIX`, for any catalog) or the catalog is in PostGIS (shared storage every machine
    /// mounts or reads); else beside an SQLite catalog, named like it (`Panoramas/catalog.sqlite` →
    /// `Panoramas/catalog.tiles`), and `Panoramas/catalog.tiles` for a PostGIS catalog without it.
    public var tileDirectory: String { sharedFolder(variable: "LOOKAROUND_TILE_DIR", suffix: ".tiles") }

    /// A folder of imagery beside the catalog, or named by `$variable`: that one when it names object storage
    /// (`s3://BUCKET/PREFIX`, for any catalog) or the catalog is in PostGIS (shared storage every machine
    /// mounts or reads); else beside an SQLite catalog, named like it (`photos.sqlite` → `photos` + `suffix`),
    /// and `Panoramas/catalog` + `suffix` for a PostGIS catalog without it.
    func sharedFolder(variable: String, suffix: String) -> String {
        let shared = ProcessInfo.processInfo.environment[variable].flatMap { $0.isEmpty ? nil : $0 }
        switch self {
        case .file(let path):
            if let shared, shared.lowercased().hasPrefix("s3://") { return shared }
            return (path as NSString).deletingPathExtension + suffix
        case .postgres: return shared ?? "Panoramas/catalog" + suffix
        }
    }

    /// Where depth and label maps derived from OpenStreetMap are written (`lookaround index` with an OSM
    /// extract, for photos without maps): beside an SQLite catalog, named like it (`photos.sqlite` →
    /// `photos.derived`); for a PostGIS catalog `$LOOKAROUND_DERIVED_DIR` (shared storage every machine
    /// mounts), else `Panoramas/catalog.derived`.
    public var derivedMapsDirectory: String {
        switch self {
        case .file(let path): return (path as NSString).deletingPathExtension + ".derived"
        case .postgres: return ProcessInfo.processInfo.environment["LOOKAROUND_DERIVED_DIR"] ?? "Panoramas/catalog.derived"
        }
    }

    /// Where photos uploaded through `lookaround serve`'s Panoramax API are kept, one folder per upload
    /// set: `$LOOKAROUND_UPLOAD_DIR` when it names object storage (`s3://BUCKET/PREFIX`, for any catalog,
    /// as ``tileDirectory``) or the catalog is in PostGIS (shared storage every machine mounts or reads);
    /// else beside an SQLite catalog, named like it (`photos.sqlite` → `photos.uploads`), and
    /// `Panoramas/catalog.uploads` for a PostGIS catalog without it. `lookaround index` keeps the panoramas
    /// uploaded there as they are and never reads the folder itself, so both read the same variable.
    public var uploadsDirectory: String { sharedFolder(variable: "LOOKAROUND_UPLOAD_DIR", suffix: ".uploads") }

    /// Whether this is a PostGIS catalog.
    public var isPostgres: Bool { if case .postgres = self { true } else { false } }

    /// The file path (nil for a PostGIS catalog).
    public var filePath: String? { if case .file(let path) = self { path } else { nil } }

    /// `text` with the password of a URL's `user:password@` and of `password=` query values masked.
    public static func masked(_ text: String) -> String {
        var result = text
        if let scheme = result.range(of: "://") {
            let authorityEnd = result[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" } ?? result.endIndex
            let authority = result[scheme.upperBound..<authorityEnd]
            if let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") {
                result.replaceSubrange(result.index(after: colon)..<at, with: "****")
            }
        }
        if let range = result.range(of: "password=", options: .caseInsensitive) {
            let end = result[range.upperBound...].firstIndex(of: "&") ?? result.endIndex
            result.replaceSubrange(range.upperBound..<end, with: "****")
        }
        return result
    }
}
