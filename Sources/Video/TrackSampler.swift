import Foundation

/// One frame to take from a recording: when, where, facing where.
public struct PlannedFrame: Sendable, Hashable {
    /// Seconds from the start of the recording.
    public var timeSeconds: Double
    /// The position interpolated in time between the GPS samples around it, WGS84 degrees.
    public var latitude: Double, longitude: Double
    /// Altitude, metres, when the GPS gave it.
    public var altitudeMeters: Double?
    /// Heading of the frame's centre column, degrees clockwise from north; nil when neither the
    /// orientation nor the travel says it (a recording that never moved).
    public var headingDegrees: Double?
    /// `orientation` (the camera's orientation track, turned to match the travel), `travel` or `none`.
    public var headingSource: String
    /// Pitch of the frame's centre above the horizon, degrees (GPano's `PosePitchDegrees`), from the gravity
    /// the camera measured (GoPro `GRAV`); nil without it.
    public var pitchDegrees: Double?
    /// Distance along the track from its start, metres.
    public var distanceMeters: Double
    /// UTC of the frame, when the recording's clock is known.
    public var captureTime: Date?
}

/// Which frames a recording gives: one every ``everyMeters`` along its GPS track.
public struct SamplingPlan: Sendable {
    /// The frames, in time order.
    public var frames: [PlannedFrame]
    /// The spacing asked for, metres.
    public var everyMeters: Double
    /// The distance travelled (speed integrated over the GPS-covered time, stops excluded), metres.
    public var travelledMeters: Double
    /// Video time without GPS (before the first fix, after the last, gaps over ``TrackSampler/maximumGapSeconds``).
    public var secondsWithoutGPS: Double
    /// The video frames in that time, skipped.
    public var videoFramesWithoutGPS: Int
    /// Stops (at least ``TrackSampler/minimumStopSeconds`` below ``TrackSampler/stopSpeedMetersPerSecond``), each
    /// collapsed to at most one frame.
    public var stops: Int
    /// How the frames' headings were found, for the report.
    public var headingNote: String
    /// The track the positions come from (for placing a frame at the time it was actually decoded).
    public var track: GPSTrack
    /// The heading model (nil: travel only).
    var orientation: OrientationHeading?
    /// Gravity in the picture's frame, in time order (for the frames' tilt).
    var gravity: [GravitySample] = []
}

/// The GPS samples of a recording, split where GPS is missing, with time interpolation.
public struct GPSTrack: Sendable {
    /// Runs of samples with no gap over ``TrackSampler/maximumGapSeconds``.
    public var segments: [[GPSSample]]

    init(_ samples: [GPSSample], maximumGapSeconds: Double) {
        var segments: [[GPSSample]] = []
        var current: [GPSSample] = []
        for s in samples {
            if let last = current.last, s.timeSeconds - last.timeSeconds > maximumGapSeconds {
                segments.append(current)
                current = []
            }
            if let last = current.last, s.timeSeconds <= last.timeSeconds { continue }
            current.append(s)
        }
        if !current.isEmpty { segments.append(current) }
        self.segments = segments
    }

    /// The position at `t`, linear in time between the samples around it; nil outside the segments (a
    /// frame within half a sample interval of a segment's end takes the end).
    public func position(at t: Double) -> (latitude: Double, longitude: Double, altitude: Double?)? {
        for segment in segments {
            guard let first = segment.first, let last = segment.last else { continue }
            let slack = segment.count > 1 ? (last.timeSeconds - first.timeSeconds) / Double(segment.count - 1) / 2 : 0.5
            guard t >= first.timeSeconds - slack, t <= last.timeSeconds + slack else { continue }
            if t <= first.timeSeconds { return (first.latitude, first.longitude, first.altitudeMeters) }
            if t >= last.timeSeconds { return (last.latitude, last.longitude, last.altitudeMeters) }
            // Binary search for the pair around t.
            var low = 0, high = segment.count - 1
            while high - low > 1 {
                let mid = (low + high) / 2
                if segment[mid].timeSeconds <= t { low = mid } else { high = mid }
            }
            let a = segment[low], b = segment[high]
            let f = (t - a.timeSeconds) / (b.timeSeconds - a.timeSeconds)
            var dl = b.longitude - a.longitude
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            var longitude = a.longitude + f * dl
            if longitude >= 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            let altitude = a.altitudeMeters.flatMap { x in b.altitudeMeters.map { x + f * ($0 - x) } }
            return (a.latitude + f * (b.latitude - a.latitude), longitude, altitude)
        }
        return nil
    }
}

/// Plans the frames of a recording (mapillary_tools samples every 3 m the same way):
///
/// 1. The GPS samples are split into segments where a gap over ``maximumGapSeconds`` leaves no position;
///    video time outside the segments is skipped and counted.
/// 2. Along each segment an odometer integrates the ground speed (the GPS's own Doppler speed where it
///    gives one, else the speed over ±``speedWindowSeconds`` of track); speeds under
///    ``stopSpeedMetersPerSecond`` count as standing still, so GPS wander at a traffic light adds nothing
///    and a stop gives at most one frame.
/// 3. A frame is taken each time the odometer passes a multiple of the spacing, at the nearest video
///    frame; its position is interpolated in time between the GPS samples around it.
/// 4. Heading: the camera's orientation track (GoPro `CORI` with `IORI`) turned onto the travel direction
///    (``OrientationHeading``) when it follows the travel consistently, else the direction of travel
///    over ±3 m of track; pitch from the gravity the camera measured (GoPro `GRAV`).
public enum TrackSampler {
    /// A gap between GPS samples longer than this leaves the time between without positions, seconds.
    public static let maximumGapSeconds = 3.0
    /// Slower than this counts as standing still, metres per second.
    public static let stopSpeedMetersPerSecond = 0.5
    /// A stop is counted when it lasts at least this long, seconds.
    public static let minimumStopSeconds = 2.0
    /// Half the window over which a speed is derived from positions when the GPS gives none, seconds.
    public static let speedWindowSeconds = 2.5
    /// Half the stretch of track the travel direction is measured over, metres.
    public static let travelBaseMeters = 3.0
    /// The allowed spacing, metres.
    public static let everyMetersRange = 0.5...1000.0

    /// The frames of `recording` every `everyMeters` (0.5…1000).
    /// - Throws: `VideoError.invalidParameter` for a spacing out of range, `.noGPS` without positions.
    public static func plan(_ recording: VideoRecording, everyMeters: Double) throws(VideoError) -> SamplingPlan {
        guard everyMeters.isFinite, everyMetersRange.contains(everyMeters) else {
            throw .invalidParameter(name: "--video-every-meters", value: "\(everyMeters)", allowed: "0.5…1000 metres")
        }
        guard let telemetry = recording.telemetry, !telemetry.gps.isEmpty else {
            throw .noGPS(path: recording.path, detail: recording.telemetryProblem ?? "no positions")
        }
        let duration = recording.durationSeconds
        let fps = recording.framesPerSecond > 0 ? recording.framesPerSecond : 30
        let inVideo = telemetry.gps.filter { $0.timeSeconds >= -0.5 && $0.timeSeconds <= duration + 0.5 }
        let intervals = zip(inVideo, inVideo.dropFirst()).map { $1.timeSeconds - $0.timeSeconds }.sorted()
        let median = intervals.isEmpty ? 1 : intervals[intervals.count / 2]
        let track = GPSTrack(inVideo, maximumGapSeconds: max(maximumGapSeconds, 5 * median))
        var frames: [PlannedFrame] = []
        var travelled = 0.0, stops = 0
        // Per segment: the odometer at each sample.
        var odometers: [[Double]] = []
        for segment in track.segments {
            let end = min(duration, segment.last!.timeSeconds)
            let speeds = Self.speeds(segment)
            var odometer = [0.0]
            var still = 0.0
            for k in 1..<max(1, segment.count) where segment.count > 1 {
                let dt = segment[k].timeSeconds - segment[k - 1].timeSeconds
                let v0 = speeds[k - 1] < stopSpeedMetersPerSecond ? 0 : speeds[k - 1]
                let v1 = speeds[k] < stopSpeedMetersPerSecond ? 0 : speeds[k]
                odometer.append(odometer[k - 1] + (v0 + v1) / 2 * dt)
                if v0 == 0 && v1 == 0 { still += dt } else {
                    if still >= minimumStopSeconds { stops += 1 }
                    still = 0
                }
            }
            odometers.append(odometer)
            travelled += odometer.last ?? 0
            // A frame each time the odometer passes a multiple of the spacing (the first at the segment's start).
            var next = 0.0
            for k in segment.indices {
                while odometer[k] >= next {
                    var t = segment[k].timeSeconds
                    if k > 0, odometer[k] > odometer[k - 1] {
                        let f = (next - odometer[k - 1]) / (odometer[k] - odometer[k - 1])
                        t = segment[k - 1].timeSeconds + max(0, min(1, f)) * (segment[k].timeSeconds - segment[k - 1].timeSeconds)
                    }
                    // The nearest video frame inside the video.
                    t = min(max((t * fps).rounded() / fps, 0), max(0, duration - 0.5 / fps))
                    if let position = track.position(at: t), frames.last.map({ t - $0.timeSeconds > 0.5 / fps }) ?? true {
                        frames.append(PlannedFrame(timeSeconds: t, latitude: position.latitude, longitude: position.longitude,
                                                   altitudeMeters: position.altitude, headingDegrees: nil, headingSource: "none",
                                                   distanceMeters: Double(frames.count) * everyMeters, captureTime: nil))
                    }
                    next += everyMeters
                }
            }
            // The segment's end gets a frame when it lies more than half the spacing past the last one
            // (a walk along the frames then reaches where the recording stopped).
            if let last = odometer.last, last - (next - everyMeters) > everyMeters / 2 {
                let t = min(max((end * fps).rounded(.down) / fps, 0), max(0, duration - 0.5 / fps))
                if let position = track.position(at: t), frames.last.map({ t - $0.timeSeconds > 0.5 / fps }) ?? true {
                    frames.append(PlannedFrame(timeSeconds: t, latitude: position.latitude, longitude: position.longitude,
                                               altitudeMeters: position.altitude, headingDegrees: nil, headingSource: "none",
                                               distanceMeters: last, captureTime: nil))
                }
            }
        }
        // Video frames with no position (before the first fix, after the last, in gaps), counted frame by frame.
        let videoFrames = max(1, Int((duration * fps).rounded()))
        let withoutFrames = (0..<videoFrames).reduce(0) { $0 + (track.position(at: Double($1) / fps) == nil ? 1 : 0) }
        let without = Double(withoutFrames) / fps
        let orientation = OrientationHeading(telemetry: telemetry, track: track)
        var plan = SamplingPlan(frames: frames, everyMeters: everyMeters, travelledMeters: travelled, secondsWithoutGPS: without,
                                videoFramesWithoutGPS: withoutFrames, stops: stops, headingNote: "",
                                track: track, orientation: orientation?.isUsable == true ? orientation : nil)
        plan.headingNote = orientation?.note ?? "heading from the direction of travel (no orientation track)"
        plan.gravity = telemetry.gravity.sorted { $0.timeSeconds < $1.timeSeconds }
        for k in plan.frames.indices {
            plan.frames[k] = plan.placed(plan.frames[k], at: plan.frames[k].timeSeconds, start: recording.captureStartUTC)
            plan.frames[k].distanceMeters = Self.odometer(at: plan.frames[k].timeSeconds, track: track, odometers: odometers)
        }
        return plan
    }

    /// Ground speeds at each sample: the GPS's own where every sample has one, else derived from the
    /// track over ±``speedWindowSeconds``.
    static func speeds(_ segment: [GPSSample]) -> [Double] {
        if segment.allSatisfy({ $0.speedMetersPerSecond != nil }) { return segment.map { max(0, $0.speedMetersPerSecond!) } }
        return segment.indices.map { k in
            var a = k, b = k
            while a > 0 && segment[k].timeSeconds - segment[a].timeSeconds < speedWindowSeconds { a -= 1 }
            while b < segment.count - 1 && segment[b].timeSeconds - segment[k].timeSeconds < speedWindowSeconds { b += 1 }
            let dt = segment[b].timeSeconds - segment[a].timeSeconds
            return dt > 0 ? TrackGeometry.distanceMeters(segment[a], segment[b]) / dt : 0
        }
    }

    static func odometer(at t: Double, track: GPSTrack, odometers: [[Double]]) -> Double {
        var before = 0.0
        for (segment, odometer) in zip(track.segments, odometers) {
            if t > segment.last!.timeSeconds { before += odometer.last ?? 0; continue }
            guard let k = segment.firstIndex(where: { $0.timeSeconds >= t }) else { break }
            if k == 0 { return before }
            let f = (t - segment[k - 1].timeSeconds) / (segment[k].timeSeconds - segment[k - 1].timeSeconds)
            return before + odometer[k - 1] + f * (odometer[k] - odometer[k - 1])
        }
        return before
    }

    /// The travel direction at `t`: the bearing between the track's positions about ``travelBaseMeters``
    /// before and after (found by walking the samples), nil when the track there is shorter than 1 m.
    static func travelHeading(at t: Double, track: GPSTrack) -> Double? {
        guard let segment = track.segments.first(where: { t >= $0.first!.timeSeconds - 0.5 && t <= $0.last!.timeSeconds + 0.5 }),
              let here = track.position(at: t) else { return nil }
        let k = segment.firstIndex(where: { $0.timeSeconds >= t }) ?? segment.count - 1
        func walk(_ step: Int) -> (Double, Double) {
            var i = k
            var point = (here.latitude, here.longitude)
            while i >= 0 && i < segment.count {
                point = (segment[i].latitude, segment[i].longitude)
                if TrackGeometry.distanceMeters(latitude: here.latitude, longitude: here.longitude, latitude2: point.0, longitude2: point.1)
                    >= travelBaseMeters { break }
                i += step
            }
            return point
        }
        let before = walk(-1), after = walk(1)
        guard TrackGeometry.distanceMeters(latitude: before.0, longitude: before.1, latitude2: after.0, longitude2: after.1) >= 1 else { return nil }
        return TrackGeometry.bearingDegrees(latitude: before.0, longitude: before.1, latitude2: after.0, longitude2: after.1)
    }
}

extension SamplingPlan {
    /// `frame` moved to the time its picture was actually decoded at: position, heading, capture time.
    public func placed(_ frame: PlannedFrame, at t: Double, start: Date?) -> PlannedFrame {
        var f = frame
        f.timeSeconds = t
        if let p = track.position(at: t) { (f.latitude, f.longitude, f.altitudeMeters) = (p.latitude, p.longitude, p.altitude) }
        if let orientation, let heading = orientation.heading(at: t) {
            (f.headingDegrees, f.headingSource) = (heading, "orientation")
        } else if let heading = TrackSampler.travelHeading(at: t, track: track) {
            (f.headingDegrees, f.headingSource) = (heading, "travel")
        } else {
            (f.headingDegrees, f.headingSource) = (nil, "none")
        }
        f.pitchDegrees = OrientationHeading.pitch(at: t, gravity: gravity)
        f.captureTime = start.map { $0.addingTimeInterval(t) }
        return f
    }
}
