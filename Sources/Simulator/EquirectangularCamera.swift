import Foundation
import Geodesy
import Imaging

/// The 360° capture camera: an equirectangular panorama, level unless given a pose pitch and roll (the
/// maps derived for a tilted photo follow its pose).
///
/// Layout (DESIGN §3, derivation in the Simulator docs): width = 2 × height; for continuous pixel
/// coordinates (x, y), pixel centres at (i + 0.5, j + 0.5),
///
///     yaw   = heading + (x / width − 0.5) × 360°     (clockwise from north; centre column = heading)
///     pitch = 90° − (y / height) × 180°             (row 0 is the zenith side)
///     direction = (east: cos pitch · sin yaw, north: cos pitch · cos yaw, up: sin pitch)
public struct EquirectangularCamera: RayGenerating, Hashable {
    /// Camera centre in scene east-north-up metres.
    public var position: EastNorthUp
    /// The heading of the centre column, degrees clockwise from north, [0, 360).
    public var headingDegrees: Double { didSet { frame = Self.frame(headingDegrees, pitchDegrees, rollDegrees) } }
    /// The pose pitch, degrees (GPano `PosePitchDegrees`), 0 for a level camera.
    public var pitchDegrees: Double { didSet { frame = Self.frame(headingDegrees, pitchDegrees, rollDegrees) } }
    /// The pose roll, degrees (GPano `PoseRollDegrees`), 0 for a level camera.
    public var rollDegrees: Double { didSet { frame = Self.frame(headingDegrees, pitchDegrees, rollDegrees) } }
    /// The panorama's mapping: the one every reader of these pictures uses (facing the heading, with the pose).
    public private(set) var frame: EquirectangularFrame
    /// Width in pixels (even, 2…65,536).
    public let width: Int
    /// Height in pixels (= width / 2).
    public var height: Int { width / 2 }

    /// The allowed widths.
    public static let widthRange = 2...65_536

    /// A panorama camera at `position` facing `headingDegrees` (normalised to [0, 360)), level unless
    /// given a pose pitch and roll.
    /// - Throws: `SimulatorError.invalidParameter` for an odd width or one outside ``widthRange``, or a
    ///   heading, pitch or roll that is not finite.
    public init(position: EastNorthUp, headingDegrees: Double, pitchDegrees: Double = 0, rollDegrees: Double = 0,
                width: Int) throws(SimulatorError) {
        guard Self.widthRange.contains(width), width % 2 == 0 else {
            throw .invalidParameter(name: "panorama width", value: "\(width)", allowed: "even, 2…65536 (height = width / 2)")
        }
        guard headingDegrees.isFinite else {
            throw .invalidParameter(name: "heading", value: "\(headingDegrees)", allowed: "a finite number of degrees")
        }
        for (name, value) in [("pitch", pitchDegrees), ("roll", rollDegrees)] where !value.isFinite {
            throw .invalidParameter(name: name, value: "\(value)", allowed: "a finite number of degrees")
        }
        self.position = position
        self.headingDegrees = Angle.normalizedHeadingDegrees(headingDegrees)
        self.pitchDegrees = pitchDegrees
        self.rollDegrees = rollDegrees
        self.frame = Self.frame(self.headingDegrees, pitchDegrees, rollDegrees)
        self.width = width
    }

    private static func frame(_ heading: Double, _ pitch: Double, _ roll: Double) -> EquirectangularFrame {
        EquirectangularFrame(headingDegrees: heading, pitchDegrees: pitch, rollDegrees: roll)
    }

    /// The unit direction (east, north, up) through continuous pixel position (`x`, `y`).
    public func direction(pixelX x: Double, pixelY y: Double) -> EastNorthUp {
        frame.direction(u: x / Double(width), v: y / Double(height))
    }

    /// The continuous pixel position where a direction lands: x in [0, width), y in [0, height].
    /// Straight up or down (no defined yaw) gives the centre column.
    public func pixel(forDirection d: EastNorthUp) -> PixelPoint {
        let (u, v) = frame.position(of: d)
        return PixelPoint(x: u * Double(width), y: v * Double(height))
    }

    /// The continuous pixel position where a scene point is seen, or nil for the camera centre itself.
    public func pixel(for point: EastNorthUp) -> PixelPoint? {
        let d = EastNorthUp(east: point.east - position.east, north: point.north - position.north,
                            up: point.up - position.up)
        if d.lengthMeters == 0 { return nil }
        return pixel(forDirection: d)
    }

    /// See ``RayGenerating``: the ``frame``'s mapping in single precision for a level camera, the ray
    /// tracer's hot path (`CameraTests` holds the two within 10⁻⁵); the frame itself for a tilted one.
    @inline(__always)
    public func sceneRay(x: Float, y: Float) -> (origin: SceneVector, direction: SceneVector) {
        guard frame.isLevel else {
            let d = direction(pixelX: Double(x), pixelY: Double(y))
            return (SceneVector(east: Float(position.east), north: Float(position.north), up: Float(position.up)),
                    SceneVector(east: Float(d.east), north: Float(d.north), up: Float(d.up)))
        }
        let yaw = (Float(headingDegrees) + (x / Float(width) - 0.5) * 360) * (Float.pi / 180)
        let pitch = (90 - y / Float(height) * 180) * (Float.pi / 180)
        let cp = cos(pitch)
        return (SceneVector(east: Float(position.east), north: Float(position.north), up: Float(position.up)),
                SceneVector(east: cp * sin(yaw), north: cp * cos(yaw), up: sin(pitch)))
    }
}
