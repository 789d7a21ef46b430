import Catalog
import Foundation
import Geodesy
import Imaging
import Reprojection

extension PanoramaTransition.Endpoint {
    /// The pyramid level a transition for `camera` should warp from: the smallest panorama whose
    /// pixels per radian still reach 70 % of the view's focal length (its grid samples at most about
    /// one and a half view pixels apart), at most JPEG's 1/8 (level 3).
    public static func level(for camera: ViewCamera, panoramaWidth: Int) -> Int {
        var level = 0
        while level < 3, Double(panoramaWidth >> (level + 1)) / (2 * .pi) >= 0.7 * camera.focalLengthPixels { level += 1 }
        return level
    }

    /// One end of a move, loaded from a catalogued panorama: its JPEG decoded at `level` (see
    /// ``level(for:panoramaWidth:)``), its depth map when it has one (else the move crossfades), its
    /// pose, and its camera centre in `frame` (east-north-up metres; up = the camera height).
    /// - Throws: `ImagingError` / `ReprojectionError` when the panorama cannot be read. An unreadable
    ///   depth map is not an error: the end has none.
    public init(record: PanoramaRecord, frame: LocalTangentFrame, level: Int) throws {
        let image = try PanoramaDecoder.decode(try ImageryFile.read(record.imagePath), file: record.imagePath, level: level)
        var depth: PanoramaDepthMap?
        if let path = record.depthPath, let bytes = try? ImageryFile.read(path), let gray = try? PNGCodec.decodeGray16(bytes, file: path) {
            depth = try? PanoramaDepthMap(gray, nearestSurfaceMeters: max(1, record.cameraHeightMeters ?? PanoramaRecord.assumedCameraHeightMeters))
        }
        let local = try frame.enu(from: record.coordinate)
        self.init(image: image, depth: depth,
                  pose: PanoramaPose(headingDegrees: record.headingDegrees, pitchDegrees: record.pitchDegrees, rollDegrees: record.rollDegrees),
                  position: EastNorthUp(east: local.east, north: local.north, up: record.cameraHeightMeters ?? PanoramaRecord.assumedCameraHeightMeters))
    }
}
