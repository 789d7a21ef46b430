import Geodesy
import LookAround
import Testing

/// Routes from a graph read back from a catalog against the graph built from the extract.
enum StoredGraphRoutes {
    /// The same routes (lengths, times, lines, instructions, or the same error) for `count` seeded
    /// random pairs of street vertices in every mode, with one alternative.
    static func expectSameRoutes(_ built: RoutingGraph, _ stored: RoutingGraph, count: Int = 25,
                                 sourceLocation: SourceLocation = #_sourceLocation) throws {
        var state: UInt64 = 36
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        #expect(built.vertexCount == stored.vertexCount && built.edgeCount == stored.edgeCount, sourceLocation: sourceLocation)
        var compared = 0
        for mode in TransportType.allCases {
            let vertices = built.vertexCoordinates(openTo: mode)
            for _ in 0..<count {
                let p = vertices[next() % vertices.count], q = vertices[next() % vertices.count]
                let a = Result { () throws(RoutingError) in try built.routes(from: p, to: q, mode: mode, alternatives: 1) }
                let b = Result { () throws(RoutingError) in try stored.routes(from: p, to: q, mode: mode, alternatives: 1) }
                switch (a, b) {
                case (.success(let x), .success(let y)):
                    #expect(x.map(\.distanceMeters) == y.map(\.distanceMeters), sourceLocation: sourceLocation)
                    #expect(x.map(\.durationSeconds) == y.map(\.durationSeconds), sourceLocation: sourceLocation)
                    #expect(x.map(\.coordinates) == y.map(\.coordinates), sourceLocation: sourceLocation)
                    #expect(x.map { $0.maneuvers(graph: built).map(\.instruction) } == y.map { $0.maneuvers(graph: stored).map(\.instruction) },
                            sourceLocation: sourceLocation)
                    compared += 1
                case (.failure(let x), .failure(let y)):
                    #expect(x == y, sourceLocation: sourceLocation)
                default:
                    Issue.record("\(mode) \(p) → \(q): \(a) from the extract, \(b) from the catalog", sourceLocation: sourceLocation)
                }
            }
        }
        #expect(compared >= count, "routes found: \(compared)", sourceLocation: sourceLocation)
    }
}
