import ArgumentParsing
import Foundation
import Testing

/// Completion scripts and man pages generated from a small spec tree: what each contains, and that the
/// shells accept and run them (when the shell is installed).
@Suite struct CompletionAndManPageTests {
    static let show = CommandSpec(
        name: "show", abstract: "Show a file. Second sentence.",
        options: [
            .value("mode", short: "m", valueName: "MODE", help: "How [really].", allowedValues: ["fast", "it's-slow"]),
            .value("into", valueName: "DIR", help: "Folder."),
            .value("config", valueName: "FILE", help: "Settings file.", repeatable: true),
            .value("width", valueName: "N", help: "Columns, 1…1000."),
            .flag("quiet", help: "No progress."),
        ],
        positionals: [PositionalSpec("FILE", help: "A file.")])
    static let root = CommandSpec(
        name: "tool", abstract: "A tool.", discussion: ".starts with a dot\nsecond paragraph with a back\\slash",
        options: [.flag("version", help: "Print the version.")],
        subcommands: [show, CommandSpec(name: "group", abstract: "A group.",
                                        subcommands: [CommandSpec(name: "leaf", abstract: "A leaf.",
                                                                  options: [.flag("deep", help: "Deep.")])])])

    @Test func valueCompletionFollowsAllowedValuesThenTheValueName() {
        #expect(Self.show.option(named: "mode")?.completion == .values(["fast", "it's-slow"]))
        #expect(Self.show.option(named: "into")?.completion == .directory)
        #expect(Self.show.option(named: "config")?.completion == .file)
        #expect(Self.show.option(named: "width")?.completion == ValueCompletion.none)
        #expect(Self.show.option(named: "quiet")?.completion == ValueCompletion.none)
        #expect(Self.show.positionals[0].completion == .file)
    }

    @Test(arguments: CompletionScript.Shell.allCases)
    func everyScriptNamesEveryCommandAndOption(shell: CompletionScript.Shell) {
        let script = CompletionScript.script(for: Self.root, shell: shell)
        for word in ["show", "group", "leaf", "mode", "into", "config", "width", "quiet", "deep", "version", "help"] {
            #expect(script.contains(word), "\(shell) script lacks \(word)")
        }
    }

    /// Runs the bash script's function as bash does on Tab and returns the candidates.
    static func bashComplete(_ words: [String], in directory: URL? = nil) throws -> [String]? {
        guard FileManager.default.isExecutableFile(atPath: "/bin/bash") else { return nil }
        let script = CompletionScript.script(for: root, shell: .bash)
        let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        let program = script + "\nCOMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); _tool; printf '%s\\n' \"${COMPREPLY[@]}\"\n"
        let output = try Shell.run("/bin/bash", ["-c", program], in: directory)
        #expect(output.status == 0, "bash: \(output.errors)")
        return output.text.split(separator: "\n").map(String.init)
    }

    @Test func bashCompletesCommandsOptionsValuesAndFiles() throws {
        guard let commands = try Self.bashComplete(["tool", ""]) else { return }
        #expect(Set(commands) == ["show", "group"])
        #expect(try Self.bashComplete(["tool", "show", "--"]).map(Set.init)
                == ["--mode", "--into", "--config", "--width", "--quiet", "--help"])
        #expect(try Self.bashComplete(["tool", "show", "-m", "f"]) == ["fast"])
        #expect(try Self.bashComplete(["tool", "show", "--mode", "=", ""]).map(Set.init) == ["fast", "it's-slow"])
        #expect(try Self.bashComplete(["tool", "group", "leaf", "--d"]) == ["--deep"])
        #expect(try Self.bashComplete(["tool", "show", "--width", ""]) == [])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("a.txt"))
        #expect(try Self.bashComplete(["tool", "show", ""], in: folder).map(Set.init) == ["a.txt", "sub"])
        #expect(try Self.bashComplete(["tool", "show", "--into", ""], in: folder) == ["sub"])
    }

    @Test func zshAndFishAcceptTheirScripts() throws {
        var missing: [String] = []
        for (shell, path) in [(CompletionScript.Shell.zsh, "/usr/bin/zsh"), (.fish, "/usr/bin/fish")] {
            guard FileManager.default.isExecutableFile(atPath: path) else {
                missing.append(path)
                continue
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: file) }
            try Data(CompletionScript.script(for: Self.root, shell: shell).utf8).write(to: file)
            let check = try Shell.run(path, ["-n", file.path])
            #expect(check.status == 0, "\(shell) -n: \(check.errors)")
        }
        if !missing.isEmpty { try Test.cancel("skipped: \(missing.joined(separator: " and ")) not installed (apt-get install zsh fish)") }
    }

    @Test func fishCompletesCommandsOptionsAndValues() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") else {
            try Test.cancel("skipped: fish is not installed (apt-get install fish)")
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("completion-\(UUID().uuidString).fish")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(CompletionScript.script(for: Self.root, shell: .fish).utf8).write(to: file)
        func complete(_ line: String) throws -> [String] {
            let output = try Shell.run("/usr/bin/fish", ["-c", "source \(file.path); complete -C '\(line)'"])
            return output.text.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }
        #expect(Set(try complete("tool ")) == ["show", "group"])
        #expect(Set(try complete("tool group ")) == ["leaf"])
        #expect(try complete("tool show --mode ").contains("it's-slow"))
        #expect(try complete("tool group leaf --d") == ["--deep"])
    }

    @Test func manPagesOnePerCommandWithEveryOption() {
        let pages = ManPage.pages(for: Self.root, version: "1.2.3")
        #expect(pages.map(\.fileName) == ["tool.1", "tool-show.1", "tool-group.1", "tool-group-leaf.1"])
        let show = pages[1].text
        #expect(show.contains(".TH TOOL\\-SHOW 1 \"\" \"tool 1.2.3\" \"User Commands\""))
        for option in ["\\fB\\-m\\fR, \\fB\\-\\-mode\\fR \\fIMODE\\fR", "\\fB\\-\\-into\\fR \\fIDIR\\fR", "\\fB\\-\\-quiet\\fR",
                       "\\fB\\-\\-help\\fR", "One of: fast, it's\\-slow.", "May be repeated.", "Columns, 1\\[u2026]1000."] {
            #expect(show.contains(option), "tool-show.1 lacks \(option)")
        }
        let top = pages[0].text
        #expect(top.contains("\n\\&.starts with a dot\n"), "a leading dot is escaped")
        #expect(top.contains("back\\eslash"))
        #expect(top.contains("\\fBtool\\-group\\fR(1)"))
        #expect(!pages.contains { $0.text.unicodeScalars.contains { $0.value > 0x7E } }, "pages are ASCII")
    }

    @Test func helpWithAnOptionRunsADeclaredHelpCommand() throws {
        let help = CommandSpec(name: "help", abstract: "Help.", options: [.flag("man", help: "A man page.")],
                               positionals: [PositionalSpec("COMMAND", help: "", optional: true, variadic: true)])
        var root = Self.root
        root.subcommands.append(help)
        guard case .run(let parsed) = try ArgumentParser.parse(["help", "--man", "show"], root: root) else {
            Issue.record("help --man should run the help command")
            return
        }
        #expect(parsed.commandName == "tool help" && parsed.flag("man") && parsed.positionals == ["show"])
        guard case .help(let path) = try ArgumentParser.parse(["help", "group", "leaf"], root: root) else {
            Issue.record("help COMMAND… shows help")
            return
        }
        #expect(path.map(\.name) == ["tool", "group", "leaf"])
    }
}

/// Runs a program and collects its output (the parser module has no process helpers of its own).
enum Shell {
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil)
        throws -> (status: Int32, text: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let text = output.fileHandleForReading.readDataToEndOfFile()
        let errorText = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: text, as: UTF8.self), String(decoding: errorText, as: UTF8.self))
    }
}
