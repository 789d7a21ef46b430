import ArgumentParsing
import CommandOptions
import Catalog
import Foundation

/// `lookaround search NAME`: places by name.
enum SearchCommand: Command {
    static let spec = CommandSpec(
        name: "search",
        abstract: "Find places by name: case- and diacritic-insensitive, prefix and typo tolerant, ranked.",
        discussion: """
            Every name of a place (the local name and each name:xx) is compared with the query after folding \
            case and diacritics ("paaposti" finds "Pääposti"). Ranking: exact (1000) > prefix (800) > every \
            word starts a word of the name (600) > substring (500) > typo, 400 − 50 × edit distance (1 edit \
            allowed for words of 4–7 letters, 2 for longer). Equal scores: nearer first with --near, then \
            shorter names. No match is exit code 1.
            """,
        options: [
            .value("near", valueName: "LAT,LON", help: "Rank equally good matches nearest first from here."),
            .value("category", valueName: "NAME", help: "Only this category (cafe, museum…) or group (food, shop…)."),
            .value("language", valueName: "CODE", help: "Show names in this language (sv, en…), else the local name."),
            .value("limit", valueName: "N", help: "At most N results, 1…1000.", defaultValue: "10"),
            CommonOptions.catalog,
            .flag("json", help: "Print JSON: a list of matches with place, display_name, kind, score, distance_meters."),
        ],
        positionals: [PositionalSpec("QUERY", help: "The name to look for.")],
        examples: [
            (command: "lookaround search Stockmann", comment: "the department store"),
            (command: "lookaround search kahvila --near 60.1699,24.9523 --category cafe", comment: "cafés, nearest first"),
            (command: "lookaround search tuomiokirkko --language sv", comment: "Swedish names"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let text = arguments.positionals[0]
        guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw arguments.error("QUERY is empty; give a name such as Stockmann")
        }
        let query = PlaceSearchQuery(text: text, near: try arguments.coordinate("near"),
                                     category: arguments.string("category"), language: arguments.string("language"),
                                     limit: try arguments.int("limit", in: 1...1000) ?? 10)
        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        let matches = try catalog.searchPlaces(query)
        if arguments.flag("json") {
            try Console.json(matches)
        } else if matches.isEmpty {
            Console.out("no place matches '\(text)'")
        } else {
            for (i, match) in matches.enumerated() {
                var line = "\(i + 1). \(match.displayName) (\(match.place.category))"
                if let address = match.place.address?.formatted, !address.isEmpty { line += ", \(address)" }
                if let distance = match.distanceMeters { line += ", \(Int(distance.rounded())) m" }
                line += "  [\(match.kind.rawValue), \(fixed(match.place.coordinate.latitude, 6)),\(fixed(match.place.coordinate.longitude, 6))]"
                Console.out(line)
            }
        }
        return matches.isEmpty ? .failed(.noImagery) : .ok
    }
}
