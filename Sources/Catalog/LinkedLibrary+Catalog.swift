import CSQLite
import Diagnostics
import Imaging

extension LinkedLibrary {
    /// SQLite, as loaded: `sqlite3_libversion()`.
    public static var sqlite: LinkedLibrary {
        LinkedLibrary(name: "SQLite", version: String(cString: sqlite3_libversion()), isRunTimeVersion: true,
                      source: "sqlite3_libversion")
    }
}
