import MapData

/// Turn restrictions as OSRM and GraphHopper read them, edge-based:
///
/// - **Via node.** The from way's edge that ends at the via node (travelled into it) and the to way's
///   edge that starts there (travelled out of it). A from or to way that does not end at the via node —
///   it runs on through it, or does not touch it — makes the relation ambiguous (the wiki asks for the
///   way to be split there); the relation is left out and reported, as GraphHopper does. `no_entry` may
///   have several from ways and `no_exit` several to ways (MapData's reader checks that).
/// - **Via ways.** The from edge, the via ways' edges in the one order that joins them into a path, and
///   the to edge. The search tracks the chain with extra states: from the from edge, a via edge is
///   entered as a copy of itself that remembers how it was reached (as GraphHopper's artificial edges
///   and OSRM's duplicated nodes do); at the chain's last edge a `no_*` bans the to edge, an `only_*`
///   every other.
/// - **Modes.** Each mode reads its most specific key (``RoutingProfile/restrictionKeys(_:)``) and
///   `except=*` (``RoutingProfile/restrictionValue(_:for:)``): the same answer whatever the order of
///   the tags.
/// - **U-turns** (in the search): only where nothing else goes on — a dead end, or a node where every
///   onward turn is forbidden.
extension RoutingGraph {
    /// Restrictions resolved onto a graph's directed edges.
    struct RestrictionTables {
        var byVertex: [Int32: [Restriction]] = [:]
        /// The directed edge each extra state stands for (state `2 · edgeCount + 1 + k` for index k).
        var shadowBase: [Int32] = []
        /// (state << 32 | next directed edge) → the extra state's index k the turn leads to.
        var shadowChildren: [Int64: Int32] = [:]
        /// The rules at the end of a via-way chain, by extra state index (`fromDirected` unused).
        var shadowRules: [Int32: [Restriction]] = [:]
        var resolved = 0
        var unresolved: [StreetNetwork.SkippedRestriction] = []
    }

    /// Resolves `restrictions` onto the edges of a graph being built.
    static func resolve(_ restrictions: [StreetNetwork.TurnRestriction], vertexIndex: [Int64: Int32], wayIndexByOSMID: [Int64: Int32],
                        edgeSource: [Int32], edgeTarget: [Int32], edgeWay: [Int32]) -> RestrictionTables {
        var tables = RestrictionTables()
        var edgesOfWay: [Int32: [Int]] = [:]
        for e in 0..<edgeWay.count { edgesOfWay[edgeWay[e], default: []].append(e) }
        let stateOffset = 2 * edgeSource.count + 1

        for restriction in restrictions {
            func fail(_ reason: String) { tables.unresolved.append(StreetNetwork.SkippedRestriction(id: restriction.id, reason: reason)) }
            var modesNo: UInt8 = 0, modesOnly: UInt8 = 0
            for mode in TransportType.allCases {
                guard let value = RoutingProfile.restrictionValue(restriction, for: mode) else { continue }
                if value.hasPrefix("only_") { modesOnly |= 1 << mode.index } else { modesNo |= 1 << mode.index }
            }
            // A restriction for none of the modes routed (restriction:hgv, except=…) is no error.
            guard modesNo | modesOnly != 0 else { continue }
            var viaWays: [Int64] = []
            if case .ways(let ways) = restriction.via { viaWays = ways }
            let missing = (restriction.fromWayIDs + viaWays + restriction.toWayIDs).filter { wayIndexByOSMID[$0] == nil }
            guard missing.isEmpty else {
                fail("way \(missing.map(String.init).joined(separator: ", ")) is not in the street network (not a way any mode may use, "
                     + "or outside the extract)")
                continue
            }
            /// The directed edges of `way` at vertex `v`: into it (`arriving`) or out of it.
            func ends(_ way: Int64, at v: Int32, arriving: Bool) -> [Int] {
                var found: [Int] = []
                for e in edgesOfWay[wayIndexByOSMID[way]!] ?? [] {
                    if edgeTarget[e] == v { found.append(arriving ? 2 * e : 2 * e + 1) }
                    if edgeSource[e] == v { found.append(arriving ? 2 * e + 1 : 2 * e) }
                }
                return found
            }
            func emit(from: Int, to: Int, into list: inout [Restriction]) {
                if modesNo != 0 { list.append(Restriction(fromDirected: Int32(from), toDirected: Int32(to), mandatory: false, modes: modesNo)) }
                if modesOnly != 0 { list.append(Restriction(fromDirected: Int32(from), toDirected: Int32(to), mandatory: true, modes: modesOnly)) }
            }

            switch restriction.via {
            case .node(let node):
                guard let v = vertexIndex[node] else { fail("via node \(node) is on none of the ways"); continue }
                var problem: String?
                /// The one edge of each way at the via node (into it for from ways, out of it for to ways).
                func members(_ ways: [Int64], role: String, arriving: Bool) -> [Int] {
                    var edges: [Int] = []
                    for way in ways {
                        let found = ends(way, at: v, arriving: arriving)
                        if found.count != 1 {
                            problem = found.isEmpty ? "\(role) way \(way) does not reach via node \(node)"
                                : "\(role) way \(way) is not split at via node \(node) (it runs on through it)"
                        }
                        edges += found
                    }
                    return edges
                }
                let froms = members(restriction.fromWayIDs, role: "from", arriving: true)
                let tos = members(restriction.toWayIDs, role: "to", arriving: false)
                if let problem { fail(problem); continue }
                var list = tables.byVertex[v] ?? []
                for from in froms { for to in tos { emit(from: from, to: to, into: &list) } }
                tables.byVertex[v] = list
                tables.resolved += 1

            case .ways(let vias):
                let viaEdges = vias.flatMap { edgesOfWay[wayIndexByOSMID[$0]!] ?? [] }
                guard viaEdges.count <= 32 else { fail("\(viaEdges.count) via edges: too long a chain"); continue }
                var chains: [[Int]] = []
                var ambiguous = false
                for fromWay in restriction.fromWayIDs {
                    for toWay in restriction.toWayIDs {
                        let found = viaChains(from: edgesOfWay[wayIndexByOSMID[fromWay]!] ?? [], via: viaEdges,
                                              to: Set(edgesOfWay[wayIndexByOSMID[toWay]!] ?? []), edgeSource: edgeSource, edgeTarget: edgeTarget)
                        if found.count != 1 { ambiguous = true } else { chains.append(found[0]) }
                    }
                }
                guard !ambiguous else {
                    fail("its from, via and to ways do not form one path (disconnected, or more than one way through)")
                    continue
                }
                for chain in chains {
                    // The from edge (a real state), then copies of the via edges.
                    var state = chain[0]
                    for d in chain[1..<(chain.count - 1)] {
                        let key = Int64(state) << 32 | Int64(d)
                        let k: Int32
                        if let existing = tables.shadowChildren[key] {
                            k = existing
                        } else {
                            k = Int32(tables.shadowBase.count)
                            tables.shadowBase.append(Int32(d))
                            tables.shadowChildren[key] = k
                        }
                        state = stateOffset + Int(k)
                    }
                    let k = Int32(state - stateOffset)
                    var rules = tables.shadowRules[k] ?? []
                    emit(from: chain[chain.count - 2], to: chain[chain.count - 1], into: &rules)
                    tables.shadowRules[k] = rules
                }
                tables.resolved += 1
            }
        }
        return tables
    }

    /// Every path [from directed edge, via directed edges…, to directed edge] that enters the via edges
    /// from an edge in `from`, travels each via edge once (all of them), and leaves on an edge in `to`
    /// (GraphHopper's search for a via-way restriction's edge chain).
    static func viaChains(from: [Int], via: [Int], to: Set<Int>, edgeSource: [Int32], edgeTarget: [Int32]) -> [[Int]] {
        var solutions: [[Int]] = []
        var used = [Bool](repeating: false, count: via.count)
        var path: [Int] = []
        func explore(at node: Int32, count: Int) {
            guard solutions.count <= 1 else { return }
            if count == via.count {
                for e in to where !via.contains(e) {
                    if edgeSource[e] == node { solutions.append(path + [2 * e]) }
                    if edgeTarget[e] == node { solutions.append(path + [2 * e + 1]) }
                }
                return
            }
            for (i, e) in via.enumerated() where !used[i] {
                for (directed, next) in [(2 * e, edgeTarget[e]), (2 * e + 1, edgeSource[e])] where
                    (directed & 1 == 0 ? edgeSource[e] : edgeTarget[e]) == node {
                    used[i] = true
                    path.append(directed)
                    explore(at: next, count: count + 1)
                    path.removeLast()
                    used[i] = false
                }
            }
        }
        for e in from where !via.contains(e) {
            for (directed, end) in [(2 * e, edgeTarget[e]), (2 * e + 1, edgeSource[e])] {
                path = [directed]
                explore(at: end, count: 0)
            }
        }
        return solutions
    }

    /// The state the search reaches by turning from `state` (whose directed edge is `base`, arriving at
    /// vertex `v`) onto directed edge `next`, or -1 when a restriction forbids the turn for the mode bit.
    /// Called only where ``RestrictionTables`` apply: a restricted vertex, an extra state, or a from edge of
    /// a via-way chain.
    func step(from state: Int, base: Int, to next: Int, at v: Int, modeBit: UInt8) -> Int {
        @inline(__always) func allowed(_ list: [Restriction], from: Int) -> Bool {
            var mandatory = false, matched = false
            for r in list where r.modes & modeBit != 0 && Int(r.fromDirected) == from {
                if r.mandatory {
                    mandatory = true
                    if Int(r.toDirected) == next { matched = true }
                } else if Int(r.toDirected) == next {
                    return false
                }
            }
            return !mandatory || matched
        }
        if restrictedVertex[v], let list = restrictions[Int32(v)], !allowed(list, from: base) { return -1 }
        let offset = 2 * edgeSource.count + 1
        if state >= offset, let rules = shadowRules[Int32(state - offset)] {
            // The rules of a chain's end: `fromDirected` is the chain's last via edge, which `base` is.
            if !allowed(rules, from: base) { return -1 }
        }
        if let k = shadowChildren[Int64(state) << 32 | Int64(next)] { return offset + Int(k) }
        return next
    }
}
