/// A plane-to-plane projective map (a 3×3 matrix acting on homogeneous pixel coordinates): rotations,
/// scales and perspective views of a flat surface, such as text lying on the ground seen by a camera.
///
/// `(x', y', w') = M · (x, y, 1)`, and the mapped point is `(x' / w', y' / w')`. Coordinates are
/// continuous pixels (see `PixelPoint`) on both sides.
public struct Homography: Sendable, Hashable {
    /// The matrix rows.
    public var row0: SIMD3<Double>, row1: SIMD3<Double>, row2: SIMD3<Double>

    /// A homography from its matrix rows.
    public init(_ row0: SIMD3<Double>, _ row1: SIMD3<Double>, _ row2: SIMD3<Double>) {
        self.row0 = row0; self.row1 = row1; self.row2 = row2
    }

    /// The identity map.
    public static let identity = Homography(SIMD3(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1))

    /// The affine map `(x, y) ↦ (a·x + b·y + c, d·x + e·y + f)`.
    public static func affine(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) -> Homography {
        Homography(SIMD3(a, b, c), SIMD3(d, e, f), SIMD3(0, 0, 1))
    }

    /// The homogeneous weight `w'` of `point`: positive on the side of the plane the map keeps in front.
    @inlinable public func weight(_ point: PixelPoint) -> Double {
        row2.x * point.x + row2.y * point.y + row2.z
    }

    /// Where `point` goes, or nil when its weight is not positive (the point maps behind the viewer,
    /// or to infinity).
    @inlinable public func map(_ point: PixelPoint) -> PixelPoint? {
        let w = weight(point)
        guard w > 1e-12 else { return nil }
        return PixelPoint((row0.x * point.x + row0.y * point.y + row0.z) / w,
                          (row1.x * point.x + row1.y * point.y + row1.z) / w)
    }

    /// The inverse map, or nil when the matrix is singular (determinant within 1e-15 of its scale).
    public var inverse: Homography? {
        let a = row0, b = row1, c = row2
        // Rows of the adjugate are the cross products of pairs of columns; with rows given, the
        // inverse's columns are the cross products of pairs of rows.
        let c0 = SIMD3(b.y * c.z - b.z * c.y, b.z * c.x - b.x * c.z, b.x * c.y - b.y * c.x)
        let c1 = SIMD3(c.y * a.z - c.z * a.y, c.z * a.x - c.x * a.z, c.x * a.y - c.y * a.x)
        let c2 = SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
        let determinant = (a * c0).sum()
        let scale = max(a.replacing(with: -a, where: a .< 0).max(), b.replacing(with: -b, where: b .< 0).max(),
                        c.replacing(with: -c, where: c .< 0).max())
        guard abs(determinant) > 1e-15 * scale * scale * scale else { return nil }
        let k = 1 / determinant
        return Homography(SIMD3(c0.x, c1.x, c2.x) * k, SIMD3(c0.y, c1.y, c2.y) * k, SIMD3(c0.z, c1.z, c2.z) * k)
    }

    /// `lhs ∘ rhs`: the map that applies `rhs` first, then `lhs`.
    public static func * (lhs: Homography, rhs: Homography) -> Homography {
        let c0 = SIMD3(rhs.row0.x, rhs.row1.x, rhs.row2.x)
        let c1 = SIMD3(rhs.row0.y, rhs.row1.y, rhs.row2.y)
        let c2 = SIMD3(rhs.row0.z, rhs.row1.z, rhs.row2.z)
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3((r * c0).sum(), (r * c1).sum(), (r * c2).sum()) }
        return Homography(row(lhs.row0), row(lhs.row1), row(lhs.row2))
    }
}
