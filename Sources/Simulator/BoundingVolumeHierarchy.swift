import Foundation

/// A BVH over triangles, built with the binned surface-area heuristic and flattened into arrays.
///
/// Triangles are stored in leaf order as `v0, edge1, edge2` (9 floats each), ready for the
/// Möller–Trumbore test. `triangleIDs[i]` maps the i-th stored triangle back to its input index.
/// Storage is allocated once and read through raw pointers while tracing: no allocation per ray.
///
/// `@unchecked Sendable`: the buffers are written while building, in `init`, and only read after; they are freed in `deinit`, when no trace can hold them.
final class BoundingVolumeHierarchy: @unchecked Sendable {
    /// Flattened nodes, root at index 0.
    let nodes: UnsafeMutableBufferPointer<BVHNode>
    /// Triangles in leaf order: v0.xyz, edge1.xyz, edge2.xyz.
    let triangles: UnsafeMutableBufferPointer<Float>
    /// Input index of each stored triangle.
    let triangleIDs: UnsafeMutableBufferPointer<UInt32>
    /// Number of nodes in use.
    let nodeCount: Int
    /// Number of triangles.
    var triangleCount: Int { triangleIDs.count }
    /// The deepest path from the root (nodes), for sizing traversal stacks.
    let depth: Int

    /// The largest number of triangles in one leaf.
    static let maximumLeafSize = 4
    static let binCount = 8

    /// Builds the hierarchy over triangles given as vertex triples (`vertices.count` = 3 × triangles).
    init(vertices: [Vec3]) {
        let count = vertices.count / 3
        var lows = [Vec3](repeating: .zero, count: count), highs = [Vec3](repeating: .zero, count: count)
        for i in 0..<count {
            let a = vertices[3 * i], b = vertices[3 * i + 1], c = vertices[3 * i + 2]
            lows[i] = a.minimum(b).minimum(c)
            highs[i] = a.maximum(b).maximum(c)
        }
        let (built, order, maxDepth) = Self.build(lows: lows, highs: highs)
        nodeCount = built.count
        depth = maxDepth
        nodes = .allocate(capacity: max(1, built.count))
        _ = nodes.initialize(from: built)
        triangles = .allocate(capacity: max(1, count * 9))
        triangleIDs = .allocate(capacity: count)
        for (k, t32) in order.enumerated() {
            let t = Int(t32)
            let a = vertices[3 * t], e1 = vertices[3 * t + 1] - a, e2 = vertices[3 * t + 2] - a
            let base = 9 * k
            triangles[base] = a.x; triangles[base + 1] = a.y; triangles[base + 2] = a.z
            triangles[base + 3] = e1.x; triangles[base + 4] = e1.y; triangles[base + 5] = e1.z
            triangles[base + 6] = e2.x; triangles[base + 7] = e2.y; triangles[base + 8] = e2.z
            triangleIDs[k] = t32
        }
    }

    /// A hierarchy over boxes (placed instances): ``triangleIDs`` holds each leaf slot's box index and
    /// ``triangles`` is empty; leaves are read by the instance traversal, not the triangle test.
    init(boxLows lows: [Vec3], highs: [Vec3]) {
        let (built, order, maxDepth) = Self.build(lows: lows, highs: highs)
        nodeCount = built.count
        depth = maxDepth
        nodes = .allocate(capacity: max(1, built.count))
        _ = nodes.initialize(from: built)
        triangles = .allocate(capacity: 1)
        triangleIDs = .allocate(capacity: order.count)
        _ = triangleIDs.initialize(from: order)
    }

    /// Binned-SAH build over boxes: the flattened nodes, the boxes' order in the leaves, the depth.
    private static func build(lows: [Vec3], highs: [Vec3]) -> (nodes: [BVHNode], order: [UInt32], depth: Int) {
        let count = lows.count
        var centroids = [Vec3](repeating: .zero, count: count)
        for i in 0..<count { centroids[i] = (lows[i] + highs[i]) * 0.5 }
        var order = [UInt32]((0..<UInt32(count)))
        var built: [BVHNode] = []
        built.reserveCapacity(max(1, 2 * count / 2))
        built.append(BVHNode(minimum: .zero, firstOrLeft: 0, maximum: .zero, count: UInt32(count)))
        var maxDepth = 1
        // Iterative build: (node index, first, count, depth).
        var work: [(Int, Int, Int, Int)] = [(0, 0, count, 1)]
        var binLow = [Vec3](repeating: .zero, count: Self.binCount), binHigh = binLow
        var binCounts = [Int](repeating: 0, count: Self.binCount)
        var rightCost = [Float](repeating: 0, count: Self.binCount)
        while let (nodeIndex, first, n, depth) = work.popLast() {
            maxDepth = max(maxDepth, depth)
            var low = Vec3(.infinity, .infinity, .infinity), high = -low
            var cLow = low, cHigh = high
            for k in first..<(first + n) {
                let t = Int(order[k])
                low = low.minimum(lows[t]); high = high.maximum(highs[t])
                cLow = cLow.minimum(centroids[t]); cHigh = cHigh.maximum(centroids[t])
            }
            if n == 0 { low = .zero; high = .zero }
            built[nodeIndex] = BVHNode(minimum: low, firstOrLeft: UInt32(first), maximum: high, count: UInt32(n))
            if n <= Self.maximumLeafSize { continue }
            // Binned SAH over the centroid bounds, all three axes.
            var bestAxis = -1, bestSplit = 0
            var bestCost = Float(n) * Self.area(low, high)  // cost of a leaf (intersection cost 1)
            for axis in 0..<3 {
                let extent = cHigh[axis] - cLow[axis]
                if extent <= 1e-9 { continue }
                let scale = Float(Self.binCount) / extent
                for b in 0..<Self.binCount {
                    binLow[b] = Vec3(.infinity, .infinity, .infinity); binHigh[b] = -binLow[b]; binCounts[b] = 0
                }
                for k in first..<(first + n) {
                    let t = Int(order[k])
                    let b = min(Self.binCount - 1, Int((centroids[t][axis] - cLow[axis]) * scale))
                    binCounts[b] += 1
                    binLow[b] = binLow[b].minimum(lows[t]); binHigh[b] = binHigh[b].maximum(highs[t])
                }
                var accLow = Vec3(.infinity, .infinity, .infinity), accHigh = -accLow, accCount = 0
                for b in stride(from: Self.binCount - 1, to: 0, by: -1) {
                    accCount += binCounts[b]
                    accLow = accLow.minimum(binLow[b]); accHigh = accHigh.maximum(binHigh[b])
                    rightCost[b] = accCount == 0 ? 0 : Float(accCount) * Self.area(accLow, accHigh)
                }
                accLow = Vec3(.infinity, .infinity, .infinity); accHigh = -accLow; accCount = 0
                for b in 0..<(Self.binCount - 1) {
                    accCount += binCounts[b]
                    accLow = accLow.minimum(binLow[b]); accHigh = accHigh.maximum(binHigh[b])
                    let leftCost = accCount == 0 ? 0 : Float(accCount) * Self.area(accLow, accHigh)
                    // Traversal cost 0.3 of a triangle test (measured best among 0.15…1 on the Helsinki benchmark).
                    let cost = 0.3 * Self.area(low, high) + leftCost + rightCost[b + 1]
                    if cost < bestCost && accCount > 0 && accCount < n { bestCost = cost; bestAxis = axis; bestSplit = b }
                }
            }
            var middle: Int
            if bestAxis < 0 {
                if n <= 16 { continue }  // cheaper as a leaf than any split: keep it
                // Degenerate centroids (all equal): split in the middle to bound leaf size.
                middle = first + n / 2
            } else {
                let scale = Float(Self.binCount) / (cHigh[bestAxis] - cLow[bestAxis])
                var i = first, j = first + n - 1
                while i <= j {
                    let t = Int(order[i])
                    let b = min(Self.binCount - 1, Int((centroids[t][bestAxis] - cLow[bestAxis]) * scale))
                    if b <= bestSplit { i += 1 } else { order.swapAt(i, j); j -= 1 }
                }
                middle = i
                if middle == first || middle == first + n { middle = first + n / 2 }
            }
            let left = built.count
            built.append(BVHNode(minimum: .zero, firstOrLeft: 0, maximum: .zero, count: 0))
            built.append(BVHNode(minimum: .zero, firstOrLeft: 0, maximum: .zero, count: 0))
            built[nodeIndex].firstOrLeft = UInt32(left)
            built[nodeIndex].count = 0
            work.append((left + 1, middle, first + n - middle, depth + 1))
            work.append((left, first, middle - first, depth + 1))
        }
        return (built, order, maxDepth)
    }

    deinit {
        nodes.deallocate(); triangles.deallocate(); triangleIDs.deallocate()
    }

    @inline(__always) static func area(_ low: Vec3, _ high: Vec3) -> Float {
        let d = high - low
        return d.x * d.y + d.y * d.z + d.z * d.x
    }

    /// The stack depth a traversal needs.
    var stackCapacity: Int { depth + 2 }

    /// Plain pointers for the tracing loops (no reference counting per ray).
    var view: BVHView {
        BVHView(nodes: UnsafePointer(nodes.baseAddress!), triangles: UnsafePointer(triangles.baseAddress!),
                isEmpty: nodeCount == 0 || triangleIDs.count == 0)
    }

    /// Closest hit (see ``BVHView/closestHit``); keeps the hierarchy alive during the call.
    func closestHit(origin: Vec3, direction: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> (index: Int, t: Float, u: Float, v: Float)? {
        withExtendedLifetime(self) { view.closestHit(origin: origin, direction: direction, tMin: tMin, tMax: tMax, stack: stack) }
    }

    /// Any hit (see ``BVHView/isOccluded``); keeps the hierarchy alive during the call.
    func isOccluded(origin: Vec3, direction: Vec3, tMin: Float, tMax: Float, stack: UnsafeMutablePointer<UInt32>) -> Bool {
        withExtendedLifetime(self) { view.isOccluded(origin: origin, direction: direction, tMin: tMin, tMax: tMax, stack: stack) }
    }
}

/// The BVH's storage as raw pointers, valid while its ``BoundingVolumeHierarchy`` lives.
///
/// `@unchecked Sendable`: read-only pointers into a hierarchy that no longer changes; valid while the hierarchy lives (callers hold it, `withExtendedLifetime`).
struct BVHView: @unchecked Sendable {
    let nodes: UnsafePointer<BVHNode>
    let triangles: UnsafePointer<Float>
    let isEmpty: Bool

    /// The closest hit along the ray in (`tMin`, `tMax`): stored triangle index, `t`, barycentrics.
    /// `stack` must hold `stackCapacity` entries (allocated once per thread, reused for every ray).
    @inline(__always)
    func closestHit(origin: Vec3, direction: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> (index: Int, t: Float, u: Float, v: Float)? {
        let tris = triangles
        var bestIndex = -1, bestT: Float = 0, bestU: Float = 0, bestV: Float = 0
        visitNearest(origin: origin, inverseDirection: RayIntersection.safeReciprocal(direction), tMin: tMin, tMax: tMax,
                     stack: stack) { k, best in
            let p = tris + 9 * k
            guard let hit = RayIntersection.triangle(origin: origin, direction: direction,
                                                     v0: Vec3(p[0], p[1], p[2]), edge1: Vec3(p[3], p[4], p[5]),
                                                     edge2: Vec3(p[6], p[7], p[8]), tMin: tMin, tMax: best) else { return nil }
            bestIndex = k; bestT = hit.t; bestU = hit.u; bestV = hit.v
            return hit.t
        }
        return bestIndex < 0 ? nil : (bestIndex, bestT, bestU, bestV)
    }

    /// Whether anything blocks the ray in (`tMin`, `tMax`): any-hit, stops at the first blocker.
    @inline(__always)
    func isOccluded(origin: Vec3, direction: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> Bool {
        isOccluded(origin: origin, direction: direction, inverseDirection: RayIntersection.safeReciprocal(direction),
                   tMin: tMin, tMax: tMax, stack: stack)
    }

    /// ``isOccluded(origin:direction:tMin:tMax:stack:)`` with the reciprocal direction given: shadow
    /// rays towards the sun share one direction, so it is computed once per render, not per ray.
    @inline(__always)
    func isOccluded(origin: Vec3, direction: Vec3, inverseDirection inv: Vec3, tMin: Float, tMax: Float,
                    stack: UnsafeMutablePointer<UInt32>) -> Bool {
        let tris = triangles
        return visitUntilBlocked(origin: origin, inverseDirection: inv, tMin: tMin, tMax: tMax, stack: stack) { k in
            let p = tris + 9 * k
            return RayIntersection.triangle(origin: origin, direction: direction,
                                            v0: Vec3(p[0], p[1], p[2]), edge1: Vec3(p[3], p[4], p[5]),
                                            edge2: Vec3(p[6], p[7], p[8]), tMin: tMin, tMax: tMax) != nil
        }
    }

    /// The closest-hit traversal, for what the leaves hold (this hierarchy's triangles, or an
    /// ``InstanceLevel``'s copies): the nodes whose box the ray enters before the best hit so far, nearer
    /// child first. `leaf(k, best)` tests the k-th stored item and returns its distance when it is nearer
    /// than `best`, nil otherwise.
    @inline(__always)
    func visitNearest(origin: Vec3, inverseDirection inv: Vec3, tMin: Float, tMax: Float,
                      stack: UnsafeMutablePointer<UInt32>, leaf: (Int, Float) -> Float?) {
        if isEmpty { return }
        let nodes = self.nodes
        var best = tMax
        var top = 0
        var current: UInt32 = 0
        if RayIntersection.box(origin: origin, inverseDirection: inv, minimum: nodes[0].minimum,
                               maximum: nodes[0].maximum, tMin: tMin, tMax: best) == .infinity { return }
        while true {
            let node = nodes[Int(current)]
            if node.count > 0 {
                let first = Int(node.firstOrLeft)
                for k in first..<(first + Int(node.count)) {
                    if let t = leaf(k, best) { best = t }
                }
            } else {
                let left = node.firstOrLeft, right = left + 1
                let a = nodes[Int(left)], b = nodes[Int(right)]
                let tl = RayIntersection.box(origin: origin, inverseDirection: inv, minimum: a.minimum,
                                             maximum: a.maximum, tMin: tMin, tMax: best)
                let tr = RayIntersection.box(origin: origin, inverseDirection: inv, minimum: b.minimum,
                                             maximum: b.maximum, tMin: tMin, tMax: best)
                if tl != .infinity && tr != .infinity {
                    if tl <= tr { current = left; stack[top] = right } else { current = right; stack[top] = left }
                    top += 1
                    continue
                } else if tl != .infinity { current = left; continue }
                else if tr != .infinity { current = right; continue }
            }
            if top == 0 { break }
            top -= 1
            current = stack[top]
        }
    }

    /// The any-hit traversal, for what the leaves hold: `blocks(k)` tests the k-th stored item; the walk
    /// stops at the first that blocks (true) or when no box is left (false). Children are tested before
    /// they are pushed: fewer stack round trips.
    @inline(__always)
    func visitUntilBlocked(origin: Vec3, inverseDirection inv: Vec3, tMin: Float, tMax: Float,
                           stack: UnsafeMutablePointer<UInt32>, blocks: (Int) -> Bool) -> Bool {
        if isEmpty { return false }
        let nodes = self.nodes
        if RayIntersection.box(origin: origin, inverseDirection: inv, minimum: nodes[0].minimum,
                               maximum: nodes[0].maximum, tMin: tMin, tMax: tMax) == .infinity { return false }
        var top = 0
        var current: UInt32 = 0
        while true {
            let node = nodes[Int(current)]
            if node.count > 0 {
                let first = Int(node.firstOrLeft)
                for k in first..<(first + Int(node.count)) where blocks(k) { return true }
            } else {
                let left = node.firstOrLeft, right = left + 1
                let a = nodes[Int(left)], b = nodes[Int(right)]
                let hitLeft = RayIntersection.box(origin: origin, inverseDirection: inv, minimum: a.minimum,
                                                  maximum: a.maximum, tMin: tMin, tMax: tMax) != .infinity
                let hitRight = RayIntersection.box(origin: origin, inverseDirection: inv, minimum: b.minimum,
                                                   maximum: b.maximum, tMin: tMin, tMax: tMax) != .infinity
                if hitLeft && hitRight { current = left; stack[top] = right; top += 1; continue }
                if hitLeft { current = left; continue }
                if hitRight { current = right; continue }
            }
            if top == 0 { return false }
            top -= 1
            current = stack[top]
        }
    }
}
