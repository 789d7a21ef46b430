import Foundation
import Imaging
import Testing
import TestSupport
@testable import Terminal

// TerminalProbe in real graphical terminals on a virtual X server: xterm -ti vt340 (sixel) and kitty
// (its graphics protocol), screenshots compared with the pattern the probe draws.


private var probePath: String {
    Lookaround.executablePath.replacingOccurrences(of: "/lookaround", with: "/TerminalProbe", options: .backwards)
}

@Suite(.serialized) struct XvfbProbeTests {
    /// The displays an X server listens on, as a missing window's report gives them, are read from the
    /// process's own sockets: a process listening on the abstract socket @/tmp/.X11-unix/XN is found
    /// listening on display N, and not once it closes — also when the machine has so many Unix sockets
    /// that /proc/net/unix is longer than one page: 80 more are opened first, and every one of them must be
    /// in the table as read (a single `read` returns its first 4 kB only, about 40 lines).
    @Test func listeningDisplaysAreReadFromTheProcessSockets() throws {
        var fillers: [Int32] = []
        defer { fillers.forEach { close($0) } }
        for index in 0..<80 {
            let filler = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            try #require(filler >= 0)
            fillers.append(filler)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let name = Array("lookaround-filler-\(getpid())-\(index)".utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { path in
                for (i, byte) in name.enumerated() { path[i + 1] = byte }
            }
            let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
            let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(filler, $0, length) } }
            try #require(bound == 0 && listen(filler, 1) == 0, "filler bind/listen: \(String(cString: strerror(errno)))")
        }
        let table = VirtualDisplay.procFile("/proc/net/unix")
        let missing = (0..<80).filter { !table.contains("@lookaround-filler-\(getpid())-\($0)\n") }
        #expect(table.utf8.count > 4_096 && missing.isEmpty, "/proc/net/unix read as \(table.utf8.count) bytes; fillers missing: \(missing)")
        let number = 50_000 + Int(getpid() % 10_000)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array("/tmp/.X11-unix/X\(number)".utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path[0] = 0    // abstract namespace
            for (i, byte) in name.enumerated() { path[i + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + name.count)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        try #require(bound == 0 && listen(fd, 4) == 0, "bind/listen: \(String(cString: strerror(errno)))")
        #expect(VirtualDisplay.listeningDisplays(of: getpid()).contains("\(number)"))
        close(fd)
        #expect(!VirtualDisplay.listeningDisplays(of: getpid()).contains("\(number)"))
    }

    /// The test X server does not reset when its last client leaves (`-noreset`). A reset also drops
    /// the clients still connecting: in parallel runs the window search's xdotool left while the
    /// terminal was connecting, and the terminal failed with "Can't open display". Without the flag
    /// the root window's property set by one client is gone ("no such atom") for the next.
    @Test func theXServerKeepsItsStateWhenItsLastClientLeaves() throws {
        guard let xprop = which("xprop") else { try Test.cancel("XvfbProbeTests skipped: xprop is not installed (apt install x11-utils)") }
        try VirtualDisplay.withXvfb { display, folder in
            _ = try VirtualDisplay.output(xprop, ["-root", "-f", "LOOKAROUND_MARK", "8s", "-set", "LOOKAROUND_MARK", "kept"],
                                         environment: ["DISPLAY": display], folder: folder)
            let read = try VirtualDisplay.output(xprop, ["-root", "LOOKAROUND_MARK"], environment: ["DISPLAY": display], folder: folder)
            #expect(read.contains("\"kept\""), "the root window's property after its client left: \(read)")
        }
    }

    /// A program is signalled only while it runs: `stop` after it ended (and was reaped) returns at
    /// once and keeps its exit status; before, it sent SIGTERM and, 2 s later, SIGKILL to the pid,
    /// which by then can be another process's. `stop` of a running program ends it with SIGTERM.
    @Test func aProgramIsSignalledOnlyWhileItRuns() throws {
        let done = try VirtualDisplay.start("/bin/sh", ["-c", "exit 3"])
        #expect(done.exited(withinSeconds: 10))
        let start = Date()
        done.stop()
        done.stop()
        #expect(Date().timeIntervalSince(start) < 1, "stop of an ended program waits for nothing")
        #expect(done.status.map { ($0 >> 8) & 0xFF } == 3, "exit status \(String(describing: done.status))")
        let running = try VirtualDisplay.start("/bin/sleep", ["30"])
        #expect(running.poll() == nil)
        running.stop()
        #expect(running.status.map { $0 & 0x7F } == SIGTERM, "ended by SIGTERM: \(String(describing: running.status))")
    }

    /// xterm -ti vt340: the probe detects sixel (DA1 attribute 4) and the 6×13 cells (CSI 16 t);
    /// the screenshot at (3, 3) matches the pattern within palette quantisation (PSNR ≥ 25 dB).
    @Test func sixelInXterm() throws {
        let xterm = try VirtualDisplay.requireTerminal("xterm", package: "xterm", test: "XvfbProbeTests.sixelInXterm")
        try VirtualDisplay.withXvfb { display, folder in
            let title = "lookaround-sixel-\(getpid())"
            let terminal = try VirtualDisplay.start(xterm, ["-ti", "vt340", "-xrm", "XTerm*maxGraphicSize: 2000x2000", "-xrm", "XTerm*allowWindowOps: true",
                                             "-T", title, "-geometry", "60x20+0+0", "-e", probePath, "show"], environment: ["DISPLAY": display],
                                                    errorLog: folder + "/xterm.err")
            defer { terminal.stop() }
            let id = try VirtualDisplay.window(title, display: display, folder: folder, process: terminal, errorLog: folder + "/xterm.err").id()
            let expected = TerminalTestPattern.image(width: 60 * 6, height: 19 * 13, shift: 0)
            let result = try VirtualDisplay.screenshot(id, display: display, folder: folder, expected: expected) { $0.psnr >= 25 }
            print("xterm -ti vt340 sixel: PSNR \(String(format: "%.1f", result.psnr)) dB at offset \(result.offset)")
            #expect(result.psnr >= 25, "PSNR \(result.psnr) dB")
            // xwd -id includes the window's 1 px X border; xterm's 2 px internal border comes next.
            #expect(result.offset == (3, 3), "the first cell at (3, 3)")
            try VirtualDisplay.quit(terminal, display: display, folder: folder)
        }
    }

    /// A terminal that ends before its window shows is reported with its status and errors at once,
    /// not waited for: the message a failed start of xterm or kitty gives.
    @Test func aTerminalThatEndsIsReportedWithItsErrors() throws {
        guard which("xdotool") != nil else { try Test.cancel("XvfbProbeTests skipped: xdotool is not installed") }
        try VirtualDisplay.withXvfb { display, folder in
            let errors = folder + "/fake.err"
            let fake = try VirtualDisplay.start("/bin/sh", ["-c", "echo 'cannot open font' >&2; exit 3"], environment: ["DISPLAY": display],
                                                errorLog: errors)
            let search = try VirtualDisplay.window("never-shown", display: display, folder: folder, process: fake, errorLog: errors)
            guard case .failed(let reason) = search else { Issue.record("a window was found: \(search)"); return }
            #expect(reason.contains("the terminal ended before its window never-shown showed"), "\(reason)")
            #expect(reason.contains("wait status 768") && reason.contains("cannot open font"), "\(reason)")
        }
    }

    /// kitty: the probe detects the graphics protocol (a=q answered) and the shared-memory frame is
    /// shown pixel for pixel.
    @Test func kittyGraphicsInKitty() throws {
        let kitty = try VirtualDisplay.requireTerminal("kitty", package: "kitty", test: "XvfbProbeTests.kittyGraphicsInKitty")
        try VirtualDisplay.withXvfb { display, folder in
            let title = "lookaround-kitty-\(getpid())"
            let report = folder + "/picture.txt"
            let terminal = try VirtualDisplay.startKitty(kitty, title: title, width: 560, height: 340, command: [probePath, "show"], display: display,
                                                         folder: folder, environment: ["LOOKAROUND_KITTY_SHM": "1", "LOOKAROUND_PROBE_REPORT": report],
                                                         errorLog: folder + "/kitty.err")
            defer { terminal.stop() }
            let id = try VirtualDisplay.window(title, display: display, folder: folder, process: terminal, errorLog: folder + "/kitty.err").id()
            // The picture is the probe's columns × (rows − 1) cells at the cell size kitty reported, which
            // its font decides (DejaVu Sans Mono: 9×20 px on one machine, 9×18 on another), and kitty
            // centres the cell grid in the window: the probe says what it sent; the window must show
            // exactly that, where the grid's padding puts it.
            var size: [Int] = [], waits = 0
            while size.count != 4, waits < 40 {
                size = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
                if size.count != 4 { usleep(250_000); waits += 1 }
            }
            try #require(size.count == 4 && size[2] > 0 && size[3] > 0, "the probe reported no picture size in \(report)")
            let (width, height, cellHeight) = (size[0], size[1], size[3])
            #expect((500...560).contains(width) && (250...340).contains(height), "picture \(width)×\(height) px in a 560×340 window")
            let padX = max(0, (560 - width) / 2), padY = max(0, (340 - height - cellHeight) / 2)
            let expected = TerminalTestPattern.image(width: width, height: height, shift: 0)
            let result = try VirtualDisplay.screenshot(id, display: display, folder: folder, expected: expected,
                                                       xOffsets: max(0, padX - 2)...(padX + 2), yOffsets: max(0, padY - 2)...(padY + 2)) { $0.identical == 1 }
            print("kitty graphics: \(String(format: "%.4f", 100 * result.identical)) % identical pixels at offset \(result.offset)")
            #expect(result.identical == 1, "identical \(result.identical), PSNR \(result.psnr)")
            try VirtualDisplay.quit(terminal, display: display, folder: folder)
        }
    }
}
