import CCrypto
import CCurl
import Diagnostics

extension LinkedLibrary {
    /// libcurl and OpenSSL's libcrypto, as loaded (`curl_version_info`, `OpenSSL_version`).
    public static var storage: [LinkedLibrary] {
        var libraries: [LinkedLibrary] = []
        libraries.append(LinkedLibrary(name: "libcurl", version: String(cString: lk_curl_version()), isRunTimeVersion: true,
                                       source: "curl_version_info"))
        let openssl = String(cString: OpenSSL_version(Int32(OPENSSL_VERSION)))
        libraries.append(LinkedLibrary(name: "OpenSSL libcrypto", version: openssl.replacingOccurrences(of: "OpenSSL ", with: ""),
                                       isRunTimeVersion: true, source: "OpenSSL_version"))
        return libraries
    }
}
