import Foundation
import Geodesy
import MapData

/// The PostGIS catalog store: the catalog in PostgreSQL + PostGIS, shared by any number of
/// `lookaround serve` processes on any number of machines (DESIGN §6).
///
/// Scene requests are one KNN query (`ORDER BY geog <-> point`, with `ST_DWithin` and the source and
/// date filters in SQL) returning the few nearest candidates with their 1e-7° positions; they are
/// ranked here with the in-memory index's own distance approximation and tie-breaking
/// (``SceneQueryIndex/approximateDistanceSquared(from:latitudeE7:longitudeE7:)``), so both stores pick
/// the same panorama. Connections come from a bounded ``PostgresPool``; reads are retried with backoff
/// when a connection breaks; statements time out (5 s by default).
///
/// `@unchecked Sendable`: `count` is read and written under `lock` only; the pool guards its own state; the rest is `let`.
final class PostGISCatalogStore: CatalogStore, @unchecked Sendable {
    let location: CatalogLocation
    let pool: PostgresPool
    private let lock = NSLock()
    private var count = 0
    /// Candidates a nearest query fetches before ranking them (ties and the approximation's millimetres).
    static let nearestCandidates = 8
    /// Most panoramas a "best" query ranks (the panoramas within its radius).
    static let bestCandidateLimit = 10_000

    /// Connects (through the pool) and checks that the database holds a catalog of a version this
    /// tool reads.
    /// - Throws: `CatalogError.unavailable` (server down, login refused), `.notACatalog`, `.schemaTooNew`.
    init(url: String, settings: PostgresConnection.Settings = .init(), maximumConnections: Int = 8) throws(CatalogError) {
        location = .postgres(url: url)
        pool = PostgresPool(location: location, url: url, settings: settings, maximumConnections: maximumConnections)
        let location = location
        try pool.read { connection throws(CatalogError) in
            let exists = try connection.execute("SELECT to_regclass('lookaround_schema') IS NOT NULL AND to_regclass('catalog_revision') IS NOT NULL")
            guard exists.string(0, 0) == "t" else {
                throw .notACatalog(path: location.description, detail: "no catalog tables in this database; build one with "
                                   + "'lookaround index DIR --catalog \(location.description)'")
            }
            let version = try connection.execute("SELECT version FROM lookaround_schema")
            let found = version.rowCount > 0 ? version.int(0, 0) : 0
            guard found <= PostGISSchema.currentVersion else {
                throw .schemaTooNew(path: location.description, found: found, supported: PostGISSchema.currentVersion)
            }
            guard found == PostGISSchema.currentVersion else {
                throw .notACatalog(path: location.description, detail: "schema version \(found), written by an older lookaround; "
                                   + "this one reads \(PostGISSchema.currentVersion)")
            }
        }
        try refresh()
    }

    var panoramaCount: Int { lock.lock(); defer { lock.unlock() }; return count }
    var queryIndex: SceneQueryIndex? { nil }

    func revision() throws(CatalogError) -> Int64 {
        try pool.read { connection throws(CatalogError) in
            try connection.executePrepared("revision", "SELECT revision FROM catalog_revision WHERE id = 1", []).int64(0, 0)
        }
    }

    func streetGraph() throws(CatalogError) -> CatalogStreetGraph? {
        let location = location
        return try pool.read { connection throws(CatalogError) -> CatalogStreetGraph? in
            let rows = try connection.execute("SELECT format_version, source_signature, encode(data, 'hex') FROM street_graph WHERE id = 1")
            guard rows.rowCount == 1 else { return nil }
            guard let data = Self.bytes(hex: rows.string(0, 2)) else {
                throw .corruptIndex(path: location.description, detail: "street_graph.data is not hexadecimal")
            }
            return CatalogStreetGraph(formatVersion: rows.int(0, 0), sourceSignature: rows.string(0, 1), data: data)
        }
    }

    /// Bytes as lower-case hexadecimal (`decode($1, 'hex')` takes it into a `bytea`).
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8](repeating: 0, count: 2 * bytes.count)
        for (i, byte) in bytes.enumerated() {
            text[2 * i] = digits[Int(byte >> 4)]
            text[2 * i + 1] = digits[Int(byte & 15)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of hexadecimal text (`encode(data, 'hex')`), nil for other text.
    static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func value(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: c - 48
            case 97...102: c - 87
            case 65...70: c - 55
            default: nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: utf8.count / 2)
        for i in bytes.indices {
            guard let high = value(utf8[2 * i]), let low = value(utf8[2 * i + 1]) else { return nil }
            bytes[i] = high << 4 | low
        }
        return bytes
    }

    func refresh() throws(CatalogError) {
        let n = try pool.read { connection throws(CatalogError) in
            try connection.execute("SELECT panorama_count FROM catalog_revision WHERE id = 1").int(0, 0)
        }
        lock.lock()
        count = n
        lock.unlock()
    }

    // MARK: Scene requests

    /// The point `$2` (longitude), `$1` (latitude) as geography.
    private static let point = "ST_SetSRID(ST_MakePoint($2, $1), 4326)::geography"

    private static let nearestSQL = """
        SELECT row, latitude_e7, longitude_e7, capture_minute, flags FROM panoramas
        WHERE ST_DWithin(geog, \(point), $3, false)
          AND ($4::integer < 0 OR (flags & 1) = $4::integer) AND capture_minute BETWEEN $5 AND $6
        ORDER BY geog <-> \(point), row LIMIT $7
        """

    private static let withinSQL = """
        SELECT latitude_e7, longitude_e7 FROM panoramas WHERE ST_DWithin(geog, \(point), $3, false) LIMIT $4
        """

    /// The sphere distance `ST_DWithin` uses differs from the ellipsoid by up to 0.5 %: fetch with a
    /// margin, then let the index's approximation decide.
    static func searchRadius(_ radiusMeters: Double) -> Double { radiusMeters * 1.01 + 1 }

    func search(_ query: SceneQueryIndex.Query) throws(CatalogError) -> CatalogStoreHit {
        let latitude = "\(query.coordinate.latitude)", longitude = "\(query.coordinate.longitude)"
        let radius = "\(Self.searchRadius(query.radiusMeters))"
        let source = query.source == .any ? "-1" : (query.source == .simulated ? "1" : "0")
        let best = query.preference == .best
        let limit = best ? Self.bestCandidateLimit : Self.nearestCandidates
        let filtered = query.source != .any || query.earliestMinute != .min || query.latestMinute != .max
        let (candidates, within) = try pool.read { connection throws(CatalogError) -> ([SceneQueryIndex.Entry], Int?) in
            let result = try connection.executePrepared("nearest", Self.nearestSQL, [
                latitude, longitude, radius, source, "\(query.earliestMinute)", "\(query.latestMinute)", "\(limit)"])
            var candidates: [SceneQueryIndex.Entry] = []
            candidates.reserveCapacity(result.rowCount)
            for r in 0..<result.rowCount {
                // The entry the in-memory index would hold for the panorama found.
                candidates.append(SceneQueryIndex.Entry(latitudeE7: Int32(result.int(r, 1)), longitudeE7: Int32(result.int(r, 2)),
                                                        row: UInt32(result.int(r, 0)), captureMinute: Int32(result.int(r, 3)),
                                                        flags: UInt8(result.int(r, 4))))
            }
            return (candidates, nil)
        }
        var hit = SceneQueryIndex.rank(candidates, for: query)
        if hit.row == nil && filtered {
            // Nothing passed the filters: how many were within the radius before them (the reason).
            let positions = try pool.read { connection throws(CatalogError) -> [(Int32, Int32)] in
                let result = try connection.executePrepared("within", Self.withinSQL, [latitude, longitude, radius, "100000"])
                return (0..<result.rowCount).map { (Int32(result.int($0, 0)), Int32(result.int($0, 1))) }
            }
            hit.withinRadius = SceneQueryIndex.countWithin(positions, of: query)
        } else if let within {
            hit.withinRadius = within
        }
        return hit
    }

    // MARK: Details

    private static let detailSQL = "SELECT \(PanoramaRecord.selectColumns) FROM panoramas p JOIN sequences s ON s.id = p.sequence WHERE p.row = $1"
    private static let linksSQL = """
        SELECT p.id, l.heading_degrees, l.distance_meters, l.kind FROM links l JOIN panoramas p ON p.row = l.to_row
        WHERE l.from_row = $1 ORDER BY l.distance_meters, p.id COLLATE "C"
        """

    func panorama(row: Int) throws(CatalogError) -> PanoramaRecord {
        let location = location
        return try pool.read { connection throws(CatalogError) in
            let result = try connection.executePrepared("detail", Self.detailSQL, ["\(row)"])
            guard result.rowCount == 1 else {
                throw .corruptIndex(path: location.description, detail: "no panorama at row \(row) (the catalog changed meanwhile?)")
            }
            return try PanoramaRecord(reading: result, row: 0, location: location)
        }
    }

    func links(row: Int) throws(CatalogError) -> [PanoramaLink] {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.executePrepared("links", Self.linksSQL, ["\(row)"])
            return (0..<result.rowCount).map { r in
                PanoramaLink(panoramaID: result.string(r, 0), headingDegrees: result.double(r, 1), distanceMeters: result.double(r, 2),
                             kind: PanoramaLink.Kind(rawValue: result.string(r, 3)) ?? .proximity)
            }
        }
    }

    func row(ofPanoramaID id: String) throws(CatalogError) -> Int {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.executePrepared("row_of_id", "SELECT row FROM panoramas WHERE id = $1", [id])
            guard result.rowCount == 1 else { throw .unknownPanorama(id: id) }
            return result.int(0, 0)
        }
    }

    func sequenceLength(named name: String) throws(CatalogError) -> Int? {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("SELECT panorama_count FROM sequences WHERE name = $1", [name])
            return result.rowCount == 1 ? result.int(0, 0) : nil
        }
    }

    func imagePaths() throws(CatalogError) -> [(panoramaID: String, imagePath: String)] {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("SELECT id, image_path FROM panoramas ORDER BY id COLLATE \"C\"")
            return (0..<result.rowCount).map { (result.string($0, 0), result.string($0, 1)) }
        }
    }

    func panoramas(named text: String, limit: Int) throws(CatalogError) -> [StoredPanoramaName] {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("""
                SELECT id, latitude, longitude FROM panoramas
                WHERE id = $1 OR lower(id) = lower($1) OR lower(id) LIKE '%/' || lower($2) ESCAPE '\\'
                ORDER BY id = $1 DESC, lower(id) = lower($1) DESC, id COLLATE "C" LIMIT $3
                """, [text, likeEscaped(text), "\(limit)"])
            return (0..<result.rowCount).map { StoredPanoramaName(id: result.string($0, 0), latitude: result.double($0, 1), longitude: result.double($0, 2)) }
        }
    }

    func sequences(named text: String, limit: Int) throws(CatalogError) -> [StoredSequenceName] {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("""
                SELECT s.name, s.panorama_count, p.id, p.latitude, p.longitude FROM sequences s
                JOIN LATERAL (SELECT id, latitude, longitude FROM panoramas q WHERE q.sequence = s.id ORDER BY q.sequence_index LIMIT 1) p ON true
                WHERE s.name = $1 OR lower(s.name) = lower($1) OR lower(s.name) LIKE '%' || lower($2) || '%' ESCAPE '\\'
                ORDER BY s.name = $1 DESC, lower(s.name) = lower($1) DESC, length(s.name), s.name COLLATE "C" LIMIT $3
                """, [text, likeEscaped(text), "\(limit)"])
            return (0..<result.rowCount).map { r in
                StoredSequenceName(name: result.string(r, 0), panoramaCount: result.int(r, 1), firstPanoramaID: result.string(r, 2),
                                   latitude: result.double(r, 3), longitude: result.double(r, 4))
            }
        }
    }

    func coverageBounds() throws(CatalogError) -> CoverageBounds? {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("SELECT min(latitude), max(latitude), min(longitude), max(longitude), count(*) FROM panoramas")
            guard result.rowCount == 1, !result.isNull(0, 0) else { return nil }
            return CoverageBounds(south: result.double(0, 0), north: result.double(0, 1), west: result.double(0, 2),
                                  east: result.double(0, 3), panoramaCount: result.int(0, 4))
        }
    }

    func partialPanoramaCrops() throws(CatalogError) -> [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)] {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("""
                SELECT id, full_width, full_height, cropped_left, cropped_top FROM panoramas
                WHERE cropped_left != 0 OR cropped_top != 0 OR image_width != full_width OR image_height != full_height
                """)
            var crops: [String: (fullWidth: Int, fullHeight: Int, croppedLeft: Int, croppedTop: Int)] = [:]
            for r in 0..<result.rowCount {
                crops[result.string(r, 0)] = (result.int(r, 1), result.int(r, 2), result.int(r, 3), result.int(r, 4))
            }
            return crops
        }
    }

    /// Every record (for an incremental index run).
    func allRecords() throws(CatalogError) -> [PanoramaRecord] {
        let location = location
        return try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("SELECT \(PanoramaRecord.selectColumns) FROM panoramas p JOIN sequences s ON s.id = p.sequence")
            var records: [PanoramaRecord] = []
            for r in 0..<result.rowCount { records.append(try PanoramaRecord(reading: result, row: r, location: location)) }
            return records
        }
    }

    // MARK: Coverage, streets, places

    func coverage(south: Double, north: Double, west: Double, east: Double,
                  orderedByID: Bool) throws(CatalogError) -> [CoverageEntry] {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("""
                SELECT id, latitude, longitude, heading_degrees, capture_time, source FROM panoramas
                WHERE geog::geometry && ST_MakeEnvelope($3, $1, $4, $2, 4326)
                  AND latitude > $1 AND latitude <= $2 AND longitude >= $3 AND longitude < $4
                ORDER BY \(orderedByID ? "id COLLATE \"C\"" : "sequence, sequence_index")
                """, ["\(south)", "\(north)", "\(west)", "\(east)"])
            return (0..<result.rowCount).map { r in
                CoverageEntry(panoramaID: result.string(r, 0), latitude: result.double(r, 1), longitude: result.double(r, 2),
                              headingDegrees: result.double(r, 3),
                              captureTime: Catalog.iso8601(Date(timeIntervalSince1970: result.double(r, 4))),
                              source: PanoramaSource(rawValue: result.string(r, 5)) ?? .photo)
            }
        }
    }

    /// Streets within the radius on the sphere plus 2 % and 2 m: a superset of those within it in the
    /// local plane ``Catalog`` measures in (error under 1 % within 10 km).
    func streetCandidates(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> [CatalogStreet] {
        try pool.read { connection throws(CatalogError) in
            let parameters = ["\(coordinate.latitude)", "\(coordinate.longitude)", "\(radiusMeters * 1.02 + 2)"]
            let result = try connection.execute(
                "SELECT id, osm, name, highway_class, points FROM streets WHERE ST_DWithin(geog, \(Self.point), $3, false) ORDER BY id",
                parameters)
            var streets = (0..<result.rowCount).map { r in
                CatalogStreet(id: result.int(r, 0), osm: result.string(r, 1), name: result.optionalString(r, 2), names: [:],
                              highwayClass: HighwayClass(stored: result.string(r, 3)), points: CatalogStreet.points(decoding: result.string(r, 4)))
            }
            guard !streets.isEmpty else { return [] }
            let byStreet = try connection.namesByOwner("street", ids: streets.map(\.id))
            for i in streets.indices { streets[i].names = byStreet[streets[i].id] ?? [:] }
            return streets
        }
    }

    func namedStreets() throws(CatalogError) -> [CatalogStreet] {
        try pool.read { connection throws(CatalogError) in
            let names = try connection.namesByOwner("street")
            let result = try connection.execute("SELECT id, osm, name, highway_class, points FROM streets WHERE name IS NOT NULL ORDER BY id")
            return (0..<result.rowCount).map { r in
                let id = result.int(r, 0)
                return CatalogStreet(id: id, osm: result.string(r, 1), name: result.optionalString(r, 2), names: names[id] ?? [:],
                                     highwayClass: HighwayClass(stored: result.string(r, 3)),
                                     points: CatalogStreet.points(decoding: result.string(r, 4)))
            }
        }
    }

    func placeCandidateIDs(near coordinate: GeoCoordinate, radiusMeters: Double) throws(CatalogError) -> Set<Int> {
        try pool.read { connection throws(CatalogError) in
            let result = try connection.execute("SELECT id FROM places WHERE ST_DWithin(geog, \(Self.point), $3, false)",
                                                ["\(coordinate.latitude)", "\(coordinate.longitude)", "\(radiusMeters * 1.01 + 1)"])
            return Set((0..<result.rowCount).map { result.int($0, 0) })
        }
    }

    func placeCount() throws(CatalogError) -> Int {
        try pool.read { connection throws(CatalogError) in try connection.execute("SELECT count(*) FROM places").int(0, 0) }
    }

    func places() throws(CatalogError) -> [CatalogPlace] {
        try pool.read { connection throws(CatalogError) in
            let names = try connection.namesByOwner("place")
            let result = try connection.execute("""
                SELECT id, osm, name, category, category_group, street, house_number, postcode, city, phone, website,
                       opening_hours, latitude, longitude FROM places ORDER BY id
                """)
            var places: [CatalogPlace] = []
            for r in 0..<result.rowCount {
                let id = result.int(r, 0)
                let address = PostalAddress(street: result.optionalString(r, 5), houseNumber: result.optionalString(r, 6),
                                            postcode: result.optionalString(r, 7), city: result.optionalString(r, 8))
                guard let coordinate = try? GeoCoordinate(latitude: result.double(r, 12),
                                                          normalizingLongitude: result.double(r, 13)) else { continue }
                places.append(CatalogPlace(id: id, osm: result.string(r, 1), name: result.string(r, 2), names: names[id] ?? [:],
                                           category: result.string(r, 3), categoryGroup: PlaceGroup(stored: result.string(r, 4)),
                                           address: address.isEmpty ? nil : address, phone: result.optionalString(r, 9),
                                           website: result.optionalString(r, 10), openingHours: result.optionalString(r, 11),
                                           coordinate: coordinate))
            }
            return places
        }
    }

    func addresses() throws(CatalogError) -> [CatalogAddress] {
        try pool.read { connection throws(CatalogError) in
            let rows = try connection.execute("""
                SELECT id, osm, house_number, street, place, postcode, city, unit, interpolated, latitude, longitude, country
                FROM addresses ORDER BY id
                """)
            var result: [CatalogAddress] = []
            for r in 0..<rows.rowCount {
                guard let source = OSMElementReference(rows.string(r, 1)) else { continue }
                let point = AddressPoint(source: source, houseNumber: rows.string(r, 2), street: rows.optionalString(r, 3),
                                         place: rows.optionalString(r, 4), postcode: rows.optionalString(r, 5),
                                         city: rows.optionalString(r, 6), unit: rows.optionalString(r, 7),
                                         country: rows.optionalString(r, 11),
                                         position: OSMCoordinate(latitude: rows.double(r, 9), longitude: rows.double(r, 10)),
                                         isInterpolated: rows.string(r, 8) == "t")
                if let address = CatalogAddress(id: rows.int(r, 0), point: point) { result.append(address) }
            }
            return result
        }
    }

    func localities() throws(CatalogError) -> [CatalogLocality] {
        try pool.read { connection throws(CatalogError) in
            let names = try connection.namesByOwner("locality")
            let rows = try connection.execute("SELECT id, osm, name, kind, latitude, longitude FROM localities ORDER BY id")
            var result: [CatalogLocality] = []
            for r in 0..<rows.rowCount {
                let id = rows.int(r, 0)
                var coordinate: GeoCoordinate?
                if let latitude = rows.optionalDouble(r, 4), let longitude = rows.optionalDouble(r, 5) {
                    coordinate = try? GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
                }
                result.append(CatalogLocality(id: id, osm: rows.string(r, 1), name: rows.string(r, 2), names: names[id] ?? [:],
                                              kind: rows.string(r, 3), coordinate: coordinate))
            }
            return result
        }
    }
}

extension PostgresConnection {
    /// The rows of `<owner>_names` (`street_names`, `place_names`, `locality_names`), all or those of
    /// `ids`: names by language, by the owner's id.
    func namesByOwner(_ owner: String, ids: [Int]? = nil) throws(CatalogError) -> [Int: [String: String]] {
        let sql = "SELECT \(owner), language, name FROM \(owner)_names"
        let rows = if let ids {
            try execute(sql + " WHERE \(owner) = ANY($1::integer[])", ["{" + ids.map(String.init).joined(separator: ",") + "}"])
        } else {
            try execute(sql)
        }
        var names: [Int: [String: String]] = [:]
        for r in 0..<rows.rowCount { names[rows.int(r, 0), default: [:]][rows.string(r, 1)] = rows.string(r, 2) }
        return names
    }
}

extension PanoramaRecord {
    /// Reads row `r` of a result selected with `selectColumns` (the PostGIS store; same columns as SQLite's).
    init(reading s: PostgresResult, row r: Int, location: CatalogLocation) throws(CatalogError) {
        let coordinate: GeoCoordinate
        do {
            coordinate = try GeoCoordinate(latitude: s.double(r, 1), longitude: s.double(r, 2))
        } catch {
            throw .corruptIndex(path: location.description, detail: "panorama '\(s.string(r, 0))' has a bad position: \(error)")
        }
        let warningsText = s.string(r, 29)
        self.init(id: s.string(r, 0), coordinate: coordinate, captureTime: Date(timeIntervalSince1970: s.double(r, 6)),
                  headingDegrees: s.double(r, 8), imageWidth: s.int(r, 12), imageHeight: s.int(r, 13), imagePath: s.string(r, 18),
                  groundElevationMeters: s.optionalDouble(r, 3), cameraHeightMeters: s.optionalDouble(r, 4),
                  altitudeMeters: s.optionalDouble(r, 5), captureTimeSource: s.string(r, 7), headingSource: s.string(r, 9),
                  pitchDegrees: s.double(r, 10), rollDegrees: s.double(r, 11), fullWidth: s.int(r, 14), fullHeight: s.int(r, 15),
                  croppedLeft: s.int(r, 16), croppedTop: s.int(r, 17), depthPath: s.optionalString(r, 19),
                  labelsPath: s.optionalString(r, 20), sidecarPath: s.optionalString(r, 21),
                  mapsSource: s.optionalString(r, 31).flatMap(PanoramaMapsSource.init(rawValue:)),
                  alignment: PanoramaAlignment(jsonText: s.optionalString(r, 32)),
                  source: PanoramaSource(rawValue: s.string(r, 22)) ?? .photo, make: s.optionalString(r, 23),
                  model: s.optionalString(r, 24), sequenceName: s.string(r, 25), sequenceIndex: s.int(r, 26),
                  fileSize: s.int64(r, 27), fileModificationTime: s.double(r, 28), fileEntityTag: s.optionalString(r, 33),
                  warnings: warningsText.isEmpty ? [] : warningsText.components(separatedBy: "\n"))
    }
}
