import CSQLite
import Foundation

/// The only type that talks to SQLite: a connection, prepared statements, transactions.
///
/// Not thread-safe by itself (the connection is opened with `SQLITE_OPEN_NOMUTEX`); owners serialise
/// access (``Catalog`` holds a lock). Errors become ``CatalogError/sqlite(path:operation:code:message:)``.
final class SQLiteDatabase {
    /// How to open the file.
    enum Mode { case readOnly, readWriteCreate }

    let path: String
    private var handle: OpaquePointer?

    /// `SQLITE_TRANSIENT` is a macro casting -1 to a function pointer, which Swift does not import.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String, mode: Mode) throws(CatalogError) {
        self.path = path
        let flags = (mode == .readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
            | SQLITE_OPEN_NOMUTEX
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        handle = db
        if code != SQLITE_OK {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            handle = nil
            throw .sqlite(path: path, operation: "opening", code: code, message: message)
        }
        sqlite3_busy_timeout(db, 5000)
    }

    deinit { sqlite3_close_v2(handle) }

    private func error(_ code: Int32, _ operation: String) -> CatalogError {
        .sqlite(path: path, operation: operation, code: code, message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(CatalogError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        if code != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? "unknown"
            sqlite3_free(message)
            throw .sqlite(path: path, operation: "running '\(sql.prefix(60))'", code: code, message: text)
        }
    }

    /// Compiles one statement.
    func prepare(_ sql: String) throws(CatalogError) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw error(code, "preparing '\(sql.prefix(60))'") }
        return Statement(statement: statement, database: self)
    }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT, rolling back when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// `PRAGMA user_version`: the schema version.
    var userVersion: Int {
        get throws(CatalogError) {
            let statement = try prepare("PRAGMA user_version")
            return try statement.step() ? statement.int(0) : 0
        }
    }

    /// Sets `PRAGMA user_version`.
    func setUserVersion(_ version: Int) throws(CatalogError) { try execute("PRAGMA user_version = \(version)") }

    /// Whether a table (or virtual table) of this name exists.
    func hasTable(_ name: String) throws(CatalogError) -> Bool {
        let statement = try prepare("SELECT 1 FROM sqlite_master WHERE name = ?1")
        try statement.bind(1, name)
        return try statement.step()
    }

    /// The rowid of the last insert on this connection.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// A compiled statement. Bind (1-based), `step()` until false, read columns (0-based), `reset()` to reuse.
    final class Statement {
        private let statement: OpaquePointer
        private let database: SQLiteDatabase

        fileprivate init(statement: OpaquePointer, database: SQLiteDatabase) {
            self.statement = statement
            self.database = database
        }

        deinit { sqlite3_finalize(statement) }

        private func check(_ code: Int32, _ what: String) throws(CatalogError) {
            if code != SQLITE_OK { throw database.error(code, what) }
        }

        func bind(_ index: Int32, _ value: Int64?) throws(CatalogError) {
            try check(value.map { sqlite3_bind_int64(statement, index, $0) } ?? sqlite3_bind_null(statement, index), "binding")
        }
        func bind(_ index: Int32, _ value: Int?) throws(CatalogError) { try bind(index, value.map(Int64.init)) }
        func bind(_ index: Int32, _ value: Double?) throws(CatalogError) {
            try check(value.map { sqlite3_bind_double(statement, index, $0) } ?? sqlite3_bind_null(statement, index), "binding")
        }
        func bind(_ index: Int32, _ value: String?) throws(CatalogError) {
            guard let value else { try check(sqlite3_bind_null(statement, index), "binding"); return }
            try check(sqlite3_bind_text(statement, index, value, -1, SQLiteDatabase.transient), "binding")
        }
        func bind(_ index: Int32, blob: [UInt8]) throws(CatalogError) {
            let code = blob.withUnsafeBytes { bytes in
                sqlite3_bind_blob64(statement, index, bytes.baseAddress, sqlite3_uint64(bytes.count), SQLiteDatabase.transient)
            }
            try check(code, "binding a blob")
        }

        /// Advances; true when a row is available, false when done.
        @discardableResult
        func step() throws(CatalogError) -> Bool {
            let code = sqlite3_step(statement)
            if code == SQLITE_ROW { return true }
            if code == SQLITE_DONE { return false }
            throw database.error(code, "stepping")
        }

        /// Resets for another run and clears the bindings.
        func reset() {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }

        func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }
        func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(statement, column)) }
        func double(_ column: Int32) -> Double { sqlite3_column_double(statement, column) }
        func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }
        func optionalInt(_ column: Int32) -> Int? { isNull(column) ? nil : int(column) }
        func string(_ column: Int32) -> String {
            guard let text = sqlite3_column_text(statement, column) else { return "" }
            return String(cString: text)
        }
        func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }
        /// Calls `body` with the blob's bytes (valid only inside `body`).
        func withBlob<T, E: Error>(_ column: Int32, _ body: (UnsafeRawBufferPointer) throws(E) -> T) throws(E) -> T {
            let count = Int(sqlite3_column_bytes(statement, column))
            let pointer = sqlite3_column_blob(statement, column)
            return try body(UnsafeRawBufferPointer(start: pointer, count: pointer == nil ? 0 : count))
        }
    }
}
