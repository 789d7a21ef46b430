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

/// The equirectangular mapping of a posed panorama: a normalized image position (u, v) ↔ a world
/// direction in east-north-up. The one definition the view renderer's projection, the depth lookups,
/// hit testing and the label placer share, so a panorama with pose pitch and roll (real cameras write
/// them) is read the same way everywhere.
///
/// u runs 0…1 left to right with 0.5 the centre column (the pose's heading, before pitch and roll);
/// v runs 0…1 top to bottom, 0.5 the horizon of the panorama's own frame.
public struct EquirectangularFrame: Sendable, Hashable {
    /// The panorama's forward, right and up axes in east-north-up (``ViewProjection/axes(of:)``).
    public let forward: EastNorthUp, right: EastNorthUp, up: EastNorthUp
    /// True when the panorama is level (pitch and roll 0): its columns are then pure bearings.
    public let isLevel: Bool

    /// The frame of a panorama captured with `pose`.
    public init(pose: PanoramaPose) {
        (forward, right, up) = ViewProjection.axes(of: pose)
        isLevel = pose.pitchDegrees == 0 && pose.rollDegrees == 0
    }

    /// The unit world direction of normalized position (`u`, `v`).
    public func direction(u: Double, v: Double) -> EastNorthUp {
        let longitude = (u - 0.5) * 2 * .pi, latitude = .pi / 2 - v * .pi
        let cf = cos(latitude) * cos(longitude), cr = cos(latitude) * sin(longitude), cu = sin(latitude)
        return EastNorthUp(east: cf * forward.east + cr * right.east + cu * up.east,
                           north: cf * forward.north + cr * right.north + cu * up.north,
                           up: cf * forward.up + cr * right.up + cu * up.up)
    }

    /// The normalized position where world direction `d` (any length > 0) appears: u in [0, 1), v in [0, 1].
    public func position(of d: EastNorthUp) -> (u: Double, v: Double) {
        let f = d.east * forward.east + d.north * forward.north + d.up * forward.up
        let r = d.east * right.east + d.north * right.north + d.up * right.up
        let z = d.east * up.east + d.north * up.north + d.up * up.up
        var u = atan2(r, f) / (2 * .pi) + 0.5
        if u >= 1 { u -= 1 }
        if u < 0 { u += 1 }
        return (u, 0.5 - atan2(z, (f * f + r * r).squareRoot()) / .pi)
    }
}
