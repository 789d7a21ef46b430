import Catalog
import Foundation
import Geodesy
import Imaging
import Reprojection

/// Chooses where street names go on the ground of a view: for each named street, the stretch of its
/// centreline in front of the camera where the text, lying flat on the ground (z = −camera height)
/// along the street, is largest without being too near, inside the view, not hidden (the depth map
/// sees the ground there, not a wall in front of it), legible, and clear of place labels and of the
/// other street names. At most one label per name.
///
/// Candidates are taken every ``candidateSpacingMeters`` along each street; each is checked with a
/// handful of projections and depth look-ups, so a view with a few dozen streets costs well under a
/// millisecond of geometry.
public struct LookAroundRoadLabelPlacer: Sendable {
    /// Em size of the painted text on the ground, metres: capitals about 0.87 m tall (DejaVu Sans Bold,
    /// cap height 0.73 em), like road markings seen from a car.
    public static let textEmMeters = 1.2
    /// Spacing of the candidate text centres along a street, metres.
    static let candidateSpacingMeters = 1.0
    /// Ground points per candidate checked against the depth map.
    static let occlusionSampleCount = 9
    /// The largest fraction of those points that may be hidden (a lamp post in front is fine, a
    /// building is not).
    static let maximumHiddenFraction = 0.2
    /// How far the text's box must stay inside the view's edges, pixels.
    static let viewMarginPixels = 4.0
    /// Largest sideways departure of a street from the straight text, metres (text follows straight
    /// stretches only).
    static let straightnessToleranceMeters = 0.4

    /// Horizontal distance from the camera to every corner of the text, metres (default 5…40).
    public var distanceRangeMeters: ClosedRange<Double>
    /// The distance of the text's middle the placer prefers, metres (default 9: near enough to read,
    /// far enough to be ahead rather than underfoot).
    public var preferredDistanceMeters: Double
    /// Smallest size of a letter at the text's middle, in view pixels, along and across the text
    /// (default 4): ground text seen at a grazing angle shrinks to nothing.
    public var minimumLetterPixels: Double
    /// Whether the depth map decides visibility (default true; false labels streets behind walls,
    /// for diagnostics and tests).
    public var checksOcclusion: Bool

    /// A placer with the default limits.
    public init(distanceRangeMeters: ClosedRange<Double> = 5...40, preferredDistanceMeters: Double = 9,
                minimumLetterPixels: Double = 4, checksOcclusion: Bool = true) {
        self.distanceRangeMeters = distanceRangeMeters
        self.preferredDistanceMeters = preferredDistanceMeters
        self.minimumLetterPixels = minimumLetterPixels
        self.checksOcclusion = checksOcclusion
    }

    /// A street to label: its catalog entry, the name shown, its centreline relative to the camera
    /// (metres; heights ignored) and the text's inked box in em units relative to the pen at the
    /// start of the baseline (y down), as `TextMetrics` gives it divided by the pixel size. Measured
    /// in the painted style, so it includes the halo: the box the view-margin and overlap checks use
    /// is the box that gets painted.
    struct Street: Sendable {
        var street: CatalogStreet
        var name: String
        var points: [SIMD2<Double>]
        var ink: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    }

    /// One way of laying a street's name on the ground.
    struct Candidate {
        var label: LookAroundRoadLabel
        var cost: Double
    }

    /// The labels for `streets` in the view of `camera` from `cameraHeightMeters` above the ground,
    /// best placed first, none overlapping `avoiding` (convex polygons in view pixels) or another.
    func place(_ streets: [Street], camera: ViewCamera, cameraHeightMeters: Double, depth: LookAroundLabelPlacer?,
               avoiding: [[PixelPoint]]) -> [LookAroundRoadLabel] {
        let projector = GroundPlaneProjector(camera: camera)
        var byName: [String: [Candidate]] = [:]
        for street in streets {
            byName[street.name, default: []] += candidates(for: street, projector: projector, camera: camera,
                                                           cameraHeightMeters: cameraHeightMeters, depth: depth)
        }
        // Names whose best stretch is best placed choose first; each takes its best free stretch.
        let ordered = byName.values.map { $0.sorted { $0.cost < $1.cost } }.filter { !$0.isEmpty }
            .sorted { $0[0].cost < $1[0].cost }
        var taken = avoiding
        var labels: [LookAroundRoadLabel] = []
        for candidates in ordered {
            guard let free = candidates.first(where: { c in !taken.contains { convexPolygonsOverlap($0, c.label.corners) } })
            else { continue }
            taken.append(free.label.corners)
            labels.append(free.label)
        }
        return labels
    }

    /// Every acceptable placement of one street's name.
    func candidates(for street: Street, projector: GroundPlaneProjector, camera: ViewCamera,
                    cameraHeightMeters h: Double, depth: LookAroundLabelPlacer?) -> [Candidate] {
        let line = street.points
        guard line.count >= 2 else { return [] }
        let em = Self.textEmMeters
        let length = (street.ink.maxX - street.ink.minX) * em
        let halfHeight = (street.ink.maxY - street.ink.minY) * em / 2
        let letters = Double(max(1, street.name.count))
        var cumulative = [0.0]
        for i in 1..<line.count { cumulative.append(cumulative[i - 1] + ((line[i] - line[i - 1]) * (line[i] - line[i - 1])).sum().squareRoot()) }
        let total = cumulative[line.count - 1]
        guard total > length else { return [] }
        let width = Double(camera.width), height = Double(camera.height), margin = Self.viewMarginPixels
        let maximumDistance2 = distanceRangeMeters.upperBound * distanceRangeMeters.upperBound
        let minimumDistance2 = distanceRangeMeters.lowerBound * distanceRangeMeters.lowerBound
        var result: [Candidate] = []
        var s = length / 2
        while s <= total - length / 2 {
            defer { s += Self.candidateSpacingMeters }
            let middle = Self.point(along: line, cumulative, s)
            let middleDistance2 = (middle * middle).sum()
            guard middleDistance2 <= maximumDistance2, middleDistance2 >= minimumDistance2 else { continue }
            var a = Self.point(along: line, cumulative, s - length / 2)
            var b = Self.point(along: line, cumulative, s + length / 2)
            let chord = b - a, chordLength = (chord * chord).sum().squareRoot()
            guard chordLength > length * 0.9 else { continue }
            var straight = true
            for i in line.indices where cumulative[i] > s - length / 2 && cumulative[i] < s + length / 2 {
                let d = line[i] - a
                if abs(d.x * chord.y - d.y * chord.x) / chordLength > Self.straightnessToleranceMeters { straight = false; break }
            }
            guard straight else { continue }
            // The text's middle line, centred on the stretch, reading left to right in the view.
            var along = chord / chordLength
            let centre = (a + b) / 2
            a = centre - along * (length / 2)
            b = centre + along * (length / 2)
            func ground(_ p: SIMD2<Double>) -> SIMD3<Double> { SIMD3(p.x, p.y, -h) }
            guard projector.depth(ground(a)) > 1, projector.depth(ground(b)) > 1,
                  let pa = projector.pixel(ground(a)), let pb = projector.pixel(ground(b)) else { continue }
            let screen = pb - pa
            let flip = abs(screen.x) >= 0.2 * abs(screen.y) ? screen.x < 0 : screen.y > 0
            if flip { swap(&a, &b); along = -along }
            // Letters' up: the reading direction turned a quarter anticlockwise seen from above.
            let across = SIMD2(-along.y, along.x)
            let corners2 = [a - across * halfHeight, b - across * halfHeight, b + across * halfHeight, a + across * halfHeight]
            var corners: [PixelPoint] = []
            var inside = true
            for c in corners2 {
                let d2 = (c * c).sum()
                guard d2 <= maximumDistance2, d2 >= minimumDistance2, projector.depth(ground(c)) > 1,
                      let p = projector.pixel(ground(c)),
                      p.x >= margin, p.y >= margin, p.x <= width - margin, p.y <= height - margin else { inside = false; break }
                corners.append(p)
            }
            guard inside else { continue }
            // Legibility at the middle: one letter's length along the text and the text's height.
            let letter = length / letters
            guard let m0 = projector.pixel(ground(centre - along * (letter / 2))),
                  let m1 = projector.pixel(ground(centre + along * (letter / 2))),
                  let n0 = projector.pixel(ground(centre - across * halfHeight)),
                  let n1 = projector.pixel(ground(centre + across * halfHeight)),
                  (m1 - m0).length >= minimumLetterPixels, (n1 - n0).length >= minimumLetterPixels else { continue }
            var centerline: [PixelPoint] = []
            let count = LookAroundRoadLabel.centerlineSampleCount
            var hidden = 0
            for k in 0..<count {
                let p = a + (b - a) * (Double(k) / Double(count - 1))
                guard let pixel = projector.pixel(ground(p)) else { break }
                centerline.append(pixel)
                if checksOcclusion, let depth, !Self.groundIsVisible(ground(p), depth: depth, cameraHeightMeters: h) { hidden += 1 }
            }
            guard centerline.count == count,
                  Double(hidden) <= Self.maximumHiddenFraction * Double(count) else { continue }
            let distance = (centre * centre).sum().squareRoot()
            let offCentre = abs((pa.x + pb.x) / 2 - width / 2) / width
            let bearing = EastNorthUp.heading(east: along.x, north: along.y).degrees
            let label = LookAroundRoadLabel(
                name: street.name, streetID: street.street.id, osm: street.street.osm, highwayClass: street.street.highwayClass,
                groundStart: EastNorthUp(east: a.x, north: a.y, up: -h), groundEnd: EastNorthUp(east: b.x, north: b.y, up: -h),
                centerline: centerline, corners: corners, distanceMeters: distance, readingBearingDegrees: bearing)
            result.append(Candidate(label: label, cost: abs(distance - preferredDistanceMeters) / 6 + offCentre))
        }
        return result
    }

    /// Whether the depth map sees the ground point `p` (relative to the camera): the surface it
    /// records in that direction is not nearer than `p`, within a tolerance that grows with distance
    /// (and, for ground, with the range one depth pixel spans at that grazing angle).
    static func groundIsVisible(_ p: SIMD3<Double>, depth: LookAroundLabelPlacer, cameraHeightMeters h: Double) -> Bool {
        let horizontal = (p.x * p.x + p.y * p.y).squareRoot()
        let range = (horizontal * horizontal + p.z * p.z).squareRoot()
        let bearing = EastNorthUp.heading(east: p.x, north: p.y).degrees, elevation = atan2(p.z, horizontal) * 180 / .pi
        guard let seen = depth.surfacePoint(bearingDegrees: bearing, elevationDegrees: elevation) else { return true }
        let seenRange = seen.lengthMeters
        var tolerance = 1 + 0.05 * range
        if abs(seen.up + h) < 0.3 {
            // Ground there too: one depth pixel of elevation spans about d²/h · (2π/width) metres.
            tolerance += horizontal * horizontal / max(h, 0.5) * 2 * .pi / Double(depth.depth.width)
        }
        return seenRange >= range - tolerance
    }

    /// The point at arc length `s` along a polyline with cumulative lengths.
    static func point(along line: [SIMD2<Double>], _ cumulative: [Double], _ s: Double) -> SIMD2<Double> {
        let (i, t) = ArcLength.locate(s, in: cumulative)
        return line[i - 1] + (line[i] - line[i - 1]) * t
    }
}
