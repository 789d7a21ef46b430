/// A C library a binary links, with the version `lookaround --version` reports for it.
///
/// The version is read from the loaded library itself when the library has a call for it
/// (`png_get_libpng_ver`, `FT_Library_Version`, `sqlite3_libversion`, `readosm_version`); a library with
/// no such call reports the version of the headers it was compiled against, and says so
/// (``isRunTimeVersion`` is false).
public struct LinkedLibrary: Sendable, Hashable, Codable {
    /// The library's name (`libpng`).
    public var name: String
    /// Its version (`1.6.39`).
    public var version: String
    /// Whether ``version`` was read from the loaded library at run time (else: the headers built against).
    public var isRunTimeVersion: Bool
    /// How the version was obtained (`png_get_libpng_ver`, or why there is no run-time call).
    public var source: String

    public init(name: String, version: String, isRunTimeVersion: Bool, source: String) {
        self.name = name
        self.version = version
        self.isRunTimeVersion = isRunTimeVersion
        self.source = source
    }
}
