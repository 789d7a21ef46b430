import Foundation
import Geodesy
import Imaging
import MapData
import Parallelism

/// Writes a complete catalog into a temporary file beside the target and renames it over the target,
/// so readers keep the old catalog (their open file) until the new one is complete, and a failed build
/// changes nothing.
enum CatalogWriter {
    /// Counts of what was written.
    struct Summary {
        var sequences = 0
        var links = 0
    }

    /// Writes `records` (their order becomes `row` 1…n), links, places and streets to `path` atomically.
    static func write(records: [PanoramaRecord], places: [Place], streets: [Street], gazetteer: Gazetteer = Gazetteer(),
                      streetGraph: CatalogStreetGraph? = nil, to path: String,
                      proximityLinkMeters: Double, maximumProximityLinks: Int) throws -> Summary {
        if case .postgres(let url) = try CatalogLocation(parsing: path) {
            let written = try PostGISCatalogWriter.write(records: records, places: places, streets: streets, gazetteer: gazetteer,
                                                         streetGraph: streetGraph, to: url,
                                                         proximityLinkMeters: proximityLinkMeters,
                                                         maximumProximityLinks: maximumProximityLinks)
            return Summary(sequences: written.sequences, links: written.links)
        }
        let directory = FilePath.directory(of: path)
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            throw CatalogError.fileNotFound(path: directory, remedy: "the catalog's folder does not exist; create it first")
        }
        // A build killed mid-way (SIGKILL, power) left its temporary file: its process is gone, remove it.
        removeAbandonedTemporaries(of: path)
        if access(directory.isEmpty ? "." : directory, W_OK) != 0 {
            throw CatalogError.cannotWrite(WriteFailure(path: path, code: errno), detail: "the folder \(directory.isEmpty ? "." : directory)")
        }
        let temporary = path + ".tmp-\(getpid())"
        unlink(temporary)
        var summary = Summary()
        // A failed build leaves nothing behind: the temporary file goes, the old catalog stays.
        var completed = false
        defer { if !completed { unlink(temporary) } }
        do {
            let database = try SQLiteDatabase(path: temporary, mode: .readWriteCreate)
            // The file is private until the rename, so no journal is needed; it is synced before the rename.
            try database.execute("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 8192;")
            try CatalogSchema.migrate(database)
            try database.transaction {
                summary.sequences = try writeSequencesAndPanoramas(records, database)
                summary.links = try writeLinks(records, database, proximityLinkMeters: proximityLinkMeters,
                                               maximumProximityLinks: maximumProximityLinks)
                try writePlaces(places, database)
                try writeStreets(streets, database)
                try writeGazetteer(gazetteer, database)
                try writeQueryIndex(records, database)
                if let streetGraph {
                    let insert = try database.prepare("INSERT INTO street_graph(id, format_version, source_signature, data) VALUES (1, ?1, ?2, ?3)")
                    try insert.bind(1, streetGraph.formatVersion)
                    try insert.bind(2, streetGraph.sourceSignature)
                    try insert.bind(3, blob: streetGraph.data)
                    try insert.step()
                }
                let info = try database.prepare("INSERT INTO catalog_info(key, value) VALUES (?1, ?2)")
                for (key, value) in [("built_at", ISO8601DateFormatter().string(from: Date())),
                                     ("panorama_count", "\(records.count)"), ("generator", "lookaround index")] {
                    try info.bind(1, key)
                    try info.bind(2, value)
                    try info.step()
                    info.reset()
                }
            }
            try database.execute("ANALYZE")
        } catch CatalogError.sqlite(_, let operation, let code, let message) where Self.writeErrno(sqliteCode: code) != nil {
            throw CatalogError.cannotWrite(WriteFailure(path: path, code: Self.writeErrno(sqliteCode: code)!),
                                           detail: "SQLite error \(code) while \(operation): \(message)")
        }
        // Sync, then rename: the new catalog appears whole or not at all.
        let descriptor = open(temporary, O_RDWR | O_CLOEXEC)
        guard descriptor >= 0, fsync(descriptor) == 0 else {
            let code = errno
            if descriptor >= 0 { close(descriptor) }
            throw CatalogError.cannotWrite(WriteFailure(path: path, code: code), detail: "syncing \(temporary)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw CatalogError.cannotWrite(WriteFailure(path: path, code: code), detail: "renaming \(temporary) over it")
        }
        completed = true
        return summary
    }

    /// The errno a failed SQLite write stands for, or nil when it is not a write failure: full disk
    /// (SQLITE_FULL, SQLITE_IOERR and its extended codes), no permission (SQLITE_CANTOPEN, SQLITE_READONLY,
    /// SQLITE_PERM).
    static func writeErrno(sqliteCode code: Int32) -> Int32? {
        switch code & 0xFF {
        case 13: return ENOSPC          // SQLITE_FULL
        case 10: return EIO             // SQLITE_IOERR
        case 14, 8, 3: return EACCES    // SQLITE_CANTOPEN, SQLITE_READONLY, SQLITE_PERM
        default: return nil
        }
    }

    /// Deletes `path.tmp-PID` files left beside the catalog by builds whose process is gone.
    static func removeAbandonedTemporaries(of path: String) {
        let directory = FilePath.directory(of: path)
        let prefix = FilePath.name(of: path) + ".tmp-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0, pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            unlink((directory.isEmpty ? "" : directory + "/") + name)
        }
    }

    private static func writeSequencesAndPanoramas(_ records: [PanoramaRecord], _ database: SQLiteDatabase) throws -> Int {
        let (sequenceIDs, counts, names) = sequences(records)
        let insertSequence = try database.prepare("INSERT INTO sequences(id, name, panorama_count) VALUES (?1, ?2, ?3)")
        for name in names {
            let id = sequenceIDs[name] ?? 0
            try insertSequence.bind(1, id)
            try insertSequence.bind(2, name)
            try insertSequence.bind(3, counts[name] ?? 0)
            try insertSequence.step()
            insertSequence.reset()
        }
        let insert = try database.prepare(PanoramaRecord.insertSQL)
        let rtree = try database.prepare("INSERT INTO panorama_rtree(row, min_lat, max_lat, min_lon, max_lon) VALUES (?1, ?2, ?2, ?3, ?3)")
        for (i, record) in records.enumerated() {
            try record.bind(to: insert, row: i + 1, sequence: sequenceIDs[record.sequenceName] ?? 0)
            try insert.step()
            insert.reset()
            try rtree.bind(1, i + 1)
            try rtree.bind(2, record.coordinate.latitude)
            try rtree.bind(3, record.coordinate.longitude)
            try rtree.step()
            rtree.reset()
        }
        return sequenceIDs.count
    }

    /// The query index over `records` (row = position + 1).
    static func queryIndex(_ records: [PanoramaRecord]) -> SceneQueryIndex {
        SceneQueryIndex(entries: queryIndexEntries(records))
    }

    /// Each record's query-index entry (row = position + 1): 1e-7° position, capture minute, flags.
    static func queryIndexEntries(_ records: [PanoramaRecord]) -> [SceneQueryIndex.Entry] {
        records.enumerated().map { i, record in
            var flags: UInt8 = record.source == .simulated ? SceneQueryIndex.simulatedFlag : 0
            if record.isCropped { flags |= SceneQueryIndex.croppedFlag }
            if record.depthPath != nil { flags |= SceneQueryIndex.depthFlag }
            return SceneQueryIndex.Entry(latitudeE7: Int32((record.coordinate.latitude * 1e7).rounded()),
                                         longitudeE7: Int32((record.coordinate.longitude * 1e7).rounded()),
                                         row: UInt32(i + 1),
                                         captureMinute: SceneQueryIndex.minute(record.captureTime, roundingUp: false),
                                         flags: flags)
        }
    }

    private static func writeQueryIndex(_ records: [PanoramaRecord], _ database: SQLiteDatabase) throws {
        let statement = try database.prepare("INSERT INTO query_index(id, panorama_count, data) VALUES (1, ?1, ?2)")
        try statement.bind(1, records.count)
        try statement.bind(2, blob: queryIndex(records).serialized())
        try statement.step()
    }

    /// One link to write: rows (1-based), Karney heading and distance, sequence or proximity.
    struct LinkRow { var from: Int32; var to: Int32; var heading: Double; var distance: Double; var sequence: Bool }

    /// Sequence links (previous and next in a sequence) and proximity links (the nearest others within
    /// `proximityLinkMeters`), with Karney's geodesic heading and distance, per record. A sequence link's
    /// heading is taken between the positions ``SequencePath`` smooths along the sequence (GPS wobble
    /// would make it zigzag); its distance, and everything about proximity links, between the stored
    /// ones. Computed on all cores; both stores write these.
    static func links(_ records: [PanoramaRecord], proximityLinkMeters: Double, maximumProximityLinks: Int) -> [[LinkRow]] {
        let n = records.count
        guard n > 0 else { return [] }
        // Sequence neighbours.
        var previous = [Int](repeating: -1, count: n), next = [Int](repeating: -1, count: n)
        var smoothed = records.map(\.coordinate)
        var bySequence: [String: [Int]] = [:]
        for (i, record) in records.enumerated() { bySequence[record.sequenceName, default: []].append(i) }
        for (_, members) in bySequence {
            let ordered = members.sorted { (records[$0].sequenceIndex, $0) < (records[$1].sequenceIndex, $1) }
            for k in 1..<max(1, ordered.count) {
                next[ordered[k - 1]] = ordered[k]
                previous[ordered[k]] = ordered[k - 1]
            }
            for (i, coordinate) in zip(ordered, SequencePath.smoothedCoordinates(of: records, ordered: ordered)) {
                smoothed[i] = coordinate
            }
        }
        let index = queryIndex(records)
        var perRecord = [[LinkRow]](repeating: [], count: n)
        perRecord.withUnsafeMutableBufferPointer { output in
            nonisolated(unsafe) let output = output
            Parallel.forEachRowRange(n, minimumRowsPerChunk: 256) { range in
                for i in range {
                    var targets: [(Int, Bool)] = []
                    if previous[i] >= 0 { targets.append((previous[i], true)) }
                    if next[i] >= 0 { targets.append((next[i], true)) }
                    if proximityLinkMeters > 0 && maximumProximityLinks > 0 {
                        var added = 0
                        let c = records[i].coordinate
                        for candidate in index.positions(within: proximityLinkMeters, of: (c.latitude, c.longitude)) {
                            let other = Int(index.rows[candidate.position]) - 1
                            if other == i || other == previous[i] || other == next[i] { continue }
                            targets.append((other, false))
                            added += 1
                            if added == maximumProximityLinks { break }
                        }
                    }
                    output[i] = targets.map { other, isSequence in
                        let inverse = Geodesic.wgs84.inverse(from: records[i].coordinate, to: records[other].coordinate)
                        var heading = inverse.initialAzimuth.degrees
                        if isSequence && (smoothed[i] != records[i].coordinate || smoothed[other] != records[other].coordinate) {
                            // Two positions smoothed onto one point (a back-and-forth) give no direction: the raw one stays.
                            let along = Geodesic.wgs84.inverse(from: smoothed[i], to: smoothed[other])
                            if along.distanceMeters >= SequencePath.minimumDirectionMeters { heading = along.initialAzimuth.degrees }
                        }
                        return LinkRow(from: Int32(i + 1), to: Int32(other + 1), heading: heading,
                                       distance: inverse.distanceMeters, sequence: isSequence)
                    }
                }
            }
        }
        return perRecord
    }

    private static func writeLinks(_ records: [PanoramaRecord], _ database: SQLiteDatabase,
                                   proximityLinkMeters: Double, maximumProximityLinks: Int) throws -> Int {
        let perRecord = links(records, proximityLinkMeters: proximityLinkMeters, maximumProximityLinks: maximumProximityLinks)
        let insert = try database.prepare(
            "INSERT OR IGNORE INTO links(from_row, to_row, heading_degrees, distance_meters, kind) VALUES (?1, ?2, ?3, ?4, ?5)")
        var count = 0
        for links in perRecord {
            for link in links {
                try insert.bind(1, Int(link.from))
                try insert.bind(2, Int(link.to))
                try insert.bind(3, link.heading)
                try insert.bind(4, link.distance)
                try insert.bind(5, link.sequence ? PanoramaLink.Kind.sequence.rawValue : PanoramaLink.Kind.proximity.rawValue)
                try insert.step()
                insert.reset()
                count += 1
            }
        }
        return count
    }

    /// Sequence ids by name (1…, in name order) and each sequence's panorama count.
    static func sequences(_ records: [PanoramaRecord]) -> (ids: [String: Int], counts: [String: Int], names: [String]) {
        var counts: [String: Int] = [:]
        for record in records { counts[record.sequenceName, default: 0] += 1 }
        let names = counts.keys.sorted()
        var ids: [String: Int] = [:]
        for (i, name) in names.enumerated() { ids[name] = i + 1 }
        return (ids, counts, names)
    }

    private static func writePlaces(_ places: [Place], _ database: SQLiteDatabase) throws {
        let insert = try database.prepare("""
            INSERT INTO places(id, osm, name, category, category_key, category_value, category_group, street,
                house_number, postcode, city, phone, website, opening_hours, latitude, longitude)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)
            """)
        let names = try database.prepare("INSERT OR REPLACE INTO place_names(place, language, name) VALUES (?1, ?2, ?3)")
        let rtree = try database.prepare("INSERT INTO place_rtree(id, min_lat, max_lat, min_lon, max_lon) VALUES (?1, ?2, ?2, ?3, ?3)")
        for (i, place) in places.enumerated() {
            let id = i + 1
            try insert.bind(1, id)
            try insert.bind(2, place.source.description)
            try insert.bind(3, place.name)
            try insert.bind(4, place.category.name)
            try insert.bind(5, place.category.key)
            try insert.bind(6, place.category.value)
            try insert.bind(7, place.category.group.rawValue)
            try insert.bind(8, place.address?.street)
            try insert.bind(9, place.address?.houseNumber)
            try insert.bind(10, place.address?.postcode)
            try insert.bind(11, place.address?.city)
            try insert.bind(12, place.phone)
            try insert.bind(13, place.website)
            try insert.bind(14, place.openingHours)
            try insert.bind(15, place.position.latitude)
            try insert.bind(16, place.position.longitude)
            try insert.step()
            insert.reset()
            try insertNames(place.names, of: id, with: names)
            try rtree.bind(1, id)
            try rtree.bind(2, place.position.latitude)
            try rtree.bind(3, place.position.longitude)
            try rtree.step()
            rtree.reset()
        }
    }

    /// One row of `statement` (owner, language, name) per name in another language.
    private static func insertNames(_ byLanguage: [String: String], of id: Int, with statement: SQLiteDatabase.Statement) throws {
        for (language, name) in byLanguage {
            try statement.bind(1, id)
            try statement.bind(2, language)
            try statement.bind(3, name)
            try statement.step()
            statement.reset()
        }
    }

    private static func writeGazetteer(_ gazetteer: Gazetteer, _ database: SQLiteDatabase) throws {
        let insert = try database.prepare("""
            INSERT INTO addresses(id, osm, house_number, street, place, postcode, city, unit, interpolated, latitude, longitude, country)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)
            """)
        for (i, address) in gazetteer.addresses.enumerated() {
            try insert.bind(1, i + 1)
            try insert.bind(2, address.source.description)
            try insert.bind(3, address.houseNumber)
            try insert.bind(4, address.street)
            try insert.bind(5, address.place)
            try insert.bind(6, address.postcode)
            try insert.bind(7, address.city)
            try insert.bind(8, address.unit)
            try insert.bind(9, address.isInterpolated ? 1 : 0)
            try insert.bind(10, address.position.latitude)
            try insert.bind(11, address.position.longitude)
            try insert.bind(12, address.country)
            try insert.step()
            insert.reset()
        }
        let locality = try database.prepare("INSERT INTO localities(id, osm, name, kind, latitude, longitude) VALUES (?1, ?2, ?3, ?4, ?5, ?6)")
        let names = try database.prepare("INSERT OR REPLACE INTO locality_names(locality, language, name) VALUES (?1, ?2, ?3)")
        for (i, place) in gazetteer.localities.enumerated() {
            try locality.bind(1, i + 1)
            try locality.bind(2, place.source.description)
            try locality.bind(3, place.name)
            try locality.bind(4, place.kind)
            try locality.bind(5, place.position?.latitude)
            try locality.bind(6, place.position?.longitude)
            try locality.step()
            locality.reset()
            try insertNames(place.names, of: i + 1, with: names)
        }
    }

    private static func writeStreets(_ streets: [Street], _ database: SQLiteDatabase) throws {
        let insert = try database.prepare(
            "INSERT INTO streets(id, osm, name, highway_class, points) VALUES (?1, ?2, ?3, ?4, ?5)")
        let names = try database.prepare("INSERT OR REPLACE INTO street_names(street, language, name) VALUES (?1, ?2, ?3)")
        let rtree = try database.prepare("INSERT INTO street_rtree(id, min_lat, max_lat, min_lon, max_lon) VALUES (?1, ?2, ?3, ?4, ?5)")
        for (i, street) in streets.enumerated() where !street.points.isEmpty {
            let id = i + 1
            try insert.bind(1, id)
            try insert.bind(2, street.source.description)
            try insert.bind(3, street.name)
            try insert.bind(4, street.highwayClass.tagValue)
            try insert.bind(5, "[" + street.points.map { "[\($0.latitude),\($0.longitude)]" }.joined(separator: ",") + "]")
            try insert.step()
            insert.reset()
            try insertNames(street.names, of: id, with: names)
            let lats = street.points.map(\.latitude), lons = street.points.map(\.longitude)
            try rtree.bind(1, id)
            try rtree.bind(2, lats.min() ?? 0)
            try rtree.bind(3, lats.max() ?? 0)
            try rtree.bind(4, lons.min() ?? 0)
            try rtree.bind(5, lons.max() ?? 0)
            try rtree.step()
            rtree.reset()
        }
    }

    /// The routing graph the catalog at `path` holds, if it is readable and has one (the index run keeps
    /// it while the OSM files are unchanged).
    static func previousStreetGraph(at path: String) -> CatalogStreetGraph? {
        if case .postgres(let url)? = try? CatalogLocation(parsing: path) {
            guard let store = try? PostGISCatalogStore(url: url, maximumConnections: 1) else { return nil }
            return try? store.streetGraph()
        }
        guard FileManager.default.fileExists(atPath: path),
              let database = try? SQLiteDatabase(path: path, mode: .readOnly),
              let version = try? database.userVersion, version >= 5, version <= CatalogSchema.currentVersion else { return nil }
        return try? SQLiteCatalogStore.streetGraph(in: database)
    }

    /// The panoramas of an existing catalog by image path, for incremental updates; empty when there is
    /// no catalog or it cannot be read (then everything is read again).
    static func previousRecords(at path: String) -> [String: PanoramaRecord] {
        if case .postgres(let url)? = try? CatalogLocation(parsing: path) {
            guard let store = try? PostGISCatalogStore(url: url, maximumConnections: 1),
                  let records = try? store.allRecords() else { return [:] }
            return Dictionary(records.map { ($0.imagePath, $0) }, uniquingKeysWith: { first, _ in first })
        }
        guard FileManager.default.fileExists(atPath: path),
              let database = try? SQLiteDatabase(path: path, mode: .readOnly),
              let version = try? database.userVersion, version >= 1, version <= CatalogSchema.currentVersion,
              // Catalogs before version 6 have no ETags (their records are compared by size and time only).
              let statement = try? database.prepare(
                "SELECT \(version < 6 ? PanoramaRecord.selectColumns.replacingOccurrences(of: "p.file_etag", with: "NULL") : PanoramaRecord.selectColumns) "
                    + "FROM panoramas p JOIN sequences s ON s.id = p.sequence")
        else { return [:] }
        var records: [String: PanoramaRecord] = [:]
        while (try? statement.step()) == true {
            if let record = try? PanoramaRecord(reading: statement, path: path) { records[record.imagePath] = record }
        }
        return records
    }
}
