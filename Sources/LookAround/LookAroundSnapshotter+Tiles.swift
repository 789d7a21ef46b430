import Catalog
import Foundation
import Imaging
import Reprojection
import Storage

extension LookAroundSnapshotter {
    /// The tile file of panorama `panoramaID` of the catalog at `catalogPath`
    /// (``PanoramaTileStore/path(panoramaID:)``: `Panoramas/catalog.tiles/<id>.lktiles`).
    public static func tileFilePath(panoramaID: String, catalogPath: String) -> String {
        PanoramaTileStore(catalogPath: catalogPath).path(panoramaID: panoramaID)
    }

    /// The scene's panorama at the level `camera` needs, with the level's index: from its tile file when
    /// the catalog has a current one (only the tiles the view samples decoded, kept in the cache); else
    /// from the JPEG at that level's DCT scale. A first view decodes only the region it samples (and a
    /// little around it: ``regionSlackFraction``), so a 90° view of a 11000-pixel photo costs a fraction
    /// of a whole decode; a view that leaves that region decodes the whole level, kept in the cache. A
    /// server's cache (``PanoramaCache/tileMaker``) then makes the missing tile file in the background; a
    /// one-off snapshot makes none (`lookaround index --tiles` does).
    /// - Parameter catalog: the scene's catalog (``labelCatalog()``), looked up once per snapshot.
    /// - Throws: `ReprojectionError` when the panorama or its tiles cannot be read.
    func panoramaLevel(for camera: ViewCamera, catalog: Catalog?) throws -> (image: PanoramaImage, level: Int) {
        let match = scene.match
        let crop = try panoramaCrop(catalog: catalog)
        if let catalog {
            let store = PanoramaTileStore(directory: catalog.location.tileDirectory)
            if let tiles = try store.currentFileOrUnavailable(panoramaID: match.panoramaID, source: match.imagePath) {
                let level = tiles.level(for: camera)
                let needed = tiles.tiles(for: camera, pose: pose, level: level)
                // The source's stamp in the key: tiles of a remade file never join an older file's level.
                let identifier = "tiles:\(tiles.path)@\(tiles.sourceByteCount):\(tiles.sourceModifiedNanoseconds)"
                let image = try cache.image(for: PanoramaCache.Key(identifier: identifier, level: level),
                                            tiles: tiles, level: level, needed: needed)
                return (image, level)
            }
            if let maker = cache.tileMaker, !store.makingFailed(panoramaID: match.panoramaID, source: match.imagePath) {
                maker.request(store: store, panoramaID: match.panoramaID, source: match.imagePath, crop: crop)
            }
        }
        let width = crop?.fullWidth ?? match.imageWidth
        let level = PanoramaDecoder.level(for: camera, panoramaWidth: width)
        let path = match.imagePath
        // An object's ETag in the key: a replaced object is decoded again, never served from the old one.
        var identifier = path
        if StorageLocation.isObjectStorage(path), let stamp = try ImageryFile.stamp(path) { identifier += "@" + stamp.version }
        let key = PanoramaCache.Key(identifier: identifier, level: level)
        if crop == nil {
            let levelWidth = width >> level, levelHeight = (crop?.fullHeight ?? match.imageHeight) >> level
            let needed = PanoramaRegion.needed(for: camera, pose: pose, width: levelWidth, height: levelHeight)
            let (held, hadRegion) = cache.image(for: key, region: needed)
            if let held { return (held, level) }
            if !hadRegion {
                let region = PanoramaRegion.needed(for: camera, pose: pose, width: levelWidth, height: levelHeight,
                                                   slackFraction: Self.regionSlackFraction)
                if region.fraction < Self.wholeLevelFraction {
                    let image = try PanoramaDecoder.decodeRegion(try ImageryFile.read(path), file: path, level: level, region: region)
                    cache.insert(image, region: region, for: key)
                    return (image, level)
                }
            }
        }
        let image = try cache.image(for: key) { () throws -> PanoramaImage in
            try PanoramaDecoder.decode(try ImageryFile.read(path), file: path, level: level, crop: crop)
        }
        return (image, level)
    }

    /// A first view decodes this share of its region's size more on each side, so that a view turned or
    /// zoomed a little is drawn from it too.
    static let regionSlackFraction = 0.15
    /// A region wider than this share of the level is decoded whole (the rest costs little more).
    static let wholeLevelFraction = 0.6

    /// Where the scene's image lies in the full sphere when it is a partial panorama (from `catalog`'s
    /// record of its GPano crop); nil for a full one.
    /// - Throws: `ReprojectionError.notEquirectangular` for a partial panorama whose crop is unknown (no
    ///   catalog) or not 2:1.
    func panoramaCrop(catalog: Catalog?) throws -> PanoramaCrop? {
        let match = scene.match
        guard match.imageWidth != 2 * match.imageHeight || match.horizontalCoverageDegrees < 360 else { return nil }
        guard let catalog, let record = try? catalog.panorama(id: match.panoramaID) else {
            throw ReprojectionError.notEquirectangular(width: match.imageWidth, height: match.imageHeight)
        }
        let crop = try PanoramaCrop(fullWidth: record.fullWidth, fullHeight: record.fullHeight, left: record.croppedLeft,
                                    top: record.croppedTop)
        return crop.isFull(width: match.imageWidth, height: match.imageHeight) ? nil : crop
    }
}
