import TestSupport
import Foundation
import Imaging

/// Loads a file from the test bundle's `Fixtures` folder (`relative` like "corrupt/zero-bytes.bin").
func fixture(_ relative: String) throws -> [UInt8] {
    guard let base = Bundle.module.resourceURL else { throw ImagingError.io(path: relative, detail: "no resource bundle") }
    return try ImageFile.read(base.appendingPathComponent("Fixtures").appendingPathComponent(relative).path)
}

/// The kind of an `ImagingError`, for table-driven expectations.
enum ErrorKind: String, Sendable {
    case empty, wrongFormat, corrupt, truncated, exceedsPixelBudget, unsupported, invalidParameter, metadata, other
}

func kind(of error: any Error) -> ErrorKind {
    guard let error = error as? ImagingError else { return .other }
    switch error {
    case .empty: return .empty
    case .wrongFormat: return .wrongFormat
    case .corrupt: return .corrupt
    case .truncated: return .truncated
    case .exceedsPixelBudget: return .exceedsPixelBudget
    case .unsupported: return .unsupported
    case .invalidParameter: return .invalidParameter
    case .metadata: return .metadata
    default: return .other
    }
}


/// Test content with noise, flat areas (runs) and gradients, so every coder path is exercised.
func mixedBytes(count: Int, seed: UInt64) -> [UInt8] {
    var rng = SeededGenerator(seed: seed)
    var out = [UInt8](repeating: 0, count: count)
    for i in 0..<count {
        switch (i / 97) % 4 {
        case 0: out[i] = UInt8.random(in: 0...255, using: &rng)
        case 1: out[i] = 200                                   // flat: long runs
        case 2: out[i] = UInt8(truncatingIfNeeded: i / 3)     // gradient
        default: out[i] = UInt8(truncatingIfNeeded: 120 + Int.random(in: -3...3, using: &rng))
        }
    }
    return out
}

/// Mean absolute difference of two equally sized byte arrays.
func meanAbsoluteDifference(_ a: [UInt8], _ b: [UInt8]) -> Double {
    precondition(a.count == b.count)
    var sum = 0
    for i in a.indices { sum += abs(Int(a[i]) - Int(b[i])) }
    return Double(sum) / Double(max(1, a.count))
}
