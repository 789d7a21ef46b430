import Foundation
import Geodesy
import MapData

/// Writes a complete catalog into PostgreSQL + PostGIS: one writer per index run, one transaction.
///
/// Inside the transaction: an advisory lock (a second index run on the same catalog fails at once
/// instead of interleaving), the schema migrated, the data tables created anew with a `_next` suffix
/// and filled with `COPY … FROM STDIN`, their GiST indexes built, then the old tables dropped and the
/// new ones renamed over them and the revision bumped. Readers keep seeing the old catalog until the
/// commit and the new one after it, never a half; a failed run rolls back and changes nothing.
enum PostGISCatalogWriter {
    /// Counts of what was written, and the COPY's share of the time.
    struct Summary {
        var sequences = 0
        var links = 0
        /// Seconds spent in COPY (all tables).
        var copySeconds = 0.0
        /// Seconds from BEGIN to COMMIT.
        var totalSeconds = 0.0
    }

    /// The advisory lock key of "an index run writes this catalog".
    static let writerLockKey = 0x4C4B_4152_4F55_4E44 as Int64  // "LKAROUND"

    static func write(records: [PanoramaRecord], places: [Place], streets: [Street], gazetteer: Gazetteer,
                      streetGraph: CatalogStreetGraph? = nil, to url: String,
                      proximityLinkMeters: Double, maximumProximityLinks: Int) throws -> Summary {
        let location = CatalogLocation.postgres(url: url)
        let links = CatalogWriter.links(records, proximityLinkMeters: proximityLinkMeters, maximumProximityLinks: maximumProximityLinks)
        let connection = try PostgresConnection(location: location, url: url,
                                                settings: .init(connectTimeoutSeconds: 10, statementTimeoutMilliseconds: 0))
        var summary = Summary()
        let start = Date()
        try connection.executeScript("BEGIN")
        do {
            try connection.executeScript("SET LOCAL lock_timeout = '60s'")
            let locked = try connection.execute("SELECT pg_try_advisory_xact_lock($1)", ["\(writerLockKey)"])
            guard locked.string(0, 0) == "t" else {
                throw CatalogError.unavailable(location: location.description,
                                               detail: "another 'lookaround index' is writing this catalog now; wait for it to finish")
            }
            try PostGISSchema.migrate(connection)
            let suffix = "_next"
            try connection.executeScript(PostGISSchema.dataTableNames.map { "DROP TABLE IF EXISTS \($0)\(suffix);" }.joined())
            try connection.executeScript(PostGISSchema.dataTables(suffix: suffix))
            let copyStart = Date()
            summary.sequences = try copySequencesAndPanoramas(records, connection, suffix: suffix)
            summary.links = try copyLinks(links, connection, suffix: suffix)
            try copyPlaces(places, connection, suffix: suffix)
            try copyStreets(streets, connection, suffix: suffix)
            try copyGazetteer(gazetteer, connection, suffix: suffix)
            try connection.copy(into: "catalog_info\(suffix)", columns: ["key", "value"]) { buffer in
                for (key, value) in [("built_at", ISO8601DateFormatter().string(from: Date())),
                                     ("panorama_count", "\(records.count)"), ("generator", "lookaround index")] {
                    buffer.field(key)
                    buffer.field(value)
                    buffer.endRow()
                }
                return false
            }
            if let streetGraph {
                try connection.execute("INSERT INTO street_graph\(suffix)(id, format_version, source_signature, data) "
                                       + "VALUES (1, $1, $2, decode($3, 'hex'))",
                                       ["\(streetGraph.formatVersion)", streetGraph.sourceSignature, PostGISCatalogStore.hex(streetGraph.data)])
            }
            summary.copySeconds = Date().timeIntervalSince(copyStart)
            try connection.executeScript(PostGISSchema.dataIndexes(suffix: suffix))
            for table in PostGISSchema.dataTableNames { try connection.executeScript("ANALYZE \(table)\(suffix)") }
            // The swap: drop the old tables, rename the new ones and their indexes over them.
            try connection.executeScript(PostGISSchema.dataTableNames.map { "DROP TABLE IF EXISTS \($0);" }.joined())
            for table in PostGISSchema.dataTableNames {
                try connection.executeScript("ALTER TABLE \(table)\(suffix) RENAME TO \(table)")
            }
            let indexes = try connection.execute("""
                SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1::text[])
                  AND indexname LIKE '%\\_next%'
                """, ["{" + PostGISSchema.dataTableNames.joined(separator: ",") + "}"])
            for r in 0..<indexes.rowCount {
                let name = indexes.string(r, 0)
                guard let range = name.range(of: suffix) else { continue }
                try connection.executeScript("ALTER INDEX \"\(name)\" RENAME TO \"\(name.replacingCharacters(in: range, with: ""))\"")
            }
            try connection.execute("UPDATE catalog_revision SET revision = revision + 1, panorama_count = $1, built_at = now() WHERE id = 1",
                                   ["\(records.count)"])
            try connection.executeScript("COMMIT")
        } catch {
            try? connection.executeScript("ROLLBACK")
            throw error
        }
        summary.totalSeconds = Date().timeIntervalSince(start)
        return summary
    }

    private static func copySequencesAndPanoramas(_ records: [PanoramaRecord], _ connection: PostgresConnection,
                                                  suffix: String) throws -> Int {
        let (ids, counts, names) = CatalogWriter.sequences(records)
        try copyRows(names, into: "sequences\(suffix)", columns: ["id", "name", "panorama_count"], connection) { name, buffer in
            buffer.field(ids[name] ?? 0)
            buffer.field(name)
            buffer.field(counts[name] ?? 0)
            buffer.endRow()
        }
        let columns = PanoramaTable.columns.map(\.name)
        let entries = CatalogWriter.queryIndexEntries(records)
        try copyRows(records.indices, into: "panoramas\(suffix)", columns: columns, connection) { i, buffer in
            let record = records[i], entry = entries[i]
            try record.write(to: &buffer, row: i + 1, sequence: ids[record.sequenceName] ?? 0) { buffer in
                buffer.raw("SRID=4326;POINT(\(record.coordinate.longitude) \(record.coordinate.latitude))")
                buffer.field(entry.latitudeE7)
                buffer.field(entry.longitudeE7)
                buffer.field(entry.captureMinute)
                buffer.field(entry.flags)
            }
            buffer.endRow()
        }
        return names.count
    }

    private static func copyLinks(_ links: [[CatalogWriter.LinkRow]], _ connection: PostgresConnection, suffix: String) throws -> Int {
        try copyRows(links, into: "links\(suffix)", columns: ["from_row", "to_row", "heading_degrees", "distance_meters", "kind"],
                     connection) { panoramaLinks, buffer in
            for link in panoramaLinks {
                buffer.field(link.from)
                buffer.field(link.to)
                buffer.field(link.heading)
                buffer.field(link.distance)
                buffer.field(link.sequence ? PanoramaLink.Kind.sequence.rawValue : PanoramaLink.Kind.proximity.rawValue)
                buffer.endRow()
            }
        }
    }

    private static func copyNames(_ table: String, owner: String, _ named: [(id: Int, names: [String: String])],
                                  _ connection: PostgresConnection) throws {
        try copyRows(named, into: table, columns: [owner, "language", "name"], connection) { owned, buffer in
            for (language, name) in owned.names.sorted(by: { $0.key < $1.key }) {
                buffer.field(owned.id)
                buffer.field(language)
                buffer.field(name)
                buffer.endRow()
            }
        }
    }

    private static func copyGazetteer(_ gazetteer: Gazetteer, _ connection: PostgresConnection, suffix: String) throws {
        let columns = ["id", "osm", "house_number", "street", "place", "postcode", "city", "unit", "interpolated", "latitude", "longitude",
                       "country"]
        try copyRows(gazetteer.addresses.enumerated(), into: "addresses\(suffix)", columns: columns, connection) { numbered, buffer in
            let (offset, address) = numbered
            buffer.field(offset + 1)
            buffer.field(address.source.description)
            buffer.field(address.houseNumber)
            buffer.field(address.street)
            buffer.field(address.place)
            buffer.field(address.postcode)
            buffer.field(address.city)
            buffer.field(address.unit)
            buffer.field(address.isInterpolated ? "t" : "f")
            buffer.field(address.position.latitude)
            buffer.field(address.position.longitude)
            buffer.field(address.country)
            buffer.endRow()
        }
        try copyRows(gazetteer.localities.enumerated(), into: "localities\(suffix)", columns: ["id", "osm", "name", "kind", "latitude", "longitude"],
                     connection) { numbered, buffer in
            let (offset, locality) = numbered
            buffer.field(offset + 1)
            buffer.field(locality.source.description)
            buffer.field(locality.name)
            buffer.field(locality.kind)
            buffer.field(locality.position?.latitude)
            buffer.field(locality.position?.longitude)
            buffer.endRow()
        }
        try copyNames("locality_names\(suffix)", owner: "locality",
                      gazetteer.localities.enumerated().map { ($0.offset + 1, $0.element.names) }, connection)
    }

    private static func copyPlaces(_ places: [Place], _ connection: PostgresConnection, suffix: String) throws {
        let columns = ["id", "osm", "name", "category", "category_key", "category_value", "category_group", "street",
                       "house_number", "postcode", "city", "phone", "website", "opening_hours", "latitude", "longitude", "geog"]
        try copyRows(places.enumerated(), into: "places\(suffix)", columns: columns, connection) { numbered, buffer in
            let (offset, place) = numbered
            buffer.field(offset + 1)
            buffer.field(place.source.description)
            buffer.field(place.name)
            buffer.field(place.category.name)
            buffer.field(place.category.key)
            buffer.field(place.category.value)
            buffer.field(place.category.group.rawValue)
            buffer.field(place.address?.street)
            buffer.field(place.address?.houseNumber)
            buffer.field(place.address?.postcode)
            buffer.field(place.address?.city)
            buffer.field(place.phone)
            buffer.field(place.website)
            buffer.field(place.openingHours)
            buffer.field(place.position.latitude)
            buffer.field(place.position.longitude)
            buffer.raw("SRID=4326;POINT(\(place.position.longitude) \(place.position.latitude))")
            buffer.endRow()
        }
        try copyNames("place_names\(suffix)", owner: "place", places.enumerated().map { ($0.offset + 1, $0.element.names) }, connection)
    }

    private static func copyStreets(_ streets: [Street], _ connection: PostgresConnection, suffix: String) throws {
        let kept = streets.enumerated().filter { !$0.element.points.isEmpty }
        try copyRows(kept, into: "streets\(suffix)", columns: ["id", "osm", "name", "highway_class", "points", "geog"],
                     connection) { numbered, buffer in
            let (offset, street) = numbered
            buffer.field(offset + 1)
            buffer.field(street.source.description)
            buffer.field(street.name)
            buffer.field(street.highwayClass.tagValue)
            buffer.field("[" + street.points.map { "[\($0.latitude),\($0.longitude)]" }.joined(separator: ",") + "]")
            let points = street.points.map { "\($0.longitude) \($0.latitude)" }
            buffer.raw(points.count == 1 ? "SRID=4326;POINT(\(points[0]))"
                       : "SRID=4326;LINESTRING(\(points.joined(separator: ",")))")
            buffer.endRow()
        }
        try copyNames("street_names\(suffix)", owner: "street", kept.map { ($0.offset + 1, $0.element.names) }, connection)
    }

    /// `COPY table(columns) FROM STDIN` of `rows`: `writeRow` appends an element's row (or rows) to the
    /// buffer, which is sent whenever it holds 1 MiB. The one loop every table's copy shares.
    /// - Returns: the number of rows the server took.
    @discardableResult
    private static func copyRows<Rows: Sequence>(_ rows: Rows, into table: String, columns: [String],
                                                 _ connection: PostgresConnection,
                                                 _ writeRow: (Rows.Element, inout PostgresConnection.CopyBuffer) throws -> Void) throws -> Int {
        var iterator = rows.makeIterator()
        var next = iterator.next()
        return try connection.copy(into: table, columns: columns) { buffer in
            while let element = next, buffer.bytes.count < 1 << 20 {
                try writeRow(element, &buffer)
                next = iterator.next()
            }
            return next != nil
        }
    }
}
