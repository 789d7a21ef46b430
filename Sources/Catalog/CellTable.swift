/// An open-addressing hash table from a grid-cell key to the range of points in that cell
/// (points are stored sorted by cell, so a cell is one contiguous range).
///
/// Power-of-two capacity at most half full; linear probing; `UInt64.max` marks an empty slot. Each slot
/// is 16 bytes (key, start, count) so a probe touches one cache line. Lookups allocate nothing.
struct CellTable: Sendable {
    struct Slot: Sendable {
        var key: UInt64
        var start: UInt32
        var count: UInt32
    }

    private var slots: [Slot]
    private let mask: Int
    /// Number of occupied cells.
    private(set) var cellCount = 0

    static let empty = UInt64.max

    /// A table for about `expectedCells` cells.
    init(expectedCells: Int) {
        var capacity = 16
        while capacity < expectedCells * 2 { capacity <<= 1 }
        slots = [Slot](repeating: Slot(key: Self.empty, start: 0, count: 0), count: capacity)
        mask = capacity - 1
    }

    @inline(__always)
    private static func hash(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 29)
    }

    /// Adds a cell (each key once).
    mutating func insert(_ key: UInt64, start: UInt32, count: UInt32) {
        var slot = Self.hash(key) & mask
        while slots[slot].key != Self.empty { slot = (slot + 1) & mask }
        slots[slot] = Slot(key: key, start: start, count: count)
        cellCount += 1
    }

    /// The (start, count) of the points in cell `key`, or count 0.
    @inline(__always)
    func lookup(_ key: UInt64) -> (start: Int, count: Int) {
        slots.withUnsafeBufferPointer { slots in
            var index = Self.hash(key) & mask
            while true {
                let slot = slots[index]
                if slot.key == key { return (Int(slot.start), Int(slot.count)) }
                if slot.key == Self.empty { return (0, 0) }
                index = (index + 1) & mask
            }
        }
    }

    /// Bytes held by the table.
    var byteCount: Int { slots.count * MemoryLayout<Slot>.stride }
}
