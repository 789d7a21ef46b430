import CPrefetch
#if canImport(Glibc)
import Glibc
#endif

/// The fine cells of ``SceneQueryIndex``: an open-addressed hash table whose slots are whole 64-byte cache
/// lines holding a cell's key, its range in the index's sorted arrays and its first ``inlinePoints`` points,
/// packed (see ``SceneQueryIndex/packedPoint(latitudeE7:longitudeE7:row:column:flags:)``). A cell of up to
/// twelve panoramas is answered from the one line its key hashes to; a larger one reads the rest from
/// `packedPoints`, 16 points per line.
///
/// Power-of-two capacity at most half full; linear probing; key `UInt64.max` marks an empty slot. The slots
/// and the packed points share one 64-byte-aligned allocation, advised to use transparent huge pages
/// (`MADV_HUGEPAGE`) so random slot reads cost no page walk. Immutable after `init`.
///
/// Slot layout, 16 × UInt32: key (2 words), start, count, then 12 packed points.
// @unchecked Sendable: the allocation is written only in `init` and read-only afterwards; `deinit` frees it.
final class CellBlockTable: @unchecked Sendable {
    static let slotBytes = 64
    static let inlinePoints = 12
    static let empty = UInt64.max

    private let memory: UnsafeMutableRawPointer
    private let mask: Int
    /// Number of slots (a power of two).
    let slotCount: Int
    /// Number of occupied cells.
    let cellCount: Int
    /// Every point's packed word, in the index's sorted order (the words past a cell's first twelve are read here).
    let packedPoints: UnsafePointer<UInt32>
    /// Bytes of the one allocation.
    let byteCount: Int

    /// A table over points sorted by fine key: `keys[i]` is point i's cell, `packed[i]` its packed word.
    init(keys: [UInt64], packed: [UInt32]) {
        precondition(keys.count == packed.count)
        var cells = 0
        var previous = UInt64.max
        for key in keys where key != previous { cells += 1; previous = key }
        var capacity = 16
        while capacity < cells * 2 { capacity <<= 1 }
        slotCount = capacity
        mask = capacity - 1
        cellCount = cells
        let slotBytes = capacity * Self.slotBytes
        byteCount = slotBytes + max(keys.count, 1) * 4
        let hugePage = 2 << 20
        memory = UnsafeMutableRawPointer.allocate(byteCount: byteCount, alignment: byteCount >= hugePage ? hugePage : Self.slotBytes)
        #if canImport(Glibc)
        // Before the first write, so the pages are faulted in huge; only a hint (`madvise` may refuse).
        if byteCount >= hugePage { _ = madvise(memory, byteCount, MADV_HUGEPAGE) }
        #endif
        let slots = memory.bindMemory(to: UInt32.self, capacity: capacity * 16)
        for s in 0..<capacity {
            (memory + s * Self.slotBytes).storeBytes(of: Self.empty, as: UInt64.self)
            for w in 2..<16 { slots[s * 16 + w] = 0 }
        }
        let points = (memory + slotBytes).bindMemory(to: UInt32.self, capacity: max(keys.count, 1))
        packed.withUnsafeBufferPointer { source in
            for i in 0..<source.count { points[i] = source[i] }
        }
        packedPoints = UnsafePointer(points)
        var i = 0
        while i < keys.count {
            var j = i + 1
            while j < keys.count && keys[j] == keys[i] { j += 1 }
            var slot = Self.hash(keys[i]) & mask
            while (memory + slot * Self.slotBytes).load(as: UInt64.self) != Self.empty { slot = (slot + 1) & mask }
            (memory + slot * Self.slotBytes).storeBytes(of: keys[i], as: UInt64.self)
            slots[slot * 16 + 2] = UInt32(i)
            slots[slot * 16 + 3] = UInt32(j - i)
            for k in 0..<min(j - i, Self.inlinePoints) { slots[slot * 16 + 4 + k] = packed[i + k] }
            i = j
        }
    }

    deinit { memory.deallocate() }

    @inline(__always)
    static func hash(_ key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 29)
    }

    /// Asks the memory system for the line where the search for `key` starts (a batch's next queries).
    @inline(__always)
    func prefetch(_ key: UInt64) {
        lk_prefetch(memory + (Self.hash(key) & mask) * Self.slotBytes)
    }

    /// Slots (cache lines) a lookup of `key` reads, for the benchmark's lines-per-query figure.
    func probes(_ key: UInt64) -> Int {
        var index = Self.hash(key) & mask, n = 1
        while true {
            let stored = (memory + index * Self.slotBytes).load(as: UInt64.self)
            if stored == key || stored == Self.empty { return n }
            index = (index + 1) & mask
            n += 1
        }
    }

    /// The slot of cell `key` (key at byte 0, start at 8, count at 12, packed points from 16), or nil when
    /// the cell holds no point.
    @inline(__always)
    func slot(_ key: UInt64) -> UnsafeRawPointer? {
        var index = Self.hash(key) & mask
        while true {
            let slot = UnsafeRawPointer(memory + index * Self.slotBytes)
            let stored = slot.load(as: UInt64.self)
            if stored == key { return slot }
            if stored == Self.empty { return nil }
            index = (index + 1) & mask
        }
    }
}
