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

    /// `text` with the five predefined entities and the character references (`&#N;`, `&#xN;`) read back;
    /// anything else after an `&` is left as it is.
    public static func unescaped<S: StringProtocol>(_ text: S) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return String(text) }
        var out = "", rest = Substring(text)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { out += rest[amp...]; return out }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "lt": out += "<"
            case "gt": out += ">"
            case "amp": out += "&"
            case "quot": out += "\""
            case "apos": out += "'"
            default:
                if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let code = UInt32(entity.dropFirst(2), radix: 16),
                   let scalar = Unicode.Scalar(code) {
                    out.unicodeScalars.append(scalar)
                } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                    out.unicodeScalars.append(scalar)
                } else {
                    out += rest[amp...semicolon]
                }
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
