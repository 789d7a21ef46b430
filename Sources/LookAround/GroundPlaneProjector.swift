import Geodesy
import Imaging
import Reprojection

/// The pinhole projection of a view camera, for points given relative to the camera (east, north,
/// up metres): set up once per view, then a few multiplications per point and no trigonometry. Also
/// gives the homography that maps a frame lying on the ground into the view.
struct GroundPlaneProjector: Sendable {
    let forward: SIMD3<Double>, right: SIMD3<Double>, up: SIMD3<Double>
    let focal: Double, halfWidth: Double, halfHeight: Double

    init(camera: ViewCamera) {
        let (f, r, u) = camera.basis
        forward = SIMD3(f.east, f.north, f.up)
        right = SIMD3(r.east, r.north, r.up)
        up = SIMD3(u.east, u.north, u.up)
        focal = camera.focalLengthPixels
        halfWidth = Double(camera.width) / 2
        halfHeight = Double(camera.height) / 2
    }

    /// Distance in front of the camera along its axis, metres (≤ 0: beside or behind).
    func depth(_ p: SIMD3<Double>) -> Double { (p * forward).sum() }

    /// The homogeneous view coordinates (x·z, y·z, z) of a point: linear in the point.
    func homogeneous(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let z = (p * forward).sum()
        return SIMD3(focal * (p * right).sum() + halfWidth * z, -focal * (p * up).sum() + halfHeight * z, z)
    }

    /// The continuous view position of a point, or nil when it is not in front of the camera.
    func pixel(_ p: SIMD3<Double>) -> PixelPoint? {
        let h = homogeneous(p)
        guard h.z > 1e-9 else { return nil }
        return PixelPoint(h.x / h.z, h.y / h.z)
    }

    /// The map from a planar frame's coordinates (a, b) to view pixels, where the frame's point
    /// (a, b) is `origin + a·axisA + b·axisB` in metres relative to the camera.
    func homography(origin: SIMD3<Double>, axisA: SIMD3<Double>, axisB: SIMD3<Double>) -> Homography {
        // homogeneous() is linear, so its columns are the images of the axes and the origin.
        let a = homogeneous(axisA), b = homogeneous(axisB), o = homogeneous(origin)
        return Homography(SIMD3(a.x, b.x, o.x), SIMD3(a.y, b.y, o.y), SIMD3(a.z, b.z, o.z))
    }
}

/// Whether two convex polygons (view pixels, either winding) overlap: separating-axis test over
/// every edge normal of both.
func convexPolygonsOverlap(_ a: [PixelPoint], _ b: [PixelPoint]) -> Bool {
    for polygon in [a, b] {
        for i in polygon.indices {
            let p = polygon[i], q = polygon[(i + 1) % polygon.count]
            let normal = PixelPoint(q.y - p.y, p.x - q.x)
            func span(_ points: [PixelPoint]) -> (Double, Double) {
                var low = Double.infinity, high = -Double.infinity
                for point in points {
                    let d = point.x * normal.x + point.y * normal.y
                    low = min(low, d); high = max(high, d)
                }
                return (low, high)
            }
            let (a0, a1) = span(a), (b0, b1) = span(b)
            if a1 <= b0 || b1 <= a0 { return false }
        }
    }
    return true
}
