import Catalog
import Foundation

/// The STAC documents the `/api` routes answer, written as Panoramax's server (geovisio) writes them,
/// so its clients read ours: the landing catalog, a collection per sequence, an item per panorama
/// (extensions view 1.0 and perspective-imagery 1.0, assets `hd`/`sd`/`thumb`, the tiled-assets
/// template for 360° pictures) and item collections with `next` links. Links are absolute, made from
/// the request's `Host` (and `X-Forwarded-Proto`).
struct STACDocuments {
    /// The STAC version of every document (pystac bundles its schemas, so validators work offline).
    static let stacVersion = "1.1.0"
    /// The conformance classes: STAC API 1.0 core, collections, OGC API Features, item search, browseable.
    static let conformance = [
        "https://api.stacspec.org/v1.0.0/core", "https://api.stacspec.org/v1.0.0/browseable",
        "https://api.stacspec.org/v1.0.0/collections", "https://api.stacspec.org/v1.0.0/ogcapi-features",
        "https://api.stacspec.org/v1.0.0/item-search",
        "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/core", "http://www.opengis.net/spec/ogcapi-features-1/1.0/conf/geojson",
    ]
    static let viewExtension = "https://stac-extensions.github.io/view/v1.0.0/schema.json"
    static let tiledAssetsExtension = "https://stac-extensions.github.io/tiled-assets/v1.0.0/schema.json"
    /// The tiles of a 360° picture's `tiles` template: columns × rows of its full sphere (as geovisio's).
    static let tileColumns = 8, tileRows = 4

    /// `http://HOST/api`.
    let base: String
    /// The names uploaded pictures were sent with (their files are named by picture id), for `original_file:name`.
    var uploadedNames: (any UploadedFileNames)?

    init(request: HTTPRequest) {
        let host = request.headers["host"] ?? "127.0.0.1"
        let scheme = request.headers["x-forwarded-proto"] == "https" ? "https" : "http"
        base = "\(scheme)://\(host)/api"
    }

    /// An id as it goes in a path: slashes kept (the routes split on known suffixes), everything
    /// outside RFC 3986's unreserved characters percent-encoded.
    static func pathComponent(_ id: String) -> String {
        // Most ids need no escaping: checked byte by byte, without Foundation's CharacterSet.
        if id.utf8.allSatisfy(isUnreservedOrSlash) { return id }
        return id.addingPercentEncoding(withAllowedCharacters: pathAllowed) ?? id
    }

    /// RFC 3986's unreserved characters and `/`, as bytes.
    static func isUnreservedOrSlash(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"): true
        default: false
        }
    }

    /// RFC 3986's unreserved characters and `/` (made once: building a CharacterSet costs more than an item).
    static let pathAllowed: CharacterSet = {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~/")
        return allowed
    }()

    func collectionURL(_ name: String) -> String { "\(base)/collections/\(Self.pathComponent(name))" }
    func itemURL(_ record: PanoramaRecord) -> String {
        "\(collectionURL(record.sequenceName))/items/\(Self.pathComponent(record.id))"
    }
    func pictureURL(_ id: String, _ file: String) -> String { "\(base)/pictures/\(Self.pathComponent(id))/\(file)" }

    static func link(_ writer: inout JSONWriter, _ rel: String, _ href: String, type: String = "application/json",
                     title: String? = nil, extra: (inout JSONWriter) -> Void = { _ in }) {
        writer.beginObject()
        writer.field("rel", rel)
        writer.field("type", type)
        writer.field("href", href)
        writer.field("title", title)
        extra(&writer)
        writer.endObject()
    }

    // MARK: Landing page

    func landing(sequences: [CatalogSequence], panoramaCount: Int) -> [UInt8] {
        var writer = JSONWriter(capacity: 4096)
        writer.beginObject()
        writer.field("type", "Catalog")
        writer.field("stac_version", Self.stacVersion)
        writer.field("id", "lookaround")
        writer.field("title", "lookaround street imagery")
        writer.field("description", "\(panoramaCount) panoramas in \(sequences.count) sequences, as a STAC API shaped as Panoramax's")
        writer.key("conformsTo")
        writer.beginArray()
        for uri in Self.conformance { writer.value(uri) }
        writer.endArray()
        writer.key("links")
        writer.beginArray()
        Self.link(&writer, "self", base)
        Self.link(&writer, "root", base)
        Self.link(&writer, "conformance", "\(base)/conformance")
        Self.link(&writer, "data", "\(base)/collections", title: "Sequences")
        Self.link(&writer, "search", "\(base)/search", type: "application/geo+json", title: "Item search") { $0.field("method", "GET") }
        Self.link(&writer, "search", "\(base)/search", type: "application/geo+json", title: "Item search") { $0.field("method", "POST") }
        Self.link(&writer, "xyz", "\(base)/map/{z}/{x}/{y}.mvt", type: "application/vnd.mapbox-vector-tile", title: "Coverage vector tiles")
        Self.link(&writer, "xyz-style", "\(base)/map/style.json", title: "MapLibre style of the coverage")
        Self.link(&writer, "service-desc", base.replacingOccurrences(of: "/api", with: "/v1/openapi.json"),
                  type: "application/vnd.oai.openapi+json;version=3.0")
        for sequence in sequences { Self.link(&writer, "child", collectionURL(sequence.name), title: sequence.name) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    func conformanceDocument() -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        writer.beginObject()
        writer.key("conformsTo")
        writer.beginArray()
        for uri in Self.conformance { writer.value(uri) }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }

    // MARK: Collections

    func writeCollection(_ writer: inout JSONWriter, _ sequence: CatalogSequence) {
        writer.beginObject()
        writer.field("type", "Collection")
        writer.field("stac_version", Self.stacVersion)
        writer.key("stac_extensions")
        writer.beginArray()
        writer.endArray()
        writer.field("id", sequence.name)
        writer.field("title", sequence.name)
        writer.field("description", "A sequence of \(sequence.panoramaCount) geolocated pictures")
        writer.field("license", "other")
        writer.key("keywords")
        writer.beginArray()
        writer.value("pictures")
        writer.value(sequence.name)
        writer.endArray()
        writer.key("extent")
        writer.beginObject()
        writer.key("spatial")
        writer.beginObject()
        writer.key("bbox")
        writer.beginArray()
        writer.beginArray()
        for value in [sequence.west, sequence.south, sequence.east, sequence.north] { writer.value(value) }
        writer.endArray()
        writer.endArray()
        writer.endObject()
        writer.key("temporal")
        writer.beginObject()
        writer.key("interval")
        writer.beginArray()
        writer.beginArray()
        writer.value(Catalog.iso8601String(sequence.firstCapture))
        writer.value(Catalog.iso8601String(sequence.lastCapture))
        writer.endArray()
        writer.endArray()
        writer.endObject()
        writer.endObject()
        writer.key("stats:items")
        writer.beginObject()
        writer.field("count", sequence.panoramaCount)
        writer.endObject()
        writer.key("links")
        writer.beginArray()
        Self.link(&writer, "self", collectionURL(sequence.name), title: "Metadata of this sequence")
        Self.link(&writer, "root", base)
        Self.link(&writer, "parent", base, title: "Instance catalog")
        Self.link(&writer, "items", collectionURL(sequence.name) + "/items", type: "application/geo+json", title: "Pictures in this sequence")
        writer.endArray()
        writer.endObject()
    }

    func collection(_ sequence: CatalogSequence) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024)
        writeCollection(&writer, sequence)
        return writer.bytes
    }

    func collections(_ sequences: [CatalogSequence], next: String?) -> [UInt8] {
        var writer = JSONWriter(capacity: 1024 * (sequences.count + 1))
        writer.beginObject()
        writer.key("collections")
        writer.beginArray()
        for sequence in sequences { writeCollection(&writer, sequence) }
        writer.endArray()
        writer.key("links")
        writer.beginArray()
        Self.link(&writer, "self", "\(base)/collections")
        Self.link(&writer, "root", base)
        Self.link(&writer, "parent", base)
        if let next {
            Self.link(&writer, "next", "\(base)/collections?limit=\(sequences.count)&page=\(STACSearchRequest.queryEscaped(next))")
        }
        writer.endArray()
        writer.endObject()
        return writer.bytes
    }
}
