import CSixel
import Foundation

/// Writes to a file descriptor.
public enum TerminalOutput {
    /// Writes all of `bytes` with as few `write` calls as the kernel allows (one for a frame that fits
    /// the terminal's buffer), retrying on EINTR and waiting on EAGAIN. False on any other error.
    @discardableResult
    public static func writeAll(_ fileDescriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if n > 0 { offset += n; continue }
                if n < 0 && errno == EINTR { continue }
                if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                    var descriptor = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&descriptor, 1, 1000)
                    continue
                }
                return false
            }
            return true
        }
    }
}

/// Raw mode through termios: no echo, no line buffering, no signals from keys (Ctrl-C arrives as a
/// byte), no output processing.
public enum RawMode {
    /// Puts the terminal on `fileDescriptor` in raw mode and returns the settings to restore.
    /// - Throws: `TerminalError.notATerminal` when it is not a terminal.
    public static func enter(_ fileDescriptor: Int32) throws -> termios {
        var saved = termios()
        guard tcgetattr(fileDescriptor, &saved) == 0 else { throw TerminalError.notATerminal(fileDescriptor: fileDescriptor) }
        var raw = saved
        cfmakeraw(&raw)
        guard tcsetattr(fileDescriptor, TCSANOW, &raw) == 0 else { throw TerminalError.systemCall("tcsetattr", errno: errno) }
        return saved
    }

    /// Restores settings saved by `enter`.
    public static func restore(_ fileDescriptor: Int32, _ saved: termios) {
        var s = saved
        tcsetattr(fileDescriptor, TCSAFLUSH, &s)
    }
}

/// What a session's `readEvents` returns besides input.
public enum SessionEvent: Hashable, Sendable {
    case input(InputEvent)
    /// SIGWINCH: the window is now `columns × rows` cells (repaint everything).
    case resized(columns: Int, rows: Int)
    /// SIGCONT after a suspend (Ctrl-Z) or a stop: the terminal is raw and full-screen again; repaint everything.
    case resumed
}

/// A full-screen terminal session: raw mode, alternate screen, hidden cursor, no autowrap, SGR mouse
/// and bracketed paste on entry, all undone on every way out — `restore()`, deinit, `exit()` (atexit),
/// SIGINT, SIGTERM, SIGHUP, SIGQUIT and crashes (SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE: the
/// terminal is restored, then the signal takes its default action). Ctrl-Z (SIGTSTP) restores the
/// terminal and stops; SIGCONT enters raw full-screen mode again and reports `.resumed`; SIGWINCH
/// reports `.resized`. One session at a time per process.
///
/// A viewer loop: `let events = session.readEvents(timeoutMilliseconds: 33)`, handle them, render,
/// `try session.write(presenter.bytes(for: frame))`; after `.resized` or `.resumed` call
/// `presenter.invalidate()`. `readEvents` from one thread at a time (an input thread); `write` may be
/// called from another (a render thread): each frame is one `write` loop on the file descriptor.
///
/// `@unchecked Sendable`: `parser` is used only by the one thread that reads events; `restored` is read and written under `lock` only; `write` touches nothing but the descriptor; `input` and `output` are `let`.
public final class TerminalSession: @unchecked Sendable {
    public let input: Int32
    public let output: Int32
    private var parser = InputParser()
    private var restored = false
    private let lock = NSLock()

    /// Enters raw full-screen mode on the terminal (`input` and `output` usually 0 and 1).
    /// - Parameter modes: the sequences sent on entry (`ControlSequence.sessionStart`); `endModes` undoes them.
    /// - Throws: `TerminalError.notATerminal` when `input` or `output` is not a terminal.
    public init(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO,
                modes: String = ControlSequence.sessionStart, endModes: String = ControlSequence.sessionEnd) throws {
        guard isatty(output) == 1 else { throw TerminalError.notATerminal(fileDescriptor: output) }
        self.input = input
        self.output = output
        let saved = try RawMode.enter(input)
        var raw = termios()
        tcgetattr(input, &raw)
        try SessionSignals.install(input: input, output: output, saved: saved, raw: raw,
                                   start: Array(modes.utf8), end: Array(endModes.utf8))
        TerminalOutput.writeAll(output, Array(modes.utf8))
    }

    deinit { restore() }

    /// The window size now (cells, and pixels when the terminal reports them, else 0).
    public var size: (columns: Int, rows: Int, widthPixels: Int, heightPixels: Int) {
        TerminalDetector.windowSize(of: output) ?? (80, 24, 0, 0)
    }

    /// Writes one frame's bytes (one write call when the kernel takes them all).
    public func write(_ bytes: [UInt8]) throws {
        guard TerminalOutput.writeAll(output, bytes) else { throw TerminalError.systemCall("write", errno: errno) }
    }

    /// Waits up to `timeoutMilliseconds` for input or a signal and returns what came (possibly
    /// nothing). A lone ESC is held for `InputParser.pendingEscapeTimeoutMilliseconds` for the rest of a
    /// sequence, then reported as the Escape key.
    public func readEvents(timeoutMilliseconds: Int) -> [SessionEvent] {
        var events: [SessionEvent] = []
        var descriptors = [pollfd(fd: input, events: Int16(POLLIN), revents: 0),
                           pollfd(fd: SessionSignals.pipeRead, events: Int16(POLLIN), revents: 0)]
        var timeout = timeoutMilliseconds
        while true {
            let ready = poll(&descriptors, 2, Int32(timeout))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 {
                if parser.hasPendingBytes { events += parser.flush().map { .input($0) } }
                return events
            }
            if descriptors[1].revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 64)
                let n = read(SessionSignals.pipeRead, &buffer, buffer.count)
                var resized = false, resumed = false
                for b in buffer.prefix(max(0, n)) { if b == 0x57 { resized = true } else if b == 0x43 { resumed = true } }
                if resumed { parser = InputParser(); events.append(.resumed) }
                if resized { let s = size; events.append(.resized(columns: s.columns, rows: s.rows)) }
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(input, &buffer, buffer.count)
                if n > 0 { events += parser.feed(buffer[0..<n]).map { .input($0) } }
                if n == 0 || descriptors[0].revents & Int16(POLLHUP | POLLERR) != 0, events.isEmpty {
                    // The terminal went away: report nothing more; the caller sees its writes fail.
                    return events
                }
            }
            if !events.isEmpty && !parser.hasPendingBytes { return events }
            timeout = InputParser.pendingEscapeTimeoutMilliseconds
            descriptors[0].revents = 0
            descriptors[1].revents = 0
        }
    }

    /// Suspends the process as Ctrl-Z does in a shell (raw mode delivers Ctrl-Z as a key, not as
    /// SIGTSTP): restores the terminal and stops; after SIGCONT (`fg`) `readEvents` reports `.resumed`.
    public func suspend() {
        raise(SIGTSTP)
    }

    /// Leaves full-screen raw mode (idempotent): modes off, normal screen, cursor shown, termios restored.
    public func restore() {
        lock.lock()
        defer { lock.unlock() }
        guard !restored else { return }
        restored = true
        SessionSignals.restoreTerminal()
        SessionSignals.uninstall()
    }
}

/// The process-wide state the signal handlers use: only async-signal-safe calls (write, tcsetattr,
/// signal, raise, kill) on memory set up before the handlers were installed.
enum SessionSignals {
    nonisolated(unsafe) static var active = false
    nonisolated(unsafe) static var input: Int32 = 0
    nonisolated(unsafe) static var output: Int32 = 1
    nonisolated(unsafe) static var saved = termios()
    nonisolated(unsafe) static var raw = termios()
    nonisolated(unsafe) static var startBytes: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    nonisolated(unsafe) static var endBytes: UnsafeMutableBufferPointer<UInt8> = .init(start: nil, count: 0)
    nonisolated(unsafe) static var pipeRead: Int32 = -1
    nonisolated(unsafe) static var pipeWrite: Int32 = -1
    nonisolated(unsafe) static var atexitRegistered = false

    static let fatal: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE]

    static func install(input: Int32, output: Int32, saved: termios, raw: termios, start: [UInt8], end: [UInt8]) throws {
        precondition(!active, "one TerminalSession at a time")
        self.input = input
        self.output = output
        self.saved = saved
        self.raw = raw
        startBytes = .allocate(capacity: start.count)
        _ = startBytes.initialize(from: start)
        endBytes = .allocate(capacity: end.count)
        _ = endBytes.initialize(from: end)
        if pipeRead < 0 {
            var fds: [Int32] = [0, 0]
            guard pipe(&fds) == 0 else { throw TerminalError.systemCall("pipe", errno: errno) }
            pipeRead = fds[0]
            pipeWrite = fds[1]
            for fd in fds { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK); _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        }
        active = true
        // A parent may have left these blocked (Foundation's Process passes its mask on through exec):
        // the session's promise to restore the terminal on them needs them delivered.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for s in fatal + [SIGTSTP, SIGCONT, SIGWINCH] { sigaddset(&unblock, s) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        for s in fatal { signal(s, fatalHandler) }
        signal(SIGTSTP, suspendHandler)
        signal(SIGTTIN, suspendHandler)
        signal(SIGTTOU, SIG_IGN)
        signal(SIGCONT, continueHandler)
        signal(SIGWINCH, resizeHandler)
        if !atexitRegistered {
            atexitRegistered = true
            atexit { SessionSignals.restoreTerminal() }
        }
    }

    static func uninstall() {
        for s in fatal + [SIGTSTP, SIGTTIN, SIGTTOU, SIGCONT, SIGWINCH] { signal(s, SIG_DFL) }
        startBytes.deallocate()
        endBytes.deallocate()
        startBytes = .init(start: nil, count: 0)
        endBytes = .init(start: nil, count: 0)
    }

    /// Modes off and termios restored (async-signal-safe; does nothing when no session is active).
    static func restoreTerminal() {
        guard active else { return }
        active = false
        writeRaw(endBytes)
        tcsetattr(input, TCSAFLUSH, &saved)
    }

    static func writeRaw(_ bytes: UnsafeMutableBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = write(output, base + offset, bytes.count - offset)
            if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { break }
        }
    }

    static func notify(_ byte: UInt8) {
        var b = byte
        _ = write(pipeWrite, &b, 1)
    }
}

private let fatalHandler: @convention(c) (Int32) -> Void = { signalNumber in
    SessionSignals.restoreTerminal()
    signal(signalNumber, SIG_DFL)
    raise(signalNumber)
}

private let suspendHandler: @convention(c) (Int32) -> Void = { _ in
    let code = errno
    if SessionSignals.active {
        SessionSignals.writeRaw(SessionSignals.endBytes)
        tcsetattr(SessionSignals.input, TCSAFLUSH, &SessionSignals.saved)
    }
    // SIGSTOP cannot be caught or blocked: stop here; SIGCONT's handler re-enters the session.
    kill(getpid(), SIGSTOP)
    errno = code
}

private let continueHandler: @convention(c) (Int32) -> Void = { _ in
    let code = errno
    if SessionSignals.active {
        tcsetattr(SessionSignals.input, TCSANOW, &SessionSignals.raw)
        SessionSignals.writeRaw(SessionSignals.startBytes)
        SessionSignals.notify(0x43)  // "C"
    }
    errno = code
}

private let resizeHandler: @convention(c) (Int32) -> Void = { _ in
    let code = errno
    SessionSignals.notify(0x57)  // "W"
    errno = code
}
