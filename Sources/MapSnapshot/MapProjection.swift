import Foundation
import Geodesy
import Imaging

/// The perspective projection of a ``MapCamera`` onto an image: Web Mercator map points on the ground
/// plane (plus heights) to pixels, and back.
///
/// The ground is the Mercator plane around the camera's centre, in map points (x east, y south), with
/// heights in map points too (metres × map points per metre at the centre latitude). The eye sits at
/// distance D from the centre, tilted by the pitch towards the south of the heading; the image plane has
/// a focal length f = (height / 2) / tan(15°) pixels. A ground point (x, y, z) relative to the centre maps
/// to pixel (W/2 + f·x_c/z_c, H/2 − f·y_c/z_c), with (x_c, y_c, z_c) its camera coordinates. At pitch 0
/// this is a plain similarity (scale + rotation), so flat maps are exact Mercator maps.
///
/// Pixel coordinates are continuous with pixel centres at (x + 0.5, y + 0.5), as ``Canvas`` uses them.
public struct MapProjection: Sendable, Hashable {
    /// The centre of the view, map points, x in [0, world width).
    public let center: MapPoint
    /// Map points per metre at the centre latitude.
    public let mapPointsPerMeter: Double
    /// Image size in pixels.
    public let widthPixels: Int, heightPixels: Int
    /// Pixels per point (1…4).
    public let scale: Double
    /// Focal length in pixels.
    public let focalPixels: Double
    /// Eye-to-centre distance in map points.
    public let distanceMapPoints: Double
    /// The camera.
    public let camera: MapCamera

    // Camera basis in ground coordinates (x east, y south, z up), and the eye relative to the centre.
    let right: SIMD3<Double>, up: SIMD3<Double>, view: SIMD3<Double>, eye: SIMD3<Double>

    /// The projection of `camera` onto an image of `widthPixels` × `heightPixels` pixels drawn at
    /// `scale` pixels per point.
    public init(camera: MapCamera, widthPixels: Int, heightPixels: Int, scale: Double) {
        self.camera = camera
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.scale = scale
        center = MapPoint(camera.centerCoordinate)
        mapPointsPerMeter = (try? MapPoint.pointsPerMeter(atLatitude: camera.centerCoordinate.latitude)) ?? 1
        focalPixels = Double(heightPixels) / 2 / tan(MapCamera.verticalFieldOfViewDegrees / 2 * .pi / 180)
        distanceMapPoints = camera.centerCoordinateDistanceMeters * mapPointsPerMeter
        let h = camera.heading.radians, p = camera.pitch.radians
        let forward = SIMD3(sin(h), -cos(h), 0)
        right = SIMD3(cos(h), sin(h), 0)
        view = forward * sin(p) + SIMD3(0, 0, -cos(p))
        up = forward * cos(p) + SIMD3(0, 0, sin(p))
        eye = -view * distanceMapPoints
    }

    /// Map points per pixel at the centre of the view.
    public var mapPointsPerPixel: Double { distanceMapPoints / focalPixels }

    /// Metres on the ground per pixel at the centre of the view.
    public var metersPerPixel: Double { mapPointsPerPixel / mapPointsPerMeter }

    /// Whether the camera is tilted enough for 3D buildings (pitch above 1°).
    public var isPitched: Bool { camera.pitch.degrees > 1 }

    /// x relative to the centre, moved by whole world widths into [−W/2, W/2).
    @inline(__always) func relativeX(_ x: Double) -> Double {
        let w = MapSize.world.width
        var d = x - center.x
        if d >= w / 2 || d < -w / 2 { d -= (d / w + 0.5).rounded(.down) * w }
        return d
    }

    /// Camera coordinates (x right, y up, z depth along the view) of a point relative to the centre.
    @inline(__always) func cameraSpace(_ x: Double, _ y: Double, _ z: Double) -> SIMD3<Double> {
        let r = SIMD3(x, y, z) - eye
        return SIMD3((r * right).sum(), (r * up).sum(), (r * view).sum())
    }

    /// Camera coordinates of a point relative to the centre (x east, y south, z up; map points).
    @inline(__always) func cameraSpace(_ p: SIMD3<Double>) -> SIMD3<Double> {
        let r = p - eye
        return SIMD3((r * right).sum(), (r * up).sum(), (r * view).sum())
    }

    /// The pixel of a camera-space point (depth must be positive).
    @inline(__always) func pixel(ofCameraSpace c: SIMD3<Double>) -> PixelPoint {
        PixelPoint(Double(widthPixels) / 2 + focalPixels * c.x / c.z, Double(heightPixels) / 2 - focalPixels * c.y / c.z)
    }

    /// The smallest depth drawn, map points: geometry nearer than this is clipped.
    var nearDepth: Double { distanceMapPoints * 0.02 }

    /// The pixel of a ground point given relative to the centre (map points; `z` height in map points),
    /// or nil when it is behind the near plane.
    @inline(__always) func pixel(relativeX x: Double, y: Double, z: Double = 0) -> PixelPoint? {
        let c = cameraSpace(x, y, z)
        guard c.z > nearDepth else { return nil }
        return pixel(ofCameraSpace: c)
    }

    /// The pixel where a map point is drawn (the nearest world copy to the centre), or nil behind the camera.
    public func pixel(for point: MapPoint, heightMeters: Double = 0) -> PixelPoint? {
        pixel(relativeX: relativeX(point.x), y: point.y - center.y, z: heightMeters * mapPointsPerMeter)
    }

    /// The pixel where a coordinate is drawn on the ground, or nil behind the camera.
    public func pixel(for coordinate: GeoCoordinate) -> PixelPoint? { pixel(for: MapPoint(coordinate)) }

    /// The map point on the ground under a pixel, or nil when the pixel looks above the horizon.
    public func mapPoint(forPixel pixel: PixelPoint) -> MapPoint? {
        guard let ground = groundRelative(forPixel: pixel) else { return nil }
        return MapPoint(x: center.x + ground.x, y: center.y + ground.y)
    }

    /// The ground point (relative to the centre, map points) under a pixel, or nil above the horizon.
    @inline(__always) func groundRelative(forPixel pixel: PixelPoint) -> (x: Double, y: Double)? {
        let a = (pixel.x - Double(widthPixels) / 2) / focalPixels
        let b = -(pixel.y - Double(heightPixels) / 2) / focalPixels
        let direction = view + right * a + up * b
        guard direction.z < -1e-9 else { return nil }
        let t = -eye.z / direction.z
        return (eye.x + t * direction.x, eye.y + t * direction.y)
    }

    /// The coordinate on the ground under a pixel, or nil above the horizon.
    public func coordinate(forPixel pixel: PixelPoint) -> GeoCoordinate? {
        guard let point = mapPoint(forPixel: pixel) else { return nil }
        return try? point.coordinate
    }

    /// The image row of the horizon (pixels from the top; negative when the horizon is above the image).
    public var horizonRow: Double {
        let p = camera.pitch.radians
        guard p > 1e-9 else { return -.infinity }
        return Double(heightPixels) / 2 - focalPixels * cos(p) / sin(p)
    }

    /// The farthest ground distance drawn from the centre, map points (pitched views fade out there).
    var farDistanceMapPoints: Double { distanceMapPoints * 12 }

    /// The axis-aligned box of ground visible in the image (relative to the centre, map points), limited
    /// to ``farDistanceMapPoints`` towards the horizon.
    var visibleRelativeBounds: (minX: Double, minY: Double, maxX: Double, maxY: Double) {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        let w = Double(widthPixels), h = Double(heightPixels)
        let far = farDistanceMapPoints
        for (px, py) in [(0.0, 0.0), (w / 2, 0), (w, 0), (w, h / 2), (w, h), (w / 2, h), (0, h), (0, h / 2)] {
            var point: (x: Double, y: Double)
            if let g = groundRelative(forPixel: PixelPoint(px, py)), (g.x * g.x + g.y * g.y).squareRoot() <= far {
                point = g
            } else {
                // Above the horizon or too far: the ray's horizontal direction, cut at the far distance.
                let a = (px - w / 2) / focalPixels, b = -(py - h / 2) / focalPixels
                let d = view + right * a + up * b
                let len = max(1e-12, (d.x * d.x + d.y * d.y).squareRoot())
                point = (d.x / len * far, d.y / len * far)
            }
            minX = min(minX, point.x); maxX = max(maxX, point.x); minY = min(minY, point.y); maxY = max(maxY, point.y)
        }
        return (minX, minY, maxX, maxY)
    }
}

extension MapCamera {
    /// A top-down camera (heading 0, pitch 0) that shows all of `rect` in a view of `viewSize` points,
    /// centred on the rectangle's middle (the aspect ratio is kept, so one direction shows more).
    /// - Throws: ``MapSnapshotError/valueOutOfRange(parameter:value:allowed:)`` for an empty or too large rect.
    public init(fitting rect: MapRect, viewWidthPoints: Int, viewHeightPoints: Int) throws(MapSnapshotError) {
        guard !rect.isNull, rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else {
            throw .valueOutOfRange(parameter: "map rect width", value: rect.width, allowed: "a non-empty rectangle")
        }
        let mid = MapPoint(x: rect.midX, y: rect.midY)
        let center: GeoCoordinate
        do { center = try mid.coordinate } catch {
            throw .valueOutOfRange(parameter: "map rect centre y", value: rect.midY, allowed: "a finite map point")
        }
        let pointsPerMeter = (try? MapPoint.pointsPerMeter(atLatitude: center.latitude)) ?? 1
        let mapPointsPerPoint = max(rect.width / Double(viewWidthPoints), rect.height / Double(viewHeightPoints))
        let distanceMapPoints = mapPointsPerPoint * Double(viewHeightPoints) / 2
            / tan(MapCamera.verticalFieldOfViewDegrees / 2 * .pi / 180)
        try self.init(centerCoordinate: center, centerCoordinateDistanceMeters: distanceMapPoints / pointsPerMeter)
    }

    /// A top-down camera that shows all of `region` (see ``init(fitting:viewWidthPoints:viewHeightPoints:)``);
    /// regions across the 180th meridian work.
    /// - Throws: ``MapSnapshotError/valueOutOfRange(parameter:value:allowed:)`` for an empty region.
    public init(fitting region: CoordinateRegion, viewWidthPoints: Int, viewHeightPoints: Int) throws(MapSnapshotError) {
        try self.init(fitting: MapRect(region), viewWidthPoints: viewWidthPoints, viewHeightPoints: viewHeightPoints)
    }
}
