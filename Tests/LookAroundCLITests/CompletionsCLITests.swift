import Foundation
import Testing
import TestSupport

/// `lookaround completions` and `lookaround help --man` against what `--help` says: every command and
/// every option of every command, read from the help text of the built executable, must be offered by
/// the bash completion (run as bash runs it on Tab), named in the zsh and fish scripts (and offered by
/// fish, when installed), and listed in the command's manual page.
@Suite struct CompletionsCLITests {
    /// A command path (`["geo", "distance"]`) with the long options (`--from`) and short ones (`-o`) its
    /// help lists.
    struct Command: Sendable, CustomStringConvertible {
        var path: [String]
        var options: [String]
        var subcommands: [String]
        var description: String { (["lookaround"] + path).joined(separator: " ") }
    }

    /// Every command, from `lookaround --help` down, as the help text of each lists them.
    static let commands = Result { () throws -> [Command] in
        var out: [Command] = []
        func visit(_ path: [String]) throws {
            let help = try Lookaround.run(path + ["--help"])
            guard help.exitCode == 0 else { throw CocoaError(.featureUnsupported) }
            let lines = help.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            func section(_ title: String) -> [String] {
                guard let start = lines.firstIndex(of: title) else { return [] }
                return Array(lines[(start + 1)...].prefix { !$0.isEmpty })
            }
            func indent(_ line: String) -> Int { line.prefix { $0 == " " }.count }
            // A command entry starts two spaces in; wrapped text is indented further.
            let subcommands = section("Commands:").filter { indent($0) == 2 }
                .compactMap { $0.split(separator: " ").first.map(String.init) }
            // An option entry starts "  -o, --output FILE" or "      --lat DEGREES"; its label ends at
            // the first run of two spaces, where the text column begins.
            var options: [String] = []
            for line in section("Options:") where [2, 6].contains(indent(line)) && line.drop(while: { $0 == " " }).hasPrefix("-") {
                let label = line.drop { $0 == " " }.components(separatedBy: "  ")[0]
                for word in label.split(separator: " ") where word.hasPrefix("-") {
                    options.append(String(word.hasSuffix(",") ? word.dropLast() : word[...]))
                }
            }
            out.append(Command(path: path, options: options, subcommands: subcommands))
            for sub in subcommands { try visit(path + [sub]) }
        }
        try visit([])
        return out
    }

    @Test func theHelpTextIsReadCompletely() throws {
        let commands = try Self.commands.get()
        #expect(commands.count >= 20)
        let snapshot = try #require(commands.first { $0.path == ["snapshot"] })
        #expect(snapshot.options.contains("--labels") && snapshot.options.contains("-o") && snapshot.options.contains("--help"))
        #expect(commands.contains { $0.path == ["geo", "distance"] })
    }

    /// What bash offers on Tab after `words` (the last word is the one being completed).
    static func bashCompletions(_ words: [String], script: String, in directory: URL? = nil) throws -> [String] {
        let quoted = words.map { "'" + $0 + "'" }.joined(separator: " ")
        let program = script + "\nCOMP_WORDS=(lookaround \(quoted)); COMP_CWORD=\(words.count); _lookaround; "
            + "printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        let result = try Lookaround.runProcess("/bin/bash", ["-c", program], in: directory)
        #expect(result.exitCode == 0 && result.stderr.isEmpty, "bash: \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    @Test func bashOffersEveryCommandAndEveryOption() throws {
        let result = try Lookaround.run(["completions", "bash"])
        #expect(result.exitCode == 0 && result.stderr.isEmpty)
        for command in try Self.commands.get() {
            if !command.subcommands.isEmpty {
                #expect(Set(try Self.bashCompletions(command.path + [""], script: result.stdout)) == Set(command.subcommands),
                        "\(command): commands")
            }
            let offered = Set(try Self.bashCompletions(command.path + ["-"], script: result.stdout))
            for option in command.options {
                #expect(offered.contains(option), "bash does not offer \(option) after '\(command)'")
            }
        }
    }

    @Test func bashOffersAllowedValuesAndFileNames() throws {
        let script = try Lookaround.run(["completions", "bash"]).stdout
        #expect(try Self.bashCompletions(["snapshot", "--labels", ""], script: script) == ["all", "places", "roads", "none"])
        #expect(try Self.bashCompletions(["map", "--type", "h"], script: script) == ["hybrid"])
        #expect(try Self.bashCompletions(["completions", ""], script: script) == ["bash", "zsh", "fish"])
        let folder = try Lookaround.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("photos"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("pano.jpg"))
        #expect(try Self.bashCompletions(["image", "info", "pa"], script: script, in: folder) == ["pano.jpg"])
        #expect(try Self.bashCompletions(["snapshot", "-o", "p"], script: script, in: folder).sorted() == ["pano.jpg", "photos"])
        #expect(try Self.bashCompletions(["index", ""], script: script, in: folder) == ["photos"])   // DIR: folders only
        #expect(try Self.bashCompletions(["scene", "--lat", ""], script: script, in: folder) == [])  // a number: nothing
    }

    @Test func zshAndFishScriptsNameEveryOption() throws {
        var unparsed: [String] = []
        for shell in ["zsh", "fish"] {
            let result = try Lookaround.run(["completions", shell])
            #expect(result.exitCode == 0 && result.stderr.isEmpty)
            for command in try Self.commands.get() {
                for option in command.options where option.hasPrefix("--") {
                    let name = String(option.dropFirst(2))
                    let declared = shell == "zsh" ? result.stdout.contains("--\(name)[") || result.stdout.contains("--\(name)}")
                        : result.stdout.contains("-l \(name) ")
                    #expect(declared, "\(shell) script lacks \(option) of '\(command)'")
                }
            }
            let binary = "/usr/bin/\(shell)"
            guard FileManager.default.isExecutableFile(atPath: binary) else {
                unparsed.append(shell)
                continue
            }
            let file = try Lookaround.temporaryDirectory().appendingPathComponent("lookaround.\(shell)")
            try Data(result.stdout.utf8).write(to: file)
            let check = try Lookaround.runProcess(binary, ["-n", file.path])
            #expect(check.exitCode == 0, "\(shell) -n: \(check.stderr)")
        }
        if !unparsed.isEmpty {
            try Test.cancel("skipped: \(unparsed.joined(separator: " and ")) not installed, so its script was not parsed by it (the options were checked)")
        }
    }

    @Test func fishOffersEveryOptionOfEveryCommand() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else {
            try Test.cancel("skipped: fish is not installed (scripts/deb-packages.txt lists it)")
        }
        let file = try Lookaround.temporaryDirectory().appendingPathComponent("lookaround.fish")
        try Data(try Lookaround.run(["completions", "fish"]).stdout.utf8).write(to: file)
        for command in try Self.commands.get() {
            let line = (["lookaround"] + command.path).joined(separator: " ") + " -"
            let result = try Lookaround.runProcess("/usr/bin/fish", ["-c", "source \(file.path); complete -C '\(line)'"])
            let offered = Set(result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
            for option in command.options {
                #expect(offered.contains(option), "fish does not offer \(option) after '\(command)'")
            }
        }
    }

    @Test func manPagesListEveryOptionOfEveryCommand() throws {
        let folder = try Lookaround.temporaryDirectory().appendingPathComponent("man1")
        let written = try Lookaround.run(["help", "--man", "--output", folder.path])
        #expect(written.exitCode == 0, "\(written.stderr)")
        for command in try Self.commands.get() {
            let name = (["lookaround"] + command.path).joined(separator: "-")
            let page = try String(contentsOf: folder.appendingPathComponent(name + ".1"), encoding: .utf8)
            #expect(page.contains(".TH \(name.uppercased().replacingOccurrences(of: "-", with: "\\-")) 1 "))
            for option in command.options {
                let roff = "\\fB" + option.replacingOccurrences(of: "-", with: "\\-") + "\\fR"
                #expect(page.contains(roff), "\(name).1 lacks \(option)")
            }
            for sub in command.subcommands {
                #expect(page.contains("\\fB\(name.replacingOccurrences(of: "-", with: "\\-"))\\-\(sub)\\fR(1)"), "\(name).1 lacks \(sub)")
            }
        }
        let pages = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(pages.count == (try Self.commands.get()).count)
    }

    @Test func manPageOnStdoutRendersWithMan() throws {
        let result = try Lookaround.run(["help", "--man", "snapshot"])
        #expect(result.exitCode == 0 && result.stdout.hasPrefix(".\\\" Generated by 'lookaround help --man'"))
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") else {
            try Test.cancel("skipped: groff is not installed, so the page was not rendered")
        }
        let file = try Lookaround.temporaryDirectory().appendingPathComponent("lookaround-snapshot.1")
        try Data(result.stdout.utf8).write(to: file)
        let rendered = try Lookaround.runProcess("/usr/bin/groff", ["-man", "-Tutf8", "-ww", file.path])
        #expect(rendered.exitCode == 0 && rendered.stderr.isEmpty, "groff: \(rendered.stderr)")
        let text = rendered.stdout.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        #expect(text.contains("--heading-degrees") && text.contains("Default: 1280x720."))
    }

    @Test func badShellAndUnknownHelpCommandAreUsageErrors() throws {
        let shell = try Lookaround.run(["completions", "bsh"])
        #expect(shell.exitCode == 64 && shell.stdout.isEmpty)
        #expect(shell.stderr.contains("SHELL 'bsh' is not one of: bash, zsh, fish") && shell.stderr.contains("did you mean 'bash'?"))
        let help = try Lookaround.run(["help", "--man", "snapshto"])
        #expect(help.exitCode == 64 && help.stderr.contains("did you mean 'lookaround snapshot'?"))
        let plain = try Lookaround.run(["help", "geo", "distance"])
        #expect(plain.exitCode == 0 && plain.stdout.hasPrefix("lookaround geo distance:"))
    }
}
