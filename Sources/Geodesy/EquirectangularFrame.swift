import Foundation

/// The equirectangular mapping of a posed panorama: a normalized image position (u, v) ↔ a world
/// direction in east-north-up. The one definition the view renderer's projection, the depth lookups,
/// hit testing, the label placer and the simulator's panorama camera share, so a panorama with pose
/// pitch and roll (real cameras write them) is read the same way everywhere.
///
/// u runs 0…1 left to right with 0.5 the centre column (the pose's heading, before pitch and roll);
/// v runs 0…1 top to bottom, 0.5 the horizon of the panorama's own frame.
public struct EquirectangularFrame: Sendable, Hashable {
    /// The panorama's forward, right and up axes in east-north-up.
    public let forward: EastNorthUp, right: EastNorthUp, up: EastNorthUp
    /// True when the panorama is level (pitch and roll 0): its columns are then pure bearings.
    public let isLevel: Bool

    /// The frame of a panorama whose centre column faces `headingDegrees` (clockwise from north), with the
    /// GPano pose pitch and roll (Reprojection's `PanoramaPose` documents their sense).
    ///
    /// The camera-to-world rotation is heading ∘ pitch ∘ roll, roll applied first about the forward axis.
    public init(headingDegrees: Double, pitchDegrees: Double = 0, rollDegrees: Double = 0) {
        let h = headingDegrees * .pi / 180, p = pitchDegrees * .pi / 180, r = rollDegrees * .pi / 180
        // Level frame (heading only) in ENU.
        let f0 = SIMD3(sin(h), cos(h), 0.0), r0 = SIMD3(cos(h), -sin(h), 0.0), u0 = SIMD3(0.0, 0.0, 1.0)
        // Pitch ∘ roll in level-frame (forward, right, up) components.
        let fl = SIMD3(cos(p), 0, sin(p))
        let rl = SIMD3(sin(r) * sin(p), cos(r), -sin(r) * cos(p))
        let ul = SIMD3(-cos(r) * sin(p), sin(r), cos(r) * cos(p))
        func world(_ v: SIMD3<Double>) -> EastNorthUp {
            let w = f0 * v.x + r0 * v.y + u0 * v.z
            return EastNorthUp(east: w.x, north: w.y, up: w.z)
        }
        (forward, right, up) = (world(fl), world(rl), world(ul))
        isLevel = pitchDegrees == 0 && rollDegrees == 0
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
