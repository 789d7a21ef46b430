import Foundation
import Imaging
import Parallelism
import Storage

/// A panorama cut into JPEG tiles at every pyramid level, in one file: what lets a view decode only
/// the tiles of the level it needs (a 640×480 view of an 8192×4096 panorama reads about six 256-pixel
/// tiles of the 2048×1024 level) instead of the whole panorama.
///
/// Level 0 is the panorama's own size; level k is 2^k smaller per side (area-filtered, as
/// ``PanoramaImage/halved()``), down to the first level no taller than ``defaultTileSize``.
///
/// Layout, little-endian:
/// ```
/// "LKTILES1" | tileSize UInt32 | levelCount UInt32 | sourceByteCount UInt64 | sourceModified Int64 (ns)
/// per level: width UInt32, height UInt32
/// per level, per tile (row-major): offset UInt64, byteCount UInt32
/// the tiles: baseline JPEG, RGB
/// ```
/// The source's size and modification time are recorded so a stale file is noticed
/// (``isCurrent(forSource:)``); for a source in object storage the "modification time" is 63 bits of
/// the SHA-256 of its ETag (``ObjectStamp/versionNumber``). Local files are written whole to a
/// temporary name and renamed; a file in object storage (`s3://…`, ``ObjectStorage``) is one `PUT` or a
/// multipart upload that appears complete or not at all, and is read by ranges: its header and index
/// (one block), then only the tiles a view needs.
public struct PanoramaTileFile: Sendable {
    /// One level's geometry.
    public struct Level: Sendable, Hashable {
        /// Size in pixels (width = 2 × height).
        public var width: Int, height: Int
        /// Tiles across and down.
        public var columns: Int, rows: Int
        /// Index of this level's first tile among all the file's tiles.
        var firstEntry: Int
    }

    /// Where the file is.
    public let path: String
    /// Tile side in pixels (edge tiles may be smaller).
    public let tileSize: Int
    /// The levels, largest first.
    public let levels: [Level]
    /// Byte size and modification time (ns since 1970) of the source image when the tiles were made.
    public let sourceByteCount: Int, sourceModifiedNanoseconds: Int64
    private let entries: [(offset: Int, count: Int)]

    static let magic = Array("LKTILES1".utf8)
    /// The default tile side, pixels.
    public static let defaultTileSize = 256
    /// JPEG quality of the tiles (4:4:4, so colour edges survive the second encoding).
    public static let jpegQuality = 92

    // MARK: Reading

    /// Opens a tile file (a path or `s3://…`), reading only its header and index.
    /// - Throws: `ReprojectionError.unreadablePanorama` when the file is missing, truncated or not a tile
    ///   file; `.storageFailed` when its store cannot be read (unreachable, refused).
    public init(path: String) throws(ReprojectionError) {
        func bad(_ reason: String) -> ReprojectionError { .unreadablePanorama(file: path, reason: reason) }
        let storage = ObjectStorage.shared
        func read(_ range: Range<Int>) throws(ReprojectionError) -> [UInt8] {
            do { return try storage.read(path, range: range) } catch .notFound { throw bad("no such tile file") } catch {
                throw .storageFailed(error)
            }
        }
        let bytes = try read(0..<32)
        guard bytes.count == 32, Array(bytes.prefix(8)) == Self.magic else { throw bad("not a tile file (bad magic)") }
        tileSize = Int(Self.uint32(bytes, 8))
        let levelCount = Int(Self.uint32(bytes, 12))
        // Values a damaged file may hold past Int.max are errors, never traps.
        guard let byteCount = Int(exactly: Self.uint64(bytes, 16)) else { throw bad("source size out of range") }
        sourceByteCount = byteCount
        sourceModifiedNanoseconds = Int64(bitPattern: Self.uint64(bytes, 24))
        guard (16...4096).contains(tileSize), (1...16).contains(levelCount) else {
            throw bad("tile size \(tileSize) or level count \(levelCount) out of range")
        }
        let sizes = try read(32..<(32 + 8 * levelCount))
        guard sizes.count == 8 * levelCount else { throw bad("truncated level table") }
        var levels: [Level] = []
        var tileCount = 0
        for k in 0..<levelCount {
            let width = Int(Self.uint32(sizes, 8 * k)), height = Int(Self.uint32(sizes, 8 * k + 4))
            guard width == 2 * height, height >= 1, height <= 1 << 16 else { throw bad("level \(k) is \(width)x\(height)") }
            let level = Level(width: width, height: height, columns: (width + tileSize - 1) / tileSize,
                              rows: (height + tileSize - 1) / tileSize, firstEntry: tileCount)
            tileCount += level.columns * level.rows
            levels.append(level)
        }
        let index = try read((32 + 8 * levelCount)..<(32 + 8 * levelCount + 12 * tileCount))
        guard index.count == 12 * tileCount else { throw bad("truncated tile index") }
        let dataStart = 32 + 8 * levelCount + 12 * tileCount
        let fileSize: Int
        do { fileSize = try storage.stamp(path).size } catch .notFound { throw bad("no such tile file") } catch { throw .storageFailed(error) }
        var entries: [(offset: Int, count: Int)] = []
        entries.reserveCapacity(tileCount)
        for t in 0..<tileCount {
            let count = Int(Self.uint32(index, 12 * t + 8))
            guard let offset = Int(exactly: Self.uint64(index, 12 * t)), offset >= dataStart, count > 0,
                  offset <= fileSize - count else { throw bad("tile \(t) lies outside the file") }
            entries.append((offset, count))
        }
        self.path = path
        self.levels = levels
        self.entries = entries
    }

    /// Whether the file was made from the image at `sourcePath` as it is now (same size and
    /// modification time, or ETag for an object).
    public func isCurrent(forSource sourcePath: String) -> Bool {
        guard let stamp = Self.stamp(ofSource: sourcePath) else { return false }
        return stamp.byteCount == sourceByteCount && stamp.modifiedNanoseconds == sourceModifiedNanoseconds
    }

    /// Whether the file is in object storage (read by ranges over the network).
    public var isInObjectStorage: Bool { StorageLocation.isObjectStorage(path) }

    /// Tiles whose bytes lie at most this far apart are fetched in one ranged read from object storage.
    static let coalescingGapBytes = 16 << 10

    /// The level a view needs (``PanoramaPyramid/levelIndex(for:panoramaWidth:levelCount:)``).
    public func level(for camera: ViewCamera) -> Int {
        PanoramaPyramid.levelIndex(for: camera, panoramaWidth: levels[0].width, levelCount: levels.count)
    }

    /// The number of tiles of `level`.
    public func tileCount(level: Int) -> Int { levels[level].columns * levels[level].rows }

    /// An all-black image of `level`'s size for ``decodeTiles(_:level:into:)`` to fill.
    public func blankImage(level: Int) -> PanoramaImage {
        let l = levels[level]
        return PanoramaImage(width: l.width, height: l.height, pixels: [UInt32](repeating: 0, count: l.width * l.height))
    }

    /// Decodes tiles (indices row-major within `level`) into their places in `image`, which must be
    /// `level`'s size; pixels of other tiles are left as they are.
    /// - Throws: `ReprojectionError.unreadablePanorama` for a short read or a tile that does not decode,
    ///   `.invalidParameter` for a tile index or image size that does not belong to the level.
    public func decodeTiles(_ tiles: [Int], level: Int, into image: inout PanoramaImage) throws(ReprojectionError) {
        guard levels.indices.contains(level) else {
            throw .invalidParameter(name: "tile level", value: "\(level)", allowed: "0…\(levels.count - 1)")
        }
        let l = levels[level]
        guard image.width == l.width, image.height == l.height else {
            throw .outputSizeMismatch(expectedWidth: l.width, expectedHeight: l.height, actualWidth: image.width, actualHeight: image.height)
        }
        guard !tiles.isEmpty else { return }
        if isInObjectStorage { return try decodeObjectTiles(tiles, level: level, into: &image) }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadablePanorama(file: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var buffer = [UInt8]()
        for tile in tiles {
            guard (0..<(l.columns * l.rows)).contains(tile) else {
                throw .invalidParameter(name: "tile index", value: "\(tile)", allowed: "0…\(l.columns * l.rows - 1) at level \(level)")
            }
            let entry = entries[l.firstEntry + tile]
            if buffer.count < entry.count { buffer = [UInt8](repeating: 0, count: entry.count) }
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, entry.count, off_t(entry.offset)) }
            guard read == entry.count else { throw .unreadablePanorama(file: path, reason: "short read of tile \(tile) at level \(level)") }
            let x0 = (tile % l.columns) * tileSize, y0 = (tile / l.columns) * tileSize
            let w = min(tileSize, l.width - x0), h = min(tileSize, l.height - y0)
            let width = l.width
            do {
                try buffer.withUnsafeBytes { jpeg in
                    try image.pixels.withUnsafeMutableBufferPointer { pixels in
                        try JPEGCodec.decodeRGBX(UnsafeRawBufferPointer(rebasing: jpeg.prefix(entry.count)), file: path,
                                                 into: UnsafeMutableRawPointer(pixels.baseAddress! + y0 * width + x0),
                                                 rowBytes: width * 4, width: w, height: h)
                    }
                }
            } catch {
                throw .unreadablePanorama(file: path, reason: "tile \(tile) at level \(level): \(error)")
            }
        }
    }

    /// ``decodeTiles(_:level:into:)`` for a file in object storage: the tiles' byte ranges sorted and
    /// joined where they (nearly) touch — a view's tiles sit in a few runs of consecutive tiles of a row
    /// — and each run fetched in one ranged read (through the storage's block caches), then decoded.
    private func decodeObjectTiles(_ tiles: [Int], level: Int, into image: inout PanoramaImage) throws(ReprojectionError) {
        let l = levels[level]
        for tile in tiles where !(0..<(l.columns * l.rows)).contains(tile) {
            throw .invalidParameter(name: "tile index", value: "\(tile)", allowed: "0…\(l.columns * l.rows - 1) at level \(level)")
        }
        let ordered = tiles.sorted { entries[l.firstEntry + $0].offset < entries[l.firstEntry + $1].offset }
        var runs: [(range: Range<Int>, tiles: [Int])] = []
        for tile in ordered {
            let entry = entries[l.firstEntry + tile]
            if let last = runs.last, entry.offset >= last.range.upperBound, entry.offset - last.range.upperBound <= Self.coalescingGapBytes {
                runs[runs.count - 1] = (last.range.lowerBound..<(entry.offset + entry.count), last.tiles + [tile])
            } else {
                runs.append((entry.offset..<(entry.offset + entry.count), [tile]))
            }
        }
        let storage = ObjectStorage.shared
        for run in runs {
            let bytes: [UInt8]
            do { bytes = try storage.read(path, range: run.range) } catch { throw .storageFailed(error) }
            guard bytes.count == run.range.count else {
                throw .unreadablePanorama(file: path, reason: "short read of \(run.tiles.count) tiles at level \(level)")
            }
            let width = l.width
            for tile in run.tiles {
                let entry = entries[l.firstEntry + tile]
                let x0 = (tile % l.columns) * tileSize, y0 = (tile / l.columns) * tileSize
                let w = min(tileSize, l.width - x0), h = min(tileSize, l.height - y0)
                let start = entry.offset - run.range.lowerBound
                do {
                    try bytes.withUnsafeBytes { jpeg in
                        try image.pixels.withUnsafeMutableBufferPointer { pixels in
                            try JPEGCodec.decodeRGBX(UnsafeRawBufferPointer(rebasing: jpeg[start..<(start + entry.count)]), file: path,
                                                     into: UnsafeMutableRawPointer(pixels.baseAddress! + y0 * width + x0),
                                                     rowBytes: width * 4, width: w, height: h)
                        }
                    }
                } catch {
                    throw .unreadablePanorama(file: path, reason: "tile \(tile) at level \(level): \(error)")
                }
            }
        }
    }

    /// The JPEG bytes of one tile as stored (column `column`, row `row` of `level`, level 0 the
    /// largest): what a browser panorama viewer asks for, sent without decoding.
    /// - Throws: `ReprojectionError.invalidParameter` for a level or tile outside the file,
    ///   `.unreadablePanorama` for a short read.
    public func tileBytes(level: Int, column: Int, row: Int) throws(ReprojectionError) -> [UInt8] {
        guard levels.indices.contains(level) else {
            throw .invalidParameter(name: "tile level", value: "\(level)", allowed: "0…\(levels.count - 1)")
        }
        let l = levels[level]
        guard (0..<l.columns).contains(column), (0..<l.rows).contains(row) else {
            throw .invalidParameter(name: "tile", value: "\(column)/\(row)", allowed: "x 0…\(l.columns - 1), y 0…\(l.rows - 1) at this level")
        }
        let entry = entries[l.firstEntry + row * l.columns + column]
        if isInObjectStorage {
            let bytes: [UInt8]
            do { bytes = try ObjectStorage.shared.read(path, range: entry.offset..<(entry.offset + entry.count)) } catch {
                throw .storageFailed(error)
            }
            guard bytes.count == entry.count else { throw .unreadablePanorama(file: path, reason: "short read of tile \(column)/\(row) at level \(level)") }
            return bytes
        }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { throw .unreadablePanorama(file: path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: entry.count)
        let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, entry.count, off_t(entry.offset)) }
        guard read == entry.count else { throw .unreadablePanorama(file: path, reason: "short read of tile \(column)/\(row) at level \(level)") }
        return buffer
    }

    // MARK: Writing

    /// JPEG quality of the halved levels' tiles when level 0 is the source's own coefficients
    /// (``write(jpeg:source:to:tileSize:maximumThreads:)``): 4:2:0, as cameras write, so the pyramid costs
    /// about a third of the photo on top of it.
    public static let halvedLevelQuality = 85

    /// The tile file of a whole (2:1) panorama JPEG, `jpeg`, with level 0 cut from it losslessly
    /// (``JPEGCodec/losslessTiles(_:tileSize:file:)``: the photo's own DCT coefficients, no generation
    /// loss, about the photo's bytes) and the halved levels from its 1/2-scale decode (the inverse DCT at
    /// half size), encoded at ``halvedLevelQuality`` 4:2:0 on up to `maximumThreads` cores. Written as
    /// ``write(_:source:to:tileSize:maximumThreads:)`` writes (atomically, the source's stamp recorded).
    /// - Returns: the opened file; nil when the JPEG's MCUs do not divide `tileSize` (the caller then
    ///   decodes it whole and writes it with ``write(_:source:to:tileSize:maximumThreads:)``).
    /// - Throws: `ReprojectionError.unreadablePanorama` for damaged data (strict: what libjpeg would work
    ///   around too), `.notEquirectangular` unless 2:1, `.cannotWrite`.
    @discardableResult
    public static func write(jpeg: [UInt8], source sourcePath: String, to path: String, tileSize: Int = defaultTileSize,
                             maximumThreads: Int? = nil) throws(ReprojectionError) -> PanoramaTileFile? {
        guard (16...4096).contains(tileSize) else {
            throw .invalidParameter(name: "tile size", value: "\(tileSize)", allowed: "16…4096 pixels")
        }
        guard let stamp = stamp(ofSource: sourcePath) else {
            throw .unreadablePanorama(file: sourcePath, reason: "cannot read its size and modification time")
        }
        let header: JPEGHeader
        do { header = try JPEGCodec.readHeader(jpeg) } catch { throw .unreadablePanorama(file: sourcePath, reason: "\(error)") }
        guard header.width == 2 * header.height, header.height >= 2 else {
            throw .notEquirectangular(width: header.width, height: header.height)
        }
        let lossless: JPEGCodec.LosslessTiles
        do {
            guard let cut = try JPEGCodec.losslessTiles(jpeg, tileSize: tileSize) else { return nil }
            lossless = cut
        } catch {
            throw .unreadablePanorama(file: sourcePath, reason: "\(error)")
        }
        let sizes = levelSizes(width: header.width, height: header.height, tileSize: tileSize)
        var tiles = lossless.tiles
        if sizes.count > 1 {
            // Level 1 straight from the JPEG at 1/2 scale (no full-size pixels held), then halved.
            var level1 = PanoramaImage(width: sizes[1].width, height: sizes[1].height,
                                       pixels: [UInt32](repeating: 0, count: sizes[1].width * sizes[1].height))
            do {
                try level1.pixels.withUnsafeMutableBytes { destination in
                    _ = try JPEGCodec.decodeRegion(jpeg, scale: .half, width: sizes[1].width, height: sizes[1].height,
                                                   columns: 0..<sizes[1].width, rows: 0..<sizes[1].height,
                                                   into: destination.baseAddress!, rowBytes: sizes[1].width * 4)
                }
            } catch {
                throw .unreadablePanorama(file: sourcePath, reason: "\(error)")
            }
            tiles += try encodeLevels(level1, sizes: sizes, from: 1, tileSize: tileSize, quality: halvedLevelQuality,
                                      subsampling: .chroma420, maximumThreads: maximumThreads, sourcePath: sourcePath)
        }
        return try assemble(tiles: tiles, sizes: sizes, tileSize: tileSize, stamp: stamp, to: path)
    }

    /// Cuts `panorama` and its halvings into tiles and writes them to `path` (atomically: a temporary
    /// file in the same folder, then a rename; a failed write removes the temporary file), recording
    /// `sourcePath`'s size and modification time. Tiles are encoded on up to `maximumThreads` cores
    /// (`nil` = all; 1 when the caller already writes several files at once), at ``jpegQuality`` 4:4:4.
    /// The path for panoramas ``write(jpeg:source:to:tileSize:maximumThreads:)`` cannot cut losslessly
    /// (a partial panorama embedded in its sphere, a PNG, MCUs that do not divide the tile size).
    /// - Returns: the opened file.
    /// - Throws: `ReprojectionError.unreadablePanorama` when the source cannot be stat'ed,
    ///   `.cannotWrite` when the file cannot be written (the disk full, no permission; the old file stays),
    ///   `.invalidParameter` for a tile size outside 16…4096.
    @discardableResult
    public static func write(_ panorama: consuming PanoramaImage, source sourcePath: String, to path: String,
                             tileSize: Int = defaultTileSize, maximumThreads: Int? = nil) throws(ReprojectionError) -> PanoramaTileFile {
        guard (16...4096).contains(tileSize) else {
            throw .invalidParameter(name: "tile size", value: "\(tileSize)", allowed: "16…4096 pixels")
        }
        guard let stamp = stamp(ofSource: sourcePath) else {
            throw .unreadablePanorama(file: sourcePath, reason: "cannot read its size and modification time")
        }
        let sizes = levelSizes(width: panorama.width, height: panorama.height, tileSize: tileSize)
        let tiles = try encodeLevels(panorama, sizes: sizes, from: 0, tileSize: tileSize, quality: jpegQuality, subsampling: .chroma444,
                                     maximumThreads: maximumThreads, sourcePath: sourcePath)
        return try assemble(tiles: tiles, sizes: sizes, tileSize: tileSize, stamp: stamp, to: path)
    }

    /// Level sizes as ``PanoramaImage/halved()`` makes them, down to the first no taller than a tile.
    static func levelSizes(width: Int, height: Int, tileSize: Int) -> [(width: Int, height: Int)] {
        var sizes = [(width: width, height: height)]
        while let last = sizes.last, last.height > tileSize, last.height % 2 == 0, last.height >= 4 {
            sizes.append((last.width / 2, last.height / 2))
        }
        return sizes
    }

    /// The tiles of levels `first`… of `sizes`, `image` being level `first`: each level made from the one
    /// before, which is dropped once its tiles are encoded (at most two levels held at once).
    static func encodeLevels(_ start: consuming PanoramaImage, sizes: [(width: Int, height: Int)], from first: Int, tileSize: Int,
                             quality: Int, subsampling: JPEGSubsampling, maximumThreads: Int?,
                             sourcePath: String) throws(ReprojectionError) -> [[UInt8]] {
        var tiles: [[UInt8]] = []
        var image = consume start
        for level in first..<sizes.count {
            if level > first {
                guard let next = image.halved() else { preconditionFailure("level \(level) of \(sizes) cannot be made") }
                image = next
            }
            let columns = (image.width + tileSize - 1) / tileSize, rows = (image.height + tileSize - 1) / tileSize
            var levelTiles = [[UInt8]](repeating: [], count: columns * rows)
            var failure: String?
            let lock = NSLock()
            let width = image.width, height = image.height
            image.pixels.withUnsafeBufferPointer { pixels in
                Parallel.forEachRowRange(columns * rows, minimumRowsPerChunk: 1, maximumThreads: maximumThreads) { range in
                    for t in range {
                        let x0 = (t % columns) * tileSize, y0 = (t / columns) * tileSize
                        let w = min(tileSize, width - x0), h = min(tileSize, height - y0)
                        var crop = [UInt8](repeating: 0, count: w * h * 3)
                        crop.withUnsafeMutableBufferPointer { out in
                            for y in 0..<h {
                                let row = (y0 + y) * width + x0, base = y * w * 3
                                for x in 0..<w {
                                    let p = pixels[row + x]
                                    out[base + 3 * x] = UInt8(truncatingIfNeeded: p)
                                    out[base + 3 * x + 1] = UInt8(truncatingIfNeeded: p >> 8)
                                    out[base + 3 * x + 2] = UInt8(truncatingIfNeeded: p >> 16)
                                }
                            }
                        }
                        do {
                            let jpeg = try JPEGCodec.encode(RGB8Image(width: w, height: h, components: crop), quality: quality,
                                                            subsampling: subsampling)
                            lock.withLock { levelTiles[t] = jpeg }
                        } catch {
                            lock.withLock { failure = "\(error)" }
                        }
                    }
                }
            }
            if let failure { throw .unreadablePanorama(file: sourcePath, reason: "cannot encode a tile: \(failure)") }
            tiles += levelTiles
        }
        return tiles
    }

    /// Writes the header, the index and `tiles` (every level's, in order) to `path` atomically and opens it.
    static func assemble(tiles: [[UInt8]], sizes: [(width: Int, height: Int)], tileSize: Int,
                         stamp: (byteCount: Int, modifiedNanoseconds: Int64), to path: String) throws(ReprojectionError) -> PanoramaTileFile {
        var header = magic
        append32(&header, tileSize); append32(&header, sizes.count)
        append64(&header, UInt64(stamp.byteCount)); append64(&header, UInt64(bitPattern: stamp.modifiedNanoseconds))
        for size in sizes { append32(&header, size.width); append32(&header, size.height) }
        var offset = header.count + 12 * tiles.count
        for tile in tiles { append64(&header, UInt64(offset)); append32(&header, tile.count); offset += tile.count }
        if StorageLocation.isObjectStorage(path) {
            var bytes = header
            bytes.reserveCapacity(offset)
            for tile in tiles { bytes += tile }
            do { try ObjectStorage.shared.write(bytes, to: path, contentType: "application/octet-stream") } catch {
                throw .storageFailed(error)
            }
            return try PanoramaTileFile(path: path)
        }
        var data = Data(header)
        data.reserveCapacity(offset)
        for tile in tiles { data.append(contentsOf: tile) }
        let directory = FilePath.directory(of: path)
        if !directory.isEmpty {
            do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
                throw .cannotWrite(WriteFailure(path: path, code: (error as NSError).underlyingPOSIXCode ?? EACCES))
            }
        }
        // A temporary file beside it, synced and renamed; unique per write, so two threads making the
        // same file do not rename each other's half-written one.
        do throws(WriteFailure) { try WriteFailure.writeAtomically(data, to: path) } catch { throw .cannotWrite(error) }
        return try PanoramaTileFile(path: path)
    }

    // MARK: Helpers

    /// A source's size and modification time in nanoseconds (for an object, the number of its ETag).
    static func stamp(ofSource path: String) -> (byteCount: Int, modifiedNanoseconds: Int64)? {
        guard StorageLocation.isObjectStorage(path) else {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            return (Int(info.st_size), Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
        }
        guard let stamp = try? ObjectStorage.shared.stamp(path) else { return nil }
        return (stamp.size, stamp.versionNumber)
    }

    private static func uint32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
    }

    private static func uint64(_ b: [UInt8], _ i: Int) -> UInt64 { UInt64(uint32(b, i)) | UInt64(uint32(b, i + 4)) << 32 }

    private static func append32(_ b: inout [UInt8], _ v: Int) {
        for k in 0..<4 { b.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
    }

    private static func append64(_ b: inout [UInt8], _ v: UInt64) {
        for k in 0..<8 { b.append(UInt8(truncatingIfNeeded: v >> (8 * k))) }
    }
}

extension NSError {
    /// The POSIX errno underneath a Foundation file error, when there is one.
    var underlyingPOSIXCode: Int32? {
        if domain == NSPOSIXErrorDomain { return Int32(code) }
        return (userInfo[NSUnderlyingErrorKey] as? NSError)?.underlyingPOSIXCode
    }
}
