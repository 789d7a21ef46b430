import Foundation

/// A bounded pool of ``PostgresConnection``s for one process, with a retry and backoff on transient
/// failures (connection reset, server restart or failover).
///
/// At most ``maximumConnections`` are open; a thread that finds them all busy waits up to
/// ``acquireTimeoutSeconds`` and then gets `CatalogError.unavailable` (never an unbounded wait).
/// ``read(_:)`` runs idempotent work and, when the connection broke (`unavailable`), drops it and
/// tries again on a fresh one after 50, 100, 200 ms (± 25 % jitter): a failover of a few hundred
/// milliseconds is invisible, a server that stays down is an error within about
/// `3 × connect timeout + 0.4 s`.
///
/// `@unchecked Sendable`: `idle`, `open` and `retryCount` are read and written only while `condition` is locked; the rest is `let`.
final class PostgresPool: @unchecked Sendable {
    let location: CatalogLocation
    private let url: String
    let settings: PostgresConnection.Settings
    /// Open connections at most.
    let maximumConnections: Int
    /// Longest wait for a free connection, seconds.
    let acquireTimeoutSeconds: Double
    /// Attempts of ``read(_:)`` (the first and the retries).
    static let attempts = 4
    private let condition = NSCondition()
    private var idle: [PostgresConnection] = []
    private var open = 0
    /// How many times work was retried after a broken connection (for metrics and tests).
    private var retryCount = 0
    /// How many times work was retried so far.
    var retries: Int { condition.lock(); defer { condition.unlock() }; return retryCount }

    init(location: CatalogLocation, url: String, settings: PostgresConnection.Settings = .init(),
         maximumConnections: Int = 8, acquireTimeoutSeconds: Double = 5) {
        self.location = location
        self.url = url
        self.settings = settings
        self.maximumConnections = max(1, maximumConnections)
        self.acquireTimeoutSeconds = acquireTimeoutSeconds
    }

    private func acquire() throws(CatalogError) -> PostgresConnection {
        condition.lock()
        let deadline = Date().addingTimeInterval(acquireTimeoutSeconds)
        while idle.isEmpty && open >= maximumConnections {
            if !condition.wait(until: deadline) {
                condition.unlock()
                throw .unavailable(location: location.description,
                                   detail: "all \(maximumConnections) pooled connections stayed busy for \(acquireTimeoutSeconds) s")
            }
        }
        if let connection = idle.popLast() {
            condition.unlock()
            return connection
        }
        open += 1
        condition.unlock()
        do {
            return try PostgresConnection(location: location, url: url, settings: settings)
        } catch {
            condition.lock()
            open -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func release(_ connection: PostgresConnection, healthy: Bool) {
        condition.lock()
        if healthy && connection.isHealthy { idle.append(connection) } else { open -= 1 }
        condition.signal()
        condition.unlock()
    }

    /// Runs `work` on a pooled connection, once.
    func withConnection<T>(_ work: (PostgresConnection) throws(CatalogError) -> T) throws(CatalogError) -> T {
        let connection = try acquire()
        do {
            let value = try work(connection)
            release(connection, healthy: true)
            return value
        } catch {
            // A connection left inside a failed transaction or broken is not reused.
            release(connection, healthy: false)
            throw error
        }
    }

    /// Runs idempotent `work`, retrying with backoff while the failure is `unavailable`.
    func read<T>(_ work: (PostgresConnection) throws(CatalogError) -> T) throws(CatalogError) -> T {
        var attempt = 0
        while true {
            do {
                return try withConnection(work)
            } catch {
                guard case .unavailable = error, attempt + 1 < Self.attempts else { throw error }
                // Idle connections opened before the failure are probably broken too.
                condition.lock()
                open -= idle.count
                idle.removeAll()
                retryCount += 1
                condition.unlock()
                let base = 0.05 * Double(1 << attempt)
                Thread.sleep(forTimeInterval: base * Double.random(in: 0.75...1.25))
                attempt += 1
            }
        }
    }
}
