import Foundation

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

    /// Runs any program to completion, feeding `stdin`, and returns what it wrote and its exit code.
    /// Both pipes are read concurrently so neither fills up and blocks the child.
    public static func runProcess(_ executable: String, _ arguments: [String], stdin: [UInt8] = [],
                                  in directory: URL? = nil, environment: [String: String] = [:]) throws -> ProcessResult {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
        nonisolated(unsafe) var errorData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errorData = errors.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return ProcessResult(exitCode: process.terminationStatus,
                             stdout: String(decoding: outputData, as: UTF8.self),
                             stderr: String(decoding: errorData, as: UTF8.self),
                             stdoutBytes: [UInt8](outputData))
    }

    /// A new empty temporary directory.
    public static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
