@testable import Catalog
import Foundation
import Geodesy
import Synchronization
import Testing
import TestSupport

/// The detail cache across a catalog revision change: a request that straddles the change (its
/// search and reads began under the old revision, the revision moved meanwhile) must not leave an
/// answer of the old catalog to be served under the new revision.
@Suite struct SceneDetailCacheTests {
    /// A store that delegates to the old catalog until ``swap()`` and to the new one after; its
    /// revision goes from 1 to 2 with the swap. `duringNextRead`, when set, runs inside the next
    /// `panorama(row:)` (once), after which that read still answers from the catalog it started on:
    /// a query in flight while another machine's index run replaced the catalog.
    final class SwappingStore: CatalogStore, @unchecked Sendable {
        let old: SQLiteCatalogStore, new: SQLiteCatalogStore
        private let state = Mutex<(swapped: Bool, duringNextRead: (@Sendable () -> Void)?)>((false, nil))

        init(old: SQLiteCatalogStore, new: SQLiteCatalogStore) { self.old = old; self.new = new }

        func swap() { state.withLock { $0.swapped = true } }
        func setDuringNextRead(_ body: @escaping @Sendable () -> Void) { state.withLock { $0.duringNextRead = body } }
        private var current: SQLiteCatalogStore { state.withLock { $0.swapped } ? new : old }

        var location: CatalogLocation { old.location }
        var panoramaCount: Int { current.panoramaCount }
        var queryIndex: SceneQueryIndex? { current.queryIndex }
        func search(_ query: SceneQueryIndex.Query) throws(CatalogError) -> CatalogStoreHit { try current.search(query) }
        func panorama(row: Int) throws(CatalogError) -> PanoramaRecord {
            let store = current
            let body = state.withLock { state in defer { state.duringNextRead = nil }; return state.duringNextRead }
            body?()
            return try store.panorama(row: row)
        }
        func links(row: Int) throws(CatalogError) -> [PanoramaLink] { try current.links(row: row) }
        func row(ofPanoramaID id: String) throws(CatalogError) -> Int { try current.row(ofPanoramaID: id) }
        func sequenceLength(named name: String) throws(CatalogError) -> Int? { try current.sequenceLength(named: name) }
        func imagePaths() throws(CatalogError) -> [(panoramaID: String, imagePath: String)] { try current.imagePaths() }
        func partialPanoramaCrops() throws(CatalogError) -> [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)] {
            try current.partialPanoramaCrops()
        }
        func coverage(south: Double, north: Double, west: Double, east: Double, orderedByID: Bool) throws(CatalogError) -> [CoverageEntry] {
            try current.coverage(south: south, north: north, west: west, east: east, orderedByID: orderedByID)
        }
        func streetCandidates(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> [CatalogStreet] {
            try current.streetCandidates(near: coordinate, radiusMeters: radiusMeters)
        }
        func placeCandidateIDs(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> Set<Int> {
            try current.placeCandidateIDs(near: coordinate, radiusMeters: radiusMeters)
        }
        func places() throws(CatalogError) -> [CatalogPlace] { try current.places() }
        func addresses() throws(CatalogError) -> [CatalogAddress] { try current.addresses() }
        func localities() throws(CatalogError) -> [CatalogLocality] { try current.localities() }
        func namedStreets() throws(CatalogError) -> [CatalogStreet] { try current.namedStreets() }
        func placeCount() throws(CatalogError) -> Int { try current.placeCount() }
        func streetGraph() throws(CatalogError) -> CatalogStreetGraph? { try current.streetGraph() }
        func panoramas(matching search: PanoramaSearch) throws(CatalogError) -> [(row: Int, record: PanoramaRecord)] {
            try current.panoramas(matching: search)
        }
        func sequences(after name: String?, named names: [String]?, limit: Int) throws(CatalogError) -> [CatalogSequence] {
            try current.sequences(after: name, named: names, limit: limit)
        }
        func revision() throws(CatalogError) -> Int64 { state.withLock { $0.swapped } ? 2 : 1 }
        func refresh() throws(CatalogError) {}
    }

    /// Two one-panorama SQLite catalogs at the same spot (so the same row), `old/0` and `new/0`.
    static func swappingCatalog() throws -> (Catalog, SwappingStore, GeoCoordinate) {
        let root = try Lookaround.temporaryDirectory()
        let coordinate = try GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
        var paths: [String] = []
        for name in ["old", "new"] {
            let record = PanoramaRecord(id: "\(name)/0", coordinate: coordinate, captureTime: Date(timeIntervalSince1970: 1.7e9),
                                        headingDegrees: 90, imageWidth: 64, imageHeight: 32, imagePath: "/data/\(name)/0.jpg",
                                        fullWidth: 64, fullHeight: 32, source: .simulated, sequenceName: name, sequenceIndex: 0)
            let path = root.appendingPathComponent("\(name).sqlite").path
            _ = try CatalogBuilder.write(records: [record], to: path)
            paths.append(path)
        }
        let store = SwappingStore(old: try SQLiteCatalogStore(path: paths[0]), new: try SQLiteCatalogStore(path: paths[1]))
        return (try Catalog(store: store, path: paths[0]), store, coordinate)
    }

    @Test func anAnswerReadUnderTheOldRevisionIsNotServedUnderTheNewOne() throws {
        let (catalog, store, coordinate) = try Self.swappingCatalog()
        let cache = SceneDetailCache()
        let request = SceneRequest(coordinate: coordinate)
        // The first request's read is in flight when the catalog is replaced and a poll notices the new
        // revision; the poll has not yet dropped the caches when the next request comes.
        store.setDuringNextRead {
            store.swap()
            #expect((try? catalog.checkForNewRevision()) == true)
        }
        #expect(try catalog.scene(for: request, detailCache: cache).scene?.panoramaID == "old/0")
        #expect(catalog.revision == 2)
        #expect(try catalog.scene(for: request, detailCache: cache).scene?.panoramaID == "new/0",
                "the old catalog's panorama was served from the cache under revision 2")
        // And the new answer is cached.
        #expect(try catalog.scene(for: request, detailCache: cache).scene?.panoramaID == "new/0")
        #expect(cache.statistics.hits == 1)
    }

    @Test func withinOneRevisionRepeatedAnswersComeFromTheCache() throws {
        let (catalog, _, coordinate) = try Self.swappingCatalog()
        let cache = SceneDetailCache()
        for _ in 0..<3 {
            #expect(try catalog.scene(for: SceneRequest(coordinate: coordinate), detailCache: cache).scene?.panoramaID == "old/0")
        }
        #expect(cache.statistics == (hits: 2, misses: 1))
    }
}
