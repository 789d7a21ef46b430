import Foundation
import Geodesy
import Imaging
import MapData

/// The SQLite catalog store: a file written by `lookaround index`, opened read-only; scene requests
/// are answered from the packed ``SceneQueryIndex`` loaded at open (17 bytes per panorama; about
/// 0.1 s per million panoramas), details, links, coverage and places from the file through its R*Trees.
///
/// A rebuild that replaces the file does not disturb an open store (it keeps the old file). SQLite
/// access is serialised by a lock; index queries need none.
///
/// `@unchecked Sendable`: the database and its prepared statements are used under `lock` only; the scene index is immutable after `init`; the rest is `let`.
final class SQLiteCatalogStore: CatalogStore, @unchecked Sendable {
    let path: String
    let location: CatalogLocation
    let index: SceneQueryIndex
    let database: SQLiteDatabase
    /// The identity of the file this store opened (``fileIdentity(_:)``, read just before opening it).
    let openedRevision: Int64
    private let lock = NSLock()
    private var detailStatement: SQLiteDatabase.Statement?
    private var linksStatement: SQLiteDatabase.Statement?
    private var baselineStatement: SQLiteDatabase.Statement?

    /// Opens the catalog file at `path` read-only and loads its query index.
    /// - Throws: `CatalogError.catalogMissing`, `.notACatalog`, `.schemaTooNew`, `.corruptIndex`.
    init(path: String) throws(CatalogError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw .catalogMissing(path: path) }
        // SQLite would say only "disk I/O error".
        guard !isFolder.boolValue else {
            throw .io(path: path, detail: "a folder, not a catalog file; pass the catalog file that 'lookaround index' "
                      + "writes (by default Panoramas/catalog.sqlite, or $LOOKAROUND_CATALOG)")
        }
        self.path = path
        location = .file(path: path)
        // Read before opening: a file replaced in between is seen as new by the next revision check.
        openedRevision = Self.fileIdentity(path) ?? 0
        database = try SQLiteDatabase(path: path, mode: .readOnly)
        let version: Int
        do { version = try database.userVersion } catch { throw .notACatalog(path: path, detail: "not an SQLite database") }
        guard version <= CatalogSchema.currentVersion else {
            throw .schemaTooNew(path: path, found: version, supported: CatalogSchema.currentVersion)
        }
        guard version == CatalogSchema.currentVersion, try database.hasTable("query_index") else {
            throw .notACatalog(path: path, detail: version == 0 ? "no catalog tables"
                               : "schema version \(version), written by an older lookaround; this one reads "
                                 + "\(CatalogSchema.currentVersion)")
        }
        let statement = try database.prepare("SELECT data, panorama_count FROM query_index WHERE id = 1")
        guard try statement.step() else { throw .corruptIndex(path: path, detail: "no stored index") }
        let path = path
        let index = try statement.withBlob(0) { blob throws(CatalogError) in try SceneQueryIndex(serialized: blob, path: path) }
        let count = try database.prepare("SELECT count(*) FROM panoramas")
        guard try count.step(), count.int(0) == index.count, statement.int(1) == index.count else {
            throw .corruptIndex(path: path, detail: "the index holds \(index.count) panoramas, the table \(count.int(0))")
        }
        self.index = index
    }

    func streetGraph() throws(CatalogError) -> CatalogStreetGraph? {
        try withLock { () throws(CatalogError) in try Self.streetGraph(in: database) }
    }

    /// The `street_graph` row of a catalog of version 5 or later, nil when the index run stored none.
    static func streetGraph(in database: SQLiteDatabase) throws(CatalogError) -> CatalogStreetGraph? {
        let statement = try database.prepare("SELECT format_version, source_signature, data FROM street_graph WHERE id = 1")
        guard try statement.step() else { return nil }
        let data = statement.withBlob(2) { [UInt8]($0) }
        return CatalogStreetGraph(formatVersion: statement.int(0), sourceSignature: statement.string(1), data: data)
    }

    var panoramaCount: Int { index.count }
    var queryIndex: SceneQueryIndex? { index }

    func search(_ query: SceneQueryIndex.Query) throws(CatalogError) -> CatalogStoreHit {
        let hit = index.search(query)
        return CatalogStoreHit(row: hit.found ? Int(index.rows[hit.position]) : nil,
                               approximateDistanceMeters: hit.approximateDistanceMeters, withinRadius: hit.withinRadius)
    }

    /// An open file never changes under its reader (a rebuild is a new file renamed over it): the
    /// revision is the identity of the file now at ``path`` (inode and modification time), which
    /// differs from ``openedRevision`` once an index run or an upload replaced it.
    func revision() throws(CatalogError) -> Int64 { Self.fileIdentity(path) ?? openedRevision }
    func refresh() throws(CatalogError) {}
    func reopened() throws(CatalogError) -> (store: any CatalogStore, revision: Int64)? {
        let store = try SQLiteCatalogStore(path: path)
        return (store, store.openedRevision)
    }

    /// The identity of the file at `path` (inode and modification time mixed), nil when it cannot be read.
    static func fileIdentity(_ path: String) -> Int64? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        let time = UInt64(bitPattern: Int64(status.st_mtim.tv_sec)) &* 1_000_000_000 &+ UInt64(bitPattern: Int64(status.st_mtim.tv_nsec))
        return Int64(bitPattern: UInt64(status.st_ino) &* 0x9E37_79B9_7F4A_7C15 ^ time)
    }

    func withLock<T>(_ body: () throws(CatalogError) -> T) throws(CatalogError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// The R*Tree reference query (see ``Catalog/nearestByRTreeQuery(_:)``).
    func nearestByRTreeQuery(_ query: SceneQueryIndex.Query) throws(CatalogError) -> (row: Int, distanceMeters: Double)? {
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

    func row(ofPanoramaID id: String) throws(CatalogError) -> Int {
        try withLock { () throws(CatalogError) -> Int in
            let statement = try database.prepare("SELECT row FROM panoramas WHERE id = ?1")
            try statement.bind(1, id)
            guard try statement.step() else { throw .unknownPanorama(id: id) }
            return statement.int(0)
        }
    }

    /// How many panoramas the sequence `name` holds; nil when there is no such sequence.
    func sequenceLength(named name: String) throws(CatalogError) -> Int? {
        try withLock { () throws(CatalogError) -> Int? in
            let statement = try database.prepare("SELECT panorama_count FROM sequences WHERE name = ?1")
            try statement.bind(1, name)
            return try statement.step() ? statement.int(0) : nil
        }
    }

    /// Every panorama's id and image file, ordered by id (what `lookaround index --tiles` makes tile
    /// files of). One table scan.
    func imagePaths() throws(CatalogError) -> [(panoramaID: String, imagePath: String)] {
        try withLock { () throws(CatalogError) -> [(panoramaID: String, imagePath: String)] in
            let statement = try database.prepare("SELECT id, image_path FROM panoramas ORDER BY id")
            var paths: [(panoramaID: String, imagePath: String)] = []
            while try statement.step() { paths.append((statement.string(0), statement.string(1))) }
            return paths
        }
    }

    func panoramas(named text: String, limit: Int) throws(CatalogError) -> [StoredPanoramaName] {
        try withLock { () throws(CatalogError) -> [StoredPanoramaName] in
            let statement = try database.prepare("""
                SELECT id, latitude, longitude FROM panoramas
                WHERE id = ?1 OR lower(id) = lower(?1) OR id LIKE '%/' || ?2 ESCAPE '\\'
                ORDER BY id = ?1 DESC, lower(id) = lower(?1) DESC, id LIMIT ?3
                """)
            try statement.bind(1, text)
            try statement.bind(2, likeEscaped(text))
            try statement.bind(3, limit)
            var found: [StoredPanoramaName] = []
            while try statement.step() {
                found.append(StoredPanoramaName(id: statement.string(0), latitude: statement.double(1), longitude: statement.double(2)))
            }
            return found
        }
    }

    func sequences(named text: String, limit: Int) throws(CatalogError) -> [StoredSequenceName] {
        try withLock { () throws(CatalogError) -> [StoredSequenceName] in
            // SQLite's LIKE folds ASCII case; the first panorama by the (sequence, sequence_index) index.
            let statement = try database.prepare("""
                SELECT s.name, s.panorama_count, p.id, p.latitude, p.longitude FROM sequences s
                JOIN panoramas p ON p.row = (SELECT q.row FROM panoramas q WHERE q.sequence = s.id ORDER BY q.sequence_index LIMIT 1)
                WHERE s.name = ?1 OR lower(s.name) = lower(?1) OR s.name LIKE '%' || ?2 || '%' ESCAPE '\\'
                ORDER BY s.name = ?1 DESC, lower(s.name) = lower(?1) DESC, length(s.name), s.name LIMIT ?3
                """)
            try statement.bind(1, text)
            try statement.bind(2, likeEscaped(text))
            try statement.bind(3, limit)
            var found: [StoredSequenceName] = []
            while try statement.step() {
                found.append(StoredSequenceName(name: statement.string(0), panoramaCount: statement.int(1), firstPanoramaID: statement.string(2),
                                                latitude: statement.double(3), longitude: statement.double(4)))
            }
            return found
        }
    }

    func coverageBounds() throws(CatalogError) -> CoverageBounds? {
        try withLock { () throws(CatalogError) -> CoverageBounds? in
            let statement = try database.prepare("SELECT min(latitude), max(latitude), min(longitude), max(longitude), count(*) FROM panoramas")
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return CoverageBounds(south: statement.double(0), north: statement.double(1), west: statement.double(2),
                                  east: statement.double(3), panoramaCount: statement.int(4))
        }
    }

    /// Where each partial panorama (GPano crop: an image smaller than its full sphere) lies in its full
    /// panorama, by panorama id: full size and the image's top-left corner, pixels. Full panoramas are
    /// not listed. One table scan.
    func partialPanoramaCrops() throws(CatalogError)
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


    func coverage(south: Double, north: Double, west: Double, east: Double,
                  orderedByID: Bool) throws(CatalogError) -> [CoverageEntry] {
        try withLock { () throws(CatalogError) -> [CoverageEntry] in
            let statement = try database.prepare("""
                SELECT p.id, p.latitude, p.longitude, p.heading_degrees, p.capture_time, p.source
                FROM panorama_rtree r JOIN panoramas p ON p.row = r.row
                WHERE r.max_lat >= ?1 AND r.min_lat < ?2 AND r.max_lon >= ?3 AND r.min_lon < ?4
                  AND p.latitude > ?1 AND p.latitude <= ?2 AND p.longitude >= ?3 AND p.longitude < ?4
                ORDER BY \(orderedByID ? "p.id" : "p.sequence, p.sequence_index")
                """)
            try statement.bind(1, south)
            try statement.bind(2, north)
            try statement.bind(3, west)
            try statement.bind(4, east)
            var entries: [CoverageEntry] = []
            while try statement.step() {
                entries.append(CoverageEntry(panoramaID: statement.string(0), latitude: statement.double(1),
                                             longitude: statement.double(2), headingDegrees: statement.double(3),
                                             captureTime: Catalog.iso8601(Date(timeIntervalSince1970: statement.double(4))),
                                             source: PanoramaSource(rawValue: statement.string(5)) ?? .photo))
            }
            return entries
        }
    }

    /// Streets whose bounding box meets the query circle's (the street R*Tree).
    func streetCandidates(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> [CatalogStreet] {
        let scale = SceneQueryIndex.metersPerE7(atLatitude: coordinate.latitude)
        let perDegreeLatitude = scale.latitude * 1e7, perDegreeLongitude = max(scale.longitude * 1e7, 1e-9)
        return try withLock { () throws(CatalogError) -> [CatalogStreet] in
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
                streets.append(CatalogStreet(id: statement.int(0), osm: statement.string(1), name: statement.optionalString(2),
                                             names: [:], highwayClass: HighwayClass(stored: statement.string(3)),
                                             points: CatalogStreet.points(decoding: statement.string(4))))
            }
            let names = try database.prepare("SELECT language, name FROM street_names WHERE street = ?1")
            for i in streets.indices {
                try names.bind(1, streets[i].id)
                while try names.step() { streets[i].names[names.string(0)] = names.string(1) }
                names.reset()
            }
            return streets
        }
    }

    /// Every street with a name, ordered by id, with its names (the geocoder's street index).
    func namedStreets() throws(CatalogError) -> [CatalogStreet] {
        try withLock { () throws(CatalogError) -> [CatalogStreet] in
            let names = try database.namesByOwner("street")
            let statement = try database.prepare("SELECT id, osm, name, highway_class, points FROM streets WHERE name IS NOT NULL ORDER BY id")
            var streets: [CatalogStreet] = []
            while try statement.step() {
                let id = statement.int(0)
                streets.append(CatalogStreet(id: id, osm: statement.string(1), name: statement.optionalString(2), names: names[id] ?? [:],
                                             highwayClass: HighwayClass(stored: statement.string(3)),
                                             points: CatalogStreet.points(decoding: statement.string(4))))
            }
            return streets
        }
    }

    /// Places inside the query circle's bounding box (the places R*Tree).
    func placeCandidateIDs(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> Set<Int> {
        let scale = SceneQueryIndex.metersPerE7(atLatitude: coordinate.latitude)
        let latitudeSpan = radiusMeters / (scale.latitude * 1e7), longitudeSpan = radiusMeters / max(scale.longitude * 1e7, 1e-9)
        return try withLock { () throws(CatalogError) -> Set<Int> in
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
    }

    func placeCount() throws(CatalogError) -> Int {
        try withLock { () throws(CatalogError) -> Int in
            let statement = try database.prepare("SELECT count(*) FROM places")
            return try statement.step() ? statement.int(0) : 0
        }
    }

    func places() throws(CatalogError) -> [CatalogPlace] {
        try withLock { () throws(CatalogError) -> [CatalogPlace] in
            let names = try database.namesByOwner("place")
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
                                           category: statement.string(3), categoryGroup: PlaceGroup(stored: statement.string(4)),
                                           address: address.isEmpty ? nil : address, phone: statement.optionalString(9),
                                           website: statement.optionalString(10), openingHours: statement.optionalString(11),
                                           coordinate: coordinate))
            }
            return places
        }
    }
}

extension SQLiteCatalogStore {
    func addresses() throws(CatalogError) -> [CatalogAddress] {
        try withLock { () throws(CatalogError) -> [CatalogAddress] in
            guard try database.hasTable("addresses") else { return [] }
            let statement = try database.prepare("""
                SELECT id, osm, house_number, street, place, postcode, city, unit, interpolated, latitude, longitude, country
                FROM addresses ORDER BY id
                """)
            var result: [CatalogAddress] = []
            while try statement.step() {
                guard let source = OSMElementReference(statement.string(1)) else { continue }
                let point = AddressPoint(source: source, houseNumber: statement.string(2), street: statement.optionalString(3),
                                         place: statement.optionalString(4), postcode: statement.optionalString(5),
                                         city: statement.optionalString(6), unit: statement.optionalString(7),
                                         country: statement.optionalString(11),
                                         position: OSMCoordinate(latitude: statement.double(9), longitude: statement.double(10)),
                                         isInterpolated: statement.int(8) != 0)
                if let address = CatalogAddress(id: statement.int(0), point: point) { result.append(address) }
            }
            return result
        }
    }

    func localities() throws(CatalogError) -> [CatalogLocality] {
        try withLock { () throws(CatalogError) -> [CatalogLocality] in
            guard try database.hasTable("localities") else { return [] }
            let names = try database.namesByOwner("locality")
            let statement = try database.prepare("SELECT id, osm, name, kind, latitude, longitude FROM localities ORDER BY id")
            var result: [CatalogLocality] = []
            while try statement.step() {
                let id = statement.int(0)
                var coordinate: GeoCoordinate?
                if let latitude = statement.optionalDouble(4), let longitude = statement.optionalDouble(5) {
                    coordinate = try? GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
                }
                result.append(CatalogLocality(id: id, osm: statement.string(1), name: statement.string(2), names: names[id] ?? [:],
                                              kind: statement.string(3), coordinate: coordinate))
            }
            return result
        }
    }
}

extension SQLiteDatabase {
    /// Every row of `<owner>_names` (`street_names`, `place_names`, `locality_names`): names by language,
    /// by the owner's id.
    func namesByOwner(_ owner: String) throws(CatalogError) -> [Int: [String: String]] {
        var names: [Int: [String: String]] = [:]
        let statement = try prepare("SELECT \(owner), language, name FROM \(owner)_names")
        while try statement.step() { names[statement.int(0), default: [:]][statement.string(1)] = statement.string(2) }
        return names
    }
}

extension CatalogStreet {
    /// The points of a street as both stores keep them: `[[lat,lon],…]`.
    static func points(decoding text: String) -> [GeoCoordinate] {
        let numbers = text.split { "[], ".contains($0) }.compactMap { Double($0) }
        var points: [GeoCoordinate] = []
        for k in stride(from: 0, to: numbers.count - 1, by: 2) {
            if let point = try? GeoCoordinate(latitude: numbers[k], normalizingLongitude: numbers[k + 1]) { points.append(point) }
        }
        return points
    }
}
