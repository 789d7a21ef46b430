import Foundation

/// Random access to a (possibly multi-gigabyte) file with `pread`: the container's boxes and the
/// telemetry samples are read where they lie, never the whole file.
///
/// `@unchecked Sendable`: its state is `let`; `pread` takes its offset with each call, so reads from
/// several threads do not disturb each other.
final class VideoFileReader: @unchecked Sendable {
    let path: String
    /// The file's size in bytes.
    let size: Int64
    private let descriptor: Int32

    /// Opens `path` for reading.
    /// - Throws: `VideoError.fileNotFound`, `.unreadable`.
    init(path: String) throws(VideoError) {
        self.path = path
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT { throw .fileNotFound(path: path) }
            throw .unreadable(path: path, detail: String(cString: strerror(code)))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(path: path, detail: String(cString: strerror(code)))
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw .unreadable(path: path, detail: "it is a folder")
        }
        descriptor = fd
        size = Int64(info.st_size)
    }

    deinit { close(descriptor) }

    /// `count` bytes at `offset`.
    /// - Throws: `VideoError.badContainer` when the range lies past the end (a truncated file), `.unreadable`.
    func read(at offset: Int64, count: Int) throws(VideoError) -> [UInt8] {
        guard count >= 0, offset >= 0, offset + Int64(count) <= size else {
            throw .badContainer(path: path, detail: "\(count) bytes at offset \(offset) lie past the end of the file "
                                + "(\(size) bytes): it is truncated")
        }
        if count == 0 { return [] }
        var result = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let n = result.withUnsafeMutableBytes { buffer in
                pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreadable(path: path, detail: String(cString: strerror(errno)))
            }
            if n == 0 { throw .badContainer(path: path, detail: "the file ended while reading at offset \(offset + Int64(done))") }
            done += n
        }
        return result
    }
}

/// Big-endian (and little-endian) reads from a byte slice with bounds checks: every parser of camera
/// data reads through this, so a short or lying length is a nil, never a trap.
struct ByteCursor {
    let bytes: [UInt8]
    /// Where reading starts and where it must stop (exclusive).
    var position: Int
    let end: Int

    init(_ bytes: [UInt8], from start: Int = 0, to end: Int? = nil) {
        self.bytes = bytes
        self.position = start
        self.end = min(end ?? bytes.count, bytes.count)
    }

    var remaining: Int { max(0, end - position) }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= remaining else { return false }
        position += count
        return true
    }

    mutating func u8() -> UInt8? {
        guard remaining >= 1 else { return nil }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() -> UInt16? {
        guard remaining >= 2 else { return nil }
        defer { position += 2 }
        return UInt16(bytes[position]) << 8 | UInt16(bytes[position + 1])
    }

    mutating func u32() -> UInt32? {
        guard remaining >= 4 else { return nil }
        defer { position += 4 }
        return Self.u32(bytes, position)
    }

    mutating func u64() -> UInt64? {
        guard let high = u32(), let low = u32() else { return nil }
        return UInt64(high) << 32 | UInt64(low)
    }

    mutating func fourCC() -> String? {
        guard remaining >= 4 else { return nil }
        defer { position += 4 }
        return Self.fourCC(bytes, position)
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= remaining else { return nil }
        defer { position += count }
        return bytes[position..<(position + count)]
    }

    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    /// Four bytes as text (printable ASCII kept, others as `?`).
    static func fourCC<C: Collection>(_ b: C, _ i: C.Index) -> String where C.Element == UInt8 {
        var s = ""
        var index = i
        for _ in 0..<4 {
            let c = b[index]
            s.unicodeScalars.append(Unicode.Scalar(c >= 0x20 && c < 0x7F ? c : UInt8(ascii: "?")))
            index = b.index(after: index)
        }
        return s
    }

    // Little-endian, for CAMM and the Insta360 trailer.
    static func le16(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt16 { UInt16(b[i]) | UInt16(b[i + 1]) << 8 }
    static func le32(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }
    static func le64(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt64 { UInt64(le32(b, i)) | UInt64(le32(b, i + 4)) << 32 }
    static func leDouble(_ b: ArraySlice<UInt8>, _ i: Int) -> Double { Double(bitPattern: le64(b, i)) }
    static func leFloat(_ b: ArraySlice<UInt8>, _ i: Int) -> Float { Float(bitPattern: le32(b, i)) }
}
