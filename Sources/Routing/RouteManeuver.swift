import Foundation
import Geodesy

/// One step of a route: what to do at a point and how far to go after it, in OSRM's vocabulary
/// (`type`, `modifier`, `bearing_before`, `bearing_after`) with an English instruction that names the
/// street in the label language.
public struct RouteManeuver: Sendable, Hashable, Codable {
    /// OSRM's maneuver types (the ones this router makes).
    public enum Kind: String, Sendable, Hashable, Codable {
        case depart
        case turn
        case newName = "new name"
        case `continue`
        case roundabout
        case exitRoundabout = "exit roundabout"
        case arrive
    }

    /// OSRM's turn modifiers: the change of direction at the maneuver.
    public enum Modifier: String, Sendable, Hashable, Codable {
        /// Not straight on nor slight: a turn worth a step on the same street.
        var isClearTurn: Bool { self != .straight && self != .slightLeft && self != .slightRight }

        case uturn
        case sharpRight = "sharp right"
        case right
        case slightRight = "slight right"
        case straight
        case slightLeft = "slight left"
        case left
        case sharpLeft = "sharp left"

        /// The modifier of a change of heading, degrees (positive: to the right): under 20° straight,
        /// 20–45° slight, 45–135° a turn, 135–170° sharp, beyond a U-turn.
        public init(turnDegrees: Double) {
            let size = abs(turnDegrees), right = turnDegrees > 0
            switch size {
            case ..<20: self = .straight
            case ..<45: self = right ? .slightRight : .slightLeft
            case ..<135: self = right ? .right : .left
            case ..<170: self = right ? .sharpRight : .sharpLeft
            default: self = .uturn
            }
        }

        /// "left", "slightly right", "sharply left", "straight on", "around" (for instructions).
        var phrase: String {
            switch self {
            case .uturn: "around"
            case .sharpRight: "sharply right"
            case .right: "right"
            case .slightRight: "slightly right"
            case .straight: "straight on"
            case .slightLeft: "slightly left"
            case .left: "left"
            case .sharpLeft: "sharply left"
            }
        }
    }

    /// What to do.
    public var kind: Kind
    /// Which way (nil for depart and arrive).
    public var modifier: Modifier?
    /// Where: the junction (the start for depart, the destination for arrive).
    public var coordinate: GeoCoordinate
    /// Heading before and after the maneuver, degrees clockwise from north, [0, 360) (0 before depart
    /// and after arrive, as OSRM writes them).
    public var bearingBeforeDegrees: Double
    public var bearingAfterDegrees: Double
    /// The street followed after the maneuver, in the label language (nil when unnamed).
    public var streetName: String?
    /// Its `highway` class ("residential", "footway"…).
    public var highway: String
    /// The instruction, e.g. "Turn left onto Aleksanterinkatu".
    public var instruction: String
    /// Metres and seconds from this maneuver to the next.
    public var distanceMeters: Double
    public var durationSeconds: Double
    /// The stretch of the route's coordinates this step covers (both ends included).
    public var coordinateRange: ClosedRange<Int>
}

extension RoutePath {
    /// The route's steps: depart, a maneuver wherever the street's name changes or the way turns at a
    /// junction that offers a choice, and arrive. Street names are taken in `language` (`name:xx`)
    /// where tagged; `destinationName` names the arrival ("Arrive at Stockmann").
    public func maneuvers(graph: RoutingGraph, language: String? = nil, destinationName: String? = nil) -> [RouteManeuver] {
        guard let firstPiece = pieces.first, let lastPiece = pieces.last else { return [] }
        func way(_ piece: Piece) -> RoutingGraph.WayInfo { graph.ways[Int(graph.edgeWay[piece.edge])] }
        func name(_ piece: Piece) -> String? { way(piece).name(in: language) ?? way(piece).ref }
        func bearing(from i: Int, to j: Int) -> Double {
            guard coordinates.indices.contains(i), coordinates.indices.contains(j), i != j else { return 0 }
            let degrees = coordinates[i].initialAzimuth(to: coordinates[j]).degrees
            return (degrees.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
        }
        /// Metres between two coordinates of the line, in a local equirectangular frame (enough to find a point 8 m away).
        let metersPerDegreeLongitude = 111_320 * cos(coordinates[0].latitude * .pi / 180)
        func near(_ a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
            let dx = (a.longitude - b.longitude) * metersPerDegreeLongitude, dy = (a.latitude - b.latitude) * 110_574
            return (dx * dx + dy * dy).squareRoot()
        }
        /// The bearing arriving at coordinate `j`: from a point at least 8 m back (or the line's start).
        func bearingInto(_ j: Int, notBefore lower: Int) -> Double {
            var i = j - 1
            while i > lower, near(coordinates[i], coordinates[j]) < 8 { i -= 1 }
            return bearing(from: max(i, 0), to: j)
        }
        /// The bearing leaving coordinate `j`: towards a point at least 8 m on (or the line's end).
        func bearingOut(_ j: Int, notAfter upper: Int) -> Double {
            var k = j + 1
            while k < upper, near(coordinates[k], coordinates[j]) < 8 { k += 1 }
            return bearing(from: j, to: min(k, coordinates.count - 1))
        }
        func label(_ piece: Piece) -> String {
            if let name = name(piece) { return name }
            let info = way(piece)
            if info.isArea { return "the square" }
            switch RoutingProfile.mainClass(info.highway) {
            case "footway", "crossing": return "the footway"
            case "path", "trail", "track", "bridleway": return "the path"
            case "steps": return "the steps"
            case "cycleway": return "the cycleway"
            case "pedestrian": return "the pedestrian street"
            case "service": return "the service road"
            case "corridor": return "the passage"
            case "platform": return "the platform"
            case "elevator": return "the lift"
            default: return "the road"
            }
        }
        func choices(at vertexCoordinateIndex: Int, piece: Piece) -> Int {
            // Ways open to the mode at the junction where `piece` starts.
            let v = graph.tail(piece.directedEdge)
            var count = 0
            for i in Int(graph.adjacencyStart[v])..<Int(graph.adjacencyStart[v + 1]) where graph.allows(edge: Int(graph.adjacency[i]) >> 1, mode: mode) {
                count += 1
            }
            return count
        }

        var steps: [RouteManeuver] = []
        let departBearing = bearingOut(0, notAfter: firstPiece.coordinateRange.upperBound)
        steps.append(RouteManeuver(kind: .depart, modifier: nil, coordinate: coordinates[0], bearingBeforeDegrees: 0,
                                   bearingAfterDegrees: departBearing, streetName: name(firstPiece), highway: way(firstPiece).highway,
                                   instruction: "Head \(Self.cardinal(departBearing)) on \(label(firstPiece))",
                                   distanceMeters: 0, durationSeconds: 0, coordinateRange: 0...0))
        var stepStart = 0
        var current = firstPiece
        var stepName = name(firstPiece)
        // Metres from each stretch on while the name stays the same: a short unnamed run (a crossing,
        // a bit of sidewalk between two streets) is no step of its own.
        var runMeters = [Double](repeating: 0, count: pieces.count)
        for k in pieces.indices.reversed() {
            runMeters[k] = pieces[k].distanceMeters
                + (k + 1 < pieces.count && name(pieces[k + 1]) == name(pieces[k]) ? runMeters[k + 1] : 0)
        }
        func close(at end: Int) {
            steps[steps.count - 1].coordinateRange = stepStart...end
        }
        for (k, piece) in pieces.enumerated() {
            let shortUnnamed = name(piece) == nil && runMeters[k] < 25 && k + 1 < pieces.count
            if k > 0, !shortUnnamed {
                let j = piece.coordinateRange.lowerBound
                // The bearings (two geodesic problems) only where the outcome depends on them: most
                // junctions of a route go on along the same street past fewer than three ways.
                var measured: (before: Double, after: Double, modifier: RouteManeuver.Modifier)?
                func turnHere() -> (before: Double, after: Double, modifier: RouteManeuver.Modifier) {
                    if let measured { return measured }
                    let before = bearingInto(j, notBefore: stepStart)
                    let after = bearingOut(j, notAfter: piece.coordinateRange.upperBound)
                    var turn = after - before
                    if turn > 180 { turn -= 360 }
                    if turn <= -180 { turn += 360 }
                    let found = (before, after, RouteManeuver.Modifier(turnDegrees: turn))
                    measured = found
                    return found
                }
                let previousWay = way(current), nextWay = way(piece)
                let renamed = name(piece) != stepName
                let kind: RouteManeuver.Kind?
                let instruction: String
                if nextWay.isRoundabout && !previousWay.isRoundabout {
                    kind = .roundabout
                    instruction = "Enter the roundabout"
                } else if previousWay.isRoundabout && !nextWay.isRoundabout {
                    kind = .exitRoundabout
                    instruction = "Exit the roundabout onto \(label(piece))"
                } else if nextWay.isRoundabout {
                    kind = nil
                    instruction = ""
                } else if renamed || (name(piece) == nil && previousWay.highway != nextWay.highway && turnHere().modifier != .straight) {
                    let modifier = turnHere().modifier
                    kind = modifier == .straight ? .newName : .turn
                    instruction = Self.instruction(modifier: modifier, onto: label(piece), across: nextWay.isArea && name(piece) != nil)
                } else if name(piece) != nil, choices(at: j, piece: piece) >= 3, turnHere().modifier.isClearTurn {
                    kind = .continue
                    instruction = turnHere().modifier == .uturn ? "Make a U-turn to stay on \(label(piece))"
                        : "Turn \(turnHere().modifier.phrase) to stay on \(label(piece))"
                } else {
                    kind = nil
                    instruction = ""
                }
                if let kind {
                    let (before, after, modifier) = turnHere()  // before the step starts here: bearingInto looks back to its start
                    close(at: j)
                    stepStart = j
                    stepName = name(piece)
                    steps.append(RouteManeuver(kind: kind, modifier: modifier, coordinate: coordinates[j], bearingBeforeDegrees: before,
                                               bearingAfterDegrees: after, streetName: name(piece), highway: nextWay.highway,
                                               instruction: instruction, distanceMeters: 0, durationSeconds: 0, coordinateRange: j...j))
                }
            }
            steps[steps.count - 1].distanceMeters += piece.distanceMeters
            steps[steps.count - 1].durationSeconds += piece.durationSeconds
            current = piece
        }
        let end = coordinates.count - 1
        close(at: end)
        let arriveBearing = bearingInto(end, notBefore: stepStart)
        steps.append(RouteManeuver(kind: .arrive, modifier: nil, coordinate: coordinates[end], bearingBeforeDegrees: arriveBearing,
                                   bearingAfterDegrees: 0, streetName: name(lastPiece), highway: way(lastPiece).highway,
                                   instruction: destinationName.map { "Arrive at \($0)" } ?? "Arrive at the destination",
                                   distanceMeters: 0, durationSeconds: 0, coordinateRange: end...end))
        return steps
    }

    /// The names of the two streets the route follows longest, in route order ("Aleksanterinkatu and
    /// Mikonkatu"), like `MKRoute.name`; empty when every way is unnamed.
    public func summary(graph: RoutingGraph, language: String? = nil) -> [String] {
        var meters: [String: Double] = [:], order: [String] = []
        for piece in pieces {
            let info = graph.ways[Int(graph.edgeWay[piece.edge])]
            guard let name = info.name(in: language) ?? info.ref else { continue }
            if meters[name] == nil { order.append(name) }
            meters[name, default: 0] += piece.distanceMeters
        }
        let top = Set(order.sorted { meters[$0]! > meters[$1]! }.prefix(2))
        return order.filter { top.contains($0) }
    }

    /// The OSM way ids travelled, in order, one per stretch.
    public func wayIDs(graph: RoutingGraph) -> [Int64] { pieces.map { graph.wayOSMID(edge: $0.edge) } }

    static func instruction(modifier: RouteManeuver.Modifier, onto label: String, across: Bool) -> String {
        let preposition = across ? "across" : "onto"
        switch modifier {
        case .straight: return across ? "Continue across \(label)" : "Continue onto \(label)"
        case .uturn: return "Make a U-turn \(preposition) \(label)"
        default: return "Turn \(modifier.phrase) \(preposition) \(label)"
        }
    }

    /// "north", "north-east", … for a bearing in degrees.
    static func cardinal(_ degrees: Double) -> String {
        let names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        return names[Int(((degrees + 22.5) / 45).rounded(.down)) % 8]
    }
}
