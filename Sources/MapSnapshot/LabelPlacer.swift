import Imaging

/// Keeps labels from colliding: remembers the boxes already taken (pixels) in a coarse grid and
/// answers whether a new box is free.
struct LabelPlacer: Sendable {
    private let cell = 64.0
    private let columns: Int, rows: Int
    private var boxes: [PixelRect] = []
    private var grid: [[Int32]]

    init(width: Int, height: Int) {
        columns = max(1, Int((Double(width) / cell).rounded(.up)))
        rows = max(1, Int((Double(height) / cell).rounded(.up)))
        grid = Array(repeating: [], count: columns * rows)
    }

    private func cells(_ b: PixelRect) -> (ClosedRange<Int>, ClosedRange<Int>)? {
        let x0 = max(0, Int(b.minX / cell)), x1 = min(columns - 1, Int(b.maxX / cell))
        let y0 = max(0, Int(b.minY / cell)), y1 = min(rows - 1, Int(b.maxY / cell))
        guard x0 <= x1, y0 <= y1 else { return nil }
        return (x0...x1, y0...y1)
    }

    /// Whether `box` overlaps no taken box.
    func isFree(_ box: PixelRect) -> Bool {
        guard let (xs, ys) = cells(box) else { return true }
        for y in ys { for x in xs { for i in grid[y * columns + x] where boxes[Int(i)].overlaps(box) { return false } } }
        return true
    }

    /// Marks `box` as taken.
    mutating func take(_ box: PixelRect) {
        let index = Int32(boxes.count)
        boxes.append(box)
        guard let (xs, ys) = cells(box) else { return }
        for y in ys { for x in xs { grid[y * columns + x].append(index) } }
    }

    /// Takes `box` if it is free; returns whether it did.
    mutating func place(_ box: PixelRect) -> Bool {
        guard isFree(box) else { return false }
        take(box)
        return true
    }
}
