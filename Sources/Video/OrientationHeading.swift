import Foundation

/// Headings from a camera's orientation track (GoPro `CORI`, the camera's rotation since the recording
/// started, combined with `IORI`, the stabilised image's rotation against the body, so that the heading is
/// the picture's and not the shaking body's; with `GRAV`, gravity, in the picture's frame: see
/// ``GPMFTelemetry/Orientations``).
///
/// The orientation knows how the camera turned but not where north is, and camera makers differ in
/// their axes; so the track is tied to the GPS instead of to a convention: the yaw of a horizontal camera
/// axis about the vertical (gravity, carried into the start frame) is compared with the direction of
/// travel wherever the camera moves faster than ``minimumSpeedMetersPerSecond``. The sense (turning
/// clockwise or anticlockwise) and the offset that agree best are kept when the agreement is consistent
/// (the mean resultant length of the differences at least ``minimumAgreement``); then
/// heading = sense × yaw + offset at every frame, also while standing or turning, where the travel says
/// nothing. The panorama's centre is thereby taken to face the travel on average, as for a camera on a
/// car, a helmet or a pole.
struct OrientationHeading: Sendable {
    /// Moving faster than this (m/s) makes a sample a witness of the travel direction.
    static let minimumSpeedMetersPerSecond = 1.0
    /// The agreement (0…1, 1 = a constant offset) needed to use the orientation.
    static let minimumAgreement = 0.8
    /// At least this many witnesses, spread over at least this many seconds, are needed.
    static let minimumWitnesses = 5, minimumWitnessSeconds = 3.0

    let samples: [OrientationSample]
    /// Camera axis whose yaw is followed, the start frame's up, and a horizontal basis.
    let axis: SIMD3<Double>, up: SIMD3<Double>, east: SIMD3<Double>, north: SIMD3<Double>
    /// +1 or −1, and the offset in degrees.
    var sense = 1.0, offsetDegrees = 0.0
    /// The agreement found (mean resultant length).
    var agreement = 0.0
    var isUsable = false
    var note: String

    /// The model of `telemetry`'s orientation against the travel along `track`; nil without orientation.
    init?(telemetry: Telemetry, track: GPSTrack) {
        guard telemetry.orientation.count >= 2 else { return nil }
        samples = telemetry.orientation.sorted { $0.timeSeconds < $1.timeSeconds }
        let source = telemetry.orientationSource ?? "orientation"
        // Gravity in the camera frame (mean), and carried into the start frame by the orientation.
        var gCamera = SIMD3<Double>(0, 0, 0), gStart = SIMD3<Double>(0, 0, 0)
        for g in telemetry.gravity {
            let v = SIMD3(g.x, g.y, g.z)
            gCamera += v
            if let q = Self.interpolate(samples, at: g.timeSeconds) { gStart += Self.rotate(v, by: q) }
        }
        if telemetry.gravity.isEmpty {
            // Without gravity, the camera is taken upright in its own frame's −Y (GoPro's axes: Y vertical).
            gCamera = SIMD3(0, 1, 0)
            gStart = gCamera
        }
        let upStart = -Self.normalized(gStart)
        let gc = Self.normalized(gCamera)
        // The camera axis most perpendicular to gravity.
        let axes = [SIMD3<Double>(1, 0, 0), SIMD3(0, 1, 0), SIMD3(0, 0, 1)]
        axis = axes.min { abs(($0 * gc).sum()) < abs(($1 * gc).sum()) }!
        up = upStart
        let reference = abs(upStart.x) < 0.9 ? SIMD3<Double>(1, 0, 0) : SIMD3(0, 1, 0)
        east = Self.normalized(reference - upStart * (reference * upStart).sum())
        north = Self.cross(upStart, east)
        note = ""
        // Witnesses: travel directions at samples of the track where it moves.
        var yaws: [Double] = [], bearings: [Double] = [], times: [Double] = []
        for segment in track.segments {
            let speeds = TrackSampler.speeds(segment)
            for (k, s) in segment.enumerated() where speeds[k] >= Self.minimumSpeedMetersPerSecond {
                guard let bearing = TrackSampler.travelHeading(at: s.timeSeconds, track: track), let yaw = yaw(at: s.timeSeconds) else { continue }
                yaws.append(yaw)
                bearings.append(bearing)
                times.append(s.timeSeconds)
            }
        }
        guard yaws.count >= Self.minimumWitnesses, let first = times.first, let last = times.last, last - first >= Self.minimumWitnessSeconds else {
            note = "heading from the direction of travel (\(source) read, but the camera moved too little to tie it to the travel)"
            return
        }
        for candidate in [1.0, -1.0] {
            var c = 0.0, s = 0.0
            for (yaw, bearing) in zip(yaws, bearings) {
                let d = (bearing - candidate * yaw) * .pi / 180
                c += cos(d)
                s += sin(d)
            }
            let n = Double(yaws.count)
            let r = (c * c + s * s).squareRoot() / n
            if r > agreement {
                agreement = r
                sense = candidate
                var offset = atan2(s, c) * 180 / .pi
                if offset < 0 { offset += 360 }
                offsetDegrees = offset
            }
        }
        let spread = agreement < 1 ? (-2 * log(max(agreement, 1e-9))).squareRoot() * 180 / .pi : 0
        if agreement >= Self.minimumAgreement {
            isUsable = true
            note = String(format: "heading from %@ turned onto the travel (offset %.1f°, spread ±%.1f° over %d moving samples)",
                          source, offsetDegrees, spread, yaws.count)
        } else {
            note = String(format: "heading from the direction of travel (%@ does not follow the travel consistently: agreement %.2f, spread ±%.0f°)",
                          source, agreement, spread)
        }
    }

    /// The heading at `t`, degrees in [0, 360), when the model is usable.
    func heading(at t: Double) -> Double? {
        guard isUsable, let yaw = yaw(at: t) else { return nil }
        var h = (sense * yaw + offsetDegrees).truncatingRemainder(dividingBy: 360)
        if h < 0 { h += 360 }
        return h >= 360 ? 0 : h
    }

    /// The yaw of the followed axis in the start frame, degrees (anticlockwise from `east` about `up`).
    func yaw(at t: Double) -> Double? {
        guard let q = Self.interpolate(samples, at: t) else { return nil }
        let v = Self.rotate(axis, by: q)
        let e = (v * east).sum(), n = (v * north).sum()
        guard e * e + n * n > 1e-4 else { return nil }
        return atan2(n, e) * 180 / .pi
    }

    /// The pitch of the picture's centre above the horizon at `t`, degrees (GPano's `PosePitchDegrees`),
    /// from gravity in the picture's frame, interpolated between the samples around `t`; nil without
    /// gravity or more than a second from the nearest sample.
    ///
    /// GoPro's axes: Y down, Z out of the (front) lens; checked on max-heromode.mp4, where the upright
    /// camera reads `GRAV` ≈ (0, 0.99, 0.12) and its picture looks about 7° down (the path's vanishing point
    /// 55 of 240 pixels above the centre). The roll is not given: its sign depends on whether X points right
    /// or left, which no file here shows (the frame's roll stays GPano's 0).
    static func pitch(at t: Double, gravity: [GravitySample]) -> Double? {
        guard let first = gravity.first, let last = gravity.last, t >= first.timeSeconds - 1, t <= last.timeSeconds + 1 else { return nil }
        var low = 0, high = gravity.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if gravity[mid].timeSeconds <= t { low = mid } else { high = mid }
        }
        let a = gravity[low], b = gravity[high]
        guard min(abs(t - a.timeSeconds), abs(t - b.timeSeconds)) <= 1 else { return nil }
        let f = b.timeSeconds > a.timeSeconds ? max(0, min(1, (t - a.timeSeconds) / (b.timeSeconds - a.timeSeconds))) : 0
        let g = normalized(SIMD3(a.x, a.y, a.z) * (1 - f) + SIMD3(b.x, b.y, b.z) * f)
        // World up in the picture's frame is −g: the centre (Z) rises above the horizon by asin(−g·Z).
        return asin(max(-1, min(1, -g.z))) * 180 / .pi
    }

    /// The orientation at `t` (normalised linear interpolation between the samples around it; held at the ends).
    static func interpolate(_ samples: [OrientationSample], at t: Double) -> SIMD4<Double>? {
        guard let first = samples.first, let last = samples.last else { return nil }
        if t <= first.timeSeconds { return SIMD4(first.w, first.x, first.y, first.z) }
        if t >= last.timeSeconds { return SIMD4(last.w, last.x, last.y, last.z) }
        var low = 0, high = samples.count - 1
        while high - low > 1 {
            let mid = (low + high) / 2
            if samples[mid].timeSeconds <= t { low = mid } else { high = mid }
        }
        let a = samples[low], b = samples[high]
        let f = (t - a.timeSeconds) / max(b.timeSeconds - a.timeSeconds, 1e-9)
        var qb = SIMD4(b.w, b.x, b.y, b.z)
        let qa = SIMD4(a.w, a.x, a.y, a.z)
        if (qa * qb).sum() < 0 { qb = -qb }
        let q = qa * (1 - f) + qb * f
        let n = (q * q).sum().squareRoot()
        return n > 0 ? q / n : nil
    }

    /// `v` rotated by the unit quaternion `q` (w, x, y, z).
    static func rotate(_ v: SIMD3<Double>, by q: SIMD4<Double>) -> SIMD3<Double> {
        let u = SIMD3(q.y, q.z, q.w), w = q.x
        let t = cross(u, v) * 2
        return v + t * w + cross(u, t)
    }

    /// The Hamilton product `a ⊗ b` of quaternions (w, x, y, z): `b`'s rotation, then `a`'s.
    static func multiply(_ a: SIMD4<Double>, _ b: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4(a[0] * b[0] - a[1] * b[1] - a[2] * b[2] - a[3] * b[3],
              a[0] * b[1] + a[1] * b[0] + a[2] * b[3] - a[3] * b[2],
              a[0] * b[2] - a[1] * b[3] + a[2] * b[0] + a[3] * b[1],
              a[0] * b[3] + a[1] * b[2] - a[2] * b[1] + a[3] * b[0])
    }

    /// The inverse rotation of a unit quaternion (w, x, y, z).
    static func conjugate(_ q: SIMD4<Double>) -> SIMD4<Double> { SIMD4(q[0], -q[1], -q[2], -q[3]) }

    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    static func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> {
        let n = (v * v).sum().squareRoot()
        return n > 0 ? v / n : SIMD3(0, 0, 1)
    }
}
