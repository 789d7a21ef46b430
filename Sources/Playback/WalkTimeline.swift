import Foundation
import Geodesy

/// When the walk is where, looking which way: one entry per output frame.
///
/// The walker moves along the route's panoramas at a constant speed, holding still for
/// ``Options/pauseSeconds`` at every waypoint (the ends included). The heading follows the direction of
/// travel, measured over a window of ±``Options/headingLookAheadMeters`` along the route so corners are
/// rounded rather than snapped, and it never turns faster than ``Options/maximumTurnRateDegreesPerSecond``.
/// Where the route steps sideways and goes on as before (a jog: its legs either side, out to
/// ``Options/headingJogWindowMeters``, agree within ``Options/headingJogBendDegrees``), the view looks
/// along the longer chord instead, the way a walker looks down the street rather than at the kerb; a turn
/// (the legs disagree) is followed through the short window, with a blend between the two.
/// It holds while the direction of travel stays within ``Options/headingSteadinessDegrees`` of it: the
/// panoramas of a straight street are not exactly in line, and following their wavering would turn the
/// view by a fraction of a pixel every few frames (and make every frame's view lookup afresh).
/// With ``Options/lookAt`` the view turns to keep that place in sight while it is within
/// ``Options/lookAtRangeMeters`` and no more than ``Options/lookAtMaximumOffsetDegrees`` off the
/// direction of travel.
public struct WalkTimeline: Sendable {
    /// How the walk is timed and where it looks.
    public struct Options: Sendable, Hashable {
        /// Walking speed, metres per second (0.1…50; 1.4 is walking pace).
        public var speedMetersPerSecond: Double = 1.4
        /// Frames per second (1…120).
        public var framesPerSecond: Double = 12
        /// Seconds spent still at each waypoint (0…60).
        public var pauseSeconds: Double = 1
        /// The fastest the heading may change, degrees per second.
        public var maximumTurnRateDegreesPerSecond: Double = 45
        /// Half the window over which the travel direction is measured, metres.
        public var headingLookAheadMeters: Double = 8
        /// Half the longer window a jog is looked through, and how far either side the legs that tell a
        /// jog from a turn reach, metres (at least ``headingLookAheadMeters``).
        public var headingJogWindowMeters: Double = 24
        /// Legs either side that agree within this are a jog (the longer window); from three times this
        /// they are a turn (the short window); blended between, so the view never swings faster than the
        /// route bends. Degrees.
        public var headingJogBendDegrees: Double = 15
        /// How far the direction of travel may waver before the heading follows, degrees (0…1; 0.05° is
        /// a third of a pixel across a 90° view 640 pixels wide).
        public var headingSteadinessDegrees: Double = 0.05
        /// A place to keep in view while passing it.
        public var lookAt: GeoCoordinate?
        /// How near `lookAt` must be for the view to turn to it, metres.
        public var lookAtRangeMeters: Double = 80
        /// How far off the direction of travel the view turns for `lookAt`, degrees.
        public var lookAtMaximumOffsetDegrees: Double = 100
        /// View pitch, degrees above the horizon (−90…90).
        public var pitchDegrees: Double = 0
        /// Horizontal field of view, degrees (10…120).
        public var fieldOfViewDegrees: Double = 90

        /// The allowed speeds, m/s.
        public static let speedRangeMetersPerSecond: ClosedRange<Double> = 0.1...50
        /// The allowed frame rates.
        public static let framesPerSecondRange: ClosedRange<Double> = 1...120
        /// The allowed pauses, seconds.
        public static let pauseRangeSeconds: ClosedRange<Double> = 0...60

        /// Defaults (walking pace, 12 fps, 1 s pauses).
        public init() {}

        /// Checks every value against its range.
        /// - Throws: ``PlaybackError/invalidParameter(name:value:allowed:)``.
        public func validated() throws(PlaybackError) -> Options {
            func check(_ value: Double, _ range: ClosedRange<Double>, _ name: String, _ allowed: String) throws(PlaybackError) {
                guard value.isFinite, range.contains(value) else { throw .invalidParameter(name: name, value: "\(value)", allowed: allowed) }
            }
            try check(speedMetersPerSecond, Self.speedRangeMetersPerSecond, "--speed-mps", "0.1…50 metres per second (1.4 is walking pace)")
            try check(framesPerSecond, Self.framesPerSecondRange, "--fps", "1…120 frames per second")
            try check(pauseSeconds, Self.pauseRangeSeconds, "--pause-seconds", "0…60 seconds")
            try check(maximumTurnRateDegreesPerSecond, 1...3600, "maximum turn rate", "1…3600 degrees per second")
            try check(headingSteadinessDegrees, 0...1, "heading steadiness", "0…1 degrees")
            try check(headingLookAheadMeters, 1...100, "heading window", "1…100 metres")
            try check(headingJogWindowMeters, headingLookAheadMeters...200, "heading jog window", "\(headingLookAheadMeters)…200 metres")
            try check(headingJogBendDegrees, 0...90, "heading jog bend", "0…90 degrees")
            try check(pitchDegrees, -90...90, "--pitch-degrees", "-90…90 degrees (0 = horizon)")
            try check(fieldOfViewDegrees, 10...120, "--fov-degrees", "10…120 degrees (horizontal)")
            return self
        }
    }

    /// One frame of the walk.
    public struct Frame: Sendable, Hashable, Codable {
        /// Frame number from 0.
        public var index: Int
        /// Time from the start, seconds.
        public var timeSeconds: Double
        /// The route stop the walker last left (or stands at): the move is from stop `segment` to `segment + 1`.
        public var segment: Int
        /// Fraction of the way from stop `segment` to `segment + 1`, 0…1.
        public var fraction: Double
        /// The walker's position (WGS84).
        public var coordinate: GeoCoordinate
        /// The walker's position in the route's local frame (east-north-up of the first stop, metres).
        public var position: EastNorthUp
        /// Distance walked, metres.
        public var distanceMeters: Double
        /// View heading, degrees clockwise from north, [0, 360).
        public var headingDegrees: Double
        /// View pitch, degrees above the horizon.
        public var pitchDegrees: Double
        /// Horizontal field of view, degrees.
        public var fieldOfViewDegrees: Double
        /// Whether the walker is standing still at a waypoint.
        public var isPaused: Bool

        /// A frame from its parts.
        public init(index: Int, timeSeconds: Double, segment: Int, fraction: Double, coordinate: GeoCoordinate, position: EastNorthUp,
                    distanceMeters: Double, headingDegrees: Double, pitchDegrees: Double, fieldOfViewDegrees: Double, isPaused: Bool) {
            self.index = index
            self.timeSeconds = timeSeconds
            self.segment = segment
            self.fraction = fraction
            self.coordinate = coordinate
            self.position = position
            self.distanceMeters = distanceMeters
            self.headingDegrees = headingDegrees
            self.pitchDegrees = pitchDegrees
            self.fieldOfViewDegrees = fieldOfViewDegrees
            self.isPaused = isPaused
        }
    }

    /// The route.
    public let route: WalkRoute
    /// The options used.
    public let options: Options
    /// The frames, in order (at least one).
    public let frames: [Frame]
    /// The local frame positions are in (east-north-up at the first stop, on the ground).
    public let localFrame: LocalTangentFrame
    /// The stops' positions in ``localFrame``, metres.
    public let stopPositions: [EastNorthUp]

    /// Total duration, seconds.
    public var durationSeconds: Double { route.durationSeconds(speedMetersPerSecond: options.speedMetersPerSecond, pauseSeconds: options.pauseSeconds) }

    /// Plans the frames of `route`.
    /// - Throws: ``PlaybackError/invalidParameter(name:value:allowed:)`` for options out of range.
    public init(route: WalkRoute, options: Options = Options()) throws(PlaybackError) {
        let options = try options.validated()
        self.route = route
        self.options = options
        let frame: LocalTangentFrame
        do { frame = try LocalTangentFrame(origin: route.stops[0].coordinate) } catch {
            throw .invalidParameter(name: "route start", value: "\(route.stops[0].coordinate)", allowed: "a WGS84 coordinate")
        }
        localFrame = frame
        var positions: [EastNorthUp] = []
        for stop in route.stops {
            positions.append((try? frame.enu(from: stop.coordinate)).map { EastNorthUp(east: $0.east, north: $0.north, up: 0) }
                             ?? EastNorthUp(east: 0, north: 0, up: 0))
        }
        stopPositions = positions
        // Cumulative lengths in the local frame (consistent with the positions interpolated below).
        var lengths = [0.0]
        for k in 1..<max(1, positions.count) {
            let a = positions[k - 1], b = positions[k]
            lengths.append(lengths[k - 1] + ((b.east - a.east) * (b.east - a.east) + (b.north - a.north) * (b.north - a.north)).squareRoot())
        }
        let path = RoutePath(positions: positions, lengths: lengths)
        // The schedule: (start time, kind) pieces — a pause at stop k, or the move from stop k to k + 1.
        enum Piece { case pause(stop: Int), move(segment: Int) }
        var pieces: [(start: Double, duration: Double, piece: Piece)] = []
        var t = 0.0
        for k in 0..<route.stops.count {
            if route.stops[k].isWaypoint, options.pauseSeconds > 0 {
                pieces.append((t, options.pauseSeconds, .pause(stop: k)))
                t += options.pauseSeconds
            }
            if k + 1 < route.stops.count {
                let d = (lengths[k + 1] - lengths[k]) / options.speedMetersPerSecond
                pieces.append((t, d, .move(segment: k)))
                t += d
            }
        }
        let total = t
        let count = max(1, Int((total * options.framesPerSecond).rounded(.down)) + 1)
        var frames: [Frame] = []
        frames.reserveCapacity(count)
        var pieceIndex = 0
        var heading = 0.0
        let maxTurn = options.maximumTurnRateDegreesPerSecond / options.framesPerSecond
        let lookAt = options.lookAt.flatMap { try? frame.enu(from: $0) }
        let lastSegment = max(0, route.stops.count - 2)
        for i in 0..<count {
            let time = Double(i) / options.framesPerSecond
            while pieceIndex + 1 < pieces.count, time >= pieces[pieceIndex + 1].start { pieceIndex += 1 }
            var s: Double, segment: Int, fraction: Double, paused: Bool
            if pieces.isEmpty {
                s = 0; segment = 0; fraction = 0; paused = true
            } else {
                let piece = pieces[pieceIndex]
                switch piece.piece {
                case .pause(let stop):
                    s = lengths[stop]; paused = true
                    segment = min(stop, lastSegment); fraction = stop > lastSegment ? 1 : 0
                    if route.stops.count == 1 { segment = 0; fraction = 0 }
                case .move(let k):
                    let u = piece.duration > 0 ? min(1, max(0, (time - piece.start) / piece.duration)) : 1
                    s = lengths[k] + u * (lengths[k + 1] - lengths[k]); segment = k; fraction = u; paused = false
                }
            }
            let position = path.position(at: s)
            var target = route.stops.count > 1 ? Self.travelDirection(path, at: s, options: options) : 0
            if let place = lookAt {
                let de = place.east - position.east, dn = place.north - position.north
                let distance = (de * de + dn * dn).squareRoot()
                let bearing = EastNorthUp.heading(east: de, north: dn).degrees
                let offset = Self.signedDifference(bearing, target)
                if distance <= options.lookAtRangeMeters, abs(offset) <= options.lookAtMaximumOffsetDegrees {
                    // Fade in over the outer quarter of the range so the view does not jump at its edge.
                    let weight = min(1, max(0, (options.lookAtRangeMeters - distance) / (0.25 * options.lookAtRangeMeters)))
                    target += weight * offset
                }
            }
            if i == 0 {
                heading = target
            } else {
                let turn = Self.signedDifference(target, heading)
                if abs(turn) > options.headingSteadinessDegrees { heading += min(maxTurn, max(-maxTurn, turn)) }
            }
            let coordinate = (try? frame.geodetic(from: position).coordinate) ?? route.stops[0].coordinate
            frames.append(Frame(index: i, timeSeconds: time, segment: segment, fraction: fraction, coordinate: coordinate,
                                position: position, distanceMeters: s, headingDegrees: Angle.normalizedHeadingDegrees(heading),
                                pitchDegrees: options.pitchDegrees, fieldOfViewDegrees: options.fieldOfViewDegrees, isPaused: paused))
        }
        self.frames = frames
    }

    /// The direction of travel at `s` along `path`, degrees clockwise from north: over the window of
    /// ±``Options/headingLookAheadMeters`` through a turn, over ±``Options/headingJogWindowMeters``
    /// through a jog (see the type's description).
    static func travelDirection(_ path: RoutePath, at s: Double, options: Options) -> Double {
        let short = options.headingLookAheadMeters, long = options.headingJogWindowMeters
        func direction(_ a: Double, _ b: Double) -> Double {
            let p = path.position(at: a), q = path.position(at: b)
            return EastNorthUp.heading(east: q.east - p.east, north: q.north - p.north).degrees
        }
        let near = direction(s - short, s + short)
        guard long > short, options.headingJogBendDegrees > 0 else { return near }
        let before = direction(s - long, s - short), after = direction(s + short, s + long)
        let bend = abs(signedDifference(after, before)), jogBend = options.headingJogBendDegrees
        // How much of a turn it is (0: a jog, 1: a turn), and how whole the legs are (along the route):
        // near its ends they are cut short, and the short window takes over as they shrink to half.
        let turn = min(1, max(0, (bend - jogBend) / (2 * jogBend)))
        let total = path.lengths.last ?? 0
        let behind = max(0, s - short) - max(0, s - long), ahead = min(total, s + long) - min(total, s + short)
        let whole = min(1, max(0, 2 * min(behind, ahead) / (long - short) - 1))
        let far = direction(s - long, s + long)
        return far + (1 - whole * (1 - turn)) * signedDifference(near, far)
    }

    /// `a − b` in (−180, 180], degrees.
    static func signedDifference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 }
        if d <= -180 { d += 360 }
        return d
    }
}

/// A polyline by arc length (clamped at its ends).
struct RoutePath {
    let positions: [EastNorthUp]
    let lengths: [Double]

    func position(at s: Double) -> EastNorthUp {
        guard positions.count > 1 else { return positions.first ?? EastNorthUp(east: 0, north: 0, up: 0) }
        let s = min(lengths[lengths.count - 1], max(0, s))
        var k = 0
        while k + 2 < lengths.count, s > lengths[k + 1] { k += 1 }
        let span = lengths[k + 1] - lengths[k]
        let u = span > 0 ? (s - lengths[k]) / span : 0
        let a = positions[k], b = positions[k + 1]
        return EastNorthUp(east: a.east + u * (b.east - a.east), north: a.north + u * (b.north - a.north), up: 0)
    }
}
