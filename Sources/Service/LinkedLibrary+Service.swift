import CMicroHTTPD
import Imaging

extension LinkedLibrary {
    /// libmicrohttpd, its version read from the loaded library (`MHD_get_version`).
    public static var microHTTPD: LinkedLibrary {
        LinkedLibrary(name: "libmicrohttpd", version: String(cString: MHD_get_version()), isRunTimeVersion: true,
                      source: "MHD_get_version")
    }
}
