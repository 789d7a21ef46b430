import Geodesy

/// The one catalog interface: what a store keeps and finds. Two implementations, ``SQLiteCatalogStore``
/// (a file beside the panoramas, queried through the in-memory ``SceneQueryIndex``) and
/// ``PostGISCatalogStore`` (PostgreSQL + PostGIS, shared by many machines, queried with KNN `<->`).
///
/// ``Catalog`` holds one and does everything above storage the same way for both (scene answers and
/// their no-coverage reasons, street and place distances, place search), so both give the same
/// answers; the conformance suite in the tests checks it.
///
/// Rows: each panorama's `row` is its position in the ingest order, 1…n, the same in both stores.
protocol CatalogStore: AnyObject, Sendable {
    /// Where the store is.
    var location: CatalogLocation { get }
    /// Panoramas in the catalog (as of the last ``refresh()``).
    var panoramaCount: Int { get }
    /// The in-memory query index, when the store has one (SQLite).
    var queryIndex: SceneQueryIndex? { get }

    /// The nearest (or best) panorama within the query's radius that passes its filters, with the
    /// same distance approximation and tie-breaking as ``SceneQueryIndex/search(_:)``.
    func search(_ query: SceneQueryIndex.Query) throws(CatalogError) -> CatalogStoreHit
    /// The panorama stored at `row`.
    func panorama(row: Int) throws(CatalogError) -> PanoramaRecord
    /// Links of the panorama at `row`, nearest first (ties by id).
    func links(row: Int) throws(CatalogError) -> [PanoramaLink]
    /// The row of the panorama with this id. - Throws: `CatalogError.unknownPanorama`.
    func row(ofPanoramaID id: String) throws(CatalogError) -> Int
    /// Panoramas in the sequence `name`; nil when there is none.
    func sequenceLength(named name: String) throws(CatalogError) -> Int?
    /// Every panorama's id and image file, ordered by id.
    func imagePaths() throws(CatalogError) -> [(panoramaID: String, imagePath: String)]
    /// Partial panoramas' crops by id.
    func partialPanoramaCrops() throws(CatalogError) -> [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)]
    /// Panoramas with south < latitude ≤ north and west ≤ longitude < east, ordered by id or by
    /// sequence and position in it.
    func coverage(south: Double, north: Double, west: Double, east: Double, orderedByID: Bool) throws(CatalogError) -> [CoverageEntry]
    /// Streets that may pass within `radiusMeters` of `coordinate` (a superset: ``Catalog`` measures).
    func streetCandidates(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> [CatalogStreet]
    /// Every street with a name, ordered by id, with its names.
    func namedStreets() throws(CatalogError) -> [CatalogStreet]
    /// Ids of places that may lie within `radiusMeters` of `coordinate` (a superset).
    func placeCandidateIDs(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> Set<Int>
    /// Every place, ordered by id.
    func places() throws(CatalogError) -> [CatalogPlace]
    /// Every house number, ordered by id (empty for a catalog built before addresses were indexed).
    func addresses() throws(CatalogError) -> [CatalogAddress]
    /// Every locality, ordered by id.
    func localities() throws(CatalogError) -> [CatalogLocality]
    /// Number of places.
    func placeCount() throws(CatalogError) -> Int
    /// The routing graph `lookaround index` stored, nil when it stored none.
    func streetGraph() throws(CatalogError) -> CatalogStreetGraph?
    /// The panoramas `search` finds, in its order, with their rows (``PanoramaSearch/sql(placeholder:boxPredicate:)``).
    func panoramas(matching search: PanoramaSearch) throws(CatalogError) -> [(row: Int, record: PanoramaRecord)]
    /// Sequences ordered by name (byte order): after `name` (nil: from the first), only `names` when
    /// given, at most `limit`.
    func sequences(after name: String?, named names: [String]?, limit: Int) throws(CatalogError) -> [CatalogSequence]
    /// The catalog's revision: a number that changes whenever an index run replaces the catalog.
    func revision() throws(CatalogError) -> Int64
    /// Re-reads what the store keeps in memory (the panorama count) after the revision changed.
    func refresh() throws(CatalogError)
}

/// What ``CatalogStore/search(_:)`` found.
struct CatalogStoreHit: Sendable, Equatable {
    /// The panorama's row, nil when nothing passed.
    var row: Int?
    /// Approximate distance to it, metres (the index's local equirectangular approximation).
    var approximateDistanceMeters: Double
    /// Panoramas within the radius before the source and date filters (exact only when nothing passed).
    var withinRadius: Int
}
