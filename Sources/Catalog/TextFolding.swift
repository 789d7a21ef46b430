import Foundation

/// Folds text for matching: lowercase, diacritics removed ("Pääposti" → "paaposti"), a few letters
/// spelled out (ß → ss, æ → ae, ø → o, œ → oe, ł → l, đ → d), everything that is not a letter or digit
/// becomes one space.
enum TextFolding {
    static func fold(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.lowercased().decomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar.properties.generalCategory == .nonspacingMark { continue }
            let replacement: String?
            switch scalar {
            case "ß": replacement = "ss"
            case "æ": replacement = "ae"
            case "ø": replacement = "o"
            case "œ": replacement = "oe"
            case "ł": replacement = "l"
            case "đ": replacement = "d"
            default: replacement = nil
            }
            let isWordCharacter = scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            if !isWordCharacter && replacement == nil {
                pendingSpace = !out.isEmpty
                continue
            }
            if pendingSpace { out.append(" "); pendingSpace = false }
            if let replacement { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out)
    }

    /// Levenshtein distance with adjacent transpositions (optimal string alignment), over scalars.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int { editDistance(a, b[...]) }

    /// The same over a slice of `b` (a word's start), without copying it; with a `limit`, any distance
    /// above it is reported as `limit + 1` as soon as a whole row exceeds it.
    static func editDistance(_ a: [Unicode.Scalar], _ slice: ArraySlice<Unicode.Scalar>, limit: Int = .max) -> Int {
        let b = slice, offset = slice.startIndex
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[offset + j - 1] ? 0 : 1
                var value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1 && j > 1 && a[i - 1] == b[offset + j - 2] && a[i - 2] == b[offset + j - 1] { value = min(value, before[j - 2] + 1) }
                current[j] = value
            }
            if limit < .max, current.min()! > limit { return limit + 1 }
            (before, previous, current) = (previous, current, before)
        }
        return previous[b.count]
    }
}
