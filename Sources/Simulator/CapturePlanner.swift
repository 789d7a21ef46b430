import Foundation
import Geodesy
import MapData

/// Plans captures along named streets: one sequence per street, a capture every `spacingMeters`
/// along its ways (dual carriageways and split ways merged), ordered along the street's main axis,
/// heading along the direction of travel, times increasing along each sequence, never inside or
/// within 2 m of a building. On roads the camera keeps to the right-hand lane (a quarter of the road
/// width right of the way's centre line, at most 3 m), off the lane markings. Named squares are crossed along their longest axis.
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

    /// A planner; parameters out of range throw `SimulatorError.invalidParameter`.
    public init(spacingMeters: Double = 10, cameraHeightMeters: Double = 2.5, startTime: Date, imageWidth: Int,
                depthWidth: Int) throws(SimulatorError) {
        guard (1...1_000).contains(spacingMeters) else {
            throw .invalidParameter(name: "spacing", value: "\(spacingMeters) m", allowed: "1…1000 m")
        }
        guard (0.1...100).contains(cameraHeightMeters) else {
            throw .invalidParameter(name: "camera height", value: "\(cameraHeightMeters) m", allowed: "0.1…100 m")
        }
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
        for (sequenceIndex, name) in names.enumerated() {
            let points = positions(for: name, model: model)
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
            throw .noCaptures(detail: "\(names.joined(separator: ", ")) has no position outside buildings inside the region")
        }
        return captures
    }

    func usable(_ p: (x: Double, y: Double), model: CityModel) -> Bool {
        if let r = region, p.x < r.minEast || p.x > r.maxEast || p.y < r.minNorth || p.y > r.maxNorth { return false }
        return !model.isInsideBuilding(east: p.x, north: p.y, clearanceMeters: 2)
    }

    /// Positions along one street (or across one square), ordered, with headings.
    func positions(for name: String, model: CityModel) -> [(x: Double, y: Double, heading: Double)] {
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
        guard !samples.isEmpty else { return [] }
        let axis = Self.principalAxis(samples.map { ($0.x, $0.y) })
        let sorted = samples.enumerated().sorted { a, b in
            let pa = a.element.x * axis.x + a.element.y * axis.y, pb = b.element.x * axis.x + b.element.y * axis.y
            return pa != pb ? pa < pb : a.offset < b.offset
        }.map(\.element)
        var accepted: [(x: Double, y: Double, tx: Double, ty: Double)] = []
        for s in sorted where usable((s.x, s.y), model: model) {
            if accepted.contains(where: { hypot($0.x - s.x, $0.y - s.y) < spacingMeters * 0.75 }) { continue }
            // Parallel ways a few metres apart: one capture per spacing along the street, not one per way.
            if let last = accepted.last, (s.x - last.x) * axis.x + (s.y - last.y) * axis.y < spacingMeters * 0.9,
               hypot(s.x - last.x, s.y - last.y) < spacingMeters * 2 { continue }
            accepted.append(s)
        }
        return accepted.enumerated().map { k, s in
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
