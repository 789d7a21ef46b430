import Foundation
import Imaging
import LookAround
import Terminal

/// Turns rendered views into the bytes of one write: the picture as half-block cells (only the
/// cells that changed) or as a kitty/sixel image, and the text around and over it — labels, the
/// message, the status line, the help.
struct ViewerScreen {
    var presenter = FramePresenter(synchronizedOutput: false)
    var kitty: KittyGraphicsEncoder
    let sixel = SixelEncoder()
    /// Whether the terminal may get mode 2026 (harmless where unknown).
    var synchronizedOutput = true
    /// The image is on the screen (graphics protocols): the help screen and the too-small message remove it.
    private var imageShown = false

    init(kittyTransmission: KittyGraphicsEncoder.Transmission) {
        kitty = KittyGraphicsEncoder(transmission: kittyTransmission)
    }

    /// Repaint everything next time (resize, resume, Ctrl-L).
    mutating func invalidate() {
        presenter.invalidate()
        imageShown = false
    }

    /// The status line: street, panorama, capture date, heading, field of view, sequence position.
    static func statusText(state: ViewerState, street: String?, sequencePosition: String?, mapShown: Bool) -> (left: String, right: String) {
        let match = state.scene.match
        var parts: [String] = []
        if let street { parts.append(street) }
        parts.append(match.panoramaID)
        let date = String(match.captureTime.prefix(10))
        if !date.hasPrefix("1970") { parts.append(date) }
        let heading = Int(state.headingDegrees.rounded()) % 360
        parts.append("heading \(heading)° \(compassPoint(state.headingDegrees))")
        parts.append("pitch \(Int(state.pitchDegrees.rounded()))°")
        parts.append("fov \(Int(state.fieldOfViewDegrees.rounded()))°")
        if let sequencePosition { parts.append(sequencePosition) }
        let right = (mapShown ? "© OpenStreetMap contributors  " : "") + "? keys  q quit"
        return (" " + parts.joined(separator: " · "), right + " ")
    }

    /// The 16-wind compass point of a heading ("N", "NNE", …).
    static func compassPoint(_ degrees: Double) -> String {
        let points = ["N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW"]
        let i = Int((ViewerState.normalized(degrees) / 22.5).rounded()) % 16
        return points[i]
    }

    static let statusBackground = CellColor.rgb(24, 26, 32)
    static let statusForeground = CellColor.rgb(230, 232, 236)

    /// The screen of any picture: its half-block cells (text modes) or blanks (graphics, where the image
    /// goes), the message and the status line.
    static func cells(layout: ViewerLayout, picture: RGB8Image, status: (left: String, right: String), message: String?) -> CellFrame {
        var frame = CellFrame(columns: layout.columns, rows: layout.rows)
        if !layout.isGraphics, let depth = layout.outputProtocol.colorDepth {
            let pictureCells = CellFrame(halfBlocks: picture, colors: depth)
            let n = min(pictureCells.cells.count, layout.pictureRows * layout.columns)
            frame.cells.replaceSubrange(0..<n, with: pictureCells.cells[0..<n])
        }
        if let message {
            let text = " " + message + " "
            frame.draw(text, column: max(0, (layout.columns - text.count) / 2), row: layout.messageRow,
                       foreground: .rgb(255, 255, 255), background: .rgb(150, 40, 40))
        }
        // Status line: left part, right part, background across the row.
        let row = layout.statusRow
        frame.draw(String(repeating: " ", count: layout.columns), column: 0, row: row, background: Self.statusBackground)
        let right = status.right.count + status.left.count < layout.columns ? status.right : ""
        frame.draw(status.left, column: 0, row: row, foreground: Self.statusForeground, background: Self.statusBackground)
        frame.draw(right, column: layout.columns - right.count, row: row, foreground: .rgb(150, 156, 168), background: Self.statusBackground)
        return frame
    }

    /// The viewer's screen: ``cells(layout:picture:status:message:)`` with the labels as text cells and
    /// the map inset's status.
    func cells(for view: RenderedView, picture: RGB8Image, status: (left: String, right: String), message: String?,
               mapStatus: String?) -> CellFrame {
        let layout = view.layout
        var frame = Self.cells(layout: layout, picture: picture, status: status, message: nil)
        if !layout.isGraphics, let depth = layout.outputProtocol.colorDepth {
            // Labels under the map inset are hidden by it.
            let inset: (columns: Range<Int>, rows: Range<Int>)? = view.state.showsMap ? {
                let rect = ViewerMap.insetRect(in: layout)
                let a = layout.cell(showing: PixelPoint(x: Double(rect.x), y: Double(rect.y)))
                let b = layout.cell(showing: PixelPoint(x: Double(rect.x + rect.width), y: Double(rect.y + rect.height)))
                return (a.column..<b.column + 1, a.row..<b.row + 1)
            }() : nil
            for label in view.placeLabels + view.roadLabels
            where !(inset.map { $0.rows.contains(label.row) && $0.columns.overlaps(label.columns) } ?? false) {
                let c = label.color
                frame.draw(" \(label.name) ", column: label.columns.lowerBound, row: label.row, foreground: .rgb(255, 255, 255),
                           background: Self.color(c, depth: depth))
            }
        }
        if view.state.showsMap, let mapStatus {
            let rect = ViewerMap.insetRect(in: layout)
            let cell = layout.cell(showing: PixelPoint(x: Double(rect.x), y: Double(rect.y)))
            frame.draw(" \(mapStatus) ", column: max(0, min(cell.column, layout.columns - mapStatus.count - 2)), row: cell.row,
                       foreground: Self.statusForeground, background: Self.statusBackground)
        }
        if let message {
            let text = " " + message + " "
            frame.draw(text, column: max(0, (layout.columns - text.count) / 2), row: layout.messageRow,
                       foreground: .rgb(255, 255, 255), background: .rgb(150, 40, 40))
        }
        return frame
    }

    /// A label colour for the text modes (the palette's nearest when there are 256 colours).
    static func color(_ c: RGBAColor, depth: ColorDepth) -> CellColor {
        depth == .palette256 ? .indexed(XtermPalette.shared.nearestIndex(red: c.red, green: c.green, blue: c.blue))
                             : .rgb(c.red, c.green, c.blue)
    }

    /// The help screen over the view (text modes) or instead of it (graphics).
    static func helpFrame(over frame: CellFrame) -> CellFrame {
        var frame = frame
        let lines = ["lookaround view — keys", ""] + ViewerKeys.helpLines
            + ["", "street data © OpenStreetMap contributors", "any key closes this help"]
        let width = min(frame.columns - 2, (lines.map(\.count).max() ?? 0) + 4)
        let top = max(0, (frame.rows - lines.count - 2) / 2), left = max(0, (frame.columns - width) / 2)
        for r in 0..<min(frame.rows - 1, lines.count + 2) {
            let text = r == 0 || r > lines.count ? "" : "  " + lines[r - 1]
            let padded = text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
            frame.draw(padded, column: left, row: top + r, foreground: .rgb(235, 235, 240), background: .rgb(30, 34, 44))
        }
        return frame
    }

    /// The message shown when the window is below the minimum.
    static func tooSmallFrame(columns: Int, rows: Int) -> CellFrame {
        var frame = CellFrame(columns: max(1, columns), rows: max(1, rows))
        let lines = ["too small:", "\(columns)×\(rows) cells,", "\(ViewerLayout.minimumColumns)×\(ViewerLayout.minimumRows) needed", "(q quits)"]
        for (i, line) in lines.enumerated() where i < rows {
            frame.draw(line, column: max(0, (columns - line.count) / 2), row: max(0, (rows - lines.count) / 2) + i)
        }
        return frame
    }

    /// The bytes that show `frame` (text) and, for graphics, `picture` when `pictureChanged`.
    mutating func bytes(frame: CellFrame, picture: RGB8Image?, layout: ViewerLayout, pictureChanged: Bool) throws -> [UInt8] {
        var out: [UInt8] = []
        if synchronizedOutput { out += Array(ControlSequence.beginSynchronizedUpdate.utf8) }
        if layout.isGraphics, picture == nil, imageShown {
            // Help or too small: the image goes, the whole screen is text.
            if layout.outputProtocol == .kitty { out += kitty.deleteSequence }
            presenter.invalidate()
            imageShown = false
        }
        out += presenter.bytes(for: frame)
        if layout.isGraphics, let picture, pictureChanged || !imageShown {
            out += Array("\u{1B}[\(layout.pictureTopRow + 1);\(layout.pictureLeftColumn + 1)H".utf8)
            switch layout.outputProtocol {
            case .kitty: out += try kitty.encode(picture, columns: layout.columns, rows: layout.pictureRows)
            default: out += try sixel.encode(picture)
            }
            imageShown = true
        }
        if synchronizedOutput { out += Array(ControlSequence.endSynchronizedUpdate.utf8) }
        return out
    }

    /// What to send when leaving: the kitty image deleted, shared memory released.
    mutating func finish(layout: ViewerLayout) -> [UInt8] {
        defer { kitty.releaseSharedMemory() }
        return imageShown && layout.outputProtocol == .kitty ? kitty.deleteSequence : []
    }
}
