@testable import Terminal
import TestSupport

/// A tiny terminal written for the tests, independent of the encoders: it interprets CUP (`ESC [ r ; c H`),
/// CUF (`ESC [ n C`), ED 2 (`ESC [ 2 J`), SGR 0 / 38;2 / 48;2 / 38;5 / 48;5 / 39 / 49, private modes
/// (ignored) and UTF-8 text, with autowrap off, into a grid of cells. Anything else fails the parse.
struct VirtualScreen {
    let columns: Int, rows: Int
    var cells: [TerminalCell]
    var row = 0, column = 0
    var foreground = CellColor.terminalDefault, background = CellColor.terminalDefault

    init(columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        cells = Array(repeating: .blank, count: columns * rows)
    }

    struct ParseError: Error, CustomStringConvertible { var description: String }

    mutating func apply(_ bytes: [UInt8]) throws {
        let scalars = Array(String(decoding: bytes, as: UTF8.self).unicodeScalars)
        var i = 0
        while i < scalars.count {
            let s = scalars[i]
            if s == "\u{1B}" {
                guard i + 1 < scalars.count, scalars[i + 1] == "[" else { throw ParseError(description: "ESC not followed by [ at \(i)") }
                var j = i + 2
                var parameters = ""
                while j < scalars.count, !(0x40...0x7E).contains(scalars[j].value) { parameters.unicodeScalars.append(scalars[j]); j += 1 }
                guard j < scalars.count else { throw ParseError(description: "unterminated CSI") }
                try csi(parameters, final: scalars[j])
                i = j + 1
                continue
            }
            if row < rows, column < columns {
                cells[row * columns + column] = TerminalCell(s, foreground: foreground, background: background)
            }
            if column < columns - 1 { column += 1 } else { column = columns }  // autowrap off: stay at the edge
            i += 1
        }
    }

    private mutating func csi(_ parameters: String, final: Unicode.Scalar) throws {
        if parameters.hasPrefix("?") { return }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        switch final {
        case "H":
            row = (numbers.first.flatMap { $0 } ?? 1) - 1
            column = (numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1
        case "C": column = min(columns - 1, column + (numbers.first.flatMap { $0 } ?? 1))
        case "J": cells = Array(repeating: .blank, count: columns * rows)
        case "m":
            try applySelectGraphicRendition(numbers.map { $0 ?? 0 }, foreground: &foreground, background: &background) {
                throw ParseError(description: $0)
            }
        default: throw ParseError(description: "CSI \(parameters)\(final)")
        }
    }

    /// The top-left `frame.columns × frame.rows` cells as a frame.
    func frame(columns c: Int, rows r: Int) -> CellFrame {
        var f = CellFrame(columns: c, rows: r)
        for y in 0..<r { for x in 0..<c { f[x, y] = cells[y * columns + x] } }
        return f
    }
}
