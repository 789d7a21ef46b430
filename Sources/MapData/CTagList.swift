import CReadOSM
import Glibc

/// A view of libreadosm's tag array for the duration of one callback. Keys and values are compared as
/// C strings against `StaticString`s, so classifying an element allocates nothing; only elements that
/// are kept get their tags copied into a Swift dictionary.
struct CTagList {
    let tags: UnsafePointer<readosm_tag>?
    let count: Int

    init(_ tags: UnsafePointer<readosm_tag>?, _ count: Int32) {
        self.tags = count > 0 ? tags : nil
        self.count = Int(max(count, 0))
    }

    /// The value pointer for `key`, or nil when absent (or NULL).
    @inline(__always)
    func value(_ key: StaticString) -> UnsafePointer<CChar>? {
        guard let tags else { return nil }
        for i in 0..<count {
            if let k = tags[i].key, CTagList.equals(k, key) { return tags[i].value }
        }
        return nil
    }

    /// Whether `key` is present (any value).
    @inline(__always)
    func has(_ key: StaticString) -> Bool { value(key) != nil }

    /// Whether `key` is present with exactly `expected` as its value.
    @inline(__always)
    func value(_ key: StaticString, is expected: StaticString) -> Bool {
        guard let v = value(key) else { return false }
        return CTagList.equals(v, expected)
    }

    /// Whether `key` is present with a value other than "no".
    @inline(__always)
    func hasNonNo(_ key: StaticString) -> Bool {
        guard let v = value(key) else { return false }
        return !CTagList.equals(v, "no")
    }

    /// Whether `key` has one of `values`.
    @inline(__always)
    func value(_ key: StaticString, isOneOf values: [StaticString]) -> Bool {
        guard let v = value(key) else { return false }
        return values.contains { CTagList.equals(v, $0) }
    }

    /// `c` equals `s` exactly (same bytes, then NUL). `strncmp` stops at `c`'s NUL, so a C string
    /// shorter than `s` is never read past its end (`memcmp` would: AddressSanitizer caught it).
    @inline(__always)
    static func equals(_ c: UnsafePointer<CChar>, _ s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        return s.utf8Start.withMemoryRebound(to: CChar.self, capacity: n) { strncmp(c, $0, n) == 0 } && c[n] == 0
    }

    /// A Swift copy of all tags (NULL keys skipped, NULL values as "").
    func dictionary() -> [String: String] {
        guard let tags else { return [:] }
        var result: [String: String] = [:]
        result.reserveCapacity(count)
        for i in 0..<count {
            guard let k = tags[i].key else { continue }
            result[String(cString: k)] = tags[i].value.map { String(cString: $0) } ?? ""
        }
        return result
    }
}
