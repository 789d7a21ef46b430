import Foundation

/// Shared timing and reporting helpers for the benchmark sections.
enum BenchmarkReport {
    /// Prints the machine the figures come from.
    static func header() {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        print("Benchmarks on \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores, "
              + "\(ISO8601DateFormatter().string(from: Date()))")
    }

    /// Median wall time in milliseconds of `runs` calls of `body` (after one warm-up call).
    static func medianMilliseconds(runs: Int = 7, warmUp: Bool = true, _ body: () throws -> Void) rethrows -> Double {
        if warmUp { try body() }
        var times: [Double] = []
        for _ in 0..<runs {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
        }
        times.sort()
        return times[times.count / 2]
    }

    /// Runs an external program to completion; returns wall milliseconds, or nil when it is missing or fails.
    static func runPeer(_ executable: String, _ arguments: [String]) -> Double? {
        guard let path = which(executable) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        do { try process.run() } catch { return nil }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }

    /// The full path of an executable on PATH.
    static func which(_ name: String) -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
