import Foundation

/// The routing graph `lookaround index` stores with the catalog: opaque bytes and their format
/// version. Routing (beside Catalog in the layering, not below it) writes and reads the bytes; the
/// catalog only keeps them, with the signature of the OSM files they were built from, so an index run
/// over unchanged extracts keeps the graph and a changed extract (or `--full`) rebuilds it.
public struct CatalogStreetGraph: Sendable, Hashable {
    /// The version of the bytes' layout (`RoutingGraph.serializationFormatVersion` when written).
    public var formatVersion: Int
    /// The OSM files it was built from, with their sizes and modification times (``signature(of:)``).
    public var sourceSignature: String
    /// The graph.
    public var data: [UInt8]

    /// A graph with its format version and the signature of the files it was built from.
    public init(formatVersion: Int, sourceSignature: String, data: [UInt8]) {
        self.formatVersion = formatVersion
        self.sourceSignature = sourceSignature
        self.data = data
    }

    /// The files' paths, sizes and modification times (nanoseconds), one per line: what tells an index
    /// run that the extracts changed. Nil when one cannot be read.
    public static func signature(of osmFiles: [String]) -> String? {
        var lines: [String] = []
        for path in osmFiles {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            let nanoseconds = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            lines.append("\(URL(fileURLWithPath: path).standardizedFileURL.path)\t\(info.st_size)\t\(nanoseconds)")
        }
        return lines.joined(separator: "\n")
    }
}

/// Builds the routing graph `lookaround index` stores with the catalog. The implementation is above
/// Catalog (it needs Routing), so that Catalog does not link the router.
public protocol StreetGraphBuilding: Sendable {
    /// The format version of the bytes ``graphData(osmFiles:)`` returns; a stored graph of another
    /// version is rebuilt.
    var formatVersion: Int { get }
    /// The graph of the street network of `osmFiles`, as bytes.
    /// - Throws: when a file cannot be read.
    func graphData(osmFiles: [String]) throws -> [UInt8]
}

/// What an index run did with the routing graph.
public struct StreetGraphReport: Sendable, Hashable, Codable {
    /// Bytes stored.
    public var bytes: Int
    /// Kept from the previous catalog (the extracts unchanged) rather than built.
    public var reused: Bool
    /// Seconds spent building it (0 when reused).
    public var buildSeconds: Double
}
