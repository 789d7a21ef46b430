import Imaging

/// How frames are sent to the terminal.
public enum OutputProtocol: String, Sendable, CaseIterable {
    /// The kitty graphics protocol (`KittyGraphicsEncoder`).
    case kitty
    /// Sixel graphics (`SixelEncoder`).
    case sixel
    /// 24-bit colour half-blocks (`CellFrame(halfBlocks:colors: .truecolor)`).
    case truecolor
    /// 256-colour half-blocks.
    case palette256 = "256"

    /// The colour depth of the text modes (nil for the graphics protocols).
    public var colorDepth: ColorDepth? {
        switch self {
        case .truecolor: return .truecolor
        case .palette256: return .palette256
        case .kitty, .sixel: return nil
        }
    }
}

/// The `--protocol auto|kitty|sixel|truecolor|256` option's value.
public enum OutputProtocolChoice: String, Sendable, CaseIterable {
    case auto, kitty, sixel, truecolor
    case palette256 = "256"

    /// Parses an option value (case-insensitive; "24bit" and "256color" are accepted too).
    /// - Throws: `TerminalError.unknownProtocol` naming the value and the choices.
    public init(parsing text: String) throws {
        switch text.lowercased() {
        case "auto": self = .auto
        case "kitty": self = .kitty
        case "sixel", "sixels": self = .sixel
        case "truecolor", "24bit", "direct": self = .truecolor
        case "256", "256color", "palette256": self = .palette256
        default: throw TerminalError.unknownProtocol(text)
        }
    }
}

/// What is known about the terminal, and why: from the environment, then from its answers to queries.
/// `nil` means "not known" (no evidence either way).
public struct TerminalCapabilities: Sendable, Equatable {
    /// The kitty graphics protocol works (answered `a=q`, or a kitty environment outside tmux).
    public var kittyGraphics: Bool?
    /// Sixel graphics work (attribute 4 in the DA1 reply).
    public var sixel: Bool?
    /// The largest sixel image the terminal shows, in pixels (XTSMGRAPHICS `CSI ? 2 ; 1 ; 0 S`). xterm
    /// drops a larger image without a word (its default `maxGraphicSize` is 1000×1000); nil when the
    /// terminal did not say.
    public var sixelMaximumPixelSize: PixelSize?
    /// 24-bit SGR colours are shown as such.
    public var truecolor: Bool
    /// Mode 2026 is supported (DECRQM reply).
    public var synchronizedOutput: Bool?
    /// Pixels per cell (CSI 16 t reply, else TIOCGWINSZ pixels / cells).
    public var cellPixelSize: PixelSize?
    /// The text area in pixels (CSI 14 t reply, else TIOCGWINSZ).
    public var windowPixelSize: PixelSize?
    /// The window size in cells (TIOCGWINSZ).
    public var columns: Int?
    public var rows: Int?
    /// Running inside tmux (it answers queries itself and keeps graphics from the outer terminal).
    public var insideTmux: Bool
    /// Over ssh: shared-memory transmission cannot reach the terminal.
    public var remote: Bool
    /// The terminal's name and version (XTVERSION reply, else TERM_PROGRAM).
    public var terminalName: String?
    /// The terminal answered the queries at all (false: timed out, or not queried).
    public var answeredQueries: Bool
    /// One line per finding: what was seen and what it means, in the order it was found.
    public var reasons: [String]

    public init(kittyGraphics: Bool? = nil, sixel: Bool? = nil, sixelMaximumPixelSize: PixelSize? = nil, truecolor: Bool = true, synchronizedOutput: Bool? = nil,
                cellPixelSize: PixelSize? = nil, windowPixelSize: PixelSize? = nil, columns: Int? = nil, rows: Int? = nil,
                insideTmux: Bool = false, remote: Bool = false, terminalName: String? = nil, answeredQueries: Bool = false,
                reasons: [String] = []) {
        self.kittyGraphics = kittyGraphics
        self.sixel = sixel
        self.sixelMaximumPixelSize = sixelMaximumPixelSize
        self.truecolor = truecolor
        self.synchronizedOutput = synchronizedOutput
        self.cellPixelSize = cellPixelSize
        self.windowPixelSize = windowPixelSize
        self.columns = columns
        self.rows = rows
        self.insideTmux = insideTmux
        self.remote = remote
        self.terminalName = terminalName
        self.answeredQueries = answeredQueries
        self.reasons = reasons
    }

    /// The protocol for `choice` and why: an explicit choice wins; `auto` takes kitty, then sixel, then
    /// truecolor, then 256 colours, as far as they are known to work. Sixel needs the terminal's largest
    /// image as well (``sixelMaximumPixelSize``): a picture beyond it is dropped, so without it `auto`
    /// takes the half-blocks.
    public func resolve(_ choice: OutputProtocolChoice) -> (protocol: OutputProtocol, reason: String) {
        switch choice {
        case .kitty: return (.kitty, "--protocol kitty")
        case .sixel: return (.sixel, "--protocol sixel")
        case .truecolor: return (.truecolor, "--protocol truecolor")
        case .palette256: return (.palette256, "--protocol 256")
        case .auto:
            if kittyGraphics == true { return (.kitty, "auto: the kitty graphics protocol works") }
            if sixel == true, let limit = sixelMaximumPixelSize {
                return (.sixel, "auto: the terminal reports sixel graphics, images up to \(limit.width)×\(limit.height) px")
            }
            if sixel == true {
                return (truecolor ? .truecolor : .palette256,
                        "auto: the terminal reports sixel graphics but not the largest image it shows (a larger one is "
                        + "dropped); \(truecolor ? "24-bit" : "256")-colour half-blocks (--protocol sixel forces sixel)")
            }
            if truecolor { return (.truecolor, "auto: no graphics protocol found; 24-bit colour half-blocks") }
            return (.palette256, "auto: no graphics protocol and no sign of 24-bit colour; 256-colour half-blocks")
        }
    }

    /// The diagnose report (`lookaround view --diagnose`): each capability with its value, then the reasons.
    public func report(choice: OutputProtocolChoice = .auto) -> String {
        func yesNo(_ v: Bool?) -> String { v.map { $0 ? "yes" : "no" } ?? "unknown" }
        let chosen = resolve(choice)
        var lines = [
            "protocol:            \(chosen.protocol.rawValue) (\(chosen.reason))",
            "kitty graphics:      \(yesNo(kittyGraphics))",
            "sixel:               \(yesNo(sixel))"
                + (sixelMaximumPixelSize.map { ", images up to \($0.width)×\($0.height) px" } ?? (sixel == true ? ", largest image unknown" : "")),
            "24-bit colour:       \(truecolor ? "yes" : "no")",
            "synchronized output: \(yesNo(synchronizedOutput))",
            "cell size:           \(cellPixelSize.map { "\($0.width)×\($0.height) px" } ?? "unknown")",
            "window:              \(columns.map { "\($0)×\(rows ?? 0) cells" } ?? "unknown")"
                + (windowPixelSize.map { ", \($0.width)×\($0.height) px" } ?? ""),
            "terminal:            \(terminalName ?? "unknown")\(insideTmux ? " (inside tmux)" : "")\(remote ? " (over ssh)" : "")",
            "answered queries:    \(answeredQueries ? "yes" : "no")",
            "why:",
        ]
        lines += reasons.map { "  - " + $0 }
        return lines.joined(separator: "\n") + "\n"
    }
}
