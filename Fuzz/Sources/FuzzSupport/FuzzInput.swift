@_exported import CLibFuzzer
import Foundation

/// The bytes libFuzzer hands a target, and the ways targets turn them into what a reader takes.
public enum FuzzInput {
    /// The type of `LLVMFuzzerTestOneInput`.
    public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32

    /// Runs libFuzzer's driver with the command line: what each target's `<Module>_main` does
    /// (SwiftPM points the executable's `main` there; libFuzzer's own `main` would be the same call).
    public static func run(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                           _ test: TestOneInput) -> Int32 {
        var count = argc
        var vector = argv
        return LLVMFuzzerRunDriver(&count, &vector, test)
    }

    /// Copies libFuzzer's buffer (it may be `nil` for the empty input).
    public static func bytes(_ data: UnsafePointer<UInt8>?, _ count: Int) -> [UInt8] {
        guard let data, count > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: count))
    }

    /// A scratch file for readers that take a path, one per process (libFuzzer's `-fork`/`-jobs`
    /// workers are separate processes), rewritten for every input.
    public static let scratchDirectory: String = {
        let path = NSTemporaryDirectory() + "lookaround-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    /// Writes `bytes` to `name` in the scratch directory and returns its path.
    public static func file(_ bytes: [UInt8], name: String) -> String {
        let path = scratchDirectory + "/" + name
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        precondition(descriptor >= 0, "fuzz scratch file \(path) cannot be written: errno \(errno)")
        bytes.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count {
                let n = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                precondition(n > 0, "fuzz scratch file \(path): short write, errno \(errno)")
                written += n
            }
        }
        close(descriptor)
        return path
    }

    /// Splits the input at the first occurrence of `separator` (the head, then the rest).
    public static func split(_ bytes: [UInt8], at separator: UInt8) -> (head: [UInt8], tail: [UInt8]) {
        guard let index = bytes.firstIndex(of: separator) else { return (bytes, []) }
        return (Array(bytes[..<index]), Array(bytes[(index + 1)...]))
    }
}
