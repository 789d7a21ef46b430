import Terminal

/// What a key asks the viewer to do.
public enum ViewerCommand: String, Sendable, CaseIterable {
    case turnLeft, turnRight, pitchUp, pitchDown, zoomIn, zoomOut
    case forward, backward, nextInSequence, previousInSequence
    case toggleMap, cycleLabels, reset, toggleHelp, redraw, suspend, quit
}

/// The viewer's keys: one table for the key handling, the `?` overlay and `--help`.
public enum ViewerKeys {
    /// One binding: the keys, how the help writes them, and what they do.
    public struct Binding: Sendable {
        public var keys: [KeyEvent]
        public var label: String
        public var command: ViewerCommand
        public var help: String
    }

    static func character(_ c: Character) -> KeyEvent { KeyEvent(.character(c)) }
    static func control(_ c: Character) -> KeyEvent { KeyEvent(.character(c), modifiers: .control) }

    /// Every binding, in the order the help lists them.
    /// `l` turns right (with h, j, k as in vi); labels cycle on `L` (shift-l) and `t`.
    public static let bindings: [Binding] = [
        Binding(keys: [KeyEvent(.left), character("h")], label: "← h", command: .turnLeft, help: "turn left (15°, finer when zoomed in)"),
        Binding(keys: [KeyEvent(.right), character("l")], label: "→ l", command: .turnRight, help: "turn right"),
        Binding(keys: [KeyEvent(.up), character("k")], label: "↑ k", command: .pitchUp, help: "look up"),
        Binding(keys: [KeyEvent(.down), character("j")], label: "↓ j", command: .pitchDown, help: "look down"),
        Binding(keys: [character("+"), character("=")], label: "+", command: .zoomIn, help: "zoom in (field of view down to 20°)"),
        Binding(keys: [character("-"), character("_")], label: "-", command: .zoomOut, help: "zoom out (up to 120°)"),
        Binding(keys: [character("w"), KeyEvent(.enter)], label: "w Enter", command: .forward,
                help: "go to the linked panorama nearest the view direction"),
        Binding(keys: [character("s")], label: "s", command: .backward, help: "go to the linked panorama behind"),
        Binding(keys: [character("n")], label: "n", command: .nextInSequence, help: "next panorama of the sequence"),
        Binding(keys: [character("p")], label: "p", command: .previousInSequence, help: "previous panorama of the sequence"),
        Binding(keys: [character("m")], label: "m", command: .toggleMap, help: "map inset on/off (position, view cone, links)"),
        Binding(keys: [character("L"), character("t")], label: "L t", command: .cycleLabels,
                help: "labels: all → places → roads → none"),
        Binding(keys: [character("r")], label: "r", command: .reset, help: "reset the view (heading, pitch, zoom)"),
        Binding(keys: [character("?"), KeyEvent(.function(1))], label: "?", command: .toggleHelp, help: "this help"),
        Binding(keys: [control("l")], label: "Ctrl-L", command: .redraw, help: "repaint the screen"),
        Binding(keys: [control("z")], label: "Ctrl-Z", command: .suspend, help: "suspend (fg resumes)"),
        Binding(keys: [character("q"), KeyEvent(.escape), control("c")], label: "q Esc", command: .quit, help: "quit"),
    ]

    /// The command of `key`, nil for a key without one.
    public static func command(for key: KeyEvent) -> ViewerCommand? {
        // Shift arrives as a capital letter; other modifiers on arrows (xterm sends Shift-← as a
        // modified CSI) still turn.
        let plain = KeyEvent(key.key, modifiers: key.modifiers.subtracting(.shift))
        for binding in bindings where binding.keys.contains(key) || binding.keys.contains(plain) { return binding.command }
        return nil
    }

    /// The help text: one line per binding, the mouse, and how to leave.
    public static var helpLines: [String] {
        let width = bindings.map(\.label.count).max() ?? 0
        return bindings.map { $0.label + String(repeating: " ", count: width - $0.label.count + 2) + $0.help } + [
            "drag" + String(repeating: " ", count: max(0, width - 2)) + "look around",
            "wheel" + String(repeating: " ", count: max(0, width - 3)) + "zoom",
            "click" + String(repeating: " ", count: max(0, width - 3)) + "on the ground: go there; on a label: what it is",
        ]
    }
}
