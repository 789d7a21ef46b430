import CDeflate
import Foundation

/// The web viewer's files (the page, `lookaround.js` and its modules, styles, Leaflet):
/// `Sources/Service/Resources/web`, read once into memory with a gzip copy of each text file and an ETag,
/// so a page costs no disk read and no compression per request. Besides the files on disk it serves
/// the page assembled from its parts (``WebPage``, `/index.html`) and the viewer's shared facts as a
/// module (``ViewerFacts/module``, `/lookaround/facts.js`); the parts themselves and the type
/// declarations (`*.d.ts`, for the type checker) are not served.
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

        init(contentType: String, bytes: [UInt8]) {
            self.contentType = contentType
            self.bytes = bytes
            gzipped = contentType.hasPrefix("image/png") ? nil : WebResources.gzip(bytes)
            etag = entityTag(of: bytes)
        }

        /// An HTML page.
        init(html: String) { self.init(contentType: WebResources.contentType(ofExtension: "html"), bytes: Array(html.utf8)) }
    }

    /// Files by URL path (`/app.js`, `/leaflet/images/layers.png`, `/index.html`, `/lookaround/facts.js`).
    let files: [String: File]
    /// Where they were read from.
    let folder: String
    /// The page, from its parts.
    let page: WebPage

    /// The folder's parts of the page, under it.
    static let partsFolder = "/page/"

    /// Reads `folder`.
    /// - Throws: `ServiceError.internalError` when a part of the page is missing.
    init(folder: String) throws(ServiceError) {
        self.folder = folder
        var files: [String: File] = [:]
        var parts: [String: String] = [:]
        let root = URL(fileURLWithPath: folder)
        let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true,
                  let data = FileManager.default.contents(atPath: url.path) else { continue }
            let relative = url.path.dropFirst(root.path.count)
            let path = relative.hasPrefix("/") ? String(relative) : "/" + relative
            if path.hasPrefix(Self.partsFolder) {
                parts[String(path.dropFirst(Self.partsFolder.count))] = String(decoding: data, as: UTF8.self)
                continue
            }
            if path.hasSuffix(".d.ts") { continue }
            files[path] = File(contentType: Self.contentType(ofExtension: url.pathExtension), bytes: [UInt8](data))
        }
        page = try WebPage(parts: parts, folder: folder + Self.partsFolder)
        files["/index.html"] = page.plain
        files["/lookaround/facts.js"] = File(contentType: Self.contentType(ofExtension: "js"), bytes: ViewerFacts.module)
        self.files = files
    }

    /// Whether `path` may name one of the page's files: a script, style sheet or icon at the top, a
    /// module under `/lookaround/`, anything under `/leaflet/`; never `..` or an empty segment. (Whether
    /// the file exists is asked of ``files``.)
    static func isFilePath(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.contains(".."), !path.contains("//") else { return false }
        if path.hasPrefix("/leaflet/") { return true }
        let parts = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 1 || (parts.count == 2 && ["lookaround", "app"].contains(parts[0])) else { return false }
        return [".js", ".css", ".svg"].contains { path.hasSuffix($0) }
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

    /// The file every copy of the page's files has.
    static let marker = partsFolder + WebPage.partNames[0]

    private static let loaded: Result<WebResources, ServiceError> = {
        let paths = searchPaths.filter { !$0.live }.map(\.path)
        guard let folder = paths.first(where: { FileManager.default.fileExists(atPath: $0 + marker) }) else {
            return .failure(.internalError(detail: "the web viewer's files are not installed; looked in " + paths.joined(separator: ", ")))
        }
        return Result { () throws(ServiceError) in try WebResources(folder: folder) }
    }()

    /// `$LOOKAROUND_WEB_DIR`, read once (the environment and the search paths are not looked at per request).
    private static let live = searchPaths.first(where: \.live)

    /// The files to serve: read once, or on every call from `$LOOKAROUND_WEB_DIR`.
    /// - Throws: `ServiceError.internalError` when no folder holds them.
    static func current() throws(ServiceError) -> WebResources {
        if let live {
            guard FileManager.default.fileExists(atPath: live.path + marker) else {
                throw .internalError(detail: "LOOKAROUND_WEB_DIR=\(live.path) holds no \(marker.dropFirst())")
            }
            return try WebResources(folder: live.path)
        }
        return try loaded.get()
    }
}
