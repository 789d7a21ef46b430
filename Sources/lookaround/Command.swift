import ArgumentParsing
import Foundation

/// One `lookaround` subcommand: its spec (from which `--help` is generated) and what it runs.
protocol Command {
    /// Options, positionals, help text.
    static var spec: CommandSpec { get }
    /// Validates the parsed values (throwing `UsageError` for bad ones) and does the work.
    /// Returns the exit code.
    static func run(_ arguments: ParsedArguments) throws -> ExitCode
}

/// A group of subcommands (`lookaround geo …`).
protocol CommandGroup {
    static var name: String { get }
    static var abstract: String { get }
    static var commands: [any Command.Type] { get }
}

extension CommandGroup {
    static var spec: CommandSpec {
        CommandSpec(name: name, abstract: abstract, subcommands: commands.map { $0.spec })
    }
}

/// Exit codes (DESIGN §3): 0 ok, 1 "no imagery here", 64 usage, 65 bad data, 66 missing input, 70 internal,
/// 73 cannot create output.
enum ExitCode: Int32 {
    case ok = 0
    case noImagery = 1
    case usage = 64
    case dataError = 65
    case noInput = 66
    case internalError = 70
    case cannotCreate = 73
}

/// Writing to the standard streams.
enum Console {
    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    static func outBytes(_ bytes: [UInt8]) {
        FileHandle.standardOutput.write(Data(bytes))
    }

    /// JSON with sorted keys, pretty-printed, snake_case keys (DESIGN §3).
    static func json<T: Encodable>(_ value: T) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        out(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
