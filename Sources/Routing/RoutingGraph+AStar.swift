extension RoutingGraph {
    /// A* over directed edges: the steps of ``referenceSearch(from:to:mode:penalty:)``, with the same
    /// arithmetic and heap order (so the same routes), over ``SearchTables``' buffers and a reused
    /// ``SearchWorkspace``: no allocation per query, no bounds check or closure in the inner loop.
    /// Returns the pieces as (directed edge, start offset, end offset).
    func search(from source: SnappedPoint, to target: SnappedPoint, mode: TransportType,
                penalty: [Double]?) -> [(directed: Int, start: Double, end: Double)]? {
        let t = tables
        return t.withWorkspace(stateCount: t.stateCount, vertexCount: t.vertexCount) { w in
            search(from: source, to: target, mode: mode, penalty: penalty, tables: t, workspace: w)
        }
    }

    private func search(from source: SnappedPoint, to target: SnappedPoint, mode: TransportType, penalty: [Double]?,
                        tables t: SearchTables, workspace w: SearchWorkspace) -> [(directed: Int, start: Double, end: Double)]? {
        let directedCount = 2 * t.edgeCount
        let targetState = directedCount
        let seconds = UnsafeBufferPointer(rebasing: t.edgeSeconds[(mode.index * t.edgeCount)..<((mode.index + 1) * t.edgeCount)])
        let allowedOut = UnsafeBufferPointer(rebasing: t.allowedOut[(mode.index * t.vertexCount)..<((mode.index + 1) * t.vertexCount)])
        let modeBit: UInt8 = 1 << mode.index
        let forwardBit: UInt8 = 1 << (2 * mode.index)
        let speed = maximumSpeed[mode.index]
        let targetPoint = grid.xy(latitude: target.coordinate.latitude, longitude: target.coordinate.longitude)
        let head = t.directedHead, access = t.edgeAccess, adjacency = t.adjacency, adjacencyStart = t.adjacencyStart
        let vertexX = t.vertexX, vertexY = t.vertexY, restricted = t.restrictedVertex
        let shadowBase = t.shadowBase, branching = t.branching
        let shadowOffset = directedCount + 1
        /// The directed edge a state stands for.
        @inline(__always) func baseEdge(_ state: Int) -> Int { state < shadowOffset ? state : Int(shadowBase[state - shadowOffset]) }
        let hasPenalty = penalty != nil, penalties = penalty ?? []
        // The workspace's memory as locals: a class's stored properties would be checked for exclusive
        // access at every use.
        let states = w.states, estimates = w.estimates
        let open = w.generation, settled = open &+ 1
        var heap = w.heap
        defer { w.heap = heap }
        @inline(__always) func best(_ state: Int) -> Double { states[state].stamp >= open ? states[state].seconds : .infinity }
        @inline(__always) func parent(_ state: Int) -> Int32 { states[state].stamp >= open ? states[state].parent : -1 }
        @inline(__always) func reach(_ state: Int, _ value: Double, _ from: Int32) {
            // A settled state stays settled, as in the reference search.
            states[state] = SearchWorkspace.State(seconds: value, parent: from, stamp: states[state].stamp == settled ? settled : open)
        }
        @inline(__always) func heuristic(_ v: Int) -> Double {
            if estimates[v].stamp == open { return estimates[v].seconds }
            let dx = vertexX[v] - targetPoint.x, dy = vertexY[v] - targetPoint.y
            // 0.98: the local frame's distances may exceed the geodesic ones by a little.
            let value = 0.98 * (dx * dx + dy * dy).squareRoot() / speed
            estimates[v] = SearchWorkspace.Estimate(seconds: value, stamp: open)
            return value
        }
        @inline(__always) func allows(_ d: Int) -> Bool { access[d >> 1] & (forwardBit << UInt8(d & 1)) != 0 }
        @inline(__always) func factor(_ e: Int) -> Double { hasPenalty ? penalties[e] : 1 }
        var targetDirected = -1
        let es = source.edge, et = target.edge
        let sourceLength = length(edge: es), targetLength = length(edge: et)
        @inline(__always) func share(_ meters: Double, of e: Int, _ total: Double) -> Double {
            total > 0 ? meters / total * seconds[e] * factor(e) : 0
        }
        if allows(2 * es) {
            let cost = share(sourceLength - source.offsetMeters, of: es, sourceLength)
            reach(2 * es, cost, -2)
            heap.push(cost + heuristic(Int(head[2 * es])), Int32(2 * es))
            if es == et, target.offsetMeters >= source.offsetMeters {
                let direct = share(target.offsetMeters - source.offsetMeters, of: es, sourceLength)
                if direct < best(targetState) { reach(targetState, direct, -2); targetDirected = 2 * es }
            }
        }
        if allows(2 * es + 1) {
            let cost = share(source.offsetMeters, of: es, sourceLength)
            reach(2 * es + 1, cost, -2)
            heap.push(cost + heuristic(Int(head[2 * es + 1])), Int32(2 * es + 1))
            if es == et, target.offsetMeters <= source.offsetMeters {
                let direct = share(source.offsetMeters - target.offsetMeters, of: es, sourceLength)
                if direct < best(targetState) { reach(targetState, direct, -2); targetDirected = 2 * es + 1 }
            }
        }
        if best(targetState).isFinite { heap.push(best(targetState), Int32(targetState)) }
        while let entry = heap.pop() {
            let state = Int(entry.state)
            if state == targetState { break }
            if states[state].stamp == settled { continue }
            let here = states[state].seconds
            states[state].stamp = settled
            let base = baseEdge(state)
            let v = Int(head[base])
            let begin = Int(adjacencyStart[v]), finish = Int(adjacencyStart[v + 1])
            // U-turns only where nothing else goes on: a dead end for this mode, or a node where every
            // onward turn is forbidden. The way back is listed at v unless the edge is a loop travelled forward.
            let back = base ^ 1
            // Restrictions apply at restricted vertices, from the extra states of via-way chains, and from
            // the edges that lead into them.
            let checksTurns = restricted[v] || state >= shadowOffset || branching[state]
            var others: Int
            if checksTurns {
                others = 0
                for i in begin..<finish {
                    let n = Int(adjacency[i])
                    if n != back, allows(n), step(from: state, base: base, to: n, at: v, modeBit: modeBit) >= 0 { others += 1 }
                }
            } else {
                let backListed = back & 1 == 0 || head[back] != head[base]
                others = Int(allowedOut[v]) - (backListed && allows(back) ? 1 : 0)
            }
            for i in begin..<finish {
                let next = Int(adjacency[i])
                guard allows(next) else { continue }
                if next == back, others > 0 { continue }
                let nextState = checksTurns ? step(from: state, base: base, to: next, at: v, modeBit: modeBit) : next
                if nextState < 0 { continue }
                let e = next >> 1
                if e == et {
                    let partial = next & 1 == 0 ? target.offsetMeters : targetLength - target.offsetMeters
                    let candidate = here + share(partial, of: e, targetLength)
                    if candidate < best(targetState) {
                        reach(targetState, candidate, Int32(state))
                        targetDirected = next
                        heap.push(candidate, Int32(targetState))
                    }
                }
                let reached = here + seconds[e] * factor(e)
                if reached < best(nextState) {
                    reach(nextState, reached, Int32(state))
                    heap.push(reached + heuristic(Int(head[next])), Int32(nextState))
                }
            }
        }
        guard best(targetState).isFinite, targetDirected >= 0 else { return nil }
        return walkBack(from: targetState, parent: parent, baseEdge: baseEdge, source: source, target: target,
                        targetDirected: targetDirected, targetLength: targetLength)
    }
}
