import CDeflate
import Foundation

/// The web viewer's files (the map page, `lookaround.js`, styles, Leaflet): `Sources/Service/Resources/web`,
/// read once into memory with a gzip copy of each text file and an ETag, so a page costs no disk read
/// and no compression per request.
///
/// Looked for, in order: `$LOOKAROUND_WEB_DIR` (for working on the page: read again on every request,
/// so an edit shows on reload); the resource bundle SwiftPM copies beside the executable
/// (`LookAround_Service.resources/web`); an installed copy, `../share/lookaround/web` from the
/// executable's folder (`make install`, the Debian package); and, for an executable inside a `.build`
/// folder only, the source tree this module was built from — the same order as the world basemap.
final class WebResources: Sendable {
    /// One file, ready to send.
    struct File: Sendable {
        var contentType: String
        var bytes: [UInt8]
        /// The gzip stream of `bytes` (text files), nil where compressing does not pay.
        var gzipped: [UInt8]?
        var etag: String
    }

    /// Files by URL path (`/app.js`, `/leaflet/images/layers.png`).
    let files: [String: File]
    /// Where they were read from.
    let folder: String
    /// index.html as a deep link's first-view page (``firstViewPage(_:)``), split where its picture goes;
    /// nil when index.html lacks the marker, the head's end or the body's end.
    let firstView: (beforePicture: String, afterPicture: String)?

    init(folder: String) {
        self.folder = folder
        var files: [String: File] = [:]
        let root = URL(fileURLWithPath: folder)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = FileManager.default.contents(atPath: url.path) else { continue }
            let relative = url.path.dropFirst(root.path.count)
            let path = relative.hasPrefix("/") ? String(relative) : "/" + relative
            let type = Self.contentType(ofExtension: url.pathExtension)
            let bytes = [UInt8](data)
            let gzipped = type.hasPrefix("image/png") ? nil : Self.gzip(bytes)
            files[path] = File(contentType: type, bytes: bytes, gzipped: gzipped, etag: entityTag(of: bytes))
        }
        self.files = files
        firstView = files["/index.html"].flatMap { String(bytes: $0.bytes, encoding: .utf8) }.flatMap(Self.firstViewPage)
    }

    /// The marker in index.html's head after which come the page's own style sheets and preloads.
    static let pageMarker = "<!-- the page:"

    /// index.html as a first-view page, in two parts for the picture to go between: the head up to the
    /// ``pageMarker`` and the body's start; then everything after the marker (style sheets, preloads)
    /// and in the body held in a `<template id="la-page">`, which first-view.js unfolds once the picture
    /// is painted. A fresh browser then paints the picture with nothing else to fetch, style or lay out
    /// (`Benchmarks web`, a camera's photo, fresh headless Chromium, median of 7: 132 ms, against 188
    /// with the whole page behind the picture and 104 for a static page of the picture alone). Nil for a
    /// page without the marker, the head's end or the body's end.
    static func firstViewPage(_ html: String) -> (beforePicture: String, afterPicture: String)? {
        guard let marker = html.range(of: pageMarker), let markerEnd = html[marker.upperBound...].range(of: "-->\n"),
              let head = html.range(of: "</head>\n<body>\n"), markerEnd.upperBound <= head.lowerBound,
              let bodyEnd = html.range(of: "</body>", options: .backwards), head.upperBound <= bodyEnd.lowerBound else { return nil }
        let after: [Substring] = ["<template id=\"la-page\">\n", html[markerEnd.upperBound..<head.lowerBound],
                                  html[head.upperBound..<bodyEnd.lowerBound], "</template>\n", html[bodyEnd.lowerBound...]]
        return (html[..<marker.lowerBound] + "</head>\n<body>\n", after.joined())
    }

    static func contentType(ofExtension ext: String) -> String {
        switch ext.lowercased() {
        case "html": "text/html; charset=utf-8"
        case "js": "text/javascript; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "png": "image/png"
        case "svg": "image/svg+xml"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }

    /// A gzip stream of `bytes` (libdeflate, level 9), nil when it would not be smaller.
    static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count > 256, let compressor = libdeflate_alloc_compressor(9) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_gzip_compress_bound(compressor, bytes.count))
        let written = bytes.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                libdeflate_gzip_compress(compressor, source.baseAddress, source.count, target.baseAddress, target.count)
            }
        }
        guard written > 0, written < bytes.count else { return nil }
        return Array(out[0..<written])
    }

    /// The folders looked in, in order (see the type's documentation).
    static var searchPaths: [(path: String, live: Bool)] {
        var paths: [(String, Bool)] = []
        if let override = ProcessInfo.processInfo.environment["LOOKAROUND_WEB_DIR"], !override.isEmpty { paths.append((override, true)) }
        var folders = [Bundle.main.bundleURL]
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath().deletingLastPathComponent(), executable != folders[0] {
            folders.append(executable)
        }
        for folder in folders { paths.append((folder.appendingPathComponent("LookAround_Service.resources/web").path, false)) }
        for folder in folders { paths.append((folder.deletingLastPathComponent().appendingPathComponent("share/lookaround/web").path, false)) }
        if folders.contains(where: { $0.path.contains("/.build/") }) {
            paths.append((URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Resources/web").path, false))
        }
        return paths
    }

    private static let loaded: Result<WebResources, ServiceError> = {
        let paths = searchPaths.filter { !$0.live }.map(\.path)
        guard let folder = paths.first(where: { FileManager.default.fileExists(atPath: $0 + "/index.html") }) else {
            return .failure(.internalError(detail: "the web viewer's files are not installed; looked in " + paths.joined(separator: ", ")))
        }
        return .success(WebResources(folder: folder))
    }()

    /// `$LOOKAROUND_WEB_DIR`, read once (the environment and the search paths are not looked at per request).
    private static let live = searchPaths.first(where: \.live)

    /// The files to serve: read once, or on every call from `$LOOKAROUND_WEB_DIR`.
    /// - Throws: `ServiceError.internalError` when no folder holds them.
    static func current() throws(ServiceError) -> WebResources {
        if let live {
            guard FileManager.default.fileExists(atPath: live.path + "/index.html") else {
                throw .internalError(detail: "LOOKAROUND_WEB_DIR=\(live.path) holds no index.html")
            }
            return WebResources(folder: live.path)
        }
        return try loaded.get()
    }
}
