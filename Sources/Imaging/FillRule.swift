/// How a path's winding decides what is inside (SVG `fill-rule`).
public enum FillRule: String, Sendable, Hashable, CaseIterable {
    /// Inside where the winding number is not zero: nested contours of the same direction fill,
    /// a contour of the opposite direction makes a hole.
    case nonZero = "nonzero"
    /// Inside where an odd number of contours surround the point: every nested contour is a hole,
    /// whatever its direction.
    case evenOdd = "evenodd"
}
