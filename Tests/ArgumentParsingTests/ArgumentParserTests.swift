import ArgumentParsing
import Testing

@Suite struct ArgumentParserTests {
    static let snapshot = CommandSpec(
        name: "snapshot", abstract: "Render a view.",
        options: [
            .value("lat", valueName: "DEGREES", help: "Latitude."),
            .value("radius-meters", valueName: "METERS", help: "Search radius.", defaultValue: "50"),
            .value("format", valueName: "FORMAT", help: "Image format.", defaultValue: "png",
                   allowedValues: ["png", "jpeg"]),
            .value("pin", valueName: "LAT,LON", help: "A pin.", repeatable: true),
            .value("output", short: "o", valueName: "FILE", help: "Where to write.", required: true),
            .flag("json", help: "JSON output."),
        ],
        positionals: [PositionalSpec("NAME", help: "A name.", optional: true)],
        examples: [(command: "lookaround snapshot -o a.png", comment: "simplest")])
    static let root = CommandSpec(
        name: "lookaround", abstract: "Street imagery.",
        options: [.flag("version", help: "Print the version.")],
        subcommands: [snapshot, CommandSpec(name: "scene", abstract: "Availability.")])

    func run(_ arguments: [String]) throws -> ParsedArguments {
        guard case .run(let parsed) = try ArgumentParser.parse(arguments, root: Self.root) else {
            Issue.record("expected a command to run for \(arguments)")
            throw UsageError(commandPath: "", message: "")
        }
        return parsed
    }

    @Test func parsesAllOptionForms() throws {
        let parsed = try run(["snapshot", "--lat", "-33.86", "--radius-meters=75", "-o", "out.png",
                              "--pin", "1,2", "--pin", "3,4", "--json", "Senaatintori"])
        #expect(parsed.commandName == "lookaround snapshot")
        #expect(try parsed.double("lat", in: -90...90) == -33.86)
        #expect(try parsed.int("radius-meters", in: 1...1000) == 75)
        #expect(parsed.string("output") == "out.png")
        #expect(parsed.strings("pin") == ["1,2", "3,4"])
        #expect(parsed.flag("json"))
        #expect(parsed.positionals == ["Senaatintori"])
        #expect(parsed.string("format") == "png")   // default
    }

    @Test func negativeNumberIsAPositional() throws {
        let parsed = try run(["snapshot", "-o", "x", "-12.5"])
        #expect(parsed.positionals == ["-12.5"])
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect {
            _ = try run(["snapshot", "--radius-meter", "5", "-o", "x"])
        } throws: { error in
            let usage = error as? UsageError
            return usage?.suggestion == "--radius-meters" && usage?.message == "unknown option '--radius-meter'"
        }
    }

    @Test func unknownCommandSuggestsTheClosest() {
        #expect {
            _ = try run(["snapshoot"])
        } throws: { error in
            (error as? UsageError)?.suggestion == "lookaround snapshot"
        }
    }

    @Test func rejectsValuesOutsideTheClosedSet() {
        #expect {
            _ = try run(["snapshot", "-o", "x", "--format", "jpg"])
        } throws: { error in
            let usage = error as? UsageError
            return usage?.suggestion == "jpeg" && (usage?.message.contains("png, jpeg") ?? false)
        }
    }

    @Test func rangeErrorsNameTheValueAndTheRange() throws {
        let parsed = try run(["snapshot", "-o", "x", "--lat", "91"])
        #expect {
            _ = try parsed.double("lat", in: -90...90)
        } throws: { error in
            (error as? UsageError)?.message == "--lat 91 is out of range; allowed -90…90"
        }
        let nan = try run(["snapshot", "-o", "x", "--lat", "nan"])
        #expect {
            _ = try nan.double("lat", in: -90...90)
        } throws: { error in
            (error as? UsageError)?.message.contains("not a finite number") ?? false
        }
    }

    @Test func missingRequiredOptionAndValue() {
        // Each names its option as data too (what the service answers as the parameter at fault).
        func usage(_ message: String, _ option: String? = nil) -> UsageError { UsageError(commandPath: "lookaround snapshot", message: message, option: option) }
        #expect(throws: usage("missing required option --output FILE", "output")) { _ = try run(["snapshot"]) }
        #expect(throws: usage("--output needs a value (FILE)", "output")) { _ = try run(["snapshot", "-o"]) }
        #expect(throws: usage("--json is a flag and takes no value", "json")) { _ = try run(["snapshot", "-o", "x", "--json=yes"]) }
        #expect(throws: usage("--lat was given more than once", "lat")) {
            _ = try run(["snapshot", "-o", "x", "--lat", "1", "--lat", "2"])
        }
        #expect(throws: usage("unexpected argument 'b'")) { _ = try run(["snapshot", "-o", "x", "a", "b"]) }
    }

    @Test func helpIsGeneratedFromTheSpec() throws {
        guard case .help(let path) = try ArgumentParser.parse(["snapshot", "--help"], root: Self.root) else {
            Issue.record("expected help"); return
        }
        let text = ArgumentParser.help(for: path)
        #expect(text.hasPrefix("lookaround snapshot: Render a view."))
        #expect(text.contains("Usage: lookaround snapshot --output FILE [options] [NAME]"))
        #expect(text.contains("--radius-meters METERS"))
        #expect(text.contains("Default: 50."))
        #expect(text.contains("One of: png, jpeg."))
        #expect(text.contains("-o, --output FILE"))
        #expect(text.contains("lookaround snapshot -o a.png"))
        guard case .help(let rootPath) = try ArgumentParser.parse([], root: Self.root) else {
            Issue.record("expected help with no arguments"); return
        }
        #expect(ArgumentParser.help(for: rootPath).contains("snapshot"))
    }

    @Test func usageErrorFormat() {
        let error = UsageError(commandPath: "lookaround scene", message: "bad", suggestion: "--lat")
        #expect(error.description == "error: bad\n       did you mean '--lat'?\n       see 'lookaround scene --help'")
        #expect(error.category.exitCode == 64)
    }

    /// The one number syntax of the command line and the HTTP queries: decimal, finite, nothing else.
    @Test func numbersAreDecimalOnly() throws {
        let accepted: [(String, Double)] = [("60.1699", 60.1699), ("-12", -12), ("+5", 5), (".5", 0.5), ("5.", 5), ("1e3", 1000),
                                            ("2.5E-2", 0.025), ("0", 0), ("-0.0", 0)]
        for (text, value) in accepted { #expect(ParsedArguments.decimal(text) == value, "\(text)") }
        for text in ["0x1p4", "0x10", "inf", "-inf", "nan", "NaN", "infinity", " 5", "5 ", "", "-", ".", "e3", "1e", "1e+",
                     "1.2.3", "1,5", "5m", "1e999", "٣"] {
            #expect(ParsedArguments.decimal(text) == nil, "\(text.debugDescription) was taken for a number")
        }
        // On the command line: --lat 0x1p4 is an error naming the value, not latitude 16.
        let parsed = try run(["snapshot", "--lat", "0x1p4", "-o", "a.png"])
        #expect(throws: UsageError(commandPath: "lookaround snapshot",
                                   message: "--lat '0x1p4' is not a finite number; allowed -90…90", option: "lat")) {
            try parsed.double("lat", in: -90...90)
        }
    }

    /// The parser's own conversion (Clinger's fast path, `Double(_:)` beyond it) gives the same double,
    /// bit for bit, as `Double(_:)` for every decimal text: coordinates as clients write them, long and
    /// short fractions, exponents at and past the fast path's ±22, 15 to 20 significant digits,
    /// halfway cases and signed zeros.
    @Test func decimalValuesAreStrtods() {
        var generator = SystemRandomNumberGenerator()
        var texts = ["0.1", "0.3", "9007199254740993", "900719925474099.3", "123456789012345", "1234567890123456",
                     "12345678901234567890", "0.000000000000000000000001", "1e22", "1e23", "1e-22", "1e-23", "4.9e-324",
                     "2.2250738585072014e-308", "1.7976931348623157e308", "-0", "-0e5", "00060.16990", "60.1699000000000000000",
                     "5e-324", "0.5e1", "7.0e+21", "8.5", "2.5", "0.15", "-179.9999999", "89.99999999999999"]
        for _ in 0..<20_000 {
            let whole = Int.random(in: -180...180, using: &generator)
            let fraction = String(UInt64.random(in: 0...UInt64.max, using: &generator)).prefix(Int.random(in: 1...19, using: &generator))
            var text = "\(whole).\(fraction)"
            if Bool.random(using: &generator) { text += "e\(Int.random(in: -30...30, using: &generator))" }
            texts.append(text)
        }
        for text in texts {
            let expected = Double(text)
            let parsed = ParsedArguments.decimal(text)
            #expect(parsed?.bitPattern == expected?.bitPattern, "\(text): \(String(describing: parsed)) against Double's \(String(describing: expected))")
        }
        // Substrings (the query's LAT,LON halves) take the same path.
        let pair = "60.1699123,24.9523456"
        let comma = pair.firstIndex(of: ",")!
        #expect(ParsedArguments.decimal(pair[..<comma]) == 60.1699123)
        #expect(ParsedArguments.decimal(pair[pair.index(after: comma)...]) == 24.9523456)
    }
}
