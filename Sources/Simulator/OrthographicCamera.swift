import Geodesy
import Imaging

/// A top-down orthographic camera over an east-north rectangle of the scene (for the map's `imagery`
/// type): pixel (x, y) looks straight down at
/// `east = minEast + x / width × (maxEast − minEast)`, `north = maxNorth − y / height × (maxNorth − minNorth)`
/// (north up, pixel centres at + 0.5). Rays start at ``topMeters`` above the ground.
public struct OrthographicCamera: RayGenerating, Hashable {
    /// West edge, metres east of the scene origin.
    public var minEast: Double
    /// South edge, metres north of the scene origin.
    public var minNorth: Double
    /// East edge, metres (> minEast).
    public var maxEast: Double
    /// North edge, metres (> minNorth).
    public var maxNorth: Double
    /// Width in pixels (1…16,384).
    public let width: Int
    /// Height in pixels (1…16,384).
    public let height: Int
    /// Height of the ray origins above the scene origin, metres.
    public var topMeters: Double = 1_000

    /// A camera over the rectangle; an empty rectangle or a bad size throws `SimulatorError.invalidParameter`.
    public init(minEast: Double, minNorth: Double, maxEast: Double, maxNorth: Double, width: Int, height: Int) throws(SimulatorError) {
        guard (1...16_384).contains(width), (1...16_384).contains(height) else {
            throw .invalidParameter(name: "image size", value: "\(width)x\(height)", allowed: "1…16384 pixels per side")
        }
        guard maxEast > minEast, maxNorth > minNorth, (maxEast - minEast).isFinite, (maxNorth - minNorth).isFinite else {
            throw .invalidParameter(name: "rectangle", value: "\(minEast),\(minNorth) – \(maxEast),\(maxNorth)",
                                    allowed: "finite metres with max > min on both axes")
        }
        self.minEast = minEast; self.minNorth = minNorth; self.maxEast = maxEast; self.maxNorth = maxNorth
        self.width = width; self.height = height
    }

    /// The ground point (up = 0) under continuous pixel position (`x`, `y`).
    public func groundPoint(pixelX x: Double, pixelY y: Double) -> EastNorthUp {
        EastNorthUp(east: minEast + x / Double(width) * (maxEast - minEast),
                    north: maxNorth - y / Double(height) * (maxNorth - minNorth), up: 0)
    }

    /// The continuous pixel position of a scene point (its height is ignored).
    public func pixel(for point: EastNorthUp) -> PixelPoint {
        PixelPoint(x: (point.east - minEast) / (maxEast - minEast) * Double(width),
                   y: (maxNorth - point.north) / (maxNorth - minNorth) * Double(height))
    }

    /// See ``RayGenerating``.
    @inline(__always)
    public func sceneRay(x: Float, y: Float) -> (origin: SceneVector, direction: SceneVector) {
        let p = groundPoint(pixelX: Double(x), pixelY: Double(y))
        return (SceneVector(east: Float(p.east), north: Float(p.north), up: Float(topMeters)),
                SceneVector(east: 0, north: 0, up: -1))
    }
}
