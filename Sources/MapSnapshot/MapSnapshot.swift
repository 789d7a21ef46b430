import Geodesy
import Imaging

/// A rendered map image with the camera it was drawn from, as MapKit's `MKMapSnapshotter.Snapshot`:
/// it converts between coordinates and points of the image.
public struct MapSnapshot: Sendable {
    /// The image (size × scale pixels), straight alpha, opaque.
    public let image: RGBA8Image
    /// The camera it was drawn from (resolved from a region or map rect when the options gave one).
    public let camera: MapCamera
    /// The projection from the ground to the image.
    public let projection: MapProjection

    /// Pixels per point.
    public var scale: Double { projection.scale }

    /// Where a coordinate is drawn, in points from the top-left corner of the image (pixels ÷ scale;
    /// pixel centres at half points at scale 1), or nil when it is behind the camera.
    public func point(for coordinate: GeoCoordinate) -> PixelPoint? {
        guard let p = projection.pixel(for: coordinate) else { return nil }
        return PixelPoint(p.x / scale, p.y / scale)
    }

    /// The coordinate on the ground at a point of the image (points, as ``point(for:)``), or nil when the
    /// point looks above the horizon of a pitched camera.
    public func coordinate(for point: PixelPoint) -> GeoCoordinate? {
        projection.coordinate(forPixel: PixelPoint(point.x * scale, point.y * scale))
    }
}
