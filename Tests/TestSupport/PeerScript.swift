import Foundation
import Testing

/// Runs a Python script from `scripts/` that wraps an independent tool (pyosmium, py360convert…).
///
/// Convention for those scripts: exit 0 on success, exit 3 with the reason on stderr when the tool they
/// need is not installed. The test is then cancelled — reported as skipped, with the reason — never
/// silently passed; any other exit status is a test failure.
public enum PeerScript {
    /// Runs `python3 SCRIPT ARGUMENTS…` and returns its standard output.
    public static func run(_ script: String, _ arguments: [String],
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> Data {
        let result = try Lookaround.runProcess("/usr/bin/env", ["python3", script] + arguments)
        let stderr = result.stderr.trimmingCharacters(in: .whitespacesAndNewlines)
        let name = URL(fileURLWithPath: script).lastPathComponent
        switch result.exitCode {
        case 0: return Data(result.stdoutBytes)
        case 3: try Test.cancel("skipped: \(stderr)", sourceLocation: sourceLocation)
        case 127: try Test.cancel("skipped: python3 is not on PATH (\(stderr))", sourceLocation: sourceLocation)
        default:
            Issue.record("\(name) exited \(result.exitCode): \(stderr)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
    }
}

/// Deterministic pseudo-random numbers for property tests and test content (SplitMix64), so failures
/// reproduce.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
