// The argument parser and the option validation shared by the CLI and the service: the input is a
// command line, words separated by NUL bytes, parsed against a tree with the real option specs of
// `snapshot` and `map` (SceneSelection, SnapshotOptions, MapOptions) plus positionals and a group;
// what parses is validated as those commands validate it, and help and "did you mean" are generated.
//
// The tool's own command tree lives in the `lookaround` executable, which cannot be imported; the specs
// that carry the validation logic are the shared ones used here.
import ArgumentParsing
import CommandOptions
import FuzzSupport

let root = CommandSpec(
    name: "lookaround", abstract: "fuzz tree",
    options: [.flag("version", help: "Version."), .flag("json", help: "JSON.")],
    subcommands: [
        CommandSpec(name: "snapshot", abstract: "a view",
                    options: SceneSelection.sceneOptions + SceneSelection.cameraOptions + SnapshotOptions.options + [
                        .value("output", short: "o", valueName: "FILE", help: "Output.", required: true),
                        .flag("json", help: "JSON.")]),
        CommandSpec(name: "map", abstract: "a map",
                    options: MapOptions.options + [.value("output", short: "o", valueName: "FILE", help: "Output.")]),
        CommandSpec(name: "index", abstract: "index",
                    options: [.value("catalog", valueName: "PATH", help: "Catalog."), .flag("tiles", help: "Tiles.")],
                    positionals: [PositionalSpec("DIR", help: "Folders.", variadic: true)]),
        CommandSpec(name: "geo", abstract: "group", subcommands: [
            CommandSpec(name: "distance", abstract: "distance",
                        options: [.value("from", valueName: "LAT,LON", help: "From.", required: true),
                                  .value("to", valueName: "LAT,LON", help: "To.", required: true)]),
            CommandSpec(name: "destination", abstract: "destination",
                        positionals: [PositionalSpec("POINT", help: "Start."), PositionalSpec("BEARING", help: "Bearing.", optional: true)]),
        ]),
    ])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArguments(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = FuzzInput.bytes(data, size)
    let words = bytes.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    do {
        switch try ArgumentParser.parse(words, root: root) {
        case .help(let path):
            _ = ArgumentParser.help(for: path, width: 60)
        case .run(let arguments):
            switch arguments.command.name {
            case "snapshot": _ = try SnapshotOptions(arguments)
            case "map": _ = try MapOptions(arguments, allowCameraFiles: false)
            case "distance": _ = (try arguments.requiredCoordinate("from"), try arguments.requiredCoordinate("to"))
            case "destination": _ = try arguments.parseCoordinate(arguments.positionals.first ?? "", option: "POINT")
            default: _ = arguments.positionals
            }
        }
    } catch {
        _ = "\(error)"
    }
    if let first = words.first { _ = ArgumentParser.closestMatch(to: first, among: ["snapshot", "map", "index", "geo"]) }
    return 0
}

@_cdecl("FuzzArguments_main")
public func fuzzArgumentsMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32 {
    FuzzInput.run(argc, argv, fuzzArguments)
}
