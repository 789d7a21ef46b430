import Imaging

/// Text for signs, rendered once with `TextRenderer` into one grey coverage atlas (255 = text).
/// Each entry is a rectangle of the atlas; the shader maps a sign's face onto it.
struct SignAtlas: Sendable {
    /// Coverage, row-major, `width × height` bytes.
    var coverage: [UInt8]
    var width: Int
    var height: Int
    /// Rectangles (x, y, w, h) in pixels, by entry index.
    var entries: [(x: Int, y: Int, w: Int, h: Int)]

    static let atlasWidth = 2048
    /// Height of one text line's box in atlas pixels.
    static let lineHeight = 40

    /// An empty atlas.
    init() { coverage = [0]; width = 1; height = 1; entries = [] }

    /// Renders `lines` (one or two) as an entry; returns its index and its aspect (width / height).
    mutating func add(lines: [String], renderer: TextRenderer) throws -> (index: Int, aspect: Double) {
        let pixelSize = 27.0
        let style = TextStyle(pixelSize: pixelSize, weight: .bold, color: .white)
        let small = TextStyle(pixelSize: 20, weight: .regular, color: .white)
        let styles = lines.indices.map { $0 == 0 ? style : small }
        var widthNeeded = 0.0
        for (line, s) in zip(lines, styles) { widthNeeded = max(widthNeeded, try renderer.measure(line, style: s).advanceWidth) }
        let w = min(Self.atlasWidth, Int(widthNeeded.rounded(.up)) + 24)
        let h = lines.count == 1 ? Self.lineHeight : Self.lineHeight + 26
        var canvas = Canvas(width: w, height: h, background: .clear)
        var baseline = 29.0
        for (line, s) in zip(lines, styles) {
            let m = try renderer.measure(line, style: s)
            try renderer.draw(line, at: PixelPoint(x: (Double(w) - m.advanceWidth) / 2, y: baseline), style: s, on: &canvas)
            baseline += 25
        }
        // Shelf packing: entries go left to right, a new shelf when a row is full.
        var x = 0, y = 0
        if let last = entries.last {
            x = last.x + last.w; y = last.y
            if x + w > Self.atlasWidth { x = 0; y = height }
        }
        if entries.isEmpty { coverage = []; height = 0; width = Self.atlasWidth }
        let shelfBottom = y + max(h, Self.lineHeight + 26)
        if shelfBottom > height {
            coverage.append(contentsOf: [UInt8](repeating: 0, count: (shelfBottom - height) * width))
            height = shelfBottom
        }
        let image = canvas.image
        for row in 0..<h {
            for col in 0..<w { coverage[(y + row) * width + x + col] = image.components[(row * w + col) * 4 + 3] }
        }
        entries.append((x, y, w, h))
        return (entries.count - 1, Double(w) / Double(h))
    }

    /// Entries as flat integers (x, y, w, h per entry) for the shader's pointer.
    var flatEntries: [Int32] { entries.flatMap { [Int32($0.x), Int32($0.y), Int32($0.w), Int32($0.h)] } + [0, 0, 1, 1] }

    /// Bilinear coverage (0…1) of entry `index` at (s, t) in [0, 1]², t = 0 at the top, reading the
    /// coverage through `pointer` (row length `width`) and the rectangles through `entries`.
    @inline(__always)
    static func sample(_ index: Int, s: Float, t: Float, pointer: UnsafePointer<UInt8>, width: Int, entries: UnsafePointer<Int32>) -> Float {
        let e = (x: Int(entries[4 * index]), y: Int(entries[4 * index + 1]), w: Int(entries[4 * index + 2]), h: Int(entries[4 * index + 3]))
        let fx = Swift.min(Swift.max(s, 0), 1) * Float(e.w) - 0.5, fy = Swift.min(Swift.max(t, 0), 1) * Float(e.h) - 0.5
        let x0 = Int(fx.rounded(.down)), y0 = Int(fy.rounded(.down))
        let ax = fx - Float(x0), ay = fy - Float(y0)
        func at(_ x: Int, _ y: Int) -> Float {
            let cx = Swift.min(Swift.max(x, 0), e.w - 1), cy = Swift.min(Swift.max(y, 0), e.h - 1)
            return Float(pointer[(e.y + cy) * width + e.x + cx])
        }
        let top = at(x0, y0) * (1 - ax) + at(x0 + 1, y0) * ax
        let bottom = at(x0, y0 + 1) * (1 - ax) + at(x0 + 1, y0 + 1) * ax
        return (top * (1 - ay) + bottom * ay) * (1 / 255)
    }
}
