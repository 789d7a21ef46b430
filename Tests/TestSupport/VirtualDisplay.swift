import Foundation
import Imaging
import ProcessRunner
import Terminal
import Testing

/// Programs on a virtual X server (Xvfb) for tests of graphical terminals: start and stop them with a
/// cleared signal mask, find their windows, take screenshots with xwd and compare them with a picture.
public enum VirtualDisplay {
    /// The path of the graphical terminal `terminal` (from the Debian package `package`) when it and the
    /// screenshot tools (xdotool, xwd) are installed; else `test` is cancelled (reported as skipped),
    /// naming what to install.
    public static func requireTerminal(_ terminal: String, package: String, test: String) throws -> String {
        guard let path = which(terminal), which("xdotool") != nil, which("xwd") != nil else {
            try Test.cancel("\(test) skipped: \(terminal), xdotool or xwd is not installed (apt install \(package) xdotool x11-apps)")
        }
        return path
    }

    /// Starts kitty on `display` running `command`, as no user's kitty: no configuration file, its
    /// configuration, cache and Mesa shader cache in `folder`, a `width`×`height` px window titled
    /// `title` that closes when the command ends; `environment` added, errors to `errorLog`.
    public static func startKitty(_ kitty: String, title: String, width: Int, height: Int, command: [String], display: String,
                                  folder: String, environment: [String: String] = [:], errorLog: String) throws -> SpawnedProgram {
        for d in ["conf", "cache", "mesa"] { try FileManager.default.createDirectory(atPath: folder + "/" + d, withIntermediateDirectories: true) }
        return try start(kitty, ["--config", "NONE", "-T", title, "-o", "remember_window_size=no", "-o", "initial_window_width=\(width)",
                                 "-o", "initial_window_height=\(height)", "-o", "close_on_child_death=yes"] + command,
                         environment: ["DISPLAY": display, "KITTY_CONFIG_DIRECTORY": folder + "/conf", "KITTY_CACHE_DIRECTORY": folder + "/cache",
                                       "MESA_SHADER_CACHE_DIR": folder + "/mesa"].merging(environment) { $1 },
                         errorLog: errorLog)
    }

    /// Starts a program (signal mask cleared, output to `log` or /dev/null, errors to `errorLog` or
    /// /dev/null, no other descriptor of ours). `passing` is a descriptor of ours the program gets as
    /// its descriptor 3.
    public static func start(_ path: String, _ arguments: [String], environment: [String: String] = [:], log: String? = nil,
                             errorLog: String? = nil, passing descriptor: Int32? = nil) throws -> SpawnedProgram {
        let env = ProcessInfo.processInfo.environment.merging(environment) { $1 }.map { "\($0.key)=\($0.value)" }
        let argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup($0) } + [nil]
        defer { for p in argv + envp { free(p) } }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errorLog ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        if let descriptor { posix_spawn_file_actions_adddup2(&actions, descriptor, 3) }
        // Nothing else: in a parallel run another test's pipe would stay open in this program.
        let closing = ChildProcess.closeDescriptors(from: descriptor == nil ? 3 : 4, in: &actions)
        guard closing == 0 else { throw TerminalError.systemCall("posix_spawn_file_actions_addclosefrom_np", errno: closing) }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var pid: pid_t = 0
        guard posix_spawn(&pid, path, &actions, &attributes, argv, envp) == 0 else { throw TerminalError.systemCall("posix_spawn \(path)", errno: errno) }
        return SpawnedProgram(pid: pid)
    }

    /// Runs a program to the end and returns its standard output.
    public static func output(_ path: String, _ arguments: [String], environment: [String: String], folder: String) throws -> String {
        let log = folder + "/out-\(UUID().uuidString.prefix(6))"
        defer { unlink(log) }
        let program = try start(path, arguments, environment: environment, log: log)
        program.wait()
        return (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
    }

    /// A program ``start(_:_:environment:log:errorLog:passing:)`` started. It is reaped once, and
    /// never signalled after that: a reaped pid can belong to another process soon (pids wrap at
    /// 32,768 here), and a second `stop` used to send SIGTERM and SIGKILL to whatever had it then.
    public final class SpawnedProgram {
        public let pid: pid_t
        /// The wait status once reaped.
        public private(set) var status: Int32?

        init(pid: pid_t) { self.pid = pid }

        /// The wait status if the program has ended (reaping it), else nil.
        @discardableResult public func poll() -> Int32? {
            if status == nil {
                var s: Int32 = 0
                if waitpid(pid, &s, WNOHANG) == pid { status = s }
            }
            return status
        }

        /// Waits for the program to end.
        public func wait() {
            var s: Int32 = 0
            while status == nil {
                if waitpid(pid, &s, 0) == pid { status = s } else if errno != EINTR { return }
            }
        }

        /// Whether it ends within `seconds`.
        public func exited(withinSeconds seconds: Double) -> Bool {
            for _ in 0..<max(1, Int(seconds * 50)) { if poll() != nil { return true }; usleep(20_000) }
            return false
        }

        /// SIGTERM, then SIGKILL after 2 s; nothing once it has ended.
        public func stop() {
            guard poll() == nil else { return }
            kill(pid, SIGTERM)
            if exited(withinSeconds: 2) { return }
            kill(pid, SIGKILL)
            wait()
        }
    }

    /// An `xwd` window dump (X11 version 7, ZPixmap, 32 bits per pixel) as RGB.
    public static func decodeXWD(_ data: [UInt8]) throws -> RGB8Image {
        func u32(_ i: Int) -> Int { Int(data[4 * i]) << 24 | Int(data[4 * i + 1]) << 16 | Int(data[4 * i + 2]) << 8 | Int(data[4 * i + 3]) }
        let headerSize = u32(0), width = u32(4), height = u32(5), byteOrder = u32(7), bitsPerPixel = u32(11), bytesPerLine = u32(12)
        let colors = u32(19)
        try #require(u32(1) == 7 && bitsPerPixel == 32, "xwd version \(u32(1)), \(bitsPerPixel) bits per pixel")
        let start = headerSize + colors * 12
        var image = RGB8Image(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let p = start + y * bytesPerLine + 4 * x
                let (r, g, b) = byteOrder == 0 ? (data[p + 2], data[p + 1], data[p]) : (data[p + 1], data[p + 2], data[p + 3])
                image[x, y, 0] = r; image[x, y, 1] = g; image[x, y, 2] = b
            }
        }
        return image
    }

    /// PSNR (dB) of `shot` cropped at the best offset within 0…4 px against `expected`; the share of identical pixels.
    public static func compare(_ shot: RGB8Image, _ expected: RGB8Image, xOffsets: ClosedRange<Int> = 0...4,
                               yOffsets: ClosedRange<Int> = 0...4) -> (psnr: Double, identical: Double, offset: (Int, Int)) {
        var best = (psnr: 0.0, identical: 0.0, offset: (0, 0))
        for oy in yOffsets {
            for ox in xOffsets where ox + expected.width <= shot.width && oy + expected.height <= shot.height {
                var squared = 0.0, same = 0
                for y in 0..<expected.height {
                    for x in 0..<expected.width {
                        var equal = true
                        for c in 0..<3 {
                            let d = Double(shot[x + ox, y + oy, c]) - Double(expected[x, y, c])
                            squared += d * d
                            if d != 0 { equal = false }
                        }
                        if equal { same += 1 }
                    }
                }
                let mse = squared / Double(expected.pixelCount * 3)
                let psnr = mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
                if psnr > best.psnr { best = (psnr, Double(same) / Double(expected.pixelCount), (ox, oy)) }
            }
        }
        return best
    }


    /// One virtual X server per test, its screen `screen` (WxHxDepth). Xvfb picks a free display itself (`-displayfd`): choosing the
    /// number here raced when two suites of one test process (one pid) started servers at the same
    /// moment. A window that does not show is reported with the server's state: running or not, the
    /// displays its own sockets listen on (found through /proc), and its log.
    public static func withXvfb(screen: String = "1024x768x24", _ body: (_ display: String, _ folder: String) throws -> Void) throws {
        guard let xvfb = which("Xvfb") else { try Test.cancel("skipped: Xvfb is not installed (apt install xvfb)") }
        let folder = NSTemporaryDirectory() + "lookaround-xvfb-\(getpid())-\(UUID().uuidString.prefix(6))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw TerminalError.systemCall("pipe", errno: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }   // only Xvfb gets it, as its descriptor 3
        defer { close(ends[0]) }
        let server: SpawnedProgram
        let log = folder + "/xvfb.log"
        do {
            defer { close(ends[1]) }
            // -noreset: an X server resets when its last client leaves, and a reset drops the clients
            // still in their connection setup. The window search's xdotool (connecting and leaving every
            // 50 ms from the terminal's start) was that last client while the terminal was still
            // connecting, on a machine slowed by a parallel run: the terminal then failed at once with
            // "Can't open display" while the server ran on that display (runs 4 of c7336ef, 7 and 8 of
            // e232960, 8 of f318450).
            server = try start(xvfb, ["-displayfd", "3", "-noreset", "-screen", "0", screen, "-nolisten", "tcp"],
                               errorLog: log, passing: ends[1])
        }
        defer { server.stop() }
        func state() -> String {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            let listening = listeningDisplays(of: server.pid).sorted().map { ":\($0)" }.joined(separator: ", ")
            return (server.poll().map { "had ended (wait status \($0))" } ?? "was running, listening on [\(listening)]") + "; its log: \(text)"
        }
        guard let number = readLine(ends[0], withinSeconds: 20) else {
            throw WindowMissing(reason: "Xvfb did not report a display within 20 s: it \(state())")
        }
        do {
            try body(":\(number)", folder)
        } catch let missing as WindowMissing {
            throw WindowMissing(reason: missing.reason + "; the X server :\(number) \(state())")
        }
    }

    /// The display numbers `pid` listens on: its Unix sockets (from /proc/PID/fd) that /proc/net/unix
    /// lists as listening on @/tmp/.X11-unix/XN or /tmp/.X11-unix/XN.
    public static func listeningDisplays(of pid: pid_t) -> Set<String> {
        let fdFolder = "/proc/\(pid)/fd"
        var inodes = Set<Substring>()
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: fdFolder)) ?? [] {
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: fdFolder + "/" + entry),
                  target.hasPrefix("socket:[") else { continue }
            inodes.insert(Substring(target.dropFirst(8).dropLast()))
        }
        var displays = Set<String>()
        // Num RefCount Protocol Flags Type St Inode Path; flags 00010000 is __SO_ACCEPTCON (listening).
        for line in procFile("/proc/net/unix").split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 8, fields[3] == "00010000", inodes.contains(fields[6]),
                  let range = fields[7].range(of: "/tmp/.X11-unix/X") else { continue }
            let number = fields[7][range.upperBound...]
            if !number.isEmpty, number.allSatisfy(\.isNumber) { displays.insert(String(number)) }
        }
        return displays
    }

    /// A file of /proc read to its end. Foundation's `String(contentsOfFile:)` reads a /proc file with one
    /// `read` (its size says 0), which the kernel answers with one page: /proc/net/unix on a machine with
    /// more than about 50 Unix sockets (a parallel test run with browsers and X servers) was cut after
    /// 4 kB, and a listening display beyond that line was not found.
    public static func procFile(_ path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "" }
        defer { close(descriptor) }
        var bytes: [UInt8] = [], chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The first line written to `descriptor`, or nil when it closes or nothing comes within `seconds`.
    private static func readLine(_ descriptor: Int32, withinSeconds seconds: Double) -> String? {
        var text = ""
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) >= 0 || errno == EINTR else { return nil }
            guard poller.revents != 0 else { continue }
            var byte: UInt8 = 0
            guard read(descriptor, &byte, 1) == 1 else { return nil }
            if byte == UInt8(ascii: "\n") { return text.isEmpty ? nil : text }
            text.append(Character(UnicodeScalar(byte)))
        }
        return nil
    }

    /// The window titled `title` that the terminal `process` opens, or why there is none: the
    /// process ended (its status, and what it wrote to `errorLog`), or `seconds` passed while it ran
    /// (the windows the display has then). Waits as long as the process lives, up to `seconds`: a
    /// terminal starting on a machine busy with a parallel test run can take ten.
    public static func window(_ title: String, display: String, folder: String, process: SpawnedProgram, errorLog: String? = nil,
                              withinSeconds seconds: Double = 60) throws -> WindowSearch {
        guard let xdotool = which("xdotool") else { return .failed("xdotool is not installed") }
        let start = Date(), deadline = start.addingTimeInterval(seconds)
        func errors() -> String { errorLog.flatMap { try? String(contentsOfFile: $0, encoding: .utf8) } ?? "" }
        while Date() < deadline {
            let id = try output(xdotool, ["search", "--name", "^\(title)$"], environment: ["DISPLAY": display], folder: folder)
                .split(separator: "\n").first.map(String.init)
            if let id { return .found(id) }
            if let status = process.poll() {
                return .failed("the terminal ended before its window \(title) showed (wait status \(status), after "
                               + "\(String(format: "%.1f", Date().timeIntervalSince(start))) s); its errors: \(errors())")
            }
            usleep(50_000)
        }
        let windows = (try? output(xdotool, ["search", "--name", "."], environment: ["DISPLAY": display], folder: folder)) ?? ""
        return .failed("no window \(title) within \(Int(seconds)) s while the terminal ran; windows on \(display): "
                       + "[\(windows.split(separator: "\n").joined(separator: ", "))]; its errors: \(errors())")
    }

    /// What ``window(_:display:folder:process:errorLog:withinSeconds:)`` found.
    public enum WindowSearch {
        /// The window's id.
        case found(String)
        /// Why there is none.
        case failed(String)

        /// The id, or a test failure with the reason.
        public func id() throws -> String {
            switch self {
            case .found(let id): return id
            case .failed(let reason): throw WindowMissing(reason: reason)
            }
        }
    }

    /// No terminal window: the reason.
    public struct WindowMissing: Error, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// What ``compare(_:_:xOffsets:yOffsets:)`` finds: PSNR (dB), the share of identical pixels, the offset.
    public typealias Comparison = (psnr: Double, identical: Double, offset: (Int, Int))

    /// Screenshots until `good` holds or 6 s pass; the last comparison (`expected` looked for at the
    /// offsets given).
    public static func screenshot(_ window: String, display: String, folder: String, expected: RGB8Image,
                                  xOffsets: ClosedRange<Int> = 0...4, yOffsets: ClosedRange<Int> = 0...4,
                                  good: (Comparison) -> Bool) throws -> Comparison {
        var last: Comparison = (0, 0, (0, 0))
        _ = try screenshot(window, display: display, folder: folder, attempts: 12) { shot in
            last = compare(shot, expected, xOffsets: xOffsets, yOffsets: yOffsets)
            return last
        } good: { good($0) }
        return last
    }

    /// Screenshots every 0.5 s, each compared by `compare`, until `good` holds or `attempts` were
    /// taken; the comparison with the best PSNR.
    public static func screenshot(_ window: String, display: String, folder: String, attempts: Int,
                                  compare: (RGB8Image) -> Comparison, good: (Comparison) -> Bool) throws -> Comparison {
        let xwd = try #require(which("xwd"))
        var best: Comparison = (0, 0, (0, 0))
        let path = folder + "/shot.xwd"
        for _ in 0..<attempts {
            let dump = try start(xwd, ["-id", window, "-silent", "-out", path], environment: ["DISPLAY": display])
            if !dump.exited(withinSeconds: 5) { dump.stop() }
            if let data = FileManager.default.contents(atPath: path), data.count > 100 {
                let result = compare(try decodeXWD([UInt8](data)))
                if result.psnr >= best.psnr { best = result }
                if good(result) { return result }
            }
            usleep(500_000)
        }
        return best
    }

    public static func quit(_ terminal: SpawnedProgram, display: String, folder: String) throws {
        if let xdotool = which("xdotool") {
            _ = try output(xdotool, ["mousemove", "50", "50", "key", "q"], environment: ["DISPLAY": display], folder: folder)
        }
        #expect(terminal.exited(withinSeconds: 20), "the terminal closed after q")
        terminal.stop()
    }

}
