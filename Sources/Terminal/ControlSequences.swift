/// The control sequences the module sends, named once (xterm's ctlseqs; kitty's and DEC's documents).
public enum ControlSequence {
    /// Switch to the alternate screen, saving the cursor (DEC mode 1049).
    public static let enterAlternateScreen = "\u{1B}[?1049h"
    /// Back to the normal screen and the saved cursor.
    public static let leaveAlternateScreen = "\u{1B}[?1049l"
    /// Hide / show the cursor (DECTCEM, mode 25).
    public static let hideCursor = "\u{1B}[?25l"
    public static let showCursor = "\u{1B}[?25h"
    /// Begin / end a synchronized update (mode 2026): the terminal shows the frame at once at the end.
    /// Terminals without it ignore both.
    public static let beginSynchronizedUpdate = "\u{1B}[?2026h"
    public static let endSynchronizedUpdate = "\u{1B}[?2026l"
    /// Mouse reporting: clicks (1000), drags (1002), in the SGR encoding (1006) with no 223-cell limit.
    public static let enableMouse = "\u{1B}[?1000h\u{1B}[?1002h\u{1B}[?1006h"
    public static let disableMouse = "\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l"
    /// Bracketed paste (mode 2004): pasted text arrives between `ESC [ 200 ~` and `ESC [ 201 ~`.
    public static let enableBracketedPaste = "\u{1B}[?2004h"
    public static let disableBracketedPaste = "\u{1B}[?2004l"
    /// Autowrap off / on (DECAWM): a cell written in the last column never scrolls the screen.
    public static let disableAutowrap = "\u{1B}[?7l"
    public static let enableAutowrap = "\u{1B}[?7h"
    /// Clear the screen, cursor home, colours reset.
    public static let clearScreen = "\u{1B}[0m\u{1B}[H\u{1B}[2J"
    /// Reset colours and attributes.
    public static let resetAttributes = "\u{1B}[0m"

    /// What `TerminalSession` sends on entering a full-screen session, in order.
    public static let sessionStart = enterAlternateScreen + hideCursor + disableAutowrap + enableMouse
        + enableBracketedPaste + clearScreen
    /// What undoes `sessionStart`, in reverse order (sent on every exit path).
    public static let sessionEnd = resetAttributes + disableBracketedPaste + disableMouse + enableAutowrap
        + showCursor + leaveAlternateScreen
}
