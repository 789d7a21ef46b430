import Catalog
import Diagnostics
import Foundation
import Imaging
import MapData
import Storage

extension LinkedLibrary {
    /// Every C library the `LookAround` stack links (directly, and zlib and Expat through libreadosm),
    /// with the version read from the loaded library where it has a call for it.
    public static var lookAround: [LinkedLibrary] {
        imaging + [
            LinkedLibrary(name: "libreadosm", version: ReadOSMLibrary.version, isRunTimeVersion: true, source: "readosm_version"),
            LinkedLibrary(name: "Expat", version: ReadOSMLibrary.expatVersion.replacingOccurrences(of: "expat_", with: ""),
                          isRunTimeVersion: true, source: "readosm_expat_version"),
            LinkedLibrary(name: "zlib", version: ReadOSMLibrary.zlibVersion, isRunTimeVersion: true, source: "readosm_zlib_version"),
            sqlite,
        ] + storage
    }
}
