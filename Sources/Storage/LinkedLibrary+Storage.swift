import CCrypto
import CCurl
import Diagnostics

extension LinkedLibrary {
    /// libcurl and OpenSSL's libcrypto, as loaded (`curl_version_info`, `OpenSSL_version(OPENSSL_VERSION_STRING)`).
    public static var storage: [LinkedLibrary] {
        var libraries: [LinkedLibrary] = []
        libraries.append(LinkedLibrary(name: "libcurl", version: String(cString: lk_curl_version()), isRunTimeVersion: true,
                                       source: "curl_version_info"))
        libraries.append(LinkedLibrary(name: "libcrypto", version: String(cString: OpenSSL_version(Int32(OPENSSL_VERSION_STRING))),
                                       isRunTimeVersion: true, source: "OpenSSL_version"))
        return libraries
    }
}
