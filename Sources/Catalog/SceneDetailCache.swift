import Geodesy
import Synchronization

/// The scene matches of panoramas that scene requests found, kept by catalog row as templates (every
/// field but the distance and bearing, which each request computes): a repeated answer then costs the
/// in-memory query and one geodesic instead of two SQLite reads and formatting the record. Bounded:
/// when it holds ``capacity`` panoramas it starts again empty (the hot set refills at once).
///
/// Belongs to one ``Catalog``: a new catalog (a rebuilt file) needs a new cache, a new revision of a
/// PostGIS catalog a ``removeAll()``.
public final class SceneDetailCache: Sendable {
    private struct State {
        var entries: [Int: (match: SceneMatch, coordinate: GeoCoordinate)] = [:]
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
    /// `catalog` on a miss.
    func match(row: Int, from requestCoordinate: GeoCoordinate, catalog: Catalog) throws(CatalogError) -> SceneMatch {
        let (hit, generation) = state.withLock { state -> ((match: SceneMatch, coordinate: GeoCoordinate)?, Int) in
            guard let entry = state.entries[row] else { return (nil, state.generation) }
            state.hits += 1
            return (entry, state.generation)
        }
        let template: (match: SceneMatch, coordinate: GeoCoordinate)
        if let hit {
            template = hit
        } else {
            let record = try catalog.panorama(row: row)
            template = (SceneMatch(record: record, links: try catalog.links(row: row)), record.coordinate)
            state.withLock { state in
                state.misses += 1
                guard state.generation == generation else { return }
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
