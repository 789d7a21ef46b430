import Imaging

/// Pictures printed into the normal flow of a terminal (`lookaround image show`): each character cell
/// shows two pixels, the upper one as the foreground colour of "▀" (U+2580 UPPER HALF BLOCK) and the
/// lower one as its background, in 24-bit colour or the 256-colour palette. No cursor moves: one line
/// per cell row, so the output can be scrolled, piped or saved.
public enum TerminalImage {
    /// The image resized (area filter) to `columns` characters wide, keeping its aspect with square
    /// pixels, as ANSI text: one line per two pixel rows, each ending in a colour reset and a newline.
    /// - Parameter columns: 1…1000 characters.
    /// - Throws: `ImagingError.invalidParameter` for a width outside that range.
    public static func render(_ image: RGB8Image, columns: Int, colors: ColorDepth = .truecolor) throws -> String {
        guard (1...1000).contains(columns) else {
            throw ImagingError.invalidParameter(name: "terminal width", value: "\(columns)", allowed: "1…1000 columns")
        }
        let rows = max(2, Int((Double(image.height) * Double(columns) / Double(image.width)).rounded() / 2) * 2)
        let small = try Resampler.resize(image, to: PixelSize(width: columns, height: rows), filter: .area)
        var bytes: [UInt8] = []
        CellEncoder.appendLines(of: CellFrame(halfBlocks: small, colors: colors), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension CellEncoder {
    /// Appends `frame` as lines of text from the cursor on: each row's cells with SGR colours where
    /// they change, then `ESC [ 0 m` and a newline.
    public static func appendLines(of frame: CellFrame, to bytes: inout [UInt8]) {
        for row in 0..<frame.rows {
            var state = SGRState()
            for column in 0..<frame.columns { state.append(frame[column, row], to: &bytes) }
            bytes.append(contentsOf: [0x1B, 0x5B, 0x30, 0x6D, 0x0A])
        }
    }
}
