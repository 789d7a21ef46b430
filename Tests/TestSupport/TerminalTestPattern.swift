import Imaging

/// The picture `TerminalProbe` draws and the terminal tests expect: integer gradients, so both sides
/// compute the same pixels exactly. `shift` moves it sideways by 8 px per step (a "turn").
public enum TerminalTestPattern {
    public static func image(width: Int, height: Int, shift: Int) -> RGB8Image {
        var image = RGB8Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let u = x + 8 * shift
                image[x, y, 0] = UInt8(truncatingIfNeeded: (u * 7) & 0xFF)
                image[x, y, 1] = UInt8(truncatingIfNeeded: y * 255 / max(1, height - 1))
                image[x, y, 2] = UInt8(truncatingIfNeeded: ((u / 4 + y) % 16) * 16)
            }
        }
        return image
    }
}
