import Foundation
import Imaging
import Terminal
import Testing
import TestSupport

/// End-to-end tests of `lookaround view`: its errors through pipes, and the viewer itself in tmux at a
/// fixed size (keys sent, the pane captured and parsed into cells).
@Suite(.serialized) struct ViewCLITests {
    static var catalog: String { get throws { try SnapshotCLITests.setup.get().catalog } }

    @Test func standardOutputNotATerminalIsAUsageErrorPointingToSnapshot() throws {
        let result = try Lookaround.run(["view", "--catalog", try Self.catalog, "--scene", "aleksanterinkatu-030"])
        #expect(result.exitCode == 64)
        #expect(result.stderr.contains("needs a terminal") && result.stderr.contains("lookaround snapshot"), "\(result.stderr)")
    }

    @Test func noCoverageIsExitOneWithTheReason() throws {
        let result = try Lookaround.run(["view", "--catalog", try Self.catalog, "--lat", "60.2", "--lon", "24.9"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("no coverage") && result.stderr.contains("nothing_within_radius"), "\(result.stderr)")
    }

    @Test func unreadablePanoramaFilesAreNamed() throws {
        let folder = try Lookaround.temporaryDirectory()
        let missing = folder.appendingPathComponent("missing.jpg").path
        let gone = try Lookaround.run(["view", "--panorama", missing])
        #expect(gone.exitCode == 66 && gone.stderr.contains(missing), "\(gone.stderr)")
        let text = folder.appendingPathComponent("notes.jpg")
        try Data("not a panorama\n".utf8).write(to: text)
        let bad = try Lookaround.run(["view", "--panorama", text.path])
        #expect(bad.exitCode == 65 && bad.stderr.contains(text.path), "\(bad.stderr)")
        // A panorama cut short: its headers read, the scan does not.
        let shipped = SnapshotCLITests.repository.appendingPathComponent("Panoramas/helsinki/senaatintori-004.jpg")
        let whole = try Data(contentsOf: shipped)
        let short = folder.appendingPathComponent("short.jpg")
        try whole.prefix(whole.count / 2).write(to: short)
        let truncated = try Lookaround.run(["view", "--panorama", short.path])
        #expect(truncated.exitCode == 65 && truncated.stderr.contains(short.path) && truncated.stderr.contains("Premature end"),
                "\(truncated.stderr)")
        // A 3:1 image is no equirectangular panorama.
        let wide = folder.appendingPathComponent("wide.png")
        try Data(try PNGCodec.encode(RGB8Image(width: 30, height: 10))).write(to: wide)
        let notPanorama = try Lookaround.run(["view", "--panorama", wide.path])
        #expect(notPanorama.exitCode == 65 && notPanorama.stderr.contains("30"), "\(notPanorama.stderr)")
        let both = try Lookaround.run(["view", "--panorama", wide.path, "--scene", "x"])
        #expect(both.exitCode == 64 && both.stderr.contains("--scene"), "\(both.stderr)")
        let narrow = try Lookaround.run(["view", "--panorama", wide.path, "--fov-degrees", "10"])
        #expect(narrow.exitCode == 64 && narrow.stderr.contains("20"), "\(narrow.stderr)")
    }

    @Test func diagnoseWithoutATerminalReportsTheEnvironment() throws {
        let result = try Lookaround.run(["view", "--diagnose", "--protocol", "256"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("protocol:            256 (--protocol 256)"), "\(result.stdout)")
        #expect(result.stdout.contains("no queries sent"))
    }

    // MARK: In tmux

    /// The viewer in a tmux pane of `columns × rows` cells.
    private func pane(_ arguments: String, columns: Int = 100, rows: Int = 30) throws -> TmuxPane? {
        guard let tmux = which("tmux") else {
            try Test.cancel("ViewCLITests: tmux tests skipped: tmux is not installed (apt install tmux)")
        }
        return try TmuxPane(tmux: tmux, columns: columns, rows: rows,
                            command: "\(Lookaround.executablePath) view --catalog \(try Self.catalog) \(arguments)")
    }

    /// The status line (the pane's last non-empty line, without colours).
    private func statusLine(_ pane: TmuxPane) throws -> String {
        let plain = try pane.run(["capture-pane", "-p", "-t", "t"])
        return plain.split(separator: "\n").last.map(String.init) ?? ""
    }

    private func heading(in status: String) -> Int? {
        guard let range = status.range(of: #"heading (\d+)°"#, options: .regularExpression) else { return nil }
        return Int(status[range].dropFirst("heading ".count).dropLast())
    }

    /// The picture's cells (every row but the status line).
    private func pictureCells(_ pane: TmuxPane, rows: Int) throws -> [[TerminalCell]] {
        Array(parseTmuxCapture(try pane.capture()).prefix(rows - 1))
    }

    private func changedFraction(_ a: [[TerminalCell]], _ b: [[TerminalCell]]) -> Double {
        var changed = 0, total = 0
        for (ra, rb) in zip(a, b) {
            for (ca, cb) in zip(ra, rb) {
                total += 1
                if ca != cb { changed += 1 }
            }
        }
        return total == 0 ? 0 : Double(changed) / Double(total)
    }

    @Test func turningChangesThePictureAndTheHeadingByOneStep() throws {
        guard let pane = try pane("--scene aleksanterinkatu-030 --heading-degrees 90") else { return }
        _ = try pane.waitFor("the status line") { $0.contains("aleksanterinkatu-030") && $0.contains("heading 90°") }
        let before = try pictureCells(pane, rows: 30)
        #expect(before.first?.first?.character == TerminalCell.upperHalfBlock, "the picture is half-block cells")
        try pane.run(["send-keys", "-t", "t", "Right"])
        _ = try pane.waitFor("heading 105°") { $0.contains("heading 105°") }
        let after = try pictureCells(pane, rows: 30)
        #expect(changedFraction(before, after) > 0.5, "most cells change on a 15° turn")
        try pane.run(["send-keys", "-t", "t", "h", "h"])
        _ = try pane.waitFor("heading 75°") { $0.contains("heading 75°") }
        #expect(heading(in: try statusLine(pane)) == 75)
        // Zoomed in, a turn is finer: 15° × 72/90 = 12°.
        try pane.run(["send-keys", "-t", "t", "+", "l"])
        _ = try pane.waitFor("fov 72°, heading 87°") { $0.contains("fov 72°") && $0.contains("heading 87°") }
        try pane.run(["send-keys", "-t", "t", "q"])
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(pane.file("before") == pane.waitForFile("after"), "stty -g is the same before and after")
    }

    @Test func forwardKeepsTheHeadingAndReachesTheLinkedPanorama() throws {
        guard let pane = try pane("--scene aleksanterinkatu-030 --heading-degrees 90") else { return }
        _ = try pane.waitFor("the first frame") { $0.contains("aleksanterinkatu-030") }
        try pane.run(["send-keys", "-t", "t", "w"])
        let moved = try pane.waitFor("aleksanterinkatu-031") { $0.contains("aleksanterinkatu-031") }
        #expect(moved.contains("heading 90°"), "the absolute heading is kept")
        try pane.run(["send-keys", "-t", "t", "s"])
        _ = try pane.waitFor("back at 030") { $0.contains("aleksanterinkatu-030") }
        try pane.run(["send-keys", "-t", "t", "n"])
        _ = try pane.waitFor("next in the sequence") { $0.contains("aleksanterinkatu-031") && $0.contains("32/") }
        try pane.run(["send-keys", "-t", "t", "p", "p"])
        _ = try pane.waitFor("two back") { $0.contains("aleksanterinkatu-029") }
        // Looking north along no street: no panorama ahead, said in the picture.
        try pane.run(["send-keys", "-t", "t", "h", "h", "h", "h", "h", "h", "w"])
        _ = try pane.waitFor("the reason") { $0.contains("no panorama ahead") }
        try pane.run(["send-keys", "-t", "t", "Escape"])
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(pane.file("before") == pane.waitForFile("after"))
    }

    @Test func aResizeRelaysOutAndATinyWindowSaysSo() throws {
        guard let pane = try pane("--scene aleksanterinkatu-030 --heading-degrees 90", columns: 80, rows: 24) else { return }
        _ = try pane.waitFor("the first frame") { $0.contains("aleksanterinkatu-030") }
        try pane.run(["resize-window", "-t", "t", "-x", "120", "-y", "36"])
        let wide = try pane.waitFor("120 columns") { capture in
            let rows = parseTmuxCapture(capture)
            return rows.count >= 36 && rows[34].count == 120 && String(String.UnicodeScalarView(rows[35].map(\.character))).contains("heading 90°")
        }
        #expect(parseTmuxCapture(wide)[0].count == 120)
        try pane.run(["resize-window", "-t", "t", "-x", "16", "-y", "6"])
        _ = try pane.waitFor("the too-small message") { $0.contains("too small") }
        try pane.run(["resize-window", "-t", "t", "-x", "60", "-y", "20"])
        _ = try pane.waitFor("the picture again") { $0.contains("aleksanterinkatu-030") && !$0.contains("too small") }
        try pane.run(["send-keys", "-t", "t", "?"])
        _ = try pane.waitFor("the help") { $0.contains("go to the linked panorama") }
        try pane.run(["send-keys", "-t", "t", "x"])
        _ = try pane.waitFor("the help closed") { !$0.contains("go to the linked panorama") }
        try pane.run(["send-keys", "-t", "t", "q"])
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(pane.file("before") == pane.waitForFile("after"))
    }

    /// Sends an SGR (mode 1006) mouse report: `code` 0 press, 32 drag, 64 wheel up; cells 0-based.
    private func mouse(_ pane: TmuxPane, _ code: Int, column: Int, row: Int, release: Bool = false) throws {
        let text = "\u{1B}[<\(code);\(column + 1);\(row + 1)\(release ? "m" : "M")"
        try pane.run(["send-keys", "-t", "t", "-H"] + text.utf8.map { String($0, radix: 16) })
    }

    @Test func theMouseDragsZoomsAndClicks() throws {
        guard let pane = try pane("--scene aleksanterinkatu-030 --heading-degrees 90") else { return }
        _ = try pane.waitFor("the first frame") { $0.contains("heading 90°") }
        // Dragging 10 cells to the right pulls the view round to the left: 10 × 90°/100 = 9°.
        try mouse(pane, 0, column: 40, row: 10)
        try mouse(pane, 32, column: 45, row: 10)
        try mouse(pane, 32, column: 50, row: 10)
        try mouse(pane, 0, column: 50, row: 10, release: true)
        _ = try pane.waitFor("heading 81°") { $0.contains("heading 81°") }
        try mouse(pane, 64, column: 50, row: 10)
        _ = try pane.waitFor("zoomed in by the wheel") { $0.contains("fov 72°") }
        try pane.run(["send-keys", "-t", "t", "r"])
        _ = try pane.waitFor("reset") { $0.contains("heading 90°") && $0.contains("fov 90°") }
        // A click on a place label says what it is.
        let plain = try pane.run(["capture-pane", "-p", "-t", "t"]).split(separator: "\n", omittingEmptySubsequences: false)
        let row = try #require(plain.firstIndex { $0.contains(" Kulma ") }, "the label Kulma is in view:\n\(plain.joined(separator: "\n"))")
        let line = String(plain[row])
        let column = line.unicodeScalars.distance(from: line.unicodeScalars.startIndex, to: line.range(of: "Kulma")!.lowerBound)
        try mouse(pane, 0, column: column + 1, row: row)
        try mouse(pane, 0, column: column + 1, row: row, release: true)
        _ = try pane.waitFor("what the label is") { $0.contains("Kulma —") && $0.contains(" m ") }
        // A click on the road ahead walks there.
        try mouse(pane, 0, column: 48, row: 22)
        try mouse(pane, 0, column: 48, row: 22, release: true)
        _ = try pane.waitFor("the move to the clicked point") { $0.contains("aleksanterinkatu-031") }
        try pane.run(["send-keys", "-t", "t", "q"])
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test func heldKeysCoalesce() throws {
        guard let pane = try pane("--scene aleksanterinkatu-030 --heading-degrees 90") else { return }
        _ = try pane.waitFor("the first frame") { $0.contains("heading 90°") }
        // 30 turns at once (a held key): the view ends 30 × 15° = 450° on, without drawing each.
        try pane.run(["send-keys", "-t", "t"] + Array(repeating: "l", count: 30))
        _ = try pane.waitFor("heading 180°") { $0.contains("heading 180°") }
        try pane.run(["send-keys", "-t", "t", "q"])
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        // The report on leaving counts the frames drawn: far fewer than the 31 states.
        let report = try pane.waitFor("the report") { $0.contains("frames, truecolor, picture") }
        let range = try #require(report.range(of: #"\((\d+) frames"#, options: .regularExpression))
        let frames = try #require(Int(report[range].dropFirst().split(separator: " ")[0]))
        #expect(frames < 20, "\(frames) frames for 31 states")
        #expect(report.contains("left at aleksanterinkatu-030, heading 180°"))
    }

    @Test func walkPlaysInTheTerminalToItsEnd() throws {
        let catalog = try Self.catalog
        let piped = try Lookaround.run(["walk", "--catalog", catalog, "--sequence", "senaatintori", "--play", "--osm", "none"])
        #expect(piped.exitCode == 64 && piped.stderr.contains("needs a terminal"), "\(piped.stderr)")
        let both = try Lookaround.run(["walk", "--catalog", catalog, "--sequence", "senaatintori", "--play", "-o", "x.gif"])
        #expect(both.exitCode == 64 && both.stderr.contains("not both"), "\(both.stderr)")
        guard let tmux = which("tmux") else { return }
        // The tests run the debug build: there a frame takes about 1.5 s and the first move's set-up (which
        // the first frame between two panoramas waits for) about 7 s on an idle machine, several times that
        // beside a parallel test run. So the walk is paused only once it moves, each wait is long enough
        // for a frame under load, and the walk (77 s at 1.4 m/s) is long enough that it cannot reach its end
        // before the keys are read; its end is then reached by seeking.
        let pane = try TmuxPane(tmux: tmux, columns: 100, rows: 30, command: "\(Lookaround.executablePath) walk --catalog \(catalog) "
                                + "--sequence senaatintori --speed-mps 1.4 --pause-seconds 0 --osm none --play")
        _ = try pane.waitFor("the walk playing", seconds: 60) { $0.contains("walk · senaatintori-") && $0.contains("space pause") }
        _ = try pane.waitFor("the walk moving", seconds: 90) { walkedMeters(in: $0).map { $0 > 0 } ?? false }
        try pane.run(["send-keys", "-t", "t", "Space"])
        let paused = try pane.waitFor("paused", seconds: 60) { $0.contains("· paused") }
        try pane.run(["send-keys", "-t", "t", "Space", "+"])
        _ = try pane.waitFor("playing again, twice as fast", seconds: 60) { !$0.contains("· paused") && $0.contains("×2") }
        try pane.run(["send-keys", "-t", "t", "r"])
        _ = try pane.waitFor("backwards", seconds: 60) { $0.contains("backwards ×2") }
        try pane.run(["send-keys", "-t", "t", "r"])
        _ = try pane.waitFor("forwards again", seconds: 60) { !$0.contains("backwards") }
        try pane.run(["send-keys", "-t", "t"] + Array(repeating: "Right", count: 16))
        #expect(paused.contains("senaatintori-"))
        let rc = pane.waitForFile("rc", seconds: 90)?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(rc == "0", "exit status \(rc ?? "none")")
        let report = try pane.capture()
        #expect(report.contains("walk: played to the end") && report.contains("dropped to keep to real time"), "\(report)")
        #expect(pane.file("before") == pane.waitForFile("after"), "stty -g is the same before and after")
    }

    /// The meters walked in the walk's status line ("· 9 / 108 m ·").
    private func walkedMeters(in capture: String) -> Int? {
        guard let range = capture.range(of: #"· \d+ / \d+ m ·"#, options: .regularExpression) else { return nil }
        return Int(capture[range].dropFirst(2).split(separator: " ")[0])
    }

    @Test func aSignalRestoresTheTerminal() throws {
        guard let pane = try pane("--scene aleksanterinkatu-030") else { return }
        _ = try pane.waitFor("the first frame") { $0.contains("aleksanterinkatu-030") }
        let pid = try #require(pane.probePID, "the viewer's process")
        kill(pid, SIGTERM)
        let rc = pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(rc == "143", "killed by SIGTERM: \(rc ?? "none")")
        #expect(pane.file("before") == pane.waitForFile("after"), "stty -g is the same after SIGTERM")
    }
}
