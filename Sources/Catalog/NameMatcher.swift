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
        /// Each word's ``NameMatcher/letterMask(_:)``.
        let masks: [UInt64]

        init(_ text: String) { self.init(folded: TextFolding.fold(text)) }

        init(folded: String) {
            self.folded = folded
            words = folded.split(separator: " ").map { Array($0.unicodeScalars) }
            masks = words.map(NameMatcher.letterMask)
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

    private let names: [(original: String, folded: String, words: [[Unicode.Scalar]], masks: [UInt64], letters: UInt64)]

    /// The matcher of `names` (duplicates after folding are kept once; empty ones dropped).
    init(names: [String]) {
        var seen = Set<String>()
        self.names = names.compactMap { name in
            let folded = TextFolding.fold(name)
            guard !folded.isEmpty, seen.insert(folded).inserted else { return nil }
            let words = folded.split(separator: " ").map { Array($0.unicodeScalars) }
            let masks = words.map(Self.letterMask)
            return (name, folded, words, masks, masks.reduce(0, |))
        }
    }

    /// Whether `text` contains `part`, on UTF-8 bytes (`String.contains` goes through Foundation's
    /// `range(of:)` on Linux, which took a third of a geocode's time).
    static func contains(_ text: String, _ part: String) -> Bool {
        var text = text, part = part
        return text.withUTF8 { haystack in
            part.withUTF8 { needle in
                guard needle.count <= haystack.count else { return false }
                if needle.isEmpty { return true }
                let first = needle[0]
                for start in 0...(haystack.count - needle.count) where haystack[start] == first {
                    var k = 1
                    while k < needle.count && haystack[start + k] == needle[k] { k += 1 }
                    if k == needle.count { return true }
                }
                return false
            }
        }
    }

    /// The set of a word's letters as bits (a scalar's value modulo 64). A word within edit distance d
    /// of another lacks at most d of its letters, so more missing bits rule a typo match out before the
    /// edit distance is computed (bits shared by two letters only let more through).
    static func letterMask(_ word: [Unicode.Scalar]) -> UInt64 {
        word.reduce(0) { $0 | (1 << UInt64($1.value % 64)) }
    }

    static func allowedDistance(_ length: Int) -> Int { length <= 3 ? 0 : (length <= 7 ? 1 : 2) }

    /// The best match of `query` over the names, or nil.
    func match(_ query: Query) -> Match? {
        var best: Match?
        for name in names {
            // Every kind of match needs each query word's letters in the name, but for as many as the word
            // may get wrong: most names fail this on their letter bits alone.
            var possible = true
            for (word, mask) in zip(query.words, query.masks) where (mask & ~name.letters).nonzeroBitCount > Self.allowedDistance(word.count) {
                possible = false
                break
            }
            guard possible else { continue }
            let candidate: (PlaceMatch.Kind, Int)?
            if name.folded == query.folded {
                candidate = (.exact, 0)
            } else if name.folded.hasPrefix(query.folded) {
                candidate = (.prefix, 0)
            } else if query.words.allSatisfy({ q in name.words.contains { $0.starts(with: q) } }) {
                candidate = (.wordPrefix, 0)
            } else if Self.contains(name.folded, query.folded) {
                candidate = (.substring, 0)
            } else {
                candidate = Self.typo(query, name.words, name.masks).map { (.typo, $0) }
            }
            if let (kind, distance) = candidate,
               best == nil || kind < best!.kind || (kind == best!.kind && distance < best!.distance) {
                best = Match(kind: kind, distance: distance, name: name.original)
            }
        }
        return best
    }

    /// The total edit distance when every query word is close enough to a word (or word start) of the name.
    private static func typo(_ query: Query, _ nameWords: [[Unicode.Scalar]], _ nameMasks: [UInt64]) -> Int? {
        var total = 0
        for (q, mask) in zip(query.words, query.masks) {
            let allowed = allowedDistance(q.count)
            var bestWord = Int.max
            for (word, wordMask) in zip(nameWords, nameMasks) {
                if word.starts(with: q) { bestWord = 0; break }
                guard allowed > 0, abs(word.count - q.count) <= allowed || word.count > q.count,
                      (mask & ~wordMask).nonzeroBitCount <= allowed else { continue }
                let full = TextFolding.editDistance(q, word[...], limit: allowed)
                let start = word.count > q.count ? TextFolding.editDistance(q, word.prefix(q.count), limit: allowed) : full
                bestWord = min(bestWord, full, start)
            }
            if bestWord > allowed { return nil }
            total += bestWord
        }
        return total
    }
}
