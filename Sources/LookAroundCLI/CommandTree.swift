import ArgumentParsing

/// Every command of the tool, in the order `--help` lists them.
enum CommandTree {
    static let version = "0.1.0"

    /// Top-level commands (`lookaround map …`), listed first in help.
    static var commands: [any Command.Type] {
        [SimulateCommand.self, IndexCommand.self, BlurCommand.self, SceneCommand.self, SearchCommand.self, GeocodeCommand.self, SnapshotCommand.self, InspectCommand.self, ViewCommand.self, MapCommand.self, WalkCommand.self, DirectionsCommand.self, ServeCommand.self]
    }

    /// Commands about the tool itself (completion scripts, manual pages), listed last.
    static var toolCommands: [any Command.Type] { [CompletionsCommand.self, HelpCommand.self] }

    /// Groups of related commands (`lookaround geo distance …`).
    static var groups: [any CommandGroup.Type] { [GeoCommands.self, ImageCommands.self, VideoCommands.self, StorageCommands.self] }

    static let root = CommandSpec(
        name: "lookaround",
        abstract: "street imagery on one CPU: availability, perspective views with labels, walkthroughs, "
            + "and a simulator that ray-traces street panoramas from OpenStreetMap.",
        discussion: """
            Conventions: coordinates are WGS84 degrees (latitude -90…90, longitude -180…180); headings are \
            degrees clockwise from true north; units are in option names (--radius-meters).
            Exit codes: 0 ok, 1 no imagery here, 64 usage error, 65 bad data, 66 missing input, 69 unavailable \
            (a database server, a tool, a terminal), 70 internal error, 73 cannot create output (permission denied, \
            read-only or missing folder), 74 I/O error (disk full).
            """,
        options: [.flag("version", help: "Print the version and the C libraries' versions, and exit."),
                  .flag("json", help: "With --version: as JSON (version, libraries with name, version, is_run_time_version, source).")],
        subcommands: commands.map { $0.spec } + groups.map { $0.spec } + toolCommands.map { $0.spec },
        examples: [
            (command: "lookaround geo distance --from 60.1699,24.9523 --to 60.1686,24.9417",
             comment: "geodesic distance and bearings between two points"),
            (command: "lookaround image info photo.jpg", comment: "size, format and panorama metadata of an image"),
        ])

    static func command(at path: [CommandSpec]) -> (any Command.Type)? {
        if path.count == 2 { return (commands + toolCommands).first { $0.spec.name == path[1].name } }
        guard path.count >= 3 else { return nil }
        for group in groups where group.name == path[1].name {
            return group.commands.first { $0.spec.name == path[2].name }
        }
        return nil
    }
}
