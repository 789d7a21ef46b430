import CFFmpeg
import Diagnostics

extension LinkedLibrary {
    /// The C libraries the Video module links: FFmpeg's libavformat, libavcodec, libswscale, libavutil,
    /// each with the version it reports at run time (`avformat_version()`…, major.minor.micro).
    public static var video: [LinkedLibrary] {
        func text(_ v: UInt32) -> String { "\(v >> 16).\(v >> 8 & 0xFF).\(v & 0xFF)" }
        return [LinkedLibrary(name: "libavformat", version: text(avformat_version()), isRunTimeVersion: true, source: "avformat_version"),
                LinkedLibrary(name: "libavcodec", version: text(avcodec_version()), isRunTimeVersion: true, source: "avcodec_version"),
                LinkedLibrary(name: "libswscale", version: text(swscale_version()), isRunTimeVersion: true, source: "swscale_version"),
                LinkedLibrary(name: "libavutil", version: text(avutil_version()), isRunTimeVersion: true, source: "avutil_version")]
    }
}
