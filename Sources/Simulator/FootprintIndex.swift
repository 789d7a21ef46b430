/// Building footprints (outer rings and holes, scene metres) in a uniform grid, for "is this point
/// inside a building?" and "which wall is nearest?" queries during planning and sign placement.
struct FootprintIndex: Sendable {
    typealias Point = (x: Double, y: Double)
    struct Footprint: Sendable {
        var outer: [Point]
        var holes: [[Point]]
        var minX: Double, minY: Double, maxX: Double, maxY: Double
        var heightMeters: Double
    }
    /// A wall segment of an outer ring: from a to b, outward normal to the right.
    struct Wall: Sendable {
        var a: Point, b: Point
        var footprint: Int
    }

    var footprints: [Footprint] = []
    var walls: [Wall] = []
    private var cells: [Int64: [Int]] = [:]       // footprint indices per cell
    private var wallCells: [Int64: [Int]] = [:]   // wall indices per cell
    static let cellSize = 20.0

    private static func key(_ i: Int, _ j: Int) -> Int64 { Int64(i) << 32 | Int64(UInt32(bitPattern: Int32(j))) }
    private static func cell(_ v: Double) -> Int { Int((v / cellSize).rounded(.down)) }

    mutating func add(outer: [Point], holes: [[Point]], heightMeters: Double) {
        guard outer.count >= 3 else { return }
        let xs = outer.map(\.x), ys = outer.map(\.y)
        let f = Footprint(outer: outer, holes: holes, minX: xs.min()!, minY: ys.min()!, maxX: xs.max()!, maxY: ys.max()!,
                          heightMeters: heightMeters)
        let index = footprints.count
        footprints.append(f)
        for i in Self.cell(f.minX)...Self.cell(f.maxX) {
            for j in Self.cell(f.minY)...Self.cell(f.maxY) { cells[Self.key(i, j), default: []].append(index) }
        }
        for k in 0..<outer.count {
            let a = outer[k], b = outer[(k + 1) % outer.count]
            let w = walls.count
            walls.append(Wall(a: a, b: b, footprint: index))
            for i in Self.cell(min(a.x, b.x))...Self.cell(max(a.x, b.x)) {
                for j in Self.cell(min(a.y, b.y))...Self.cell(max(a.y, b.y)) { wallCells[Self.key(i, j), default: []].append(w) }
            }
        }
    }

    static func ringContains(_ ring: [Point], _ p: Point) -> Bool {
        var inside = false
        var j = ring.count - 1
        for i in 0..<ring.count {
            let a = ring[i], b = ring[j]
            if (a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x { inside.toggle() }
            j = i
        }
        return inside
    }

    /// Whether the point is inside any footprint (or within `clearance` metres of its walls).
    func isInside(_ p: Point, clearance: Double = 0) -> Bool {
        if let list = cells[Self.key(Self.cell(p.x), Self.cell(p.y))] {
            for index in list {
                let f = footprints[index]
                if p.x < f.minX - clearance || p.x > f.maxX + clearance || p.y < f.minY - clearance || p.y > f.maxY + clearance { continue }
                if Self.ringContains(f.outer, p) && !f.holes.contains(where: { Self.ringContains($0, p) }) { return true }
            }
        }
        if clearance > 0, let (_, d, _) = nearestWall(to: p, within: clearance), d < clearance { return true }
        return false
    }

    /// The nearest wall within `radius` metres: its index, distance and the parameter t ∈ [0, 1] of
    /// the closest point along it.
    func nearestWall(to p: Point, within radius: Double) -> (wall: Int, distance: Double, t: Double)? {
        var best: (Int, Double, Double)?
        for i in Self.cell(p.x - radius)...Self.cell(p.x + radius) {
            for j in Self.cell(p.y - radius)...Self.cell(p.y + radius) {
                guard let list = wallCells[Self.key(i, j)] else { continue }
                for w in list {
                    let wall = walls[w]
                    let dx = wall.b.x - wall.a.x, dy = wall.b.y - wall.a.y
                    let l2 = dx * dx + dy * dy
                    if l2 < 1e-9 { continue }
                    let t = max(0, min(1, ((p.x - wall.a.x) * dx + (p.y - wall.a.y) * dy) / l2))
                    let qx = wall.a.x + t * dx - p.x, qy = wall.a.y + t * dy - p.y
                    let d = (qx * qx + qy * qy).squareRoot()
                    if d <= radius && (best == nil || d < best!.1 || (d == best!.1 && w < best!.0)) { best = (w, d, t) }
                }
            }
        }
        return best
    }
}
