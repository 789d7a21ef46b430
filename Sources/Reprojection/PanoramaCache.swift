import Synchronization

/// A bounded least-recently-used cache of decoded panorama levels, shared by render threads
/// (DESIGN §6: render processes keep a bounded LRU of decoded panoramas).
///
/// Keys are a panorama identifier plus a pyramid level; the bound is in bytes of pixels. Loading
/// happens outside the lock, so two threads missing the same key at once may both decode it.
public final class PanoramaCache: Sendable {
    /// A cached entry's key.
    public struct Key: Hashable, Sendable {
        /// The panorama's identifier (catalog id or path).
        public var identifier: String
        /// Pyramid level (0 = full size).
        public var level: Int
        /// A key.
        public init(identifier: String, level: Int) { self.identifier = identifier; self.level = level }
    }

    private struct State {
        var entries: [Key: (image: PanoramaImage, lastUse: UInt64)] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most pixel bytes kept (default 1 GiB: seven full 8192×4096 panoramas at 4 bytes per pixel).
    public let capacityBytes: Int
    private let state = Mutex(State())

    /// A cache holding at most `capacityBytes` of pixels.
    public init(capacityBytes: Int = 1 << 30) { self.capacityBytes = capacityBytes }

    /// The cached image for `key`, or the result of `load` (then cached, evicting the least recently
    /// used entries beyond the capacity).
    public func image<E: Error>(for key: Key, load: () throws(E) -> PanoramaImage) throws(E) -> PanoramaImage {
        let hit: PanoramaImage? = state.withLock { state in
            state.clock += 1
            guard let entry = state.entries[key] else { return nil }
            state.entries[key] = (entry.image, state.clock)
            return entry.image
        }
        if let hit { return hit }
        let image = try load()
        let cost = image.pixels.count * 4
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.bytes -= old.image.pixels.count * 4 }
            state.entries[key] = (image, state.clock)
            state.bytes += cost
            while state.bytes > capacityBytes, state.entries.count > 1,
                  let oldest = state.entries.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.bytes -= oldest.value.image.pixels.count * 4
                state.entries[oldest.key] = nil
            }
        }
        return image
    }

    /// Bytes of pixels held now.
    public var bytesInUse: Int { state.withLock { $0.bytes } }
    /// Number of entries held now.
    public var count: Int { state.withLock { $0.entries.count } }
}
