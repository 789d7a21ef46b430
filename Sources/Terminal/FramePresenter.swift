import Imaging

/// Keeps what is on the screen and makes the bytes for the next frame: for the text modes only the
/// cells that changed, the whole frame after `invalidate()` (start, resize, resume) or a size change;
/// wrapped in a synchronized update when asked. Each call returns the bytes for one `write`.
///
/// A viewer renders its picture at `columns × 2·rows` pixels, makes a `CellFrame(halfBlocks:colors:)`,
/// draws its status line into it and calls `bytes(for:)`; for kitty or sixel it sends
/// `KittyGraphicsEncoder`/`SixelEncoder` output wrapped by `graphicsBytes(_:)` instead.
public struct FramePresenter: Sendable {
    /// Wrap each frame in `ESC [ ? 2026 h` … `l` (harmless on terminals that ignore it).
    public var synchronizedOutput: Bool
    /// The screen cell of the frame's top-left cell, 0-based.
    public var originColumn: Int
    public var originRow: Int
    /// The frame on the screen now, nil when unknown.
    public private(set) var onScreen: CellFrame?

    public init(synchronizedOutput: Bool = true, originColumn: Int = 0, originRow: Int = 0) {
        self.synchronizedOutput = synchronizedOutput
        self.originColumn = originColumn
        self.originRow = originRow
    }

    /// Forget what is on the screen: the next frame is a full repaint (after a resize, SIGCONT, or
    /// anything else that drew on the screen).
    public mutating func invalidate() { onScreen = nil }

    /// The bytes that bring the screen from the last frame to `frame`; empty when nothing changed.
    public mutating func bytes(for frame: CellFrame) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(onScreen == nil ? frame.cells.count * 24 : frame.cells.count * 4)
        if synchronizedOutput { bytes.append(contentsOf: ControlSequence.beginSynchronizedUpdate.utf8) }
        let start = bytes.count
        if let previous = onScreen, previous.columns == frame.columns, previous.rows == frame.rows {
            CellEncoder.appendDifference(from: previous, to: frame, originColumn: originColumn, originRow: originRow, to: &bytes)
        } else {
            if onScreen != nil { bytes.append(contentsOf: ControlSequence.clearScreen.utf8) }
            CellEncoder.appendFullRepaint(of: frame, originColumn: originColumn, originRow: originRow, to: &bytes)
        }
        onScreen = frame
        if bytes.count == start { return [] }
        if synchronizedOutput { bytes.append(contentsOf: ControlSequence.endSynchronizedUpdate.utf8) }
        return bytes
    }

    /// Largest graphics payload wrapped in a synchronized update: kitty 0.26 leaves pending mode by
    /// itself on a 3.7 MB frame and then logs the end marker as a client bug (seen under Xvfb); a kitty
    /// image replaces the last one whole anyway.
    static let maximumSynchronizedGraphicsBytes = 1 << 20

    /// Graphics-protocol bytes (kitty or sixel) placed at the origin, wrapped like a text frame when
    /// they are at most `maximumSynchronizedGraphicsBytes`. The cell frame on the screen is forgotten
    /// (the picture covers it).
    public mutating func graphicsBytes(_ image: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(image.count + 32)
        let wrap = synchronizedOutput && image.count <= Self.maximumSynchronizedGraphicsBytes
        if wrap { bytes.append(contentsOf: ControlSequence.beginSynchronizedUpdate.utf8) }
        bytes.appendCursorPosition(row: originRow, column: originColumn)
        bytes.append(contentsOf: image)
        if wrap { bytes.append(contentsOf: ControlSequence.endSynchronizedUpdate.utf8) }
        onScreen = nil
        return bytes
    }
}
