import Diagnostics
import Foundation
import Imaging

/// Every error the Simulator module throws. Each message names the bad value, the allowed range or
/// form, and what to do about it.
public enum SimulatorError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A numeric parameter outside its range (`name`, the value as given, the allowed range).
    case invalidParameter(name: String, value: String, allowed: String)
    /// None of the requested streets exists in the data (names asked for, a few names that do).
    case unknownStreets(requested: [String], available: [String])
    /// The data set has no buildings or streets inside the requested area.
    case emptyScene(detail: String)
    /// Planning found no capture position (for example every candidate is inside a building).
    case noCaptures(detail: String)
    /// A capture's file could not be written (disk full, no permission): the system's reason.
    case cannotWrite(WriteFailure)

    /// A message naming the value, the allowed range and a remedy.
    public var description: String {
        switch self {
        case let .invalidParameter(name, value, allowed):
            return "\(name) \(value) is out of range; allowed: \(allowed). Pass a value in that range."
        case let .unknownStreets(requested, available):
            let some = available.prefix(12).joined(separator: ", ")
            return "no street named \(requested.joined(separator: ", ")) in the data; "
                + "streets that exist include: \(some). Check the spelling (names are matched exactly, "
                + "case-insensitively) or widen --bbox."
        case let .emptyScene(detail):
            return "nothing to render: \(detail). Pick a --bbox inside the extract or a larger extract."
        case let .noCaptures(detail):
            return "no capture positions: \(detail). Choose other --streets, a larger --bbox or a smaller --spacing-meters."
        case let .cannotWrite(failure):
            return failure.description
        }
    }
}

extension SimulatorError {
    /// Throws ``invalidParameter(name:value:allowed:)`` unless `range` holds `value` (NaN it never does);
    /// the message shows the value and the range, each followed by `unit` when there is one. The range
    /// checked is the range named.
    static func check<T: Comparable>(_ value: T, in range: ClosedRange<T>, name: String,
                                     unit: String? = nil) throws(SimulatorError) {
        guard !range.contains(value) else { return }
        let suffix = unit.map { " " + $0 } ?? ""
        throw .invalidParameter(name: name, value: "\(value)" + suffix,
                                allowed: "\(text(range.lowerBound))…\(text(range.upperBound))" + suffix)
    }

    /// A range's bound as people write it (`1000`, not `1000.0`).
    private static func text<T>(_ bound: T) -> String {
        if let number = bound as? Double, number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return "\(bound)"
    }
}

extension SimulatorError: CategorizedError {
    public var category: ErrorCategory {
        switch self {
        case .invalidParameter, .unknownStreets: .usage
        case .emptyScene, .noCaptures: .badData
        case .cannotWrite(let failure): failure.category
        }
    }

    public var invalidValue: InvalidValue? {
        switch self {
        case .invalidParameter(let name, let value, let allowed): InvalidValue(parameter: name, value: value, allowed: allowed)
        case .unknownStreets(let requested, let available):
            InvalidValue(parameter: "streets", value: requested.joined(separator: ", "), allowed: "streets of the extract, such as "
                         + available.prefix(5).joined(separator: ", "))
        default: nil
        }
    }
}
