@testable import Catalog
import Foundation
import LookAround
import Testing
import TestSupport

@Suite struct SchemaTests {
    @Test func versionOneCatalogIsMigratedToTheCurrentVersion() throws {
        let root = try Lookaround.temporaryDirectory()
        let path = root.appendingPathComponent("v1.sqlite").path
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
            try database.execute(CatalogSchema.migrations[0])
            try database.setUserVersion(1)
            #expect(try !database.hasTable("query_index"))
            try CatalogSchema.migrate(database)
            #expect(try database.userVersion == CatalogSchema.currentVersion)
            #expect(try database.hasTable("query_index"))
            #expect(try database.hasTable("panorama_rtree"))
            #expect(try database.hasTable("addresses") && database.hasTable("localities") && database.hasTable("locality_names"))
            #expect(try database.prepare("SELECT maps_source, alignment FROM panoramas").step() == false)
        }
        // Version 3 (before maps_source): a panorama with a depth map reads as measured once migrated.
        do {
            let database = try SQLiteDatabase(path: root.appendingPathComponent("v3.sqlite").path, mode: .readWriteCreate)
            for migration in CatalogSchema.migrations[0..<3] { try database.execute(migration) }
            try database.setUserVersion(3)
            try database.execute("""
                INSERT INTO sequences VALUES (1, 'walk', 2);
                INSERT INTO panoramas(row, id, latitude, longitude, capture_time, capture_time_source, heading_degrees, heading_source,
                    pitch_degrees, roll_degrees, image_width, image_height, full_width, full_height, cropped_left, cropped_top,
                    image_path, depth_path, source, sequence, sequence_index, file_size, file_mtime, warnings)
                VALUES (1, 'a', 60, 25, 0, 'sidecar', 0, 'sidecar', 0, 0, 8, 4, 8, 4, 0, 0, '/a.jpg', '/a.depth.png', 'photo', 1, 0, 0, 0, ''),
                       (2, 'b', 60, 25, 0, 'sidecar', 0, 'sidecar', 0, 0, 8, 4, 8, 4, 0, 0, '/b.jpg', NULL, 'photo', 1, 1, 0, 0, '');
                """)
            try CatalogSchema.migrate(database)
            #expect(try database.userVersion == CatalogSchema.currentVersion)
            let rows = try database.prepare("SELECT id, maps_source FROM panoramas ORDER BY id")
            var sources: [String: String?] = [:]
            while try rows.step() { sources[rows.string(0)] = rows.optionalString(1) }
            #expect(sources == ["a": "measured", "b": nil])
        }
        // Version 4 (before the routing graph): migrated, the table is there and empty.
        do {
            let database = try SQLiteDatabase(path: root.appendingPathComponent("v4.sqlite").path, mode: .readWriteCreate)
            for migration in CatalogSchema.migrations[0..<4] { try database.execute(migration) }
            try database.setUserVersion(4)
            #expect(try !database.hasTable("street_graph"))
            try CatalogSchema.migrate(database)
            #expect(try database.userVersion == CatalogSchema.currentVersion && database.hasTable("street_graph"))
            // Version 6: the ETag of images indexed from object storage.
            #expect(try database.prepare("SELECT file_etag FROM panoramas").step() == false)
            #expect(try SQLiteCatalogStore.streetGraph(in: database) == nil)
        }
        // A v1 catalog without a stored index is reported, with the remedy.
        let v1 = root.appendingPathComponent("old.sqlite").path
        do {
            let database = try SQLiteDatabase(path: v1, mode: .readWriteCreate)
            try database.execute(CatalogSchema.migrations[0])
            try database.setUserVersion(1)
        }
        #expect(throws: CatalogError.notACatalog(path: v1, detail: "schema version 1, written by an older lookaround; this one reads "
                                                 + "\(CatalogSchema.currentVersion)")) {
            try Catalog(path: v1)
        }
        // A version 2 catalog (before the gazetteer): the same.
        let v2 = root.appendingPathComponent("v2.sqlite").path
        do {
            let database = try SQLiteDatabase(path: v2, mode: .readWriteCreate)
            try database.execute(CatalogSchema.migrations[0])
            try database.execute(CatalogSchema.migrations[1])
            try database.setUserVersion(2)
        }
        #expect(throws: CatalogError.notACatalog(path: v2, detail: "schema version 2, written by an older lookaround; this one reads "
                                                 + "\(CatalogSchema.currentVersion)")) {
            try Catalog(path: v2)
        }
    }

    /// An index run over a version 4 catalog (no routing graph) writes a version 5 one with the graph;
    /// readers refuse the version 4 file with the remedy.
    /// The panorama table is written once (``PanoramaTable``): a catalog migrated from nothing has its
    /// SQLite columns in order, with their types, NOT NULL and primary key, and the PostGIS table and its
    /// COPY name every column, the PostGIS-only ones included, in the same order.
    @Test func thePanoramaTableIsMadeFromItsOneDescription() throws {
        let path = try Lookaround.temporaryDirectory().appendingPathComponent("new.sqlite").path
        let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
        try CatalogSchema.migrate(database)
        let info = try database.prepare("PRAGMA table_info(panoramas)")
        var found: [String] = []
        while try info.step() { found.append("\(info.string(1)) \(info.string(2)) \(info.int(3)) \(info.int(5))") }
        #expect(found.first == "row INTEGER 0 1" && found.contains("id TEXT 1 0") && found.contains("maps_source TEXT 0 0"))
        #expect(found.contains("sequence INTEGER 1 0") && found.contains("depth_path TEXT 0 0") && found.count == 34, "\(found)")
        let expected = PanoramaTable.columns.filter { $0.sqliteVersion != nil }.map {
            "\($0.name) \($0.kind.sqlite) \($0.isNullable || $0.constraint == .primaryKey ? 0 : 1) \($0.constraint == .primaryKey ? 1 : 0)"
        }
        #expect(found == expected)
        let postgres = PostGISSchema.dataTables(suffix: "_next")
        #expect(postgres.contains("CREATE TABLE panoramas_next(\n    row integer PRIMARY KEY,\n    id text NOT NULL UNIQUE,"))
        #expect(postgres.contains("geog geography(Point, 4326) NOT NULL,\n    latitude_e7 integer NOT NULL,"))
        #expect(postgres.contains("flags smallint NOT NULL,") && postgres.contains("file_size bigint NOT NULL,"))
        #expect(postgres.contains("sequence integer NOT NULL,") && !postgres.contains("REFERENCES"))
        #expect(postgres.contains("maps_source text,\n    alignment text,\n    file_etag text);"))
        #expect(PostGISSchema.migrations[2].contains(
            "ALTER TABLE panoramas ADD COLUMN IF NOT EXISTS maps_source text, ADD COLUMN IF NOT EXISTS alignment text;"))
        #expect(CatalogSchema.migrations[3].contains("ALTER TABLE panoramas ADD COLUMN maps_source TEXT;\nALTER TABLE panoramas ADD COLUMN alignment TEXT;"))
    }

    @Test func indexingOverAVersion4CatalogStoresTheGraph() throws {
        let set = try Fixtures.standardSet()
        let path = set.root.appendingPathComponent("catalog.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [set.root.path], catalogPath: path, osmFiles: [set.osm]))
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
            try database.execute("DROP TABLE street_graph")
            try database.setUserVersion(4)
        }
        #expect(throws: CatalogError.notACatalog(path: path, detail: "schema version 4, written by an older lookaround; this one reads \(CatalogSchema.currentVersion)")) {
            try Catalog(path: path)
        }
        var options = CatalogBuildOptions(directories: [set.root.path], catalogPath: path, osmFiles: [set.osm])
        options.streetGraphBuilder = StreetGraphBuilder()
        let report = try CatalogBuilder.build(options)
        #expect(report.filesUnchanged == 5, "the panoramas of the version 4 catalog are reused")
        #expect(report.streetGraph?.reused == false)
        let stored = try #require(try Catalog(path: path).streetGraph())
        #expect(try RoutingGraph(serialized: stored.data).edgeCount == RoutingGraph(contentsOfFile: set.osm).edgeCount)
    }

    @Test func newerSchemaIsRefusedWithTheRemedy() throws {
        let root = try Lookaround.temporaryDirectory()
        let path = root.appendingPathComponent("future.sqlite").path
        do {
            let database = try SQLiteDatabase(path: path, mode: .readWriteCreate)
            try database.setUserVersion(99)
        }
        #expect(throws: CatalogError.schemaTooNew(path: path, found: 99, supported: CatalogSchema.currentVersion)) {
            try Catalog(path: path)
        }
    }

    @Test func sqliteHasTheRTreeModule() throws {
        let database = try SQLiteDatabase(path: ":memory:", mode: .readWriteCreate)
        try database.execute("CREATE VIRTUAL TABLE t USING rtree(id, a, b)")
    }
}
