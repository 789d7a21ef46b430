import Foundation

/// Counts finished files across threads and reports progress about every 1 %.
final class ProgressCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var done = 0
    private var lastReported = -1
    private let total: Int
    private let report: (@Sendable (Int, Int) -> Void)?

    init(total: Int, report: (@Sendable (Int, Int) -> Void)?) {
        self.total = total
        self.report = report
    }

    func advance() {
        guard let report else { return }
        lock.lock()
        done += 1
        let step = max(1, total / 100)
        let shouldReport = done == total || done - lastReported >= step
        if shouldReport { lastReported = done }
        let value = done
        lock.unlock()
        if shouldReport { report(value, total) }
    }
}
