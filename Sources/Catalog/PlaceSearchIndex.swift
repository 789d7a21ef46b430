import Geodesy

/// Place search over the catalog's places, in memory (loaded once per ``Catalog``).
///
/// **Scoring.** Every name of a place (`name` and each `name:xx`) is folded (``TextFolding``) and
/// compared with the folded query; the best name decides: exact (1000) > prefix (800) > every query
/// word starts a word of the name (600) > substring (500) > typo: every query word is within the
/// allowed edit distance (0 for words of up to 3 letters, 1 for 4–7, 2 for 8 or more; transpositions
/// count 1) of a name word or of a name word's start, scored 400 − 50 × the total distance. Results
/// sort by score; then places that are not transport stops come before stops (stops are often named
/// after the landmark beside them) unless the stop is more than twice as near to `near`; then by
/// distance from `near` when given; then by shorter name, then alphabetically.
/// A category filter keeps places whose category or group equals it.
struct PlaceSearchIndex: Sendable {
    private struct Entry: Sendable {
        var names: [(original: String, folded: String, words: [[Unicode.Scalar]])]
    }

    let places: [CatalogPlace]
    private let entries: [Entry]

    init(places: [CatalogPlace]) {
        self.places = places
        entries = places.map { place in
            let all = [place.name] + place.names.keys.sorted().compactMap { place.names[$0] }
            var seen = Set<String>()
            return Entry(names: all.compactMap { name in
                let folded = TextFolding.fold(name)
                guard !folded.isEmpty, seen.insert(folded).inserted else { return nil }
                return (name, folded, folded.split(separator: " ").map { Array($0.unicodeScalars) })
            })
        }
    }

    static func allowedDistance(_ length: Int) -> Int { length <= 3 ? 0 : (length <= 7 ? 1 : 2) }

    func search(_ query: PlaceSearchQuery) -> [PlaceMatch] {
        let folded = TextFolding.fold(query.text)
        guard !folded.isEmpty else { return [] }
        let queryWords = folded.split(separator: " ").map { Array($0.unicodeScalars) }
        let category = query.category.map { $0.lowercased() }
        var matches: [PlaceMatch] = []
        for (i, entry) in entries.enumerated() {
            let place = places[i]
            if let category, place.category.lowercased() != category, place.categoryGroup.rawValue != category { continue }
            var best: (kind: PlaceMatch.Kind, distance: Int, name: String)?
            for name in entry.names {
                let candidate: (PlaceMatch.Kind, Int)?
                if name.folded == folded {
                    candidate = (.exact, 0)
                } else if name.folded.hasPrefix(folded) {
                    candidate = (.prefix, 0)
                } else if queryWords.allSatisfy({ q in name.words.contains { $0.starts(with: q) } }) {
                    candidate = (.wordPrefix, 0)
                } else if name.folded.contains(folded) {
                    candidate = (.substring, 0)
                } else {
                    var total = 0
                    var ok = true
                    for q in queryWords {
                        let allowed = Self.allowedDistance(q.count)
                        var bestWord = Int.max
                        for word in name.words {
                            if word.starts(with: q) { bestWord = 0; break }
                            guard allowed > 0, abs(word.count - q.count) <= allowed || word.count > q.count else { continue }
                            let full = TextFolding.editDistance(q, word)
                            let start = word.count > q.count ? TextFolding.editDistance(q, Array(word.prefix(q.count))) : full
                            bestWord = min(bestWord, full, start)
                        }
                        if bestWord > allowed { ok = false; break }
                        total += bestWord
                    }
                    candidate = ok ? (.typo, total) : nil
                }
                if let (kind, distance) = candidate,
                   best == nil || kind < best!.kind || (kind == best!.kind && distance < best!.distance) {
                    best = (kind, distance, name.original)
                }
            }
            guard let best else { continue }
            let score: Int
            switch best.kind {
            case .exact: score = 1000
            case .prefix: score = 800
            case .wordPrefix: score = 600
            case .substring: score = 500
            case .typo: score = 400 - 50 * best.distance
            }
            let distance = query.near.map { Geodesic.wgs84.inverse(from: $0, to: place.coordinate).distanceMeters }
            matches.append(PlaceMatch(place: place, displayName: place.name(in: query.language), matchedName: best.name,
                                      kind: best.kind, editDistance: best.distance, score: score, distanceMeters: distance))
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
