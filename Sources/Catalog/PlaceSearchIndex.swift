import Geodesy

/// Place search over the catalog's places, in memory (loaded once per ``Catalog``).
///
/// **Scoring.** Every name of a place (`name` and each `name:xx`) is matched by ``NameMatcher``; the
/// best name decides: exact (1000) > prefix (800) > word prefix (600) > substring (500) > typo
/// (400 − 50 × the total edit distance). Results
/// sort by score; then places that are not transport stops come before stops (stops are often named
/// after the landmark beside them) unless the stop is more than twice as near to `near`; then by
/// distance from `near` when given; then by shorter name, then alphabetically.
/// A category filter keeps places whose category or group equals it.
struct PlaceSearchIndex: Sendable {
    let places: [CatalogPlace]
    private let matchers: [NameMatcher]

    init(places: [CatalogPlace]) {
        self.places = places
        matchers = places.map { place in NameMatcher(names: [place.name] + place.names.keys.sorted().compactMap { place.names[$0] }) }
    }

    func search(_ query: PlaceSearchQuery) -> [PlaceMatch] {
        let text = NameMatcher.Query(query.text)
        guard !text.isEmpty else { return [] }
        let category = query.category.map { $0.lowercased() }
        // Matches are ranked by index and only the ones returned become PlaceMatch values (a place is a
        // dozen strings: copying every match through the sort cost a fifth of a geocode).
        var found: [(index: Int, match: NameMatcher.Match, distance: Double?, name: String, isStop: Bool)] = []
        for i in matchers.indices {
            if let category, places[i].category.lowercased() != category, places[i].categoryGroup.rawValue != category { continue }
            guard let best = matchers[i].match(text) else { continue }
            let distance = query.near.map { Geodesic.wgs84.inverse(from: $0, to: places[i].coordinate).distanceMeters }
            found.append((i, best, distance, places[i].name(in: query.language), places[i].categoryGroup == .transport))
        }
        found.sort { a, b in
            if a.match.score != b.match.score { return a.match.score > b.match.score }
            if a.isStop != b.isStop {
                // A stop wins only when it is much nearer than the landmark it is probably named after.
                let (stop, other) = a.isStop ? (a.distance, b.distance) : (b.distance, a.distance)
                if let stop, let other, stop * 2 < other { return a.isStop }
                return !a.isStop
            }
            if let da = a.distance, let db = b.distance, da != db { return da < db }
            if a.name.count != b.name.count { return a.name.count < b.name.count }
            return (a.name, places[a.index].id) < (b.name, places[b.index].id)
        }
        return found.prefix(max(0, query.limit)).map { entry in
            PlaceMatch(place: places[entry.index], displayName: entry.name, matchedName: entry.match.name, kind: entry.match.kind,
                       editDistance: entry.match.distance, score: entry.match.score, distanceMeters: entry.distance)
        }
    }
}
