/// A declared option of a command: `--name VALUE`, `--name=VALUE`, `-s VALUE`, or a flag `--name`.
///
/// Units go in names where the value carries no type (`--radius-meters`, `--fov-degrees`).
public struct OptionSpec: Sendable {
    /// The long name without dashes (`radius-meters`).
    public var name: String
    /// An optional one-letter short name (`o` for `-o`).
    public var short: Character?
    /// The placeholder shown in help (`METERS`); `nil` makes the option a flag that takes no value.
    public var valueName: String?
    /// One line (or a short paragraph) saying what it does, with its unit and allowed range.
    public var help: String
    /// The value used when the option is absent, shown in help.
    public var defaultValue: String?
    /// The only values accepted, if the set is closed (shown in help, checked when parsing).
    public var allowedValues: [String]?
    /// Whether the option may be given several times (`--pin A --pin B`).
    public var isRepeatable: Bool
    /// Whether the option must be given.
    public var isRequired: Bool
    /// What shell completion offers for the value, when the value name does not say it (see ``completion``).
    public var valueCompletion: ValueCompletion?

    /// An option that takes a value.
    public static func value(_ name: String, short: Character? = nil, valueName: String, help: String,
                             defaultValue: String? = nil, allowedValues: [String]? = nil,
                             repeatable: Bool = false, required: Bool = false,
                             completion: ValueCompletion? = nil) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: valueName, help: help, defaultValue: defaultValue,
                   allowedValues: allowedValues, isRepeatable: repeatable, isRequired: required,
                   valueCompletion: completion)
    }

    /// A flag: present or absent.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionSpec {
        OptionSpec(name: name, short: short, valueName: nil, help: help, defaultValue: nil,
                   allowedValues: nil, isRepeatable: false, isRequired: false, valueCompletion: nil)
    }

    /// Whether this option takes a value.
    public var takesValue: Bool { valueName != nil }

    /// What shell completion offers for the value: the allowed values when the set is closed, else the
    /// declared completion, else files for `FILE`/`PATH` and folders for `DIR`, else nothing.
    public var completion: ValueCompletion {
        guard let valueName else { return .none }
        if let allowedValues { return .values(allowedValues) }
        return valueCompletion ?? ValueCompletion(inferredFrom: valueName)
    }
}

/// What shell completion offers for an option's value or a positional argument.
public enum ValueCompletion: Sendable, Hashable {
    /// Nothing (a number, a name, a coordinate).
    case none
    /// File names.
    case file
    /// Folder names.
    case directory
    /// One of these words.
    case values([String])
    /// The program's commands (for a `help COMMAND` argument; the tree is not built yet when specs are).
    case commands

    /// Files for `FILE` and `PATH`, folders for `DIR`, else nothing.
    init(inferredFrom valueName: String) {
        switch valueName {
        case "FILE", "PATH": self = .file
        case "DIR": self = .directory
        default: self = .none
        }
    }
}

/// A declared positional argument.
public struct PositionalSpec: Sendable {
    /// The placeholder shown in usage (`FILE`).
    public var name: String
    /// What it is.
    public var help: String
    /// Whether it may be left out.
    public var isOptional: Bool
    /// Whether it takes all remaining positional values (only the last positional may).
    public var isVariadic: Bool
    /// What shell completion offers for it.
    public var completion: ValueCompletion

    /// A positional; completion defaults to files for `FILE`/`PATH`, folders for `DIR`, else nothing.
    public init(_ name: String, help: String, optional: Bool = false, variadic: Bool = false,
                completion: ValueCompletion? = nil) {
        self.name = name
        self.help = help
        self.isOptional = optional
        self.isVariadic = variadic
        self.completion = completion ?? ValueCompletion(inferredFrom: name)
    }
}

/// A command: its options, positionals, and subcommands. Help text is generated from this spec,
/// so what `--help` says and what the parser accepts cannot drift apart.
public struct CommandSpec: Sendable {
    /// The word that selects the command (`snapshot`).
    public var name: String
    /// One line: what the command does.
    public var abstract: String
    /// Longer explanation shown under the usage line (may be empty).
    public var discussion: String
    /// Options the command accepts (`--help` is added automatically).
    public var options: [OptionSpec]
    /// Positional arguments, in order.
    public var positionals: [PositionalSpec]
    /// Subcommands; a command with subcommands is a group and needs one of them.
    public var subcommands: [CommandSpec]
    /// Example invocations shown in help, each with a comment.
    public var examples: [(command: String, comment: String)]

    public init(name: String, abstract: String, discussion: String = "", options: [OptionSpec] = [],
                positionals: [PositionalSpec] = [], subcommands: [CommandSpec] = [],
                examples: [(command: String, comment: String)] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.options = options
        self.positionals = positionals
        self.subcommands = subcommands
        self.examples = examples
    }

    /// The option called `name` (long), if declared.
    public func option(named name: String) -> OptionSpec? { options.first { $0.name == name } }
}
