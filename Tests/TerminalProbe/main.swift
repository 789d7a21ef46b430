// TerminalProbe: draws frames and echoes input through the Terminal module, for the tmux and Xvfb
// tests and for looking at the module by hand (not installed, not a user command).
//
//   TerminalProbe diagnose [--protocol P]        what was detected and why
//   TerminalProbe show [--protocol P] [--image FILE]
//       full screen: the test pattern (or FILE); ←/→ or h/l shift it, the mouse and keys are echoed in
//       the status line, q or Esc quits (exit 0). SIGWINCH re-lays out, Ctrl-Z suspends. With
//       LOOKAROUND_PROBE_REPORT=FILE, each graphics frame writes "WIDTH HEIGHT CELLWIDTH CELLHEIGHT"
//       (its picture's pixels, from the cell size the terminal reported) to FILE: what a test should
//       see on the screen, and where.
import Foundation
import Imaging
import Terminal
import TestSupport

var arguments = Array(CommandLine.arguments.dropFirst())
let command = arguments.isEmpty ? "show" : arguments.removeFirst()
@MainActor func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: "--" + name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
func fail(_ message: String, _ code: Int32) -> Never {
    FileHandle.standardError.write(Data("TerminalProbe: \(message)\n".utf8))
    exit(code)
}

let choice: OutputProtocolChoice
do { choice = try OutputProtocolChoice(parsing: option("protocol") ?? "auto") } catch { fail("\(error)", 64) }
let environment = ProcessInfo.processInfo.environment

switch command {
case "diagnose":
    var capabilities = TerminalDetector.fromEnvironment(environment)
    if isatty(0) == 1 && isatty(1) == 1, let saved = try? RawMode.enter(0) {
        TerminalDetector.query(&capabilities, input: 0, output: 1)
        RawMode.restore(0, saved)
    } else {
        capabilities.reasons.append("standard input or output is not a terminal: no queries")
    }
    print(capabilities.report(choice: choice), terminator: "")
    exit(0)
case "show":
    break
default:
    fail("unknown command \(command); use diagnose or show", 64)
}

let picture: RGB8Image?
if let path = option("image") {
    do { picture = try ImageDecoder.readRGB(path: path) } catch { fail("\(path): \(error)", 66) }
} else {
    picture = nil
}

let session: TerminalSession
do { session = try TerminalSession() } catch { fail("\(error)", 64) }
var capabilities = TerminalDetector.fromEnvironment(environment)
TerminalDetector.query(&capabilities, input: session.input, output: session.output, timeoutMilliseconds: 300)
let outputProtocol = capabilities.resolve(choice).protocol
var presenter = FramePresenter(synchronizedOutput: capabilities.synchronizedOutput ?? true)
var kitty = KittyGraphicsEncoder(transmission: !capabilities.remote && environment["LOOKAROUND_KITTY_SHM"] == "1" ? .sharedMemory : .direct)
let sixel = SixelEncoder()
var shift = 0
var lastEvent = "none"
var (columns, rows) = (session.size.columns, session.size.rows)

@MainActor func render() throws {
    let status = "probe \(columns)x\(rows) \(outputProtocol.rawValue) s\(shift): \(lastEvent)"
    if let depth = outputProtocol.colorDepth {
        let image = picture.map { try? Resampler.resize($0, to: PixelSize(width: columns, height: 2 * rows), filter: .area) } ?? nil
        var frame = CellFrame(halfBlocks: image ?? TerminalTestPattern.image(width: columns, height: 2 * rows, shift: shift), colors: depth)
        for x in 0..<columns { frame[x, rows - 1] = TerminalCell(" ", background: .rgb(0, 0, 0)) }
        frame.draw(status, column: 0, row: rows - 1, foreground: .rgb(255, 255, 255))
        try session.write(presenter.bytes(for: frame))
    } else {
        let cell = capabilities.cellPixelSize ?? PixelSize(width: 8, height: 16)
        let size = PixelSize(width: columns * cell.width, height: (rows - 1) * cell.height)
        let image = try picture.map { try Resampler.resize($0, to: size, filter: .area) }
            ?? TerminalTestPattern.image(width: size.width, height: size.height, shift: shift * cell.width)
        if let report = environment["LOOKAROUND_PROBE_REPORT"] {
            try Data("\(image.width) \(image.height) \(cell.width) \(cell.height)\n".utf8).write(to: URL(fileURLWithPath: report), options: .atomic)
        }
        let data = outputProtocol == .kitty ? try kitty.encode(image) : try sixel.encode(image)
        var bytes = presenter.graphicsBytes(data)
        bytes.appendStatus(status, row: rows - 1)
        try session.write(bytes)
    }
}

extension Array where Element == UInt8 {
    mutating func appendStatus(_ text: String, row: Int) {
        append(contentsOf: Array("\u{1B}[\(row + 1);1H\u{1B}[0m\u{1B}[2K\(text)".utf8))
    }
}

func describe(_ event: InputEvent) -> String {
    switch event {
    case .key(let k): return "key \(k.key)\(k.modifiers.isEmpty ? "" : " mods \(k.modifiers.rawValue)")"
    case .mouse(let m): return "mouse \(m.kind) \(m.button) \(m.column),\(m.row)"
    case .paste(let text): return "paste \(text.count) chars"
    case .focus(let on): return "focus \(on)"
    case .unknown(let bytes): return "unknown \(bytes.count) bytes"
    }
}

do {
    try render()
    loop: while true {
        let events = session.readEvents(timeoutMilliseconds: 1000)
        if events.isEmpty { continue }
        for event in events {
            switch event {
            case .resized(let c, let r):
                (columns, rows) = (c, r)
                presenter.invalidate()
                lastEvent = "resize"
            case .resumed:
                presenter.invalidate()
                lastEvent = "resumed"
            case .input(let input):
                if case .key(let k) = input {
                    switch k.key {
                    case .character("q"), .escape: break loop
                    case .character("z") where k.modifiers == .control: session.suspend()
                    case .right, .character("l"): shift += 1
                    case .left, .character("h"): shift -= 1
                    default: break
                    }
                }
                lastEvent = describe(input)
            }
        }
        try render()
    }
} catch {
    session.restore()
    fail("\(error)", 1)
}
if outputProtocol == .kitty { try? session.write(kitty.deleteSequence); kitty.releaseSharedMemory() }
session.restore()
exit(0)
