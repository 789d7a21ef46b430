import Dispatch
import Synchronization

/// Runs `body(i)` for `0..<count` on up to `concurrency` threads: for work that waits on the network
/// (reading many objects' headers), where more requests in flight than cores keep the link busy.
public enum ConcurrentRequests {
    /// Requests an index run keeps in flight at once.
    public static let defaultConcurrency = 16

    /// Calls `body` once per index, from up to `concurrency` threads; returns when all are done (and
    /// every thread has let go of `body`).
    public static func forEach(_ count: Int, concurrency: Int = defaultConcurrency, _ body: @escaping @Sendable (Int) -> Void) {
        guard count > 0 else { return }
        let threads = max(1, min(concurrency, count))
        if threads == 1 {
            for i in 0..<count { body(i) }
            return
        }
        let next = Counter()
        let group = DispatchGroup()
        for _ in 0..<threads {
            group.enter()
            DispatchQueue.global().async {
                while true {
                    let i = next.value.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard i < count else { break }
                    body(i)
                }
                group.leave()
            }
        }
        group.wait()
    }
}

/// The next index to take, shared by the threads (an `Atomic` in a class, so escaping closures can hold it).
private final class Counter: Sendable {
    let value = Atomic<Int>(0)
}
