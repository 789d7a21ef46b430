/// The panorama table's columns, written once: the SQLite migrations (``CatalogSchema``) and the PostGIS
/// data tables (``PostGISSchema``) are made from this list, each in its own dialect.
///
/// The order is the PostGIS table's; the SQLite table has the columns that name a version
/// (`sqliteVersion`), created by migration 0 → 1 or added by `ALTER TABLE` in the migration to the version
/// named. The columns the in-memory query index gives a SQLite catalog (the point, the 1e-7° position,
/// capture minute and flags) are PostGIS's alone.
enum PanoramaTable {
    /// A column's type, written per dialect.
    enum Kind {
        case integer, bigInteger, smallInteger, real, text, point

        /// The SQLite type (SQLite's integers are all 64-bit).
        var sqlite: String {
            switch self {
            case .integer, .bigInteger, .smallInteger: "INTEGER"
            case .real: "REAL"
            case .text: "TEXT"
            case .point: preconditionFailure("SQLite catalogs keep no point column")
            }
        }

        /// The PostgreSQL type.
        var postgres: String {
            switch self {
            case .integer: "integer"
            case .bigInteger: "bigint"
            case .smallInteger: "smallint"
            case .real: "float8"
            case .text: "text"
            case .point: "geography(Point, 4326)"
            }
        }
    }

    /// What more than its type and nullability a column says.
    enum Constraint { case none, primaryKey, unique, sequenceReference }

    struct Column {
        var name: String
        var kind: Kind
        var isNullable = false
        var constraint = Constraint.none
        /// The SQLite catalog version that has it (nil: PostGIS only).
        var sqliteVersion: Int? = 1

        /// `name TYPE …` in SQLite.
        var sqlite: String {
            var text = "\(name) \(kind.sqlite)"
            switch constraint {
            case .primaryKey: text += " PRIMARY KEY"
            case .unique: text += " NOT NULL UNIQUE"
            case .sequenceReference: text += " NOT NULL REFERENCES sequences(id)"
            case .none: if !isNullable { text += " NOT NULL" }
            }
            return text
        }

        /// `name type …` in PostgreSQL (the sequence is not a foreign key there: the tables are swapped
        /// in together, after their COPY).
        var postgres: String {
            var text = "\(name) \(kind.postgres)"
            switch constraint {
            case .primaryKey: text += " PRIMARY KEY"
            case .unique: text += " NOT NULL UNIQUE"
            case .sequenceReference, .none: if !isNullable { text += " NOT NULL" }
            }
            return text
        }
    }

    static let columns: [Column] = [
        Column(name: "row", kind: .integer, constraint: .primaryKey),
        Column(name: "id", kind: .text, constraint: .unique),
        Column(name: "latitude", kind: .real), Column(name: "longitude", kind: .real),
        Column(name: "geog", kind: .point, sqliteVersion: nil),
        Column(name: "latitude_e7", kind: .integer, sqliteVersion: nil),
        Column(name: "longitude_e7", kind: .integer, sqliteVersion: nil),
        Column(name: "capture_minute", kind: .integer, sqliteVersion: nil),
        Column(name: "flags", kind: .smallInteger, sqliteVersion: nil),
        Column(name: "ground_elevation_meters", kind: .real, isNullable: true),
        Column(name: "camera_height_meters", kind: .real, isNullable: true),
        Column(name: "altitude_meters", kind: .real, isNullable: true),
        Column(name: "capture_time", kind: .real), Column(name: "capture_time_source", kind: .text),
        Column(name: "heading_degrees", kind: .real), Column(name: "heading_source", kind: .text),
        Column(name: "pitch_degrees", kind: .real), Column(name: "roll_degrees", kind: .real),
        Column(name: "image_width", kind: .integer), Column(name: "image_height", kind: .integer),
        Column(name: "full_width", kind: .integer), Column(name: "full_height", kind: .integer),
        Column(name: "cropped_left", kind: .integer), Column(name: "cropped_top", kind: .integer),
        Column(name: "image_path", kind: .text),
        Column(name: "depth_path", kind: .text, isNullable: true),
        Column(name: "labels_path", kind: .text, isNullable: true),
        Column(name: "sidecar_path", kind: .text, isNullable: true),
        Column(name: "source", kind: .text),
        Column(name: "make", kind: .text, isNullable: true), Column(name: "model", kind: .text, isNullable: true),
        Column(name: "sequence", kind: .integer, constraint: .sequenceReference), Column(name: "sequence_index", kind: .integer),
        Column(name: "file_size", kind: .bigInteger), Column(name: "file_mtime", kind: .real), Column(name: "warnings", kind: .text),
        Column(name: "maps_source", kind: .text, isNullable: true, sqliteVersion: 4),
        Column(name: "alignment", kind: .text, isNullable: true, sqliteVersion: 4),
        Column(name: "file_etag", kind: .text, isNullable: true, sqliteVersion: 6),
    ]

    /// SQLite's `CREATE TABLE panoramas(…)` as migration 0 → 1 made it.
    static var sqliteCreate: String {
        "CREATE TABLE panoramas(\n    " + columns.filter { $0.sqliteVersion == 1 }.map(\.sqlite).joined(separator: ",\n    ") + ");"
    }

    /// SQLite's `ALTER TABLE … ADD COLUMN` statements of the migration to `version`.
    static func sqliteAdditions(inVersion version: Int) -> String {
        columns.filter { $0.sqliteVersion == version }.map { "ALTER TABLE panoramas ADD COLUMN \($0.sqlite);" }
            .joined(separator: "\n")
    }

    /// PostgreSQL's `CREATE TABLE panoramas<suffix>(…)`.
    static func postgresCreate(suffix: String) -> String {
        "CREATE TABLE panoramas\(suffix)(\n    " + columns.map(\.postgres).joined(separator: ",\n    ") + ");"
    }

    /// PostgreSQL's `ALTER TABLE panoramas ADD COLUMN IF NOT EXISTS …` of the columns SQLite's `version`
    /// added (for a PostGIS catalog made before them).
    static func postgresAdditions(sqliteVersion version: Int) -> String {
        "ALTER TABLE panoramas " + columns.filter { $0.sqliteVersion == version }
            .map { "ADD COLUMN IF NOT EXISTS \($0.postgres)" }.joined(separator: ", ") + ";"
    }
}
