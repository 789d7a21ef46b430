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

    /// The versions are those of the libraries loaded: on Debian the -dev package (pkg-config) and the
    /// shared library come from one source package, so the run-time version equals pkg-config's.
    @Test(arguments: [("libpng", "libpng"), ("FreeType", nil), ("SQLite", "sqlite3"), ("libdeflate", "libdeflate"),
                      ("libjpeg-turbo", "libturbojpeg"), ("libreadosm", "readosm"), ("zlib", "zlib"), ("Expat", "expat"),
                      ("libavformat", "libavformat"), ("libavcodec", "libavcodec"), ("libswscale", "libswscale"), ("libavutil", "libavutil"),
                      ("libcurl", "libcurl"), ("libcrypto", "libcrypto")])
    func versionListsEveryLinkedLibraryWithItsVersion(library: String, pkgConfigName: String?) throws {
        let result = try Lookaround.run(["--version"])
        let line = result.stdout.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(library + " ") }
        let fields = line.map { $0.split(separator: " ") } ?? []
        #expect(fields.count >= 2, "--version lacks a line for \(library): \(result.stdout)")
        guard fields.count >= 2, let pkgConfigName else { return }
        let expected = try Lookaround.runProcess("/usr/bin/pkg-config", ["--modversion", pkgConfigName])
        #expect(String(fields[1]) == expected.stdout.trimmingCharacters(in: .whitespacesAndNewlines),
                "\(library): --version says \(fields[1]), pkg-config \(expected.stdout)")
    }

    @Test func versionAsJSON() throws {
        let result = try Lookaround.run(["--version", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect((object["version"] as? String).map { result.stdout.contains($0) } == true)
        let libraries = try #require(object["libraries"] as? [[String: Any]])
        let sqlite = try #require(libraries.first { $0["name"] as? String == "SQLite" })
        #expect(sqlite["is_run_time_version"] as? Bool == true && sqlite["source"] as? String == "sqlite3_libversion")
        #expect(libraries.first { $0["name"] as? String == "libdeflate" }?["is_run_time_version"] as? Bool == false)
        let typo = try Lookaround.run(["--version", "--jsn"])
        #expect(typo.exitCode == 64 && typo.stderr.contains("unknown option '--jsn'") && typo.stderr.contains("did you mean '--json'?"))
    }

    @Test func versionMarksLibrariesWithoutARunTimeVersionCall() throws {
        let lines = try Lookaround.run(["--version"]).stdout.split(separator: "\n")
        for library in ["libjpeg-turbo", "libdeflate"] {
            #expect(lines.contains { $0.contains(library) && $0.contains("built against") }, "\(library) not marked")
        }
        for library in ["libpng", "FreeType", "SQLite", "libreadosm"] {
            #expect(lines.contains { $0.contains(library) && !$0.contains("built against") }, "\(library) marked")
        }
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
