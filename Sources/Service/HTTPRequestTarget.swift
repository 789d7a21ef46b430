/// A request target (`/path?query`, or `http://host/path?query` as proxies send it) taken apart and
/// percent-decoded, strictly: a malformed escape, a NUL or another control character, or bytes that
/// are not UTF-8 are refused with the part named.
enum RequestTarget {
    struct Failure: Error {
        var error: ServiceError
        var path: String?
    }

    static func parse(_ target: UnsafeRawBufferPointer, limits: HTTPHeadLimits) -> Result<(path: String, query: [(name: String, value: String)]), Failure> {
        var start = 0
        for byte in target where byte <= 32 || byte >= 127 {
            return .failure(Failure(error: .malformedRequest(detail: "the request target holds byte \(byte); percent-encode it"), path: nil))
        }
        if target.first != 47 {   // not "/": absolute-form, or nothing a server answers
            let text = String(decoding: target.prefix(8), as: UTF8.self).lowercased()
            guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
                return .failure(Failure(error: .malformedRequest(detail: "the request target must start with / (or http://HOST/)"), path: nil))
            }
            var slashes = 0, index = 0
            while index < target.count, slashes < 3 {
                if target[index] == 47 { slashes += 1 }
                index += 1
            }
            start = slashes == 3 ? index - 1 : target.count
        }
        var queryStart = start
        while queryStart < target.count, target[queryStart] != 63 { queryStart += 1 }
        let pathBytes = UnsafeRawBufferPointer(rebasing: target[start..<queryStart])
        guard let path = decode(pathBytes, plusIsSpace: false) else {
            return .failure(Failure(error: .malformedRequest(detail: "the path has a malformed or forbidden %-escape (a control character, "
                                                             + "NUL, or bytes that are not UTF-8)"), path: nil))
        }
        let decodedPath = path.isEmpty ? "/" : path
        var query: [(name: String, value: String)] = []
        var position = queryStart + 1
        while position < target.count {
            var end = position
            while end < target.count, target[end] != 38 { end += 1 }
            if end > position {
                if query.count == limits.queryParameters {
                    return .failure(Failure(error: .requestTargetTooLong(detail: "the query has over \(limits.queryParameters) parameters"),
                                            path: decodedPath))
                }
                var equals = position
                while equals < end, target[equals] != 61 { equals += 1 }
                let nameBytes = UnsafeRawBufferPointer(rebasing: target[position..<equals])
                let valueBytes = UnsafeRawBufferPointer(rebasing: target[min(equals + 1, end)..<end])
                guard let name = decode(nameBytes, plusIsSpace: true), let value = decode(valueBytes, plusIsSpace: true) else {
                    let raw = String(decoding: nameBytes.prefix(64), as: UTF8.self)
                    return .failure(Failure(error: .invalidParameter(parameter: raw, message: "query parameter '\(raw)' has a malformed or "
                                                                     + "forbidden %-escape (a control character, NUL, or bytes that are not UTF-8)"),
                                            path: decodedPath))
                }
                query.append((name, value))
            }
            position = end + 1
        }
        return .success((decodedPath, query))
    }

    /// Percent-decodes `bytes`; nil for a malformed escape, a control character or invalid UTF-8.
    static func decode(_ bytes: UnsafeRawBufferPointer, plusIsSpace: Bool) -> String? {
        var needsWork = false
        for byte in bytes where byte == 37 || (plusIsSpace && byte == 43) {
            needsWork = true
            break
        }
        if !needsWork { return String(decoding: bytes, as: UTF8.self) }   // visible ASCII: checked by the caller
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 37 {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else { return nil }
                let value = high << 4 | low
                if value < 32 || value == 127 { return nil }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(plusIsSpace && byte == 43 ? 32 : byte)
                index += 1
            }
        }
        return String(validating: decoded, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: byte - 48
        case 65...70: byte - 55
        case 97...102: byte - 87
        default: nil
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (HTTP's optional white space).
    var trimmingSpaces: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return String(text)
    }
}
