import Foundation

/// One KLV entry of GoPro Metadata Format (gopro/gpmf-parser's README): a FourCC key, a type byte, a
/// sample size byte and a 16-bit repeat count, then `size × repeat` bytes of big-endian payload padded to
/// 4 bytes. Type 0 nests further entries (`DEVC` → `STRM` → `GPS5`…).
struct GPMFEntry: Sendable {
    /// The FourCC (`GPS5`, `SCAL`, `DEVC`).
    var key: String
    /// The type character (`l`, `s`, `c`, `?`), 0 for nested entries.
    var type: UInt8
    /// Bytes per sample.
    var structureSize: Int
    /// Samples.
    var repeatCount: Int
    /// The payload, without padding.
    var payload: ArraySlice<UInt8>
    /// The nested entries when `type` is 0.
    var children: [GPMFEntry]

    /// The payload as text, for `c` and `U` entries (NULs and padding trimmed).
    var string: String? {
        guard type == UInt8(ascii: "c") || type == UInt8(ascii: "U") else { return nil }
        return BoxParser.text(payload)
    }

    /// The payload as text per sample (`UNIT` with one unit per element, `GPSU`).
    var strings: [String] {
        guard type == UInt8(ascii: "c") || type == UInt8(ascii: "U"), structureSize > 0 else { return [] }
        return stride(from: payload.startIndex, to: payload.endIndex, by: structureSize).map {
            BoxParser.text(payload[$0..<min($0 + structureSize, payload.endIndex)]) ?? ""
        }
    }

    /// The payload as numbers, one array per sample. Simple types give `structureSize / sizeof(type)`
    /// elements per sample; `?` entries are laid out by `complexType` (a preceding `TYPE`, e.g.
    /// `lllllllSS`, `f[8]L`). Nil when the layout does not fit the payload.
    func numbers(complexType: String? = nil) -> [[Double]]? {
        let elements: [UInt8]
        if type == UInt8(ascii: "?") {
            guard let complexType, let expanded = GPMFParser.expand(complexType) else { return nil }
            elements = expanded
        } else {
            guard let size = GPMFParser.size(of: type), size > 0, structureSize % size == 0 else { return nil }
            elements = [UInt8](repeating: type, count: structureSize / size)
        }
        let sampleBytes = elements.reduce(0) { $0 + (GPMFParser.size(of: $1) ?? 0) }
        guard sampleBytes == structureSize, structureSize > 0, payload.count >= structureSize * repeatCount else { return nil }
        var result: [[Double]] = []
        result.reserveCapacity(repeatCount)
        var i = payload.startIndex
        for _ in 0..<repeatCount {
            var sample: [Double] = []
            sample.reserveCapacity(elements.count)
            for element in elements {
                guard let value = GPMFParser.number(payload, at: i, type: element) else { return nil }
                sample.append(value)
                i += GPMFParser.size(of: element)!
            }
            result.append(sample)
        }
        return result
    }
}

/// Reads GPMF payloads (a `gpmd` sample, the `udta` `GPMF` box, or a raw `.raw` dump).
enum GPMFParser {
    /// Nesting deeper than this is taken as damage (GoPro writes 3 levels).
    static let maximumDepth = 8

    /// The entries of `bytes`; parsing stops at the first malformed entry (what came before is kept).
    static func parse(_ bytes: [UInt8]) -> [GPMFEntry] {
        var problems = 0
        return parse(bytes, bytes.startIndex, bytes.endIndex, depth: 0, problems: &problems)
    }

    /// The entries and whether the data ended inside one (truncated or damaged).
    static func parseReportingDamage(_ bytes: [UInt8]) -> (entries: [GPMFEntry], damaged: Bool) {
        var problems = 0
        let entries = parse(bytes, bytes.startIndex, bytes.endIndex, depth: 0, problems: &problems)
        return (entries, problems > 0)
    }

    private static func parse(_ bytes: [UInt8], _ start: Int, _ end: Int, depth: Int, problems: inout Int) -> [GPMFEntry] {
        var entries: [GPMFEntry] = []
        var i = start
        while i + 8 <= end {
            let key = ByteCursor.fourCC(bytes, i)
            let type = bytes[i + 4], size = Int(bytes[i + 5]), repeatCount = Int(bytes[i + 6]) << 8 | Int(bytes[i + 7])
            let length = size * repeatCount, padded = (length + 3) & ~3
            // An all-zero key is padding at the end of a payload.
            if bytes[i] == 0 && bytes[i + 1] == 0 && bytes[i + 2] == 0 && bytes[i + 3] == 0 { break }
            guard key.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") }), i + 8 + length <= end else {
                problems += 1
                break
            }
            var entry = GPMFEntry(key: key, type: type, structureSize: size, repeatCount: repeatCount,
                                  payload: bytes[(i + 8)..<(i + 8 + length)], children: [])
            if type == 0 {
                guard depth < maximumDepth else { problems += 1; break }
                entry.children = parse(bytes, i + 8, i + 8 + length, depth: depth + 1, problems: &problems)
            }
            entries.append(entry)
            i += 8 + min(padded, end - i - 8)
        }
        return entries
    }

    /// Every entry, depth first.
    static func flatten(_ entries: [GPMFEntry]) -> [GPMFEntry] {
        entries.flatMap { [$0] + flatten($0.children) }
    }

    /// Bytes of one value of `type` (nil for unknown types).
    static func size(of type: UInt8) -> Int? {
        switch type {
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "c"): 1
        case UInt8(ascii: "s"), UInt8(ascii: "S"): 2
        case UInt8(ascii: "l"), UInt8(ascii: "L"), UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "q"): 4
        case UInt8(ascii: "d"), UInt8(ascii: "j"), UInt8(ascii: "J"), UInt8(ascii: "Q"): 8
        case UInt8(ascii: "G"), UInt8(ascii: "U"): 16
        default: nil
        }
    }

    /// A `TYPE` string with its `[n]` arrays spelled out (`f[3]L` → `fffL`); nil when malformed.
    static func expand(_ type: String) -> [UInt8]? {
        var out: [UInt8] = []
        var chars = Array(type.utf8)[...]
        while let c = chars.popFirst() {
            if c == UInt8(ascii: "[") {
                guard let last = out.last, let close = chars.firstIndex(of: UInt8(ascii: "]")),
                      let n = Int(String(decoding: chars[chars.startIndex..<close], as: UTF8.self)), n >= 1, n <= 255 else { return nil }
                out += [UInt8](repeating: last, count: n - 1)
                chars = chars[(close + 1)...]
            } else if c == 0 {
                break
            } else {
                guard size(of: c) != nil else { return nil }
                out.append(c)
            }
        }
        return out.isEmpty ? nil : out
    }

    /// One big-endian value as a Double (nil for non-numeric types).
    static func number(_ b: ArraySlice<UInt8>, at i: Int, type: UInt8) -> Double? {
        func u16() -> UInt16 { UInt16(b[i]) << 8 | UInt16(b[i + 1]) }
        func u32() -> UInt32 { UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3]) }
        func u64() -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(b[i + k]) }
            return v
        }
        switch type {
        case UInt8(ascii: "b"): return Double(Int8(bitPattern: b[i]))
        case UInt8(ascii: "B"), UInt8(ascii: "c"): return Double(b[i])
        case UInt8(ascii: "s"): return Double(Int16(bitPattern: u16()))
        case UInt8(ascii: "S"): return Double(u16())
        case UInt8(ascii: "l"): return Double(Int32(bitPattern: u32()))
        case UInt8(ascii: "L"), UInt8(ascii: "F"): return Double(u32())
        case UInt8(ascii: "f"): return Double(Float(bitPattern: u32()))
        case UInt8(ascii: "q"): return Double(Int32(bitPattern: u32())) / 65536
        case UInt8(ascii: "d"): return Double(bitPattern: u64())
        case UInt8(ascii: "j"): return Double(Int64(bitPattern: u64()))
        case UInt8(ascii: "J"): return Double(u64())
        case UInt8(ascii: "Q"): return Double(Int64(bitPattern: u64())) / 4_294_967_296
        default: return nil
        }
    }
}
