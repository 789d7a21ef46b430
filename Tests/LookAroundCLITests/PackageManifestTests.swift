import Foundation
import Testing
import TestSupport

/// Every target names every module it imports among its dependencies in Package.swift.
///
/// Why it matters: SwiftPM schedules a module's compile jobs from its *declared* dependencies. A
/// module imported only because it is reachable through another one (MapSnapshotTests imported
/// Imaging through MapSnapshot) is not watched, so when its layout changes — a stored property
/// added to `Canvas`'s rasterizer, in the merge of 2026-11-29 — the importing files are not
/// recompiled: their objects keep the old size and field offsets of `Canvas`, call the new
/// `Canvas.init`, and destroy its fields at the old offsets. That was the crash in `swift_release`
/// while `MapSnapshotGoldenTests.flightContactSheet` ended, seen only after incremental builds (a
/// three-module package reproduces it: the stale client segfaults; with the dependency declared it
/// is recompiled and runs).
@Suite struct PackageManifestTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Modules of the toolchain and the system, not targets of this package.
    static let systemModules: Set<String> = [
        "Foundation", "FoundationEssentials", "FoundationNetworking", "FoundationXML", "Dispatch", "Glibc", "Musl", "Darwin",
        "Testing", "XCTest", "Synchronization", "PackageDescription", "_Concurrency",
    ]

    struct Target { var name: String, kind: String, dependencies: Set<String>, path: String }

    /// The targets of Package.swift: name, kind, dependency names and source folder.
    static func targets(in manifest: String) -> [Target] {
        let declaration = try! NSRegularExpression(pattern: #"\.(target|testTarget|executableTarget|systemLibrary)\(\s*name:\s*"(\w+)""#)
        let text = manifest as NSString
        let matches = declaration.matches(in: manifest, range: NSRange(location: 0, length: text.length))
        return matches.enumerated().map { index, match in
            let end = index + 1 < matches.count ? matches[index + 1].range.location : text.length
            let body = text.substring(with: NSRange(location: match.range.location, length: end - match.range.location))
            let kind = text.substring(with: match.range(at: 1)), name = text.substring(with: match.range(at: 2))
            var dependencies: Set<String> = []
            if let list = body.range(of: #"dependencies:\s*\[[^\]]*\]"#, options: .regularExpression) {
                dependencies = Set(strings(in: String(body[list])))
            }
            let path = body.range(of: #"path:\s*"[^"]+""#, options: .regularExpression).flatMap { strings(in: String(body[$0])).first }
                ?? (kind == "testTarget" ? "Tests/\(name)" : "Sources/\(name)")
            return Target(name: name, kind: kind, dependencies: dependencies, path: path)
        }
    }

    static func strings(in text: String) -> [String] {
        let quoted = try! NSRegularExpression(pattern: #""([^"]+)""#)
        return quoted.matches(in: text, range: NSRange(location: 0, length: (text as NSString).length))
            .map { (text as NSString).substring(with: $0.range(at: 1)) }
    }

    /// The modules `import`ed by the Swift files under `folder` (any attributes and import kinds).
    static func imports(under folder: URL) -> [String: String] {
        let statement = try! NSRegularExpression(
            pattern: #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate)\s+)?import\s+(?:(?:struct|class|enum|protocol|func|var|let|typealias)\s+)?(\w+)"#,
            options: .anchorsMatchLines)
        var found: [String: String] = [:]
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return [:] }
        for case let file as URL in files where file.pathExtension == "swift" && !file.path.contains("/Fixtures/") {
            guard let source = try? String(contentsOf: file, encoding: .utf8) else { continue }
            for match in statement.matches(in: source, range: NSRange(location: 0, length: (source as NSString).length)) {
                found[(source as NSString).substring(with: match.range(at: 1)), default: file.lastPathComponent] = file.lastPathComponent
            }
        }
        return found
    }

    @Test func everyImportedModuleIsADeclaredDependency() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = Self.targets(in: manifest)
        let names = Set(targets.map(\.name))
        #expect(targets.count > 30 && names.contains("Imaging") && names.contains("MapSnapshotTests"), "parsed \(targets.map(\.name))")
        var checked = 0
        for target in targets where target.kind != "systemLibrary" {
            let folder = Self.packageRoot.appendingPathComponent(target.path)
            let swiftFiles = FileManager.default.enumerator(atPath: folder.path)?.contains { ($0 as? String)?.hasSuffix(".swift") == true }
            guard swiftFiles == true else { continue }  // a C target (CImagingShims)
            let imports = Self.imports(under: folder)
            #expect(!imports.isEmpty || target.dependencies.isEmpty, "\(target.name): no imports found under \(target.path)")
            for (module, file) in imports.sorted(by: { $0.key < $1.key })
            where module != target.name && !Self.systemModules.contains(module) {
                checked += 1
                #expect(target.dependencies.contains(module),
                        "\(target.name) imports \(module) (\(file)) without naming it in its dependencies in Package.swift")
                #expect(names.contains(module), "\(target.name) imports \(module), which is neither a target nor a system module")
            }
        }
        #expect(checked > 100, "only \(checked) imports checked")
    }

    /// The other way round: every declared dependency is imported somewhere in the target, so the
    /// graph says what the code uses (a dependency kept after its last use still orders and links the
    /// build: MapSnapshot's Simulator made every client of LookAround link Embree). A C module that
    /// only links a library (CImagingShims' libpng) is imported too, by the code that calls it.
    @Test func everyDeclaredDependencyIsImported() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        var checked = 0
        for target in Self.targets(in: manifest) where target.kind != "systemLibrary" {
            let folder = Self.packageRoot.appendingPathComponent(target.path)
            let swiftFiles = FileManager.default.enumerator(atPath: folder.path)?.contains { ($0 as? String)?.hasSuffix(".swift") == true }
            guard swiftFiles == true else { continue }
            let imports = Self.imports(under: folder)
            for dependency in target.dependencies.sorted() {
                checked += 1
                #expect(imports[dependency] != nil, "\(target.name) declares \(dependency) in Package.swift but no file under \(target.path) imports it")
            }
        }
        #expect(checked > 100, "only \(checked) dependencies checked")
    }

    /// A client of the public API (`import LookAround`) does not link the ray tracer and Embree: no
    /// path in the target graph from LookAround to Simulator or CEmbree3.
    @Test func lookAroundDoesNotReachTheSimulator() throws {
        let manifest = try String(contentsOf: Self.packageRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = Dictionary(uniqueKeysWithValues: Self.targets(in: manifest).map { ($0.name, $0) })
        func closure(_ name: String) -> Set<String> {
            var seen: Set<String> = [], stack = [name]
            while let next = stack.popLast() {
                for dependency in targets[next]?.dependencies ?? [] where seen.insert(dependency).inserted { stack.append(dependency) }
            }
            return seen
        }
        let reached = closure("LookAround")
        #expect(reached.contains("Reprojection") && reached.contains("MapSnapshot"), "\(reached.sorted())")
        #expect(!reached.contains("Simulator") && !reached.contains("CEmbree3"), "LookAround reaches \(reached.sorted())")
        #expect(closure("Orthophoto").contains("CEmbree3"), "the check sees a path when there is one")
    }

    /// The parser finds what the check relies on (a manifest with the failure of 2026-11-29).
    @Test func theCheckSeesAnUndeclaredTransitiveImport() throws {
        let manifest = """
            .target(name: "Imaging", dependencies: ["CPNG"]),
            .testTarget(name: "MapSnapshotTests", dependencies: ["MapSnapshot", "TestSupport"],
                        exclude: ["Fixtures"]),
            .executableTarget(name: "TerminalProbe", dependencies: ["Imaging"], path: "Tests/TerminalProbe"),
            """
        let targets = Self.targets(in: manifest)
        #expect(targets.map(\.name) == ["Imaging", "MapSnapshotTests", "TerminalProbe"])
        #expect(targets[1].dependencies == ["MapSnapshot", "TestSupport"] && !targets[1].dependencies.contains("Imaging"))
        #expect(targets[1].path == "Tests/MapSnapshotTests" && targets[2].path == "Tests/TerminalProbe")
        let folder = try Lookaround.temporaryDirectory()
        try "import Foundation\n@testable import MapSnapshot\nimport struct Imaging.Canvas\n  @preconcurrency import Geodesy\n// import Nothing\n"
            .write(to: folder.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
        #expect(Set(Self.imports(under: folder).keys) == ["Foundation", "MapSnapshot", "Imaging", "Geodesy"])
    }
}
