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
    /// The declarations of `text` that are `@unchecked Sendable` without saying why: the comment block right
    /// above each (attributes skipped) must hold "`@unchecked Sendable`:" or "@unchecked Sendable:" and a
    /// reason — what guards the state (a lock, a Mutex, immutability after init, one owner at a time).
    static func uncheckedSendablesWithoutReason(in text: String) -> [Int] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var unexplained: [Int] = []
        for (index, line) in lines.enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard code.contains("@unchecked Sendable"), !code.hasPrefix("//") else { continue }
            var above = index - 1, comment: [String] = []
            while above >= 0 {
                let previous = lines[above].trimmingCharacters(in: .whitespaces)
                if previous.hasPrefix("//") { comment.append(previous) } else if !previous.hasPrefix("@") { break }
                above -= 1
            }
            let reason = comment.first { $0.contains("@unchecked Sendable`:") || $0.contains("@unchecked Sendable:") }
            let words = reason.map { $0.split(separator: ":", maxSplits: 1).last.map { $0.split(separator: " ").count } ?? 0 } ?? 0
            if words < 4 { unexplained.append(index + 1) }
        }
        return unexplained
    }

    /// Every `@unchecked Sendable` under `Sources` says why it is safe, where it is declared: the compiler
    /// cannot check it, so the reader must be able to.
    @Test func everyUncheckedSendableSaysWhy() throws {
        var unexplained: [String] = [], seen = 0
        for path in try Self.trackedPaths() where path.hasPrefix("Sources/") && path.hasSuffix(".swift") {
            let text = try String(contentsOf: Self.packageRoot.appendingPathComponent(path), encoding: .utf8)
            seen += text.components(separatedBy: "@unchecked Sendable").count - 1
            unexplained += Self.uncheckedSendablesWithoutReason(in: text).map { "\(path):\($0)" }
        }
        #expect(seen > 10, "found only \(seen) mentions of @unchecked Sendable")
        #expect(unexplained.isEmpty, "@unchecked Sendable without a `// @unchecked Sendable: why` just above: \(unexplained)")
    }

    /// The check finds a bare declaration, and accepts one explained above its attributes.
    @Test func theSendableCheckReadsTheCommentAbove() {
        let text = """
            /// A box.
            final class Bare: @unchecked Sendable {}

            // @unchecked Sendable: `value` is read and written under `lock` only.
            @available(macOS 10.15, *)
            final class Explained: @unchecked Sendable {}
            // @unchecked Sendable: because.
            final class Terse: @unchecked Sendable {}
            """
        #expect(Self.uncheckedSendablesWithoutReason(in: text) == [2, 8])
    }
}
