import CLinuxEvents
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Bytes of request bodies held in memory, all connections together, against
/// ``HTTPServerConfiguration/bodyBudgetBytes``: a body reserves its bytes as they arrive and gives them
/// back when its request ends.
final class HTTPBodyBudget: Sendable {
    let limitBytes: Int
    private let used = Atomic<Int>(0)
    /// The most held since memory was last handed back (see ``releaseAndTrim(_:)``).
    private let peak = Atomic<Int>(0)

    /// Bodies held past this since the last trim make the budget's drain hand memory back.
    private static let trimAfterBytes = 8 << 20

    init(limitBytes: Int) {
        self.limitBytes = limitBytes
    }

    /// Bytes reserved now.
    var bytesInUse: Int { used.load(ordering: .relaxed) }

    /// Reserves `bytes`; false (nothing reserved) when they do not fit.
    func reserve(_ bytes: Int) -> Bool {
        let total = used.add(bytes, ordering: .relaxed).newValue
        guard total <= limitBytes else {
            used.subtract(bytes, ordering: .relaxed)
            return false
        }
        if total > peak.load(ordering: .relaxed) { peak.store(total, ordering: .relaxed) }
        return true
    }

    /// Gives `bytes` back. When that empties the budget after bodies of more than a few MiB were held,
    /// the C heap is trimmed: a body's copy for its route (``HTTPRequest/body``) comes from malloc, and
    /// glibc keeps freed memory of that size in its arenas (its mmap threshold rises to the size of the
    /// first large block freed, so later ones are carved from the arenas, and an arena shrinks only from
    /// its top). Trimming costs a walk of the free lists, once per burst of bodies.
    func release(_ bytes: Int) {
        guard bytes > 0 else { return }
        let total = used.subtract(bytes, ordering: .relaxed).newValue
        guard total == 0, peak.load(ordering: .relaxed) > Self.trimAfterBytes else { return }
        peak.store(0, ordering: .relaxed)
        malloc_trim(0)
    }
}

/// A request body as it arrives, in pages mapped for it alone: they go back to the system the moment
/// the body is gone (`munmap`), whatever the C heap's state. Bodies held by slow or hostile clients
/// are the memory a server cannot choose the lifetime of; with `[UInt8]` (malloc) they stayed resident
/// in glibc's arenas after the connections closed (1000 held 1 MiB bodies: 998 MB a minute after, on
/// the 2026-12-07 audit). The mapping is of the most the body may take; only pages written become resident.
final class HTTPBodyBuffer {
    private let base: UnsafeMutableRawPointer
    private let capacity: Int
    private(set) var count = 0

    /// A buffer of at most `capacity` bytes; nil when the system will not map them.
    init?(capacity: Int) {
        let pages = max(1, (capacity + Self.pageSize - 1) / Self.pageSize) * Self.pageSize
        let mapped = mmap(nil, pages, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        base = mapped
        self.capacity = pages
    }

    deinit { munmap(base, capacity) }

    /// Appends `bytes`; false (nothing appended) past the capacity.
    func append(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count <= capacity - count else { return false }
        if let source = bytes.baseAddress { (base + count).copyMemory(from: source, byteCount: bytes.count) }
        count += bytes.count
        return true
    }

    /// The body so far, copied out for the route.
    var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
}
