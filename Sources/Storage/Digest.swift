import CCrypto

/// SHA-256 and HMAC-SHA256 through OpenSSL's libcrypto, and lowercase hex: what Signature Version 4 needs.
public enum Digest {
    /// SHA-256 of `bytes` (32 bytes).
    public static func sha256(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        out.withUnsafeMutableBufferPointer { digest in
            _ = SHA256(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, digest.baseAddress)
        }
        return out
    }

    /// SHA-256 of `bytes`.
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] { bytes.withUnsafeBytes { sha256($0) } }

    /// MD5 of `bytes` (16 bytes), through the EVP interface (the one-shot `MD5` is deprecated in
    /// OpenSSL 3): the `content_md5` Panoramax's upload API reports for each file, not a security measure.
    public static func md5(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 16
        out.withUnsafeMutableBufferPointer { digest in
            _ = EVP_Digest(bytes.baseAddress, bytes.count, digest.baseAddress, &length, EVP_md5(), nil)
        }
        return out
    }

    /// SHA-256 of a string's UTF-8.
    public static func sha256(_ text: String) -> [UInt8] { sha256(Array(text.utf8)) }

    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 32
        key.withUnsafeBufferPointer { k in
            message.withUnsafeBufferPointer { m in
                out.withUnsafeMutableBufferPointer { o in
                    _ = HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.baseAddress, m.count, o.baseAddress, &length)
                }
            }
        }
        return out
    }

    /// HMAC-SHA256 of a string's UTF-8.
    public static func hmacSHA256(key: [UInt8], _ message: String) -> [UInt8] { hmacSHA256(key: key, Array(message.utf8)) }

    /// Lowercase hex.
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The hex SHA-256 of the empty payload.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// 64 bits of the SHA-256 of `text` as a non-negative `Int64`: a compact stamp of a string (an ETag)
    /// where a number is stored.
    public static func stamp(_ text: String) -> Int64 {
        let digest = sha256(text)
        var value: UInt64 = 0
        for byte in digest.prefix(8) { value = value << 8 | UInt64(byte) }
        return Int64(bitPattern: value & 0x7FFF_FFFF_FFFF_FFFF)
    }
}
