import Dispatch
import Foundation
import Imaging
import Storage
import Synchronization

/// The tile files (``PanoramaTileFile``) of one catalog's panoramas: where they are, whether one is
/// current, and making the missing or stale ones — the one place both `lookaround index --tiles` and
/// the snapshotter's lazy path go through.
///
/// The files live in a folder beside the catalog named like it with `.tiles`
/// (`Panoramas/catalog.sqlite` → `Panoramas/catalog.tiles/<id>.lktiles`). A file is current when it
/// records the source JPEG's present size and modification time, so checking one costs a `stat` of the
/// JPEG and a read of the tile file's header and index.
public struct PanoramaTileStore: Sendable {
    /// The folder holding the tile files.
    public let directory: String

    /// The store of the catalog at `catalogPath`: `<catalog without extension>.tiles`.
    public init(catalogPath: String) {
        directory = (catalogPath as NSString).deletingPathExtension + ".tiles"
    }

    /// A store in `directory`.
    public init(directory: String) {
        self.directory = directory
    }

    /// The file name of panorama `panoramaID`'s tiles, then `.lktiles`: ASCII letters, digits, `-` and
    /// `.` (not first) as they are, `_` doubled, every other byte of the UTF-8 id as `_` and two hex
    /// digits (`helsinki/R0010023` → `helsinki_2FR0010023`). No two ids share a name, and none can
    /// leave the folder or hide in it.
    public static func fileName(panoramaID: String) -> String {
        var name = ""
        for (i, byte) in panoramaID.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                name.append(Character(UnicodeScalar(byte)))
            case UInt8(ascii: ".") where i > 0: name.append(".")
            case UInt8(ascii: "_"): name += "__"
            default: name += "_" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            }
        }
        return name + "." + fileExtension
    }

    /// The extension of tile files.
    public static let fileExtension = "lktiles"

    /// Where panorama `panoramaID`'s tile file is (whether or not it exists).
    public func path(panoramaID: String) -> String {
        directory + "/" + Self.fileName(panoramaID: panoramaID)
    }

    /// Panorama `panoramaID`'s tile file when it exists, reads and was made from `sourcePath` as it is
    /// now; nil when missing, unreadable or stale.
    public func currentFile(panoramaID: String, source sourcePath: String) -> PanoramaTileFile? {
        (try? currentFileOrUnavailable(panoramaID: panoramaID, source: sourcePath)) ?? nil
    }

    /// ``currentFile(panoramaID:source:)``, except that a store that cannot be used now (object
    /// storage unreachable, refusing the credentials) is an error, not "no file".
    /// - Throws: `ReprojectionError.storageFailed` with an unavailable store only.
    public func currentFileOrUnavailable(panoramaID: String, source sourcePath: String) throws(ReprojectionError) -> PanoramaTileFile? {
        let file: PanoramaTileFile
        do { file = try PanoramaTileFile(path: path(panoramaID: panoramaID)) } catch .storageFailed(let error) where error.isUnavailable {
            throw .storageFailed(error)
        } catch {
            return nil
        }
        if StorageLocation.isObjectStorage(sourcePath) {
            do { _ = try ObjectStorage.shared.stamp(sourcePath) } catch where error.isUnavailable { throw .storageFailed(error) } catch {
                return nil
            }
        }
        return file.isCurrent(forSource: sourcePath) ? file : nil
    }

    /// Panorama `panoramaID`'s current tile file, made from `sourcePath` when missing or stale: level 0 cut
    /// from the JPEG losslessly and the halved levels from its half-scale decode
    /// (``PanoramaTileFile/write(jpeg:source:to:tileSize:maximumThreads:)``), or, for a partial panorama or
    /// MCUs that do not divide the tiles, decoded whole and halved; the tiles encoded on up to
    /// `maximumThreads` cores. A JPEG libjpeg warns about (truncated, corrupt data) gets no tile file.
    /// - Returns: the file, and whether it was made now.
    /// - Throws: `ReprojectionError.unreadablePanorama` or `.notEquirectangular` when the JPEG cannot
    ///   be read or decoded cleanly, `.cannotWrite` when the tile file cannot be written (nothing is
    ///   left behind).
    /// - Parameter crop: for a partial panorama, where the image lies in its full sphere (the tiles are
    ///   cut from the image embedded in it: ``PanoramaCrop/embed(_:level:)``).
    public func file(panoramaID: String, source sourcePath: String, crop: PanoramaCrop? = nil,
                     maximumThreads: Int? = nil) throws(ReprojectionError) -> (file: PanoramaTileFile, made: Bool) {
        if let file = currentFile(panoramaID: panoramaID, source: sourcePath) { return (file, false) }
        let bytes: [UInt8]
        let header: JPEGHeader
        do {
            // Read once to be cut into tiles: not kept in the storage's caches.
            bytes = try ObjectStorage.shared.read(sourcePath, caching: false)
        } catch {
            throw StorageLocation.isObjectStorage(sourcePath) ? .storageFailed(error) : .unreadablePanorama(file: sourcePath, reason: "\(error)")
        }
        do {
            header = try JPEGCodec.readHeader(bytes)
        } catch {
            throw .unreadablePanorama(file: sourcePath, reason: "\(error)")
        }
        var full: PanoramaImage
        if let crop, !crop.isFull(width: header.width, height: header.height) {
            let decoded: RGB8Image
            do {
                // Strict: a damaged JPEG is reported, not baked into the tiles with libjpeg's grey fill (views
                // then decode it directly, as they would without tiles).
                // No file name in the codec's message: the error below names it.
                decoded = try JPEGCodec.decodeRGB(bytes, file: nil, options: JPEGDecodeOptions(strict: true)).image
            } catch {
                throw .unreadablePanorama(file: sourcePath, reason: "\(error)")
            }
            full = try crop.embed(decoded, level: 0)
        } else {
            guard header.width == 2 * header.height, header.height >= 2 else {
                throw .notEquirectangular(width: header.width, height: header.height)
            }
            // Level 0 cut from the JPEG losslessly, the rest from its half-scale decode: about 1.3 times the
            // photo's bytes, and no full-size pixels held.
            if let file = try PanoramaTileFile.write(jpeg: bytes, source: sourcePath, to: path(panoramaID: panoramaID),
                                                     maximumThreads: maximumThreads) {
                return (file, true)
            }
            // MCUs that do not divide the tiles: decoded straight into the panorama's 4-byte pixels (strict:
            // warnings are errors), so no RGB copy of the whole image is ever held beside it.
            guard header.width * header.height <= defaultPixelBudget else {
                throw .unreadablePanorama(file: sourcePath, reason: "\(ImagingError.exceedsPixelBudget(file: nil, width: header.width, height: header.height, budget: defaultPixelBudget))")
            }
            var pixels = [UInt32](repeating: 0, count: header.width * header.height)
            do {
                try bytes.withUnsafeBytes { jpeg in
                    try pixels.withUnsafeMutableBytes { destination in
                        try JPEGCodec.decodeRGBX(jpeg, into: destination.baseAddress!, rowBytes: header.width * 4,
                                                 width: header.width, height: header.height)
                    }
                }
            } catch {
                throw .unreadablePanorama(file: sourcePath, reason: "\(error)")
            }
            full = PanoramaImage(width: header.width, height: header.height, pixels: pixels)
        }
        let file = try PanoramaTileFile.write(consume full, source: sourcePath, to: path(panoramaID: panoramaID),
                                              maximumThreads: maximumThreads)
        return (file, true)
    }

    /// About how many bytes making the tile file of a `width`×`height` panorama from a JPEG of
    /// `fileBytes` holds at its peak: the file read whole; while level 0 is cut losslessly, the DCT
    /// coefficients (128 bytes per 8×8 block of each component: 2 bytes a pixel per full-resolution
    /// component, 3 a pixel for 4:2:0, 6 for 4:4:4, the worst assumed when `subsampling` is nil); then the
    /// half-scale level and its halving (1.25 bytes a pixel); and the encoded tiles (about the file's size,
    /// twice while they are assembled). A JPEG whose MCUs do not divide the tiles is decoded whole instead
    /// (4-byte pixels and the first halving: 5 bytes a pixel). What
    /// ``update(_:crops:memoryBudgetBytes:progress:)`` reserves per panorama.
    public static func estimatedPeakBytes(width: Int, height: Int, fileBytes: Int, subsampling: JPEGSubsampling? = nil) -> Int {
        let components: Double = switch subsampling {
        case .gray: 1
        case .chroma420, .chroma411: 1.5
        case .chroma422, .chroma440: 2
        case .chroma444, nil: 3
        }
        let coefficients = Int(2 * components * Double(width) * Double(height))
        let wholeDecode = width * height * 5
        return max(coefficients, wholeDecode * (subsampling == nil ? 1 : 0), width * height * 5 / 4) + fileBytes * 4 + 16 << 20
    }

    // MARK: The lazy path

    /// Tile files this process could not make, by path and source stamp: not tried again while the
    /// source stays the same (a read-only folder would otherwise cost a full decode and encode on every view).
    private static let failedMakes = Mutex<Set<String>>([])

    /// For a view: the current tile file, made now when missing or stale unless making it has already
    /// failed in this process for the source as it is; nil when there is none (the caller then decodes
    /// the JPEG directly at the level it needs).
    /// - Throws: `ReprojectionError.storageFailed` when the store of the file or its source cannot be
    ///   used now (unreachable object storage): the view cannot be made, and nothing is remembered, so
    ///   views work again as soon as the store is back.
    public func fileForView(panoramaID: String, source sourcePath: String, crop: PanoramaCrop? = nil,
                            maximumThreads: Int? = nil) throws(ReprojectionError) -> PanoramaTileFile? {
        if let file = try currentFileOrUnavailable(panoramaID: panoramaID, source: sourcePath) { return file }
        let key = failureKey(panoramaID: panoramaID, source: sourcePath)
        if Self.failedMakes.withLock({ $0.contains(key) }) { return nil }
        do {
            return try file(panoramaID: panoramaID, source: sourcePath, crop: crop, maximumThreads: maximumThreads).file
        } catch .storageFailed(let error) where error.isUnavailable {
            throw .storageFailed(error)
        } catch {
            Self.failedMakes.withLock { _ = $0.insert(key) }
            return nil
        }
    }

    /// Whether making panorama `panoramaID`'s tile file from `sourcePath` as it is has failed in this
    /// process (so views decode the JPEG directly).
    public func makingFailed(panoramaID: String, source sourcePath: String) -> Bool {
        let key = failureKey(panoramaID: panoramaID, source: sourcePath)
        return Self.failedMakes.withLock { $0.contains(key) }
    }

    private func failureKey(panoramaID: String, source sourcePath: String) -> String {
        let stamp = PanoramaTileFile.stamp(ofSource: sourcePath)
        return path(panoramaID: panoramaID) + "\u{0}" + "\(stamp?.byteCount ?? -1):\(stamp?.modifiedNanoseconds ?? -1)"
    }
}

private extension String {
    func leftPadded(to length: Int) -> String { String(repeating: "0", count: max(0, length - count)) + self }
}
