import Foundation
import Geodesy
import Imaging
import MapData

/// An open catalog: answers scene requests, reads details, links, coverage tiles and places, from one
/// of two stores behind the one ``CatalogStore`` interface: an SQLite file (the embedded default,
/// scene requests answered from its in-memory ``SceneQueryIndex``) or PostgreSQL + PostGIS (named by a
/// `postgres://` URL, shared by many machines, scene requests answered with KNN `<->`).
///
/// Everything above storage (no-coverage reasons, distances, place search) is done here, once, for
/// both. Thread-safe.
///
/// `@unchecked Sendable`: `currentStore` is read and written under `storeLock` only; `placeIndex`, `geocodingIndex`, `knownRevision` and `knownStamp` are read and written under `lock` only (`withLock`, `withLockNoThrow`, and `init` before the catalog is shared); the store is `Sendable`; the rest is `let`.
public final class Catalog: @unchecked Sendable {
    /// The catalog as given: a file path or a `postgres://` URL (never with a password in it).
    public let path: String
    /// Where the catalog is; its ``CatalogLocation/description`` is the text to print.
    public let location: CatalogLocation
    /// The open store: replaced whole when an SQLite catalog's file was replaced (an index run, an
    /// upload) and ``checkForNewRevision()`` reopened it; requests in flight keep the store they read.
    var store: any CatalogStore {
        storeLock.lock()
        defer { storeLock.unlock() }
        return currentStore
    }
    private var currentStore: any CatalogStore
    private let storeLock = NSLock()
    private let lock = NSLock()
    private var placeIndex: PlaceSearchIndex?
    private var geocodingIndex: GeocodingIndex?
    private var knownRevision: Int64
    /// The store's own revision as last seen (an SQLite file's identity: inode and modification time).
    private var knownStamp: Int64

    /// The in-memory index scene requests use (SQLite catalogs; nil for a PostGIS catalog, which
    /// answers with its database's KNN index).
    public var queryIndex: SceneQueryIndex? { store.queryIndex }

    /// The catalog used when none is named: `$LOOKAROUND_CATALOG` when set, else
    /// `Panoramas/catalog.sqlite` in the current folder (beside the shipped panoramas).
    public static var defaultPath: String { CatalogLocation.defaultText }

    /// Opens the catalog `path` names: a `postgres://` or `postgresql://` URL opens the PostGIS store,
    /// anything else the SQLite file (read-only, its query index loaded).
    /// - Throws: `CatalogError.catalogMissing`, `.notACatalog`, `.schemaTooNew`, `.corruptIndex`;
    ///   `.invalidParameter` for a malformed URL; `.unavailable` when the database cannot be reached.
    public convenience init(path: String = Catalog.defaultPath) throws(CatalogError) {
        try self.init(location: CatalogLocation(parsing: path))
    }

    /// Opens the catalog at `location`; `connections` bounds a PostGIS catalog's connection pool.
    public convenience init(location: CatalogLocation, connections: Int = 8) throws(CatalogError) {
        switch location {
        case .file(let path): try self.init(store: SQLiteCatalogStore(path: path), path: path)
        case .postgres(let url):
            try self.init(store: PostGISCatalogStore(url: url, maximumConnections: connections), path: url)
        }
    }

    init(store: any CatalogStore, path: String) throws(CatalogError) {
        currentStore = store
        self.path = path
        location = store.location
        knownStamp = try store.revision()
        // An SQLite catalog counts its reopenings from 0; a PostGIS catalog's revision is the database's.
        knownRevision = store is SQLiteCatalogStore ? 0 : knownStamp
    }

    /// Number of panoramas.
    public var panoramaCount: Int { store.panoramaCount }

    /// The routing graph `lookaround index --osm` stored with the catalog (bytes that Routing reads,
    /// `RoutingGraph(serialized:)`), nil when the catalog has none (built without `--osm`).
    public func streetGraph() throws(CatalogError) -> CatalogStreetGraph? { try store.streetGraph() }

    // MARK: Scene requests

    /// The in-memory query alone (no SQL, no allocation): the position and approximate distance of the
    /// nearest or best panorama. This is the path measured in the benchmarks.
    /// A PostGIS catalog has no in-memory index: it answers "nothing found" here (use ``scene(for:requestID:detailCache:)``).
    public func nearest(_ query: SceneQueryIndex.Query) -> SceneQueryIndex.Hit {
        store.queryIndex?.search(query) ?? SceneQueryIndex.Hit(position: -1, approximateDistanceMeters: .infinity, withinRadius: 0, accepted: 0)
    }

    /// ``nearest(_:)`` for many queries at once, in order into `hits` (`hits.count` ≥ `queries.count`): the
    /// same answers, with the next queries' cells prefetched while one is searched
    /// (``SceneQueryIndex/search(_:into:)``). A PostGIS catalog answers "nothing found" for each.
    public func nearest(_ queries: UnsafeBufferPointer<SceneQueryIndex.Query>, into hits: UnsafeMutableBufferPointer<SceneQueryIndex.Hit>) {
        if let index = store.queryIndex { index.search(queries, into: hits); return }
        for i in 0..<queries.count { hits[i] = nearest(queries[i]) }
    }

    /// Answers a scene request: the panorama with its geodesic distance and bearing from the request
    /// point, capture heading and date and links; or no coverage with the reason.
    /// - Throws: `CatalogError.invalidParameter` for a bad radius or date window; `.sqlite` when the file fails.
    /// - Parameter detailCache: where the found panorama's record and links are kept between requests
    ///   (a service answering thousands of requests a second); nil reads them from SQLite every time.
    public func scene(for request: SceneRequest, requestID: String? = nil,
                      detailCache: SceneDetailCache? = nil) throws(CatalogError) -> SceneAnswer {
        try request.validate()
        // Before the search: what the detail cache files this request's reads under.
        let revision = self.revision
        var answer = SceneAnswer(found: false, latitude: request.coordinate.latitude,
                                 longitude: request.coordinate.longitude, radiusMeters: request.radiusMeters,
                                 requestID: requestID, scene: nil, noCoverage: nil)
        guard panoramaCount > 0 else {
            answer.noCoverage = NoCoverage(reason: .catalogEmpty,
                                           message: "the catalog \(location) holds no panoramas; index some with 'lookaround index DIR'",
                                           nearestDistanceMeters: nil, nearestPanoramaID: nil, filteredOutCount: 0)
            return answer
        }
        let hit = try store.search(request.indexQuery)
        if let row = hit.row {
            answer.found = true
            if let detailCache {
                answer.scene = try detailCache.match(row: row, from: request.coordinate, catalog: self, revision: revision)
            } else {
                answer.scene = SceneMatch(record: try panorama(row: row), links: try links(row: row),
                                          requestCoordinate: request.coordinate)
            }
            return answer
        }
        if hit.withinRadius > 0 {
            let filters = [request.source != .any ? "source \(request.source.rawValue)" : nil,
                           request.capturedAfter != nil || request.capturedBefore != nil ? "the capture date window" : nil]
                .compactMap { $0 }.joined(separator: " and ")
            answer.noCoverage = NoCoverage(
                reason: .filteredOut,
                message: "\(hit.withinRadius) panorama\(hit.withinRadius == 1 ? " is" : "s are") within "
                    + "\(Self.meters(request.radiusMeters)) but \(filters.isEmpty ? "the filters" : filters) excluded "
                    + (hit.withinRadius == 1 ? "it" : "them"),
                nearestDistanceMeters: nil, nearestPanoramaID: nil, filteredOutCount: hit.withinRadius)
            return answer
        }
        // Nothing within the radius: look further, in growing steps, for the nearest panorama.
        var nearest: (id: String, distance: Double)?
        var radius = max(request.radiusMeters, 25) * 4
        while nearest == nil {
            let limit = min(radius, SceneRequest.nearestSearchLimitMeters)
            let wide = try store.search(SceneQueryIndex.Query(coordinate: request.coordinate, radiusMeters: limit))
            if let row = wide.row {
                let record = try panorama(row: row)
                let distance = Geodesic.wgs84.inverse(from: request.coordinate, to: record.coordinate).distanceMeters
                nearest = (record.id, distance)
            }
            if limit >= SceneRequest.nearestSearchLimitMeters { break }
            radius *= 4
        }
        answer.noCoverage = NoCoverage(
            reason: .nothingWithinRadius,
            message: "no panorama within \(Self.meters(request.radiusMeters)) of \(request.coordinate.latitude),"
                + "\(request.coordinate.longitude)"
                + (nearest.map { "; the nearest is \($0.id), \(Self.meters($0.distance)) away" }
                   ?? "; none within 10 km"),
            nearestDistanceMeters: nearest?.distance, nearestPanoramaID: nearest?.id, filteredOutCount: 0)
        return answer
    }

    static func meters(_ value: Double) -> String { String(format: value < 100 ? "%.1f m" : "%.0f m", value) }

    /// `2024-05-12T10:15:30Z`: how the catalog writes times in answers.
    public static func iso8601String(_ date: Date) -> String { iso8601(date) }

    /// Formats without a formatter object (creating one costs more than a whole scene answer).
    static func iso8601(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let date = CivilDate(daysSince1970: days)
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let yearText = date.year >= 0 ? CivilDate.padded(date.year, 4) : "\(date.year)"
        return "\(yearText)-\(two(date.month))-\(two(date.day))T\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// The same nearest-within-radius question answered the way one first writes it: an SQLite R*Tree
    /// window query joined to the panorama table, ordered by the equirectangular distance, `LIMIT 1`
    /// (no source or date filters; windows are not split at the 180th meridian). Kept as the reference
    /// the in-memory index is tested and benchmarked against. A PostGIS catalog answers with its KNN
    /// query (`ORDER BY geog <-> point`), the path its scene requests take.
    /// - Returns: the panorama's `row` and approximate distance in metres, or nil.
    public func nearestByRTreeQuery(_ query: SceneQueryIndex.Query) throws(CatalogError) -> (row: Int, distanceMeters: Double)? {
        if let sqlite = store as? SQLiteCatalogStore { return try sqlite.nearestByRTreeQuery(query) }
        let hit = try store.search(SceneQueryIndex.Query(coordinate: query.coordinate, radiusMeters: query.radiusMeters))
        return hit.row.map { ($0, hit.approximateDistanceMeters) }
    }

    // MARK: Details

    private func withLock<T>(_ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The panorama stored at `row`.
    func panorama(row: Int) throws(CatalogError) -> PanoramaRecord { try store.panorama(row: row) }

    /// Links of the panorama at `row`, nearest first.
    func links(row: Int) throws(CatalogError) -> [PanoramaLink] { try store.links(row: row) }

    private func row(ofPanoramaID id: String) throws(CatalogError) -> Int { try store.row(ofPanoramaID: id) }

    /// The panorama with this id.
    /// - Throws: `CatalogError.unknownPanorama`.
    public func panorama(id: String) throws(CatalogError) -> PanoramaRecord { try panorama(row: row(ofPanoramaID: id)) }

    /// The links of the panorama with this id, nearest first.
    /// - Throws: `CatalogError.unknownPanorama`.
    public func links(ofPanoramaID id: String) throws(CatalogError) -> [PanoramaLink] { try links(row: row(ofPanoramaID: id)) }

    /// How many panoramas the sequence `name` holds; nil when there is no such sequence.
    public func sequenceLength(named name: String) throws(CatalogError) -> Int? { try store.sequenceLength(named: name) }

    /// Every panorama's id and image file, ordered by id (what `lookaround index --tiles` makes tile
    /// files of). One table scan.
    public func imagePaths() throws(CatalogError) -> [(panoramaID: String, imagePath: String)] { try store.imagePaths() }

    /// Where each partial panorama (GPano crop: an image smaller than its full sphere) lies in its full
    /// panorama, by panorama id: full size and the image's top-left corner, pixels. Full panoramas are
    /// not listed. One table scan.
    public func partialPanoramaCrops() throws(CatalogError)
        -> [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)] {
        try store.partialPanoramaCrops()
    }

    /// The panoramas inside a slippy-map tile (as Apple's Look Around coverage tiles list them), ordered by id.
    /// Uses the catalog's R*Tree.
    public func coverage(tile: SlippyTile) throws(CatalogError) -> [CoverageEntry] {
        // The east edge of the last column is +180, which GeoCoordinate spells -180.
        let east = tile.x + 1 == 1 << tile.zoom ? 180.0 : tile.southEast.longitude
        return try coverage(south: tile.southEast.latitude, north: tile.northWest.latitude,
                            west: tile.northWest.longitude, east: east, order: "p.id")
    }

    /// The panoramas inside a latitude/longitude box (south < latitude ≤ north, west ≤ longitude < east,
    /// degrees; `west < east`: split a box across the 180th meridian in two), in capture order: by
    /// sequence, then position in the sequence. Uses the catalog's R*Tree.
    public func coverage(south: Double, north: Double, west: Double, east: Double) throws(CatalogError) -> [CoverageEntry] {
        try coverage(south: south, north: north, west: west, east: east, order: "p.sequence, p.sequence_index")
    }

    private func coverage(south: Double, north: Double, west: Double, east: Double,
                          order: String) throws(CatalogError) -> [CoverageEntry] {
        try store.coverage(south: south, north: north, west: west, east: east, orderedByID: order == "p.id")
    }

    // MARK: Places

    /// Searches places by name (see `PlaceSearchIndex` for the scoring: exact > prefix > word prefix >
    /// substring > typo; nearer first with `near`). A street address ("Aleksanterinkatu 52") finds the
    /// places at that address, the house's own first (matched name: the address).
    /// - Throws: `CatalogError.invalidParameter` for a limit outside 1…1000.
    public func searchPlaces(_ query: PlaceSearchQuery) throws(CatalogError) -> [PlaceMatch] {
        guard (1...1000).contains(query.limit) else {
            throw .invalidParameter(name: "limit", value: "\(query.limit)", allowed: "1…1000")
        }
        let (places, geocoding) = try geocodingIndexes()
        // A coordinate, a panorama id or a sequence name first (with or without map data); then places by
        // name; with no place of that name, the addresses, streets and localities geocoding finds ("Toulouse").
        let direct = query.category == nil ? try directAnswers(to: query.text, near: query.near, limit: query.limit)
            .map { Self.placeMatch($0, language: query.language) } : []
        if direct.first?.place.category == "coordinate" { return direct }
        var byName = places.search(query)
        if let atHouse = placesAtHouse(query, named: byName, places: places, geocoding: geocoding) { byName = atHouse }
        if byName.isEmpty, query.category == nil {
            byName = geocoding.geocode(GeocodeQuery(text: query.text, near: query.near, language: query.language, limit: query.limit),
                                       places: places).map { Self.placeMatch($0, language: query.language) }
        }
        return Array(Self.merged(direct, byName, score: \.score).prefix(query.limit))
    }

    /// The places at the house a query with a house number names, the house's own first, when that house
    /// matches better than any place by name; nil otherwise.
    private func placesAtHouse(_ query: PlaceSearchQuery, named byName: [PlaceMatch], places: PlaceSearchIndex,
                               geocoding: GeocodingIndex) -> [PlaceMatch]? {
        // Only a text with a house number can name an address; the house is looked up with local names
        // (the places' addr:street is the local name).
        guard query.category == nil, geocoding.parse(GeocodeQuery(text: query.text)).houseNumber != nil, let house = geocoding.geocode(GeocodeQuery(text: query.text, near: query.near, limit: 1),
                                                                   places: places).first,
              house.precision == .house || house.precision == .interpolated, let number = house.houseNumber,
              house.score > byName.first?.score ?? 0 else { return nil }
        // The places tagged with that house number within a block's reach of the house.
        let at = places.places.compactMap { place -> (CatalogPlace, Double)? in
            guard let tagged = place.address?.houseNumber, let street = place.address?.street,
                  GeocodingIndex.normalizedNumber(tagged) == GeocodingIndex.normalizedNumber(number),
                  TextFolding.fold(street) == TextFolding.fold(house.street ?? "") else { return nil }
            let distance = Geodesic.wgs84.inverse(from: house.coordinate, to: place.coordinate).distanceMeters
            return distance <= 60 ? (place, distance) : nil
        }.sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
        guard !at.isEmpty else { return nil }
        return at.prefix(query.limit).map { place, _ in
            PlaceMatch(place: place, displayName: place.name(in: query.language), matchedName: house.name, kind: house.kind,
                       editDistance: 0, score: house.score,
                       distanceMeters: query.near.map { Geodesic.wgs84.inverse(from: $0, to: place.coordinate).distanceMeters })
        }
    }

    /// The place search index, loaded on first use.
    private func searchIndex() throws(CatalogError) -> PlaceSearchIndex {
        try withLock { () throws(CatalogError) -> PlaceSearchIndex in
            if let placeIndex { return placeIndex }
            let index = PlaceSearchIndex(places: try store.places())
            placeIndex = index
            return index
        }
    }

    /// The place search and geocoding indexes, loaded on first use.
    func geocodingIndexes() throws(CatalogError) -> (places: PlaceSearchIndex, geocoding: GeocodingIndex) {
        let places = try searchIndex()
        return try withLock { () throws(CatalogError) -> (places: PlaceSearchIndex, geocoding: GeocodingIndex) in
            if let geocodingIndex { return (places, geocodingIndex) }
            let index = GeocodingIndex(addresses: try store.addresses(), streets: try store.namedStreets(),
                                       localities: try store.localities())
            geocodingIndex = index
            return (places, index)
        }
    }

    /// Streets passing within `radiusMeters` of `coordinate`, nearest first, with the distance to the
    /// nearest point of the line (local east-north-up plane; error well under 1 % within 10 km).
    /// - Throws: `CatalogError.invalidParameter` for a radius outside 0…10,000 m.
    public func streets(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> [(street: CatalogStreet, distanceMeters: Double)] {
        guard radiusMeters.isFinite, SceneRequest.radiusRange.contains(radiusMeters) else {
            throw .invalidParameter(name: "radiusMeters", value: "\(radiusMeters)", allowed: "0…10000 metres")
        }
        let scale = SceneQueryIndex.metersPerE7(atLatitude: coordinate.latitude)
        let perDegreeLatitude = scale.latitude * 1e7, perDegreeLongitude = max(scale.longitude * 1e7, 1e-9)
        let streets = try store.streetCandidates(near: coordinate, radiusMeters: radiusMeters)
        func plane(_ point: GeoCoordinate) -> (x: Double, y: Double) {
            var dLon = point.longitude - coordinate.longitude
            if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
            return (dLon * perDegreeLongitude, (point.latitude - coordinate.latitude) * perDegreeLatitude)
        }
        var result: [(street: CatalogStreet, distanceMeters: Double)] = []
        for street in streets {
            var best = Double.infinity
            let projected = street.points.map(plane)
            for k in projected.indices {
                let a = projected[k], b = k + 1 < projected.count ? projected[k + 1] : projected[k]
                let dx = b.x - a.x, dy = b.y - a.y
                let length2 = dx * dx + dy * dy
                let t = length2 > 0 ? max(0, min(1, -(a.x * dx + a.y * dy) / length2)) : 0
                let px = a.x + t * dx, py = a.y + t * dy
                best = min(best, (px * px + py * py).squareRoot())
            }
            if best <= radiusMeters { result.append((street, best)) }
        }
        return result.sorted { ($0.distanceMeters, $0.street.id) < ($1.distanceMeters, $1.street.id) }
    }

    /// Places within `radiusMeters` of `coordinate`, nearest first (the POIs near a panorama, DESIGN §4),
    /// found through the places R*Tree and measured with Karney's geodesic.
    /// - Throws: `CatalogError.invalidParameter` for a radius outside 0…10,000 m.
    public func places(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> [(place: CatalogPlace, distanceMeters: Double)] {
        guard radiusMeters.isFinite, SceneRequest.radiusRange.contains(radiusMeters) else {
            throw .invalidParameter(name: "radiusMeters", value: "\(radiusMeters)", allowed: "0…10000 metres")
        }
        let ids = try store.placeCandidateIDs(near: coordinate, radiusMeters: radiusMeters)
        guard !ids.isEmpty else { return [] }
        let all = try searchIndex().places
        return all.filter { ids.contains($0.id) }
            .map { ($0, Geodesic.wgs84.inverse(from: coordinate, to: $0.coordinate).distanceMeters) }
            .filter { $0.1 <= radiusMeters }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
    }


    /// Number of places in the catalog.
    public func placeCount() throws(CatalogError) -> Int { try store.placeCount() }

    // MARK: Revisions

    /// The catalog's revision as last seen: it changes when an index run replaces a PostGIS catalog,
    /// and counts the times an SQLite catalog was reopened after its file was replaced (0 at open).
    public var revision: Int64 { withLockNoThrow { knownRevision } }

    private func withLockNoThrow<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// Asks the store for its revision; when it changed, re-reads the panorama count (PostGIS) or reopens
    /// the replaced file (SQLite) and drops the place index, and returns true: then every answer cached from this catalog (a
    /// ``SceneDetailCache``, a service's response cache) is stale. What service processes poll.
    /// - Throws: `CatalogError.unavailable` when the database cannot be reached.
    @discardableResult
    public func checkForNewRevision() throws(CatalogError) -> Bool {
        let store = self.store
        let current = try store.revision()
        guard current != withLockNoThrow({ knownStamp }) else { return false }
        if let reopened = try store.reopened() {
            let (replacement, stamp) = (reopened.store, reopened.revision)
            // The SQLite file was replaced: the new file, opened whole (its query index loaded) before
            // any request sees it.
            storeLock.lock()
            currentStore = replacement
            storeLock.unlock()
            withLockNoThrow {
                knownStamp = stamp
                knownRevision += 1
                placeIndex = nil
                geocodingIndex = nil
            }
            return true
        }
        try store.refresh()
        withLockNoThrow {
            knownStamp = current
            knownRevision = current
            placeIndex = nil
            geocodingIndex = nil
        }
        return true
    }
}
