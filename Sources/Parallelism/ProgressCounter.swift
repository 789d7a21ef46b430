import Foundation

/// Counts finished items across threads and reports progress about every 1 % (progress bars of
/// `lookaround index` and `index --tiles`). Reports are made under the lock, so a bar never steps back.
///
/// `@unchecked Sendable`: `done` and `lastReported` are read and written under `lock` only (reports too); the rest is `let`.
public final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var lastReported = -1
    private let total: Int
    private let report: (@Sendable (Int, Int) -> Void)?

    /// A counter of `total` items calling `report(done, total)`; nil reports nothing.
    public init(total: Int, report: (@Sendable (Int, Int) -> Void)?) {
        self.total = total
        self.report = report
    }

    /// One more item is done.
    public func advance() {
        guard let report else { return }
        lock.withLock {
            done += 1
            if done == total || done - lastReported >= max(1, total / 100) {
                lastReported = done
                report(done, total)
            }
        }
    }
}
