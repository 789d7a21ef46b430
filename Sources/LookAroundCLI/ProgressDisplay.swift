import Foundation

/// Progress of a long job on stderr: on a terminal, a bar redrawn in place (`\r`); otherwise (a log
/// file, a pipe) one plain line every ``plainLineIntervalSeconds`` and one at the end, so a log gets a
/// few readable lines rather than hundreds of updates joined by `\r`; nothing with `--quiet`.
/// Safe to update from several threads.
///
/// `@unchecked Sendable`: `lastLine` and `finished` are read and written under `lock` only; the rest is `let`.
final class ProgressDisplay: @unchecked Sendable {
    enum Style { case bar, lines, silent }

    /// Seconds between two plain lines.
    static let plainLineIntervalSeconds = 5.0

    /// The style for stderr: silent with --quiet, a bar on a terminal, else plain lines.
    static func style(quiet: Bool) -> Style { quiet ? .silent : (isatty(2) != 0 ? .bar : .lines) }

    private let label: String
    private let unit: String
    private let style: Style
    private let color: Bool
    private let start = Date()
    private let lock = NSLock()
    private var lastLine: Date
    private var finished = false

    /// A display for `label` (`simulate`) counting `unit`s (`captures`).
    init(label: String, unit: String, quiet: Bool) {
        self.label = label
        self.unit = unit
        self.style = Self.style(quiet: quiet)
        self.color = style == .bar && Console.usesColor(onDescriptor: 2)
        self.lastLine = start
    }

    /// `done` of `total` are finished; `item` names the last one.
    func update(done: Int, total: Int, item: String? = nil) {
        lock.withLock {
            guard !finished else { return }
            let now = Date()
            let elapsed = now.timeIntervalSince(start)
            let rate = Double(done) / max(elapsed, 1e-6)
            let left = done > 0 ? " \(Self.duration(Double(total - done) / max(rate, 1e-9))) left," : ""
            let counts = "\(done)/\(total) \(unit), \(fixed(rate, 2))/s,\(left) \(Self.duration(elapsed)) so far"
            switch style {
            case .silent:
                break
            case .bar:
                let width = 30, filled = total > 0 ? min(width, done * width / total) : width
                let bar = color ? "\u{1B}[32m" + String(repeating: "#", count: filled) + "\u{1B}[0m"
                    : String(repeating: "#", count: filled)
                let line = "\r\(label) [\(bar)\(String(repeating: "-", count: width - filled))] \(counts)\(item.map { "  \($0)" } ?? "")"
                Console.write(2, Array((line + "\u{1B}[K").utf8))
            case .lines:
                if now.timeIntervalSince(lastLine) >= Self.plainLineIntervalSeconds || done == total {
                    lastLine = now
                    Console.write(2, Array("\(label): \(counts)\n".utf8))
                }
            }
            if done == total { finishLocked() }
        }
    }

    /// Ends the bar's line (when the count did not reach its total).
    func finish() { lock.withLock { finishLocked() } }

    private func finishLocked() {
        guard !finished else { return }
        finished = true
        if style == .bar { Console.write(2, Array("\n".utf8)) }
    }

    static func duration(_ seconds: Double) -> String {
        let s = Int(seconds.rounded())
        return s >= 60 ? "\(s / 60)m\(String(format: "%02d", s % 60))s" : "\(s)s"
    }
}
