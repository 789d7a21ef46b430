import Foundation

/// A zeroed buffer of premultiplied texels for projected drawing, taken from a small pool and given
/// back when the last owner lets go. A street name's texels are a few megabytes; fresh from the
/// allocator every call they are fresh pages from the kernel, and those page faults cost about as
/// much as the drawing itself (half the painting time of a 935×131 name). Written only while it is
/// being filled, by its one creator; read-only once shared.
///
/// `@unchecked Sendable`: `texels` is written only through `fill`, by the creator, before the buffer is shared, and only read after; the static pool is touched under `lock` only.
final class TexelBuffer: @unchecked Sendable {
    private(set) var texels: [SIMD4<Float>]

    /// `count` transparent texels.
    init(zeroedCount count: Int) { texels = Self.take(count) }

    deinit { Self.give(texels) }

    /// Fills the buffer (before it is shared).
    func fill<R>(_ body: (UnsafeMutableBufferPointer<SIMD4<Float>>) -> R) -> R {
        texels.withUnsafeMutableBufferPointer { body($0) }
    }

    // MARK: Pool

    /// Buffers kept for reuse at most (one per label painted at once, with room for a second thread).
    static let poolCapacity = 4
    private static let lock = NSLock()
    nonisolated(unsafe) private static var pool: [[SIMD4<Float>]] = []

    private static func take(_ count: Int) -> [SIMD4<Float>] {
        var buffer: [SIMD4<Float>] = lock.withLock {
            // The roomiest one, so that it need not grow.
            guard let best = pool.indices.max(by: { pool[$0].capacity < pool[$1].capacity }) else { return [] }
            return pool.remove(at: best)
        }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: repeatElement(SIMD4(repeating: 0), count: count))
        return buffer
    }

    private static func give(_ buffer: [SIMD4<Float>]) {
        lock.withLock {
            if pool.count < poolCapacity {
                pool.append(buffer)
            } else if let smallest = pool.indices.min(by: { pool[$0].capacity < pool[$1].capacity }),
                      pool[smallest].capacity < buffer.capacity {
                pool[smallest] = buffer
            }
        }
    }
}
