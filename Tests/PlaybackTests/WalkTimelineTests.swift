import Foundation
import Geodesy
@testable import Playback
import Testing

@Suite struct WalkTimelineTests {
    /// An L-shaped walk: 36 m east, then 36 m north (a right-angle corner at the third stop... the fourth).
    static func lRoute() throws -> WalkRoute {
        try route(through: [(0, 0), (12, 0), (24, 0), (36, 0), (36, 12), (36, 24), (36, 36)])
    }

    /// A walk through panoramas at `points` (east, north metres from a point in Helsinki), waypoints at its ends.
    static func route(through points: [(east: Double, north: Double)]) throws -> WalkRoute {
        let frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: 60.17, longitude: 24.95))
        var distance = 0.0
        var stops: [WalkRoute.Stop] = []
        for (i, p) in points.enumerated() {
            if i > 0 { distance += hypot(p.east - points[i - 1].east, p.north - points[i - 1].north) }
            stops.append(WalkRoute.Stop(panoramaID: "p\(i)", coordinate: try frame.geodetic(from: EastNorthUp(east: p.east, north: p.north, up: 0)).coordinate,
                                        distanceMeters: distance, isWaypoint: i == 0 || i == points.count - 1, streetName: nil,
                                        captureTime: Date(timeIntervalSince1970: 0)))
        }
        return WalkRoute(stops: stops)
    }

    @Test func framesCoverTheDurationAtTheFrameRate() throws {
        var options = WalkTimeline.Options()
        options.speedMetersPerSecond = 2
        options.framesPerSecond = 10
        options.pauseSeconds = 1
        let timeline = try WalkTimeline(route: Self.lRoute(), options: options)
        #expect(abs(timeline.durationSeconds - (72.0 / 2 + 2)) < 0.05)
        #expect(abs(timeline.frames.count - (Int(timeline.durationSeconds * 10) + 1)) <= 1)
        #expect(timeline.frames.first!.isPaused && timeline.frames.last!.isPaused)
        #expect(abs(timeline.frames.last!.distanceMeters - 72) < 0.1)
        // Positions advance monotonically along the route.
        for (a, b) in zip(timeline.frames, timeline.frames.dropFirst()) { #expect(b.distanceMeters >= a.distanceMeters - 1e-9) }
    }

    @Test func headingTurnsSmoothlyAndWithinTheRate() throws {
        var options = WalkTimeline.Options()
        options.framesPerSecond = 12
        options.maximumTurnRateDegreesPerSecond = 45
        let timeline = try WalkTimeline(route: Self.lRoute(), options: options)
        #expect(abs(timeline.frames[0].headingDegrees - 90) < 1)
        #expect(abs(timeline.frames.last!.headingDegrees - 0) < 1 || abs(timeline.frames.last!.headingDegrees - 360) < 1)
        let limit = 45.0 / 12 + 1e-9
        var largest = 0.0
        for (a, b) in zip(timeline.frames, timeline.frames.dropFirst()) {
            var d = abs(b.headingDegrees - a.headingDegrees)
            if d > 180 { d = 360 - d }
            largest = max(largest, d)
            #expect(d <= limit)
        }
        #expect(largest > 0.3, "the walk turns a corner, gradually")
    }

    /// A straight street whose panoramas are 2 mm off its line, alternately left and right (the
    /// direction of travel wavers by ±0.01°): the heading holds; with no steadiness it follows every wobble.
    @Test func headingHoldsOnAStreetWhosePanoramasWaver() throws {
        let route = try Self.route(through: (0..<10).map { i in (Double(i) * 10, i % 2 == 0 ? 0.002 : -0.002) })
        var options = WalkTimeline.Options()
        options.framesPerSecond = 10
        let steady = try WalkTimeline(route: route, options: options)
        options.headingSteadinessDegrees = 0
        let wavering = try WalkTimeline(route: route, options: options)
        let steadyHeadings = Set(steady.frames.map { $0.headingDegrees }), waveringHeadings = Set(wavering.frames.map { $0.headingDegrees })
        #expect(steadyHeadings.count == 1 && abs(steady.frames[0].headingDegrees - 90) < 0.05, "\(steadyHeadings.sorted())")
        #expect(waveringHeadings.count > 100, "\(waveringHeadings.count) headings")
        #expect(waveringHeadings.allSatisfy { abs($0 - 90) < 0.05 })
    }

    /// A street east whose panoramas step 7 m north within one 12 m step at a crossing, then go on
    /// east: the view looks down the street (it turned 31° towards the kerb through the short window
    /// alone), also where the jog comes before the legs are whole, and a right-angle corner is still
    /// turned fully.
    @Test func aJogIsLookedThroughAndACornerTurned() throws {
        let jog = try Self.route(through: (0..<6).map { (Double($0) * 12, 0) } + (0..<6).map { (72 + Double($0) * 12, 7) })
        func largestOffEast(_ options: WalkTimeline.Options) throws -> Double {
            try WalkTimeline(route: jog, options: options).frames.map { abs(WalkTimeline.signedDifference($0.headingDegrees, 90)) }.max()!
        }
        var shortOnly = WalkTimeline.Options()
        shortOnly.headingJogWindowMeters = shortOnly.headingLookAheadMeters
        let through = try largestOffEast(WalkTimeline.Options()), followed = try largestOffEast(shortOnly)
        #expect(through < 12, "\(through)° off the street through the jog")
        #expect(followed > 25, "\(followed)° off with the short window alone")
        // A jog 12 m from the start: the view eases from the short window into the long one as the leg
        // behind grows, with no jump where it becomes long enough to tell a jog.
        let early = try Self.route(through: [(0, 0), (12, 0)] + (0..<6).map { (24 + Double($0) * 12, 7) })
        let headings = try WalkTimeline(route: early).frames.map(\.headingDegrees)
        let largestStep = zip(headings, headings.dropFirst()).map { abs(WalkTimeline.signedDifference($1, $0)) }.max()!
        #expect(largestStep < 1.5, "\(largestStep)° in one frame")
        // The L-shaped walk still turns from east to north, within the turn rate.
        let corner = try WalkTimeline(route: Self.lRoute())
        #expect(abs(corner.frames[0].headingDegrees - 90) < 1 && abs(WalkTimeline.signedDifference(corner.frames.last!.headingDegrees, 0)) < 1)
    }

    @Test func lookAtTurnsTheViewTowardsThePlace() throws {
        let frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: 60.17, longitude: 24.95))
        var options = WalkTimeline.Options()
        // A place 20 m south of the third stop, on the right of a walker heading east.
        options.lookAt = try frame.geodetic(from: EastNorthUp(east: 24, north: -20, up: 0)).coordinate
        options.maximumTurnRateDegreesPerSecond = 3600
        let plain = try WalkTimeline(route: Self.lRoute())
        let looking = try WalkTimeline(route: Self.lRoute(), options: options)
        let i = looking.frames.firstIndex { $0.distanceMeters >= 24 }!
        #expect(abs(plain.frames[i].headingDegrees - 90) < 1)
        #expect(abs(looking.frames[i].headingDegrees - 180) < 5)
    }

    @Test func badOptionsNameTheValueAndRange() {
        var options = WalkTimeline.Options()
        options.speedMetersPerSecond = 0
        #expect(throws: PlaybackError.invalidParameter(name: "--speed-mps", value: "0.0", allowed: "0.1…50 metres per second (1.4 is walking pace)")) {
            try WalkTimeline(route: Self.lRoute(), options: options)
        }
        options = WalkTimeline.Options()
        options.framesPerSecond = .nan
        #expect(throws: PlaybackError.invalidParameter(name: "--fps", value: "nan", allowed: "1…120 frames per second")) {
            try WalkTimeline(route: Self.lRoute(), options: options)
        }
    }
}
