/// The share of a rectangle that a set of polygons covers, counted once where they overlap (an
/// outline and its parts, buildings mapped twice) and only inside the rectangle (a block half in it):
/// the polygons are filled, by the even-odd rule with their holes, into a grid of cells at most
/// ``maximumCellMeters`` wide, and the covered cells counted.
struct CoverageRaster {
    /// The finest cell, metres; coarser when the rectangle would need more than ``maximumCells``.
    static let maximumCellMeters = 1.0
    static let maximumCells = 4_000_000

    let rect: SceneRect
    let cell: Double
    let columns: Int, rows: Int
    private var covered: [Bool]

    /// An empty grid over `rect` (a rectangle of no area has no cells).
    init(rect: SceneRect) {
        self.rect = rect
        let width = max(0, rect.maxEast - rect.minEast), height = max(0, rect.maxNorth - rect.minNorth)
        cell = max(Self.maximumCellMeters, (width * height / Double(Self.maximumCells)).squareRoot())
        columns = Int((width / cell).rounded(.up)); rows = Int((height / cell).rounded(.up))
        covered = [Bool](repeating: false, count: max(0, columns * rows))
    }

    /// Fills a polygon: its outer ring and holes (scene metres, any orientation). A cell counts as
    /// covered when its centre is inside.
    mutating func fill(outer: [(x: Double, y: Double)], holes: [[(x: Double, y: Double)]]) {
        guard outer.count >= 3, columns > 0, rows > 0 else { return }
        let rings = [outer] + holes.filter { $0.count >= 3 }
        let lowY = outer.map(\.y).min()!, highY = outer.map(\.y).max()!
        let firstRow = max(0, Int(((lowY - rect.minNorth) / cell - 0.5).rounded(.up)))
        let lastRow = min(rows - 1, Int(((highY - rect.minNorth) / cell - 0.5).rounded(.down)))
        guard firstRow <= lastRow else { return }
        var crossings: [Double] = []
        for row in firstRow...lastRow {
            let y = rect.minNorth + (Double(row) + 0.5) * cell
            crossings.removeAll(keepingCapacity: true)
            for ring in rings {
                var j = ring.count - 1
                for i in 0..<ring.count {
                    let a = ring[i], b = ring[j]
                    if (a.y > y) != (b.y > y) { crossings.append(a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)) }
                    j = i
                }
            }
            crossings.sort()
            var k = 0
            while k + 1 < crossings.count {
                let first = max(0, Int(((crossings[k] - rect.minEast) / cell - 0.5).rounded(.up)))
                let last = min(columns - 1, Int(((crossings[k + 1] - rect.minEast) / cell - 0.5).rounded(.down)))
                if first <= last { for column in first...last { covered[row * columns + column] = true } }
                k += 2
            }
        }
    }

    /// The covered share of the rectangle, 0…1 (0 for a rectangle of no area).
    var share: Double {
        guard !covered.isEmpty else { return 0 }
        return Double(covered.reduce(0) { $0 + ($1 ? 1 : 0) }) / Double(covered.count)
    }

    /// The rectangle's area, square metres.
    var areaSquareMeters: Double { max(0, rect.maxEast - rect.minEast) * max(0, rect.maxNorth - rect.minNorth) }
}
