/// The PostGIS catalog's schema, versioned in the table `lookaround_schema` and upgraded by migrations.
///
/// Version 1: `catalog_revision` (one row: the revision service processes poll, bumped by every index
/// run, and the panorama count) and the data tables — panoramas (a `geography(Point, 4326)` column with
/// a GiST index for KNN `<->` and `ST_DWithin`, a GiST index on its planar box for coverage tiles, and
/// the query index's 1e-7° integer position, capture minute and flags, so filters and tie-breaking are
/// the in-memory index's), sequences, links, places and streets (geography columns with GiST indexes),
/// their names per language, and `catalog_info`. Version 2: the gazetteer, `addresses` and
/// `localities` with `locality_names`. Version 3: the panoramas' `maps_source` (measured or derived
/// from OpenStreetMap) and `alignment` (JSON). Version 4: `street_graph`, the routing graph of the OSM
/// files (one row: opaque bytes, their format version and the signature of the files, see
/// ``CatalogStreetGraph``), swapped in with the other data tables. Version 5: the panoramas' `file_etag`
/// (the ETag of an image indexed from object storage).
///
/// An index run writes the data tables anew under a `_next` suffix inside one transaction and swaps
/// them in at its end (``dataTables(suffix:)``), so readers see the old or the new catalog, never half.
enum PostGISSchema {
    /// The version this code writes and reads.
    static let currentVersion = 5

    /// The data tables, in the order they are created (and swapped).
    static let dataTableNames = ["sequences", "panoramas", "links", "places", "place_names", "streets", "street_names", "addresses",
                                 "localities", "locality_names", "catalog_info", "street_graph"]

    /// `CREATE TABLE` for every data table, names ending in `suffix` (no indexes but primary keys and
    /// unique constraints: the GiST indexes are built after the bulk COPY, ``dataIndexes(suffix:)``).
    static func dataTables(suffix s: String) -> String {
        """
        CREATE TABLE sequences\(s)(
            id integer PRIMARY KEY, name text NOT NULL UNIQUE, panorama_count integer NOT NULL);
        \(PanoramaTable.postgresCreate(suffix: s))
        CREATE TABLE links\(s)(
            from_row integer NOT NULL, to_row integer NOT NULL,
            heading_degrees float8 NOT NULL, distance_meters float8 NOT NULL, kind text NOT NULL,
            PRIMARY KEY(from_row, to_row));
        CREATE TABLE places\(s)(
            id integer PRIMARY KEY, osm text NOT NULL, name text NOT NULL,
            category text NOT NULL, category_key text NOT NULL, category_value text NOT NULL, category_group text NOT NULL,
            street text, house_number text, postcode text, city text, phone text, website text, opening_hours text,
            latitude float8 NOT NULL, longitude float8 NOT NULL, geog geography(Point, 4326) NOT NULL);
        CREATE TABLE place_names\(s)(
            place integer NOT NULL, language text NOT NULL, name text NOT NULL, PRIMARY KEY(place, language));
        CREATE TABLE streets\(s)(
            id integer PRIMARY KEY, osm text NOT NULL, name text, highway_class text NOT NULL,
            points text NOT NULL, geog geography NOT NULL);
        CREATE TABLE street_names\(s)(
            street integer NOT NULL, language text NOT NULL, name text NOT NULL, PRIMARY KEY(street, language));
        CREATE TABLE addresses\(s)(
            id integer PRIMARY KEY, osm text NOT NULL, house_number text NOT NULL, street text, place text,
            postcode text, city text, unit text, country text, interpolated boolean NOT NULL,
            latitude float8 NOT NULL, longitude float8 NOT NULL);
        CREATE TABLE localities\(s)(
            id integer PRIMARY KEY, osm text NOT NULL, name text NOT NULL, kind text NOT NULL, latitude float8, longitude float8);
        CREATE TABLE locality_names\(s)(
            locality integer NOT NULL, language text NOT NULL, name text NOT NULL, PRIMARY KEY(locality, language));
        CREATE TABLE catalog_info\(s)(key text PRIMARY KEY, value text NOT NULL);
        \(streetGraphTable(suffix: s))
        """
    }

    /// The routing graph's table (version 4).
    static func streetGraphTable(suffix s: String) -> String {
        """
        CREATE TABLE street_graph\(s)(id integer PRIMARY KEY CHECK (id = 1), format_version integer NOT NULL,
            source_signature text NOT NULL, data bytea NOT NULL);
        """
    }

    /// The gazetteer's tables (version 2), for a version 1 catalog that has not been rebuilt yet.
    static func gazetteerTables(suffix s: String) -> String {
        """
        CREATE TABLE addresses\(s)(
            id integer PRIMARY KEY, osm text NOT NULL, house_number text NOT NULL, street text, place text,
            postcode text, city text, unit text, interpolated boolean NOT NULL,
            latitude float8 NOT NULL, longitude float8 NOT NULL);
        CREATE TABLE localities\(s)(
            id integer PRIMARY KEY, osm text NOT NULL, name text NOT NULL, kind text NOT NULL, latitude float8, longitude float8);
        CREATE TABLE locality_names\(s)(
            locality integer NOT NULL, language text NOT NULL, name text NOT NULL, PRIMARY KEY(locality, language));
        """
    }

    /// The secondary indexes of the data tables, built after the COPY (faster than keeping them up to
    /// date row by row).
    static func dataIndexes(suffix s: String) -> String {
        """
        CREATE INDEX panoramas\(s)_geog ON panoramas\(s) USING gist (geog);
        CREATE INDEX panoramas\(s)_box ON panoramas\(s) USING gist ((geog::geometry));
        CREATE INDEX panoramas\(s)_by_sequence ON panoramas\(s)(sequence, sequence_index);
        CREATE INDEX places\(s)_geog ON places\(s) USING gist (geog);
        CREATE INDEX streets\(s)_geog ON streets\(s) USING gist (geog);
        """
    }

    /// Migration `i` takes a catalog from version `i` to `i + 1`.
    static let migrations: [String] = [
        // 0 → 1
        """
        CREATE TABLE catalog_revision(
            id integer PRIMARY KEY CHECK (id = 1), revision bigint NOT NULL, panorama_count integer NOT NULL,
            built_at timestamptz NOT NULL DEFAULT now());
        INSERT INTO catalog_revision(id, revision, panorama_count) VALUES (1, 0, 0);
        """ + dataTables(suffix: "") + dataIndexes(suffix: ""),
        // 1 → 2 (a new database runs 0 → 1 with today's data tables, which already hold these)
        gazetteerTables(suffix: "").replacingOccurrences(of: "CREATE TABLE ", with: "CREATE TABLE IF NOT EXISTS "),
        // 2 → 3 (likewise)
        """
        \(PanoramaTable.postgresAdditions(sqliteVersion: 4))
        UPDATE panoramas SET maps_source = 'measured'
            WHERE maps_source IS NULL AND (depth_path IS NOT NULL OR labels_path IS NOT NULL);
        """,
        // 3 → 4 (likewise)
        streetGraphTable(suffix: "").replacingOccurrences(of: "CREATE TABLE ", with: "CREATE TABLE IF NOT EXISTS "),
        // 4 → 5 (likewise)
        "ALTER TABLE panoramas ADD COLUMN IF NOT EXISTS file_etag text;",
    ]

    /// Brings the database to ``currentVersion`` (on `connection`, inside the caller's transaction):
    /// creates `lookaround_schema` and PostGIS when missing, then runs the migrations still due.
    /// - Throws: `CatalogError.schemaTooNew` for a catalog from a newer tool, `.postgres` when PostGIS
    ///   is not installed and cannot be created by this role.
    static func migrate(_ connection: PostgresConnection) throws(CatalogError) {
        let hasPostGIS = try connection.execute("SELECT 1 FROM pg_extension WHERE extname = 'postgis'").rowCount == 1
        if !hasPostGIS {
            do { try connection.executeScript("CREATE EXTENSION IF NOT EXISTS postgis") } catch {
                throw .postgres(location: connection.location.description, operation: "creating the PostGIS extension",
                                sqlState: "", message: "PostGIS is not installed in this database and this role may not "
                                    + "install it; run CREATE EXTENSION postgis as a superuser (make postgis-up does) (\(error))")
            }
        }
        try connection.executeScript("CREATE TABLE IF NOT EXISTS lookaround_schema(version integer NOT NULL)")
        let rows = try connection.execute("SELECT version FROM lookaround_schema")
        var version = rows.rowCount > 0 ? rows.int(0, 0) : 0
        if rows.rowCount == 0 { try connection.execute("INSERT INTO lookaround_schema(version) VALUES (0)") }
        guard version <= currentVersion else {
            throw .schemaTooNew(path: connection.location.description, found: version, supported: currentVersion)
        }
        while version < currentVersion {
            try connection.executeScript(migrations[version])
            version += 1
            try connection.execute("UPDATE lookaround_schema SET version = $1", ["\(version)"])
        }
    }
}
