/// The names of one thing (a place, a street, a locality), folded once, and how well a query matches
/// them: the matching that place search and geocoding share.
///
/// Kinds, best first: exact > prefix > every query word starts a word of the name > substring > typo:
/// every query word is within the allowed edit distance (0 for words of up to 3 letters, 1 for 4–7,
/// 2 for 8 or more; transpositions count 1) of a name word or of a name word's start.
struct NameMatcher: Sendable {
    /// A folded query: its text and its words.
    struct Query: Sendable {
        let folded: String
        let words: [[Unicode.Scalar]]

        init(_ text: String) { self.init(folded: TextFolding.fold(text)) }

        init(folded: String) {
            self.folded = folded
            words = folded.split(separator: " ").map { Array($0.unicodeScalars) }
        }

        var isEmpty: Bool { folded.isEmpty }
    }

    /// How a query matched a name.
    struct Match: Sendable {
        var kind: PlaceMatch.Kind
        var distance: Int
        /// The name that matched, as given.
        var name: String

        /// Exact 1000, prefix 800, word prefix 600, substring 500, typo 400 − 50 × distance.
        var score: Int {
            switch kind {
            case .exact: 1000
            case .prefix: 800
            case .wordPrefix: 600
            case .substring: 500
            case .typo: 400 - 50 * distance
            }
        }
    }

    private let names: [(original: String, folded: String, words: [[Unicode.Scalar]])]

    /// The matcher of `names` (duplicates after folding are kept once; empty ones dropped).
    init(names: [String]) {
        var seen = Set<String>()
        self.names = names.compactMap { name in
            let folded = TextFolding.fold(name)
            guard !folded.isEmpty, seen.insert(folded).inserted else { return nil }
            return (name, folded, folded.split(separator: " ").map { Array($0.unicodeScalars) })
        }
    }

    static func allowedDistance(_ length: Int) -> Int { length <= 3 ? 0 : (length <= 7 ? 1 : 2) }

    /// The best match of `query` over the names, or nil.
    func match(_ query: Query) -> Match? {
        var best: Match?
        for name in names {
            let candidate: (PlaceMatch.Kind, Int)?
            if name.folded == query.folded {
                candidate = (.exact, 0)
            } else if name.folded.hasPrefix(query.folded) {
                candidate = (.prefix, 0)
            } else if query.words.allSatisfy({ q in name.words.contains { $0.starts(with: q) } }) {
                candidate = (.wordPrefix, 0)
            } else if name.folded.contains(query.folded) {
                candidate = (.substring, 0)
            } else {
                candidate = Self.typo(query.words, name.words).map { (.typo, $0) }
            }
            if let (kind, distance) = candidate,
               best == nil || kind < best!.kind || (kind == best!.kind && distance < best!.distance) {
                best = Match(kind: kind, distance: distance, name: name.original)
            }
        }
        return best
    }

    /// The total edit distance when every query word is close enough to a word (or word start) of the name.
    private static func typo(_ queryWords: [[Unicode.Scalar]], _ nameWords: [[Unicode.Scalar]]) -> Int? {
        var total = 0
        for q in queryWords {
            let allowed = allowedDistance(q.count)
            var bestWord = Int.max
            for word in nameWords {
                if word.starts(with: q) { bestWord = 0; break }
                guard allowed > 0, abs(word.count - q.count) <= allowed || word.count > q.count else { continue }
                let full = TextFolding.editDistance(q, word)
                let start = word.count > q.count ? TextFolding.editDistance(q, Array(word.prefix(q.count))) : full
                bestWord = min(bestWord, full, start)
            }
            if bestWord > allowed { return nil }
            total += bestWord
        }
        return total
    }
}
