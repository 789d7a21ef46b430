/// An open-addressing hash table from a grid-cell key to the range of points in that cell
/// (points are stored sorted by cell, so a cell is one contiguous range).
///
/// Power-of-two capacity at most half full; linear probing; `UInt64.max` marks an empty slot.
/// Lookups allocate nothing.
struct CellTable: Sendable {
    private(set) var keys: [UInt64]
    private(set) var starts: [UInt32]
    private(set) var counts: [UInt32]
    private let mask: Int
    /// Number of occupied cells.
    private(set) var cellCount = 0

    static let empty = UInt64.max

    /// A table for about `expectedCells` cells.
    init(expectedCells: Int) {
        var capacity = 16
        while capacity < expectedCells * 2 { capacity <<= 1 }
        keys = [UInt64](repeating: Self.empty, count: capacity)
        starts = [UInt32](repeating: 0, count: capacity)
        counts = [UInt32](repeating: 0, count: capacity)
        mask = capacity - 1
    }

    @inline(__always)
    private static func hash(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 29)
    }

    /// Adds a cell (each key once).
    mutating func insert(_ key: UInt64, start: UInt32, count: UInt32) {
        var slot = Self.hash(key) & mask
        while keys[slot] != Self.empty { slot = (slot + 1) & mask }
        keys[slot] = key
        starts[slot] = start
        counts[slot] = count
        cellCount += 1
    }

    /// The (start, count) of the points in cell `key`, or count 0.
    @inline(__always)
    func lookup(_ key: UInt64) -> (start: Int, count: Int) {
        keys.withUnsafeBufferPointer { keys in
            var slot = Self.hash(key) & mask
            while true {
                let found = keys[slot]
                if found == key { return (Int(starts[slot]), Int(counts[slot])) }
                if found == Self.empty { return (0, 0) }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Bytes held by the table's arrays.
    var byteCount: Int { keys.count * (8 + 4 + 4) }
}
