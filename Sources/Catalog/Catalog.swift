import Foundation
import Geodesy
import Imaging
import MapData

/// An open catalog: answers scene requests from its in-memory ``SceneQueryIndex`` and reads details,
/// links, coverage tiles and places from the SQLite file.
///
/// Opening loads the packed query index stored by `lookaround index` (17 bytes per panorama; about
/// 0.1 s per million panoramas) and keeps the file open read-only: a rebuild that replaces the file
/// does not disturb an open catalog. Thread-safe: SQLite access is serialised by a lock; index
/// queries need none.
public final class Catalog: @unchecked Sendable {
    /// The catalog file.
    public let path: String
    /// The in-memory index scene requests use.
    public let queryIndex: SceneQueryIndex
    private let database: SQLiteDatabase
    private let lock = NSLock()
    private var detailStatement: SQLiteDatabase.Statement?
    private var linksStatement: SQLiteDatabase.Statement?
    private var placeIndex: PlaceSearchIndex?
    private var baselineStatement: SQLiteDatabase.Statement?

    /// The catalog used when none is named: `$LOOKAROUND_CATALOG` when set, else
    /// `Panoramas/catalog.sqlite` in the current folder (beside the shipped panoramas).
    public static var defaultPath: String {
        ProcessInfo.processInfo.environment["LOOKAROUND_CATALOG"] ?? "Panoramas/catalog.sqlite"
    }

    /// Opens the catalog at `path` read-only and loads its query index.
    /// - Throws: `CatalogError.catalogMissing`, `.notACatalog`, `.schemaTooNew`, `.corruptIndex`; `.io`
    ///   for a folder (SQLite would say only "disk I/O error").
    public init(path: String = Catalog.defaultPath) throws(CatalogError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .catalogMissing(path: path) }
        guard !isFolder.boolValue else {
            throw .io(path: path, detail: "a folder, not a catalog file; pass the catalog file that 'lookaround index' "
                      + "writes (by default Panoramas/catalog.sqlite, or $LOOKAROUND_CATALOG)")
        }
        self.path = path
        database = try SQLiteDatabase(path: path, mode: .readOnly)
        let version: Int
        do { version = try database.userVersion } catch { throw .notACatalog(path: path, detail: "not an SQLite database") }
        guard version <= CatalogSchema.currentVersion else {
            throw .schemaTooNew(path: path, found: version, supported: CatalogSchema.currentVersion)
        }
        guard version == CatalogSchema.currentVersion, try database.hasTable("query_index") else {
            throw .notACatalog(path: path, detail: version == 0 ? "no catalog tables"
                               : "schema version \(version) without a query index")
        }
        let statement = try database.prepare("SELECT data, panorama_count FROM query_index WHERE id = 1")
        guard try statement.step() else { throw .corruptIndex(path: path, detail: "no stored index") }
        let path = path
        let index = try statement.withBlob(0) { blob throws(CatalogError) in try SceneQueryIndex(serialized: blob, path: path) }
        let count = try database.prepare("SELECT count(*) FROM panoramas")
        guard try count.step(), count.int(0) == index.count, statement.int(1) == index.count else {
            throw .corruptIndex(path: path, detail: "the index holds \(index.count) panoramas, the table \(count.int(0))")
        }
        queryIndex = index
    }

    /// Number of panoramas.
    public var panoramaCount: Int { queryIndex.count }

    // MARK: Scene requests

    /// The in-memory query alone (no SQL, no allocation): the position and approximate distance of the
    /// nearest or best panorama. This is the path measured in the benchmarks.
    public func nearest(_ query: SceneQueryIndex.Query) -> SceneQueryIndex.Hit { queryIndex.search(query) }

    /// Answers a scene request: the panorama with its geodesic distance and bearing from the request
    /// point, capture heading and date and links; or no coverage with the reason.
    /// - Throws: `CatalogError.invalidParameter` for a bad radius or date window; `.sqlite` when the file fails.
    /// - Parameter detailCache: where the found panorama's record and links are kept between requests
    ///   (a service answering thousands of requests a second); nil reads them from SQLite every time.
    public func scene(for request: SceneRequest, requestID: String? = nil,
                      detailCache: SceneDetailCache? = nil) throws(CatalogError) -> SceneAnswer {
        try request.validate()
        var answer = SceneAnswer(found: false, latitude: request.coordinate.latitude,
                                 longitude: request.coordinate.longitude, radiusMeters: request.radiusMeters,
                                 requestID: requestID, scene: nil, noCoverage: nil)
        guard panoramaCount > 0 else {
            answer.noCoverage = NoCoverage(reason: .catalogEmpty,
                                           message: "the catalog \(path) holds no panoramas; index some with 'lookaround index DIR'",
                                           nearestDistanceMeters: nil, nearestPanoramaID: nil, filteredOutCount: 0)
            return answer
        }
        let hit = queryIndex.search(request.indexQuery)
        if hit.found {
            let row = Int(queryIndex.rows[hit.position])
            answer.found = true
            if let detailCache {
                answer.scene = try detailCache.match(row: row, from: request.coordinate, catalog: self)
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
            let wide = queryIndex.search(SceneQueryIndex.Query(coordinate: request.coordinate, radiusMeters: limit))
            if wide.found {
                let record = try panorama(row: Int(queryIndex.rows[wide.position]))
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
    /// the in-memory index is tested and benchmarked against.
    /// - Returns: the panorama's `row` and approximate distance in metres, or nil.
    public func nearestByRTreeQuery(_ query: SceneQueryIndex.Query) throws(CatalogError) -> (row: Int, distanceMeters: Double)? {
        let scale = SceneQueryIndex.metersPerE7(atLatitude: query.coordinate.latitude)
        let metersPerDegreeLatitude = scale.latitude * 1e7, metersPerDegreeLongitude = scale.longitude * 1e7
        let latitudeSpan = query.radiusMeters / metersPerDegreeLatitude
        let longitudeSpan = query.radiusMeters / max(metersPerDegreeLongitude, 1e-9)
        return try withLock { () throws(CatalogError) -> (row: Int, distanceMeters: Double)? in
            if baselineStatement == nil {
                baselineStatement = try database.prepare("""
                    SELECT p.row, ((p.latitude - ?1) * ?3) * ((p.latitude - ?1) * ?3)
                                  + ((p.longitude - ?2) * ?4) * ((p.longitude - ?2) * ?4) AS d2
                    FROM panorama_rtree r JOIN panoramas p ON p.row = r.row
                    WHERE r.min_lat <= ?1 + ?5 AND r.max_lat >= ?1 - ?5 AND r.min_lon <= ?2 + ?6 AND r.max_lon >= ?2 - ?6
                      AND d2 <= ?7
                    ORDER BY d2, p.row LIMIT 1
                    """)
            }
            guard let statement = baselineStatement else { return nil }
            defer { statement.reset() }
            try statement.bind(1, query.coordinate.latitude)
            try statement.bind(2, query.coordinate.longitude)
            try statement.bind(3, metersPerDegreeLatitude)
            try statement.bind(4, metersPerDegreeLongitude)
            try statement.bind(5, latitudeSpan)
            try statement.bind(6, longitudeSpan)
            try statement.bind(7, query.radiusMeters * query.radiusMeters)
            guard try statement.step() else { return nil }
            return (statement.int(0), statement.double(1).squareRoot())
        }
    }

    /// The catalog `row` of index position `position` (from a ``SceneQueryIndex/Hit``).
    public func row(atIndexPosition position: Int) -> Int { Int(queryIndex.rows[position]) }

    // MARK: Details

    private func withLock<T>(_ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The panorama stored at `row`.
    func panorama(row: Int) throws(CatalogError) -> PanoramaRecord {
        try withLock { () throws(CatalogError) -> PanoramaRecord in
            if detailStatement == nil {
                detailStatement = try database.prepare(
                    "SELECT \(PanoramaRecord.selectColumns) FROM panoramas p JOIN sequences s ON s.id = p.sequence WHERE p.row = ?1")
            }
            guard let statement = detailStatement else { throw .corruptIndex(path: path, detail: "no statement") }
            defer { statement.reset() }
            try statement.bind(1, row)
            guard try statement.step() else {
                throw .corruptIndex(path: path, detail: "the index names row \(row), which the panorama table lacks")
            }
            return try PanoramaRecord(reading: statement, path: path)
        }
    }

    /// Links of the panorama at `row`, nearest first.
    func links(row: Int) throws(CatalogError) -> [PanoramaLink] {
        try withLock { () throws(CatalogError) -> [PanoramaLink] in
            if linksStatement == nil {
                linksStatement = try database.prepare("""
                    SELECT p.id, l.heading_degrees, l.distance_meters, l.kind FROM links l JOIN panoramas p ON p.row = l.to_row
                    WHERE l.from_row = ?1 ORDER BY l.distance_meters, p.id
                    """)
            }
            guard let statement = linksStatement else { throw .corruptIndex(path: path, detail: "no statement") }
            defer { statement.reset() }
            try statement.bind(1, row)
            var links: [PanoramaLink] = []
            while try statement.step() {
                links.append(PanoramaLink(panoramaID: statement.string(0), headingDegrees: statement.double(1),
                                          distanceMeters: statement.double(2),
                                          kind: PanoramaLink.Kind(rawValue: statement.string(3)) ?? .proximity))
            }
            return links
        }
    }

    private func row(ofPanoramaID id: String) throws(CatalogError) -> Int {
        try withLock { () throws(CatalogError) -> Int in
            let statement = try database.prepare("SELECT row FROM panoramas WHERE id = ?1")
            try statement.bind(1, id)
            guard try statement.step() else { throw .unknownPanorama(id: id) }
            return statement.int(0)
        }
    }

    /// The panorama with this id.
    /// - Throws: `CatalogError.unknownPanorama`.
    public func panorama(id: String) throws(CatalogError) -> PanoramaRecord { try panorama(row: row(ofPanoramaID: id)) }

    /// The links of the panorama with this id, nearest first.
    /// - Throws: `CatalogError.unknownPanorama`.
    public func links(ofPanoramaID id: String) throws(CatalogError) -> [PanoramaLink] { try links(row: row(ofPanoramaID: id)) }

    /// How many panoramas the sequence `name` holds; nil when there is no such sequence.
    public func sequenceLength(named name: String) throws(CatalogError) -> Int? {
        try withLock { () throws(CatalogError) -> Int? in
            let statement = try database.prepare("SELECT panorama_count FROM sequences WHERE name = ?1")
            try statement.bind(1, name)
            return try statement.step() ? statement.int(0) : nil
        }
    }

    /// Every panorama's id and image file, ordered by id (what `lookaround index --tiles` makes tile
    /// files of). One table scan.
    public func imagePaths() throws(CatalogError) -> [(panoramaID: String, imagePath: String)] {
        try withLock { () throws(CatalogError) -> [(panoramaID: String, imagePath: String)] in
            let statement = try database.prepare("SELECT id, image_path FROM panoramas ORDER BY id")
            var paths: [(panoramaID: String, imagePath: String)] = []
            while try statement.step() { paths.append((statement.string(0), statement.string(1))) }
            return paths
        }
    }

    /// Where each partial panorama (GPano crop: an image smaller than its full sphere) lies in its full
    /// panorama, by panorama id: full size and the image's top-left corner, pixels. Full panoramas are
    /// not listed. One table scan.
    public func partialPanoramaCrops() throws(CatalogError)
        -> [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)] {
        try withLock { () throws(CatalogError) -> [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)] in
            let statement = try database.prepare("""
                SELECT id, full_width, full_height, cropped_left, cropped_top FROM panoramas
                WHERE cropped_left != 0 OR cropped_top != 0 OR image_width != full_width OR image_height != full_height
                """)
            var crops: [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)] = [:]
            while try statement.step() {
                crops[statement.string(0)] = (statement.int(1), statement.int(2), statement.int(3), statement.int(4))
            }
            return crops
        }
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
                          order: StaticString) throws(CatalogError) -> [CoverageEntry] {
        try withLock { () throws(CatalogError) -> [CoverageEntry] in
            let statement = try database.prepare("""
                SELECT p.id, p.latitude, p.longitude, p.heading_degrees, p.capture_time, p.source
                FROM panorama_rtree r JOIN panoramas p ON p.row = r.row
                WHERE r.max_lat >= ?1 AND r.min_lat < ?2 AND r.max_lon >= ?3 AND r.min_lon < ?4
                  AND p.latitude > ?1 AND p.latitude <= ?2 AND p.longitude >= ?3 AND p.longitude < ?4
                ORDER BY \(order)
                """)
            try statement.bind(1, south)
            try statement.bind(2, north)
            try statement.bind(3, west)
            try statement.bind(4, east)
            var entries: [CoverageEntry] = []
            while try statement.step() {
                entries.append(CoverageEntry(panoramaID: statement.string(0), latitude: statement.double(1),
                                             longitude: statement.double(2), headingDegrees: statement.double(3),
                                             captureTime: Self.iso8601(Date(timeIntervalSince1970: statement.double(4))),
                                             source: PanoramaSource(rawValue: statement.string(5)) ?? .photo))
            }
            return entries
        }
    }

    // MARK: Places

    /// Searches places by name (see `PlaceSearchIndex` for the scoring: exact > prefix > word prefix >
    /// substring > typo; nearer first with `near`).
    /// - Throws: `CatalogError.invalidParameter` for a limit outside 1…1000.
    public func searchPlaces(_ query: PlaceSearchQuery) throws(CatalogError) -> [PlaceMatch] {
        guard (1...1000).contains(query.limit) else {
            throw .invalidParameter(name: "limit", value: "\(query.limit)", allowed: "1…1000")
        }
        return try searchIndex().search(query)
    }

    /// The place search index, loaded on first use.
    private func searchIndex() throws(CatalogError) -> PlaceSearchIndex {
        try withLock { () throws(CatalogError) -> PlaceSearchIndex in
            if let placeIndex { return placeIndex }
            let index = PlaceSearchIndex(places: try loadPlaces())
            placeIndex = index
            return index
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
        let streets = try withLock { () throws(CatalogError) -> [CatalogStreet] in
            let statement = try database.prepare("""
                SELECT s.id, s.osm, s.name, s.highway_class, s.points FROM street_rtree r JOIN streets s ON s.id = r.id
                WHERE r.min_lat <= ?1 AND r.max_lat >= ?2 AND r.min_lon <= ?3 AND r.max_lon >= ?4
                """)
            try statement.bind(1, coordinate.latitude + radiusMeters / perDegreeLatitude)
            try statement.bind(2, coordinate.latitude - radiusMeters / perDegreeLatitude)
            try statement.bind(3, coordinate.longitude + radiusMeters / perDegreeLongitude)
            try statement.bind(4, coordinate.longitude - radiusMeters / perDegreeLongitude)
            var streets: [CatalogStreet] = []
            while try statement.step() {
                let numbers = statement.string(4).split { "[], ".contains($0) }.compactMap { Double($0) }
                var points: [GeoCoordinate] = []
                for k in stride(from: 0, to: numbers.count - 1, by: 2) {
                    if let point = try? GeoCoordinate(latitude: numbers[k], normalizingLongitude: numbers[k + 1]) { points.append(point) }
                }
                streets.append(CatalogStreet(id: statement.int(0), osm: statement.string(1), name: statement.optionalString(2),
                                             names: [:], highwayClass: statement.string(3), points: points))
            }
            let names = try database.prepare("SELECT language, name FROM street_names WHERE street = ?1")
            for i in streets.indices {
                try names.bind(1, streets[i].id)
                while try names.step() { streets[i].names[names.string(0)] = names.string(1) }
                names.reset()
            }
            return streets
        }
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
        let scale = SceneQueryIndex.metersPerE7(atLatitude: coordinate.latitude)
        let latitudeSpan = radiusMeters / (scale.latitude * 1e7), longitudeSpan = radiusMeters / max(scale.longitude * 1e7, 1e-9)
        let ids = try withLock { () throws(CatalogError) -> Set<Int> in
            let statement = try database.prepare(
                "SELECT id FROM place_rtree WHERE min_lat <= ?1 AND max_lat >= ?2 AND min_lon <= ?3 AND max_lon >= ?4")
            try statement.bind(1, coordinate.latitude + latitudeSpan)
            try statement.bind(2, coordinate.latitude - latitudeSpan)
            try statement.bind(3, coordinate.longitude + longitudeSpan)
            try statement.bind(4, coordinate.longitude - longitudeSpan)
            var ids = Set<Int>()
            while try statement.step() { ids.insert(statement.int(0)) }
            return ids
        }
        guard !ids.isEmpty else { return [] }
        let all = try searchIndex().places
        return all.filter { ids.contains($0.id) }
            .map { ($0, Geodesic.wgs84.inverse(from: coordinate, to: $0.coordinate).distanceMeters) }
            .filter { $0.1 <= radiusMeters }
            .sorted { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
    }


    /// Number of places in the catalog.
    public func placeCount() throws(CatalogError) -> Int {
        try withLock { () throws(CatalogError) -> Int in
            let statement = try database.prepare("SELECT count(*) FROM places")
            return try statement.step() ? statement.int(0) : 0
        }
    }

    private func loadPlaces() throws(CatalogError) -> [CatalogPlace] {
        var names: [Int: [String: String]] = [:]
        let nameStatement = try database.prepare("SELECT place, language, name FROM place_names")
        while try nameStatement.step() { names[nameStatement.int(0), default: [:]][nameStatement.string(1)] = nameStatement.string(2) }
        let statement = try database.prepare("""
            SELECT id, osm, name, category, category_group, street, house_number, postcode, city, phone, website,
                   opening_hours, latitude, longitude FROM places ORDER BY id
            """)
        var places: [CatalogPlace] = []
        while try statement.step() {
            let id = statement.int(0)
            let address = PostalAddress(street: statement.optionalString(5), houseNumber: statement.optionalString(6),
                                        postcode: statement.optionalString(7), city: statement.optionalString(8))
            guard let coordinate = try? GeoCoordinate(latitude: statement.double(12),
                                                      normalizingLongitude: statement.double(13)) else { continue }
            places.append(CatalogPlace(id: id, osm: statement.string(1), name: statement.string(2), names: names[id] ?? [:],
                                       category: statement.string(3), categoryGroup: statement.string(4),
                                       address: address.isEmpty ? nil : address, phone: statement.optionalString(9),
                                       website: statement.optionalString(10), openingHours: statement.optionalString(11),
                                       coordinate: coordinate))
        }
        return places
    }
}
