/// A key the keyboard sent.
public enum Key: Hashable, Sendable {
    /// A printable character (after UTF-8 decoding).
    case character(Character)
    case up, down, left, right, home, end, pageUp, pageDown, insert, delete
    case enter, tab, backTab, backspace, escape
    /// F1…F12.
    case function(Int)
}

/// Modifier keys held with a key or a mouse event (as far as the terminal reports them).
public struct KeyModifiers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let shift = KeyModifiers(rawValue: 1)
    public static let alt = KeyModifiers(rawValue: 2)
    public static let control = KeyModifiers(rawValue: 4)
}

/// One key press.
public struct KeyEvent: Hashable, Sendable {
    public var key: Key
    public var modifiers: KeyModifiers
    public init(_ key: Key, modifiers: KeyModifiers = []) {
        self.key = key
        self.modifiers = modifiers
    }
}

/// One SGR (mode 1006) mouse report.
public struct MouseEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case press, release, drag, move, wheelUp, wheelDown, wheelLeft, wheelRight }
    public enum Button: Hashable, Sendable { case left, middle, right, none }
    public var kind: Kind
    public var button: Button
    /// The cell under the pointer, 0-based from the top-left of the screen.
    public var column: Int
    public var row: Int
    public var modifiers: KeyModifiers

    public init(_ kind: Kind, button: Button, column: Int, row: Int, modifiers: KeyModifiers = []) {
        self.kind = kind
        self.button = button
        self.column = column
        self.row = row
        self.modifiers = modifiers
    }
}

/// What the parser makes of the bytes from the terminal.
public enum InputEvent: Hashable, Sendable {
    case key(KeyEvent)
    case mouse(MouseEvent)
    /// Text pasted while bracketed paste (mode 2004) was on: one event, whatever its length, so a viewer
    /// does not take pasted letters for commands.
    case paste(String)
    /// Focus gained / lost (mode 1004), when enabled.
    case focus(Bool)
    /// A sequence the parser does not know (terminal replies arriving late, unsupported keys): the bytes.
    case unknown([UInt8])
}
