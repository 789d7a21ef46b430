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
        var matches: [PlaceMatch] = []
        for (i, matcher) in matchers.enumerated() {
            let place = places[i]
            if let category, place.category.lowercased() != category, place.categoryGroup.rawValue != category { continue }
            guard let best = matcher.match(text) else { continue }
            let distance = query.near.map { Geodesic.wgs84.inverse(from: $0, to: place.coordinate).distanceMeters }
            matches.append(PlaceMatch(place: place, displayName: place.name(in: query.language), matchedName: best.name,
                                      kind: best.kind, editDistance: best.distance, score: best.score, distanceMeters: distance))
        }
        matches.sort { a, b in
            if a.score != b.score { return a.score > b.score }
            let stopA = a.place.categoryGroup == .transport, stopB = b.place.categoryGroup == .transport
            if stopA != stopB {
                // A stop wins only when it is much nearer than the landmark it is probably named after.
                let (stop, other) = stopA ? (a.distanceMeters, b.distanceMeters) : (b.distanceMeters, a.distanceMeters)
                if let stop, let other, stop * 2 < other { return stopA }
                return !stopA
            }
            if let da = a.distanceMeters, let db = b.distanceMeters, da != db { return da < db }
            if a.displayName.count != b.displayName.count { return a.displayName.count < b.displayName.count }
            return (a.displayName, a.place.id) < (b.displayName, b.place.id)
        }
        return Array(matches.prefix(max(0, query.limit)))
    }
}
