import Diagnostics

/// A mistake in the command line. The tool prints it in one format; its category is
/// ``ErrorCategory/usage`` (exit code from ``ErrorCategory/exitCode``, 64).
public struct UsageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The command path the error belongs to (`lookaround snapshot`), for the "see --help" hint.
    public var commandPath: String
    /// What is wrong, naming the bad value and what is allowed.
    public var message: String
    /// The option at fault, without its dashes (`radius-meters`), when the error is about one: the
    /// service names it as the query parameter (`radius_meters`) from here, never from ``message``.
    public var option: String?
    /// A close match, when the user probably mistyped ("did you mean '--radius-meters'?").
    public var suggestion: String?

    public init(commandPath: String, message: String, option: String? = nil, suggestion: String? = nil) {
        self.commandPath = commandPath
        self.message = message
        self.option = option
        self.suggestion = suggestion
    }

    /// `error: …` then an optional `did you mean …?` line and a pointer to the command's help.
    public var description: String {
        var text = "error: \(message)"
        if let suggestion { text += "\n       did you mean '\(suggestion)'?" }
        text += "\n       see '\(commandPath) --help'"
        return text
    }
}

/// Edit distance (Levenshtein) between two strings, for "did you mean" suggestions.
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    if a.isEmpty { return b.count }
    if b.isEmpty { return a.count }
    var previous = Array(0...b.count)
    var current = [Int](repeating: 0, count: b.count + 1)
    for i in 1...a.count {
        current[0] = i
        for j in 1...b.count {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        swap(&previous, &current)
    }
    return previous[b.count]
}

/// The candidate closest to `word`, if it is close enough to be a likely typo
/// (distance at most a third of the length, at least 2), or has `word` as a prefix.
func closestMatch(to word: String, among candidates: [String]) -> String? {
    let prefixed = candidates.filter { $0.hasPrefix(word) }
    if prefixed.count == 1 { return prefixed[0] }
    let scored = candidates.map { ($0, editDistance(word, $0)) }.sorted { $0.1 < $1.1 }
    guard let best = scored.first else { return nil }
    return best.1 <= max(2, word.count / 3) ? best.0 : nil
}

extension UsageError: CategorizedError {
    /// Always ``ErrorCategory/usage``.
    public var category: ErrorCategory { .usage }
}
