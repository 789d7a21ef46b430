import CSixel
import Foundation
import Imaging

/// Finds out what the terminal can do: the environment first, then queries answered on the terminal's
/// input, each with a deadline, so a terminal that does not answer never hangs the caller.
public enum TerminalDetector {
    /// The queries sent, in order: kitty's graphics query (a 1×1 image, `a=q`: answered, never shown),
    /// DECRQM for mode 2026, the cell size (CSI 16 t) and text-area size (CSI 14 t) in pixels,
    /// XTVERSION, the largest sixel image (XTSMGRAPHICS `CSI ? 2 ; 1 ; 0 S`), and DA1 last. Every terminal tested answers DA1 and answers in order, so its reply
    /// ends the wait; the timeout is for the ones that do not.
    public static func queryBytes(includeKitty: Bool) -> [UInt8] {
        Array(((includeKitty ? "\u{1B}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1B}\\" : "")
               + "\u{1B}[?2026$p\u{1B}[16t\u{1B}[14t\u{1B}[>0q\u{1B}[?2;1;0S\u{1B}[c").utf8)
    }

    /// What the environment says (`TERM`, `TERM_PROGRAM`, `COLORTERM`, `KITTY_WINDOW_ID`, `TMUX`,
    /// `SSH_CONNECTION`/`SSH_TTY`), with a reason for each finding.
    public static func fromEnvironment(_ environment: [String: String]) -> TerminalCapabilities {
        var c = TerminalCapabilities()
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        c.insideTmux = environment["TMUX"].map { !$0.isEmpty } ?? false || term.hasPrefix("tmux")
        c.remote = environment["SSH_CONNECTION"] != nil || environment["SSH_TTY"] != nil
        if !program.isEmpty { c.terminalName = program + (environment["TERM_PROGRAM_VERSION"].map { " " + $0 } ?? "") }
        if c.insideTmux {
            c.reasons.append("TMUX is set (or TERM=\(term)): tmux answers queries itself, keeps kitty graphics and sixels "
                             + "from the outer terminal (3.3), and converts 24-bit colour for it")
        }
        if c.remote { c.reasons.append("SSH_CONNECTION/SSH_TTY is set: shared-memory transmission cannot reach the terminal") }

        let kittyEnvironment = term == "xterm-kitty" || environment["KITTY_WINDOW_ID"] != nil || program == "kitty"
        if kittyEnvironment {
            if c.insideTmux {
                c.kittyGraphics = false
                c.reasons.append("kitty environment (TERM=\(term), KITTY_WINDOW_ID) but inside tmux: no kitty graphics")
            } else {
                c.kittyGraphics = true
                c.reasons.append("TERM=xterm-kitty or KITTY_WINDOW_ID is set: kitty graphics protocol expected")
            }
        } else if program == "WezTerm" || program == "ghostty" {
            c.kittyGraphics = c.insideTmux ? false : true
            c.reasons.append("TERM_PROGRAM=\(program): kitty graphics protocol expected\(c.insideTmux ? ", but not through tmux" : "")")
        }
        if c.insideTmux {  // the reason is the TMUX line above
            if c.sixel == nil { c.sixel = false }
            if c.kittyGraphics == nil { c.kittyGraphics = false }
        }

        if colorterm == "truecolor" || colorterm == "24bit" {
            c.truecolor = true
            c.reasons.append("COLORTERM=\(colorterm): 24-bit colour")
        } else if kittyEnvironment || ["iTerm.app", "WezTerm", "vscode", "ghostty", "Hyper"].contains(program) {
            c.truecolor = true
            c.reasons.append("TERM_PROGRAM=\(program.isEmpty ? "kitty" : program): 24-bit colour")
        } else if term.contains("direct") || term.contains("truecolor") || term.contains("24bit") {
            c.truecolor = true
            c.reasons.append("TERM=\(term): 24-bit colour")
        } else if c.insideTmux {
            c.truecolor = true
            c.reasons.append("inside tmux: 24-bit colour kept in its grid (converted for clients without RGB)")
        } else if term == "xterm" || term.hasPrefix("xterm-") && !term.contains("256color") {
            c.truecolor = true
            c.reasons.append("TERM=\(term) without COLORTERM: xterm itself shows 24-bit colour exactly")
        } else if term.contains("256color") {
            c.truecolor = false
            c.reasons.append("TERM=\(term) and no COLORTERM=truecolor: 256 colours assumed")
        } else if term.isEmpty || term == "dumb" || term == "linux" || term.hasPrefix("vt") || term == "screen" || term == "ansi" {
            c.truecolor = false
            c.reasons.append("TERM=\(term.isEmpty ? "(unset)" : term): no 24-bit colour")
        } else {
            c.truecolor = true
            c.reasons.append("TERM=\(term): 24-bit colour assumed (most terminals have it)")
        }
        return c
    }

    /// The window size of the terminal on `fileDescriptor` (cells and pixels, pixels 0 when unknown).
    public static func windowSize(of fileDescriptor: Int32) -> (columns: Int, rows: Int, widthPixels: Int, heightPixels: Int)? {
        var columns: UInt16 = 0, rows: UInt16 = 0, width: UInt16 = 0, height: UInt16 = 0
        guard lk_terminal_window_size(fileDescriptor, &columns, &rows, &width, &height) == 0, columns > 0, rows > 0 else { return nil }
        return (Int(columns), Int(rows), Int(width), Int(height))
    }

    /// Adds what the terminal answers to `capabilities`: sends `queryBytes` to `output`, reads `input`
    /// until the DA1 reply or `timeoutMilliseconds`, whichever is first. `input` must be in raw mode
    /// (`TerminalSession` does it; `RawMode` otherwise). Window size from TIOCGWINSZ on `output`.
    /// - Returns: the raw reply bytes (for the diagnose report and tests).
    @discardableResult
    public static func query(_ capabilities: inout TerminalCapabilities, input: Int32, output: Int32,
                             timeoutMilliseconds: Int = 300) -> [UInt8] {
        if let size = windowSize(of: output) {
            capabilities.columns = size.columns
            capabilities.rows = size.rows
            if size.widthPixels > 0, size.heightPixels > 0 {
                capabilities.windowPixelSize = PixelSize(width: size.widthPixels, height: size.heightPixels)
                capabilities.cellPixelSize = PixelSize(width: size.widthPixels / size.columns, height: size.heightPixels / size.rows)
                capabilities.reasons.append("TIOCGWINSZ: \(size.columns)×\(size.rows) cells, \(size.widthPixels)×\(size.heightPixels) px")
            } else {
                capabilities.reasons.append("TIOCGWINSZ: \(size.columns)×\(size.rows) cells, no pixel size")
            }
        }
        // tmux shows a kitty APC as the pane title: do not send it there.
        let includeKitty = !capabilities.insideTmux
        let start = DispatchTime.now().uptimeNanoseconds
        guard TerminalOutput.writeAll(output, queryBytes(includeKitty: includeKitty)) else {
            capabilities.reasons.append("could not write the queries: \(String(cString: strerror(errno)))")
            return []
        }
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while !containsDA1(reply) {
            let elapsed = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
            let left = timeoutMilliseconds - elapsed
            if left <= 0 { break }
            var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(left))
            if ready < 0 && errno == EINTR { continue }
            guard ready > 0 else { break }
            let n = read(input, &buffer, buffer.count)
            if n <= 0 { break }
            reply += buffer[0..<n]
        }
        let milliseconds = Int((DispatchTime.now().uptimeNanoseconds - start) / 1_000_000)
        apply(reply: reply, to: &capabilities, askedKitty: includeKitty)
        if containsDA1(reply) {
            capabilities.answeredQueries = true
            capabilities.reasons.append("the terminal answered in \(milliseconds) ms")
        } else {
            capabilities.reasons.append("no DA1 reply within \(timeoutMilliseconds) ms: the terminal does not answer; "
                                        + "going by the environment")
        }
        return reply
    }

    /// True when `bytes` hold a complete DA1 reply (`ESC [ ? … c`).
    static func containsDA1(_ bytes: [UInt8]) -> Bool { da1Attributes(bytes) != nil }

    private static func da1Attributes(_ bytes: [UInt8]) -> [Int]? {
        for sequence in csiSequences(bytes) where sequence.final == 0x63 && sequence.parameters.first == 0x3F {
            return numbers(sequence.parameters.dropFirst())
        }
        return nil
    }

    /// Reads the replies to `queryBytes` into `capabilities`.
    static func apply(reply: [UInt8], to c: inout TerminalCapabilities, askedKitty: Bool) {
        let csi = csiSequences(reply)
        if let attributes = da1Attributes(reply) {
            let sixel = attributes.dropFirst().contains(4)
            c.sixel = sixel
            c.reasons.append("DA1 reply \(printable(Array("\u{1B}[?".utf8) + Array(attributes.map(String.init).joined(separator: ";").utf8) + [0x63])): "
                             + (sixel ? "attribute 4, sixel graphics" : "no attribute 4, no sixel graphics"))
        }
        if askedKitty {
            if let answer = apcReplies(reply).first(where: { $0.hasPrefix("Gi=31;") }) {
                let ok = answer == "Gi=31;OK"
                c.kittyGraphics = ok
                c.reasons.append("kitty graphics query answered \(answer.dropFirst(6)): " + (ok ? "kitty graphics work" : "no kitty graphics"))
            } else if da1Attributes(reply) != nil {
                if c.kittyGraphics == true { c.reasons.append("kitty graphics query not answered (DA1 was): no kitty graphics after all") }
                c.kittyGraphics = false
            }
        }
        for s in csi {
            let n = numbers(s.parameters.drop { $0 == 0x3F })
            if s.final == 0x74, n.count == 3, n[0] == 6 {
                c.cellPixelSize = PixelSize(width: n[2], height: n[1])
                c.reasons.append("CSI 16 t: cells are \(n[2])×\(n[1]) px")
            } else if s.final == 0x74, n.count == 3, n[0] == 4 {
                c.windowPixelSize = PixelSize(width: n[2], height: n[1])
                c.reasons.append("CSI 14 t: text area \(n[2])×\(n[1]) px")
            } else if s.final == 0x79, s.parameters.first == 0x3F, n.count == 2, n[0] == 2026 {
                // DECRPM ESC [ ? 2026 ; Ps $ y: 1 set, 2 reset (both: known), 0 unknown, 4 permanently reset.
                c.synchronizedOutput = n[1] == 1 || n[1] == 2 || n[1] == 3
                c.reasons.append("DECRQM 2026 → \(n[1]): " + (c.synchronizedOutput == true ? "synchronized output" : "no synchronized output"))
            } else if s.final == 0x53, s.parameters.first == 0x3F, n.count >= 2, n[0] == 2 {
                // XTSMGRAPHICS ESC [ ? 2 ; Ps ; Pw ; Ph S: status 0 is success, with the width and height.
                if n[1] == 0, n.count == 4, n[2] > 0, n[3] > 0 {
                    c.sixelMaximumPixelSize = PixelSize(width: n[2], height: n[3])
                    c.reasons.append("XTSMGRAPHICS: sixel images up to \(n[2])×\(n[3]) px are shown, larger ones dropped")
                } else {
                    c.reasons.append("XTSMGRAPHICS answered status \(n[1]) without a size: the largest sixel image is unknown")
                }
            }
        }
        if let version = dcsReplies(reply).first(where: { $0.hasPrefix(">|") }) {
            c.terminalName = String(version.dropFirst(2))
            c.reasons.append("XTVERSION: \(version.dropFirst(2))")
        }
    }

    private struct CSISequence { var parameters: [UInt8]; var final: UInt8 }

    private static func csiSequences(_ b: [UInt8]) -> [CSISequence] {
        var out: [CSISequence] = []
        var i = 0
        while i + 1 < b.count {
            if b[i] == 0x1B, b[i + 1] == 0x5B {
                var j = i + 2
                while j < b.count, (0x20...0x3F).contains(b[j]) { j += 1 }
                guard j < b.count else { break }
                let parameters = Array(b[(i + 2)..<j]).filter { $0 != 0x24 }  // drop DECRPM's '$'
                out.append(CSISequence(parameters: parameters, final: b[j]))
                i = j + 1
            } else { i += 1 }
        }
        return out
    }

    /// Bodies of `ESC <introducer> … ESC \` strings.
    private static func stringReplies(_ b: [UInt8], introducer: UInt8) -> [String] {
        var out: [String] = []
        var i = 0
        while i + 1 < b.count {
            if b[i] == 0x1B, b[i + 1] == introducer {
                var j = i + 2
                while j + 1 < b.count, !(b[j] == 0x1B && b[j + 1] == 0x5C) { j += 1 }
                guard j + 1 < b.count else { break }
                out.append(String(decoding: b[(i + 2)..<j], as: UTF8.self))
                i = j + 2
            } else { i += 1 }
        }
        return out
    }

    private static func apcReplies(_ b: [UInt8]) -> [String] { stringReplies(b, introducer: 0x5F) }
    private static func dcsReplies(_ b: [UInt8]) -> [String] { stringReplies(b, introducer: 0x50) }

    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int] {
        bytes.split(separator: 0x3B).compactMap { Int(String(decoding: $0, as: UTF8.self)) }
    }

    /// Escape bytes shown as `\e`, for reports.
    public static func printable(_ bytes: [UInt8]) -> String {
        bytes.map { b in b == 0x1B ? "\\e" : (0x20..<0x7F).contains(b) ? String(UnicodeScalar(b)) : "\\x" + String(b, radix: 16) }.joined()
    }
}
