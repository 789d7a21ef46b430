import Foundation

/// Reading and writing whole files, atomically.
public enum ImageFile {
    /// Reads a file's bytes; a missing or unreadable file is an `ImagingError.io` naming the path.
    public static func read(_ path: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path) else {
            let exists = FileManager.default.fileExists(atPath: path)
            throw ImagingError.io(path: path, detail: exists ? "cannot be read (check its permissions)"
                                                             : "no such file")
        }
        return [UInt8](data)
    }

    /// Writes bytes atomically: to a temporary file beside `path`, then renamed over it,
    /// so a reader never sees a half-written image and a failure leaves the old file intact.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ImagingError.io(path: path, detail: "cannot be written: \(error.localizedDescription)")
        }
    }
}
