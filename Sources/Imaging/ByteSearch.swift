extension Array where Element == UInt8 {
    /// The first index at or after `start` where `needle` occurs in these bytes (nil: nowhere, or `needle`
    /// is empty). O(count · needle.count) at worst, about O(count) for the short markers it is used for
    /// (XMP tags, multipart delimiters, header ends).
    public func firstIndex(of needle: [UInt8], from start: Int = 0) -> Int? {
        guard let first = needle.first, count >= needle.count else { return nil }
        return withUnsafeBufferPointer { h in
            needle.withUnsafeBufferPointer { n in
                var i = Swift.max(start, 0)
                let last = h.count - n.count
                while i <= last {
                    if h[i] == first {
                        var k = 1
                        while k < n.count && h[i + k] == n[k] { k += 1 }
                        if k == n.count { return i }
                    }
                    i += 1
                }
                return nil
            }
        }
    }
}
