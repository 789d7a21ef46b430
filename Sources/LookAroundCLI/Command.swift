import ArgumentParsing
import Diagnostics
import Foundation
import Storage
import Terminal

/// One `lookaround` subcommand: its spec (from which `--help` is generated) and what it runs.
protocol Command {
    /// Options, positionals, help text.
    static var spec: CommandSpec { get }
    /// Validates the parsed values (throwing `UsageError` for bad ones) and does the work.
    /// Returns how it ended (the exit code follows from it).
    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome
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

/// How a command ended. A failure is one ``ErrorCategory`` (Diagnostics), whose
/// ``ErrorCategory/exitCode`` is the one table of exit codes (DESIGN §3: 1 "no imagery here", 64 usage,
/// 65 bad data, 66 missing input, 69 unavailable, 70 internal, 73 cannot create output, 74 I/O error).
enum CommandOutcome: Equatable {
    /// Done (exit 0).
    case ok
    /// Failed with an error of this category (or, for "no imagery here", answered so).
    case failed(ErrorCategory)
    /// Stopped by Ctrl-C (exit 130, 128 + SIGINT, as shells report it).
    case interrupted

    /// The process's exit code.
    var exitCode: Int32 {
        switch self {
        case .ok: 0
        case .failed(let category): category.exitCode
        case .interrupted: 128 + SIGINT
        }
    }
}

/// Options several commands share, declared once.
enum CommonOptions {
    /// No progress or status on stderr (data on stdout and errors still print).
    /// `--catalog`: an SQLite file or a PostGIS URL, as every command that reads a catalog takes it.
    static let catalog = OptionSpec.value(
        "catalog", valueName: "PATH|URL",
        help: "The catalog: an SQLite file, or postgres://USER@HOST[:PORT]/DATABASE for PostGIS (password from "
            + "?passfile=, $PGPASSFILE, ~/.pgpass or $PGPASSWORD, never in the URL). Default $LOOKAROUND_CATALOG, "
            + "else Panoramas/catalog.sqlite.")
    static let quiet = OptionSpec.flag("quiet", short: "q", help: "No progress bar or status lines; data and errors still print.")
    /// `--cache-dir`, `--cache-bytes`: the disk cache of imagery fetched from object storage (main.swift applies them).
    static let cacheDirectory = OptionSpec.value(
        "cache-dir", valueName: "DIR",
        help: "Keep imagery fetched from object storage (s3://…) in DIR, shared safely by any number of processes "
            + "(default $LOOKAROUND_CACHE_DIR; none: memory only).")
    static let cacheBytes = OptionSpec.value(
        "cache-bytes", valueName: "SIZE",
        help: "Bound of --cache-dir, least recently used out first: bytes or with K, M, G (default $LOOKAROUND_CACHE_BYTES, else 1G).")
}

/// Applies `--cache-dir` and `--cache-bytes` to the process's object storage before a command reads
/// imagery (commands that do not declare them have none).
func applyStorageOptions(_ arguments: ParsedArguments) throws {
    let directory = arguments.string("cache-dir")
    let bytesText = arguments.string("cache-bytes")
    guard directory != nil || bytesText != nil else {
        // The same settings from the environment: a bad value is an error now, not a silent fallback.
        let environment = ProcessInfo.processInfo.environment
        if ["LOOKAROUND_CACHE_DIR", "LOOKAROUND_CACHE_BYTES", "LOOKAROUND_S3_REVALIDATE_SECONDS"].contains(where: { !(environment[$0] ?? "").isEmpty }) {
            try ObjectStorage.configureShared(cacheDirectory: nil, cacheBytes: nil)
        }
        return
    }
    var bytes: Int?
    if let bytesText {
        guard let value = ObjectStorage.parseByteCount(bytesText), value >= 1 << 20 else {
            throw arguments.error("--cache-bytes '\(bytesText)' is not a size of at least 1M; write bytes or a number with K, M or G, e.g. 2G")
        }
        guard directory != nil || !(ProcessInfo.processInfo.environment["LOOKAROUND_CACHE_DIR"] ?? "").isEmpty else {
            throw arguments.error("--cache-bytes bounds --cache-dir: give --cache-dir DIR too")
        }
        bytes = value
    }
    try ObjectStorage.configureShared(cacheDirectory: directory, cacheBytes: bytes)
}

/// Writing to the standard streams.
enum Console {
    static func out(_ text: String) {
        write(1, Array((text.hasSuffix("\n") ? text : text + "\n").utf8))
    }

    /// Writes all of `bytes` to `descriptor`. When its reader has gone (`lookaround serve | head`: EPIPE,
    /// since `serve` ignores SIGPIPE for its sockets' sake) the program ends as a pipe's writer does, by
    /// SIGPIPE, rather than by Foundation's fatal error for a failed `FileHandle.write`. Other errors (a
    /// full disk behind a redirect) are dropped: there is nowhere left to say them.
    static func write(_ descriptor: Int32, _ bytes: [UInt8]) {
        guard !TerminalOutput.writeAll(descriptor, bytes), errno == EPIPE else { return }
        signal(SIGPIPE, SIG_DFL)
        raise(SIGPIPE)
    }

    /// Writes to stderr; an `error:` or `warning:` prefix is coloured when stderr takes colour.
    static func error(_ text: String) {
        var text = text.hasSuffix("\n") ? text : text + "\n"
        if usesColor(onDescriptor: 2) {
            for (prefix, color) in [("error:", "1;31"), ("warning:", "1;33")] where text.hasPrefix(prefix) {
                text = "\u{1B}[\(color)m\(prefix)\u{1B}[0m" + text.dropFirst(prefix.count)
            }
        }
        write(2, Array(text.utf8))
    }

    /// Whether text written to `descriptor` may carry ANSI colour: it is a terminal, `NO_COLOR` is unset
    /// or empty (no-color.org), and `TERM` is not `dumb`.
    static func usesColor(onDescriptor descriptor: Int32) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return isatty(descriptor) != 0 && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    static func outBytes(_ bytes: [UInt8]) {
        write(1, bytes)
    }

    /// JSON with sorted keys, pretty-printed, snake_case keys (DESIGN §3), on stdout.
    static func json<T: Encodable>(_ value: T) throws { out(try jsonText(value)) }

    /// The text `json(_:)` prints: sorted snake_case keys, ISO 8601 times (README, "JSON output").
    static func jsonText<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try jsonEncoder(pretty: true).encode(value), as: UTF8.self)
    }

    /// `value` as one line of JSON Lines: ``jsonText(_:)``'s keys and times, without the pretty-printing.
    static func jsonLine<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try jsonEncoder(pretty: false).encode(value), as: UTF8.self)
    }

    private static func jsonEncoder(pretty: Bool) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}
