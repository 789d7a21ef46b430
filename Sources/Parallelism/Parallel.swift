import Dispatch
import Foundation

/// Splitting row loops across cores (DESIGN §3: hot loops split rows with `concurrentPerform`).
public enum Parallel {
    /// Calls `body` with contiguous, disjoint row ranges covering `0..<count`, on all cores.
    ///
    /// `body` may write to disjoint rows of shared buffers through unsafe pointers; it must not touch
    /// rows outside the range it is given. Small jobs (fewer than `minimumRowsPerChunk × 2` rows) run
    /// on the calling thread.
    /// - Parameters:
    ///   - count: number of rows.
    ///   - minimumRowsPerChunk: the smallest chunk worth a thread hop.
    ///   - maximumThreads: an upper bound on cores used (`nil` = all active cores); benchmarks that
    ///     measure one core pass 1.
    public static func forEachRowRange(_ count: Int, minimumRowsPerChunk: Int = 16, maximumThreads: Int? = nil,
                                       _ body: (Range<Int>) -> Void) {
        let cores = min(maximumThreads ?? Int.max, ProcessInfo.processInfo.activeProcessorCount)
        // 4 chunks per core balance uneven rows without much scheduling overhead.
        let chunks = min(cores * 4, max(1, count / max(1, minimumRowsPerChunk)))
        if chunks <= 1 || cores <= 1 {
            if count > 0 { body(0..<count) }
            return
        }
        withoutActuallyEscaping(body) { body in
            // The caller promises disjoint writes; the closure itself is not Sendable-checked.
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = chunk * count / chunks, end = (chunk + 1) * count / chunks
                if start < end { body(start..<end) }
            }
        }
    }

    /// `body(0)` … `body(count − 1)`, one item a call, on every core at once (`concurrentPerform`), their
    /// results in index order; the first error thrown (by index) is rethrown once all have run.
    public static func map<T>(_ count: Int, _ body: @Sendable (Int) throws -> T) throws -> [T] {
        var results = [Result<T, any Error>?](repeating: nil, count: count)
        results.withUnsafeMutableBufferPointer { slots in
            let target = ResultSlots(base: slots.baseAddress!)
            DispatchQueue.concurrentPerform(iterations: count) { k in target.base[k] = Result { try body(k) } }
        }
        return try results.map { try $0!.get() }
    }

    /// `map`'s result slots. `@unchecked Sendable`: each call writes its own slot only, and the slots are
    /// read after `concurrentPerform` returns, which orders every write before the reads.
    private struct ResultSlots<T>: @unchecked Sendable { let base: UnsafeMutablePointer<Result<T, any Error>?> }
}
