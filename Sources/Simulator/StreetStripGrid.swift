/// Line segments with a half-width (street strips, tram tracks) in a uniform grid, for "how far is the
/// nearest street, and which way does it run?" while placing greenery and street furniture.
struct StreetStripGrid: Sendable {
    typealias Point = (x: Double, y: Double)
    struct Segment: Sendable {
        var a: Point, b: Point
        var halfWidthMeters: Double
        /// True for roads that carry traffic (not footways, paths, cycleways).
        var carriesTraffic: Bool
    }
    /// The nearest segment to a point: the segment, the closest point on its centre line, and the
    /// distance from the point to that centre line, metres.
    struct Nearest {
        var segment: Segment
        var closest: Point
        var distanceMeters: Double
    }

    private(set) var segments: [Segment] = []
    private var cells: [Int64: [Int]] = [:]
    static let cellSize = 10.0

    private static func key(_ i: Int, _ j: Int) -> Int64 { Int64(i) << 32 | Int64(UInt32(bitPattern: Int32(j))) }
    private static func cell(_ v: Double) -> Int { Int((v / cellSize).rounded(.down)) }

    mutating func add(_ line: [Point], halfWidthMeters: Double, carriesTraffic: Bool) {
        for k in 0..<max(0, line.count - 1) {
            let a = line[k], b = line[k + 1]
            if abs(a.x - b.x) < 1e-6 && abs(a.y - b.y) < 1e-6 { continue }
            let index = segments.count
            segments.append(Segment(a: a, b: b, halfWidthMeters: halfWidthMeters, carriesTraffic: carriesTraffic))
            let r = halfWidthMeters
            for i in Self.cell(min(a.x, b.x) - r)...Self.cell(max(a.x, b.x) + r) {
                for j in Self.cell(min(a.y, b.y) - r)...Self.cell(max(a.y, b.y) + r) {
                    cells[Self.key(i, j), default: []].append(index)
                }
            }
        }
    }

    static func closestPoint(_ p: Point, _ s: Segment) -> Point {
        let dx = s.b.x - s.a.x, dy = s.b.y - s.a.y
        let t = max(0, min(1, ((p.x - s.a.x) * dx + (p.y - s.a.y) * dy) / (dx * dx + dy * dy)))
        return (s.a.x + t * dx, s.a.y + t * dy)
    }

    /// The nearest segment whose centre line is within `radiusMeters` of `p` (traffic roads only when
    /// asked), or nil.
    func nearest(to p: Point, radiusMeters: Double, trafficOnly: Bool = false) -> Nearest? {
        var best: Nearest?
        var seen = Set<Int>()
        for i in Self.cell(p.x - radiusMeters)...Self.cell(p.x + radiusMeters) {
            for j in Self.cell(p.y - radiusMeters)...Self.cell(p.y + radiusMeters) {
                for index in cells[Self.key(i, j)] ?? [] where seen.insert(index).inserted {
                    let s = segments[index]
                    if trafficOnly && !s.carriesTraffic { continue }
                    let c = Self.closestPoint(p, s)
                    let d = ((p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y)).squareRoot()
                    if d <= radiusMeters && d < (best?.distanceMeters ?? .infinity) { best = Nearest(segment: s, closest: c, distanceMeters: d) }
                }
            }
        }
        return best
    }

    /// Whether `p` lies on a strip (within a segment's half-width plus `clearanceMeters`). Segments are
    /// filed in every cell their strip touches, so only cells within the clearance need a look.
    func covers(_ p: Point, clearanceMeters: Double) -> Bool {
        for i in Self.cell(p.x - clearanceMeters)...Self.cell(p.x + clearanceMeters) {
            for j in Self.cell(p.y - clearanceMeters)...Self.cell(p.y + clearanceMeters) {
                for index in cells[Self.key(i, j)] ?? [] {
                    let s = segments[index]
                    let c = Self.closestPoint(p, s)
                    let r = s.halfWidthMeters + clearanceMeters
                    if (p.x - c.x) * (p.x - c.x) + (p.y - c.y) * (p.y - c.y) <= r * r { return true }
                }
            }
        }
        return false
    }
}
