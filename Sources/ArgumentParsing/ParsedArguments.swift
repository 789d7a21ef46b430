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
            throw error("--\(name) '\(text)' is not a whole number; allowed \(range.lowerBound)…\(range.upperBound)", option: name)
        }
        guard range.contains(value) else {
            throw error("--\(name) \(value) is out of range; allowed \(range.lowerBound)…\(range.upperBound)", option: name)
        }
        return value
    }

    /// A finite decimal option within `range` (NaN and infinities are rejected).
    public func double(_ name: String, in range: ClosedRange<Double>) throws -> Double? {
        guard let text = string(name) else { return nil }
        return try Self.parseDouble(text, what: "--\(name)", option: name, in: range, commandPath: commandName)
    }

    /// Parses a finite decimal within `range`, naming `what` in the error and `option` (without dashes)
    /// as the option at fault.
    public static func parseDouble(_ text: String, what: String, option: String?, in range: ClosedRange<Double>,
                                   commandPath: String) throws -> Double {
        let allowed = "allowed \(format(range.lowerBound))…\(format(range.upperBound))"
        guard let value = decimal(text.trimmingCharacters(in: .whitespaces)) else {
            throw UsageError(commandPath: commandPath, message: "\(what) '\(text)' is not a finite number; \(allowed)", option: option)
        }
        guard range.contains(value) else {
            throw UsageError(commandPath: commandPath, message: "\(what) \(text) is out of range; \(allowed)", option: option)
        }
        return value
    }

    /// A finite number written in decimal: an optional sign, digits with an optional fraction, an
    /// optional exponent (`-12`, `60.1699`, `.5`, `1e3`); nil for anything else, such as hexadecimal
    /// (`0x1p4`, which `Double(_:)` reads as 16), `inf`, `nan`, white space or an overflow. The one
    /// number syntax of the command line and of every HTTP query parameter.
    public static func decimal<S: StringProtocol>(_ text: S) -> Double? {
        var digits = 0, index = text.utf8.startIndex
        let bytes = text.utf8
        func skipDigits() {
            while index < bytes.endIndex, (48...57).contains(bytes[index]) { digits += 1; index = bytes.index(after: index) }
        }
        if index < bytes.endIndex, bytes[index] == 43 || bytes[index] == 45 { index = bytes.index(after: index) }
        skipDigits()
        if index < bytes.endIndex, bytes[index] == 46 { index = bytes.index(after: index); skipDigits() }
        guard digits > 0 else { return nil }
        if index < bytes.endIndex, bytes[index] == 101 || bytes[index] == 69 {
            index = bytes.index(after: index)
            if index < bytes.endIndex, bytes[index] == 43 || bytes[index] == 45 { index = bytes.index(after: index) }
            digits = 0
            skipDigits()
            guard digits > 0 else { return nil }
        }
        guard index == bytes.endIndex, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// A usage error for this command; `option` (without dashes) is the option at fault, when there is one.
    public func error(_ message: String, option: String? = nil, suggestion: String? = nil) -> UsageError {
        UsageError(commandPath: commandName, message: message, option: option, suggestion: suggestion)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
