import Foundation

/// What a file's first bytes say it is, checked before libreadosm sees it, so that errors can say
/// what was found instead of libreadosm's bare error codes.
enum OSMFileFormat: Equatable {
    case pbf
    case xml
    case gzip
    case bzip2
    case other(String)

    /// Sniffs up to the first 1 KiB of `path`.
    static func sniff(path: String) throws -> OSMFileFormat {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw MapDataError.unreadable(path: path, reason: "permission denied or not a regular file")
        }
        defer { try? handle.close() }
        let head: [UInt8]
        do {
            head = [UInt8](try handle.read(upToCount: 1024) ?? Data())
        } catch {
            throw MapDataError.unreadable(path: path, reason: "\(error)")
        }
        return classify(head)
    }

    static func classify(_ head: [UInt8]) -> OSMFileFormat {
        if head.isEmpty { return .other("an empty file") }
        if head.starts(with: [0x1F, 0x8B]) { return .gzip }
        if head.starts(with: Array("BZh".utf8)) { return .bzip2 }
        // PBF: 4-byte big-endian BlobHeader length, then field 1 (type) = "OSMHeader".
        if head.count >= 15, head[4] == 0x0A, head[5] == 9,
           Array(head[6..<15]) == Array("OSMHeader".utf8) {
            return .pbf
        }
        let text = String(decoding: head, as: UTF8.self)
        let trimmed = text.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if trimmed.hasPrefix("<") {
            if text.contains("<osm") { return .xml }
            let root = trimmed.dropFirst().prefix { !$0.isWhitespace && $0 != ">" }
            if root.hasPrefix("?xml") {
                let second = trimmed.split(separator: "<").dropFirst().first?
                    .prefix { !$0.isWhitespace && $0 != ">" } ?? ""
                return .other("XML whose root element is <\(second)>, not <osm>")
            }
            return .other("XML/HTML whose root element is <\(root)>, not <osm>")
        }
        let signatures: [([UInt8], String)] = [
            ([0x89, 0x50, 0x4E, 0x47], "a PNG image"), ([0xFF, 0xD8, 0xFF], "a JPEG image"),
            (Array("%PDF".utf8), "a PDF document"), ([0x50, 0x4B, 0x03, 0x04], "a ZIP archive"),
            (Array("GIF8".utf8), "a GIF image"), (Array("SQLite format 3".utf8), "an SQLite database"),
        ]
        for (magic, name) in signatures where head.starts(with: magic) { return .other(name) }
        if head.count >= 8, head[4] == 0x0A, head[5] < 0x80 {
            return .other("a protocol-buffer blob that is not an OSM PBF header")
        }
        let printable = !head.prefix(64).contains { $0 < 9 || ($0 > 13 && $0 < 32) || $0 == 127 }
        if printable {
            let start = String(decoding: head.prefix(40), as: UTF8.self)
                .replacingOccurrences(of: "\n", with: "\\n")
            return .other("text starting with \"\(start)\"")
        }
        let hex = head.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
        return .other("binary data starting with \(hex)")
    }

    /// The compressions of all blobs in a PBF file ("zlib", "lz4", "zstd", "lzma", "bzip2", "raw"),
    /// read from the blob headers without decoding any data; empty if the framing is unreadable.
    static func pbfBlobCompressions(path: String) -> Set<String> {
        guard let handle = FileHandle(forReadingAtPath: path) else { return [] }
        defer { try? handle.close() }
        var found: Set<String> = []
        var offset: UInt64 = 0
        for _ in 0..<100_000 {
            guard (try? handle.seek(toOffset: offset)) != nil,
                  let lengthBytes = try? handle.read(upToCount: 4), lengthBytes.count == 4 else { break }
            let headerLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            guard headerLength > 0, headerLength < 64 * 1024,
                  let header = try? handle.read(upToCount: headerLength), header.count == headerLength,
                  let dataSize = ProtobufScan.varintField(3, in: [UInt8](header)), dataSize > 0,
                  let blobHead = try? handle.read(upToCount: min(Int(dataSize), 32)) else { break }
            if let field = ProtobufScan.firstLengthDelimitedField(in: [UInt8](blobHead)) {
                switch field {
                case 1: found.insert("raw")
                case 3: found.insert("zlib")
                case 4: found.insert("lzma")
                case 5: found.insert("bzip2")
                case 6: found.insert("lz4")
                case 7: found.insert("zstd")
                default: found.insert("unknown (field \(field))")
                }
            }
            offset += 4 + UInt64(headerLength) + dataSize
        }
        return found
    }

    /// Describes a break in the PBF block framing (a truncated file), or nil when every block header
    /// and block fits in the file.
    static func pbfFramingProblem(path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path),
              let size = try? handle.seekToEnd() else { return nil }
        defer { try? handle.close() }
        var offset: UInt64 = 0
        while offset < size {
            guard (try? handle.seek(toOffset: offset)) != nil,
                  let lengthBytes = try? handle.read(upToCount: 4), lengthBytes.count == 4 else {
                return "the file ends inside the block header at byte \(offset) (\(size) bytes in all): it is truncated"
            }
            let headerLength = UInt64(lengthBytes.reduce(0) { $0 << 8 | Int($1) })
            guard offset + 4 + headerLength <= size,
                  let header = try? handle.read(upToCount: Int(headerLength)),
                  let dataSize = ProtobufScan.varintField(3, in: [UInt8](header)) else {
                return "the block header at byte \(offset) is cut off or unreadable (\(size) bytes in all): "
                    + "the file is truncated or corrupt"
            }
            let end = offset + 4 + headerLength + dataSize
            if end > size {
                return "the block at byte \(offset) needs \(end) bytes but the file has \(size): it is truncated"
            }
            offset = end
        }
        return nil
    }

    /// The OSM PBF format's limits (wiki "PBF Format"): a BlobHeader under 64 KiB, a Blob and its
    /// uncompressed data at most 32 MiB.
    static let maximumPBFBlockHeaderBytes: UInt64 = 64 * 1024
    static let maximumPBFBlobBytes: UInt64 = 32 * 1024 * 1024

    /// Checks every block's claimed sizes against the format's limits without reading block data
    /// (field keys and lengths only), so libreadosm never allocates what a hostile header claims.
    /// A framing break (truncation) is left to libreadosm and ``pbfFramingProblem(path:)``.
    /// - Throws: `MapDataError.pbfBlockTooLarge` naming the block, the claim and the limit.
    static func checkPBFBlockSizes(path: String) throws {
        guard let handle = FileHandle(forReadingAtPath: path), let size = try? handle.seekToEnd() else { return }
        defer { try? handle.close() }
        func bytes(at offset: UInt64, _ count: Int) -> [UInt8] {
            guard (try? handle.seek(toOffset: offset)) != nil else { return [] }
            return [UInt8]((try? handle.read(upToCount: count)) ?? Data())
        }
        func tooLarge(_ offset: UInt64, _ what: String, _ claimed: UInt64, _ limit: UInt64) -> MapDataError {
            .pbfBlockTooLarge(path: path, offset: offset, what: what, claimedBytes: claimed, limitBytes: limit)
        }
        var offset: UInt64 = 0
        while offset + 4 <= size {
            let lengthBytes = bytes(at: offset, 4)
            guard lengthBytes.count == 4 else { return }
            let headerLength = lengthBytes.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            guard headerLength <= maximumPBFBlockHeaderBytes else {
                throw tooLarge(offset, "block header", headerLength, maximumPBFBlockHeaderBytes)
            }
            let header = bytes(at: offset + 4, Int(headerLength))
            guard header.count == Int(headerLength), let dataSize = ProtobufScan.varintField(3, in: header) else { return }
            guard dataSize <= maximumPBFBlobBytes else { throw tooLarge(offset, "block", dataSize, maximumPBFBlobBytes) }
            // The Blob's fields: raw_size (2, varint) is what libreadosm allocates for inflating.
            let blobStart = offset + 4 + headerLength, blobEnd = blobStart + dataSize
            var field = blobStart
            for _ in 0..<16 where field < blobEnd {
                let head = bytes(at: field, 20)
                var i = 0
                guard let key = ProtobufScan.varint(head, &i) else { break }
                if key & 7 == 0 {
                    guard let value = ProtobufScan.varint(head, &i) else { break }
                    if key >> 3 == 2, value > maximumPBFBlobBytes {
                        throw tooLarge(offset, "uncompressed block", value, maximumPBFBlobBytes)
                    }
                    field += UInt64(i)
                } else if key & 7 == 2 {
                    guard let length = ProtobufScan.varint(head, &i) else { break }
                    field += UInt64(i) &+ length
                } else {
                    break
                }
            }
            offset = blobEnd
        }
    }
}
