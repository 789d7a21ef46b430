import Foundation

/// A command's options written in a file, one `name = value` per line, as a system service reads them
/// (`lookaround serve --config /etc/lookaround/serve.conf`). The names are the long options without
/// dashes; `#` starts a comment line; a flag is `name = true` (or `false`, which leaves it out); a
/// repeatable option may appear on several lines; a value may be put in double quotes to keep its
/// leading or trailing spaces. The options given on the command line win over the file's.
///
/// ``template(for:values:header:)`` writes the file with every option, its help and its default, so
/// the file a package installs documents itself and cannot drift from the parser.
public enum ConfigFile {
    /// The options in the file at `path`, checked against `command`'s: values by name, and flags.
    /// - Throws: `UsageError` naming the file, the line and the problem (an unknown option with the
    ///   nearest name, a line without `=`, a flag's value other than true or false, a value not
    ///   allowed, an option given twice that may not be), or that the file cannot be read.
    public static func options(contentsOf path: String, for command: CommandSpec, commandPath: String) throws
        -> (values: [String: [String]], flags: Set<String>) {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "cannot be read (permissions, or not UTF-8 text)" : "does not exist"
            throw UsageError(commandPath: commandPath, message: "--config \(path) \(reason)")
        }
        return try options(parsing: text, file: path, for: command, commandPath: commandPath)
    }

    /// ``options(contentsOf:for:commandPath:)`` on text already read (`file` names it in errors).
    public static func options(parsing text: String, file: String, for command: CommandSpec, commandPath: String) throws
        -> (values: [String: [String]], flags: Set<String>) {
        var values: [String: [String]] = [:]
        var flags: Set<String> = []
        var seen: Set<String> = []
        for (number, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            func fail(_ message: String, suggestion: String? = nil) -> UsageError {
                UsageError(commandPath: commandPath, message: "\(file):\(number + 1): \(message)", suggestion: suggestion)
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw fail("expected 'name = value', found '\(line)'")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            guard let spec = command.option(named: name), name != "config" else {
                let names = command.options.map(\.name).filter { $0 != "config" }
                throw fail("unknown option '\(name)'", suggestion: ArgumentParser.closestMatch(to: name, among: names))
            }
            if seen.contains(name) && !spec.isRepeatable { throw fail("'\(name)' is given more than once") }
            seen.insert(name)
            if spec.takesValue {
                if let allowed = spec.allowedValues, !allowed.contains(value) {
                    throw fail("\(name) '\(value)' is not one of: \(allowed.joined(separator: ", "))",
                               suggestion: ArgumentParser.closestMatch(to: value, among: allowed))
                }
                values[name, default: []].append(value)
            } else {
                switch value.lowercased() {
                case "true", "yes", "on": flags.insert(name)
                case "false", "no", "off": break
                default: throw fail("\(name) is a flag: its value is true or false, not '\(value)'")
                }
            }
        }
        return (values, flags)
    }

    /// The file for `command` with every option (but `config` and the ones in `excluding`): its help
    /// as comment lines, then `name = value` when `values` sets it, else `# name = default` (or
    /// `# name =` when there is no default).
    public static func template(for command: CommandSpec, values: [(name: String, value: String)] = [], header: [String] = [],
                                excluding: Set<String> = []) -> String {
        var lines = header.map { $0.isEmpty ? "#" : "# " + $0 }
        for option in command.options where option.name != "config" && !excluding.contains(option.name) {
            lines.append("")
            lines += ArgumentParser.wrap(option.help, width: 96).split(separator: "\n").map { "# " + $0 }
            if let allowed = option.allowedValues { lines.append("# One of: \(allowed.joined(separator: ", ")).") }
            let set = values.filter { $0.name == option.name }
            if set.isEmpty {
                let shown = option.takesValue ? (option.defaultValue ?? "") : "false"
                lines.append("# \(option.name) =" + (shown.isEmpty ? "" : " \(shown)"))
            } else {
                lines += set.map { "\(option.name) = \($0.value)" }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ParsedArguments {
    /// These arguments over the options of the configuration file at `path` (``ConfigFile``): an
    /// option given here wins over the file's.
    /// - Throws: `UsageError` as ``ConfigFile/options(contentsOf:for:commandPath:)``.
    public func overConfigFile(_ path: String) throws -> ParsedArguments {
        let file = try ConfigFile.options(contentsOf: path, for: command, commandPath: commandName)
        var merged = self
        for (name, list) in file.values where merged.values[name] == nil { merged.values[name] = list }
        merged.flags.formUnion(file.flags)
        return merged
    }
}
