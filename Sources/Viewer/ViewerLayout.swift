import Imaging
import Terminal

/// Where things go on the screen: the picture, the message row (graphics protocols only: text over a
/// kitty or sixel image would be hidden), the status line in the last row.
public struct ViewerLayout: Sendable, Equatable {
    /// The window in cells.
    public var columns: Int
    public var rows: Int
    public var outputProtocol: OutputProtocol
    /// Pixels per cell for the graphics protocols (the terminal's answer, else 8×16).
    public var cellPixelSize: PixelSize
    /// The largest sixel image the terminal shows (its XTSMGRAPHICS answer, else
    /// ``assumedSixelPixelLimit``): a sixel picture is fitted inside it, in whole cells, and centred.
    public var sixelPixelLimit: PixelSize

    /// Below this the viewer only says that the terminal is too small.
    public static let minimumColumns = 20, minimumRows = 8
    /// Kitty scales an image to its cells: frames larger than this are rendered smaller (pixels).
    public static let kittyPixelBudget = 1280 * 800
    /// The cell size assumed when the terminal does not say.
    public static let defaultCellPixelSize = PixelSize(width: 8, height: 16)
    /// The sixel limit assumed when the terminal does not say (only with `--protocol sixel`: `auto`
    /// takes half-blocks then): xterm's default `maxGraphicSize`, the smallest limit known.
    public static let assumedSixelPixelLimit = PixelSize(width: 1000, height: 1000)

    public init(columns: Int, rows: Int, outputProtocol: OutputProtocol, cellPixelSize: PixelSize? = nil,
                sixelPixelLimit: PixelSize? = nil) {
        self.columns = columns
        self.rows = rows
        self.outputProtocol = outputProtocol
        self.cellPixelSize = cellPixelSize.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? Self.defaultCellPixelSize
        self.sixelPixelLimit = sixelPixelLimit.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? Self.assumedSixelPixelLimit
    }

    public var isTooSmall: Bool { columns < Self.minimumColumns || rows < Self.minimumRows }
    /// Kitty or sixel (the picture is an image, text goes around it).
    public var isGraphics: Bool { outputProtocol.colorDepth == nil }
    /// The rows between the message row (graphics) and the status line: the most the picture can take.
    private var pictureAreaRows: Int { max(1, rows - 1 - (isGraphics ? 1 : 0)) }
    /// The picture's width in cells: the window's, or for sixel as many as ``sixelPixelLimit`` allows.
    public var pictureColumns: Int {
        guard outputProtocol == .sixel else { return columns }
        return max(1, min(columns, sixelPixelLimit.width / cellPixelSize.width))
    }
    /// The picture's height in cells: the rows between message and status, or fewer for sixel (the limit).
    public var pictureRows: Int {
        guard outputProtocol == .sixel else { return pictureAreaRows }
        return max(1, min(pictureAreaRows, sixelPixelLimit.height / cellPixelSize.height))
    }
    /// The picture's first column: 0, or centred when a sixel picture is narrower than the window.
    public var pictureLeftColumn: Int { (columns - pictureColumns) / 2 }
    /// The picture's first row: 0 in the text modes, 1 under the message row for graphics (further
    /// down, centred, when a sixel picture is shorter than the room).
    public var pictureTopRow: Int { (isGraphics ? 1 : 0) + (pictureAreaRows - pictureRows) / 2 }
    /// True when the picture leaves part of the window empty (a sixel limit below the window).
    public var pictureIsFitted: Bool { pictureColumns < columns || pictureRows < pictureAreaRows }
    public var statusRow: Int { rows - 1 }
    /// The row messages go on: over the picture's last row in text modes, the top row for graphics.
    public var messageRow: Int { isGraphics ? 0 : pictureRows - 1 }

    /// The size the picture is rendered at: one pixel per half cell in the text modes; the cells'
    /// pixels for sixel (it cannot scale; within the terminal's limit by ``pictureColumns`` and
    /// ``pictureRows``); for kitty the same, within ``kittyPixelBudget``.
    public var picturePixelSize: PixelSize {
        guard isGraphics else { return PixelSize(width: columns, height: 2 * pictureRows) }
        var w = Double(pictureColumns * cellPixelSize.width), h = Double(pictureRows * cellPixelSize.height)
        if outputProtocol == .kitty, w * h > Double(Self.kittyPixelBudget) {
            let s = (Double(Self.kittyPixelBudget) / (w * h)).squareRoot()
            w *= s
            h *= s
        }
        return PixelSize(width: max(1, Int(w)), height: max(1, Int(h)))
    }

    /// Picture pixels per cell, horizontally and vertically.
    var pixelsPerCell: (x: Double, y: Double) {
        let size = picturePixelSize
        return (Double(size.width) / Double(pictureColumns), Double(size.height) / Double(pictureRows))
    }

    /// The screen cell showing picture pixel `point`.
    public func cell(showing point: PixelPoint) -> (column: Int, row: Int) {
        let p = pixelsPerCell
        return (pictureLeftColumn + Int((point.x / p.x).rounded(.down)), pictureTopRow + Int((point.y / p.y).rounded(.down)))
    }

    /// The picture pixel at the centre of screen cell (`column`, `row`); nil outside the picture.
    public func picturePoint(column: Int, row: Int) -> PixelPoint? {
        guard (pictureLeftColumn..<pictureLeftColumn + pictureColumns).contains(column),
              (pictureTopRow..<pictureTopRow + pictureRows).contains(row) else { return nil }
        let p = pixelsPerCell
        return PixelPoint(x: (Double(column - pictureLeftColumn) + 0.5) * p.x, y: (Double(row - pictureTopRow) + 0.5) * p.y)
    }
}

extension ViewerLayout {
    /// The layout a session starts with: the window's size, the protocol `choice` resolves to on the
    /// detected terminal, its cell size.
    init(session: TerminalSession, capabilities: TerminalCapabilities, choice: OutputProtocolChoice) {
        let size = session.size
        self.init(columns: size.columns, rows: size.rows, outputProtocol: capabilities.resolve(choice).protocol,
                  cellPixelSize: capabilities.cellPixelSize, sixelPixelLimit: capabilities.sixelMaximumPixelSize)
    }
}
