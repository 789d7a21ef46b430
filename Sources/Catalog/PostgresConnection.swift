import CPostgres
import Foundation

/// The only type that talks to libpq: one connection to PostgreSQL, statements with text parameters,
/// prepared statements kept per connection, and `COPY … FROM STDIN`.
///
/// Not thread-safe: a ``PostgresPool`` hands each connection to one thread at a time. Errors become
/// ``CatalogError/postgres(location:operation:sqlState:message:)``, or
/// ``CatalogError/unavailable(location:detail:)`` when the server cannot be reached. Server notices
/// (`NOTICE: table … does not exist, skipping`) are dropped instead of going to stderr.
///
/// `@unchecked Sendable`: a connection is used by one thread at a time (the pool lends it to one caller and takes it back); it moves between threads, it is never shared.
final class PostgresConnection: @unchecked Sendable {
    let location: CatalogLocation
    private let handle: OpaquePointer
    private var prepared: Set<String> = []

    /// What the pool sets on every connection; the URL may override each (`?connect_timeout=…`).
    struct Settings: Sendable, Hashable {
        /// Seconds to wait for the server to answer a connection (libpq `connect_timeout`).
        var connectTimeoutSeconds = 5
        /// Longest a statement may run, milliseconds (server `statement_timeout`); 0 = no limit.
        var statementTimeoutMilliseconds = 5_000
        /// How long the kernel waits for an acknowledgement before it calls the connection dead,
        /// milliseconds (libpq `tcp_user_timeout`): a server that vanishes mid-query is noticed.
        var tcpUserTimeoutMilliseconds = 10_000

        /// The defaults: 5 s to connect, 5 s per statement, 10 s TCP user timeout.
        init() {}

        init(connectTimeoutSeconds: Int, statementTimeoutMilliseconds: Int, tcpUserTimeoutMilliseconds: Int = 10_000) {
            self.connectTimeoutSeconds = connectTimeoutSeconds
            self.statementTimeoutMilliseconds = statementTimeoutMilliseconds
            self.tcpUserTimeoutMilliseconds = tcpUserTimeoutMilliseconds
        }
    }

    /// Connects to the server `location` names.
    /// - Throws: `CatalogError.unavailable` when the server cannot be reached or refuses the login.
    init(location: CatalogLocation, url: String, settings: Settings) throws(CatalogError) {
        self.location = location
        // Ours first: libpq lets a later keyword win, and the URL (expanded from `dbname`) comes last.
        let pairs: [(String, String)] = [
            ("connect_timeout", "\(settings.connectTimeoutSeconds)"),
            ("tcp_user_timeout", "\(settings.tcpUserTimeoutMilliseconds)"),
            ("keepalives", "1"), ("keepalives_idle", "10"), ("keepalives_interval", "3"), ("keepalives_count", "3"),
            ("options", "-c statement_timeout=\(settings.statementTimeoutMilliseconds) -c client_min_messages=warning"),
            ("fallback_application_name", "lookaround"),
            ("dbname", url),
        ]
        let keywords = pairs.map { strdup($0.0) }, values = pairs.map { strdup($0.1) }
        defer { keywords.forEach { free($0) }; values.forEach { free($0) } }
        var keywordPointers = keywords.map { UnsafePointer<CChar>($0) } + [nil]
        var valuePointers = values.map { UnsafePointer<CChar>($0) } + [nil]
        let connection = keywordPointers.withUnsafeMutableBufferPointer { k in
            valuePointers.withUnsafeMutableBufferPointer { v in PQconnectdbParams(k.baseAddress, v.baseAddress, 1) }
        }
        guard let connection else { throw .unavailable(location: location.description, detail: "libpq could not allocate a connection") }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.trimmed(PQerrorMessage(connection))
            PQfinish(connection)
            throw .unavailable(location: location.description, detail: message)
        }
        handle = connection
        PQsetNoticeProcessor(connection, { _, _ in }, nil)
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable (false after the server went away).
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK && PQtransactionStatus(handle) == PQTRANS_IDLE }

    private static func trimmed(_ text: UnsafePointer<CChar>?) -> String {
        guard let text else { return "unknown error" }
        return String(cString: text).trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "\n", with: "; ")
    }

    /// The error a failed result (or a missing one) stands for: `unavailable` when the connection
    /// broke, else `postgres` with the SQLSTATE.
    private func error(_ result: OpaquePointer?, _ operation: String) -> CatalogError {
        let message = result.flatMap { PQresultErrorMessage($0) }.map { Self.trimmed($0) }.flatMap { $0.isEmpty ? nil : $0 }
            ?? Self.trimmed(PQerrorMessage(handle))
        let state = result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        if PQstatus(handle) != CONNECTION_OK || state.hasPrefix("08") || state == "57P01" || state == "57P02" || state == "57P03" {
            return .unavailable(location: location.description, detail: "\(message) (while \(operation))")
        }
        return .postgres(location: location.description, operation: operation, sqlState: state, message: message)
    }

    /// Runs `sql` with text parameters (`$1`, `$2`, …; nil is NULL) and returns its rows.
    @discardableResult
    func execute(_ sql: String, _ parameters: [String?] = []) throws(CatalogError) -> PostgresResult {
        try withParameters(parameters) { count, values throws(CatalogError) in
            let result = PQexecParams(handle, sql, count, nil, values, nil, nil, 0)
            return try check(result, "running '\(sql.prefix(60))'")
        }
    }

    /// Runs one or more statements without parameters (DDL, migrations).
    func executeScript(_ sql: String) throws(CatalogError) {
        let result = PQexec(handle, sql)
        _ = try check(result, "running '\(sql.prefix(60).replacingOccurrences(of: "\n", with: " "))'")
    }

    /// Runs the statement `sql`, prepared once per connection under `name`.
    func executePrepared(_ name: String, _ sql: String, _ parameters: [String?]) throws(CatalogError) -> PostgresResult {
        if !prepared.contains(name) {
            let result = PQprepare(handle, name, sql, 0, nil)
            _ = try check(result, "preparing '\(sql.prefix(60))'")
            prepared.insert(name)
        }
        return try withParameters(parameters) { count, values throws(CatalogError) in
            let result = PQexecPrepared(handle, name, count, values, nil, nil, 0)
            return try check(result, "running the prepared statement \(name)")
        }
    }

    private func check(_ result: OpaquePointer?, _ operation: String) throws(CatalogError) -> PostgresResult {
        guard let result else { throw error(nil, operation) }
        let status = PQresultStatus(result)
        guard status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_COPY_IN else {
            let failure = error(result, operation)
            PQclear(result)
            throw failure
        }
        return PostgresResult(result)
    }

    private func withParameters<T>(_ parameters: [String?],
                                   _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) throws(CatalogError) -> T) throws(CatalogError) -> T {
        let copies = parameters.map { $0.map { strdup($0) } ?? nil }
        defer { copies.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = copies.map { $0.map { UnsafePointer($0) } }
        let count = Int32(pointers.count)
        return try pointers.withUnsafeBufferPointer { (buffer) throws(CatalogError) -> T in
            try body(count, count == 0 ? nil : buffer.baseAddress)
        }
    }

    /// `COPY table(columns) FROM STDIN` (text format): `write` appends rows to a buffer with the
    /// ``CopyBuffer`` helpers and returns false when done; full buffers are sent as they fill.
    /// - Returns: the number of rows the server took.
    @discardableResult
    func copy(into table: String, columns: [String], _ write: (inout CopyBuffer) throws -> Bool) throws -> Int {
        let sql = "COPY \(table)(\(columns.joined(separator: ", "))) FROM STDIN"
        let start = try check(PQexec(handle, sql), "starting \(sql)")
        guard start.status == PGRES_COPY_IN else { throw error(nil, "starting \(sql): the server did not enter COPY") }
        var buffer = CopyBuffer()
        var more = true
        var failure: (any Error)?
        while more {
            do { more = try write(&buffer) } catch { failure = error; break }
            if buffer.bytes.count >= 1 << 20 || !more {
                try send(buffer.bytes, sql)
                buffer.bytes.removeAll(keepingCapacity: true)
            }
        }
        let endCode = failure == nil ? PQputCopyEnd(handle, nil) : PQputCopyEnd(handle, "the writer stopped")
        guard endCode == 1 else { throw error(nil, "ending \(sql)") }
        var rows = 0
        while let result = PQgetResult(handle) {
            let status = PQresultStatus(result)
            if status != PGRES_COMMAND_OK, failure == nil { failure = error(result, "copying into \(table)") }
            if let tuples = PQcmdTuples(result), let n = Int(String(cString: tuples)) { rows = n }
            PQclear(result)
        }
        if let failure { throw failure }
        return rows
    }

    private func send(_ bytes: [UInt8], _ sql: String) throws(CatalogError) {
        guard !bytes.isEmpty else { return }
        let code = bytes.withUnsafeBytes { raw in
            PQputCopyData(handle, raw.baseAddress!.assumingMemoryBound(to: CChar.self), Int32(raw.count))
        }
        guard code == 1 else { throw error(nil, "sending rows for \(sql)") }
    }

    /// Rows of `COPY … FROM STDIN` in PostgreSQL's text format: fields separated by tabs, `\N` for NULL,
    /// backslash, tab, newline and carriage return escaped.
    struct CopyBuffer {
        var bytes: [UInt8] = []
        private var fieldsInRow = 0

        init() { bytes.reserveCapacity(1 << 20 + 4096) }

        private mutating func separate() {
            if fieldsInRow > 0 { bytes.append(9) }
            fieldsInRow += 1
        }

        /// A text field (nil is NULL).
        mutating func field(_ text: String?) {
            separate()
            guard let text else { bytes.append(contentsOf: [92, 78]); return }
            for byte in text.utf8 {
                switch byte {
                case 92: bytes.append(contentsOf: [92, 92])
                case 9: bytes.append(contentsOf: [92, 116])
                case 10: bytes.append(contentsOf: [92, 110])
                case 13: bytes.append(contentsOf: [92, 114])
                default: bytes.append(byte)
                }
            }
        }

        /// A number field, written so that it reads back exactly (nil is NULL).
        mutating func field(_ value: Double?) {
            separate()
            guard let value else { bytes.append(contentsOf: [92, 78]); return }
            bytes.append(contentsOf: "\(value)".utf8)
        }

        /// An integer field (nil is NULL).
        mutating func field<I: BinaryInteger>(_ value: I?) {
            separate()
            guard let value else { bytes.append(contentsOf: [92, 78]); return }
            bytes.append(contentsOf: "\(value)".utf8)
        }

        /// A field written as is (already in COPY text form, e.g. `SRID=4326;POINT(lon lat)`).
        mutating func raw(_ text: String) {
            separate()
            bytes.append(contentsOf: text.utf8)
        }

        /// Ends the row.
        mutating func endRow() {
            bytes.append(10)
            fieldsInRow = 0
        }
    }
}

/// The rows of one statement, read as text (libpq's text format), 0-based rows and columns.
final class PostgresResult {
    private let result: OpaquePointer

    init(_ result: OpaquePointer) { self.result = result }
    deinit { PQclear(result) }

    var status: ExecStatusType { PQresultStatus(result) }
    var rowCount: Int { Int(PQntuples(result)) }
    func isNull(_ row: Int, _ column: Int) -> Bool { PQgetisnull(result, Int32(row), Int32(column)) == 1 }
    func string(_ row: Int, _ column: Int) -> String { String(cString: PQgetvalue(result, Int32(row), Int32(column))) }
    func optionalString(_ row: Int, _ column: Int) -> String? { isNull(row, column) ? nil : string(row, column) }
    func double(_ row: Int, _ column: Int) -> Double { strtod(PQgetvalue(result, Int32(row), Int32(column)), nil) }
    func optionalDouble(_ row: Int, _ column: Int) -> Double? { isNull(row, column) ? nil : double(row, column) }
    func int(_ row: Int, _ column: Int) -> Int { Int(strtoll(PQgetvalue(result, Int32(row), Int32(column)), nil, 10)) }
    func int64(_ row: Int, _ column: Int) -> Int64 { Int64(strtoll(PQgetvalue(result, Int32(row), Int32(column)), nil, 10)) }
}
