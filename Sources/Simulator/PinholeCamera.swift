import Foundation
import Geodesy
import Imaging

/// A pinhole perspective camera: the ground truth the reprojection engine is tested against.
///
/// Conventions (derivation in the Simulator docs): square pixels; pixel centres at (i + 0.5, j + 0.5);
/// `fieldOfViewDegrees` is horizontal, edge to edge (x = 0 to x = width), so the focal length in
/// pixels is `f = (width / 2) / tan(fov / 2)`; the principal point is the image centre
/// (width / 2, height / 2). The camera is turned by the heading (about up, clockwise from north)
/// first, then tilted by the pitch (about its own right axis; + looks up); there is no roll.
///
///     forward = ( cos p · sin h,  cos p · cos h,  sin p)
///     right   = ( cos h,         −sin h,          0    )
///     up      = (−sin p · sin h, −sin p · cos h,  cos p)
///     direction(x, y) = normalize(forward + ((x − width/2) / f) · right + ((height/2 − y) / f) · up)
public struct PinholeCamera: RayGenerating, Hashable {
    /// Camera centre in scene east-north-up metres.
    public var position: EastNorthUp
    /// Viewing direction, degrees clockwise from north, [0, 360).
    public var headingDegrees: Double
    /// Degrees above the horizon, −90…90 (+90 straight up).
    public var pitchDegrees: Double
    /// Horizontal field of view, degrees, (0, 180) exclusive; allowed 1…179.
    public var fieldOfViewDegrees: Double
    /// Width in pixels (1…16,384).
    public let width: Int
    /// Height in pixels (1…16,384).
    public let height: Int

    /// A camera; values outside their ranges throw `SimulatorError.invalidParameter`.
    public init(position: EastNorthUp, headingDegrees: Double, pitchDegrees: Double, fieldOfViewDegrees: Double,
                width: Int, height: Int) throws(SimulatorError) {
        guard (1...16_384).contains(width), (1...16_384).contains(height) else {
            throw .invalidParameter(name: "view size", value: "\(width)x\(height)", allowed: "1…16384 pixels per side")
        }
        guard (1...179).contains(fieldOfViewDegrees) else {
            throw .invalidParameter(name: "field of view", value: "\(fieldOfViewDegrees)°", allowed: "1…179 degrees (horizontal)")
        }
        guard (-90...90).contains(pitchDegrees) else {
            throw .invalidParameter(name: "pitch", value: "\(pitchDegrees)°", allowed: "-90…90 degrees (0 = horizon, +90 = up)")
        }
        guard headingDegrees.isFinite else {
            throw .invalidParameter(name: "heading", value: "\(headingDegrees)", allowed: "a finite number of degrees")
        }
        self.position = position
        self.headingDegrees = Angle.normalizedHeadingDegrees(headingDegrees)
        self.pitchDegrees = pitchDegrees
        self.fieldOfViewDegrees = fieldOfViewDegrees
        self.width = width
        self.height = height
    }

    /// Focal length in pixels.
    public var focalLengthPixels: Double { Double(width) / 2 / tan(fieldOfViewDegrees * .pi / 360) }

    /// The camera's forward, right and up unit vectors.
    public var basis: (forward: EastNorthUp, right: EastNorthUp, up: EastNorthUp) {
        let h = headingDegrees * .pi / 180, p = pitchDegrees * .pi / 180
        return (EastNorthUp(east: cos(p) * sin(h), north: cos(p) * cos(h), up: sin(p)),
                EastNorthUp(east: cos(h), north: -sin(h), up: 0),
                EastNorthUp(east: -sin(p) * sin(h), north: -sin(p) * cos(h), up: cos(p)))
    }

    /// The unit direction through continuous pixel position (`x`, `y`).
    public func direction(pixelX x: Double, pixelY y: Double) -> EastNorthUp {
        let (f, r, u) = basis, focal = focalLengthPixels
        let a = (x - Double(width) / 2) / focal, b = (Double(height) / 2 - y) / focal
        let d = EastNorthUp(east: f.east + a * r.east + b * u.east, north: f.north + a * r.north + b * u.north,
                            up: f.up + a * r.up + b * u.up)
        let l = d.lengthMeters
        return EastNorthUp(east: d.east / l, north: d.north / l, up: d.up / l)
    }

    /// The continuous pixel position of a scene point, or nil when it is not in front of the camera.
    /// Points outside the image give coordinates outside 0…width / 0…height.
    public func pixel(for point: EastNorthUp) -> PixelPoint? {
        let (f, r, u) = basis
        let d = EastNorthUp(east: point.east - position.east, north: point.north - position.north,
                            up: point.up - position.up)
        let z = d.east * f.east + d.north * f.north + d.up * f.up
        if z <= 1e-9 { return nil }
        let focal = focalLengthPixels
        let a = (d.east * r.east + d.north * r.north + d.up * r.up) / z
        let b = (d.east * u.east + d.north * u.north + d.up * u.up) / z
        return PixelPoint(x: Double(width) / 2 + a * focal, y: Double(height) / 2 - b * focal)
    }

    /// See ``RayGenerating``.
    @inline(__always)
    public func sceneRay(x: Float, y: Float) -> (origin: SceneVector, direction: SceneVector) {
        let d = direction(pixelX: Double(x), pixelY: Double(y))
        return (SceneVector(east: Float(position.east), north: Float(position.north), up: Float(position.up)),
                SceneVector(east: Float(d.east), north: Float(d.north), up: Float(d.up)))
    }
}
