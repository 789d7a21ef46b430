import Foundation
import Imaging
import Testing
import TestSupport
@testable import Terminal

/// The built TerminalProbe (swift test builds every product beside the test bundle).
private var probePath: String {
    Lookaround.executablePath.replacingOccurrences(of: "/lookaround", with: "/TerminalProbe", options: .backwards)
}




/// Compares the picture rows with the test pattern's pixels (cell (x, y): pixels (x, 2y) and (x, 2y+1)),
/// as 24-bit colours or as their nearest palette entries.
private func expectPattern(_ capture: String, columns: Int, rows: Int, shift: Int, palette: Bool = false) {
    let image = TerminalTestPattern.image(width: columns, height: 2 * rows, shift: shift)
    let cells = parseTmuxCapture(capture)
    func color(_ x: Int, _ y: Int) -> CellColor {
        palette ? .indexed(XtermPalette.shared.nearestIndexExhaustive(red: image[x, y, 0], green: image[x, y, 1], blue: image[x, y, 2]))
            : .rgb(image[x, y, 0], image[x, y, 1], image[x, y, 2])
    }
    var wrong = 0
    for y in 0..<(rows - 1) {
        for x in 0..<columns {
            let expected = TerminalCell("▀", foreground: color(x, 2 * y), background: color(x, 2 * y + 1))
            if y >= cells.count || x >= cells[y].count || cells[y][x] != expected { wrong += 1 }
        }
    }
    #expect(wrong == 0, "\(wrong) of \((rows - 1) * columns) cells differ from the pattern at shift \(shift)")
}

/// tmux's path; without it the test is cancelled (reported as skipped).
private func requireTmux() throws -> String {
    guard let tmux = which("tmux") else {
        try Test.cancel("TmuxProbeTests skipped: tmux is not installed (apt install tmux)")
    }
    return tmux
}

/// The probe ended with exit status `status` and left the screen as it found it (the pane's contents
/// after are those before it started).
private func expectEnded(_ pane: TmuxPane, status: String, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == status, sourceLocation: sourceLocation)
    #expect(pane.waitForFile("after") == pane.file("before"), sourceLocation: sourceLocation)
}

@Suite(.serialized) struct TmuxProbeTests {
    @Test func drawsTurnsTakesMouseResizesAndRestores() throws {
        let tmux = try requireTmux()
        try #require(FileManager.default.isExecutableFile(atPath: probePath), "no TerminalProbe at \(probePath)")
        let pane = try TmuxPane(tmux: tmux, columns: 50, rows: 14, command: "\(probePath) show")
        var capture = try pane.waitFor("the first frame") { $0.contains("probe 50x14 truecolor s0: none") }
        expectPattern(capture, columns: 50, rows: 14, shift: 0)
        #expect(try pane.display("#{alternate_on}") == "1")

        try pane.run(["send-keys", "-t", "t", "Right"])
        capture = try pane.waitFor("the turn") { $0.contains("s1: key right") }
        expectPattern(capture, columns: 50, rows: 14, shift: 1)

        try pane.run(["send-keys", "-t", "t", "-H", "1b", "5b", "3c", "30", "3b", "35", "3b", "33", "4d"])  // ESC [ < 0 ; 5 ; 3 M
        _ = try pane.waitFor("the mouse press") { $0.contains("s1: mouse press left 4,2") }
        try pane.run(["send-keys", "-t", "t", "-H", "1b", "5b", "32", "30", "30", "7e", "71", "71", "1b", "5b", "32", "30", "31", "7e"])
        _ = try pane.waitFor("the paste") { $0.contains("s1: paste 2 chars") }

        try pane.run(["resize-window", "-t", "t", "-x", "40", "-y", "10"])
        capture = try pane.waitFor("the re-layout") { $0.contains("probe 40x10 truecolor s1: resize") }
        expectPattern(capture, columns: 40, rows: 10, shift: 1)

        try pane.run(["send-keys", "-t", "t", "q"])
        expectEnded(pane, status: "0")
        #expect(try pane.display("#{alternate_on}") == "0")
    }

    @Test func palette256Frames() throws {
        let tmux = try requireTmux()
        let pane = try TmuxPane(tmux: tmux, columns: 40, rows: 10, command: "\(probePath) show --protocol 256")
        var capture = try pane.waitFor("the first frame") { $0.contains("probe 40x10 256 s0: none") }
        expectPattern(capture, columns: 40, rows: 10, shift: 0, palette: true)
        try pane.run(["send-keys", "-t", "t", "l"])
        capture = try pane.waitFor("the turn") { $0.contains("s1: key character(\"l\")") }
        expectPattern(capture, columns: 40, rows: 10, shift: 1, palette: true)
        try pane.run(["send-keys", "-t", "t", "Escape"])
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    // A parameterized test's cancellation is reported per case (the test as passed): the trait reports it skipped.
    @Test(.enabled(if: which("tmux") != nil, "tmux is not installed (apt install tmux)"), arguments: [SIGTERM, SIGHUP, SIGINT])
    func signalRestoresTheTerminal(signal: Int32) throws {
        let tmux = try #require(which("tmux"))
        let pane = try TmuxPane(tmux: tmux, columns: 40, rows: 10, command: "\(probePath) show")
        _ = try pane.waitFor("the first frame") { $0.contains("probe 40x10") }
        let pid = try #require(pane.probePID)
        kill(pid, signal)
        expectEnded(pane, status: "\(128 + signal)")
        #expect(try pane.display("#{alternate_on}") == "0")
    }

    @Test func suspendAndResume() throws {
        let tmux = try requireTmux()
        let pane = try TmuxPane(tmux: tmux, columns: 40, rows: 10, command: "\(probePath) show")
        _ = try pane.waitFor("the first frame") { $0.contains("probe 40x10") }
        let pid = try #require(pane.probePID)
        try pane.run(["send-keys", "-t", "t", "C-z"])
        var stopped = false
        for _ in 0..<100 {
            if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
               stat.split(separator: ")").last?.split(separator: " ").first == "T" { stopped = true; break }
            usleep(20_000)
        }
        #expect(stopped, "the probe stopped on Ctrl-Z")
        #expect(try pane.display("#{alternate_on}") == "0", "the normal screen is back while stopped")
        kill(pid, SIGCONT)
        _ = try pane.waitFor("the redraw after SIGCONT") { $0.contains("s0: resumed") }
        #expect(try pane.display("#{alternate_on}") == "1")
        try pane.run(["send-keys", "-t", "t", "q"])
        expectEnded(pane, status: "0")
    }
}
