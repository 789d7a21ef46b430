import Foundation

/// The result of parsing: the command path chosen and the values given, with typed accessors that
/// validate ranges and throw `UsageError`s naming the option, the value and what is allowed.
public struct ParsedArguments: Sendable {
    /// The chosen command and its ancestors, root first.
    public var commandPath: [CommandSpec]
    /// Option values by long name, in the order given.
    public var values: [String: [String]]
    /// Flags given, by long name.
    public var flags: Set<String>
    /// Positional values, in order.
    public var positionals: [String]

    /// The chosen (innermost) command.
    public var command: CommandSpec { commandPath[commandPath.count - 1] }
    /// `lookaround snapshot`.
    public var commandName: String { commandPath.map(\.name).joined(separator: " ") }

    /// Whether the flag `name` was given.
    public func flag(_ name: String) -> Bool { flags.contains(name) }

    /// Whether the option `name` was given (flags and valued options alike).
    public func has(_ name: String) -> Bool { flags.contains(name) || values[name] != nil }

    /// The last value of option `name`, else its declared default, else `nil`.
    public func string(_ name: String) -> String? {
        values[name]?.last ?? command.option(named: name)?.defaultValue
    }

    /// Every value of a repeatable option.
    public func strings(_ name: String) -> [String] { values[name] ?? [] }

    /// The value of a required option (or one with a default).
    public func requiredString(_ name: String) throws -> String {
        guard let value = string(name) else {
            throw error("missing --\(name)", suggestion: nil)
        }
        return value
    }

    /// An integer option within `range`.
    public func int(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
        guard let text = string(name) else { return nil }
        guard let value = Int(text) else {
            throw error("--\(name) '\(text)' is not a whole number; allowed \(range.lowerBound)…\(range.upperBound)")
        }
        guard range.contains(value) else {
            throw error("--\(name) \(value) is out of range; allowed \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// A finite decimal option within `range` (NaN and infinities are rejected).
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = string(name) else { return nil }
        return try Self.parseDouble(text, what: "--\(name)", in: range, commandPath: commandName)
    }

    /// Parses a finite decimal within `range`, naming `what` in the error.
    public static func parseDouble(_ text: String, what: String, in range: ClosedRange<Double>,
                                   commandPath: String) throws -> Double {
        let allowed = "allowed \(format(range.lowerBound))…\(format(range.upperBound))"
        guard let value = Double(text.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw UsageError(commandPath: commandPath, message: "\(what) '\(text)' is not a finite number; \(allowed)")
        }
        guard range.contains(value) else {
            throw UsageError(commandPath: commandPath, message: "\(what) \(text) is out of range; \(allowed)")
        }
        return value
    }

    /// A usage error for this command.
    public func error(_ message: String, suggestion: String? = nil) -> UsageError {
        UsageError(commandPath: commandName, message: message, suggestion: suggestion)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
