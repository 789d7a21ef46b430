import Foundation
import Geodesy
import MapData
import Testing
import TestSupport
@testable import Routing

/// The fast A* against the plain reference search, and a graph read back from its bytes against the
/// one built from the extract: the same routes, piece for piece.
@Suite struct RoutingGraphStorageTests {
    /// Random vertex-to-vertex and between-vertex pairs on both extracts, all three modes, with and without a penalty.
    @Test func fastSearchFindsTheReferenceSearchesRoutes() throws {
        for graph in try RoutingGraphTests.graphs.get() {
            for mode in TransportType.allCases {
                var compared = 0
                for (a, b) in RoutingGraphTests.pairs(graph, mode: mode, count: 80, seed: 7) {
                    let p = try RoutingGraphTests.coordinate(graph, vertex: a), q = try RoutingGraphTests.coordinate(graph, vertex: b)
                    guard let start = graph.snap(p, mode: mode), let end = graph.snap(q, mode: mode) else { continue }
                    var penalty = [Double](repeating: 1, count: graph.edgeCount)
                    for e in stride(from: 0, to: graph.edgeCount, by: 3) { penalty[e] = 1.4 }
                    for weights in [nil, penalty] {
                        let fast = graph.search(from: start, to: end, mode: mode, penalty: weights)
                        let reference = graph.referenceSearch(from: start, to: end, mode: mode, penalty: weights)
                        #expect(fast.map { $0.map { [Double($0.directed), $0.start, $0.end] } }
                                == reference.map { $0.map { [Double($0.directed), $0.start, $0.end] } })
                        compared += 1
                    }
                }
                #expect(compared >= 100)
            }
        }
    }

    /// Serialised and read back: the same counts and the same routes (lengths, times, lines, steps).
    @Test func storedGraphAnswersTheSameRoutes() throws {
        for graph in try RoutingGraphTests.graphs.get() {
            let bytes = graph.serialized()
            let stored = try RoutingGraph(serialized: bytes, sourceDescription: "the catalog")
            #expect(stored.sourceDescription == "the catalog")
            #expect(try RoutingGraph(serialized: bytes).serialized() == bytes)
            #expect((stored.vertexCount, stored.edgeCount, stored.restrictionCount, stored.areaCrossingCount)
                    == (graph.vertexCount, graph.edgeCount, graph.restrictionCount, graph.areaCrossingCount))
            try Self.expectSameRoutes(graph, stored)
        }
    }

    /// Another format version, a truncated blob and foreign bytes are refused with the reason.
    @Test func damagedBytesAreATypedError() throws {
        let graph = try RoutingGraphTests.graphs.get()[0]
        var bytes = graph.serialized()
        bytes[4] = 99
        #expect(throws: RoutingError.corruptGraph(detail: "format version 99; this lookaround reads version \(RoutingGraph.serializationFormatVersion)")) {
            try RoutingGraph(serialized: bytes)
        }
        let cut = Array(graph.serialized().prefix(1_000))
        #expect(throws: RoutingError.self) { try RoutingGraph(serialized: cut) }
        #expect(throws: RoutingError.corruptGraph(detail: "not a lookaround routing graph (no LKRG header)")) {
            try RoutingGraph(serialized: Array("SQLite format 3".utf8))
        }
    }

    /// The same routes from both graphs for random pairs in every mode, with alternatives.
    static func expectSameRoutes(_ graph: RoutingGraph, _ other: RoutingGraph, count: Int = 30) throws {
        for mode in TransportType.allCases {
            for (a, b) in RoutingGraphTests.pairs(graph, mode: mode, count: count, seed: 11) {
                let p = try RoutingGraphTests.coordinate(graph, vertex: a), q = try RoutingGraphTests.coordinate(graph, vertex: b)
                let built = Result { () throws(RoutingError) in try graph.routes(from: p, to: q, mode: mode, alternatives: 1) }
                let read = Result { () throws(RoutingError) in try other.routes(from: p, to: q, mode: mode, alternatives: 1) }
                switch (built, read) {
                case (.success(let x), .success(let y)):
                    #expect(x.map(\.distanceMeters) == y.map(\.distanceMeters))
                    #expect(x.map(\.durationSeconds) == y.map(\.durationSeconds))
                    #expect(x.map(\.coordinates) == y.map(\.coordinates))
                    #expect(x.map { $0.maneuvers(graph: graph).map(\.instruction) } == y.map { $0.maneuvers(graph: other).map(\.instruction) })
                case (.failure(let x), .failure(let y)):
                    #expect(x == y)
                default:
                    Issue.record("\(mode) \(p) → \(q): \(built) from the extract, \(read) from the bytes")
                }
            }
        }
    }
}
