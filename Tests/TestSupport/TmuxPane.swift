import Foundation
import Terminal
import Testing

// A headless terminal for end-to-end tests: tmux on a socket of its own, a program in its pane,
// keys sent and the pane captured with its colours.

/// The path of an executable on $PATH, nil when it is not installed.
public func which(_ name: String) -> String? {
    for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(directory)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

/// tmux could not be started.
public enum TmuxError: Error { case spawnFailed(errno: Int32) }

/// One tmux server on a socket of its own (a reused name races with the last server's exit).
public final class TmuxPane {
    public let tmux: String, socket: String, folder: URL
    public init(tmux: String, columns: Int, rows: Int, command: String) throws {
        self.tmux = tmux
        socket = "lookaround-terminal-\(getpid())-\(UUID().uuidString.prefix(8))"
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(socket)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let f = folder.path
        let wrapper = "stty -g > \(f)/before; \(command); echo $? > \(f)/rc.tmp; mv \(f)/rc.tmp \(f)/rc; stty -g > \(f)/after.tmp; mv \(f)/after.tmp \(f)/after; sleep 60"
        try spawn(["-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "\(columns)", "-y", "\(rows)",
                   "-e", "COLORTERM=truecolor", wrapper])
    }

    @discardableResult public func run(_ arguments: [String]) throws -> String { try spawn(arguments) }

    /// Runs tmux with posix_spawn and waitpid, output through a file: the server that new-session
    /// starts inherits the client's descriptors (a pipe would never reach EOF), and Foundation's
    /// Process did not reap the client here.
    @discardableResult public func spawn(_ arguments: [String]) throws -> String {
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
            throw TmuxError.spawnFailed(errno: errno)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
    }

    public func capture() throws -> String { try run(["capture-pane", "-p", "-e", "-t", "t"]) }
    public func display(_ format: String) throws -> String {
        try run(["display", "-p", "-t", "t", format]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Polls the pane until `condition` holds on its capture (`seconds` at most: an upper bound that
    /// costs nothing when the program is quick, and room for a machine busy with a parallel test run).
    public func waitFor(_ what: String, seconds: Double = 20, _ condition: (String) -> Bool) throws -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var last = ""
        while Date() < deadline {
            last = try capture()
            if condition(last) { return last }
            usleep(30_000)
        }
        Issue.record("timed out waiting for \(what); pane shows:\n\(String(decoding: Array(last.utf8).filter { $0 != 0x1B }, as: UTF8.self))")
        return last
    }

    public var probePID: pid_t? {
        guard let pane = Int32((try? display("#{pane_pid}")) ?? ""),
              let children = try? String(contentsOfFile: "/proc/\(pane)/task/\(pane)/children", encoding: .utf8) else { return nil }
        return children.split(separator: " ").compactMap { Int32($0) }.first
    }

    public func file(_ name: String) -> String? {
        try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    /// The file the pane's wrapper writes (`rc`, `before`, `after`: each appears whole, by rename),
    /// once it is there (`seconds` at most).
    public func waitForFile(_ name: String, seconds: Double = 20) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let s = file(name) { return s }
            usleep(50_000)
        }
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
public func parseTmuxCapture(_ text: String) -> [[TerminalCell]] {
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
                applySelectGraphicRendition(n, foreground: &fg, background: &bg) { _ in }   // attributes: not looked at
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
