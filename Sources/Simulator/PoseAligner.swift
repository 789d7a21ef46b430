import Foundation
import Geodesy
import Parallelism

/// What ``PoseAligner`` found for one photo.
public struct PoseAlignment: Sendable, Hashable, Codable {
    /// The heading the photo's skyline agrees with best, degrees in [0, 360).
    public var headingDegrees: Double
    /// The camera position it agrees with best (scene metres; `up` is the camera height).
    public var position: EastNorthUp
    /// `headingDegrees` minus the metadata heading, degrees in (−180, 180].
    public var headingCorrectionDegrees: Double
    /// How far `position` is from the metadata position, metres.
    public var positionCorrectionMeters: Double
    /// How much better the answer fits than any heading more than ``PoseAligner/distinctHeadingDegrees``
    /// away: 1 − best cost / next best cost, 0…1 (0: another heading fits as well).
    public var confidence: Double
    /// The mean difference between the photo's and the model's skylines at the answer, degrees of
    /// elevation (each column's difference capped at ``PoseAligner/outlierDegrees``).
    public var residualDegrees: Double
    /// The share of the photo's columns whose skyline could be read, 0…1.
    public var knownShare: Double

    /// Whether the answer is trusted: confident enough, a close fit, and enough of the skyline read
    /// (``PoseAligner/minimumConfidence``, ``PoseAligner/maximumResidualDegrees``,
    /// ``PoseAligner/minimumKnownShare``). An untrusted answer is reported, never applied.
    public var isConfident: Bool {
        confidence >= PoseAligner.minimumConfidence && residualDegrees <= PoseAligner.maximumResidualDegrees
            && knownShare >= PoseAligner.minimumKnownShare
    }
}

/// Refines a photo's heading and position against the city model: the photo's skyline (where the sky
/// ends, column by column) is compared with the model's skyline seen from candidate positions around
/// the metadata position, at every heading.
///
/// Why the skyline: it is what a photo and a model built from OpenStreetMap share most reliably.
/// Facade colours, windows and shop fronts in the model are invented; roof lines against the sky
/// follow the footprints and heights of the data, and the sky is easy to tell from what stands against
/// it. A heading is a shift of the profile's columns, so every heading is tried at once per position;
/// positions are searched on a grid, then locally, coarse to fine (the near roofs' elevations move
/// with the position, which is how the position is found).
public enum PoseAligner {
    /// How far from the metadata position the search goes, metres (consumer GPS is off by a few metres).
    public static let searchRadiusMeters = 8.0
    /// A column's skyline difference counts at most this much, degrees: a tree, a crane or a parked van
    /// the model does not have costs the same however tall it is.
    public static let outlierDegrees: Float = 6
    /// Headings closer than this to the best one are the same answer when judging confidence, degrees.
    public static let distinctHeadingDegrees = 10.0
    /// The least ``PoseAlignment/confidence`` that is applied.
    public static let minimumConfidence = 0.2
    /// The largest ``PoseAlignment/residualDegrees`` that is applied.
    public static let maximumResidualDegrees = 2.5
    /// The least share of readable skyline columns that is aligned at all.
    public static let minimumKnownShare = 0.4
    /// Columns of the grid search (1° per column).
    static let coarseColumns = 360
    /// The local search stops below this step, metres.
    static let finestStepMeters = 0.04

    /// The columns the local search compares at `step` metres: 1° per column for steps over a metre,
    /// 0.5° down to a quarter metre, then 0.25° (a near facade's direction moves by a degree per 10 cm
    /// at 6 m, which only the finer columns see).
    static func columns(forStep step: Double) -> Int {
        step > 1.2 ? 360 : step > 0.25 ? 720 : 1440
    }

    /// Aligns `photo` taken at `position` (scene metres, `up` the camera height) against `model`.
    /// Returns nil when too little of the photo's skyline can be read (a band without its top).
    public static func align(photo: PhotoPanorama, model: CityModel, position: EastNorthUp) -> PoseAlignment? {
        let coarsePhoto = SkylineProfile(photo: photo, columns: coarseColumns)
        guard coarsePhoto.knownShare >= minimumKnownShare else { return nil }
        let heading = photo.headingDegrees

        func allowed(_ p: EastNorthUp) -> Bool {
            let de = p.east - position.east, dn = p.north - position.north
            return de * de + dn * dn <= searchRadiusMeters * searchRadiusMeters + 1e-9
                && !model.isInsideBuilding(east: p.east, north: p.north)
        }
        // The best shift (columns) and its cost at each of `candidates`, shifts limited to `window`.
        // `near`: the model's skyline from a position close to all of them (saves rays).
        func evaluate(_ candidates: [EastNorthUp], photo profile: SkylineProfile, window: (center: Double, halfWidth: Int)?,
                      near: SkylineProfile? = nil) -> [(shift: Int, cost: Float, sky: SkylineProfile)] {
            var results = [(shift: Int, cost: Float, sky: SkylineProfile)](
                repeating: (0, .infinity, SkylineProfile(headingDegrees: heading, elevations: [])), count: candidates.count)
            results.withUnsafeMutableBufferPointer { out in
                nonisolated(unsafe) let out = out
                Parallel.forEachRowRange(candidates.count, minimumRowsPerChunk: 1) { range in
                    for k in range {
                        let sky = model.skyline(at: candidates[k], headingDegrees: heading, columns: profile.columns, near: near,
                                                maximumThreads: 1)
                        let best = bestShift(profile, sky, window: window)
                        out[k] = (best.shift, best.cost, sky)
                    }
                }
            }
            return results
        }

        // 1. A grid over the search disc, every heading, 1° columns.
        var grid: [EastNorthUp] = []
        let spacing = searchRadiusMeters / 3
        for i in -3...3 {
            for j in -3...3 {
                let p = EastNorthUp(east: position.east + Double(i) * spacing, north: position.north + Double(j) * spacing, up: position.up)
                if allowed(p) { grid.append(p) }
            }
        }
        if grid.isEmpty { grid = [position] }
        let gridResults = evaluate(grid, photo: coarsePhoto, window: nil)
        guard let first = gridResults.indices.min(by: { gridResults[$0].cost < gridResults[$1].cost }) else { return nil }
        var best = (position: grid[first], shiftDegrees: Double(gridResults[first].shift) * 360 / Double(coarseColumns),
                    cost: gridResults[first].cost, sky: gridResults[first].sky)

        // 2. Local search, halving the step down to ``finestStepMeters``, on finer columns as it goes
        //    (``columns(forStep:)``), headings within 3° of the best once past the grid.
        var profiles = [coarseColumns: coarsePhoto]
        func profile(_ columns: Int) -> SkylineProfile {
            if let known = profiles[columns] { return known }
            let made = SkylineProfile(photo: photo, columns: columns)
            profiles[columns] = made
            return made
        }
        var resolution = coarseColumns
        var step = spacing / 2
        while step >= finestStepMeters {
            if Self.columns(forStep: step) != resolution {
                resolution = Self.columns(forStep: step)
                let again = evaluate([best.position], photo: profile(resolution), window: (best.shiftDegrees, resolution / 120))[0]
                best = (best.position, Double(again.shift) * 360 / Double(resolution), again.cost, again.sky)
            }
            let window: (center: Double, halfWidth: Int)? = resolution == coarseColumns ? nil : (best.shiftDegrees, resolution / 120)
            for _ in 0..<6 {
                var neighbours: [EastNorthUp] = []
                for i in -1...1 {
                    for j in -1...1 where i != 0 || j != 0 {
                        let p = EastNorthUp(east: best.position.east + Double(i) * step, north: best.position.north + Double(j) * step,
                                            up: position.up)
                        if allowed(p) { neighbours.append(p) }
                    }
                }
                let results = evaluate(neighbours, photo: profile(resolution), window: window, near: best.sky)
                guard let k = results.indices.min(by: { results[$0].cost < results[$1].cost }), results[k].cost < best.cost else { break }
                best = (neighbours[k], Double(results[k].shift) * 360 / Double(resolution), results[k].cost, results[k].sky)
            }
            step /= 2
        }
        let finePhoto = profile(resolution)

        // 3. The answer at the best position: the best shift refined between columns by a parabola
        //    through its neighbours; every heading's cost on 1° columns, for the confidence.
        let n = finePhoto.columns
        let s = best.shiftDegrees * Double(n) / 360
        let k = (Int(s.rounded()) % n + n) % n
        let left = cost(finePhoto, best.sky, shift: (k + n - 1) % n), centre = cost(finePhoto, best.sky, shift: k)
        let right = cost(finePhoto, best.sky, shift: (k + 1) % n)
        let denominator = left - 2 * centre + right
        let offset = denominator > 0 ? Double(max(-0.5, min(0.5, (left - right) / (2 * denominator)))) : 0
        let curve = costs(coarsePhoto, model.skyline(at: best.position, headingDegrees: heading, columns: coarseColumns))
        let nearest = (Int((best.shiftDegrees * Double(coarseColumns) / 360).rounded()) % coarseColumns + coarseColumns) % coarseColumns
        let distinct = Int((distinctHeadingDegrees * Double(coarseColumns) / 360).rounded(.up))
        var runnerUp = Float.infinity
        for j in 0..<coarseColumns {
            let apart = min(abs(j - nearest), coarseColumns - abs(j - nearest))
            if apart > distinct { runnerUp = min(runnerUp, curve[j]) }
        }
        let bestCoarse = min(curve[nearest], min(curve[(nearest + 1) % coarseColumns], curve[(nearest + coarseColumns - 1) % coarseColumns]))
        let shiftDegrees = (Double(k) + offset) * 360 / Double(n)
        var correction = shiftDegrees.truncatingRemainder(dividingBy: 360)
        if correction > 180 { correction -= 360 }
        let moved = ((best.position.east - position.east) * (best.position.east - position.east)
                     + (best.position.north - position.north) * (best.position.north - position.north)).squareRoot()
        return PoseAlignment(headingDegrees: Angle.normalizedHeadingDegrees(heading + correction), position: best.position,
                             headingCorrectionDegrees: correction, positionCorrectionMeters: moved,
                             confidence: runnerUp.isFinite && runnerUp > 0 ? Double(max(0, 1 - bestCoarse / runnerUp)) : 0,
                             residualDegrees: Double(centre), knownShare: finePhoto.knownShare)
    }

    /// The mean capped difference between `photo` and `model` shifted by `shift` columns, for every
    /// shift: `photo[c]` is compared with `model[c + shift]`.
    static func costs(_ photo: SkylineProfile, _ model: SkylineProfile) -> [Float] {
        (0..<photo.columns).map { cost(photo, model, shift: $0) }
    }

    /// The best shift of `model` against `photo` (limited to `window`: a centre in degrees and a half
    /// width in columns), and its cost.
    static func bestShift(_ photo: SkylineProfile, _ model: SkylineProfile, window: (center: Double, halfWidth: Int)?) -> (shift: Int, cost: Float) {
        let n = photo.columns
        let shifts: [Int]
        if let window {
            let centre = Int((window.center * Double(n) / 360).rounded())
            shifts = (-window.halfWidth...window.halfWidth).map { ((centre + $0) % n + n) % n }
        } else {
            shifts = Array(0..<n)
        }
        var best = (shift: 0, cost: Float.infinity)
        for s in shifts {
            let c = cost(photo, model, shift: s)
            if c < best.cost { best = (s, c) }
        }
        return best
    }

    /// The mean capped difference for one shift, over the photo's known columns.
    @inline(__always)
    static func cost(_ photo: SkylineProfile, _ model: SkylineProfile, shift: Int) -> Float {
        let n = photo.columns
        var total: Float = 0
        var count = 0
        photo.elevations.withUnsafeBufferPointer { p in
            model.elevations.withUnsafeBufferPointer { m in
                for c in 0..<n {
                    let a = p[c]
                    if a.isNaN { continue }
                    var k = c + shift
                    if k >= n { k -= n }
                    let b = m[k]
                    if b.isNaN { continue }
                    total += min(abs(a - b), outlierDegrees)
                    count += 1
                }
            }
        }
        return count == 0 ? .infinity : total / Float(count)
    }
}

/// The disturbances the aligner is measured with (tests and `Benchmarks`): a heading off by up to
/// ±30° and a position off by up to 5 m, as a phone's compass and GPS are, drawn from a fixed seed.
public struct PoseAlignmentTrial: Sendable, Hashable {
    /// Added to the true heading, degrees (−30…30).
    public var headingDegrees: Double
    /// Added to the true position, metres (within 5 m of it).
    public var eastMeters: Double, northMeters: Double

    /// `count` disturbances from `seed` (a SplitMix64 sequence: the same on every machine).
    public static func cases(count: Int, seed: UInt64) -> [PoseAlignmentTrial] {
        var state = seed
        func next() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in
            let heading = (next() * 2 - 1) * 30
            let distance = 5 * next().squareRoot(), bearing = next() * 2 * .pi
            return PoseAlignmentTrial(headingDegrees: heading, eastMeters: distance * sin(bearing), northMeters: distance * cos(bearing))
        }
    }
}
