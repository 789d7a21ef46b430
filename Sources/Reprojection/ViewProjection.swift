import Foundation
import Geodesy
import Imaging

/// The per-frame geometry of one view out of one panorama: view pixel ↔ world direction ↔
/// panorama pixel. Set up once per camera (a few trigonometric calls), then evaluated per pixel
/// without any.
///
/// Panorama pixel coordinates are continuous, in the layout of DESIGN §3: `x` ∈ [0, width) with the
/// centre of pixel `i` at `i + 0.5`, the centre column (`x = width / 2`) facing the pose heading, `x`
/// growing clockwise; `y` ∈ [0, height], 0 at the zenith. The formulas are in the module docs.
public struct ViewProjection: Sendable {
    /// The view.
    public let camera: ViewCamera
    /// The panorama's capture pose.
    public let pose: PanoramaPose
    /// Panorama width in pixels (height = width / 2).
    public let panoramaWidth: Int

    /// World (east, north, up) unit vectors of the panorama's forward, right and up axes.
    public let panoramaAxes: (forward: EastNorthUp, right: EastNorthUp, up: EastNorthUp)
    /// The panorama's equirectangular mapping (its axes are ``panoramaAxes``).
    public let frame: EquirectangularFrame
    /// `local = base + dx · (x + 0.5) + dy · (y + 0.5)`: the (forward, right, up) components, in the
    /// panorama frame, of the (unnormalised) ray through view pixel (x, y).
    @usableFromInline let base: SIMD3<Double>
    @usableFromInline let stepX: SIMD3<Double>
    @usableFromInline let stepY: SIMD3<Double>
    /// Panorama pixels per radian of longitude (width / 2π) and of latitude (height / π): the same.
    @usableFromInline let pixelsPerRadian: Double

    /// Sets up the projection of `camera` out of a panorama `panoramaWidth` pixels wide, captured with `pose`.
    public init(camera: ViewCamera, pose: PanoramaPose, panoramaWidth: Int) {
        self.camera = camera
        self.pose = pose
        self.panoramaWidth = panoramaWidth
        let frame = EquirectangularFrame(pose: pose)
        self.frame = frame
        let axes = (forward: frame.forward, right: frame.right, up: frame.up)
        self.panoramaAxes = axes
        let (f, r, u) = camera.basis
        func dot(_ a: EastNorthUp, _ b: EastNorthUp) -> Double { a.east * b.east + a.north * b.north + a.up * b.up }
        // The view's forward/right/up expressed in the panorama frame.
        let fwd = SIMD3(dot(f, axes.forward), dot(f, axes.right), dot(f, axes.up))
        let right = SIMD3(dot(r, axes.forward), dot(r, axes.right), dot(r, axes.up))
        let up = SIMD3(dot(u, axes.forward), dot(u, axes.right), dot(u, axes.up))
        let focal = camera.focalLengthPixels
        // ray(x, y) = fwd + ((x − w/2) / f) · right + ((h/2 − y) / f) · up, x and y continuous.
        self.stepX = right / focal
        self.stepY = -up / focal
        self.base = fwd - right * (Double(camera.width) / 2 / focal) + up * (Double(camera.height) / 2 / focal)
        self.pixelsPerRadian = Double(panoramaWidth) / (2 * .pi)
    }

    /// The panorama's forward, right and up axes in east-north-up: camera-to-world = heading ∘ pitch ∘ roll.
    public static func axes(of pose: PanoramaPose) -> (forward: EastNorthUp, right: EastNorthUp, up: EastNorthUp) {
        let frame = EquirectangularFrame(pose: pose)
        return (frame.forward, frame.right, frame.up)
    }

    /// The ray through continuous view position (`x`, `y`) in panorama-frame (forward, right, up)
    /// components, unnormalised. Pixel (i, j) has its centre at (i + 0.5, j + 0.5).
    @inlinable public func panoramaFrameRay(viewX x: Double, viewY y: Double) -> SIMD3<Double> {
        base + stepX * x + stepY * y
    }

    /// Continuous panorama pixel position seen at continuous view position (`x`, `y`):
    /// `x` ∈ [0, width), `y` ∈ [0, height].
    @inlinable public func panoramaPixel(viewX x: Double, viewY y: Double) -> PixelPoint {
        let p = Self.panoramaPixel(ofRay: panoramaFrameRay(viewX: x, viewY: y), pixelsPerRadian: pixelsPerRadian,
                                   panoramaWidth: Double(panoramaWidth))
        return PixelPoint(x: p.x, y: p.y)
    }

    /// Longitude/latitude of a panorama-frame ray as panorama pixels.
    @inlinable static func panoramaPixel(ofRay d: SIMD3<Double>, pixelsPerRadian: Double,
                                         panoramaWidth: Double) -> (x: Double, y: Double) {
        let horizontal = (d.x * d.x + d.y * d.y).squareRoot()
        let longitude = atan2(d.y, d.x)          // 0 = forward, + = right (clockwise)
        let latitude = atan2(d.z, horizontal)    // + = up
        var x = longitude * pixelsPerRadian + panoramaWidth / 2
        if x >= panoramaWidth { x -= panoramaWidth }
        if x < 0 { x += panoramaWidth }
        return (x, (Double.pi / 2 - latitude) * pixelsPerRadian)
    }

    /// The world (east, north, up) unit direction seen at continuous view position (`x`, `y`).
    public func direction(viewX x: Double, viewY y: Double) -> EastNorthUp {
        let (f, r, u) = camera.basis, focal = camera.focalLengthPixels
        let a = (x - Double(camera.width) / 2) / focal, b = (Double(camera.height) / 2 - y) / focal
        let d = EastNorthUp(east: f.east + a * r.east + b * u.east, north: f.north + a * r.north + b * u.north,
                            up: f.up + a * r.up + b * u.up)
        let l = d.lengthMeters
        return EastNorthUp(east: d.east / l, north: d.north / l, up: d.up / l)
    }

    /// The continuous view position where a world direction (or a point relative to the camera)
    /// appears, or `nil` when it is behind the camera. Positions outside the image are returned as is.
    public func viewPixel(forDirection d: EastNorthUp) -> PixelPoint? {
        let (f, r, u) = camera.basis
        let z = d.east * f.east + d.north * f.north + d.up * f.up
        guard z > 1e-9 else { return nil }
        let focal = camera.focalLengthPixels
        let a = (d.east * r.east + d.north * r.north + d.up * r.up) / z
        let b = (d.east * u.east + d.north * u.north + d.up * u.up) / z
        return PixelPoint(x: Double(camera.width) / 2 + a * focal, y: Double(camera.height) / 2 - b * focal)
    }

    /// The world direction of a continuous panorama pixel position (for depth lookups and hit testing).
    public func direction(panoramaX x: Double, panoramaY y: Double) -> EastNorthUp {
        frame.direction(u: x / Double(panoramaWidth), v: 2 * y / Double(panoramaWidth))
    }

    /// Source pixels per view pixel at the view centre: `(panoramaWidth / 2π) / focalLength`.
    /// Above ~1.4 a bilinear view of this panorama aliases; the pyramid picks a smaller level.
    public var sourcePixelsPerViewPixel: Double { pixelsPerRadian / camera.focalLengthPixels }
}
