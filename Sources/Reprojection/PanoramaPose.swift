import Foundation
import Geodesy
import Imaging

/// How the panorama's camera was oriented at capture: GPano `PoseHeadingDegrees`,
/// `PosePitchDegrees` and `PoseRollDegrees`.
///
/// GPano semantics: heading is the compass heading of the image centre (clockwise from north);
/// pitch is the angle of the image centre above the horizon; roll is the rotation of the image where a
/// level horizon is 0, positive when the horizon appears rotated counter-clockwise in the image (the
/// camera's right side dipped). The camera-to-world rotation is heading ∘ pitch ∘ roll (roll applied
/// first, about the camera's forward axis); see the module docs.
public struct PanoramaPose: Sendable, Hashable, Codable {
    /// Heading of the centre column, degrees clockwise from north, [0, 360).
    public var headingDegrees: Double
    /// Pitch of the image centre above the horizon, degrees, −90…90.
    public var pitchDegrees: Double
    /// Roll, degrees, −180…180.
    public var rollDegrees: Double

    /// A level panorama facing north.
    public static let north = PanoramaPose(headingDegrees: 0)

    /// A pose; values are taken as given (they come from files already validated by `ImageMetadata`).
    public init(headingDegrees: Double, pitchDegrees: Double = 0, rollDegrees: Double = 0) {
        self.headingDegrees = headingDegrees
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
    }

    /// The pose in a file's GPano metadata; missing fields are 0 (GPano's defaults).
    public init(_ metadata: PanoramaMetadata) {
        self.init(headingDegrees: metadata.poseHeadingDegrees ?? 0, pitchDegrees: metadata.posePitchDegrees ?? 0,
                  rollDegrees: metadata.poseRollDegrees ?? 0)
    }
}

extension EquirectangularFrame {
    /// The frame of a panorama captured with `pose`.
    public init(pose: PanoramaPose) {
        self.init(headingDegrees: pose.headingDegrees, pitchDegrees: pose.pitchDegrees, rollDegrees: pose.rollDegrees)
    }
}
