import Foundation

/// The PostgreSQL + PostGIS server the PostGIS tests use, and fresh databases on it.
///
/// The server is `$LOOKAROUND_TEST_POSTGRES` (a catalog URL; `make test` starts the local cluster with
/// `scripts/postgis.sh up` and sets it), else the local cluster started now by `scripts/postgis.sh up`.
/// When neither works, ``unavailableReason`` says why, and the tests report themselves skipped with it.
/// The script runs through ``Lookaround/runProcess(_:_:stdin:in:environment:)`` (posix_spawn + waitpid,
/// output through files): it leaves the server running, which Foundation's `Process` waited on forever.
public enum PostGISTestServer {
    private static let state: Result<String, SetupFailure> = {
        if let url = ProcessInfo.processInfo.environment["LOOKAROUND_TEST_POSTGRES"], !url.isEmpty { return .success(url) }
        let script = repositoryRoot.appendingPathComponent("scripts/postgis.sh").path
        guard let result = try? Lookaround.runProcess("/bin/bash", [script, "up"]) else {
            return .failure(SetupFailure(reason: "could not run \(script)"))
        }
        let url = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        guard result.exitCode == 0, url.hasPrefix("postgresql://") else {
            let tail = result.stderr.split(separator: "\n").suffix(3).joined(separator: " / ")
            return .failure(SetupFailure(reason: "no PostGIS server could be started (scripts/postgis.sh up exited \(result.exitCode): \(tail))"))
        }
        return .success(url)
    }()

    struct SetupFailure: Error { var reason: String }

    /// The repository (from this file's path).
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The server's base URL (its `lookaround` database), nil when there is none.
    public static var url: String? { try? state.get() }

    /// Why there is no server (nil when there is one): what a skipped test prints.
    public static var unavailableReason: String? {
        if case .failure(let failure) = state { return failure.reason }
        return nil
    }

    /// `url` with its database replaced by `database` (query options such as `passfile` kept).
    public static func url(_ base: String, database: String) -> String {
        let query = base.firstIndex(of: "?").map { String(base[$0...]) } ?? ""
        let withoutQuery = base.firstIndex(of: "?").map { String(base[..<$0]) } ?? base
        let slash = withoutQuery.range(of: "/", options: .backwards)!.lowerBound
        return String(withoutQuery[..<slash]) + "/" + database + query
    }

    /// A new empty database cloned from `lookaround_template` (which carries PostGIS), named
    /// `lookaround_test_<suffix>`; returns its catalog URL. Dropped first if it exists.
    public static func freshDatabase(_ suffix: String) throws -> String {
        guard let base = url else { throw SetupFailure(reason: unavailableReason ?? "no server") }
        let name = "lookaround_test_" + suffix.lowercased().map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined()
        try psql(base, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
        try psql(base, "CREATE DATABASE \(name) TEMPLATE lookaround_template")
        return url(base, database: name)
    }

    /// Drops a database made by ``freshDatabase(_:)`` (best effort: for clean-up).
    public static func drop(_ databaseURL: String) {
        try? dropDatabase(databaseURL)
    }

    /// Drops a database made by ``freshDatabase(_:)``, closing its connections.
    /// - Throws: ``SetupFailure`` with psql's reason when it could not be dropped.
    public static func dropDatabase(_ databaseURL: String) throws {
        guard let base = url else { throw SetupFailure(reason: unavailableReason ?? "no server") }
        guard let name = databaseURL.split(separator: "?").first?.split(separator: "/").last else {
            throw SetupFailure(reason: "no database name in \(databaseURL)")
        }
        try psql(base, "DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
    }

    /// Runs one SQL command with psql against `databaseURL`; returns its unaligned output.
    @discardableResult
    public static func psql(_ databaseURL: String, _ sql: String) throws -> String {
        let result = try Lookaround.runProcess("/usr/bin/psql", ["-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", databaseURL, "-c", sql])
        guard result.exitCode == 0 else { throw SetupFailure(reason: "psql '\(sql)': \(result.stderr)") }
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
