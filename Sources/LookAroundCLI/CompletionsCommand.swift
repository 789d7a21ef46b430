import ArgumentParsing

/// `lookaround completions bash|zsh|fish`: a completion script generated from the option specs.
enum CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a shell completion script (bash, zsh or fish) for every command, option and value.",
        discussion: """
            The script is generated from the same option specs as --help, so it completes exactly what the \
            parser accepts: commands, options, the allowed values of options with a closed set, and file or \
            folder names where an option or argument takes a path.
            bash (with the bash-completion package): mkdir -p ~/.local/share/bash-completion/completions, then \
            lookaround completions bash > ~/.local/share/bash-completion/completions/lookaround (or, for one \
            shell: source <(lookaround completions bash)).
            zsh: lookaround completions zsh > "${fpath[1]}/_lookaround", then start a new shell.
            fish: mkdir -p ~/.config/fish/completions, then lookaround completions fish > \
            ~/.config/fish/completions/lookaround.fish
            """,
        positionals: [PositionalSpec("SHELL", help: "bash, zsh or fish.",
                                     completion: .values(CompletionScript.Shell.allCases.map(\.rawValue)))],
        examples: [
            (command: "source <(lookaround completions bash)", comment: "Tab completion in this bash"),
            (command: "lookaround completions fish > ~/.config/fish/completions/lookaround.fish", comment: "install for fish"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let name = arguments.positionals[0]
        guard let shell = CompletionScript.Shell(rawValue: name) else {
            let shells = CompletionScript.Shell.allCases.map(\.rawValue)
            throw arguments.error("SHELL '\(name)' is not one of: \(shells.joined(separator: ", "))",
                                  suggestion: ArgumentParser.closestMatch(to: name, among: shells))
        }
        Console.out(CompletionScript.script(for: CommandTree.root, shell: shell))
        return .ok
    }
}
