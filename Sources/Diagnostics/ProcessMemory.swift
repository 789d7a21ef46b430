import Foundation

/// This process's memory, as Linux counts it.
public enum ProcessMemory {
    /// The peak resident set so far, bytes: `VmHWM` of /proc/self/status, the high-water mark of this
    /// program's own memory; nil where there is no /proc. (`getrusage`'s `ru_maxrss` is no use for a
    /// spawned program: Linux carries the spawning process's high-water mark across `execve`, so a run
    /// started by a large process reports that one.)
    public static func peakResidentBytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        return status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.dropFirst(6).filter(\.isNumber)) }.map { $0 * 1024 }
    }
}
