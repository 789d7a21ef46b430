import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import Geodesy

/// `lookaround geocode TEXT` and `lookaround geocode --reverse LAT,LON`: addresses from the OSM data.
enum GeocodeCommand: Command {
    static let spec = CommandSpec(
        name: "geocode",
        abstract: "Find an address, street, place, postcode or locality (or, with --reverse, the address at a point).",
        discussion: """
            Forward: TEXT is read as a house number ("52", "12a", "12-14", "52 B"), postcodes (five digits), \
            locality names (the extract's place=* and addr:city, e.g. Helsinki, Helsingfors) and a name, matched \
            against streets (every name they carry: name:sv, alt_name, old_name), places and localities, case- and \
            diacritic-insensitively and typo-tolerantly. A house number is looked up on the matched streets, \
            exactly, then inside tagged ranges (12-14) and interpolated numbers; a locality or postcode narrows \
            the answers. Each answer says what matched and how precisely (house, interpolated, place, street, \
            postcode, locality). --street, --city and --postcode give the parts separately. \
            Reverse: the nearest house number within --radius-meters, the nearest named street, the \
            neighbourhood and the city. Nothing found is exit code 1. Built from the OSM files given to \
            'lookaround index --osm'; data © OpenStreetMap contributors.
            """,
        options: [
            .value("reverse", valueName: "LAT,LON", help: "Reverse geocoding: what is at this point."),
            .value("radius-meters", valueName: "METERS", help: "With --reverse: how far to look for a house number (0…10000).",
                   defaultValue: "100"),
            .value("street", valueName: "TEXT", help: "The street, with or without its house number."),
            .value("city", valueName: "NAME", help: "The city or another locality (narrows the answers)."),
            .value("postcode", valueName: "CODE", help: "The postcode (narrows the answers, or answers alone)."),
            .value("near", valueName: "LAT,LON", help: "Rank equally good answers nearest first from here."),
            .value("language", valueName: "CODE", help: "Street and place names in this language (sv, en…)."),
            .value("limit", valueName: "N", help: "At most N answers, 1…1000.", defaultValue: "5"),
            CommonOptions.catalog,
            .flag("json", help: "Print JSON: forward, a list of answers; reverse, one object."),
        ],
        positionals: [PositionalSpec("TEXT", help: "What to look for (forward geocoding).", optional: true)],
        examples: [
            (command: "lookaround geocode \"Aleksanterinkatu 52, Helsinki\"", comment: "a street address"),
            (command: "lookaround geocode \"Alexandersgatan 52\" --language sv", comment: "the same house by its Swedish street name"),
            (command: "lookaround geocode --street \"Aleksanterinkatu 52\" --postcode 00100", comment: "structured"),
            (command: "lookaround geocode --reverse 60.16877,24.94406", comment: "the address at a point"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        let language = arguments.string("language")
        if let point = try arguments.coordinate("reverse") {
            guard arguments.positionals.isEmpty else { throw arguments.error("give TEXT or --reverse LAT,LON, not both") }
            let radius = try arguments.double("radius-meters", in: 0...10_000) ?? 100
            let answer = try catalog.reverseGeocode(point, radiusMeters: radius, language: language)
            let found = answer.address != nil || answer.street != nil
            if arguments.flag("json") {
                try Console.json(answer)
            } else if !found {
                Console.out("no address or named street within \(fixed(radius, 0)) m of \(point)")
            } else {
                Console.out(answer.displayName)
                if let address = answer.address, let distance = answer.addressDistanceMeters {
                    Console.out("house      \(address.formatted) (\(address.osm)), \(fixed(distance, 1)) m away")
                }
                if let street = answer.street, let distance = answer.streetDistanceMeters {
                    Console.out("street     \(street), \(fixed(distance, 1)) m away")
                }
                if let neighbourhood = answer.neighbourhood { Console.out("area       \(neighbourhood)") }
            }
            return found ? .ok : .failed(.noImagery)
        }
        let text = arguments.positionals.first
        guard text.map({ !$0.trimmingCharacters(in: .whitespaces).isEmpty }) ?? false
                || arguments.string("street") != nil || arguments.string("city") != nil || arguments.string("postcode") != nil else {
            throw arguments.error("give TEXT (\"Aleksanterinkatu 52, Helsinki\"), --street/--city/--postcode, or --reverse LAT,LON")
        }
        let query = GeocodeQuery(text: text, street: arguments.string("street"), city: arguments.string("city"),
                                 postcode: arguments.string("postcode"), near: try arguments.coordinate("near"),
                                 language: language, limit: try arguments.int("limit", in: 1...1000) ?? 5)
        let answers = try catalog.geocode(query)
        if arguments.flag("json") {
            try Console.json(answers)
        } else if answers.isEmpty {
            Console.out("nothing matches '\(query.description)'")
        } else {
            for (i, answer) in answers.enumerated() {
                var line = "\(i + 1). \(answer.displayName)  [\(answer.precision.rawValue); matched \(answer.matched.joined(separator: ", "))"
                line += "; \(fixed(answer.coordinate.latitude, 6)),\(fixed(answer.coordinate.longitude, 6))]"
                Console.out(line)
            }
        }
        return answers.isEmpty ? .failed(.noImagery) : .ok
    }
}
