import CDeflate
import CFreeType
import CPNG
import CTurboJPEG
import Diagnostics

extension LinkedLibrary {
    /// The C libraries `Imaging` links: libjpeg-turbo, libpng, libdeflate, FreeType.
    public static var imaging: [LinkedLibrary] { [libjpegTurbo, libpng, libdeflate, freetype] }

    /// TurboJPEG 2.x has no version call and `libturbojpeg.so` exports no `jpeg_*` symbols (the libjpeg
    /// API's version string lives in its message table), so this is the version of the headers.
    static var libjpegTurbo: LinkedLibrary {
        let number = Int(LIBJPEG_TURBO_VERSION_NUMBER)   // 2001005 = 2.1.5
        return LinkedLibrary(name: "libjpeg-turbo", version: "\(number / 1_000_000).\(number / 1_000 % 1_000).\(number % 1_000)",
                             isRunTimeVersion: false,
                             source: "headers built against, LIBJPEG_TURBO_VERSION_NUMBER: TurboJPEG has no run-time version call")
    }

    static var libpng: LinkedLibrary {
        LinkedLibrary(name: "libpng", version: png_get_libpng_ver(nil).map { String(cString: $0) } ?? "unknown",
                      isRunTimeVersion: true, source: "png_get_libpng_ver")
    }

    /// libdeflate has no version call: `LIBDEFLATE_VERSION_STRING` exists only in the header.
    static var libdeflate: LinkedLibrary {
        LinkedLibrary(name: "libdeflate", version: LIBDEFLATE_VERSION_STRING, isRunTimeVersion: false,
                      source: "headers built against, LIBDEFLATE_VERSION_STRING: libdeflate has no run-time version call")
    }

    static var freetype: LinkedLibrary {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else {
            return LinkedLibrary(name: "FreeType", version: "unknown", isRunTimeVersion: true,
                                 source: "FT_Library_Version (FT_Init_FreeType failed)")
        }
        defer { FT_Done_FreeType(library) }
        var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
        FT_Library_Version(library, &major, &minor, &patch)
        return LinkedLibrary(name: "FreeType", version: "\(major).\(minor).\(patch)", isRunTimeVersion: true,
                             source: "FT_Library_Version")
    }
}
