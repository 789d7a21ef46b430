/// One result of a place search.
public struct PlaceMatch: Sendable, Hashable, Codable {
    /// How the text matched, best first.
    public enum Kind: String, Sendable, Hashable, Codable, Comparable {
        /// A name equals the query (after folding case and diacritics).
        case exact
        /// A name starts with the query.
        case prefix
        /// Every query word starts a word of a name.
        case wordPrefix = "word_prefix"
        /// A name contains the query.
        case substring
        /// Every query word is within a small edit distance of a word (or word start) of a name.
        case typo

        var rank: Int {
            switch self {
            case .exact: return 0
            case .prefix: return 1
            case .wordPrefix: return 2
            case .substring: return 3
            case .typo: return 4
            }
        }

        /// Better kinds sort first.
        public static func < (lhs: Kind, rhs: Kind) -> Bool { lhs.rank < rhs.rank }
    }

    /// The place.
    public var place: CatalogPlace
    /// The name to show (in the requested language, else `name`).
    public var displayName: String
    /// The name that matched (any language).
    public var matchedName: String
    /// How it matched.
    public var kind: Kind
    /// Total edit distance for `typo` matches (0 otherwise).
    public var editDistance: Int
    /// Score: 1000 exact, 800 prefix, 600 word prefix, 500 substring, 400 − 50 × edit distance for typos.
    public var score: Int
    /// Geodesic distance from the query's `near` point, metres.
    public var distanceMeters: Double?
}
