import Foundation
import Imaging
import Testing
import TestSupport
@testable import Terminal

private let esc = "\u{1B}"

/// 2×2: red over blue on the left, green over white on the right.
private let twoByTwo = RGB8Image(width: 2, height: 2, components: [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255])

@Suite struct HalfBlockEncoderTests {
    @Test func truecolorFullRepaintGolden() {
        var bytes: [UInt8] = []
        CellEncoder.appendFullRepaint(of: CellFrame(halfBlocks: twoByTwo), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
                == "\(esc)[1;1H\(esc)[38;2;255;0;0;48;2;0;0;255m▀\(esc)[38;2;0;255;0;48;2;255;255;255m▀\(esc)[0m")
    }

    @Test func onlyTheColourThatChangesIsSent() {
        // 3×4: the bottom pixels all grey, the top ones red, red, blue; second row black.
        var image = RGB8Image(width: 3, height: 4)
        for x in 0..<3 { image[x, 1, 0] = 50; image[x, 1, 1] = 50; image[x, 1, 2] = 50 }
        image[0, 0, 0] = 255; image[1, 0, 0] = 255; image[2, 0, 2] = 255
        var bytes: [UInt8] = []
        CellEncoder.appendFullRepaint(of: CellFrame(halfBlocks: image), originColumn: 4, originRow: 2, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
                == "\(esc)[3;5H\(esc)[38;2;255;0;0;48;2;50;50;50m▀▀\(esc)[38;2;0;0;255m▀"
                + "\(esc)[4;5H\(esc)[38;2;0;0;0;48;2;0;0;0m▀▀▀\(esc)[0m")
    }

    @Test func palette256FullRepaintGolden() {
        var bytes: [UInt8] = []
        CellEncoder.appendFullRepaint(of: CellFrame(halfBlocks: twoByTwo, colors: .palette256), to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
                == "\(esc)[1;1H\(esc)[38;5;196;48;5;21m▀\(esc)[38;5;46;48;5;231m▀\(esc)[0m")
    }

    @Test func oddHeightLeavesTheDefaultBackground() {
        let frame = CellFrame(halfBlocks: RGB8Image(width: 1, height: 3, fill: 7))
        #expect(frame.rows == 2)
        #expect(frame[0, 1].background == .terminalDefault && frame[0, 1].foreground == .rgb(7, 7, 7))
        var bytes: [UInt8] = []
        CellEncoder.appendFullRepaint(of: frame, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
                == "\(esc)[1;1H\(esc)[38;2;7;7;7;48;2;7;7;7m▀\(esc)[2;1H\(esc)[49m▀\(esc)[0m")
    }

    @Test func textOverThePicture() {
        var frame = CellFrame(halfBlocks: RGB8Image(width: 4, height: 2, fill: 9))
        frame.draw("héllo", column: 1, row: 0, foreground: .indexed(15))
        #expect(frame[0, 0].character == "▀" && frame[1, 0].character == "h" && frame[2, 0].character == "é")
        #expect(frame[3, 0].character == "l" && frame[3, 0].background == .rgb(9, 9, 9))
        var bytes: [UInt8] = []
        CellEncoder.appendFullRepaint(of: frame, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
                == "\(esc)[1;1H\(esc)[38;2;9;9;9;48;2;9;9;9m▀\(esc)[38;5;15mhél\(esc)[0m")
    }

    @Test func linesForImageShow() throws {
        let text = try TerminalImage.render(twoByTwo, columns: 2)
        #expect(text == "\(esc)[38;2;255;0;0;48;2;0;0;255m▀\(esc)[38;2;0;255;0;48;2;255;255;255m▀\(esc)[0m\n")
        #expect(throws: ImagingError.invalidParameter(name: "terminal width", value: "0", allowed: "1…1000 columns")) {
            try TerminalImage.render(twoByTwo, columns: 0)
        }
        let wide = try TerminalImage.render(RGB8Image(width: 200, height: 100, fill: 9), columns: 40)
        #expect(wide.split(separator: "\n").count == 10)   // 40 columns → 20 pixel rows → 10 lines
    }
}

@Suite struct CellDiffTests {
    @Test func oneChangedCellGolden() {
        let before = CellFrame(halfBlocks: RGB8Image(width: 4, height: 4, fill: 0))
        var after = before
        after[2, 1] = TerminalCell("▀", foreground: .rgb(1, 2, 3), background: .rgb(0, 0, 0))
        after[3, 1] = TerminalCell("▀", foreground: .rgb(1, 2, 3), background: .rgb(0, 0, 0))
        after[1, 0] = TerminalCell("x", foreground: .rgb(0, 0, 0), background: .rgb(0, 0, 0))
        after[3, 0] = TerminalCell("y", foreground: .rgb(0, 0, 0), background: .rgb(0, 0, 0))
        var bytes: [UInt8] = []
        CellEncoder.appendDifference(from: before, to: after, to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self)
                == "\(esc)[1;2H\(esc)[38;2;0;0;0;48;2;0;0;0mx\(esc)[Cy\(esc)[2;3H\(esc)[38;2;1;2;3m▀▀\(esc)[0m")
        var none: [UInt8] = []
        CellEncoder.appendDifference(from: after, to: after, to: &none)
        #expect(none.isEmpty)
    }

    /// Random frames with random changes: the diff applied to a screen showing the old frame gives the
    /// same cells as a full repaint of the new one, and is smaller when few cells change.
    @Test(arguments: [0.0, 0.02, 0.3, 1.0]) func diffEqualsFullRepaint(changedFraction: Double) throws {
        var rng = SeededGenerator(seed: UInt64(changedFraction * 1000) + 7)
        let columns = 23, rows = 9
        let colours: [CellColor] = [.rgb(10, 20, 30), .rgb(200, 0, 0), .indexed(42), .terminalDefault, .rgb(0, 0, 0)]
        func randomCell() -> TerminalCell {
            TerminalCell(["▀", "a", "é", " "][Int(rng.next() % 4)], foreground: colours[Int(rng.next() % 5)],
                         background: colours[Int(rng.next() % 5)])
        }
        var old = CellFrame(columns: columns, rows: rows)
        for i in old.cells.indices { old.cells[i] = randomCell() }
        var new = old
        for i in new.cells.indices where Double(rng.next() % 10_000) / 10_000 < changedFraction { new.cells[i] = randomCell() }
        var screen = VirtualScreen(columns: columns + 3, rows: rows + 2)
        var full: [UInt8] = []
        CellEncoder.appendFullRepaint(of: old, originColumn: 2, originRow: 1, to: &full)
        try screen.apply(full)
        var diff: [UInt8] = []
        CellEncoder.appendDifference(from: old, to: new, originColumn: 2, originRow: 1, to: &diff)
        try screen.apply(diff)
        var reference = VirtualScreen(columns: columns + 3, rows: rows + 2)
        var repaint: [UInt8] = []
        CellEncoder.appendFullRepaint(of: new, originColumn: 2, originRow: 1, to: &repaint)
        try reference.apply(repaint)
        let differing = zip(screen.cells, reference.cells).enumerated().filter { $0.element.0 != $0.element.1 }.map(\.offset)
        #expect(differing.isEmpty, "\(differing.count) cells differ, first at \(differing.prefix(5))")
        if changedFraction < 0.05 { #expect(diff.count * 5 < repaint.count) }
    }

    @Test func presenterRepaintsAfterInvalidateAndSizeChange() throws {
        var presenter = FramePresenter(synchronizedOutput: true)
        let a = CellFrame(halfBlocks: RGB8Image(width: 3, height: 2, fill: 1))
        let first = String(decoding: presenter.bytes(for: a), as: UTF8.self)
        #expect(first.hasPrefix("\(esc)[?2026h\(esc)[1;1H") && first.hasSuffix("\(esc)[0m\(esc)[?2026l"))
        #expect(presenter.bytes(for: a).isEmpty)
        presenter.invalidate()
        #expect(String(decoding: presenter.bytes(for: a), as: UTF8.self) == first)
        let b = CellFrame(halfBlocks: RGB8Image(width: 4, height: 2, fill: 1))
        #expect(String(decoding: presenter.bytes(for: b), as: UTF8.self).hasPrefix("\(esc)[?2026h\(esc)[0m\(esc)[H\(esc)[2J"))
    }
}

@Suite struct XtermPaletteTests {
    /// The reference table comes from scripts/make-xterm256-table.py, which reaches OKLab through CIE XYZ
    /// (a different route from the Swift code); rows whose runner-up is within 0.1 % may go either way.
    @Test func nearestMatchesTheReferenceTable() throws {
        let url = try #require(Bundle.module.url(forResource: "xterm256-oklab", withExtension: "csv", subdirectory: "Fixtures"))
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines.count > 5000)
        var mismatches: [String] = []
        for line in lines {
            let f = line.split(separator: ",")
            let r = UInt8(f[0])!, g = UInt8(f[1])!, b = UInt8(f[2])!, best = UInt8(f[3])!, second = UInt8(f[4])!
            let margin = Double(f[5])!
            let ours = XtermPalette.shared.nearestIndex(red: r, green: g, blue: b)
            if ours != best && !(ours == second && margin < 1e-3) { mismatches.append(String(line) + " ours \(ours)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    @Test func prunedSearchEqualsExhaustive() {
        var rng = SeededGenerator(seed: 99)
        for _ in 0..<20_000 {
            let v = rng.next()
            let r = UInt8(truncatingIfNeeded: v), g = UInt8(truncatingIfNeeded: v >> 8), b = UInt8(truncatingIfNeeded: v >> 16)
            #expect(XtermPalette.shared.nearestIndex(red: r, green: g, blue: b)
                    == XtermPalette.shared.nearestIndexExhaustive(red: r, green: g, blue: b), "rgb(\(r),\(g),\(b))")
        }
    }

    @Test func paletteColoursMapToThemselves() {
        for index in 16..<256 {
            let c = XtermPalette.rgb(index: index)
            #expect(XtermPalette.shared.nearestIndex(red: c.red, green: c.green, blue: c.blue) == UInt8(index), "index \(index)")
        }
    }
}
