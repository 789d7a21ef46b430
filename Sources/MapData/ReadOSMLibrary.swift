import CReadOSM

/// The versions libreadosm reports at run time, for `lookaround --version`: its own, and those of the
/// Expat (OSM XML) and zlib (PBF blobs) libraries it loaded.
public enum ReadOSMLibrary {
    /// `readosm_version()`.
    public static var version: String { string(readosm_version()) }
    /// `readosm_expat_version()`: Expat's version string (`expat_2.5.0`).
    public static var expatVersion: String { string(readosm_expat_version()) }
    /// `readosm_zlib_version()`.
    public static var zlibVersion: String { string(readosm_zlib_version()) }

    private static func string(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? "unknown"
    }
}
