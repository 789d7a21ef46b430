import Foundation

/// The panorama a scene request found: where it is, how far and in which direction from the request
/// point, which way it faces, when it was captured, and its neighbours.
public struct SceneMatch: Sendable, Hashable, Codable {
    /// The panorama's id.
    public var panoramaID: String
    /// Panorama latitude, degrees.
    public var latitude: Double
    /// Panorama longitude, degrees.
    public var longitude: Double
    /// Geodesic (Karney, WGS84) distance from the request point, metres.
    public var distanceMeters: Double
    /// Geodesic initial bearing from the request point to the panorama, degrees clockwise from north,
    /// 0…<360; nil when the panorama is less than ``bearingMinimumDistanceMeters`` from the request point
    /// (a direction computed over a few nanometres says nothing). JSON: `null`, not left out.
    public var bearingFromRequestDegrees: Double?
    /// The capture heading (the panorama's centre column), degrees clockwise from north, 0…<360.
    public var headingDegrees: Double
    /// Where the heading came from: `PoseHeadingDegrees`, `GPSImgDirection`, `sidecar`, `travel` (the
    /// direction of travel in its sequence) or `default` (north, nothing else known).
    public var headingSource: String
    /// Pose pitch, degrees.
    public var pitchDegrees: Double
    /// Pose roll, degrees.
    public var rollDegrees: Double
    /// Capture time, ISO 8601 UTC (`2024-05-12T10:15:30Z`).
    public var captureTime: String
    /// Simulated or photo.
    public var source: PanoramaSource
    /// Image size, pixels.
    public var imageWidth: Int
    /// Image size, pixels.
    public var imageHeight: Int
    /// Horizontal coverage, degrees (360 unless cropped).
    public var horizontalCoverageDegrees: Double
    /// The JPEG.
    public var imagePath: String
    /// The depth map, when there is one.
    public var depthPath: String?
    /// The label map, when there is one.
    public var labelsPath: String?
    /// Whether the maps were made with the picture (`measured`) or derived from OpenStreetMap
    /// (`derived`); nil without maps. JSON `maps_source`.
    public var mapsSource: PanoramaMapsSource?
    /// What aligning the photo with the city model found, when it was aligned. JSON `pose_alignment`.
    public var poseAlignment: PanoramaAlignment?
    /// The sequence's name.
    public var sequence: String
    /// Position in the sequence, from 0.
    public var sequenceIndex: Int
    /// Neighbours (sequence order and proximity), nearest first.
    public var links: [PanoramaLink]

    /// Below this distance between request point and panorama there is no bearing, metres: a position
    /// typed with the 7 decimals `lookaround scene` prints is within about 1.5 cm of the stored one.
    public static let bearingMinimumDistanceMeters = 0.05
}

extension SceneMatch {
    /// Encodes every property, with a missing bearing as `null` (synthesized encoding would leave the key
    /// out, and a client could not tell "no bearing" from an older format).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(panoramaID, forKey: .panoramaID)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(distanceMeters, forKey: .distanceMeters)
        try container.encode(bearingFromRequestDegrees, forKey: .bearingFromRequestDegrees)
        try container.encode(headingDegrees, forKey: .headingDegrees)
        try container.encode(headingSource, forKey: .headingSource)
        try container.encode(pitchDegrees, forKey: .pitchDegrees)
        try container.encode(rollDegrees, forKey: .rollDegrees)
        try container.encode(captureTime, forKey: .captureTime)
        try container.encode(source, forKey: .source)
        try container.encode(imageWidth, forKey: .imageWidth)
        try container.encode(imageHeight, forKey: .imageHeight)
        try container.encode(horizontalCoverageDegrees, forKey: .horizontalCoverageDegrees)
        try container.encode(imagePath, forKey: .imagePath)
        try container.encodeIfPresent(depthPath, forKey: .depthPath)
        try container.encodeIfPresent(labelsPath, forKey: .labelsPath)
        try container.encodeIfPresent(mapsSource, forKey: .mapsSource)
        try container.encodeIfPresent(poseAlignment, forKey: .poseAlignment)
        try container.encode(sequence, forKey: .sequence)
        try container.encode(sequenceIndex, forKey: .sequenceIndex)
        try container.encode(links, forKey: .links)
    }
}
