import Catalog
import Foundation
import Imaging

/// What `lookaround serve` serves and its limits.
public struct ServiceConfiguration: Sendable {
    /// The catalog: a file or a `postgres://` URL (default `$LOOKAROUND_CATALOG`, else `Panoramas/catalog.sqlite`).
    public var catalogPath = Catalog.defaultPath
    /// How often a PostGIS catalog's revision is polled, seconds: a new revision (an index run
    /// finished) drops every cached answer. 0 = never. SQLite catalogs are not polled (an open file
    /// never changes).
    public var catalogPollSeconds = 2.0
    /// Connections to a PostGIS catalog this process keeps at most.
    public var catalogConnections = 8
    /// The OSM extract `/v1/map` draws (default the shipped Helsinki extract beside the catalog).
    public var osmPath: String?
    /// Accepted API keys; empty = no key needed.
    public var apiKeys: [String] = []
    /// Largest image a request may ask for, pixels (snapshots, maps, Street View images).
    public var maximumImagePixels = 4_000_000
    /// Memory for decoded panorama tiles and cached answers, MiB (three quarters tiles, a quarter answers).
    public var cacheMegabytes = 256
    /// Requests in one `POST /v1/scenes` batch at most.
    public var maximumBatchCount = 1_000
    /// The HTTP layer: address, threads, body and header limits, timeouts.
    public var http = HTTPServerConfiguration()
    /// The access log (a file, "-" for stdout), or nil for none.
    public var accessLogPath: String?
    /// Where clients fetch imagery in object storage directly (`--public-imagery-url`), nil for nowhere.
    public var publicImagery: PublicImageryURL?
    /// Panoramax-compatible uploads (`--upload-key-file`), nil for none: the upload routes answer 403.
    public var uploads: UploadSettings?

    /// The defaults.
    public init() {}

    /// The OSM extract maps are drawn from: `osmPath`, else the first `*.osm.pbf` or `*.osm` in
    /// `sources/` beside the catalog (where `lookaround index` looks for it).
    public var resolvedOSMPath: String? {
        if let osmPath { return osmPath }
        guard let catalogFile = (try? CatalogLocation(parsing: catalogPath))?.filePath else { return nil }
        let sources = FilePath.joining(FilePath.directory(of: catalogFile), "sources")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []).sorted()
        return names.first { $0.hasSuffix(".osm.pbf") || $0.hasSuffix(".osm") }
            .map { (sources as NSString).appendingPathComponent($0) }
    }

    /// Reads API keys from `path`: one per line; blank lines and lines starting with `#` are skipped.
    /// - Throws: `ServiceError.badConfiguration` when the file cannot be read or holds no key.
    public static func apiKeys(fromFile path: String) throws(ServiceError) -> [String] {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .badConfiguration(file: path, detail: FileManager.default.fileExists(atPath: path)
                                    ? "cannot be read" : "no such API key file; write one key per line")
        }
        let keys = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard !keys.isEmpty else { throw .badConfiguration(file: path, detail: "holds no API key; write one key per line") }
        return keys
    }
}

/// API keys compared in constant time: every request compares against every key over the longest
/// key's length, so timing tells nothing about how much of a guess was right.
struct APIKeys: Sendable {
    private let keys: [[UInt8]]
    private let length: Int

    init(_ keys: [String]) {
        self.keys = keys.map { Array($0.utf8) }
        length = self.keys.map(\.count).max() ?? 0
    }

    /// Whether keys are required at all.
    var isEnabled: Bool { !keys.isEmpty }

    /// Whether `candidate` is one of the keys.
    func accepts(_ candidate: String?) -> Bool {
        guard isEnabled else { return true }
        let given = Array((candidate ?? "").utf8)
        var matched: UInt8 = 0
        for key in keys {
            var difference: UInt8 = key.count == given.count ? 0 : 1
            for i in 0..<length {
                let a = i < key.count ? key[i] : 0, b = i < given.count ? given[i] : 0
                difference |= a ^ b
            }
            matched |= difference == 0 ? 1 : 0
        }
        return matched == 1 && !given.isEmpty
    }
}
