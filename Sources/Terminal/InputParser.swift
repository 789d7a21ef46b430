/// Turns the bytes read from a terminal in raw mode into key, mouse and paste events.
///
/// Escape sequences may arrive split across reads: an incomplete one stays in the parser until the
/// rest comes. A lone `ESC` is ambiguous (the Escape key, or the start of a sequence): the caller
/// reads with a short timeout and calls `flush()` when nothing more came (`pendingEscapeTimeoutMilliseconds`),
/// which turns what is pending into keys. Pastes between `ESC [ 200 ~` and `ESC [ 201 ~` become one
/// `.paste` event however many reads they span.
public struct InputParser: Sendable {
    /// How long a reader should wait after a lone ESC before calling `flush()`: long enough for the rest
    /// of a sequence over ssh, short enough that Escape feels immediate.
    public static let pendingEscapeTimeoutMilliseconds = 50

    private var buffer: [UInt8] = []
    /// Longest escape sequence accepted before the bytes are given up as `.unknown` (a paste is not limited).
    private static let maximumSequenceLength = 256

    public init() {}

    /// True when bytes are waiting for the rest of a sequence (call `flush()` after the timeout).
    public var hasPendingBytes: Bool { !buffer.isEmpty }

    /// The events completed by `bytes` (in order); incomplete sequences wait for the next call.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) -> [InputEvent] where Bytes.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        return parse(final: false)
    }

    /// Everything pending, taking an incomplete sequence as the keys it starts with (ESC → Escape).
    public mutating func flush() -> [InputEvent] { parse(final: true) }

    /// The key of the final byte of a cursor or F1–F4 sequence (`CSI A` / `SS3 A` … `P`–`S`), both forms.
    static func cursorOrFunctionKey(_ finalByte: UInt8) -> Key? {
        switch finalByte {
        case 0x41: .up
        case 0x42: .down
        case 0x43: .right
        case 0x44: .left
        case 0x48: .home
        case 0x46: .end
        case 0x50...0x53: .function(Int(finalByte) - 0x4F)
        default: nil
        }
    }

    private mutating func parse(final: Bool) -> [InputEvent] {
        var events: [InputEvent] = []
        var i = 0
        let b = buffer
        while i < b.count {
            switch Self.parseOne(b, at: i, final: final) {
            case .incomplete:
                buffer.removeFirst(i)
                return events
            case .event(let event, let length):
                if let event { events.append(event) }
                i += length
            }
        }
        buffer.removeAll(keepingCapacity: true)
        return events
    }

    private enum Step { case incomplete, event(InputEvent?, length: Int) }

    private static func parseOne(_ b: [UInt8], at i: Int, final: Bool) -> Step {
        let c = b[i]
        switch c {
        case 0x1B:
            guard i + 1 < b.count else { return final ? .event(.key(KeyEvent(.escape)), length: 1) : .incomplete }
            let next = b[i + 1]
            switch next {
            case 0x5B:  // CSI
                return parseCSI(b, at: i, final: final)
            case 0x4F:  // SS3
                guard i + 2 < b.count else {
                    return final ? .event(.key(KeyEvent(.character("O"), modifiers: .alt)), length: 2) : .incomplete
                }
                let key = b[i + 2] == 0x4D ? .enter : Self.cursorOrFunctionKey(b[i + 2])
                return .event(key.map { .key(KeyEvent($0)) } ?? .unknown(Array(b[i..<i + 3])), length: 3)
            case 0x50, 0x5F, 0x5D:  // DCS, APC, OSC: terminal replies; up to ST or BEL
                var j = i + 2
                while j < b.count {
                    if b[j] == 0x07 { return .event(.unknown(Array(b[i...j])), length: j - i + 1) }
                    if b[j] == 0x1B, j + 1 < b.count, b[j + 1] == 0x5C { return .event(.unknown(Array(b[i...j + 1])), length: j - i + 2) }
                    j += 1
                }
                if final || b.count - i > maximumSequenceLength * 64 { return .event(.unknown(Array(b[i...])), length: b.count - i) }
                return .incomplete
            case 0x1B:
                return .event(.key(KeyEvent(.escape)), length: 1)
            default:  // Alt + key
                switch parseOne(b, at: i + 1, final: final) {
                case .incomplete: return .incomplete
                case .event(.key(var key)?, let length):
                    key.modifiers.insert(.alt)
                    return .event(.key(key), length: length + 1)
                case .event(let other, let length): return .event(other, length: length + 1)
                }
            }
        case 0x0D, 0x0A: return .event(.key(KeyEvent(.enter)), length: 1)
        case 0x09: return .event(.key(KeyEvent(.tab)), length: 1)
        case 0x7F, 0x08: return .event(.key(KeyEvent(.backspace)), length: 1)
        case 0x00: return .event(.key(KeyEvent(.character(" "), modifiers: .control)), length: 1)
        case 0x01...0x1A:
            return .event(.key(KeyEvent(.character(Character(Unicode.Scalar(c + 0x60))), modifiers: .control)), length: 1)
        case 0x1C...0x1F:
            return .event(.key(KeyEvent(.character(Character(Unicode.Scalar(c + 0x40))), modifiers: .control)), length: 1)
        case 0x20..<0x80:
            return .event(.key(KeyEvent(.character(Character(Unicode.Scalar(c))))), length: 1)
        default:
            let length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC0 ? 2 : 1
            guard i + length <= b.count else {
                return final ? .event(.unknown(Array(b[i...])), length: b.count - i) : .incomplete
            }
            let text = String(decoding: b[i..<i + length], as: UTF8.self)
            guard length > 1, let first = text.first, text.count == 1 else { return .event(.unknown([c]), length: 1) }
            return .event(.key(KeyEvent(.character(first))), length: length)
        }
    }

    private static let pasteEnd: [UInt8] = [0x1B, 0x5B, 0x32, 0x30, 0x31, 0x7E]

    private static func parseCSI(_ b: [UInt8], at i: Int, final: Bool) -> Step {
        var j = i + 2
        while j < b.count, (0x20...0x3F).contains(b[j]) { j += 1 }
        guard j < b.count else {
            if final || j - i > maximumSequenceLength { return .event(.key(KeyEvent(.character("["), modifiers: .alt)), length: 2) }
            return .incomplete
        }
        let finalByte = b[j]
        guard (0x40...0x7E).contains(finalByte) else { return .event(.unknown(Array(b[i...j])), length: j - i + 1) }
        let length = j - i + 1
        let parameterBytes = Array(b[(i + 2)..<j])
        let whole = Array(b[i...j])

        // Bracketed paste: everything up to ESC [ 201 ~.
        if finalByte == 0x7E, parameterBytes == [0x32, 0x30, 0x30] {
            let start = j + 1
            var k = start
            while k + pasteEnd.count <= b.count {
                if b[k] == 0x1B, Array(b[k..<k + pasteEnd.count]) == pasteEnd {
                    return .event(.paste(String(decoding: b[start..<k], as: UTF8.self)), length: k + pasteEnd.count - i)
                }
                k += 1
            }
            if final { return .event(.paste(String(decoding: b[start...], as: UTF8.self)), length: b.count - i) }
            return .incomplete
        }

        // SGR mouse: ESC [ < b ; x ; y M|m
        if parameterBytes.first == 0x3C, finalByte == 0x4D || finalByte == 0x6D {
            let numbers = numbers(parameterBytes.dropFirst())
            guard numbers.count == 3, let code = numbers[0], let x = numbers[1], let y = numbers[2] else {
                return .event(.unknown(whole), length: length)
            }
            var modifiers: KeyModifiers = []
            if code & 4 != 0 { modifiers.insert(.shift) }
            if code & 8 != 0 { modifiers.insert(.alt) }
            if code & 16 != 0 { modifiers.insert(.control) }
            let buttons: [MouseEvent.Button] = [.left, .middle, .right, .none]
            var button = buttons[code & 3]
            let kind: MouseEvent.Kind
            if code & 64 != 0 {
                kind = [.wheelUp, .wheelDown, .wheelLeft, .wheelRight][code & 3]
                button = .none
            } else if finalByte == 0x6D {
                kind = .release
            } else if code & 32 != 0 {
                kind = button == .none ? .move : .drag
            } else {
                kind = .press
            }
            return .event(.mouse(MouseEvent(kind, button: button, column: x - 1, row: y - 1, modifiers: modifiers)), length: length)
        }

        let numbers = numbers(parameterBytes[...])
        let modifiers = numbers.count > 1 ? Self.modifiers(numbers[1] ?? 1) : []
        let key: Key?
        switch finalByte {
        case 0x41, 0x42, 0x43, 0x44, 0x48, 0x46: key = Self.cursorOrFunctionKey(finalByte)
        case 0x5A: key = .backTab
        case 0x50...0x53 where parameterBytes.first != 0x3F: key = Self.cursorOrFunctionKey(finalByte)
        case 0x49 where parameterBytes.isEmpty: return .event(.focus(true), length: length)
        case 0x4F where parameterBytes.isEmpty: return .event(.focus(false), length: length)
        case 0x7E:
            switch numbers.first ?? nil {
            case 1, 7: key = .home
            case 4, 8: key = .end
            case 2: key = .insert
            case 3: key = .delete
            case 5: key = .pageUp
            case 6: key = .pageDown
            case let n? where (11...15).contains(n): key = .function(n - 10)
            case let n? where (17...21).contains(n): key = .function(n - 11)
            case let n? where (23...24).contains(n): key = .function(n - 12)
            default: key = nil
            }
        default: key = nil
        }
        guard let key, parameterBytes.allSatisfy({ (0x30...0x3B).contains($0) }) else {
            return .event(.unknown(whole), length: length)
        }
        return .event(.key(KeyEvent(key, modifiers: modifiers)), length: length)
    }

    /// xterm's modifier parameter: 1 + (shift 1, alt 2, control 4).
    private static func modifiers(_ parameter: Int) -> KeyModifiers {
        let bits = max(0, parameter - 1)
        var m: KeyModifiers = []
        if bits & 1 != 0 { m.insert(.shift) }
        if bits & 2 != 0 { m.insert(.alt) }
        if bits & 4 != 0 { m.insert(.control) }
        return m
    }

    private static func numbers(_ bytes: ArraySlice<UInt8>) -> [Int?] {
        bytes.split(separator: 0x3B, omittingEmptySubsequences: false).map { part in
            part.isEmpty || part.count > 9 || !part.allSatisfy({ (0x30...0x39).contains($0) }) ? nil
                : part.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
    }
}
