import Synchronization

/// Counts of traffic with object storage and of the caches' hits (for the benchmarks' "bytes fetched
/// per view" and tests): ``shared`` counts the process's, and each ``S3Client`` and ``ObjectStorage``
/// keeps its own too. Monotonic: read twice and subtract.
public final class StorageStatistics: Sendable {
    /// The process's counters.
    public static let shared = StorageStatistics()

    /// New counters at zero.
    public init() {}

    /// A reading of the counters.
    public struct Snapshot: Sendable, Hashable {
        /// HTTP requests made (each attempt counts).
        public var requests = 0
        /// Bytes received (bodies and headers).
        public var bytesReceived = 0
        /// Body bytes sent.
        public var bytesSent = 0
        /// New connections opened (the rest of the requests reused a kept-alive one).
        public var connectionsOpened = 0
        /// Blocks read from the memory cache.
        public var memoryHits = 0
        /// Blocks read from the disk cache.
        public var diskHits = 0
        /// Blocks fetched from the store.
        public var misses = 0

        /// All counters zero.
        public init() {}

        init(requests: Int, bytesReceived: Int, bytesSent: Int, memoryHits: Int, diskHits: Int, misses: Int) {
            (self.requests, self.bytesReceived, self.bytesSent) = (requests, bytesReceived, bytesSent)
            (self.memoryHits, self.diskHits, self.misses) = (memoryHits, diskHits, misses)
        }

        /// `self − earlier`, counter by counter.
        public func since(_ earlier: Snapshot) -> Snapshot {
            var delta = Snapshot(requests: requests - earlier.requests, bytesReceived: bytesReceived - earlier.bytesReceived,
                                 bytesSent: bytesSent - earlier.bytesSent, memoryHits: memoryHits - earlier.memoryHits,
                                 diskHits: diskHits - earlier.diskHits, misses: misses - earlier.misses)
            delta.connectionsOpened = connectionsOpened - earlier.connectionsOpened
            return delta
        }
    }

    private let counters = Mutex(Snapshot())

    /// The counters now.
    public var snapshot: Snapshot { counters.withLock { $0 } }

    func record(requests: Int = 0, bytesReceived: Int = 0, bytesSent: Int = 0, connectionsOpened: Int = 0) {
        if self !== Self.shared {
            Self.shared.record(requests: requests, bytesReceived: bytesReceived, bytesSent: bytesSent, connectionsOpened: connectionsOpened)
        }
        counters.withLock {
            $0.connectionsOpened += connectionsOpened
            $0.requests += requests
            $0.bytesReceived += bytesReceived
            $0.bytesSent += bytesSent
        }
    }

    func recordBlocks(memoryHits: Int = 0, diskHits: Int = 0, misses: Int = 0) {
        if self !== Self.shared { Self.shared.recordBlocks(memoryHits: memoryHits, diskHits: diskHits, misses: misses) }
        counters.withLock {
            $0.memoryHits += memoryHits
            $0.diskHits += diskHits
            $0.misses += misses
        }
    }
}
