import Foundation
import Geodesy

/// A perspective (pinhole) view looking out of a panorama: where it looks and how large it is.
///
/// Conventions (DESIGN §3; derivation in the module docs, "Projection"):
/// - `headingDegrees`: clockwise from true north, normalised to [0, 360);
/// - `pitchDegrees`: −90…90, 0 = horizon, +90 = straight up (Street View convention);
/// - `fieldOfViewDegrees`: horizontal, edge to edge (left edge of pixel 0 to right edge of pixel
///   `width − 1`), in ``fieldOfViewRangeDegrees`` (10…120); the vertical field of view follows from
///   square pixels: `2·atan(tan(fov/2) · height / width)`;
/// - no roll; pixel centres at (x + 0.5, y + 0.5), principal point at the image centre.
public struct ViewCamera: Sendable, Hashable, Codable {
    /// Viewing direction, degrees clockwise from north, [0, 360).
    public let headingDegrees: Double
    /// Degrees above the horizon, −90…90.
    public let pitchDegrees: Double
    /// Horizontal field of view in degrees, 10…120.
    public let fieldOfViewDegrees: Double
    /// Output width in pixels (≥ 1).
    public let width: Int
    /// Output height in pixels (≥ 1).
    public let height: Int

    /// The allowed horizontal field of view, degrees. Below 10° a panorama has no detail left to show;
    /// above 120° a rectilinear view stretches its edges beyond use.
    public static let fieldOfViewRangeDegrees: ClosedRange<Double> = 10...120
    /// The allowed pitch, degrees.
    public static let pitchRangeDegrees: ClosedRange<Double> = -90...90
    /// The default pixel budget: 16 megapixels (4096×4096, or 5333×3000).
    public static let defaultPixelBudget = 16_000_000

    /// A validated camera.
    /// - Parameters:
    ///   - headingDegrees: any finite value; normalised to [0, 360).
    ///   - pitchDegrees: −90…90.
    ///   - fieldOfViewDegrees: 10…120 (horizontal).
    ///   - width, height: pixels, each ≥ 1, `width × height ≤ pixelBudget`.
    ///   - pixelBudget: the most pixels a view may have (default ``defaultPixelBudget``).
    /// - Throws: `ReprojectionError.invalidParameter` naming the value and its range, or
    ///   `.exceedsPixelBudget`.
    public init(headingDegrees: Double, pitchDegrees: Double = 0, fieldOfViewDegrees: Double = 90,
                width: Int, height: Int, pixelBudget: Int = ViewCamera.defaultPixelBudget) throws(ReprojectionError) {
        guard headingDegrees.isFinite else {
            throw .invalidParameter(name: "heading", value: "\(headingDegrees)", allowed: "a finite number of degrees")
        }
        guard pitchDegrees.isFinite, Self.pitchRangeDegrees.contains(pitchDegrees) else {
            throw .invalidParameter(name: "pitch", value: "\(pitchDegrees)°",
                                    allowed: "-90…90 degrees (0 = horizon, +90 = straight up)")
        }
        guard fieldOfViewDegrees.isFinite, Self.fieldOfViewRangeDegrees.contains(fieldOfViewDegrees) else {
            throw .invalidParameter(name: "field of view", value: "\(fieldOfViewDegrees)°",
                                    allowed: "10…120 degrees (horizontal)")
        }
        guard width >= 1, height >= 1 else {
            throw .invalidParameter(name: "view size", value: "\(width)x\(height)", allowed: "at least 1x1 pixels")
        }
        guard width.multipliedReportingOverflow(by: height).partialValue <= pixelBudget,
              width <= pixelBudget, height <= pixelBudget else {
            throw .exceedsPixelBudget(width: width, height: height, budgetPixels: pixelBudget)
        }
        self.headingDegrees = Angle.normalizedHeadingDegrees(headingDegrees)
        self.pitchDegrees = pitchDegrees
        self.fieldOfViewDegrees = fieldOfViewDegrees
        self.width = width
        self.height = height
    }

    private enum CodingKeys: String, CodingKey {
        case headingDegrees = "heading_degrees", pitchDegrees = "pitch_degrees"
        case fieldOfViewDegrees = "field_of_view_degrees", width, height
    }

    /// Decodes and validates like the initialiser (snake_case keys, DESIGN §3); the pixel budget is
    /// the default one.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(headingDegrees: c.decode(Double.self, forKey: .headingDegrees),
                      pitchDegrees: c.decode(Double.self, forKey: .pitchDegrees),
                      fieldOfViewDegrees: c.decode(Double.self, forKey: .fieldOfViewDegrees),
                      width: c.decode(Int.self, forKey: .width), height: c.decode(Int.self, forKey: .height))
    }

    /// Focal length in pixels: `(width / 2) / tan(fov / 2)`.
    public var focalLengthPixels: Double { Double(width) / 2 / tan(fieldOfViewDegrees * .pi / 360) }

    /// Vertical field of view in degrees (square pixels).
    public var verticalFieldOfViewDegrees: Double {
        2 * atan(Double(height) / 2 / focalLengthPixels) * 180 / .pi
    }

    /// The camera's forward, right and up unit vectors in east-north-up.
    ///
    ///     forward = ( cos p · sin h,  cos p · cos h,  sin p)
    ///     right   = ( cos h,         −sin h,          0    )
    ///     up      = (−sin p · sin h, −sin p · cos h,  cos p)
    public var basis: (forward: EastNorthUp, right: EastNorthUp, up: EastNorthUp) {
        let h = headingDegrees * .pi / 180, p = pitchDegrees * .pi / 180
        return (EastNorthUp(east: cos(p) * sin(h), north: cos(p) * cos(h), up: sin(p)),
                EastNorthUp(east: cos(h), north: -sin(h), up: 0),
                EastNorthUp(east: -sin(p) * sin(h), north: -sin(p) * cos(h), up: cos(p)))
    }

    /// The same camera turned to another direction or field of view (sizes unchanged).
    /// - Throws: as ``init(headingDegrees:pitchDegrees:fieldOfViewDegrees:width:height:pixelBudget:)``.
    public func with(headingDegrees: Double? = nil, pitchDegrees: Double? = nil,
                     fieldOfViewDegrees: Double? = nil) throws(ReprojectionError) -> ViewCamera {
        try ViewCamera(headingDegrees: headingDegrees ?? self.headingDegrees,
                       pitchDegrees: pitchDegrees ?? self.pitchDegrees,
                       fieldOfViewDegrees: fieldOfViewDegrees ?? self.fieldOfViewDegrees,
                       width: width, height: height, pixelBudget: Int.max)
    }
}
