import CSixel
import Foundation
import Imaging
import Testing
@testable import Terminal

/// A pseudo-terminal whose far end plays a terminal: it answers the queries with `reply` once it has
/// seen DA1 (`ESC [ c`), or stays silent when `reply` is nil.
private final class FakeTerminal: @unchecked Sendable {
    let master: Int32, slave: Int32
    private(set) var received: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(reply: String?, columns: UInt16 = 100, rows: UInt16 = 30, widthPixels: UInt16 = 0, heightPixels: UInt16 = 0) throws {
        var m: Int32 = -1, s: Int32 = -1
        try #require(lk_open_pseudo_terminal(&m, &s) == 0)
        master = m
        slave = s
        _ = try RawMode.enter(slave)
        _ = lk_terminal_set_window_size(slave, columns, rows, widthPixels, heightPixels)
        let master = self.master
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 512)
            var seen: [UInt8] = []
            let deadline = Date().addingTimeInterval(3)
            while Date() < deadline {
                var d = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&d, 1, 50) > 0 else { continue }
                let n = read(master, &buffer, buffer.count)
                if n <= 0 { break }
                seen += buffer[0..<n]
                if seen.count >= 3, Array(seen.suffix(3)) == [0x1B, 0x5B, 0x63] {
                    if let reply { TerminalOutput.writeAll(master, Array(reply.utf8)) }
                    break
                }
            }
            received = seen
            done.signal()
        }
    }

    func finish() -> [UInt8] {
        _ = done.wait(timeout: .now() + 4)
        close(slave)
        close(master)
        return received
    }
}

@Suite struct DetectionTests {
    @Test func environmentAlone() {
        let kitty = TerminalDetector.fromEnvironment(["TERM": "xterm-kitty", "KITTY_WINDOW_ID": "1", "COLORTERM": "truecolor"])
        #expect(kitty.kittyGraphics == true && kitty.truecolor && kitty.resolve(.auto).protocol == .kitty)
        let kittyInTmux = TerminalDetector.fromEnvironment(["TERM": "tmux-256color", "KITTY_WINDOW_ID": "1", "TMUX": "/tmp/x,1,0"])
        #expect(kittyInTmux.kittyGraphics == false && kittyInTmux.sixel == false && kittyInTmux.insideTmux)
        #expect(kittyInTmux.resolve(.auto).protocol == .truecolor)
        let old = TerminalDetector.fromEnvironment(["TERM": "xterm-256color"])
        #expect(!old.truecolor && old.resolve(.auto).protocol == .palette256)
        #expect(old.reasons.contains { $0.contains("TERM=xterm-256color") })
        let gnome = TerminalDetector.fromEnvironment(["TERM": "xterm-256color", "COLORTERM": "truecolor"])
        #expect(gnome.truecolor && gnome.kittyGraphics == nil)
        #expect(TerminalDetector.fromEnvironment(["TERM": "linux"]).resolve(.auto).protocol == .palette256)
        #expect(TerminalDetector.fromEnvironment(["TERM": "xterm"]).resolve(.auto).protocol == .truecolor)
        #expect(TerminalDetector.fromEnvironment(["TERM": "xterm", "SSH_TTY": "/dev/pts/1"]).remote)
        // Explicit choices win.
        #expect(kitty.resolve(.palette256).protocol == .palette256 && old.resolve(.sixel).protocol == .sixel)
    }

    @Test func protocolOption() throws {
        #expect(try OutputProtocolChoice(parsing: "AUTO") == .auto)
        #expect(try OutputProtocolChoice(parsing: "256") == .palette256)
        #expect(try OutputProtocolChoice(parsing: "truecolor") == .truecolor)
        #expect(throws: TerminalError.unknownProtocol("ascii")) { try OutputProtocolChoice(parsing: "ascii") }
        #expect(TerminalError.unknownProtocol("ascii").description.contains("auto, kitty, sixel, truecolor, 256"))
    }

    /// xterm -ti vt340's replies (verified in ../shared/notes/terminal.md §2).
    @Test func answeringTerminalXtermVT340() throws {
        let fake = try FakeTerminal(reply: "\u{1B}[?2026;0$y\u{1B}[6;13;6t\u{1B}[4;390;600t\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?2;0;600;390S"
                                           + "\u{1B}[?63;1;2;4;6;9;15;16;22;28c",
                                    columns: 100, rows: 30, widthPixels: 604, heightPixels: 394)
        var c = TerminalDetector.fromEnvironment(["TERM": "xterm"])
        let reply = TerminalDetector.query(&c, input: fake.slave, output: fake.slave, timeoutMilliseconds: 2000)
        let sent = fake.finish()
        #expect(sent == TerminalDetector.queryBytes(includeKitty: true))
        #expect(!reply.isEmpty && c.answeredQueries)
        #expect(c.sixel == true && c.kittyGraphics == false && c.synchronizedOutput == false)
        #expect(c.cellPixelSize == PixelSize(width: 6, height: 13) && c.windowPixelSize == PixelSize(width: 600, height: 390))
        #expect(c.columns == 100 && c.rows == 30 && c.terminalName == "XTerm(379)")
        #expect(c.sixelMaximumPixelSize == PixelSize(width: 600, height: 390))
        #expect(c.resolve(.auto).protocol == .sixel)
        let report = c.report()
        #expect(report.contains("protocol:            sixel") && report.contains("attribute 4"))
        #expect(report.contains("sixel:               yes, images up to 600×390 px") && report.contains("XTSMGRAPHICS"))
    }

    /// A sixel terminal that does not say how large an image it shows (no XTSMGRAPHICS reply, or a
    /// failure status): `auto` takes the half-blocks, since a picture over its limit would be dropped
    /// without a word; `--protocol sixel` still gets sixel.
    @Test(arguments: ["", "\u{1B}[?2;3;0S", "\u{1B}[?2;0;0;0S"])
    func sixelWithoutAKnownLimitFallsBackToCells(xtsmgraphics: String) throws {
        let fake = try FakeTerminal(reply: "\u{1B}P>|XTerm(379)\u{1B}\\" + xtsmgraphics + "\u{1B}[?63;1;2;4;6;9;15;16;22;28c")
        var c = TerminalDetector.fromEnvironment(["TERM": "xterm"])
        TerminalDetector.query(&c, input: fake.slave, output: fake.slave, timeoutMilliseconds: 2000)
        _ = fake.finish()
        #expect(c.sixel == true && c.sixelMaximumPixelSize == nil)
        let auto = c.resolve(.auto)
        #expect(auto.protocol == .truecolor && auto.reason.contains("not the largest image"), "\(auto.reason)")
        #expect(c.resolve(.sixel).protocol == .sixel)
        #expect(c.report().contains("sixel:               yes, largest image unknown"))
        if !xtsmgraphics.isEmpty { #expect(c.reasons.contains { $0.contains("XTSMGRAPHICS answered status") }) }
        // Without 24-bit colour the fallback is 256 colours.
        var old = c
        old.truecolor = false
        #expect(old.resolve(.auto).protocol == .palette256)
    }

    /// kitty's replies: the graphics query answered OK before DA1.
    @Test func answeringTerminalKitty() throws {
        let fake = try FakeTerminal(reply: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?2026;2$y\u{1B}[6;20;9t\u{1B}[4;400;639t\u{1B}P>|kitty(0.26.5)\u{1B}\\\u{1B}[?62;c")
        var c = TerminalDetector.fromEnvironment(["TERM": "xterm-kitty"])
        TerminalDetector.query(&c, input: fake.slave, output: fake.slave, timeoutMilliseconds: 2000)
        _ = fake.finish()
        #expect(c.kittyGraphics == true && c.sixel == false && c.synchronizedOutput == true)
        #expect(c.cellPixelSize == PixelSize(width: 9, height: 20) && c.resolve(.auto).protocol == .kitty)
    }

    /// tmux: no kitty query is sent (it would become the pane title); DA1 without 4.
    @Test func insideTmuxNoKittyQuery() throws {
        let fake = try FakeTerminal(reply: "\u{1B}[?1;2c")
        var c = TerminalDetector.fromEnvironment(["TERM": "tmux-256color", "TMUX": "/tmp/t,1,0"])
        TerminalDetector.query(&c, input: fake.slave, output: fake.slave, timeoutMilliseconds: 2000)
        let sent = fake.finish()
        #expect(sent == TerminalDetector.queryBytes(includeKitty: false))
        #expect(c.kittyGraphics == false, "no kitty graphics through tmux")
        #expect(!String(decoding: sent, as: UTF8.self).contains("\u{1B}_G"))
        #expect(c.sixel == false && c.truecolor && c.resolve(.auto).protocol == .truecolor)
    }

    /// A terminal that never answers: the query gives up after the timeout, not much later, and the
    /// environment's findings stand.
    @Test func silentTerminalTimesOut() throws {
        let fake = try FakeTerminal(reply: nil)
        var c = TerminalDetector.fromEnvironment(["TERM": "xterm-kitty"])
        let start = Date()
        let reply = TerminalDetector.query(&c, input: fake.slave, output: fake.slave, timeoutMilliseconds: 150)
        let elapsed = Date().timeIntervalSince(start)
        _ = fake.finish()
        #expect(reply.isEmpty && !c.answeredQueries)
        #expect(elapsed >= 0.14 && elapsed < 1.0, "waited \(elapsed) s")
        #expect(c.kittyGraphics == true, "no evidence against the environment")
        #expect(c.report().contains("no DA1 reply within 150 ms"))
    }
}
