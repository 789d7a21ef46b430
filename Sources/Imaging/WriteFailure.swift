import Diagnostics
import Foundation

/// Why a file could not be written, kept as the system's `errno` so that every module names the cause
/// the same way and the CLI can tell "cannot create output" (exit 73: permission denied, read-only
/// file system, missing folder) from an I/O error (exit 74: disk full, quota, file too large, EIO).
public struct WriteFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file that could not be written (the final name, not the temporary one).
    public var path: String
    /// The `errno` of the call that failed.
    public var code: Int32

    /// A failure of `path` with `code` (usually `errno` right after the failing call).
    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    /// The system's words for ``code`` ("No space left on device").
    public var reason: String { String(cString: strerror(code)) }

    /// Whether the output could not be created at all (permissions, read-only or missing folder, a file
    /// where a folder should be), as
    /// opposed to an I/O error while writing it.
    public var isCannotCreate: Bool {
        [EACCES, EPERM, EROFS, ENOENT, ENOTDIR, EISDIR, EEXIST, ENAMETOOLONG, ELOOP].contains(code)
    }

    /// What to do about it.
    public var remedy: String {
        switch code {
        case ENOSPC, EDQUOT: return "free space on that file system or write elsewhere"
        case EFBIG: return "the file is larger than this file system or the process's file-size limit allows; write elsewhere"
        case EACCES, EPERM: return "check the folder's permissions or write elsewhere"
        case EROFS: return "the file system is read-only; write elsewhere"
        case ENOENT, ENOTDIR: return "create the folder first or write elsewhere"
        default: return "check the disk and write elsewhere if it persists"
        }
    }

    public var description: String {
        "cannot write \(path): \(reason) (errno \(code)); \(remedy); nothing was replaced"
    }

    /// Writes `bytes` to `path` atomically: to a temporary file beside it (`.NAME.tmp-PID-N`), synced,
    /// then renamed over it, so a reader never sees half a file and a failure (the disk full, no
    /// permission, a signal) leaves the old file as it was and removes the temporary one.
    /// - Throws: `WriteFailure` naming `path` and the cause.
    public static func writeAtomically(_ bytes: UnsafeRawBufferPointer, to path: String) throws(WriteFailure) {
        let directory = FilePath.directory(of: path)
        let name = FilePath.name(of: path)
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-\(getpid())-\(sequence.add())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteFailure(path: path, code: errno) }
        func fail(_ code: Int32) -> WriteFailure {
            close(descriptor)
            unlink(temporary)
            return WriteFailure(path: path, code: code)
        }
        var offset = 0
        while offset < bytes.count {
            let n = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw fail(n == 0 ? EIO : errno) }
            offset += n
        }
        guard fsync(descriptor) == 0 else { throw fail(errno) }
        guard close(descriptor) == 0 else {
            let code = errno
            unlink(temporary)
            throw WriteFailure(path: path, code: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw WriteFailure(path: path, code: code)
        }
    }

    /// See ``writeAtomically(_:to:)-(UnsafeRawBufferPointer,_)``.
    public static func writeAtomically(_ bytes: [UInt8], to path: String) throws(WriteFailure) {
        let result = bytes.withUnsafeBytes { buffer in Result { () throws(WriteFailure) in try writeAtomically(buffer, to: path) } }
        try result.get()
    }

    /// See ``writeAtomically(_:to:)-(UnsafeRawBufferPointer,_)``.
    public static func writeAtomically(_ data: Data, to path: String) throws(WriteFailure) {
        let result = data.withUnsafeBytes { buffer in Result { () throws(WriteFailure) in try writeAtomically(buffer, to: path) } }
        try result.get()
    }

    /// Whether `name` (a file name, not a path) is a temporary file of ``writeAtomically(_:to:)`` whose
    /// process is gone (killed mid-write): safe to delete.
    public static func isAbandonedTemporary(_ name: String) -> Bool {
        guard name.hasPrefix("."), let range = name.range(of: ".tmp-", options: .backwards) else { return false }
        let pidText = name[range.upperBound...].prefix { $0 != "-" }
        guard let pid = Int32(pidText), pid > 0 else { return false }
        return pid != getpid() && kill(pid, 0) != 0 && errno == ESRCH
    }

    /// Deletes the abandoned temporary files (``isAbandonedTemporary(_:)``) in `directory`.
    /// - Returns: how many were deleted.
    @discardableResult
    public static func removeAbandonedTemporaries(in directory: String) -> Int {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        var removed = 0
        for name in names where isAbandonedTemporary(name) {
            if unlink((directory.isEmpty ? "" : directory + "/") + name) == 0 { removed += 1 }
        }
        return removed
    }

    private static let sequence = WriteSequence()
}

/// Numbers temporary files within a process (two threads writing the same name never collide).
///
/// `@unchecked Sendable`: `next` is read and written under `lock` only.
private final class WriteSequence: @unchecked Sendable {
    private let lock = NSLock()
    private var next = 0
    func add() -> Int { lock.withLock { next += 1; return next } }
}

extension WriteFailure: CategorizedError {
    /// ``ErrorCategory/cannotCreate`` or ``ErrorCategory/io`` (``isCannotCreate``).
    public var category: ErrorCategory { isCannotCreate ? .cannotCreate : .io }
}
