/// A shape made of straight-edged subpaths, in pixel coordinates (see `PixelPoint`).
///
/// Curves are flattened when they are added (circles and arcs to within `flatteningTolerance`
/// pixels), so a path is always a list of polylines. When filled, every subpath is closed
/// implicitly; when stroked, only subpaths closed with `close()` get a join at their start.
public struct Path: Sendable, Hashable {
    /// One polyline of a path.
    public struct Subpath: Sendable, Hashable {
        /// The vertices in order, in pixels.
        public var points: [PixelPoint]
        /// Whether the last point joins back to the first when stroked.
        public var isClosed: Bool
        /// A subpath from its vertices.
        public init(points: [PixelPoint], isClosed: Bool) { self.points = points; self.isClosed = isClosed }
    }

    /// The largest distance, in pixels, between a flattened circle and the true circle.
    static let flatteningTolerance = 0.05

    /// The subpaths, in the order they were added.
    public private(set) var subpaths: [Subpath] = []

    /// An empty path.
    public init() {}

    /// A path holding one polyline (`closed`: joined back to its start).
    public init(polyline points: [PixelPoint], closed: Bool = false) {
        subpaths = [Subpath(points: points, isClosed: closed)]
    }

    /// Whether the path has no points.
    public var isEmpty: Bool { subpaths.allSatisfy { $0.points.isEmpty } }

    /// Starts a new subpath at `point`.
    public mutating func move(to point: PixelPoint) {
        subpaths.append(Subpath(points: [point], isClosed: false))
    }

    /// Adds a straight edge from the current point to `point` (starts a subpath if there is none).
    public mutating func line(to point: PixelPoint) {
        if subpaths.isEmpty || subpaths[subpaths.count - 1].isClosed {
            move(to: point)
        } else {
            subpaths[subpaths.count - 1].points.append(point)
        }
    }

    /// Closes the current subpath; the next `line(to:)` starts a new one.
    public mutating func close() {
        guard !subpaths.isEmpty else { return }
        subpaths[subpaths.count - 1].isClosed = true
    }

    /// Adds a closed polygon through `points` (in the given order: the direction matters for
    /// `.nonZero` fills).
    public mutating func addPolygon(_ points: [PixelPoint]) {
        guard !points.isEmpty else { return }
        subpaths.append(Subpath(points: points, isClosed: true))
    }

    /// Adds an axis-aligned rectangle, clockwise on screen (x right, y down).
    public mutating func addRectangle(x: Double, y: Double, width: Double, height: Double) {
        addPolygon([PixelPoint(x, y), PixelPoint(x + width, y), PixelPoint(x + width, y + height),
                    PixelPoint(x, y + height)])
    }

    /// Adds a closed circle of `radius` pixels (> 0) around `center`; `clockwise` on screen by
    /// default, `clockwise: false` for a hole under `.nonZero`.
    public mutating func addCircle(center: PixelPoint, radius: Double, clockwise: Bool = true) {
        guard radius > 0 else { return }
        let n = Self.segmentCount(radius: radius, sweepRadians: 2 * .pi)
        var points: [PixelPoint] = []
        points.reserveCapacity(n)
        for i in 0..<n {
            let t = Double(i) / Double(n) * 2 * .pi * (clockwise ? 1 : -1)
            points.append(PixelPoint(center.x + radius * cos(t), center.y + radius * sin(t)))
        }
        addPolygon(points)
    }

    /// Adds a ring (annulus) between `innerRadius` and `outerRadius` (0 ≤ inner < outer): the outer
    /// circle clockwise and the inner one counter-clockwise, so it has a hole under both fill rules.
    public mutating func addRing(center: PixelPoint, innerRadius: Double, outerRadius: Double) {
        addCircle(center: center, radius: outerRadius, clockwise: true)
        if innerRadius > 0 { addCircle(center: center, radius: innerRadius, clockwise: false) }
    }

    /// A path holding one circle.
    public static func circle(center: PixelPoint, radius: Double) -> Path {
        var p = Path(); p.addCircle(center: center, radius: radius); return p
    }

    /// The number of straight segments that keep a flattened arc within `flatteningTolerance`.
    static func segmentCount(radius: Double, sweepRadians: Double) -> Int {
        let ratio = max(-1, min(1, 1 - flatteningTolerance / max(radius, flatteningTolerance)))
        let step = 2 * acos(ratio)                       // angle per segment for the tolerance
        let n = Int((abs(sweepRadians) / max(step, 1e-3)).rounded(.up))
        // The cap bounds memory for absurd radii; at 8192 segments a circle of radius 10⁶ px is
        // still within 0.08 px of true.
        return min(max(n, sweepRadians >= 2 * .pi - 1e-9 ? 8 : 1), 8192)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
