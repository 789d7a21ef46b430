/// How a line is stroked: width, end caps and corner joins (SVG/Canvas semantics).
public struct StrokeStyle: Sendable, Hashable {
    /// The shape at the two ends of an open polyline.
    public enum Cap: String, Sendable, Hashable, CaseIterable {
        /// Ends exactly at the end point.
        case butt
        /// A half-disc of radius width/2 beyond the end point.
        case round
        /// A half-square extending width/2 beyond the end point.
        case square
    }

    /// The shape at a corner between two segments.
    public enum Join: String, Sendable, Hashable, CaseIterable {
        /// Outer edges extended until they meet, unless the miter is longer than `miterLimit` ×
        /// width/2 from the corner, in which case the corner is bevelled.
        case miter
        /// A disc of radius width/2 at the corner.
        case round
        /// The outer corners connected by a straight edge.
        case bevel
    }

    /// Line width in pixels (> 0).
    public var width: Double
    /// End caps (open polylines only).
    public var cap: Cap
    /// Corner joins.
    public var join: Join
    /// The largest ratio of miter length to half the width before a miter join falls back to a bevel
    /// (≥ 1; SVG's default is 4, which bevels corners sharper than about 29°).
    public var miterLimit: Double

    /// A stroke style; `width` in pixels.
    public init(width: Double, cap: Cap = .butt, join: Join = .miter, miterLimit: Double = 4) {
        self.width = width; self.cap = cap; self.join = join; self.miterLimit = miterLimit
    }
}
