/// A file path split at its last `/`, as POSIX `dirname`/`basename` do for the paths users give.
///
/// One place for it because swift-corelibs-foundation's `NSString.deletingLastPathComponent` traps on
/// a one-character path (`lookaround map -o a` crashed with "Illegal instruction").
public enum FilePath {
    /// The folder part: "" for a bare name ("a.png"), "/" for a file at the root, trailing slashes of
    /// the name ignored ("out/frames/" → "out").
    public static func directory(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        let folder = trimmingTrailingSlashes(String(trimmed[..<slash]))
        return folder.isEmpty ? "/" : folder
    }

    /// The last component, without trailing slashes ("out/frames/" → "frames", "/" → "/").
    public static func name(of path: String) -> String {
        let trimmed = trimmingTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        let name = String(trimmed[trimmed.index(after: slash)...])
        return name.isEmpty ? "/" : name
    }

    /// `name` inside `directory` ("" means the current folder).
    public static func joining(_ directory: String, _ name: String) -> String {
        directory.isEmpty ? name : (directory.hasSuffix("/") ? directory + name : directory + "/" + name)
    }

    private static func trimmingTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
