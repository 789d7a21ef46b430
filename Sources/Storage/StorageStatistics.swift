import Synchronization

/// Counts of the process's traffic with object storage and of its caches' hits (for `/metrics`, the
/// benchmarks' "bytes fetched per view" and tests). Monotonic: read twice and subtract.
public final class StorageStatistics: Sendable {
    /// The process's counters.
    public static let shared = StorageStatistics()

    /// A reading of the counters.
    public struct Snapshot: Sendable, Hashable {
        /// HTTP requests made (each attempt counts).
        public var requests = 0
        /// Bytes received (bodies and headers).
        public var bytesReceived = 0
        /// Body bytes sent.
        public var bytesSent = 0
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
            Snapshot(requests: requests - earlier.requests, bytesReceived: bytesReceived - earlier.bytesReceived,
                     bytesSent: bytesSent - earlier.bytesSent, memoryHits: memoryHits - earlier.memoryHits,
                     diskHits: diskHits - earlier.diskHits, misses: misses - earlier.misses)
        }
    }

    private let counters = Mutex(Snapshot())

    /// The counters now.
    public var snapshot: Snapshot { counters.withLock { $0 } }

    func record(requests: Int = 0, bytesReceived: Int = 0, bytesSent: Int = 0) {
        counters.withLock {
            $0.requests += requests
            $0.bytesReceived += bytesReceived
            $0.bytesSent += bytesSent
        }
    }

    func recordBlocks(memoryHits: Int = 0, diskHits: Int = 0, misses: Int = 0) {
        counters.withLock {
            $0.memoryHits += memoryHits
            $0.diskHits += diskHits
            $0.misses += misses
        }
    }
}
