import ArgumentParsing
import Foundation

/// `lookaround help [COMMAND…]` and `lookaround help --man`: help text, or manual pages, from the specs.
enum HelpCommand: Command {
    static let spec = CommandSpec(
        name: "help",
        abstract: "Show a command's help, or its manual page (--man); --man --output DIR writes every page.",
        discussion: """
            'lookaround help snapshot' is 'lookaround snapshot --help'. With --man the same text comes as a \
            manual page (roff) on stdout: read it with 'lookaround help --man snapshot | man -l -'. With \
            --man --output DIR every page is written into DIR (lookaround.1, lookaround-snapshot.1, \
            lookaround-geo-distance.1, …); 'make man' writes them to .build/man/man1, so \
            'MANPATH=.build/man: man lookaround-snapshot' finds them.
            """,
        options: [
            .flag("man", help: "A manual page (roff) instead of the help text."),
            .value("output", short: "o", valueName: "DIR", help: "With --man: write every page into this folder (created if missing)."),
        ],
        positionals: [PositionalSpec("COMMAND", help: "The command (and subcommand) to describe; default the whole tool.",
                                     optional: true, variadic: true,
                                     completion: .commands)],
        examples: [
            (command: "lookaround help --man snapshot | man -l -", comment: "the manual page of snapshot"),
            (command: "lookaround help --man --output man/man1", comment: "every manual page, into man/man1"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        var path = [CommandTree.root]
        for word in arguments.positionals {
            let names = path[path.count - 1].subcommands.map(\.name)
            guard let sub = path[path.count - 1].subcommands.first(where: { $0.name == word }) else {
                let where_ = path.map(\.name).joined(separator: " ")
                throw arguments.error(names.isEmpty ? "'\(where_)' has no subcommands; '\(word)' is not one"
                                      : "unknown command '\(word)'; commands of \(where_): \(names.joined(separator: ", "))",
                                      suggestion: ArgumentParser.closestMatch(to: word, among: names).map { "\(where_) \($0)" })
            }
            path.append(sub)
        }
        guard arguments.flag("man") else {
            if arguments.has("output") { throw arguments.error("--output writes manual pages; give --man too") }
            Console.out(ArgumentParser.help(for: path))
            return .ok
        }
        guard let directory = arguments.string("output") else {
            Console.out(ManPage.page(for: path, version: CommandTree.version).text)
            return .ok
        }
        if !arguments.positionals.isEmpty { throw arguments.error("--output writes every page; leave out COMMAND") }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let pages = ManPage.pages(for: CommandTree.root, version: CommandTree.version)
            for page in pages {
                try Data(page.text.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(page.fileName))
            }
            Console.out("wrote \(pages.count) manual pages to \(directory) (lookaround.1, lookaround-snapshot.1, …)")
        } catch {
            Console.error("error: cannot write manual pages into \(directory): \(error.localizedDescription)")
            return .failed(.cannotCreate)
        }
        return .ok
    }
}
