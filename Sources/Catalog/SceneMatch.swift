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
    /// 0…<360 (0 when the two coincide).
    public var bearingFromRequestDegrees: Double
    /// The capture heading (the panorama's centre column), degrees clockwise from north, 0…<360.
    public var headingDegrees: Double
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
    /// The sequence's name.
    public var sequence: String
    /// Position in the sequence, from 0.
    public var sequenceIndex: Int
    /// Neighbours (sequence order and proximity), nearest first.
    public var links: [PanoramaLink]
}
