/// A polygon with holes: one outer ring and any number of inner rings.
///
/// Every ring is closed (its last point equals its first) and has at least 4 points. Outer rings run
/// counter-clockwise and inner rings clockwise in (longitude, latitude), the right-hand rule of
/// GeoJSON (RFC 7946 §3.1.6), whatever order the OSM ways had.
public struct OSMPolygon: Sendable, Hashable, Codable {
    /// The outer boundary, closed, counter-clockwise.
    public var outer: [OSMCoordinate]
    /// The holes, each closed and clockwise.
    public var inners: [[OSMCoordinate]]

    /// A polygon from rings that are already closed; orientation is normalised here.
    public init(outer: [OSMCoordinate], inners: [[OSMCoordinate]] = []) {
        self.outer = OSMPolygon.oriented(outer, counterClockwise: true)
        self.inners = inners.map { OSMPolygon.oriented($0, counterClockwise: false) }
    }

    /// Twice the signed area of a closed ring in degrees² (positive = counter-clockwise), with the
    /// shoelace formula taken relative to the first point for precision.
    static func doubleSignedArea(_ ring: [OSMCoordinate]) -> Double {
        guard ring.count >= 3 else { return 0 }
        let x0 = ring[0].longitude, y0 = ring[0].latitude
        var sum = 0.0
        for i in 0..<(ring.count - 1) {
            let ax = ring[i].longitude - x0, ay = ring[i].latitude - y0
            let bx = ring[i + 1].longitude - x0, by = ring[i + 1].latitude - y0
            sum += ax * by - bx * ay
        }
        return sum
    }

    static func oriented(_ ring: [OSMCoordinate], counterClockwise: Bool) -> [OSMCoordinate] {
        let area = doubleSignedArea(ring)
        return (area > 0) == counterClockwise || area == 0 ? ring : ring.reversed()
    }

    /// Area-weighted centroid of the polygon (outer minus holes), or the mean of the outer ring's
    /// points when the area is zero. Computed in degrees: the centroid is invariant under the affine
    /// scaling a local east/north projection would apply, so no projection is needed at city scale.
    public var centroid: OSMCoordinate {
        let (x, y, a) = OSMPolygon.weightedCentroid(of: [outer] + inners)
        if a != 0 { return OSMCoordinate(latitude: y / a, longitude: x / a) }
        return OSMPolygon.meanPoint(outer)
    }

    /// Returns (Σ cx·A, Σ cy·A, Σ A) over signed rings, for combining polygons.
    static func weightedCentroid(of rings: [[OSMCoordinate]]) -> (Double, Double, Double) {
        var sx = 0.0, sy = 0.0, sa = 0.0
        for ring in rings where ring.count >= 4 {
            let x0 = ring[0].longitude, y0 = ring[0].latitude
            var a = 0.0, cx = 0.0, cy = 0.0
            for i in 0..<(ring.count - 1) {
                let ax = ring[i].longitude - x0, ay = ring[i].latitude - y0
                let bx = ring[i + 1].longitude - x0, by = ring[i + 1].latitude - y0
                let cross = ax * by - bx * ay
                a += cross
                cx += (ax + bx) * cross
                cy += (ay + by) * cross
            }
            // Ring centroid = (cx, cy) / (3a) + origin; weight by the signed area a / 2.
            guard a != 0 else { continue }
            let area = a / 2
            sx += (cx / (3 * a) + x0) * area
            sy += (cy / (3 * a) + y0) * area
            sa += area
        }
        return (sx, sy, sa)
    }

    static func meanPoint(_ points: [OSMCoordinate]) -> OSMCoordinate {
        guard !points.isEmpty else { return OSMCoordinate(latitude: 0, longitude: 0) }
        // A closed ring repeats its first point; leave the duplicate out of the mean.
        let body = points.count > 1 && points.first == points.last ? points.dropLast() : points[...]
        let lat = body.reduce(0) { $0 + $1.latitude } / Double(body.count)
        let lon = body.reduce(0) { $0 + $1.longitude } / Double(body.count)
        return OSMCoordinate(latitude: lat, longitude: lon)
    }

    /// Whether `point` is inside the outer ring and outside every hole (even-odd rule per ring).
    public func contains(_ point: OSMCoordinate) -> Bool {
        OSMPolygon.ring(outer, contains: point) && !inners.contains { OSMPolygon.ring($0, contains: point) }
    }

    static func ring(_ ring: [OSMCoordinate], contains point: OSMCoordinate) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                let t = (point.latitude - a.latitude) / (b.latitude - a.latitude)
                if point.longitude < a.longitude + t * (b.longitude - a.longitude) { inside.toggle() }
            }
            j = i
        }
        return inside
    }
}

extension Array where Element == OSMPolygon {
    /// Area-weighted centroid of several polygons (a multipolygon), or nil when empty.
    var combinedCentroid: OSMCoordinate? {
        guard let first else { return nil }
        let (x, y, a) = OSMPolygon.weightedCentroid(of: flatMap { [$0.outer] + $0.inners })
        return a != 0 ? OSMCoordinate(latitude: y / a, longitude: x / a) : first.centroid
    }
}
