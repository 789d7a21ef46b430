import Foundation
import Testing
import TestSupport

/// End-to-end: the built `lookaround` executable, its stdout, stderr and exit code.
@Suite struct GeneralCLITests {
    @Test func helpListsEveryCommandGroupAndExitsZero() throws {
        let result = try Lookaround.run(["--help"])
        #expect(result.exitCode == 0)
        #expect(result.stderr.isEmpty)
        for word in ["geo", "image", "Exit codes", "Usage: lookaround <command>"] {
            #expect(result.stdout.contains(word), "help lacks \(word)")
        }
    }

    @Test func noArgumentsShowsHelp() throws {
        let result = try Lookaround.run([])
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("lookaround:"))
    }

    @Test func versionPrintsTheVersion() throws {
        let result = try Lookaround.run(["--version"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.hasPrefix("lookaround "))
    }

    @Test func unknownCommandIsAUsageErrorWithASuggestion() throws {
        let result = try Lookaround.run(["imag"])
        #expect(result.exitCode == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("error: unknown command 'imag'"))
        #expect(result.stderr.contains("did you mean 'lookaround image'?"))
    }

    @Test(arguments: [["geo", "distance", "--help"], ["geo", "destination", "-h"], ["geo", "tile", "--help"],
                      ["geo", "--help"], ["help", "geo"]])
    func everyCommandHasHelp(arguments: [String]) throws {
        let result = try Lookaround.run(arguments)
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("Usage: lookaround"))
        #expect(result.stdout.contains("Options:"))
    }
}
