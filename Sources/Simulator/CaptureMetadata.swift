import Foundation
import Geodesy

/// Everything known about one simulated capture, as the catalog stores it (DESIGN §4). Written as the
/// `<id>.json` sidecar (snake_case keys, ISO 8601 time) beside the panorama.
public struct CaptureMetadata: Sendable, Hashable, Codable {
    /// Unique id: the sequence id and the order, "aleksanterinkatu-007".
    public var id: String
    /// WGS84 latitude of the camera, degrees.
    public var latitude: Double
    /// WGS84 longitude of the camera, degrees.
    public var longitude: Double
    /// Height of the ground under the camera above the ellipsoid, metres (the simulator's ground is flat).
    public var groundElevationMeters: Double
    /// Camera height above the ground, metres (2.5 by default).
    public var cameraHeightMeters: Double
    /// The instant of capture (UTC); it also decides where the sun is.
    public var captureTime: Date
    /// Heading of the panorama's centre column (direction of travel), degrees clockwise from north, [0, 360).
    public var headingDegrees: Double
    /// Pose pitch and roll of the camera, degrees (0: the simulated camera is level).
    public var pitchDegrees: Double, rollDegrees: Double
    /// The sequence (one per street) this capture belongs to.
    public var sequenceID: String
    /// Position in the sequence, from 0, increasing with capture time.
    public var sequenceOrder: Int
    /// The street (or square) the sequence follows.
    public var streetName: String
    /// Camera position in the scene, metres east/north/up of the model's origin.
    public var scenePosition: EastNorthUp
    /// Panorama size in pixels.
    public var imageWidth: Int, imageHeight: Int
    /// Depth and label map size in pixels.
    public var depthWidth: Int, depthHeight: Int
    /// Where the data came from: "simulated".
    public var source: String

    /// The camera's coordinate (nil only if the stored numbers were edited out of range).
    public var coordinate: GeoCoordinate? { try? GeoCoordinate(latitude: latitude, normalizingLongitude: longitude) }
    /// File names inside the output folder.
    public var imageFileName: String { "\(id).jpg" }
    /// The 16-bit depth map.
    public var depthFileName: String { "\(id).depth.png" }
    /// The 8-bit label map.
    public var labelFileName: String { "\(id).labels.png" }
    /// The JSON sidecar.
    public var sidecarFileName: String { "\(id).json" }

    enum CodingKeys: String, CodingKey {
        case id, latitude, longitude, groundElevationMeters, cameraHeightMeters, captureTime, headingDegrees,
             pitchDegrees, rollDegrees, sequenceID = "sequenceId", sequenceOrder, streetName, scenePosition,
             imageWidth, imageHeight, depthWidth, depthHeight, source
    }
}
