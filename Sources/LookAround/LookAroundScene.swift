import Catalog
import Foundation
import Geodesy
import Imaging
import Reprojection

/// A panorama that a ``LookAroundSceneRequest`` found: opaque, like MapKit's `MKLookAroundScene`. Hand
/// it to a snapshotter or viewer; it is `Codable` so it can be saved and restored.
///
/// Its contents are visible inside this package (`package` access) for the renderers; apps only pass it on.
public struct LookAroundScene: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the catalog answered.
    package let match: SceneMatch

    package init(match: SceneMatch) { self.match = match }

    /// The panorama id and position, for logs.
    public var description: String {
        "LookAroundScene(\(match.panoramaID) at \(match.latitude), \(match.longitude))"
    }
}

extension LookAroundScene {
    /// The scene of one panorama by its catalog id (as `lookaround scene --id` shows it), seen from the
    /// panorama itself: a snapshot's default heading is then the capture heading.
    /// - Throws: `CatalogError.unknownPanorama` when the id is not in the catalog.
    public init(panoramaID: String, catalog: Catalog? = nil) throws {
        let catalog = try catalog ?? LookAroundCatalog.shared()
        self.init(match: SceneMatch(record: try catalog.panorama(id: panoramaID),
                                    links: try catalog.links(ofPanoramaID: panoramaID)))
    }

    /// The panorama's id.
    public var panoramaID: String { match.panoramaID }
    /// Distance from the request point to the panorama, metres (0 for a scene made from an id).
    public var distanceMeters: Double { match.distanceMeters }
}

extension LookAroundScene {
    /// The scene of one local equirectangular panorama file (JPEG or PNG, 2:1), with no catalog: its
    /// pose (heading, pitch, roll) and position from GPano XMP and EXIF GPS when the JPEG has them (else
    /// heading 0 = the image centre looks north, at 0°, 0°). It has no links, labels or depth map.
    /// The whole file is decoded once here, so a damaged image fails now rather than in a view.
    /// - Throws: `ImagingError` when the file is missing (`.fileNotFound`), not an image or
    ///   damaged; `ReprojectionError.notEquirectangular` when it is not 2:1.
    public init(panoramaFile path: String) throws {
        let bytes = try ImageFile.read(path)
        var heading = 0.0, pitch = 0.0, roll = 0.0
        var coordinate = try GeoCoordinate(latitude: 0, longitude: 0)
        var captureTime = Date(timeIntervalSince1970: 0)
        let image = try ImageDecoder.decodeRGB(bytes, file: path)
        if ImageFormat.detect(bytes) == .jpeg, let metadata = try? ImageMetadata.read(fromJPEG: bytes, file: path).metadata {
            heading = metadata.panorama?.poseHeadingDegrees ?? metadata.imageDirectionDegrees ?? 0
            pitch = metadata.panorama?.posePitchDegrees ?? 0
            roll = metadata.panorama?.poseRollDegrees ?? 0
            if let lat = metadata.latitudeDegrees, let lon = metadata.longitudeDegrees,
               let point = try? GeoCoordinate(latitude: lat, normalizingLongitude: lon) {
                coordinate = point
            }
            if let date = metadata.dateTimeOriginalDate ?? metadata.gpsTimestamp { captureTime = date }
        }
        guard image.width == 2 * image.height else {
            throw ReprojectionError.notEquirectangular(width: image.width, height: image.height)
        }
        let id = FilePath.name(of: path)
        let record = PanoramaRecord(id: id, coordinate: coordinate, captureTime: captureTime, headingDegrees: heading,
                                    imageWidth: image.width, imageHeight: image.height, imagePath: path,
                                    pitchDegrees: pitch, rollDegrees: roll, sequenceName: id)
        self.init(match: SceneMatch(record: record, links: []))
        // Kept decoded: a view at full resolution needs no second decode.
        let panorama = try PanoramaImage(image)
        _ = LookAroundSnapshotter.sharedCache.image(for: PanoramaCache.Key(identifier: path, level: 0)) { panorama }
    }
}
