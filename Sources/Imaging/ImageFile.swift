import Foundation

/// Reading and writing whole files, atomically.
public enum ImageFile {
    /// Reads a file's bytes; a missing file is `ImagingError.fileNotFound`, an unreadable one `.io`, naming the path.
    public static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { throw ImagingError.fileNotFound(path: path) }
            throw ImagingError.io(path: path, detail: "cannot be read (check its permissions)")
        }
        return [UInt8](data)
    }

    /// Reads at most the first `maximumBytes` of a file (enough for an image's headers).
    public static func readPrefix(_ path: String, maximumBytes: Int) throws -> [UInt8] {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            guard FileManager.default.fileExists(atPath: path) else { throw ImagingError.fileNotFound(path: path) }
            throw ImagingError.io(path: path, detail: "cannot be read (check its permissions)")
        }
        defer { try? handle.close() }
        do {
            return [UInt8](try handle.read(upToCount: maximumBytes) ?? Data())
        } catch {
            throw ImagingError.io(path: path, detail: "cannot be read: \(error.localizedDescription)")
        }
    }

    /// Writes bytes atomically: to a temporary file beside `path`, then renamed over it,
    /// so a reader never sees a half-written image and a failure leaves the old file intact.
    /// - Throws: `WriteFailure` naming the path and the system's reason (disk full, permission denied).
    public static func write(_ bytes: [UInt8], to path: String) throws(WriteFailure) {
        try WriteFailure.writeAtomically(bytes, to: path)
    }
}
