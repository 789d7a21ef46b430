import Diagnostics
import Imaging
import LookAround
import Service
import Video

/// `lookaround --version`: the tool's version and the C libraries it loaded (`--json`: this, encoded).
struct VersionReport: Encodable {
    var version = CommandTree.version
    var libraries = LinkedLibrary.lookAround + LinkedLibrary.video

    static func text() -> String {
        let libraries = LinkedLibrary.lookAround + LinkedLibrary.video
        let column = (libraries.map(\.name.count).max() ?? 0) + 2
        var lines = ["lookaround \(CommandTree.version)", "", "C libraries (as loaded, unless marked):"]
        for library in libraries {
            let name = library.name + String(repeating: " ", count: column - library.name.count)
            lines.append("  " + name + library.version + (library.isRunTimeVersion ? "" : "  (\(library.source))"))
        }
        return lines.joined(separator: "\n")
    }
}
