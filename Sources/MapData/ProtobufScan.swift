/// Just enough protobuf to read PBF framing.
enum ProtobufScan {
    static func varint(_ bytes: [UInt8], _ i: inout Int) -> UInt64? {
        var result: UInt64 = 0, shift: UInt64 = 0
        while i < bytes.count, shift < 64 {
            let b = bytes[i]; i += 1
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
        return nil
    }

    /// The value of varint field `number` at the top level of a message.
    static func varintField(_ number: UInt64, in bytes: [UInt8]) -> UInt64? {
        var i = 0
        while i < bytes.count {
            guard let key = varint(bytes, &i) else { return nil }
            switch key & 7 {
            case 0:
                guard let v = varint(bytes, &i) else { return nil }
                if key >> 3 == number { return v }
            case 2:
                // A length past the end (up to 2^64 - 1 in a damaged file) ends the scan, not the process.
                guard let n = varint(bytes, &i), n <= UInt64(bytes.count - i) else { return nil }
                i += Int(n)
            default: return nil
            }
        }
        return nil
    }

    /// The field number of the first length-delimited field (the Blob's data field).
    static func firstLengthDelimitedField(in bytes: [UInt8]) -> UInt64? {
        var i = 0
        while i < bytes.count {
            guard let key = varint(bytes, &i) else { return nil }
            switch key & 7 {
            case 0: guard varint(bytes, &i) != nil else { return nil }
            case 2: return key >> 3
            default: return nil
            }
        }
        return nil
    }
}

extension ProtobufScan {
    /// The bytes of the first length-delimited field `number` at the top level of a message, or nil.
    static func bytesField(_ number: UInt64, in bytes: [UInt8]) -> ArraySlice<UInt8>? {
        var i = 0
        while i < bytes.count {
            guard let key = varint(bytes, &i) else { return nil }
            switch key & 7 {
            case 0: guard varint(bytes, &i) != nil else { return nil }
            case 1: guard bytes.count - i >= 8 else { return nil }; i += 8
            case 5: guard bytes.count - i >= 4 else { return nil }; i += 4
            case 2:
                guard let n = varint(bytes, &i), n <= UInt64(bytes.count - i) else { return nil }
                if key >> 3 == number { return bytes[i..<(i + Int(n))] }
                i += Int(n)
            default: return nil
            }
        }
        return nil
    }

    /// A zigzag-encoded `sint64` varint field at the top level of a message.
    static func signedField(_ number: UInt64, in bytes: [UInt8]) -> Int64? {
        guard let raw = varintField(number, in: bytes) else { return nil }
        return Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)
    }
}
