/// A camera the tracer can shoot primary rays from. Pixel coordinates are continuous with pixel
/// centres at (x + 0.5, y + 0.5); `(0, 0)` is the top-left corner of the top-left pixel.
public protocol RayGenerating: Sendable {
    /// Image width in pixels.
    var width: Int { get }
    /// Image height in pixels.
    var height: Int { get }
    /// The ray through continuous pixel position (`x`, `y`) in scene coordinates (origin in metres,
    /// unit direction), in `Float` for the tracer's inner loop.
    func sceneRay(x: Float, y: Float) -> (origin: SceneVector, direction: SceneVector)
}

/// A `Float` 3-vector in the scene's east-north-up metres, as the camera protocol hands it to the tracer.
public struct SceneVector: Sendable, Hashable {
    /// East, metres (or a direction component).
    public var east: Float
    /// North, metres (or a direction component).
    public var north: Float
    /// Up, metres (or a direction component).
    public var up: Float
    /// A vector from its components.
    @inlinable public init(east: Float, north: Float, up: Float) { self.east = east; self.north = north; self.up = up }
}

extension SceneVector {
    @inline(__always) var vec3: Vec3 { Vec3(east, north, up) }
}
