import Terminal

/// The colour parameters of an SGR sequence (`ESC [ … m`) applied to the current colours, as the tests'
/// terminals (``parseTmuxCapture(_:)``, TerminalTests' virtual screen) read them: 0, 39, 49,
/// 38/48;2;R;G;B and 38/48;5;N. Anything else goes to `unknown` (the parameters as text, "SGR 1"),
/// which throws to refuse it or returns to skip it.
public func applySelectGraphicRendition(_ n: [Int], foreground: inout CellColor, background: inout CellColor,
                                        unknown: (String) throws -> Void) rethrows {
    var k = 0
    while k < n.count {
        switch n[k] {
        case 0: foreground = .terminalDefault; background = .terminalDefault
        case 39: foreground = .terminalDefault
        case 49: background = .terminalDefault
        case 38, 48:
            let color: CellColor
            if n[k + 1] == 2 {
                color = .rgb(UInt8(n[k + 2]), UInt8(n[k + 3]), UInt8(n[k + 4]))
            } else {
                if n[k + 1] != 5 { try unknown("SGR \(n[k]);\(n[k + 1])") }
                color = .indexed(UInt8(n[k + 2]))
            }
            if n[k] == 38 { foreground = color } else { background = color }
            k += n[k + 1] == 2 ? 4 : 2
        default: try unknown("SGR \(n[k])")
        }
        k += 1
    }
}
