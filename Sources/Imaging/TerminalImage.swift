/// Pictures for a terminal: each character cell shows two pixels, the upper one as the foreground
/// colour of "▀" (U+2580 UPPER HALF BLOCK) and the lower one as its background, in 24-bit colour
/// (`ESC[38;2;R;G;Bm` / `ESC[48;2;R;G;Bm`). Terminals without truecolor show wrong colours.
public enum TerminalImage {
    /// The image resized (area filter) to `columns` characters wide, keeping its aspect with square
    /// pixels, as ANSI text: one line per two pixel rows, each ending in a colour reset and a newline.
    /// - Parameter columns: 1…1000 characters.
    /// - Throws: `ImagingError.invalidParameter` for a width outside that range.
    public static func render(_ image: RGB8Image, columns: Int) throws -> String {
        guard (1...1000).contains(columns) else {
            throw ImagingError.invalidParameter(name: "terminal width", value: "\(columns)", allowed: "1…1000 columns")
        }
        let rows = max(2, Int((Double(image.height) * Double(columns) / Double(image.width)).rounded() / 2) * 2)
        let small = try Resampler.resize(image, to: PixelSize(width: columns, height: rows), filter: .area)
        var text = ""
        text.reserveCapacity(rows / 2 * columns * 40)
        for y in stride(from: 0, to: rows, by: 2) {
            var previous: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8)?
            for x in 0..<columns {
                let top = (small[x, y, 0], small[x, y, 1], small[x, y, 2])
                let bottom = (small[x, y + 1, 0], small[x, y + 1, 1], small[x, y + 1, 2])
                let cell = (top.0, top.1, top.2, bottom.0, bottom.1, bottom.2)
                if previous.map({ $0 != cell }) ?? true {
                    text += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2)m\u{1B}[48;2;\(bottom.0);\(bottom.1);\(bottom.2)m"
                    previous = cell
                }
                text += "▀"
            }
            text += "\u{1B}[0m\n"
        }
        return text
    }
}
