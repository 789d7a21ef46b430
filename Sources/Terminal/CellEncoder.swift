/// Turns cell frames into the bytes that draw them: cursor positions (CUP, CUF), SGR colours only where
/// they change, and UTF-8 characters.
///
/// Byte forms (one set, so tests can hold golden strings):
/// - a full repaint positions the cursor at the start of every row (`ESC [ row ; col H`);
/// - a diff positions it only before a run of changed cells: `ESC [ row ; col H` on another row,
///   `ESC [ n C` forward on the same row;
/// - colours: `ESC [ 38;2;R;G;B m`, `48;2;…`, `38;5;N`, `48;5;N`, `39`, `49`; both in one SGR when
///   both change (`ESC [ 38;2;…;48;2;… m`);
/// - the frame ends with `ESC [ 0 m`, and the colour state is unknown at the start of each frame.
public enum CellEncoder {
    /// Appends the bytes that paint all of `frame` with its top-left cell at screen cell
    /// (`originColumn`, `originRow`), 0-based.
    public static func appendFullRepaint(of frame: CellFrame, originColumn: Int = 0, originRow: Int = 0,
                                         to bytes: inout [UInt8]) {
        var state = SGRState()
        frame.cells.withUnsafeBufferPointer { cells in
            for row in 0..<frame.rows {
                bytes.appendCursorPosition(row: originRow + row, column: originColumn)
                for column in 0..<frame.columns {
                    let cell = cells[row * frame.columns + column]
                    state.append(cell, to: &bytes)
                }
            }
        }
        bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D])
    }

    /// Appends the bytes that turn a screen showing `previous` into one showing `frame` (same size):
    /// only changed cells, with cursor moves between runs. Nothing (not even the SGR reset) when no
    /// cell changed.
    public static func appendDifference(from previous: CellFrame, to frame: CellFrame, originColumn: Int = 0,
                                        originRow: Int = 0, to bytes: inout [UInt8]) {
        precondition(previous.columns == frame.columns && previous.rows == frame.rows,
                     "a diff needs frames of one size: \(previous.columns)×\(previous.rows) and \(frame.columns)×\(frame.rows)")
        var state = SGRState()
        var any = false
        frame.cells.withUnsafeBufferPointer { cells in
            previous.cells.withUnsafeBufferPointer { old in
                for row in 0..<frame.rows {
                    var cursor = -1  // the column the cursor is at on this row, -1 unknown
                    for column in 0..<frame.columns {
                        let i = row * frame.columns + column
                        let cell = cells[i]
                        if cell == old[i] { continue }
                        any = true
                        if cursor < 0 {
                            bytes.appendCursorPosition(row: originRow + row, column: originColumn + column)
                        } else if cursor < column {
                            bytes.appendCursorForward(column - cursor)
                        }
                        state.append(cell, to: &bytes)
                        cursor = column + 1
                    }
                }
            }
        }
        if any { bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D]) }
    }

    /// The SGR colours last sent within one frame.
    struct SGRState {
        var foreground: CellColor?
        var background: CellColor?

        mutating func append(_ cell: TerminalCell, to bytes: inout [UInt8]) {
            let fg = foreground != cell.foreground, bg = background != cell.background
            if fg || bg {
                bytes.append(0x1B); bytes.append(0x5B)
                if fg { bytes.appendSGRColor(cell.foreground, base: 30) }
                if fg && bg { bytes.append(0x3B) }
                if bg { bytes.appendSGRColor(cell.background, base: 40) }
                bytes.append(0x6D)
                foreground = cell.foreground
                background = cell.background
            }
            bytes.appendUTF8(cell.character)
        }
    }
}

extension Array where Element == UInt8 {
    /// Appends the decimal digits of `value` (≥ 0).
    @inline(__always) mutating func appendDecimal(_ value: Int) {
        if value < 10 { append(UInt8(0x30 + value)); return }
        if value < 100 { append(UInt8(0x30 + value / 10)); append(UInt8(0x30 + value % 10)); return }
        if value < 1000 {
            append(UInt8(0x30 + value / 100)); append(UInt8(0x30 + value / 10 % 10)); append(UInt8(0x30 + value % 10)); return
        }
        append(contentsOf: Array(String(value).utf8))
    }

    /// `ESC [ row+1 ; column+1 H` (arguments 0-based).
    @inline(__always) mutating func appendCursorPosition(row: Int, column: Int) {
        append(0x1B); append(0x5B); appendDecimal(row + 1); append(0x3B); appendDecimal(column + 1); append(0x48)
    }

    /// `ESC [ n C` (`ESC [ C` for one).
    @inline(__always) mutating func appendCursorForward(_ n: Int) {
        append(0x1B); append(0x5B)
        if n != 1 { appendDecimal(n) }
        append(0x43)
    }

    /// The SGR parameters of one colour: `base+8;2;R;G;B`, `base+8;5;N` or `base+9` (base 30 or 40).
    @inline(__always) mutating func appendSGRColor(_ color: CellColor, base: Int) {
        let kind = color.rawValue >> 24
        if kind == 0 { appendDecimal(base + 9); return }
        appendDecimal(base + 8)
        if kind == 1 {
            append(0x3B); append(0x32); append(0x3B)
            appendDecimal(Int(color.rawValue >> 16 & 0xFF)); append(0x3B)
            appendDecimal(Int(color.rawValue >> 8 & 0xFF)); append(0x3B)
            appendDecimal(Int(color.rawValue & 0xFF))
        } else {
            append(0x3B); append(0x35); append(0x3B)
            appendDecimal(Int(color.rawValue & 0xFF))
        }
    }

    /// The UTF-8 bytes of one scalar.
    @inline(__always) mutating func appendUTF8(_ scalar: Unicode.Scalar) {
        let v = scalar.value
        if v < 0x80 {
            append(UInt8(v))
        } else if v < 0x800 {
            append(UInt8(0xC0 | v >> 6)); append(UInt8(0x80 | v & 0x3F))
        } else if v < 0x10000 {
            append(UInt8(0xE0 | v >> 12)); append(UInt8(0x80 | v >> 6 & 0x3F)); append(UInt8(0x80 | v & 0x3F))
        } else {
            append(UInt8(0xF0 | v >> 18)); append(UInt8(0x80 | v >> 12 & 0x3F))
            append(UInt8(0x80 | v >> 6 & 0x3F)); append(UInt8(0x80 | v & 0x3F))
        }
    }
}
