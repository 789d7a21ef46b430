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
        /// For levels decoded tile by tile: which tiles the image holds.
        var tileCoverage: [Key: [Bool]] = [:]
        /// For levels of which only a region was decoded (a first view): the region the image holds.
        var regions: [Key: PanoramaRegion] = [:]
        var bytes = 0
        var clock: UInt64 = 0
    }

    /// The most pixel bytes kept (default 1 GiB: seven full 8192×4096 panoramas at 4 bytes per pixel).
    public let capacityBytes: Int
    private let state = Mutex(State())

    /// Makes missing tile files in the background after a view had to decode a panorama's JPEG (a
    /// long-running server's cache has one; nil: never, as for a one-off snapshot).
    public let tileMaker: PanoramaTileMaker?

    /// A cache holding at most `capacityBytes` of pixels; `tileMaker` as ``tileMaker``.
    public init(capacityBytes: Int = 1 << 30, tileMaker: PanoramaTileMaker? = nil) {
        self.capacityBytes = capacityBytes
        self.tileMaker = tileMaker
    }

    /// The cached image for `key`, or the result of `load` (then cached, evicting the least recently
    /// used entries beyond the capacity).
    public func image<E: Error>(for key: Key, load: () throws(E) -> PanoramaImage) throws(E) -> PanoramaImage {
        let hit: PanoramaImage? = state.withLock { state in
            state.clock += 1
            guard let entry = state.entries[key], state.tileCoverage[key] == nil, state.regions[key] == nil else { return nil }
            state.entries[key] = (entry.image, state.clock)
            return entry.image
        }
        if let hit { return hit }
        let image = try load()
        insert(image, coverage: nil, for: key)
        return image
    }

    /// For a view that needs `region` of level `key`: the whole level when it is cached, else the image
    /// of a region cached under `key` (``insert(_:region:for:)``) when it holds `region`; nil otherwise,
    /// with whether a region was there (the view has moved out of it: time to decode the whole level).
    public func image(for key: Key, region: PanoramaRegion) -> (image: PanoramaImage?, hadRegion: Bool) {
        state.withLock { state in
            state.clock += 1
            guard let entry = state.entries[key], state.tileCoverage[key] == nil else { return (nil, false) }
            if let held = state.regions[key], !held.contains(region) { return (nil, true) }
            state.entries[key] = (entry.image, state.clock)
            return (entry.image, false)
        }
    }

    /// Keeps the image of a level of which only `region` was decoded (black elsewhere) under `key`, until
    /// the whole level replaces it.
    public func insert(_ image: PanoramaImage, region: PanoramaRegion, for key: Key) {
        insert(image, coverage: nil, for: key)
        state.withLock { $0.regions[key] = region }
    }

    /// Level `level` of a tiled panorama holding at least the tiles `needed`: the cached image with
    /// only the missing tiles decoded into it, or a new one with just those. The image is taken out
    /// of the cache while tiles are added (so its pixels are not copied) and put back after.
    /// - Throws: `ReprojectionError` when a tile cannot be read.
    public func image(for key: Key, tiles: PanoramaTileFile, level: Int, needed: [Int]) throws(ReprojectionError) -> PanoramaImage {
        enum Held { case none, complete(PanoramaImage), partial(PanoramaImage, coverage: [Bool]) }
        let held: Held = state.withLock { state in
            state.clock += 1
            guard let entry = state.entries[key], let coverage = state.tileCoverage[key],
                  coverage.count == tiles.tileCount(level: level) else { return .none }
            if needed.allSatisfy({ coverage[$0] }) {
                state.entries[key] = (entry.image, state.clock)
                return .complete(entry.image)
            }
            state.entries[key] = nil
            state.tileCoverage[key] = nil
            state.bytes -= entry.image.pixels.count * 4
            return .partial(entry.image, coverage: coverage)
        }
        var image: PanoramaImage, coverage: [Bool]
        switch held {
        case .complete(let cached): return cached
        case .partial(let cached, let decoded): (image, coverage) = (cached, decoded)
        case .none: (image, coverage) = (tiles.blankImage(level: level), [Bool](repeating: false, count: tiles.tileCount(level: level)))
        }
        let missing = needed.filter { !coverage[$0] }
        try tiles.decodeTiles(missing, level: level, into: &image)
        for tile in missing { coverage[tile] = true }
        insert(image, coverage: coverage, for: key)
        return image
    }

    private func insert(_ image: PanoramaImage, coverage: [Bool]?, for key: Key) {
        let cost = image.pixels.count * 4
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.bytes -= old.image.pixels.count * 4 }
            state.entries[key] = (image, state.clock)
            state.tileCoverage[key] = coverage
            state.regions[key] = nil
            state.bytes += cost
            while state.bytes > capacityBytes, state.entries.count > 1,
                  let oldest = state.entries.filter({ $0.key != key }).min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.bytes -= oldest.value.image.pixels.count * 4
                state.entries[oldest.key] = nil
                state.tileCoverage[oldest.key] = nil
                state.regions[oldest.key] = nil
            }
        }
    }

    /// Bytes of pixels held now.
    public var bytesInUse: Int { state.withLock { $0.bytes } }
    /// Number of entries held now.
    public var count: Int { state.withLock { $0.entries.count } }
}
