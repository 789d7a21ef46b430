import Diagnostics
/// Everything that can go wrong reading an OSM file (or the world basemap). Each message names the file, what was wrong and
/// what to do about it.
public enum MapDataError: Error, Sendable, Equatable, CustomStringConvertible {
    /// There is no file at `path`.
    case fileNotFound(path: String)
    /// `path` exists but is a directory or cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not OpenStreetMap data; `found` says what it looks like instead.
    case notOSM(path: String, found: String)
    /// A compressed `.osm.gz` / `.osm.bz2` file: libreadosm reads only plain XML and PBF.
    case compressedXML(path: String, compression: String)
    /// OSM data under a name libreadosm refuses: it requires the suffix `.osm` or `.pbf`.
    case unsupportedSuffix(path: String, detectedFormat: String)
    /// A PBF whose blobs use a compression libreadosm cannot decode (it knows zlib and raw only).
    case unsupportedPBFCompression(path: String, compression: String)
    /// A PBF with ways but no nodes: libreadosm silently skips plain (non-dense) `Node` messages.
    case pbfWithoutDenseNodes(path: String, wayCount: Int)
    /// A PBF block claims more bytes than the format allows (`what`: "block header", "block",
    /// "uncompressed block"), refused before libreadosm allocates them: a decompression bomb or a
    /// corrupt file.
    case pbfBlockTooLarge(path: String, offset: UInt64, what: String, claimedBytes: UInt64, limitBytes: UInt64)
    /// libreadosm reported error `code` (a `READOSM_*` value) while opening or parsing.
    case readFailed(path: String, code: Int32, meaning: String)
    /// The world basemap file is not one `scripts/make-world-basemap.py` wrote (or is truncated).
    case malformedWorldBasemap(path: String, detail: String)
    /// No copy of the shipped world basemap was found at any of `searched`.
    case worldBasemapNotFound(searched: [String])

    /// A sentence naming the file, the problem and a remedy.
    public var description: String {
        switch self {
        case .fileNotFound(let path):
            return "\(path): no such file. Pass the path of an .osm.pbf or .osm extract."
        case .unreadable(let path, let reason):
            return "\(path): cannot be read (\(reason)). Pass a readable .osm.pbf or .osm file."
        case .notOSM(let path, let found):
            return "\(path): not OpenStreetMap data; found \(found). Expected an .osm.pbf (PBF) or .osm (XML) extract."
        case .compressedXML(let path, let compression):
            return "\(path): \(compression)-compressed OSM XML, which libreadosm cannot read. "
                + "Decompress it first (e.g. `\(compression == "gzip" ? "gunzip" : "bunzip2") -k \(path)`) "
                + "or convert it to PBF (`osmium cat \(path) -o out.osm.pbf`)."
        case .unsupportedSuffix(let path, let format):
            return "\(path): looks like \(format), but libreadosm only opens files named *.osm or *.pbf. "
                + "Rename or link it with the right suffix."
        case .unsupportedPBFCompression(let path, let compression):
            return "\(path): PBF blobs are \(compression)-compressed; libreadosm decodes only zlib and "
                + "uncompressed blobs. Re-write it with `osmium cat \(path) -o out.osm.pbf` "
                + "(zlib is osmium's default)."
        case .pbfWithoutDenseNodes(let path, let wayCount):
            return "\(path): the PBF has \(wayCount) way\(wayCount == 1 ? "" : "s") but libreadosm found 0 nodes: the nodes are stored "
                + "as plain (non-dense) Node messages, which libreadosm silently skips. Re-write it with "
                + "`osmium cat \(path) -o out.osm.pbf` (dense nodes are osmium's default)."
        case .pbfBlockTooLarge(let path, let offset, let what, let claimed, let limit):
            return "\(path): the \(what) at byte \(offset) claims \(claimed) bytes, over the OSM PBF limit of \(limit) bytes; "
                + "the file is corrupt or hostile: download or export the extract again"
        case .readFailed(let path, let code, let meaning):
            return "\(path): libreadosm error \(code) (\(meaning)). Check that the file is a complete, "
                + "uncorrupted extract; re-export it if needed."
        case .malformedWorldBasemap(let path, let detail):
            return "\(path): not a valid world basemap: \(detail). Regenerate it with scripts/make-world-basemap.py."
        case .worldBasemapNotFound(let searched):
            return "the world basemap (\(WorldBasemap.shippedFileName)) is not at any of: \(searched.joined(separator: ", ")). "
                + "Set LOOKAROUND_WORLD_BASEMAP to its path, or keep LookAround_MapData.resources beside the executable."
        }
    }
}

extension MapDataError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .fileNotFound, .worldBasemapNotFound, .unreadable: .missingInput
        case .readFailed: .io
        case .notOSM, .compressedXML, .unsupportedSuffix, .unsupportedPBFCompression, .pbfWithoutDenseNodes,
             .pbfBlockTooLarge, .malformedWorldBasemap: .badData
        }
    }
}
