import Synchronization

/// The records and links of panoramas that scene requests found, kept by catalog row so that a
/// repeated answer costs the in-memory query and a geodesic instead of two SQLite reads. Bounded:
/// when it holds ``capacity`` panoramas it starts again empty (the hot set refills at once).
///
/// Belongs to one ``Catalog``: a new catalog (a rebuilt file) needs a new cache.
public final class SceneDetailCache: Sendable {
    private struct State {
        var entries: [Int: (record: PanoramaRecord, links: [PanoramaLink])] = [:]
        var hits = 0, misses = 0
    }

    /// Panoramas kept at most.
    public let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` panoramas (default 65,536: a few tens of MB).
    public init(capacity: Int = 65_536) { self.capacity = max(1, capacity) }

    /// The record and links of the panorama at `row`, read from `catalog` on a miss.
    func details(row: Int, catalog: Catalog) throws(CatalogError) -> (record: PanoramaRecord, links: [PanoramaLink]) {
        let hit = state.withLock { state -> (record: PanoramaRecord, links: [PanoramaLink])? in
            guard let entry = state.entries[row] else { return nil }
            state.hits += 1
            return entry
        }
        if let hit { return hit }
        let details = (record: try catalog.panorama(row: row), links: try catalog.links(row: row))
        state.withLock { state in
            state.misses += 1
            if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
            state.entries[row] = details
        }
        return details
    }

    /// Lookups answered from the cache and from SQLite so far.
    public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
}
