import Foundation
import Testing
import TestSupport

/// Rules about the repository's files that a reviewer would otherwise have to remember.
@Suite struct RepositoryLayoutTests {
    static let packageRoot = PackageManifestTests.packageRoot

    /// The repository's files, relative to its root: what git tracks, or (in an export without `.git`) every
    /// file outside the build folders.
    static func trackedPaths() throws -> [String] {
        if FileManager.default.fileExists(atPath: packageRoot.appendingPathComponent(".git").path),
           let listing = try? Lookaround.runProcess("/usr/bin/git", ["-C", packageRoot.path, "ls-files", "-z"]),
           listing.exitCode == 0 {
            return listing.stdout.split(separator: "\0").map(String.init)
        }
        var paths: [String] = []
        let skipped: Set<String> = [".build", ".git", "out"]
        guard let walker = FileManager.default.enumerator(atPath: packageRoot.path) else { return [] }
        while let path = walker.nextObject() as? String {
            if skipped.contains(path.split(separator: "/").first.map(String.init) ?? "") { continue }
            paths.append(path)
        }
        return paths
    }

    /// The groups of paths (files and every folder above them) that differ only by letter case.
    static func caseCollisions(in paths: [String]) -> [[String]] {
        var all: Set<String> = []
        for path in paths {
            let parts = path.split(separator: "/")
            for end in 1...max(parts.count, 1) where !parts.isEmpty { all.insert(parts[0..<end].joined(separator: "/")) }
        }
        return Dictionary(grouping: all, by: { $0.lowercased() }).values
            .filter { $0.count > 1 }.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    }

    /// A clone on macOS's or Windows' default (case-insensitive) file system keeps one of two paths that
    /// differ only by case: `Sources/lookaround` beside `Sources/LookAround` broke such clones.
    @Test func noTwoPathsDifferOnlyByCase() throws {
        let paths = try Self.trackedPaths()
        #expect(paths.count > 500, "found only \(paths.count) files under \(Self.packageRoot.path)")
        let collisions = Self.caseCollisions(in: paths)
        #expect(collisions.isEmpty, "paths that differ only by case: \(collisions)")
    }

    /// The check sees a collision in a folder name as well as in a file name.
    @Test func theCaseCheckSeesFoldersAndFiles() {
        let found = Self.caseCollisions(in: ["Sources/lookaround/main.swift", "Sources/LookAround/API.swift",
                                             "README.md", "docs/Readme.md", "docs/README.md", "Tests/A.swift"])
        #expect(found == [["Sources/LookAround", "Sources/lookaround"], ["docs/README.md", "docs/Readme.md"]])
    }
}
