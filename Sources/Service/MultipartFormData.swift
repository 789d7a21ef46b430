import Foundation
import Imaging

/// A `multipart/form-data` body (RFC 7578) split into its parts, as browsers and `httpx` send a file
/// with form fields: each part's `name`, `filename` and `Content-Type` from its headers, and the byte
/// range of its content in the body (no copy).
struct MultipartFormData {
    struct Part {
        var name: String
        var fileName: String?
        var contentType: String?
        /// The part's content in the body.
        var range: Range<Int>
    }

    let parts: [Part]

    /// Splits `body` sent with `contentType` (`multipart/form-data; boundary=…`).
    /// - Throws: `ServiceError.invalidParameter` naming what is malformed.
    init(body: [UInt8], contentType: String?) throws(ServiceError) {
        guard let contentType, contentType.lowercased().hasPrefix("multipart/form-data") else {
            throw .invalidParameter(parameter: "Content-Type", message: "Content-Type '\(contentType ?? "")' is not multipart/form-data; "
                                    + "send the picture as the form field 'file' of a multipart/form-data body")
        }
        guard let boundary = Self.parameter("boundary", in: contentType), !boundary.isEmpty, boundary.utf8.count <= 200 else {
            throw .invalidParameter(parameter: "Content-Type", message: "multipart/form-data without a boundary parameter")
        }
        let delimiter = Array("--\(boundary)".utf8)
        let malformed = ServiceError.invalidParameter(parameter: "body", message: "the multipart/form-data body is malformed "
                                                      + "(its parts do not follow the boundary '\(boundary)')")
        guard var position = body.firstIndex(of: delimiter) else { throw malformed }
        var parts: [Part] = []
        while true {
            position += delimiter.count
            // `--` after a delimiter ends the body.
            if position + 1 < body.count, body[position] == UInt8(ascii: "-"), body[position + 1] == UInt8(ascii: "-") { break }
            guard position + 1 < body.count, body[position] == 13, body[position + 1] == 10 else { throw malformed }
            position += 2
            guard let headersEnd = body.firstIndex(of: [13, 10, 13, 10], from: position) else { throw malformed }
            let headers = String(decoding: body[position..<headersEnd], as: UTF8.self)
            let contentStart = headersEnd + 4
            guard let next = body.firstIndex(of: [13, 10] + delimiter, from: contentStart) else { throw malformed }
            var name: String?, fileName: String?, type: String?
            for line in headers.split(separator: "\r\n") {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
                let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                if field == "content-disposition" {
                    name = Self.parameter("name", in: value)
                    fileName = Self.parameter("filename", in: value)
                } else if field == "content-type" {
                    type = value
                }
            }
            guard let name else { throw malformed }
            parts.append(Part(name: name, fileName: fileName, contentType: type, range: contentStart..<next))
            position = next + 2
        }
        self.parts = parts
    }

    /// The first part named `name`.
    func part(_ name: String) -> Part? { parts.first { $0.name == name } }

    /// The text of the field `name` (UTF-8), nil when absent.
    func text(_ name: String, in body: [UInt8]) -> String? {
        part(name).map { String(decoding: body[$0.range], as: UTF8.self) }
    }

    /// `key=value` or `key="value"` among the `;`-separated parameters of a header value.
    static func parameter(_ key: String, in value: String) -> String? {
        for item in value.split(separator: ";").dropFirst() {
            let pair = item.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == key else { continue }
            var text = pair[1].trimmingCharacters(in: .whitespaces)
            if text.hasPrefix("\""), text.hasSuffix("\""), text.count >= 2 { text = String(text.dropFirst().dropLast()) }
            return text
        }
        return nil
    }
}
