import Foundation
import ProcessRunner

/// What a run of an executable produced.
public struct ProcessResult: Sendable {
    public var exitCode: Int32
    public var stdout: String
    public var stderr: String
    public var stdoutBytes: [UInt8]
}

/// Runs the built `lookaround` executable for end-to-end tests.
///
/// `swift test` builds every product of the package into the same folder as the test bundle, so the
/// executable is found beside it.
/// The folder every temporary directory of this test process goes into; removed at exit (`atexit`).
nonisolated(unsafe) private var testRootPath: String?
private let testRoot: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-tests-\(getpid())-\(UUID().uuidString.prefix(8))")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    testRootPath = url.path
    atexit { if let path = testRootPath { try? FileManager.default.removeItem(atPath: path) } }
    return url
}()

public enum Lookaround {
    /// The path of the built executable.
    public static var executablePath: String {
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        // The XCTest bundle is a directory on some platforms; walk up until the products folder.
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("lookaround").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return bundle.deletingLastPathComponent().appendingPathComponent("lookaround").path
    }

    /// Runs `lookaround` with `arguments`, feeding `stdin`, in `directory` (a fresh temporary folder
    /// when nil), with `environment` set on top of the test's own, and waits for it.
    public static func run(_ arguments: [String], stdin: [UInt8] = [], in directory: URL? = nil,
                           environment: [String: String] = [:]) throws -> ProcessResult {
        try runProcess(executablePath, arguments, stdin: stdin, in: directory, environment: environment)
    }

    /// Runs any program to completion, feeding `stdin`, and returns what it wrote and its exit code
    /// (``ChildProcess/run(_:_:stdin:directory:environment:captureOutput:)``: posix_spawn + waitpid, output
    /// through files, so a daemon the program leaves running does not keep the test waiting).
    public static func runProcess(_ executable: String, _ arguments: [String], stdin: [UInt8] = [],
                                  in directory: URL? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        let outcome = try ChildProcess.run(executable, arguments, stdin: stdin, directory: directory?.path,
                                           environment: environment)
        return ProcessResult(exitCode: outcome.exitStatus,
                             stdout: String(decoding: outcome.stdout, as: UTF8.self),
                             stderr: String(decoding: outcome.stderr, as: UTF8.self),
                             stdoutBytes: outcome.stdout)
    }

    /// The repository's root folder (this file is Tests/TestSupport/ExecutableRunner.swift).
    public static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The shipped Helsinki panoramas and the places of their OSM extract, indexed by the built
    /// `lookaround index` into a new temporary catalog: (its folder, the catalog's path).
    /// - Throws: when the index run fails (its stderr in the error).
    public static func indexShippedPanoramas() throws -> (root: URL, catalog: String) {
        let root = try temporaryDirectory()
        let catalog = root.appendingPathComponent("catalog.sqlite").path
        let panoramas = repository.appendingPathComponent("Panoramas/helsinki").path
        let osm = repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
        let result = try run(["index", panoramas, "--catalog", catalog, "--osm", osm, "--quiet"])
        guard result.exitCode == 0 else { throw CocoaError(.fileReadUnknown, userInfo: ["stderr": result.stderr]) }
        return (root, catalog)
    }

    /// A new empty temporary directory, inside this test process's root (``testRoot``), which is removed
    /// when the process exits: the suites left about 150 folders (4 MB each with a catalog) per run.
    public static func temporaryDirectory() throws -> URL {
        let url = testRoot.appendingPathComponent("test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A new ``temporaryDirectory()`` with a folder `name` in it holding copies of `items` (files or
    /// folders, under their own names): the root and the folder.
    public static func temporaryDirectory(withFolder name: String, copying items: [URL]) throws -> (root: URL, folder: URL) {
        let root = try temporaryDirectory()
        let folder = root.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for item in items {
            try FileManager.default.copyItem(at: item, to: folder.appendingPathComponent(item.lastPathComponent))
        }
        return (root, folder)
    }
}
