/// An axis-aligned rectangle on the Web Mercator world map, in map points, with MapKit's `MKMapRect`
/// semantics.
///
/// A rectangle that crosses the 180th meridian keeps its origin inside the world and extends beyond the
/// world width (``spans180thMeridian``). ``contains(_:)-(MapPoint)``, ``intersects(_:)``,
/// ``intersection(_:)`` and ``union(_:)`` understand this: x positions are compared modulo the world
/// width, so a rectangle over the Pacific contains points on both sides of the meridian.
///
/// Edges: ``contains(_:)-(MapPoint)`` is half-open, [minX, maxX) × [minY, maxY) as `MKMapRectContainsPoint`;
/// ``intersects(_:)`` and ``intersection(_:)`` treat rectangles as closed, so rectangles that share only an
/// edge intersect in a zero-width rectangle. ``null`` is the empty set (origin at infinity).
public struct MapRect: Sendable, Hashable, Codable {
    /// Top-left (north-west) corner, map points.
    public var origin: MapPoint
    /// Extent east and south of the origin, map points (non-negative for a valid rectangle).
    public var size: MapSize

    /// Creates a rectangle from its north-west corner and size, in map points.
    public init(origin: MapPoint, size: MapSize) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from map-point coordinates of its north-west corner and its size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: MapPoint(x: x, y: y), size: MapSize(width: width, height: height))
    }

    /// The whole world map: origin (0, 0), size ``MapSize/world``.
    public static let world = MapRect(origin: MapPoint(x: 0, y: 0), size: .world)

    /// The null rectangle (no points), as `MKMapRect.null`: origin at +infinity, zero size.
    public static let null = MapRect(x: .infinity, y: .infinity, width: 0, height: 0)

    /// True for ``null`` (and any rectangle whose origin is infinite).
    public var isNull: Bool { origin.x.isInfinite || origin.y.isInfinite }
    /// True when the rectangle is null or has zero width or height.
    public var isEmpty: Bool { isNull || size.width <= 0 || size.height <= 0 }

    /// Smallest x, map points.
    public var minX: Double { origin.x }
    /// Centre x, map points.
    public var midX: Double { origin.x + size.width / 2 }
    /// Largest x, map points (may exceed the world width).
    public var maxX: Double { origin.x + size.width }
    /// Smallest (northernmost) y, map points.
    public var minY: Double { origin.y }
    /// Centre y, map points.
    public var midY: Double { origin.y + size.height / 2 }
    /// Largest (southernmost) y, map points.
    public var maxY: Double { origin.y + size.height }
    /// Width, map points.
    public var width: Double { size.width }
    /// Height, map points.
    public var height: Double { size.height }

    /// True when the rectangle crosses the 180th meridian, i.e. extends beyond the world's east edge
    /// (maxX > world width) or west edge (minX < 0), as `MKMapRectSpans180thMeridian`.
    public var spans180thMeridian: Bool {
        !isNull && (minX < 0 || maxX > MapSize.world.width)
    }

    /// For a rectangle that spans the 180th meridian, the part outside the world moved back into it by one
    /// world width (as `MKMapRect.remainder`); ``null`` when nothing lies outside. Drawing the rectangle's
    /// intersection with ``world`` plus this remainder covers exactly the rectangle's area (for widths up to
    /// one world).
    public var remainder: MapRect {
        guard !isNull else { return .null }
        let w = MapSize.world.width
        if maxX > w { return MapRect(x: max(0, minX - w), y: minY, width: maxX - max(w, minX), height: height) }
        if minX < 0 { return MapRect(x: minX + w, y: minY, width: min(0, maxX) - minX, height: height) }
        return .null
    }

    /// The same rectangle moved by whole world widths so that its origin x lies in [0, world width).
    public var normalizedToWorld: MapRect {
        guard !isNull, origin.x.isFinite else { return self }
        var r = self
        let w = MapSize.world.width
        r.origin.x -= (origin.x / w).rounded(.down) * w
        if r.origin.x >= w { r.origin.x -= w }
        return r
    }

    /// True when the point lies in [minX, maxX) × [minY, maxY), comparing x modulo the world width.
    public func contains(_ point: MapPoint) -> Bool {
        guard !isNull, point.y >= minY, point.y < maxY else { return false }
        if width >= MapSize.world.width { return point.x.isFinite }
        return worldShifts(from: point.x, to: point.x).contains { shift in
            let x = point.x + shift
            return x >= minX && x < maxX
        }
    }

    /// True when `other` lies entirely inside this rectangle (closed edges), comparing x modulo the world
    /// width. Always false for a null `other`.
    public func contains(_ other: MapRect) -> Bool {
        guard !isNull, !other.isNull, other.minY >= minY, other.maxY <= maxY else { return false }
        if width >= MapSize.world.width { return true }
        return worldShifts(from: other.minX, to: other.maxX).contains { shift in
            other.minX + shift >= minX && other.maxX + shift <= maxX
        }
    }

    /// True when the rectangles share at least one point (closed edges), comparing x modulo the world width.
    public func intersects(_ other: MapRect) -> Bool {
        !intersection(other).isNull
    }

    /// The common part of the two rectangles, in this rectangle's x frame, or ``null`` when they do not
    /// intersect. Where the overlap falls into two pieces (possible only when the two rectangles together
    /// are wider than the world), the result is the smallest rectangle holding both pieces.
    public func intersection(_ other: MapRect) -> MapRect {
        guard !isNull, !other.isNull else { return .null }
        let top = max(minY, other.minY), bottom = min(maxY, other.maxY)
        guard top <= bottom else { return .null }
        var left = Double.infinity, right = -Double.infinity
        for shift in worldShifts(from: other.minX, to: other.maxX) {
            let pieceLeft = max(minX, other.minX + shift), pieceRight = min(maxX, other.maxX + shift)
            if pieceLeft <= pieceRight {
                left = min(left, pieceLeft)
                right = max(right, pieceRight)
            }
        }
        guard left <= right else { return .null }
        return MapRect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The smallest rectangle containing both, choosing for `other` the world copy that gives the
    /// narrowest result (so the union of rectangles on both sides of the 180th meridian spans it rather
    /// than the whole world). At most one world wide; origin x normalised into the world.
    /// The union with ``null`` is the other rectangle.
    public func union(_ other: MapRect) -> MapRect {
        if isNull { return other }
        if other.isNull { return self }
        let w = MapSize.world.width
        let top = min(minY, other.minY), bottom = max(maxY, other.maxY)
        let base = ((midX - other.midX) / w).rounded()
        var best = (left: 0.0, right: Double.infinity)
        for k in [base - 1, base, base + 1] {
            let left = min(minX, other.minX + k * w), right = max(maxX, other.maxX + k * w)
            if right - left < best.right - best.left { best = (left, right) }
        }
        let width = min(w, best.right - best.left)
        return MapRect(x: best.left, y: top, width: width, height: bottom - top).normalizedToWorld
    }

    /// Multiples of the world width by which an x interval [from, to] can be moved to meet this rectangle.
    private func worldShifts(from lower: Double, to upper: Double) -> [Double] {
        let w = MapSize.world.width
        guard lower.isFinite, upper.isFinite, minX.isFinite, maxX.isFinite else { return [] }
        let first = ((minX - upper) / w).rounded(.down), last = ((maxX - lower) / w).rounded(.up)
        guard last - first < 8 else { return [] }  // a finite rectangle meets at most a few copies
        return stride(from: first, through: last, by: 1).map { $0 * w }
    }
}
