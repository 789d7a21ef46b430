import ArgumentParsing
import Diagnostics
import Foundation

/// `lookaround`: thin. Parses arguments, calls the library, maps errors to exit codes.

func main() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do {
        switch try ArgumentParser.parse(arguments, root: CommandTree.root) {
        case .help(let path):
            Console.out(ArgumentParser.help(for: path))
            return CommandOutcome.ok.exitCode
        case .run(let parsed):
            if parsed.commandPath.count == 1 && parsed.flag("version") {
                if parsed.flag("json") { try Console.json(VersionReport()) } else { Console.out(VersionReport.text()) }
                return CommandOutcome.ok.exitCode
            }
            guard let command = CommandTree.command(at: parsed.commandPath) else {
                Console.out(ArgumentParser.help(for: parsed.commandPath))
                return ErrorCategory.usage.exitCode
            }
            try applyStorageOptions(parsed)
            return try command.run(parsed).exitCode
        }
    } catch let error as UsageError {
        Console.error(error.description)
        return ErrorCategory.usage.exitCode
    } catch {
        let (code, message) = describe(error)
        Console.error("error: \(message)")
        return code.exitCode
    }
}

// A file-size limit (`ulimit -f`) makes a write fail with EFBIG, reported with the path like a full
// disk (exit 74), instead of killing the process half-way with SIGXFSZ.
signal(SIGXFSZ, SIG_IGN)
exit(main())
