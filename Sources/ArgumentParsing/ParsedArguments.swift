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
    ///
    /// The value is the correctly rounded double, as `Double(_:)` (strtod) gives it. Numbers of up to 15
    /// significant digits with a power of ten within ±22 (every coordinate, radius and angle a client
    /// writes) take Clinger's fast path: the digits as a whole number and the power of ten are both
    /// exact doubles, so one IEEE multiplication or division rounds the exact value once, correctly.
    /// Anything longer goes to `Double(_:)`. This runs twice per scene request.
    public static func decimal<S: StringProtocol>(_ text: S) -> Double? {
        if let value = text.utf8.withContiguousStorageIfAvailable({ DecimalText(bytes: $0) }) { return value.value }
        return Array(text.utf8).withUnsafeBufferPointer { DecimalText(bytes: $0).value }
    }

    /// A usage error for this command; `option` (without dashes) is the option at fault, when there is one.
    public func error(_ message: String, option: String? = nil, suggestion: String? = nil) -> UsageError {
        UsageError(commandPath: commandName, message: message, option: option, suggestion: suggestion)
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}

/// One decimal number's text, checked and converted (``ParsedArguments/decimal(_:)``).
private struct DecimalText {
    /// The number, nil when the text is not one (or not finite).
    let value: Double?

    /// 10⁰…10²²: every one is exact in a double.
    private static let powersOfTen: [Double] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                                                1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22]

    init(bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        var index = 0
        var negative = false
        if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        // The digits as one whole number (leading zeros dropped), how many of them count, and the power
        // of ten they are scaled by (minus one per fraction digit, plus the exponent).
        var wholeNumber: UInt64 = 0, significantDigits = 0, digits = 0, scale = 0
        func isDigit(_ byte: UInt8) -> Bool { byte &- 48 < 10 }
        func take(_ byte: UInt8) {
            digits += 1
            guard wholeNumber != 0 || byte != 48 else { return }
            significantDigits += 1
            if significantDigits <= 19 { wholeNumber = wholeNumber &* 10 &+ UInt64(byte &- 48) }
        }
        while index < count, isDigit(bytes[index]) {
            take(bytes[index])
            if significantDigits > 19 { scale += 1 }
            index += 1
        }
        if index < count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < count, isDigit(bytes[index]) {
                take(bytes[index])
                if significantDigits <= 19 { scale -= 1 }
                index += 1
            }
        }
        guard digits > 0 else { value = nil; return }
        if index < count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            var exponentNegative = false
            if index < count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                exponentNegative = bytes[index] == UInt8(ascii: "-")
                index += 1
            }
            var exponent = 0, exponentDigits = 0
            while index < count, isDigit(bytes[index]) {
                exponent = min(exponent * 10 + Int(bytes[index] &- 48), 1_000_000)
                exponentDigits += 1
                index += 1
            }
            guard exponentDigits > 0 else { value = nil; return }
            scale += exponentNegative ? -exponent : exponent
        }
        guard index == count else { value = nil; return }
        if wholeNumber == 0 {
            value = negative ? -0.0 : 0
        } else if significantDigits <= 15, (-22...22).contains(scale) {
            // Clinger's fast path: below 10¹⁵ < 2⁵³ the whole number is exact, and so is 10^|scale|.
            let magnitude = scale < 0 ? Double(wholeNumber) / Self.powersOfTen[-scale] : Double(wholeNumber) * Self.powersOfTen[scale]
            value = negative ? -magnitude : magnitude
        } else if let parsed = Double(String(decoding: bytes, as: UTF8.self)), parsed.isFinite {
            value = parsed
        } else {
            value = nil
        }
    }
}
