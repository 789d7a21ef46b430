import Synchronization

/// The arrays the A* inner loop reads, copied once into unchecked buffers when the graph is made, and
/// the pool of per-search scratch memory: the only unsafe code of the module, fenced into this type.
///
/// Why: the search touches a few array elements per relaxed edge, and in Swift an `Array` subscript
/// is bounds-checked and a `[[Double]]` row a retain; over buffers the loop is plain loads. The buffers
/// are immutable after `init` and freed with the graph. ``RoutingGraph/referenceSearch(from:to:mode:penalty:)``
/// is the plain version over the arrays, which the tests hold this one to.
///
/// `@unchecked Sendable`: the buffers are written in `init` only and read after; the pool of workspaces is a `Mutex`, and a workspace is lent to one search at a time.
final class SearchTables: @unchecked Sendable {
    /// Head vertex of each directed edge (`2 · edge` forward, `2 · edge + 1` backward).
    let directedHead: UnsafeMutableBufferPointer<Int32>
    /// CSR adjacency over directed edges (``RoutingGraph``'s `adjacencyStart`, `adjacency`).
    let adjacencyStart: UnsafeMutableBufferPointer<Int32>
    let adjacency: UnsafeMutableBufferPointer<Int32>
    /// Per edge: access bits (bit `2 · mode + direction`).
    let edgeAccess: UnsafeMutableBufferPointer<UInt8>
    /// Per mode, per edge: seconds to travel the whole edge (`edgeSeconds[mode · edgeCount + e]`).
    let edgeSeconds: UnsafeMutableBufferPointer<Double>
    /// Vertices in the snapping grid's local frame, metres (what the heuristic measures in).
    let vertexX: UnsafeMutableBufferPointer<Double>
    let vertexY: UnsafeMutableBufferPointer<Double>
    /// Whether a vertex has turn restrictions.
    let restrictedVertex: UnsafeMutableBufferPointer<Bool>
    /// Per mode, per vertex: directed edges out of it open to the mode (`allowedOut[mode · vertexCount + v]`),
    /// so the search knows a dead end without a second pass over the adjacency.
    let allowedOut: UnsafeMutableBufferPointer<Int32>
    /// The directed edge each extra state of a via-way restriction stands for (state `2 · edgeCount + 1 + k`).
    let shadowBase: UnsafeMutableBufferPointer<Int32>
    /// Per state (directed edges, the target, the extra states): whether a turn from it leads into a
    /// via-way restriction's extra states (the search then asks ``RoutingGraph/step(from:base:to:at:modeBit:)``).
    let branching: UnsafeMutableBufferPointer<Bool>
    let edgeCount: Int
    let vertexCount: Int
    /// States a search needs: the directed edges, the target, the extra states.
    var stateCount: Int { 2 * edgeCount + 1 + shadowBase.count }

    /// Scratch memory of searches not running now.
    private let idle = Mutex<[SearchWorkspace]>([])

    init(edgeSource: [Int32], edgeTarget: [Int32], adjacencyStart: [Int32], adjacency: [Int32], edgeAccess: [UInt8],
         edgeSeconds: [[Double]], vertexLatitude: [Double], vertexLongitude: [Double], restrictedVertex: [Bool], grid: SnappingGrid,
         shadowBase: [Int32] = [], shadowParents: [Int] = []) {
        func copy<T>(_ values: [T]) -> UnsafeMutableBufferPointer<T> {
            let buffer = UnsafeMutableBufferPointer<T>.allocate(capacity: max(values.count, 1))
            _ = buffer.initialize(from: values)
            return buffer
        }
        edgeCount = edgeSource.count
        vertexCount = vertexLatitude.count
        var out = [Int32](repeating: 0, count: 3 * vertexCount)
        for mode in 0..<3 {
            for v in 0..<vertexCount {
                for i in Int(adjacencyStart[v])..<Int(adjacencyStart[v + 1]) {
                    let d = Int(adjacency[i])
                    if edgeAccess[d >> 1] & (1 << (2 * mode + (d & 1))) != 0 { out[mode * vertexCount + v] += 1 }
                }
            }
        }
        allowedOut = copy(out)
        var head = [Int32](repeating: 0, count: 2 * edgeCount)
        for e in 0..<edgeCount {
            head[2 * e] = edgeTarget[e]
            head[2 * e + 1] = edgeSource[e]
        }
        directedHead = copy(head)
        self.adjacencyStart = copy(adjacencyStart)
        self.adjacency = copy(adjacency)
        self.edgeAccess = copy(edgeAccess)
        self.edgeSeconds = copy(edgeSeconds.flatMap { $0 })
        let points = zip(vertexLatitude, vertexLongitude).map { grid.xy(latitude: $0, longitude: $1) }
        vertexX = copy(points.map(\.x))
        vertexY = copy(points.map(\.y))
        self.restrictedVertex = copy(restrictedVertex)
        self.shadowBase = copy(shadowBase)
        var branching = [Bool](repeating: false, count: 2 * edgeSource.count + 1 + shadowBase.count)
        for parent in shadowParents where parent >= 0 && parent < branching.count { branching[parent] = true }
        self.branching = copy(branching)
    }

    deinit {
        for buffer in [directedHead, adjacencyStart, adjacency, allowedOut, shadowBase] { buffer.deallocate() }
        branching.deallocate()
        edgeAccess.deallocate()
        edgeSeconds.deallocate()
        vertexX.deallocate()
        vertexY.deallocate()
        restrictedVertex.deallocate()
    }

    /// Bytes of the buffers (the graph's ``RoutingGraph/memoryBytes`` counts them).
    var memoryBytes: Int {
        (directedHead.count + adjacencyStart.count + adjacency.count + allowedOut.count + shadowBase.count) * 4 + edgeAccess.count
            + edgeSeconds.count * 8 + (vertexX.count + vertexY.count) * 8 + restrictedVertex.count + branching.count
    }

    /// Runs `body` with scratch memory for `stateCount` states and `vertexCount` vertices that no other
    /// search uses meanwhile.
    func withWorkspace<T>(stateCount: Int, vertexCount: Int, _ body: (SearchWorkspace) -> T) -> T {
        let workspace = idle.withLock { $0.popLast() } ?? SearchWorkspace(stateCount: stateCount, vertexCount: vertexCount)
        defer { idle.withLock { $0.append(workspace) } }
        workspace.begin()
        return body(workspace)
    }
}

/// One search's scratch memory, reused: per state the best seconds so far, the parent state and a
/// stamp (``generation`` open, ``generation`` + 1 settled, older: not reached in this search), so
/// starting a search clears nothing; per vertex the heuristic's estimate once computed (stamped the
/// same way); and the heap's storage.
///
/// `@unchecked Sendable`: lent to one search, on one thread, at a time: ``SearchTables/withWorkspace(stateCount:vertexCount:_:)`` takes it out of the `Mutex`-guarded pool and puts it back when the search is over.
final class SearchWorkspace: @unchecked Sendable {
    struct State {
        var seconds: Double
        var parent: Int32
        var stamp: UInt32
    }

    struct Estimate {
        var seconds: Double
        var stamp: UInt32
    }

    let states: UnsafeMutableBufferPointer<State>
    let estimates: UnsafeMutableBufferPointer<Estimate>
    private(set) var generation: UInt32 = 0
    var heap: FlatHeap

    init(stateCount: Int, vertexCount: Int) {
        states = .allocate(capacity: stateCount)
        states.initialize(repeating: State(seconds: .infinity, parent: -1, stamp: 0))
        estimates = .allocate(capacity: max(vertexCount, 1))
        estimates.initialize(repeating: Estimate(seconds: 0, stamp: 0))
        heap = FlatHeap(capacity: 256)
    }

    deinit {
        states.deallocate()
        estimates.deallocate()
        heap.deallocate()
    }

    /// Starts a search: every state unreached, the heap empty.
    func begin() {
        if generation >= UInt32.max - 4 {
            for i in states.indices { states[i].stamp = 0 }
            for i in estimates.indices { estimates[i].stamp = 0 }
            generation = 0
        }
        generation += 2
        heap.removeAll()
    }
}

/// A binary min-heap of (key, state), the same sift steps and comparisons as ``StateHeap`` (so ties
/// pop in the same order and routes come out identical), over one growable buffer.
struct FlatHeap {
    struct Entry {
        var key: Double
        var state: Int32
    }

    private var storage: UnsafeMutablePointer<Entry>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(capacity: capacity)
    }

    func deallocate() { storage.deallocate() }

    mutating func removeAll() { count = 0 }

    @inline(__always) mutating func push(_ key: Double, _ state: Int32) {
        if count == capacity {
            let grown = UnsafeMutablePointer<Entry>.allocate(capacity: capacity * 2)
            grown.moveInitialize(from: storage, count: count)
            storage.deallocate()
            storage = grown
            capacity *= 2
        }
        var i = count
        count += 1
        let entry = Entry(key: key, state: state)
        storage[i] = entry
        while i > 0 {
            let parent = (i - 1) >> 1
            guard storage[parent].key > key else { break }
            storage[i] = storage[parent]
            storage[parent] = entry
            i = parent
        }
    }

    @inline(__always) mutating func pop() -> Entry? {
        guard count > 0 else { return nil }
        let top = storage[0]
        count -= 1
        if count > 0 {
            let last = storage[count]
            storage[0] = last
            var i = 0
            let n = count
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < n, storage[l].key < storage[m].key { m = l }
                if r < n, storage[r].key < storage[m].key { m = r }
                if m == i { break }
                storage.swapAt(m, i)
                i = m
            }
        }
        return top
    }
}

extension UnsafeMutablePointer {
    @inline(__always) fileprivate func swapAt(_ a: Int, _ b: Int) {
        let t = self[a]
        self[a] = self[b]
        self[b] = t
    }
}
