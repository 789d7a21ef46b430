import Geodesy
import Synchronization

/// The scene matches of panoramas that scene requests found, kept by catalog row as templates (every
/// field but the distance and bearing, which each request computes): a repeated answer then costs the
/// in-memory query and one geodesic instead of two SQLite reads and formatting the record. Bounded:
/// when it holds ``capacity`` panoramas it starts again empty (the hot set refills at once).
///
/// Belongs to one ``Catalog``: a new catalog (a rebuilt file) needs a new cache. Entries carry the
/// catalog revision they were read under and answer only requests that began under that revision, so
/// an answer read from the old revision of a PostGIS catalog is never served under the new one, also
/// when a request straddles the change; ``removeAll()`` on a new revision frees their memory.
public final class SceneDetailCache: Sendable {
    private struct Entry {
        var match: SceneMatch
        var coordinate: GeoCoordinate
        /// The catalog revision the request that read it began under.
        var revision: Int64
    }

    private struct State {
        var entries: [Int: Entry] = [:]
        var hits = 0, misses = 0
        /// Bumped by ``removeAll()``: a lookup that began before it does not store its old answer.
        var generation = 0
    }

    /// Panoramas kept at most.
    public let capacity: Int
    private let state = Mutex(State())

    /// A cache of at most `capacity` panoramas (default 65,536: a few tens of MB).
    public init(capacity: Int = 65_536) { self.capacity = max(1, capacity) }

    /// The match of the panorama at `row` seen from `requestCoordinate`, its record and links read from
    /// `catalog` on a miss. `revision` is `catalog.revision` as read before the search that found `row`:
    /// only entries of that revision answer, and what is read here is kept only when the catalog's
    /// revision is still that one afterwards (else it may mix the old and the new catalog).
    func match(row: Int, from requestCoordinate: GeoCoordinate, catalog: Catalog, revision: Int64) throws(CatalogError) -> SceneMatch {
        let (hit, generation) = state.withLock { state -> (Entry?, Int) in
            guard let entry = state.entries[row], entry.revision == revision else { return (nil, state.generation) }
            state.hits += 1
            return (entry, state.generation)
        }
        let template: Entry
        if let hit {
            template = hit
        } else {
            let record = try catalog.panorama(row: row)
            template = Entry(match: SceneMatch(record: record, links: try catalog.links(row: row)),
                             coordinate: record.coordinate, revision: revision)
            let unchanged = catalog.revision == revision
            state.withLock { state in
                state.misses += 1
                guard unchanged, state.generation == generation else { return }
                if state.entries.count >= capacity { state.entries.removeAll(keepingCapacity: true) }
                state.entries[row] = template
            }
        }
        var match = template.match
        match.locate(from: requestCoordinate, panorama: template.coordinate)
        return match
    }

    /// Forgets every panorama: the catalog's revision changed, so rows may name other panoramas now.
    public func removeAll() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.generation += 1
        }
    }

    /// Lookups answered from the cache and from SQLite so far.
    public var statistics: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }
}
