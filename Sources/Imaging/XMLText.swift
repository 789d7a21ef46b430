/// Text in XML character data and attribute values with the five predefined entities (XML 1.0 §4.6):
/// the XMP packets (GPano, the privacy marker) and S3's request bodies.
public enum XMLText {
    /// `text` with `& < > " '` escaped.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` with the five predefined entities read back (character references are left as they are).
    public static func unescaped<S: StringProtocol>(_ text: S) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return String(text) }
        return String(text).replacingAll("&lt;", "<").replacingAll("&gt;", ">").replacingAll("&quot;", "\"")
            .replacingAll("&apos;", "'").replacingAll("&amp;", "&")
    }
}
