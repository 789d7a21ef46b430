/// Bytes a connection received and has not used yet: a head still arriving, or pipelined requests
/// behind the one being answered. Using bytes moves a read index (O(1), however many requests are
/// queued); the unused tail is moved to the front only when the front's dead space is at least as
/// large as the tail, so every byte is moved O(1) times in all. An empty inbox gives its memory back
/// when it had grown past a read buffer, so thousands of idle keep-alive connections hold none.
struct HTTPInbox {
    private var storage: [UInt8] = []
    private var readIndex = 0

    /// The bytes not used yet.
    var count: Int { storage.count - readIndex }
    var isEmpty: Bool { readIndex == storage.count }

    /// Adds bytes at the end.
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        if readIndex > 0 && readIndex >= storage.count - readIndex {
            storage.removeSubrange(0..<readIndex)
            readIndex = 0
        }
        storage.append(contentsOf: bytes)
    }

    /// Marks the first `bytes` as used.
    mutating func consume(_ bytes: Int) {
        precondition(bytes >= 0 && bytes <= count, "consuming \(bytes) of \(count) bytes")
        readIndex += bytes
        if readIndex == storage.count { clear() }
    }

    /// Drops everything; memory beyond `keepBytes` of capacity is given back.
    mutating func clear(keepBytes: Int = 16 * 1024) {
        if storage.capacity > keepBytes { storage = [] } else { storage.removeAll(keepingCapacity: true) }
        readIndex = 0
    }

    /// Calls `body` with the unused bytes.
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[readIndex...])) }
    }
}
