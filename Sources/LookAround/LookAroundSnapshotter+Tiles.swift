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

    /// The scene's panorama at the level `camera` needs, with the level's index: from its tile file
    /// when there is a catalog (``PanoramaTileStore/fileForView(panoramaID:source:crop:)``: made now,
    /// once, when missing or older than the panorama; nil when it cannot be made, a read-only folder
    /// say), else from the JPEG decoded at that level. Both kept in the cache.
    /// - Parameter catalog: the scene's catalog (``labelCatalog()``), looked up once per snapshot.
    /// - Throws: `ReprojectionError` when the panorama or its tiles cannot be read.
    func panoramaLevel(for camera: ViewCamera, catalog: Catalog?) throws -> (image: PanoramaImage, level: Int) {
        let match = scene.match
        let crop = try panoramaCrop(catalog: catalog)
        if let catalog, let tiles = try PanoramaTileStore(directory: catalog.location.tileDirectory)
            .fileForView(panoramaID: match.panoramaID, source: match.imagePath, crop: crop) {
            let level = tiles.level(for: camera)
            let needed = tiles.tiles(for: camera, pose: pose, level: level)
            // The source's stamp in the key: tiles of a remade file never join an older file's level.
            let identifier = "tiles:\(tiles.path)@\(tiles.sourceByteCount):\(tiles.sourceModifiedNanoseconds)"
            let image = try cache.image(for: PanoramaCache.Key(identifier: identifier, level: level),
                                        tiles: tiles, level: level, needed: needed)
            return (image, level)
        }
        let level = PanoramaDecoder.level(for: camera, panoramaWidth: crop?.fullWidth ?? match.imageWidth)
        let path = match.imagePath
        // An object's ETag in the key: a replaced object is decoded again, never served from the old one.
        var identifier = path
        if StorageLocation.isObjectStorage(path), let stamp = try ImageryFile.stamp(path) { identifier += "@" + stamp.version }
        let image = try cache.image(for: PanoramaCache.Key(identifier: identifier, level: level)) { () throws -> PanoramaImage in
            try PanoramaDecoder.decode(try ImageryFile.read(path), file: path, level: level, crop: crop)
        }
        return (image, level)
    }

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
