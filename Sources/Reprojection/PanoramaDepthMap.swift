import Foundation
import Imaging

/// A panorama's depth map, for hit testing: how far the first surface is along any ray.
///
/// The format is the simulator's (DESIGN §4): a 16-bit equirectangular image in the panorama's layout
/// (DESIGN §3; usually smaller than the panorama, 512×256, with the same pose), each value the
/// Euclidean distance from the camera centre to the surface along the ray through that pixel's centre
/// in 1 cm units, and 65,535 where nothing was hit within 655.34 m (Imaging's ``DepthEncoding``).
///
/// ``rangeMeters(x:y:)`` interpolates between the four depth pixels around a position, but only
/// across samples on the same surface as the nearest one: it never averages sky with a facade, nor
/// a facade with the street 30 m behind it. Interpolation is in inverse depth, which is linear in the
/// ray direction on any plane, so the ground between two depth rows comes out right even where its
/// range changes by a quarter from one row to the next.
public struct PanoramaDepthMap: Sendable {
    /// The nearest surface assumed when ``init(_:nearestSurfaceMeters:)`` is given none: a camera
    /// on a mast 2.5 m above the street, whose nearest surface is the ground below.
    public static let defaultNearestSurfaceMeters = 2.5

    /// The depth values.
    public let image: Gray16Image
    /// Two depth samples are taken as one surface when their inverse depths differ by at most this
    /// (1/metres). No plane at least ``nearestSurfaceMeters`` from the camera changes its inverse
    /// depth faster than 1 / distance per radian, so two neighbours (at most √2 pixels apart) on one
    /// plane differ by less than `√2 · (2π / width) / nearestSurfaceMeters`; the tolerance is 1.5 × that.
    /// A jump smaller than this between two far surfaces (60 m in front of 90 m: 0.0056) is
    /// interpolated like a crease.
    public let continuityToleranceInverseMeters: Double

    /// A depth map.
    /// - Parameters:
    ///   - image: the depth values, width = 2 × height.
    ///   - nearestSurfaceMeters: the nearest surface the camera sees in ordinary use (the ground below
    ///     it: its height), metres, > 0.
    /// - Throws: `ReprojectionError.notEquirectangular` when the image is not 2:1;
    ///   `.invalidParameter` for a non-positive or non-finite `nearestSurfaceMeters`.
    public init(_ image: Gray16Image, nearestSurfaceMeters: Double = PanoramaDepthMap.defaultNearestSurfaceMeters) throws(ReprojectionError) {
        guard image.height >= 1, image.width == 2 * image.height else {
            throw .notEquirectangular(width: image.width, height: image.height)
        }
        guard nearestSurfaceMeters.isFinite, nearestSurfaceMeters > 0 else {
            throw .invalidParameter(name: "nearest surface distance", value: "\(nearestSurfaceMeters) m",
                                    allowed: "a finite number of metres above 0 (the camera height)")
        }
        self.image = image
        let radiansPerPixel = 2 * Double.pi / Double(image.width)
        continuityToleranceInverseMeters = 1.5 * 2.0.squareRoot() * radiansPerPixel / nearestSurfaceMeters
    }

    /// Width in pixels.
    public var width: Int { image.width }
    /// Height in pixels (width / 2).
    public var height: Int { image.height }

    /// The range stored at integer pixel (`column`, `row`), metres, or nil for sky. Columns wrap
    /// around the 360° seam; rows are clamped to the image.
    public func rangeMeters(column: Int, row: Int) -> Double? {
        var x = column % width
        if x < 0 { x += width }
        let y = min(height - 1, max(0, row))
        let value = image.components[y * width + x]
        return DepthEncoding.meters(value)
    }

    /// The range along the ray through continuous depth-map position (`x`, `y`) (pixel centres at
    /// i + 0.5), metres, or nil for sky. Nil when the depth pixel containing the position is sky;
    /// otherwise the inverse depth is interpolated bilinearly over those of the four surrounding
    /// samples that lie on the same surface as that pixel (see ``continuityToleranceInverseMeters``),
    /// their weights renormalised.
    public func rangeMeters(x: Double, y: Double) -> Double? {
        let fx = x - 0.5, fy = y - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let tx = fx - Double(x0), ty = fy - Double(y0)
        let nearestColumn = tx < 0.5 ? x0 : x0 + 1, nearestRow = ty < 0.5 ? y0 : y0 + 1
        guard let nearest = rangeMeters(column: nearestColumn, row: nearestRow) else { return nil }
        let nearestInverse = 1 / nearest
        var weightedInverse = 0.0, weights = 0.0
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            guard let range = rangeMeters(column: x0 + dx, row: y0 + dy),
                  abs(1 / range - nearestInverse) <= continuityToleranceInverseMeters else { continue }
            let weight = (dx == 0 ? 1 - tx : tx) * (dy == 0 ? 1 - ty : ty)
            weightedInverse += weight / range
            weights += weight
        }
        // The nearest sample always counts with a weight of at least 1/4.
        return weights / weightedInverse
    }
}

extension PanoramaDepthMap {
    /// The range along the ray through continuous view position (`viewX`, `viewY`) of `projection`,
    /// metres, or nil for sky. The depth map is taken to be aligned with the panorama (same layout
    /// and pose) and scaled to its width.
    public func rangeMeters(viewX: Double, viewY: Double, projection: ViewProjection) -> Double? {
        let pixel = projection.panoramaPixel(viewX: viewX, viewY: viewY)
        let scale = Double(width) / Double(projection.panoramaWidth)
        return rangeMeters(x: pixel.x * scale, y: pixel.y * scale)
    }
}
