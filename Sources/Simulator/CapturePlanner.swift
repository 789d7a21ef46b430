import Foundation
import Geodesy
import MapData

/// Plans captures along named streets: one sequence per street, a capture every `spacingMeters`
/// along its ways (dual carriageways and split ways merged), ordered along the street's main axis,
/// heading along the direction of travel, times increasing along each sequence, never inside or
/// within 2 m of a building. On roads the camera keeps to the right-hand lane (a quarter of the road
/// width right of the way's centre line, at most 3 m), off the lane markings. Named squares are crossed along their longest axis.
///
/// Captures stay where the data is: inside ``dataBounds`` (the extract's declared bounds) by
/// ``edgeMarginMeters``, so that what a camera sees around it is mapped, not the empty land past the
/// edge of an extract whose long streets were kept whole. ``planWithReport(model:streetNames:)`` says
/// which streets lost every position, and why.
public struct CapturePlanner: Sendable {
    /// Distance between captures, metres (1…1,000).
    public var spacingMeters: Double
    /// Camera height above the ground, metres (0.1…100).
    public var cameraHeightMeters: Double
    /// Time of the first capture of the first sequence.
    public var startTime: Date
    /// Seconds between consecutive captures of a sequence.
    public var secondsBetweenCaptures: Double = 3
    /// Seconds between the starts of consecutive sequences.
    public var secondsBetweenSequences: Double = 900
    /// Height of the (flat) ground above the ellipsoid, metres.
    public var groundElevationMeters: Double = 0
    /// Panorama width (height = width / 2) and depth/label map width recorded in the metadata.
    public var imageWidth: Int, depthWidth: Int
    /// Only positions inside this scene rectangle are used; nil = all.
    public var region: SceneRect?
    /// Where the data is complete (the extract's declared bounds, else the box round its nodes), scene
    /// metres; nil: no limit.
    public var dataBounds: SceneRect?
    /// How far inside ``dataBounds`` captures keep, metres (see ``edgeMarginMeters(horizonMeters:dataBounds:)``).
    public var edgeMarginMeters: Double = 0

    /// The margin captures keep from the data's edge: a quarter of the horizon a capture's model is
    /// built with (150 m at the default 600 m), so the near half of what it sees is mapped; at most a
    /// quarter of the data's narrower side, so a small extract keeps its middle.
    public static func edgeMarginMeters(horizonMeters: Double, dataBounds: SceneRect) -> Double {
        let side = min(dataBounds.maxEast - dataBounds.minEast, dataBounds.maxNorth - dataBounds.minNorth)
        return max(0, min(horizonMeters / 4, side / 4))
    }

    /// Why a street got no capture, or a position was not used.
    public enum DropReason: String, Sendable, Hashable, Codable, CaseIterable {
        /// Outside the extract's bounds: the street runs through land the data does not show.
        case outsideData = "outside_data"
        /// Inside the bounds but within ``edgeMarginMeters`` of their edge.
        case nearDataEdge = "near_data_edge"
        /// Outside the region asked for (`--bbox`).
        case outsideRegion = "outside_region"
        /// Inside a building or within 2 m of its walls (a street through a passage, a mapping error).
        case insideBuildings = "inside_buildings"
    }

    /// A street the plan left out: every position along it was dropped, mostly for `reason`.
    public struct DroppedStreet: Sendable, Hashable {
        /// The street's (or square's) name.
        public var name: String
        /// Why most of its positions were dropped.
        public var reason: DropReason
        /// Positions along it dropped, by reason.
        public var positionsByReason: [DropReason: Int]
    }

    /// A plan: the captures, and what was left out.
    public struct Plan: Sendable {
        /// The captures, in plan order.
        public var captures: [CaptureMetadata]
        /// Streets asked for (or all) that got no capture.
        public var droppedStreets: [DroppedStreet]
        /// Positions dropped along the streets that kept some captures, by reason.
        public var droppedPositionsOfKeptStreets: [DropReason: Int]
        /// The streets planned (asked for, or every capturable one).
        public var streetCount: Int
    }

    /// A planner; parameters out of range throw `SimulatorError.invalidParameter`.
    public init(spacingMeters: Double = 10, cameraHeightMeters: Double = 2.5, startTime: Date, imageWidth: Int,
                depthWidth: Int) throws(SimulatorError) {
        try SimulatorError.check(spacingMeters, in: 1...1_000, name: "spacing", unit: "m")
        try SimulatorError.check(cameraHeightMeters, in: 0.1...100, name: "camera height", unit: "m")
        self.spacingMeters = spacingMeters
        self.cameraHeightMeters = cameraHeightMeters
        self.startTime = startTime
        self.imageWidth = imageWidth
        self.depthWidth = depthWidth
    }

    /// The streets and squares of `model` that captures can follow (named roads, pedestrian streets,
    /// squares), sorted.
    public static func streetNames(in model: CityModel) -> [String] {
        Set(model.streets.filter { isCapturable($0.highwayClass) }.map(\.name) + model.squares.map(\.name)).sorted()
    }

    static func isCapturable(_ c: HighwayClass) -> Bool { c.isRoad || c == .pedestrian }

    /// A lower-case ASCII id for a name ("Eteläesplanadi" → "etelaesplanadi").
    public static func slug(_ name: String) -> String {
        let folded = name.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        var out = ""
        for ch in folded.lowercased().unicodeScalars {
            if ("a"..."z").contains(ch) || ("0"..."9").contains(ch) { out.unicodeScalars.append(ch) }
            else if !out.hasSuffix("-") && !out.isEmpty { out.append("-") }
        }
        while out.hasSuffix("-") { out.removeLast() }
        return out.isEmpty ? "street" : out
    }

    /// Plans the captures for `streetNames` (matched case-insensitively; all capturable streets when empty).
    /// - Throws: `.unknownStreets` when a name matches nothing; `.noCaptures` when no position is usable.
    public func plan(model: CityModel, streetNames requested: [String]) throws(SimulatorError) -> [CaptureMetadata] {
        try planWithReport(model: model, streetNames: requested).captures
    }

    /// Plans the captures for `streetNames` as ``plan(model:streetNames:)`` does, and says which streets
    /// got none and why.
    /// - Throws: `.unknownStreets` when a name matches nothing; `.noCaptures` (naming the reasons) when
    ///   no position is usable.
    public func planWithReport(model: CityModel, streetNames requested: [String]) throws(SimulatorError) -> Plan {
        let available = Self.streetNames(in: model)
        let names: [String]
        if requested.isEmpty {
            names = available
        } else {
            var resolved: [String] = []
            var missing: [String] = []
            for name in requested {
                if let match = available.first(where: { $0.caseInsensitiveCompare(name) == .orderedSame }) { resolved.append(match) }
                else { missing.append(name) }
            }
            if !missing.isEmpty { throw .unknownStreets(requested: missing, available: available) }
            names = resolved
        }
        var captures: [CaptureMetadata] = []
        var dropped: [DroppedStreet] = [], droppedOfKept: [DropReason: Int] = [:]
        for (sequenceIndex, name) in names.enumerated() {
            let (points, rejected) = positionsWithRejections(for: name, model: model)
            if points.isEmpty {
                if let reason = DropReason.allCases.max(by: { (rejected[$0] ?? 0) < (rejected[$1] ?? 0) }), (rejected[reason] ?? 0) > 0 {
                    dropped.append(DroppedStreet(name: name, reason: reason, positionsByReason: rejected))
                }
                continue
            }
            for (reason, count) in rejected { droppedOfKept[reason, default: 0] += count }
            let sequenceID = Self.slug(name)
            for (order, p) in points.enumerated() {
                let coordinate = model.coordinate(of: EastNorthUp(east: p.x, north: p.y, up: 0))
                let time = startTime.addingTimeInterval(Double(sequenceIndex) * secondsBetweenSequences + Double(order) * secondsBetweenCaptures)
                captures.append(CaptureMetadata(
                    id: String(format: "%@-%03d", sequenceID, order), latitude: coordinate.latitude, longitude: coordinate.longitude,
                    groundElevationMeters: groundElevationMeters, cameraHeightMeters: cameraHeightMeters, captureTime: time,
                    headingDegrees: p.heading, pitchDegrees: 0, rollDegrees: 0, sequenceID: sequenceID, sequenceOrder: order,
                    streetName: name, scenePosition: EastNorthUp(east: p.x, north: p.y, up: cameraHeightMeters),
                    imageWidth: imageWidth, imageHeight: imageWidth / 2, depthWidth: depthWidth, depthHeight: depthWidth / 2,
                    source: "simulated"))
            }
        }
        if captures.isEmpty {
            var reasons: [DropReason: Int] = [:]
            for street in dropped { for (reason, count) in street.positionsByReason { reasons[reason, default: 0] += count } }
            let why = DropReason.allCases.filter { (reasons[$0] ?? 0) > 0 }
                .map { "\(reasons[$0]!) \(Self.describe($0, margin: edgeMarginMeters))" }.joined(separator: ", ")
            let edgeHint = (reasons[.nearDataEdge] ?? 0) > 0
                ? " (captures keep a quarter of --horizon-meters from the extract's edge; a smaller horizon, or a --bbox, lets them nearer)"
                : ""
            throw .noCaptures(detail: "\(names.joined(separator: ", ")) has no usable position"
                              + (why.isEmpty ? " outside buildings inside the region" : ": of the positions along it, \(why)") + edgeHint)
        }
        return Plan(captures: captures, droppedStreets: dropped, droppedPositionsOfKeptStreets: droppedOfKept, streetCount: names.count)
    }

    /// A reason in words, for counts of positions ("12 outside the extract's bounds").
    public static func describe(_ reason: DropReason, margin: Double) -> String {
        switch reason {
        case .outsideData: "outside the extract's bounds"
        case .nearDataEdge: "within \(Int(margin.rounded())) m of the extract's edge"
        case .outsideRegion: "outside --bbox"
        case .insideBuildings: "inside or against buildings"
        }
    }

    /// Why a position cannot be used, or nil when it can.
    func rejection(_ p: (x: Double, y: Double), model: CityModel) -> DropReason? {
        if let d = dataBounds {
            if p.x < d.minEast || p.x > d.maxEast || p.y < d.minNorth || p.y > d.maxNorth { return .outsideData }
            let m = edgeMarginMeters
            if p.x < d.minEast + m || p.x > d.maxEast - m || p.y < d.minNorth + m || p.y > d.maxNorth - m { return .nearDataEdge }
        }
        if let r = region, p.x < r.minEast || p.x > r.maxEast || p.y < r.minNorth || p.y > r.maxNorth { return .outsideRegion }
        return model.isInsideBuilding(east: p.x, north: p.y, clearanceMeters: 2) ? .insideBuildings : nil
    }

    func usable(_ p: (x: Double, y: Double), model: CityModel) -> Bool { rejection(p, model: model) == nil }

    /// Positions along one street (or across one square), ordered, with headings.
    func positions(for name: String, model: CityModel) -> [(x: Double, y: Double, heading: Double)] {
        positionsWithRejections(for: name, model: model).positions
    }

    /// Positions along one street (or across one square), ordered, with headings; and how many sample
    /// positions along it were not usable, by reason.
    func positionsWithRejections(for name: String, model: CityModel)
        -> (positions: [(x: Double, y: Double, heading: Double)], rejected: [DropReason: Int]) {
        var samples: [(x: Double, y: Double, tx: Double, ty: Double)] = []
        // Dual carriageways: follow only the one-way ways that run along the street's main axis
        // (eastwards or northwards), so the sequence does not zigzag between the two.
        let ways = model.streets.filter { $0.name == name && Self.isCapturable($0.highwayClass) }
        let wayAxis = Self.principalAxis(ways.flatMap { $0.points.map { ($0.x, $0.y) } })
        func runsAlong(_ line: [(x: Double, y: Double)]) -> Bool {
            guard let f = line.first, let l = line.last else { return false }
            return (l.x - f.x) * wayAxis.x + (l.y - f.y) * wayAxis.y >= 0
        }
        func length(_ line: [(x: Double, y: Double)]) -> Double {
            zip(line, line.dropFirst()).reduce(0) { $0 + hypot($1.1.x - $1.0.x, $1.1.y - $1.0.y) }
        }
        let along = ways.filter { $0.isOneway && runsAlong($0.points) }.reduce(0) { $0 + length($1.points) }
        let against = ways.filter { $0.isOneway && !runsAlong($0.points) }.reduce(0) { $0 + length($1.points) }
        let keepAlong = along >= against
        let hasDual = along > 0 && against > 0
        for street in ways where !(hasDual && street.isOneway && runsAlong(street.points) != keepAlong) {
            // The capture vehicle keeps to the right-hand lane of a road (a quarter of its width right
            // of the way, at most 3 m), not on the paint of the centre or lane line.
            let offset = street.highwayClass.isRoad ? min(street.widthMeters / 4, 3) : 0
            let line = Self.offsetRight(street.points, by: offset)
            // A closed pedestrian way is the outline of an area, not a line to walk along.
            if line.count > 3, let f = line.first, let l = line.last, hypot(f.x - l.x, f.y - l.y) < 0.01,
               street.highwayClass == .pedestrian { continue }
            var carried = 0.0
            for i in 0..<max(0, line.count - 1) {
                let p = line[i], q = line[i + 1]
                let l = hypot(q.x - p.x, q.y - p.y)
                if l < 1e-6 { continue }
                var s = carried
                while s < l {
                    let t = s / l
                    samples.append((p.x + t * (q.x - p.x), p.y + t * (q.y - p.y), (q.x - p.x) / l, (q.y - p.y) / l))
                    s += spacingMeters / 2
                }
                carried = s - l
            }
        }
        for square in model.squares where square.name == name {
            let ring = square.ring
            let cx = ring.map(\.x).reduce(0, +) / Double(ring.count), cy = ring.map(\.y).reduce(0, +) / Double(ring.count)
            let axis = Self.principalAxis(ring.map { ($0.x, $0.y) })
            let projections = ring.map { ($0.x - cx) * axis.x + ($0.y - cy) * axis.y }
            var s = (projections.min() ?? 0)
            while s <= (projections.max() ?? 0) {
                let p = (cx + axis.x * s, cy + axis.y * s)
                if FootprintIndex.ringContains(ring, p) { samples.append((p.0, p.1, axis.x, axis.y)) }
                s += spacingMeters / 2
            }
        }
        guard !samples.isEmpty else { return ([], [:]) }
        let axis = Self.principalAxis(samples.map { ($0.x, $0.y) })
        let sorted = samples.enumerated().sorted { a, b in
            let pa = a.element.x * axis.x + a.element.y * axis.y, pb = b.element.x * axis.x + b.element.y * axis.y
            return pa != pb ? pa < pb : a.offset < b.offset
        }.map(\.element)
        var accepted: [(x: Double, y: Double, tx: Double, ty: Double)] = []
        var rejected: [DropReason: Int] = [:]
        for s in sorted {
            if let reason = rejection((s.x, s.y), model: model) {
                rejected[reason, default: 0] += 1
                continue
            }
            if accepted.contains(where: { hypot($0.x - s.x, $0.y - s.y) < spacingMeters * 0.75 }) { continue }
            // Parallel ways a few metres apart: one capture per spacing along the street, not one per way.
            if let last = accepted.last, (s.x - last.x) * axis.x + (s.y - last.y) * axis.y < spacingMeters * 0.9,
               hypot(s.x - last.x, s.y - last.y) < spacingMeters * 2 { continue }
            accepted.append(s)
        }
        let positions = accepted.enumerated().map { k, s -> (x: Double, y: Double, heading: Double) in
            // Direction of travel: from the previous capture to the next (central difference), which
            // smooths the small sideways steps between carriageways; the way's own direction at the ends.
            var tx = s.tx, ty = s.ty
            if tx * axis.x + ty * axis.y < 0 { tx = -tx; ty = -ty }
            let previous = k > 0 && hypot(accepted[k - 1].x - s.x, accepted[k - 1].y - s.y) < 3 * spacingMeters ? accepted[k - 1] : s
            let next = k + 1 < accepted.count && hypot(accepted[k + 1].x - s.x, accepted[k + 1].y - s.y) < 3 * spacingMeters ? accepted[k + 1] : s
            if hypot(next.x - previous.x, next.y - previous.y) > 1 {
                tx = next.x - previous.x; ty = next.y - previous.y
            }
            return (s.x, s.y, Angle.normalizedHeadingDegrees(atan2(tx, ty) * 180 / .pi))
        }
        // Samples come every half spacing: count positions, not samples.
        return (positions, rejected.mapValues { ($0 + 1) / 2 })
    }

    /// A polyline moved sideways to the right of its direction by `distance` metres (vertex normals
    /// averaged from the neighbouring segments).
    static func offsetRight(_ line: [(x: Double, y: Double)], by distance: Double) -> [(x: Double, y: Double)] {
        guard distance != 0, line.count >= 2 else { return line }
        return line.indices.map { i in
            let a = line[max(0, i - 1)], b = line[min(line.count - 1, i + 1)]
            let dx = b.x - a.x, dy = b.y - a.y, l = max(1e-9, hypot(dx, dy))
            return (line[i].x + dy / l * distance, line[i].y - dx / l * distance)
        }
    }

    /// The main direction of a point cloud (unit vector), oriented towards the east (or north).
    static func principalAxis(_ points: [(Double, Double)]) -> (x: Double, y: Double) {
        let n = Double(max(1, points.count))
        let mx = points.map(\.0).reduce(0, +) / n, my = points.map(\.1).reduce(0, +) / n
        var sxx = 0.0, syy = 0.0, sxy = 0.0
        for (x, y) in points { sxx += (x - mx) * (x - mx); syy += (y - my) * (y - my); sxy += (x - mx) * (y - my) }
        let angle = 0.5 * atan2(2 * sxy, sxx - syy)
        var a = (x: cos(angle), y: sin(angle))
        if a.x < -1e-9 || (abs(a.x) <= 1e-9 && a.y < 0) { a = (-a.x, -a.y) }
        return a
    }
}
