import Foundation
import Geodesy

/// Everything the catalog stores about one panorama (DESIGN §4).
public struct PanoramaRecord: Sendable, Hashable, Codable {
    /// Stable id: the sidecar's `id`, else the file's path relative to the indexed folder, without
    /// extension (`helsinki/pano_0001` when `Panoramas/` is indexed).
    public var id: String
    /// Camera position (WGS84).
    public var coordinate: GeoCoordinate
    /// Ground elevation under the camera, metres above mean sea level, when known.
    public var groundElevationMeters: Double?
    /// Camera height above the ground, metres, when known.
    public var cameraHeightMeters: Double?
    /// GPS altitude of the camera, metres above mean sea level, when known.
    public var altitudeMeters: Double?
    /// Capture time (UTC).
    public var captureTime: Date
    /// Where `captureTime` came from: `DateTimeOriginal`, `GPSTimeStamp`, `sidecar` or `file time`.
    public var captureTimeSource: String
    /// Heading of the panorama's centre column, degrees clockwise from true north, 0…<360.
    public var headingDegrees: Double
    /// Where the heading came from: `PoseHeadingDegrees`, `GPSImgDirection`, `sidecar` or `default`.
    public var headingSource: String
    /// GPano pose pitch, degrees (−90…90), 0 when not recorded.
    public var pitchDegrees: Double
    /// GPano pose roll, degrees (−180…180), 0 when not recorded.
    public var rollDegrees: Double
    /// The stored image's size in pixels (the cropped area for a partial panorama).
    public var imageWidth: Int
    /// See `imageWidth`.
    public var imageHeight: Int
    /// The full panorama the image was cropped from (equal to the image size when not cropped).
    public var fullWidth: Int
    /// See `fullWidth`.
    public var fullHeight: Int
    /// Left edge of the image inside the full panorama, pixels.
    public var croppedLeft: Int
    /// Top edge of the image inside the full panorama, pixels.
    public var croppedTop: Int
    /// The JPEG's path as given to `lookaround index` (absolute).
    public var imagePath: String
    /// The depth map (16-bit PNG), when one was found by the naming convention.
    public var depthPath: String?
    /// The label map (8-bit PNG), when one was found.
    public var labelsPath: String?
    /// The JSON sidecar, when one was read.
    public var sidecarPath: String?
    /// Whether the depth and label maps were made with the picture or derived from OpenStreetMap; nil
    /// without maps.
    public var mapsSource: PanoramaMapsSource?
    /// What aligning the photo with the city model found, when it was aligned.
    public var alignment: PanoramaAlignment?
    /// Simulated or photo.
    public var source: PanoramaSource
    /// EXIF Make, when present.
    public var make: String?
    /// EXIF Model, when present.
    public var model: String?
    /// The sequence's name (sidecar `sequence_id`, else folder + camera model).
    public var sequenceName: String
    /// Position in the sequence (sidecar `sequence_index`, else by capture time then file name), from 0.
    public var sequenceIndex: Int
    /// File size in bytes when indexed (for incremental updates).
    public var fileSize: Int64
    /// File modification time when indexed (seconds since 1970, for incremental updates); an object's
    /// Last-Modified for imagery in object storage.
    public var fileModificationTime: Double
    /// The object's ETag when the image was indexed from object storage (`s3://…`): with ``fileSize``
    /// what an incremental index compares (nil for a local file).
    public var fileEntityTag: String?
    /// What ingest had to guess or could not read.
    public var warnings: [String]

    /// A record from its parts; everything after `imagePath` has a default (a full, uncropped 2:1
    /// panorama of `imageWidth × imageHeight`, a photo, no depth or labels, sequence by id).
    public init(id: String, coordinate: GeoCoordinate, captureTime: Date, headingDegrees: Double,
                imageWidth: Int, imageHeight: Int, imagePath: String,
                groundElevationMeters: Double? = nil, cameraHeightMeters: Double? = nil, altitudeMeters: Double? = nil,
                captureTimeSource: String = "DateTimeOriginal", headingSource: String = "PoseHeadingDegrees",
                pitchDegrees: Double = 0, rollDegrees: Double = 0, fullWidth: Int? = nil, fullHeight: Int? = nil,
                croppedLeft: Int = 0, croppedTop: Int = 0, depthPath: String? = nil, labelsPath: String? = nil,
                sidecarPath: String? = nil, mapsSource: PanoramaMapsSource? = nil, alignment: PanoramaAlignment? = nil,
                source: PanoramaSource = .photo, make: String? = nil, model: String? = nil,
                sequenceName: String? = nil, sequenceIndex: Int = 0, fileSize: Int64 = 0,
                fileModificationTime: Double = 0, fileEntityTag: String? = nil, warnings: [String] = []) {
        self.id = id
        self.coordinate = coordinate
        self.groundElevationMeters = groundElevationMeters
        self.cameraHeightMeters = cameraHeightMeters
        self.altitudeMeters = altitudeMeters
        self.captureTime = captureTime
        self.captureTimeSource = captureTimeSource
        self.headingDegrees = headingDegrees
        self.headingSource = headingSource
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.fullWidth = fullWidth ?? imageWidth
        self.fullHeight = fullHeight ?? imageHeight
        self.croppedLeft = croppedLeft
        self.croppedTop = croppedTop
        self.imagePath = imagePath
        self.depthPath = depthPath
        self.labelsPath = labelsPath
        self.sidecarPath = sidecarPath
        self.mapsSource = mapsSource ?? (depthPath != nil || labelsPath != nil ? .measured : nil)
        self.alignment = alignment
        self.source = source
        self.make = make
        self.model = model
        self.sequenceName = sequenceName ?? id
        self.sequenceIndex = sequenceIndex
        self.fileSize = fileSize
        self.fileModificationTime = fileModificationTime
        self.fileEntityTag = fileEntityTag
        self.warnings = warnings
    }

    /// The camera height used where the metadata gives none, metres: a camera on a pole, a helmet or a
    /// car roof (the simulator's captures are at this height). Derived depth maps, labels and moves use it.
    public static let assumedCameraHeightMeters = 2.5

    /// Whether the image covers less than the full sphere (GPano cropped area smaller than the full panorama).
    public var isCropped: Bool { imageWidth < fullWidth || imageHeight < fullHeight }

    /// Horizontal field covered by the image, degrees (360 for a full panorama).
    public var horizontalCoverageDegrees: Double {
        fullWidth > 0 ? 360 * Double(min(imageWidth, fullWidth)) / Double(fullWidth) : 360
    }
}
