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
    /// Panoramas whose id is `text` (first), the same but for case, or ends with `/text` (the file's name:
    /// `R0014760` finds `single-cameras/R0014760`), by id, at most `limit`.
    func panoramas(named text: String, limit: Int) throws(CatalogError) -> [StoredPanoramaName]
    /// Sequences whose name is `text` (first), the same but for case, or contains it (case-insensitively),
    /// shorter names first, at most `limit`, each with its first panorama.
    func sequences(named text: String, limit: Int) throws(CatalogError) -> [StoredSequenceName]
    /// The box around every panorama, nil for an empty catalog.
    func coverageBounds() throws(CatalogError) -> CoverageBounds?
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
    /// A store opened anew on what is there now, with its revision as of that opening, when the
    /// store cannot refresh itself in place (an SQLite file replaced by a rename); nil when ``refresh()`` does.
    func reopened() throws(CatalogError) -> (store: any CatalogStore, revision: Int64)?
}

extension CatalogStore {
    func reopened() throws(CatalogError) -> (store: any CatalogStore, revision: Int64)? { nil }
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

/// A panorama found by its id (``CatalogStore/panoramas(named:limit:)``).
struct StoredPanoramaName: Sendable, Equatable {
    var id: String
    var latitude: Double, longitude: Double
}

/// A sequence found by its name, with its first panorama (``CatalogStore/sequences(named:limit:)``).
struct StoredSequenceName: Sendable, Equatable {
    var name: String
    var panoramaCount: Int
    var firstPanoramaID: String
    var latitude: Double, longitude: Double
}

/// `text` for the right side of `LIKE … ESCAPE '\'`: `%`, `_` and `\` taken literally.
func likeEscaped(_ text: String) -> String {
    var escaped = ""
    for c in text {
        if c == "%" || c == "_" || c == "\\" { escaped.append("\\") }
        escaped.append(c)
    }
    return escaped
}
