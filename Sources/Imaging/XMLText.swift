/// Text in XML character data and attribute values with the five predefined entities (XML 1.0 §4.6):
/// the XMP packets (GPano, the privacy marker) and S3's request bodies.
public enum XMLText {
    /// The five predefined entities by the character each stands for, read and written from this one list.
    static let entities: [Character: String] = ["&": "amp", "<": "lt", ">": "gt", "\"": "quot", "'": "apos"]
    static let characters = Dictionary(uniqueKeysWithValues: entities.map { ($0.value, $0.key) })

    /// `text` with `& < > " '` escaped.
    public static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            if let entity = entities[character] { out += "&\(entity);" } else { out.append(character) }
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
            if let character = characters[String(entity)] {
                out.append(character)
            } else if entity.hasPrefix("#x") || entity.hasPrefix("#X"), let code = UInt32(entity.dropFirst(2), radix: 16),
                      let scalar = Unicode.Scalar(code) {
                out.unicodeScalars.append(scalar)
            } else if entity.hasPrefix("#"), let code = UInt32(entity.dropFirst()), let scalar = Unicode.Scalar(code) {
                out.unicodeScalars.append(scalar)
            } else {
                out += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }
}
