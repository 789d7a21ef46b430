/// The catalog's SQLite schema, versioned with `PRAGMA user_version` and upgraded by migrations.
///
/// Version 1: panoramas, sequences, links, places (with names per language), streets, and R*Tree
/// indexes for panoramas, places and streets. Version 2: the packed query index (`query_index`) that
/// `Catalog` loads at open, and `catalog_info`. Version 3: the gazetteer, `addresses` (every
/// `addr:housenumber`, interpolated numbers included) and `localities` with their names. Version 4: where a panorama's depth and label maps come from
/// (`maps_source`: measured or derived from OpenStreetMap) and what aligning it with the city found
/// (`alignment`, JSON). Version 5: the routing graph of the OSM files (`street_graph`: one row of opaque
/// bytes with their format version and the signature of the files they were built from, see
/// ``CatalogStreetGraph``). Version 6: the ETag of a panorama indexed from object storage (`file_etag`, what
/// an incremental index compares with the size). A catalog of an older version is migrated when it is
/// opened for writing (`lookaround index`); opening one newer than ``currentVersion`` is an error.
enum CatalogSchema {
    /// The version this code writes and reads.
    static let currentVersion = 6

    /// Migration `i` takes a catalog from version `i` to `i + 1` (the panorama table's columns from
    /// ``PanoramaTable``).
    static let migrations: [String] = [
        // 0 → 1
        """
        CREATE TABLE sequences(
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            panorama_count INTEGER NOT NULL);
        \(PanoramaTable.sqliteCreate)
        CREATE INDEX panoramas_by_sequence ON panoramas(sequence, sequence_index);
        CREATE VIRTUAL TABLE panorama_rtree USING rtree(row, min_lat, max_lat, min_lon, max_lon);
        CREATE TABLE links(
            from_row INTEGER NOT NULL, to_row INTEGER NOT NULL,
            heading_degrees REAL NOT NULL, distance_meters REAL NOT NULL, kind TEXT NOT NULL,
            PRIMARY KEY(from_row, to_row)) WITHOUT ROWID;
        CREATE TABLE places(
            id INTEGER PRIMARY KEY, osm TEXT NOT NULL, name TEXT NOT NULL,
            category TEXT NOT NULL, category_key TEXT NOT NULL, category_value TEXT NOT NULL,
            category_group TEXT NOT NULL,
            street TEXT, house_number TEXT, postcode TEXT, city TEXT,
            phone TEXT, website TEXT, opening_hours TEXT,
            latitude REAL NOT NULL, longitude REAL NOT NULL);
        CREATE TABLE place_names(
            place INTEGER NOT NULL REFERENCES places(id), language TEXT NOT NULL, name TEXT NOT NULL,
            PRIMARY KEY(place, language)) WITHOUT ROWID;
        CREATE VIRTUAL TABLE place_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);
        CREATE TABLE streets(
            id INTEGER PRIMARY KEY, osm TEXT NOT NULL, name TEXT, highway_class TEXT NOT NULL,
            points TEXT NOT NULL);
        CREATE TABLE street_names(
            street INTEGER NOT NULL REFERENCES streets(id), language TEXT NOT NULL, name TEXT NOT NULL,
            PRIMARY KEY(street, language)) WITHOUT ROWID;
        CREATE VIRTUAL TABLE street_rtree USING rtree(id, min_lat, max_lat, min_lon, max_lon);
        """,
        // 1 → 2
        """
        CREATE TABLE query_index(id INTEGER PRIMARY KEY CHECK (id = 1), panorama_count INTEGER NOT NULL,
                                 data BLOB NOT NULL);
        CREATE TABLE catalog_info(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        """,
        // 2 → 3
        """
        CREATE TABLE addresses(
            id INTEGER PRIMARY KEY, osm TEXT NOT NULL, house_number TEXT NOT NULL, street TEXT, place TEXT,
            postcode TEXT, city TEXT, unit TEXT, country TEXT, interpolated INTEGER NOT NULL,
            latitude REAL NOT NULL, longitude REAL NOT NULL);
        CREATE TABLE localities(
            id INTEGER PRIMARY KEY, osm TEXT NOT NULL, name TEXT NOT NULL, kind TEXT NOT NULL, latitude REAL, longitude REAL);
        CREATE TABLE locality_names(
            locality INTEGER NOT NULL REFERENCES localities(id), language TEXT NOT NULL, name TEXT NOT NULL,
            PRIMARY KEY(locality, language)) WITHOUT ROWID;
        """,
        // 3 → 4
        """
        \(PanoramaTable.sqliteAdditions(inVersion: 4))
        UPDATE panoramas SET maps_source = 'measured' WHERE depth_path IS NOT NULL OR labels_path IS NOT NULL;
        """,
        // 4 → 5
        """
        CREATE TABLE street_graph(id INTEGER PRIMARY KEY CHECK (id = 1), format_version INTEGER NOT NULL,
                                  source_signature TEXT NOT NULL, data BLOB NOT NULL);
        """,
        // 5 → 6
        """
        \(PanoramaTable.sqliteAdditions(inVersion: 6))
        """,
    ]

    /// Brings `database` to ``currentVersion``, one migration per transaction.
    /// - Throws: `CatalogError.schemaTooNew` for a catalog from a newer tool.
    static func migrate(_ database: SQLiteDatabase) throws {
        let version = try database.userVersion
        guard version <= currentVersion else {
            throw CatalogError.schemaTooNew(path: database.path, found: version, supported: currentVersion)
        }
        for target in (version + 1)...max(version + 1, currentVersion) where target <= currentVersion {
            try database.transaction {
                try database.execute(migrations[target - 1])
                try database.setUserVersion(target)
            }
        }
    }
}
