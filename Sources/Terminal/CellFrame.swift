import Imaging

/// The colour of a character cell's foreground or background: 24-bit RGB, an index into the
/// terminal's 256-colour palette, or the terminal's own default. Packed in one word so that a frame of
/// cells compares and diffs quickly.
public struct CellColor: Hashable, Sendable, CustomStringConvertible {
    /// Bits 24…31: the kind (0 default, 1 RGB, 2 palette index); bits 0…23: `RRGGBB` or the index.
    public let rawValue: UInt32

    @inlinable init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The terminal's default colour (SGR 39 / 49).
    public static let terminalDefault = CellColor(rawValue: 0)

    /// A 24-bit sRGB colour (SGR `38;2;R;G;B` / `48;2;R;G;B`).
    @inlinable public static func rgb(_ red: UInt8, _ green: UInt8, _ blue: UInt8) -> CellColor {
        CellColor(rawValue: 0x0100_0000 | UInt32(red) << 16 | UInt32(green) << 8 | UInt32(blue))
    }

    /// Entry `index` of the xterm 256-colour palette (SGR `38;5;N` / `48;5;N`).
    @inlinable public static func indexed(_ index: UInt8) -> CellColor { CellColor(rawValue: 0x0200_0000 | UInt32(index)) }

    /// The RGB components when this is an RGB colour.
    public var rgb: (red: UInt8, green: UInt8, blue: UInt8)? {
        rawValue >> 24 == 1 ? (UInt8(truncatingIfNeeded: rawValue >> 16), UInt8(truncatingIfNeeded: rawValue >> 8),
                               UInt8(truncatingIfNeeded: rawValue)) : nil
    }

    /// The palette index when this is a palette colour.
    public var paletteIndex: UInt8? { rawValue >> 24 == 2 ? UInt8(truncatingIfNeeded: rawValue) : nil }

    public var description: String {
        if let c = rgb { return "rgb(\(c.red),\(c.green),\(c.blue))" }
        if let i = paletteIndex { return "palette(\(i))" }
        return "default"
    }
}

/// One character cell: a character (one Unicode scalar, one column wide) with its colours.
public struct TerminalCell: Hashable, Sendable {
    public var character: Unicode.Scalar
    public var foreground: CellColor
    public var background: CellColor

    public init(_ character: Unicode.Scalar, foreground: CellColor = .terminalDefault, background: CellColor = .terminalDefault) {
        self.character = character
        self.foreground = foreground
        self.background = background
    }

    /// A space in the default colours.
    public static let blank = TerminalCell(" ")
    /// U+2580 UPPER HALF BLOCK: the foreground paints the upper half of the cell, the background the lower.
    public static let upperHalfBlock: Unicode.Scalar = "\u{2580}"
}

/// A rectangle of character cells, row after row: what the text modes (half-blocks, status lines,
/// labels drawn as text) put on the screen. A viewer renders its picture into one with
/// `CellFrame(halfBlocks:colors:)`, draws text over it with `draw(_:column:row:…)` and hands it to a
/// `FramePresenter`, which sends only the cells that changed since the last frame.
public struct CellFrame: Sendable, Equatable {
    /// Width in cells (≥ 1).
    public let columns: Int
    /// Height in cells (≥ 1).
    public let rows: Int
    /// `columns × rows` cells, top row first.
    public var cells: [TerminalCell]

    /// A frame filled with `fill`. Sizes come from code: a non-positive size is a programmer error.
    public init(columns: Int, rows: Int, fill: TerminalCell = .blank) {
        precondition(columns > 0 && rows > 0, "cell frame size must be positive, got \(columns)×\(rows)")
        self.columns = columns
        self.rows = rows
        self.cells = [TerminalCell](repeating: fill, count: columns * rows)
    }

    /// The cell at (`column`, `row`), both 0-based (bounds-checked).
    public subscript(column: Int, row: Int) -> TerminalCell {
        get { cells[row * columns + column] }
        set { cells[row * columns + column] = newValue }
    }

    /// Writes `text` from (`column`, `row`) to the right, one Unicode scalar per cell, clipped at the
    /// frame's edges (wide characters such as CJK are not measured: they would take two columns).
    /// - Parameter background: nil keeps each cell's background (text over the picture).
    public mutating func draw(_ text: String, column: Int, row: Int, foreground: CellColor = .rgb(255, 255, 255),
                              background: CellColor? = nil) {
        guard (0..<rows).contains(row) else { return }
        var x = column
        for scalar in text.unicodeScalars {
            if x >= columns { break }
            if x >= 0 {
                let i = row * columns + x
                cells[i] = TerminalCell(scalar, foreground: foreground, background: background ?? cells[i].background)
            }
            x += 1
        }
    }
}

/// How many colours a text-mode frame uses.
public enum ColorDepth: String, Sendable, CaseIterable {
    /// 24-bit RGB (SGR 38;2 / 48;2).
    case truecolor
    /// The xterm 256-colour palette's cube and grey ramp (indices 16…255), nearest in OKLab.
    case palette256
}

extension CellFrame {
    /// The image as half-block cells: cell (x, y) shows pixel (x, 2y) as the foreground of "▀" and
    /// pixel (x, 2y+1) as its background, so the frame is `image.width` columns by
    /// ⌈`image.height` / 2⌉ rows (an odd last pixel row gets the default background).
    /// Resize the image first (the frame does not scale): a 160×48-cell frame is a 160×96 image.
    /// - Complexity: O(pixels); truecolor is a copy, `.palette256` a nearest-colour search per pixel.
    public init(halfBlocks image: RGB8Image, colors: ColorDepth = .truecolor) {
        let columns = image.width, rows = (image.height + 1) / 2
        self.init(columns: columns, rows: rows)
        let height = image.height
        let palette = colors == .palette256 ? XtermPalette.shared : nil
        image.components.withUnsafeBufferPointer { px in
            cells.withUnsafeMutableBufferPointer { out in
                for y in 0..<rows {
                    let top = 2 * y * columns * 3, bottom = (2 * y + 1) * columns * 3
                    let hasBottom = 2 * y + 1 < height
                    for x in 0..<columns {
                        let t = top + 3 * x, b = bottom + 3 * x
                        var fg = CellColor.rgb(px[t], px[t + 1], px[t + 2])
                        var bg = hasBottom ? CellColor.rgb(px[b], px[b + 1], px[b + 2]) : .terminalDefault
                        if let palette {
                            fg = .indexed(palette.nearestIndex(red: px[t], green: px[t + 1], blue: px[t + 2]))
                            if hasBottom { bg = .indexed(palette.nearestIndex(red: px[b], green: px[b + 1], blue: px[b + 2])) }
                        }
                        out[y * columns + x] = TerminalCell(TerminalCell.upperHalfBlock, foreground: fg, background: bg)
                    }
                }
            }
        }
    }
}
