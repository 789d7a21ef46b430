import Foundation
import Imaging
import Synchronization

/// Which block of which version of which object.
struct BlockKey: Hashable, Sendable {
    var location: String
    var etag: String
    var index: Int
}

/// Fetched blocks of objects kept in memory, least recently used first out, bounded in bytes.
final class MemoryBlockCache: Sendable {
    let capacityBytes: Int
    private struct State {
        var entries: [BlockKey: (bytes: [UInt8], lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }
    private let state = Mutex(State())

    init(capacityBytes: Int) { self.capacityBytes = max(0, capacityBytes) }

    func block(_ key: BlockKey) -> [UInt8]? {
        state.withLock { state in
            guard let entry = state.entries[key] else { return nil }
            state.clock += 1
            state.entries[key] = (entry.bytes, state.clock)
            return entry.bytes
        }
    }

    func insert(_ bytes: [UInt8], for key: BlockKey) {
        guard bytes.count <= capacityBytes else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.bytes -= old.bytes.count }
            state.entries[key] = (bytes, state.clock)
            state.bytes += bytes.count
            guard state.bytes > capacityBytes else { return }
            // Evict in a batch (down to 7/8 of the capacity), oldest first: one sort per batch.
            let target = capacityBytes - capacityBytes / 8
            for (old, entry) in state.entries.sorted(by: { $0.value.lastUse < $1.value.lastUse }) {
                guard state.bytes > target else { break }
                if old == key { continue }
                state.entries[old] = nil
                state.bytes -= entry.bytes.count
            }
        }
    }

    /// Forgets every block of `location`.
    func remove(location: String) {
        state.withLock { state in
            for key in state.entries.keys where key.location == location {
                state.bytes -= state.entries[key]!.bytes.count
                state.entries[key] = nil
            }
        }
    }

    var bytesInUse: Int { state.withLock { $0.bytes } }
}

/// Fetched blocks of objects kept in files under a folder, bounded in bytes, least recently used
/// first out, shared safely by any number of processes:
///
/// - A block is one file, named by the SHA-256 of its object, ETag, block size and index (so a changed
///   object's blocks never answer for the new version), in one of 256 subfolders.
/// - Files are written to a temporary name and renamed: a reader sees a whole block or none.
/// - A hit touches the file's modification time (at most once a minute): the LRU order.
/// - When this process has added an eighth of the bound since it last looked, it takes the folder's
///   lock file (`flock`, non-blocking: if another process holds it, that one is trimming) and deletes
///   the least recently used files until the folder is at 7/8 of the bound, and temporary files over an
///   hour old (a writer killed mid-way). Between trims N processes may overshoot by N eighths.
/// - A file deleted while another process reads it stays readable to that reader (POSIX), and a
///   missing or short file is a miss.
final class DiskBlockCache: Sendable {
    let directory: String
    let capacityBytes: Int
    private let addedSinceTrim = Mutex(0)
    private let sequence = Mutex(0)
    /// Hits refresh a file's time only when it is older than this, seconds.
    static let touchIntervalSeconds: Double = 60
    /// Temporary files older than this were left by a killed writer, seconds.
    static let abandonedSeconds: Double = 3600

    /// A cache in `directory` (created when missing) holding about `capacityBytes`.
    /// - Throws: `StorageError.cannotWrite` when the folder cannot be created or written.
    init(directory: String, capacityBytes: Int) throws(StorageError) {
        self.directory = directory.hasSuffix("/") ? String(directory.dropLast()) : directory
        self.capacityBytes = max(1 << 20, capacityBytes)
        let root = self.directory + "/objects-v1"
        do {
            try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw .cannotWrite(WriteFailure(path: directory, code: (error as NSError).posixCode ?? EACCES))
        }
        guard access(root, W_OK) == 0 else { throw .cannotWrite(WriteFailure(path: directory, code: errno)) }
        trimIfNeeded(force: true)
    }

    private var root: String { directory + "/objects-v1" }

    func path(of key: BlockKey, blockSize: Int) -> String {
        let name = Digest.hex(Digest.sha256("\(key.location)\u{0}\(key.etag)\u{0}\(blockSize)\u{0}\(key.index)"))
        return "\(root)/\(name.prefix(2))/\(name.dropFirst(2))"
    }

    /// The block, when a whole one of `length` bytes is on disk.
    func block(_ key: BlockKey, blockSize: Int, length: Int) -> [UInt8]? {
        let path = path(of: key, blockSize: blockSize)
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, Int(info.st_size) == length else { return nil }
        var bytes = [UInt8](repeating: 0, count: length)
        let read = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, length, 0) }
        guard read == length else { return nil }
        if Date().timeIntervalSince1970 - Double(info.st_mtim.tv_sec) > Self.touchIntervalSeconds {
            futimens(descriptor, nil)
        }
        return bytes
    }

    /// Stores a block (best effort: a full disk or a permission problem leaves it uncached).
    func insert(_ bytes: [UInt8], for key: BlockKey, blockSize: Int) {
        let path = path(of: key, blockSize: blockSize)
        let folder = String(path[..<path.lastIndex(of: "/")!])
        mkdir(folder, 0o755)
        let temporary = folder + "/.tmp-\(getpid())-\(sequence.withLock { n in n += 1; return n })"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == bytes.count, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
        let due = addedSinceTrim.withLock { added in
            added += bytes.count
            return added > capacityBytes / 8
        }
        if due { trimIfNeeded(force: false) }
    }

    /// The files of the cache and their total size.
    func usage() -> (files: Int, bytes: Int) {
        var files = 0, bytes = 0
        forEachFile { _, size, _, temporary in
            if !temporary { files += 1 }
            bytes += size
        }
        return (files, bytes)
    }

    private func forEachFile(_ body: (_ path: String, _ size: Int, _ modified: Double, _ temporary: Bool) -> Void) {
        guard let folders = try? FileManager.default.contentsOfDirectory(atPath: root) else { return }
        for folder in folders where folder.count == 2 {
            let path = root + "/" + folder
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: path) else { continue }
            for name in names {
                var info = stat()
                let file = path + "/" + name
                guard stat(file, &info) == 0 else { continue }
                body(file, Int(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9, name.hasPrefix(".tmp-"))
            }
        }
    }

    /// Deletes least recently used blocks down to 7/8 of the bound when over it (see the type's summary).
    func trimIfNeeded(force: Bool) {
        addedSinceTrim.withLock { $0 = 0 }
        let lockPath = root + "/.lock"
        let descriptor = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else { return }
        defer { flock(descriptor, LOCK_UN) }
        var files: [(path: String, size: Int, modified: Double)] = []
        var total = 0
        let now = Date().timeIntervalSince1970
        forEachFile { path, size, modified, temporary in
            if temporary {
                if now - modified > Self.abandonedSeconds { unlink(path) }
                return
            }
            files.append((path, size, modified))
            total += size
        }
        guard total > capacityBytes else { return }
        let target = capacityBytes - capacityBytes / 8
        for file in files.sorted(by: { $0.modified < $1.modified }) {
            guard total > target else { break }
            if unlink(file.path) == 0 { total -= file.size }
        }
    }
}

extension NSError {
    /// The POSIX errno under a Foundation file error.
    var posixCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.posixCode
    }
}
