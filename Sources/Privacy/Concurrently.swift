import Dispatch

/// Work spread over the cores, one item per call, its results in order.
enum Concurrently {
    /// `body(0)` … `body(count − 1)` run on every core at once (`DispatchQueue.concurrentPerform`), their
    /// results in index order; the first error thrown (by index) is rethrown once all have run.
    static func map<T>(_ count: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        var results = [Result<T, any Error>?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { slots in
            let target = Slots(base: slots.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: count) { k in target.base[k] = Result { try body(k) } }
        }
        return try results.map { try $0!.get() }
    }

    /// The result slots. `@unchecked Sendable`: each call writes its own slot only, and the slots are read
    /// after `concurrentPerform` returns, which orders every write before the reads.
    private struct Slots<T>: @unchecked Sendable { let base: UnsafeMutablePointer<Result<T, any Error>?> }
}
