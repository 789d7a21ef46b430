import Foundation
import Geodesy
import MapData
import Testing
import TestSupport
@testable import Routing

/// Turn restrictions and one-way streets as OSRM and GraphHopper read them, one hand-written junction per
/// case (`Tests/Fixtures/osm/restrictions`, each file's comment says what it tests), with the route it
/// must give, written as the ways travelled: `"3>"` along way 3's node order, `"2<"` against it.
@Suite struct RestrictionCorpusTests {
    static let corpus = Lookaround.repository.appendingPathComponent("Tests/Fixtures/osm/restrictions")
    static let frame = Result { try LocalTangentFrame(origin: GeoCoordinate(latitude: 48, longitude: 11)) }

    static func graph(_ name: String) throws -> RoutingGraph {
        try RoutingGraph(contentsOfFile: corpus.appendingPathComponent("\(name).osm").path)
    }

    static func point(_ east: Double, _ north: Double) throws -> GeoCoordinate {
        try frame.get().geodetic(from: EastNorthUp(east: east, north: north, up: 0)).coordinate
    }

    /// The route from (east, north) to (east, north), metres of the fixtures' frame, as ways travelled
    /// ("3>", "2<"; a stretch of one way in one direction once); nil when there is none.
    static func route(_ graph: RoutingGraph, _ from: (Double, Double), _ to: (Double, Double), _ mode: TransportType) throws -> [String]? {
        guard let path = try? graph.route(from: try point(from.0, from.1), to: try point(to.0, to.1), mode: mode, snapRadiusMeters: 5) else {
            return nil
        }
        var steps: [String] = []
        for piece in path.pieces {
            let step = "\(graph.wayOSMID(edge: piece.edge))\(piece.isForward ? ">" : "<")"
            if steps.last != step { steps.append(step) }
        }
        return steps
    }

    /// West arm (-50, 0), north (0, 50), east (50, 0), south (0, -50) of the cross-shaped junction.
    static let west = (-50.0, 0.0), north = (0.0, 50.0), east = (50.0, 0.0), south = (0.0, -50.0)
    static let roundTheBlockToNorth = ["1>", "3>", "5>", "6>", "2<"]
    static let backRoundTheBlockToSouth = ["1<", "8<", "7<", "4<"]

    /// (file, from, to, mode, expected ways; nil: no route).
    static let table: [(file: String, from: (Double, Double), to: (Double, Double), mode: TransportType, route: [String]?)] = [
        ("no-left-turn", west, north, .driving, roundTheBlockToNorth),
        ("no-left-turn", west, north, .cycling, roundTheBlockToNorth),
        ("no-left-turn", west, north, .walking, ["1>", "2>"]),
        ("no-left-turn", west, south, .driving, ["1>", "4>"]),
        ("only-straight-on", west, south, .driving, backRoundTheBlockToSouth),
        ("only-straight-on", west, south, .walking, ["1>", "4>"]),
        ("from-way-not-split", east, west, .driving, ["1<"]),
        ("to-way-not-split", north, west, .driving, ["2<", "1<"]),
        ("no-entry-several-from", west, north, .driving, roundTheBlockToNorth),
        ("no-entry-several-from", south, north, .driving, ["4<", "3>", "5>", "6>", "2<"]),
        ("no-entry-several-from", east, north, .driving, ["3<", "2>"]),
        ("no-exit-several-to", west, north, .driving, roundTheBlockToNorth),
        ("no-exit-several-to", west, south, .driving, backRoundTheBlockToSouth),
        ("no-exit-several-to", west, east, .driving, ["1>", "3>"]),
        ("several-from-not-no-entry", west, north, .driving, ["1>", "2>"]),
        ("mode-precedence", west, north, .driving, roundTheBlockToNorth),
        ("mode-precedence", west, south, .driving, ["1>", "4>"]),
        ("mode-precedence", west, south, .cycling, backRoundTheBlockToSouth),
        ("mode-precedence", west, north, .walking, ["1>", "2>"]),
        ("except-bicycle", west, north, .driving, roundTheBlockToNorth),
        ("except-bicycle", west, north, .cycling, ["1>", "2>"]),
        ("via-way-no-u-turn", (-200, -5), (-200, 5), .driving, ["10>", "14>", "13>", "11>", "15>"]),
        ("via-way-no-u-turn", (-200, -5), (250, 5), .driving, ["10>", "14>", "21>", "11>"]),
        ("via-way-only", (-300, 0), (-200, 5), .driving, ["20>", "10>", "14>", "13>", "11>", "15>"]),
        ("via-way-only", (-300, 0), (-200, 5), .walking, ["20<", "15<"]),
        ("u-turn-at-dead-end", (0, 50), (-100, 0), .driving, ["31<", "32>", "32<", "30<"]),
        ("u-turn-where-every-turn-is-forbidden", (-125, -40), (-200, 0), .driving, ["40>", "41>", "41<", "45<"]),
    ]

    @Test(arguments: table.indices)
    func theRouteIsTheOneTheRestrictionAllows(_ k: Int) throws {
        let row = Self.table[k]
        let graph = try Self.graph(row.file)
        let got = try Self.route(graph, row.from, row.to, row.mode)
        let gotText = got.map { $0.joined(separator: " ") } ?? "no route", wantText = row.route.map { $0.joined(separator: " ") } ?? "no route"
        #expect(got == row.route, "\(row.file) \(row.mode) \(row.from) → \(row.to): \(gotText), want \(wantText)")
        // The plain search over the arrays agrees with the fast one.
        let from = try Self.point(row.from.0, row.from.1), to = try Self.point(row.to.0, row.to.1)
        if let start = graph.snap(from, mode: row.mode, radiusMeters: 5), let end = graph.snap(to, mode: row.mode, radiusMeters: 5) {
            let fast = graph.search(from: start, to: end, mode: row.mode, penalty: nil)
            let reference = graph.referenceSearch(from: start, to: end, mode: row.mode, penalty: nil)
            #expect(fast?.map(\.directed) == reference?.map(\.directed), "\(row.file): fast and reference searches differ")
        }
    }

    /// The same junction without the restriction takes the forbidden turn: each case tests the restriction.
    @Test func withoutTheRestrictionsTheForbiddenTurnIsTaken() throws {
        for file in ["no-left-turn", "only-straight-on", "via-way-no-u-turn", "via-way-only"] {
            let network = try StreetNetwork(contentsOfFile: Self.corpus.appendingPathComponent("\(file).osm").path)
            let free = RoutingGraph(network: network, honoursRestrictions: false)
            let row = try #require(Self.table.first { $0.file == file && $0.mode == .driving })
            let got = try Self.route(free, row.from, row.to, .driving)
            #expect(got != nil && got != row.route, "\(file): without restrictions \(got ?? [])")
        }
    }

    @Test func waysNotSplitAtTheViaNodeAreLeftOutAndSaidWhy() throws {
        for (file, phrase) in [("from-way-not-split", "from way 1 is not split at via node"), ("to-way-not-split", "to way 1 is not split at via node")] {
            let graph = try Self.graph(file)
            #expect(graph.restrictionCount == 0)
            let skipped = try #require(graph.unresolvedRestrictions.first)
            #expect(skipped.id == 900 && skipped.reason.contains(phrase), "\(file): \(skipped)")
        }
        let malformed = try Self.graph("several-from-not-no-entry")
        #expect(malformed.unresolvedRestrictions.map(\.reason) == ["2 from members on a restriction that is not no_entry"])
        // Both several-member kinds are kept when they are no_entry / no_exit.
        #expect(try Self.graph("no-entry-several-from").restrictionCount == 1)
        #expect(try Self.graph("no-exit-several-to").restrictionCount == 1)
        #expect(try Self.graph("via-way-no-u-turn").restrictionCount == 1 && (try Self.graph("via-way-no-u-turn")).shadowBase.count == 1)
    }

    /// Before U-turns were allowed where every onward turn is forbidden, this junction had no route.
    @Test func aUTurnIsAllowedWhereEveryOnwardTurnIsForbidden() throws {
        let graph = try Self.graph("u-turn-where-every-turn-is-forbidden")
        let path = try graph.route(from: try Self.point(-125, -40), to: try Self.point(-200, 0), mode: .driving)
        #expect(path.maneuvers(graph: graph).contains { $0.modifier == .uturn }, "\(path.maneuvers(graph: graph).map(\.instruction))")
    }

    @Test func eachModeReadsItsMostSpecificKey() {
        let restriction = StreetNetwork.TurnRestriction(
            id: 1, values: ["restriction": "no_left_turn", "restriction:motorcar": "only_straight_on", "restriction:vehicle": "no_right_turn"],
            fromWayIDs: [1], via: .node(2), toWayIDs: [3])
        #expect(RoutingProfile.restrictionValue(restriction, for: .driving) == "only_straight_on")
        #expect(RoutingProfile.restrictionValue(restriction, for: .cycling) == "no_right_turn")
        #expect(RoutingProfile.restrictionValue(restriction, for: .walking) == nil)
        var motorVehicle = restriction
        motorVehicle.values = ["restriction:vehicle": "no_u_turn", "restriction:motor_vehicle": "no_left_turn"]
        #expect(RoutingProfile.restrictionValue(motorVehicle, for: .driving) == "no_left_turn")
        var excepted = restriction
        excepted.exceptions = ["bicycle", "psv"]
        #expect(RoutingProfile.restrictionValue(excepted, for: .cycling) == nil)
        #expect(RoutingProfile.restrictionValue(excepted, for: .driving) == "only_straight_on")
        excepted.exceptions = ["motor_vehicle"]
        #expect(RoutingProfile.restrictionValue(excepted, for: .driving) == nil)
    }

    /// One-way variants: (file, mode, westward route direct?, eastward route direct?).
    static let oneways: [(file: String, mode: TransportType, westDirect: Bool?, eastDirect: Bool?)] = [
        ("oneway-yes", .driving, false, true), ("oneway-yes", .cycling, false, true), ("oneway-yes", .walking, true, true),
        ("oneway-minus-one", .driving, true, false), ("oneway-minus-one", .cycling, true, false),
        ("oneway-reversible", .driving, false, false), ("oneway-reversible", .walking, true, true),
        ("oneway-roundabout-implied", .driving, false, true), ("oneway-roundabout-implied", .cycling, false, true),
        ("oneway-bicycle-no", .driving, false, true), ("oneway-bicycle-no", .cycling, true, true),
        ("cycleway-opposite", .driving, false, true), ("cycleway-opposite", .cycling, true, true),
        ("cycleway-both-opposite-lane", .cycling, true, true), ("cycleway-both-opposite-lane", .driving, false, true),
        ("cycleway-left-opposite-lane", .cycling, true, true), ("cycleway-left-oneway-minus-one", .cycling, true, true),
        ("cycleway-both-oneway-no", .cycling, true, true), ("cycleway-both-lane-only", .cycling, false, true),
    ]

    @Test(arguments: oneways.indices)
    func oneWayVariants(_ k: Int) throws {
        let row = Self.oneways[k]
        let graph = try Self.graph(row.file)
        let directWest = ["55<", "50<", "54<"], detourWest = ["55<", "53<", "52<", "51<", "54<"]
        let directEast = ["54>", "50>", "55>"], detourEast = ["54>", "51>", "52>", "53>", "55>"]
        if let westDirect = row.westDirect {
            let got = try Self.route(graph, (150, 0), (-150, 0), row.mode)
            #expect(got == (westDirect ? directWest : detourWest), "\(row.file) \(row.mode) westward: \(got ?? [])")
        }
        if let eastDirect = row.eastDirect {
            let got = try Self.route(graph, (-150, 0), (150, 0), row.mode)
            #expect(got == (eastDirect ? directEast : detourEast), "\(row.file) \(row.mode) eastward: \(got ?? [])")
        }
    }

    /// A graph with via-way restrictions survives the catalog's byte form.
    @Test func restrictionsRoundTripThroughTheStoredGraph() throws {
        for file in ["via-way-only", "no-exit-several-to", "from-way-not-split"] {
            let graph = try Self.graph(file)
            let stored = try RoutingGraph(serialized: graph.serialized())
            #expect(stored.restrictions == graph.restrictions && stored.shadowBase == graph.shadowBase
                    && stored.shadowChildren == graph.shadowChildren && stored.shadowRules == graph.shadowRules)
            #expect(stored.unresolvedRestrictions == graph.unresolvedRestrictions)
            let row = try #require(Self.table.first { $0.file == file })
            #expect(try Self.route(stored, row.from, row.to, row.mode) == row.route)
        }
    }
}
