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

    /// Below this the viewer only says that the terminal is too small.
    public static let minimumColumns = 20, minimumRows = 8
    /// Kitty scales an image to its cells: frames larger than this are rendered smaller (pixels).
    public static let kittyPixelBudget = 1280 * 800
    /// The cell size assumed when the terminal does not say.
    public static let defaultCellPixelSize = PixelSize(width: 8, height: 16)

    public init(columns: Int, rows: Int, outputProtocol: OutputProtocol, cellPixelSize: PixelSize? = nil) {
        self.columns = columns
        self.rows = rows
        self.outputProtocol = outputProtocol
        self.cellPixelSize = cellPixelSize.flatMap { $0.width > 0 && $0.height > 0 ? $0 : nil } ?? Self.defaultCellPixelSize
    }

    public var isTooSmall: Bool { columns < Self.minimumColumns || rows < Self.minimumRows }
    /// Kitty or sixel (the picture is an image, text goes around it).
    public var isGraphics: Bool { outputProtocol.colorDepth == nil }
    /// The first row of the picture: 0 in the text modes, 1 under the message row for graphics.
    public var pictureTopRow: Int { isGraphics ? 1 : 0 }
    public var pictureRows: Int { max(1, rows - 1 - pictureTopRow) }
    public var statusRow: Int { rows - 1 }
    /// The row messages go on: over the picture's last row in text modes, the top row for graphics.
    public var messageRow: Int { isGraphics ? 0 : pictureRows - 1 }

    /// The size the picture is rendered at: one pixel per half cell in the text modes; the cells'
    /// pixels for sixel (it cannot scale); for kitty the same, within ``kittyPixelBudget``.
    public var picturePixelSize: PixelSize {
        guard isGraphics else { return PixelSize(width: columns, height: 2 * pictureRows) }
        var w = Double(columns * cellPixelSize.width), h = Double(pictureRows * cellPixelSize.height)
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
        return (Double(size.width) / Double(columns), Double(size.height) / Double(pictureRows))
    }

    /// The screen cell showing picture pixel (x, y).
    public func cell(pictureX x: Double, y: Double) -> (column: Int, row: Int) {
        let p = pixelsPerCell
        return (Int((x / p.x).rounded(.down)), pictureTopRow + Int((y / p.y).rounded(.down)))
    }

    /// The picture pixel at the centre of screen cell (`column`, `row`); nil outside the picture.
    public func picturePoint(column: Int, row: Int) -> (x: Double, y: Double)? {
        guard (0..<columns).contains(column), (pictureTopRow..<pictureTopRow + pictureRows).contains(row) else { return nil }
        let p = pixelsPerCell
        return ((Double(column) + 0.5) * p.x, (Double(row - pictureTopRow) + 0.5) * p.y)
    }
}

extension ViewerLayout {
    /// The layout a session starts with: the window's size, the protocol `choice` resolves to on the
    /// detected terminal, its cell size.
    init(session: TerminalSession, capabilities: TerminalCapabilities, choice: OutputProtocolChoice) {
        let size = session.size
        self.init(columns: size.columns, rows: size.rows, outputProtocol: capabilities.resolve(choice).protocol,
                  cellPixelSize: capabilities.cellPixelSize)
    }
}
