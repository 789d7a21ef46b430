/// Parses a command line against a tree of `CommandSpec`s: parse, then validate (typed accessors on
/// `ParsedArguments`), then run. Generates `--help` text from the same specs.
///
/// Accepted forms: `--name value`, `--name=value`, `-s value`, `--flag`, `--` (ends options).
/// A value may start with `-` (`--lat -33.86`): an option that takes a value always takes the next word.
public enum ArgumentParser {
    /// The outcome of parsing: run a command, or show help for one.
    public enum Outcome: Sendable {
        case run(ParsedArguments)
        case help(commandPath: [CommandSpec])
    }

    /// Parses `arguments` (without the program name) against `root`.
    /// - Throws: `UsageError` for unknown commands or options, missing or invalid values.
    public static func parse(_ arguments: [String], root: CommandSpec) throws -> Outcome {
        var path = [root]
        var index = 0
        // Descend into subcommands.
        while let group = path.last, !group.subcommands.isEmpty {
            let commandPath = path.map(\.name).joined(separator: " ")
            guard index < arguments.count else { return .help(commandPath: path) }
            let word = arguments[index]
            if word == "--help" || word == "-h" { return .help(commandPath: path) }
            // `help [COMMAND…]` shows a command's help; `help --option …` runs a declared `help` command
            // (the tool's `help --man`), when there is one.
            let helpCommandRuns = index + 1 < arguments.count && arguments[index + 1].hasPrefix("-")
                && group.subcommands.contains { $0.name == "help" }
            if word == "help" && !helpCommandRuns {
                var target = path
                var next = index + 1
                while next < arguments.count,
                      let sub = target[target.count - 1].subcommands.first(where: { $0.name == arguments[next] }) {
                    target.append(sub)
                    next += 1
                }
                return .help(commandPath: target)
            }
            guard let sub = group.subcommands.first(where: { $0.name == word }) else {
                let names = group.subcommands.map(\.name)
                if word.hasPrefix("-") {
                    // Flags of a group (`lookaround --version --json`): every word must be one.
                    var flags: Set<String> = []
                    var next = index
                    while next < arguments.count, arguments[next].hasPrefix("--"),
                          let top = group.option(named: String(arguments[next].dropFirst(2))), !top.takesValue {
                        flags.insert(top.name)
                        next += 1
                    }
                    if next == arguments.count {
                        return .run(ParsedArguments(commandPath: path, values: [:], flags: flags, positionals: []))
                    }
                    let bad = arguments[next]
                    if next > index && bad.hasPrefix("-") {
                        let names = group.options.map(\.name) + ["help"]
                        throw UsageError(commandPath: commandPath, message: "unknown option '\(bad)'",
                                         suggestion: closestMatch(to: String(bad.drop { $0 == "-" }), among: names).map { "--\($0)" })
                    }
                    throw UsageError(commandPath: commandPath,
                                     message: "expected a command before '\(word)'; commands: \(names.joined(separator: ", "))")
                }
                throw UsageError(commandPath: commandPath, message: "unknown command '\(word)'",
                                 suggestion: closestMatch(to: word, among: names).map { "\(commandPath) \($0)" })
            }
            path.append(sub)
            index += 1
        }

        let command = path[path.count - 1]
        let commandPath = path.map(\.name).joined(separator: " ")
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var positionals: [String] = []
        var onlyPositionals = false
        while index < arguments.count {
            let word = arguments[index]
            index += 1
            if onlyPositionals || word == "-" || !word.hasPrefix("-") || isNegativeNumber(word) {
                positionals.append(word)
                continue
            }
            if word == "--" { onlyPositionals = true; continue }
            if word == "--help" || word == "-h" { return .help(commandPath: path) }
            var name: String
            var inlineValue: String?
            if word.hasPrefix("--") {
                let body = word.dropFirst(2)
                if let eq = body.firstIndex(of: "=") {
                    name = String(body[..<eq])
                    inlineValue = String(body[body.index(after: eq)...])
                } else {
                    name = String(body)
                }
                guard command.option(named: name) != nil else {
                    let names = command.options.map(\.name) + ["help"]
                    throw UsageError(commandPath: commandPath, message: "unknown option '--\(name)'", option: name,
                                     suggestion: closestMatch(to: name, among: names).map { "--\($0)" })
                }
            } else {
                let letters = Array(word.dropFirst())
                guard letters.count == 1, let spec = command.options.first(where: { $0.short == letters[0] }) else {
                    let shorts = command.options.compactMap { $0.short.map { "-\($0)" } }
                    throw UsageError(commandPath: commandPath,
                                     message: "unknown option '\(word)'" + (shorts.isEmpty ? "" : "; short options: \(shorts.joined(separator: " "))"))
                }
                name = spec.name
            }
            let spec = command.option(named: name)!
            if !spec.takesValue {
                if inlineValue != nil {
                    throw UsageError(commandPath: commandPath, message: "--\(name) is a flag and takes no value", option: name)
                }
                flags.insert(name)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < arguments.count else {
                    throw UsageError(commandPath: commandPath,
                                     message: "--\(name) needs a value (\(spec.valueName ?? "VALUE"))", option: name)
                }
                value = arguments[index]
                index += 1
            }
            if let allowed = spec.allowedValues, !allowed.contains(value) {
                throw UsageError(commandPath: commandPath,
                                 message: "--\(name) '\(value)' is not one of: \(allowed.joined(separator: ", "))", option: name,
                                 suggestion: closestMatch(to: value, among: allowed))
            }
            if values[name] != nil && !spec.isRepeatable {
                throw UsageError(commandPath: commandPath, message: "--\(name) was given more than once", option: name)
            }
            values[name, default: []].append(value)
        }

        for spec in command.options where spec.isRequired && values[spec.name] == nil {
            throw UsageError(commandPath: commandPath, message: "missing required option --\(spec.name) \(spec.valueName ?? "")", option: spec.name)
        }
        let required = command.positionals.filter { !$0.isOptional }.count
        if positionals.count < required {
            let missing = command.positionals[positionals.count]
            throw UsageError(commandPath: commandPath, message: "missing \(missing.name): \(missing.help)")
        }
        let variadic = command.positionals.last?.isVariadic ?? false
        if !variadic && positionals.count > command.positionals.count {
            let extra = positionals[command.positionals.count]
            throw UsageError(commandPath: commandPath, message: "unexpected argument '\(extra)'")
        }
        return .run(ParsedArguments(commandPath: path, values: values, flags: flags, positionals: positionals))
    }

    private static func isNegativeNumber(_ word: String) -> Bool {
        guard word.count > 1, word.hasPrefix("-") else { return false }
        return ParsedArguments.decimal(word) != nil
    }

    // MARK: Help

    /// `--help`, which every command accepts without declaring it.
    public static let helpOption = OptionSpec.flag("help", short: "h", help: "Show this help.")

    /// The candidate closest to `word` when it is a likely typo, or the only one `word` starts (for
    /// "did you mean" in a command's own checks).
    public static func closestMatch(to word: String, among candidates: [String]) -> String? {
        ArgumentParsing.closestMatch(to: word, among: candidates)
    }

    /// Every option a command accepts: its declared ones and `--help`.
    public static func acceptedOptions(of command: CommandSpec) -> [OptionSpec] { command.options + [helpOption] }

    /// The help text of the command at the end of `commandPath`, wrapped to `width` columns.
    public static func help(for commandPath: [CommandSpec], width: Int = 100) -> String {
        let command = commandPath[commandPath.count - 1]
        let name = commandPath.map(\.name).joined(separator: " ")
        var lines: [String] = []
        lines.append(wrap("\(name): \(command.abstract)", width: width))
        lines.append("")
        if command.subcommands.isEmpty {
            var usage = "Usage: \(name)"
            for option in command.options where option.isRequired {
                usage += " --\(option.name) \(option.valueName ?? "")"
            }
            if command.options.contains(where: { !$0.isRequired }) { usage += " [options]" }
            for positional in command.positionals {
                let text = positional.name + (positional.isVariadic ? "…" : "")
                usage += positional.isOptional ? " [\(text)]" : " \(text)"
            }
            lines.append(usage)
        } else {
            lines.append("Usage: \(name) <command> [options]")
        }
        if !command.discussion.isEmpty {
            lines.append("")
            lines.append(contentsOf: command.discussion.split(separator: "\n", omittingEmptySubsequences: false)
                .map { wrap(String($0), width: width) })
        }
        /// A titled table of names and their help, the text column 4 past the longest name.
        func section(_ title: String, _ rows: [(name: String, help: String)]) {
            lines.append("")
            lines.append(title)
            let column = (rows.map(\.name.count).max() ?? 0) + 4
            for row in rows { lines.append(table(row.name, row.help, column: column, width: width)) }
        }
        if !command.subcommands.isEmpty {
            section("Commands:", command.subcommands.map { (name: $0.name, help: $0.abstract) })
            lines.append("")
            lines.append("See '\(name) <command> --help' for a command's options.")
        }
        if !command.positionals.isEmpty {
            section("Arguments:", command.positionals.map { (name: $0.name, help: $0.help) })
        }
        let options = command.options + [helpOption]
        let visible = options
        lines.append("")
        lines.append("Options:")
        let labels = visible.map { option -> String in
            var label = option.short.map { "-\($0), " } ?? "    "
            label += "--\(option.name)"
            if let valueName = option.valueName { label += " \(valueName)" }
            return label
        }
        let column = min(34, (labels.map(\.count).max() ?? 0) + 4)
        for (label, option) in zip(labels, visible) {
            var text = option.help
            if let allowed = option.allowedValues { text += " One of: \(allowed.joined(separator: ", "))." }
            if let value = option.defaultValue { text += " Default: \(value)." }
            if option.isRepeatable { text += " May be repeated." }
            if option.isRequired { text += " Required." }
            lines.append(table(label, text, column: column, width: width))
        }
        if !command.examples.isEmpty {
            lines.append("")
            lines.append("Examples:")
            for example in command.examples {
                lines.append("  # \(example.comment)")
                lines.append("  \(example.command)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func table(_ label: String, _ text: String, column: Int, width: Int) -> String {
        let indent = String(repeating: " ", count: column + 2)
        let wrapped = wrap(text, width: width - column - 2).split(separator: "\n").map(String.init)
        var first = "  " + label
        if first.count >= column + 2 {
            return ([first] + wrapped.map { indent + $0 }).joined(separator: "\n")
        }
        first += String(repeating: " ", count: column + 2 - first.count)
        return ([first + (wrapped.first ?? "")] + wrapped.dropFirst().map { indent + $0 }).joined(separator: "\n")
    }

    /// Greedy word wrap.
    static func wrap(_ text: String, width: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !line.isEmpty && line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += line.isEmpty ? String(word) : " " + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
