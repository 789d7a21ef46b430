/// The depth-map format (DESIGN §4), defined once: the simulator writes it, the reprojection's hit
/// testing and depth-warped moves read it, and the label placer reads it.
///
/// A 16-bit grey PNG in the panorama's equirectangular layout (usually 512×256), each value the
/// Euclidean distance from the camera centre to the first surface along the ray through that pixel's
/// centre, in units of ``metersPerUnit`` (1 cm); ``skyValue`` where nothing was hit or the surface is
/// farther than 655.34 m. 0 is never written (a surface nearer than 1 cm is stored as 1).
public enum DepthEncoding {
    /// One depth unit, metres (1 cm).
    public static let metersPerUnit = 0.01
    /// The value of sky (nothing hit) and of anything farther than 655.34 m.
    public static let skyValue: UInt16 = 65_535

    /// The stored value of a surface `meters` away: 1…65,534, or ``skyValue`` beyond the range.
    @inlinable public static func value(meters: Double) -> UInt16 {
        let units = (meters / metersPerUnit).rounded()
        return units >= Double(skyValue) ? skyValue : UInt16(max(1, units))
    }

    /// The distance a stored value stands for, metres; nil for sky (and for 0, which is not written).
    @inlinable public static func meters(_ value: UInt16) -> Double? {
        value == skyValue || value == 0 ? nil : Double(value) * metersPerUnit
    }
}
