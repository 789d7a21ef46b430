import Foundation
import Imaging
import Testing
import TestSupport
@testable import Terminal

/// The built TerminalProbe (swift test builds every product beside the test bundle).
private var probePath: String {
    Lookaround.executablePath.replacingOccurrences(of: "/lookaround", with: "/TerminalProbe", options: .backwards)
}

private func which(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// One tmux server on a socket of its own (a reused name races with the last server's exit).
private final class TmuxPane {
    let tmux: String, socket: String, folder: URL
    init(tmux: String, columns: Int, rows: Int, command: String) throws {
        self.tmux = tmux
        socket = "lookaround-terminal-\(getpid())-\(UUID().uuidString.prefix(8))"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let f = folder.path
        let wrapper = "stty -g > \(f)/before; \(command); echo $? > \(f)/rc.tmp; mv \(f)/rc.tmp \(f)/rc; stty -g > \(f)/after; sleep 60"
        try spawn(["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)",
                   "-e", "COLORTERM=truecolor", wrapper])
    }

    @discardableResult func run(_ arguments: [String]) throws -> String { try spawn(arguments) }

    /// Runs tmux with posix_spawn and waitpid, output through a file: the server that new-session
    /// starts inherits the client's descriptors (a pipe would never reach EOF), and Foundation's
    /// Process did not reap the client here.
    @discardableResult func spawn(_ arguments: [String]) throws -> String {
        let outputPath = folder.appendingPathComponent("tmux-out-\(UUID().uuidString.prefix(6))").path
        defer { unlink(outputPath) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([tmux, "-L", socket] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)  // the test runner blocks signals; the pane must not
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        guard posix_spawn(&pid, tmux, &actions, &attributes, argv, environ) == 0 else {
            throw TerminalError.systemCall("posix_spawn tmux", errno: errno)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    func capture() throws -> String { try run(["capture-pane", "-p", "-e", "-t", "t"]) }
    func display(_ format: String) throws -> String {
        try run(["display", "-p", "-t", "t", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `condition` holds on its capture (5 s at most).
    func waitFor(_ what: String, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(5)
        var last = ""
        while Date() < deadline {
            last = try capture()
            if condition(last) { return last }
            usleep(30_000)
        }
        Issue.record("timed out waiting for \(what); pane shows:\n\(String(decoding: Array(last.utf8).filter { $0 != 0x1B }, as: UTF8.self))")
        return last
    }

    var probePID: pid_t? {
        guard let pane = Int32((try? display("#{pane_pid}")) ?? ""),
              let children = try? String(contentsOfFile: "/proc/\(pane)/task/\(pane)/children", encoding: .utf8) else { return nil }
        return children.split(separator: " ").compactMap { Int32($0) }.first
    }

    func file(_ name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    func waitForFile(_ name: String) -> String? {
        for _ in 0..<100 { if let s = file(name) { return s }; usleep(50_000) }
        return nil
    }

    deinit {
        let pid = (try? display("#{pid}")).flatMap { Int32($0) }
        _ = try? run(["kill-server"])
        if let pid { for _ in 0..<100 where kill(pid, 0) == 0 { usleep(20_000) } }
        try? FileManager.default.removeItem(at: folder)
    }
}

/// The cells of a `capture-pane -p -e` capture: SGR state carries across lines (tmux emits
/// differences only), trailing blanks are trimmed by tmux.
private func parseCapture(_ text: String) -> [[TerminalCell]] {
    var rows: [[TerminalCell]] = []
    var fg = CellColor.terminalDefault, bg = CellColor.terminalDefault
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
        var cells: [TerminalCell] = []
        let s = Array(line.unicodeScalars)
        var i = 0
        while i < s.count {
            if s[i] == "\u{1B}", i + 1 < s.count, s[i + 1] == "[" {
                var j = i + 2
                var p = ""
                while j < s.count, s[j] != "m" { p.unicodeScalars.append(s[j]); j += 1 }
                let n = p.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 }
                var k = 0
                while k < n.count {
                    switch n[k] {
                    case 0: fg = .terminalDefault; bg = .terminalDefault
                    case 39: fg = .terminalDefault
                    case 49: bg = .terminalDefault
                    case 38, 48:
                        let c: CellColor = n[k + 1] == 2 ? .rgb(UInt8(n[k + 2]), UInt8(n[k + 3]), UInt8(n[k + 4])) : .indexed(UInt8(n[k + 2]))
                        if n[k] == 38 { fg = c } else { bg = c }
                        k += n[k + 1] == 2 ? 4 : 2
                    default: break
                    }
                    k += 1
                }
                i = j + 1
            } else {
                cells.append(TerminalCell(s[i], foreground: fg, background: bg))
                i += 1
            }
        }
        rows.append(cells)
    }
    return rows
}

/// Compares the picture rows with the test pattern's pixels (cell (x, y): pixels (x, 2y) and (x, 2y+1)),
/// as 24-bit colours or as their nearest palette entries.
private func expectPattern(_ capture: String, columns: Int, rows: Int, shift: Int, palette: Bool = false) {
    let image = TerminalTestPattern.image(width: columns, height: 2 * rows, shift: shift)
    let cells = parseCapture(capture)
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

@Suite(.serialized) struct TmuxProbeTests {
    @Test func drawsTurnsTakesMouseResizesAndRestores() throws {
        guard let tmux = which("tmux") else {
            print("TmuxProbeTests skipped: tmux is not installed (apt install tmux)")
            return
        }
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
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(pane.waitForFile("after") == pane.file("before"))
        #expect(try pane.display("#{alternate_on}") == "0")
    }

    @Test func palette256Frames() throws {
        guard let tmux = which("tmux") else {
            print("TmuxProbeTests skipped: tmux is not installed (apt install tmux)")
            return
        }
        let pane = try TmuxPane(tmux: tmux, columns: 40, rows: 10, command: "\(probePath) show --protocol 256")
        var capture = try pane.waitFor("the first frame") { $0.contains("probe 40x10 256 s0: none") }
        expectPattern(capture, columns: 40, rows: 10, shift: 0, palette: true)
        try pane.run(["send-keys", "-t", "t", "l"])
        capture = try pane.waitFor("the turn") { $0.contains("s1: key character(\"l\")") }
        expectPattern(capture, columns: 40, rows: 10, shift: 1, palette: true)
        try pane.run(["send-keys", "-t", "t", "Escape"])
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
    }

    @Test(arguments: [SIGTERM, SIGHUP, SIGINT]) func signalRestoresTheTerminal(signal: Int32) throws {
        guard let tmux = which("tmux") else {
            print("TmuxProbeTests skipped: tmux is not installed (apt install tmux)")
            return
        }
        let pane = try TmuxPane(tmux: tmux, columns: 40, rows: 10, command: "\(probePath) show")
        _ = try pane.waitFor("the first frame") { $0.contains("probe 40x10") }
        let pid = try #require(pane.probePID)
        kill(pid, signal)
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "\(128 + signal)")
        #expect(pane.waitForFile("after") == pane.file("before"))
        #expect(try pane.display("#{alternate_on}") == "0")
    }

    @Test func suspendAndResume() throws {
        guard let tmux = which("tmux") else {
            print("TmuxProbeTests skipped: tmux is not installed (apt install tmux)")
            return
        }
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
        #expect(pane.waitForFile("rc")?.trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        #expect(pane.waitForFile("after") == pane.file("before"))
    }
}
