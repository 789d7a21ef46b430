import ArgumentParsing
import Foundation
import Testing

/// `--config FILE`: options in a file (the service's /etc/lookaround/serve.conf), under the command
/// line, and the template that documents every option.
@Suite struct ConfigFileTests {
    static let serve = CommandSpec(
        name: "serve", abstract: "Serve.",
        options: [
            .value("listen", valueName: "HOST:PORT", help: "Address to listen on.", defaultValue: "127.0.0.1:8080"),
            .value("catalog", valueName: "PATH", help: "The catalog."),
            .value("format", valueName: "FORMAT", help: "A closed set.", allowedValues: ["json", "text"]),
            .value("key", valueName: "K", help: "Repeatable.", repeatable: true),
            .flag("verbose", help: "A flag."),
            .value("config", valueName: "FILE", help: "Read options from FILE."),
        ])
    static let root = CommandSpec(name: "lookaround", abstract: "Tool.", subcommands: [serve])

    func parsed(_ arguments: [String]) throws -> ParsedArguments {
        guard case .run(let parsed) = try ArgumentParser.parse(arguments, root: Self.root) else { throw UsageError(commandPath: "", message: "help") }
        return parsed
    }

    func options(_ text: String) throws -> (values: [String: [String]], flags: Set<String>) {
        try ConfigFile.options(parsing: text, file: "serve.conf", for: Self.serve, commandPath: "lookaround serve")
    }

    @Test func readsNameValueLinesCommentsFlagsAndQuotes() throws {
        let file = try options("""
            # a comment
              listen = 0.0.0.0:9000

            catalog=/var/lib/lookaround/catalog.sqlite
            key = a
            key = " b "
            verbose = true
            # verbose = false
            """)
        #expect(file.values == ["listen": ["0.0.0.0:9000"], "catalog": ["/var/lib/lookaround/catalog.sqlite"], "key": ["a", " b "]])
        #expect(file.flags == ["verbose"])
        #expect(try options("verbose = off").flags.isEmpty)
    }

    @Test(arguments: [
        ("lisen = 1", "serve.conf:1: unknown option 'lisen'", "listen"),
        ("\n\nlisten 127.0.0.1:1", "serve.conf:3: expected 'name = value', found 'listen 127.0.0.1:1'", nil),
        ("listen = a\nlisten = b", "serve.conf:2: 'listen' is given more than once", nil),
        ("verbose = maybe", "serve.conf:1: verbose is a flag: its value is true or false, not 'maybe'", nil),
        ("format = xml", "serve.conf:1: format 'xml' is not one of: json, text", nil),
        ("config = other.conf", "serve.conf:1: unknown option 'config'", nil),
    ] as [(String, String, String?)])
    func refusesWhatItCannotReadNamingTheLine(text: String, message: String, suggestion: String?) {
        do {
            _ = try options(text)
            Issue.record("accepted \(text)")
        } catch let error as UsageError {
            #expect(error.message == message)
            if let suggestion { #expect(error.suggestion == suggestion) }
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func theCommandLineWinsOverTheFile() throws {
        let path = NSTemporaryDirectory() + "config-\(UUID().uuidString).conf"
        try "listen = 0.0.0.0:9000\ncatalog = /from/file.sqlite\nverbose = yes\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let merged = try parsed(["serve", "--config", path, "--catalog", "/from/command-line.sqlite"]).overConfigFile(path)
        #expect(merged.string("catalog") == "/from/command-line.sqlite")
        #expect(merged.string("listen") == "0.0.0.0:9000" && merged.flag("verbose"))
        #expect(throws: UsageError(commandPath: "lookaround serve", message: "--config \(path).missing does not exist")) {
            try parsed(["serve"]).overConfigFile(path + ".missing")
        }
    }

    /// The template documents every option but `config`, sets the ones given, and reads back as them.
    @Test func theTemplateListsEveryOptionAndReadsBack() throws {
        let text = ConfigFile.template(for: Self.serve, values: [("catalog", "/var/lib/lookaround/catalog.sqlite"), ("key", "a"), ("key", "b")],
                                       header: ["Header line."])
        #expect(text.hasPrefix("# Header line.\n"))
        #expect(text.contains("# Address to listen on.\n# listen = 127.0.0.1:8080\n"))
        #expect(text.contains("# One of: json, text.\n# format =\n"))
        #expect(text.contains("# verbose = false\n") && !text.contains("config ="))
        let back = try options(text)
        #expect(back.values == ["catalog": ["/var/lib/lookaround/catalog.sqlite"], "key": ["a", "b"]] && back.flags.isEmpty)
    }
}
