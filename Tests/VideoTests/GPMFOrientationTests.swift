import Foundation
import ProcessRunner
import Testing
import TestSupport
import Geodesy
@testable import Video
import VideoTestSupport

/// GoPro's orientation streams on a real file (max-heromode.mp4, a GoPro MAX in HERO mode with HyperSmooth:
/// `CORI`, `IORI` and `GRAV` at the frame rate): the values against exiftool's decoding of the same bytes,
/// the way they are combined against what the physics says, and the headings against the travel.
@Suite struct GPMFOrientationTests {
    typealias Q = SIMD4<Double>

    /// exiftool's `GoPro_CORI`, `GoPro_IORI` and `GoPro_GRAV` of a file, every sample in file order (`-ee -u`).
    static func exiftoolStreams(_ path: String) throws -> [String: [[Double]]] {
        let outcome = try ChildProcess.run("/usr/bin/exiftool", ["-ee", "-n", "-u", "-G3", "-s", path])
        #expect(outcome.exitStatus == 0, "\(String(decoding: outcome.stderr, as: UTF8.self))")
        var streams: [String: [[Double]]] = [:]
        for line in String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2 else { continue }
            let head = parts[0].split(separator: " ", omittingEmptySubsequences: true)
            guard head.count == 2, let key = ["GoPro_CORI": "CORI", "GoPro_IORI": "IORI", "GoPro_GRAV": "GRAV"][String(head[1])] else { continue }
            let values = parts[1].split(separator: " ").compactMap { Double($0) }
            let n = key == "GRAV" ? 3 : 4
            #expect(values.count % n == 0)
            for k in stride(from: 0, to: values.count - n + 1, by: n) { streams[key, default: []].append(Array(values[k..<(k + n)])) }
        }
        return streams
    }

    static func unit(_ v: [Double]) -> Q {
        let q = Q(v[0], v[1], v[2], v[3])
        return q / (q * q).sum().squareRoot()
    }

    static func quaternion(_ s: OrientationSample) -> Q { Q(s.w, s.x, s.y, s.z) }

    /// The angle between two rotations, degrees (sign-blind: q and −q are one rotation).
    static func degrees(_ a: Q, _ b: Q) -> Double { 2 * acos(min(1, abs((a * b).sum()))) * 180 / .pi }

    /// Mean angle of each sample from the midpoint of its neighbours, degrees: the shake left in a track.
    static func jitter(_ qs: [Q]) -> Double {
        var sum = 0.0
        for k in 1..<(qs.count - 1) {
            var b = qs[k + 1]
            if (qs[k - 1] * b).sum() < 0 { b = -b }
            let m = (qs[k - 1] + b) / ((qs[k - 1] + b) * (qs[k - 1] + b)).sum().squareRoot()
            sum += degrees(qs[k], m)
        }
        return sum / Double(qs.count - 2)
    }

    /// Mean angle of unit vectors from their mean direction, degrees.
    static func spread(_ vs: [SIMD3<Double>]) -> Double {
        let m = OrientationHeading.normalized(vs.reduce(SIMD3(0, 0, 0), +))
        return vs.reduce(0) { $0 + acos(min(1, (OrientationHeading.normalized($1) * m).sum())) * 180 / .pi } / Double(vs.count)
    }

    @Test func imageOrientationReadAndCombinedAsExiftoolDecodesIt() throws {
        let path = try GPMFTests.sharedFile("max-heromode.mp4")
        let telemetry = try #require(try VideoRecording(path: path).telemetry)
        let theirs = try Self.exiftoolStreams(path)
        let cori = try #require(theirs["CORI"]), iori = try #require(theirs["IORI"]), grav = try #require(theirs["GRAV"])
        // 316 samples of each (30 a second for 10.5 s), as exiftool reads them.
        #expect(cori.count == 316 && iori.count == 316 && grav.count == 316)
        #expect(telemetry.orientationSource == "GPMF CORI+IORI")
        try #require(telemetry.imageOrientation.count == iori.count && telemetry.orientation.count == cori.count && telemetry.gravity.count == grav.count)
        for k in cori.indices {
            let c = Self.unit(cori[k]), i = Self.unit(iori[k])
            // IORI as written, and the picture's orientation: conj(IORI ⊗ CORI), the product done here
            // by hand on exiftool's numbers.
            #expect(Self.degrees(Self.quaternion(telemetry.imageOrientation[k]), i) < 1e-3, "IORI \(k)")
            let expected = Q(1, -1, -1, -1) * OrientationHeading.multiply(i, c)
            #expect(Self.degrees(Self.quaternion(telemetry.orientation[k]), expected) < 1e-3, "orientation \(k)")
            // Gravity turned from the body's frame into the image's by IORI.
            let g = OrientationHeading.rotate(OrientationHeading.normalized(SIMD3(grav[k][0], grav[k][1], grav[k][2])), by: i)
            let ours = telemetry.gravity[k]
            #expect(abs(ours.x - g.x) < 1e-4 && abs(ours.y - g.y) < 1e-4 && abs(ours.z - g.z) < 1e-4, "GRAV \(k)")
        }
    }

    /// The sense of the quaternions, from the physics rather than from a convention: the camera stood on a
    /// slowly moving mount, so gravity seen from the reference frame must stay put, and HyperSmooth made the
    /// image steadier than the body, so the image's orientation must shake less than the camera's.
    @Test func combinationFollowsThePhysics() throws {
        let path = try GPMFTests.sharedFile("max-heromode.mp4")
        let telemetry = try #require(try VideoRecording(path: path).telemetry)
        let theirs = try Self.exiftoolStreams(path)
        let cori = try #require(theirs["CORI"]).map(Self.unit), iori = try #require(theirs["IORI"]).map(Self.unit)
        let grav = try #require(theirs["GRAV"]).map { SIMD3($0[0], $0[1], $0[2]) }
        let combined = telemetry.orientation.map(Self.quaternion)
        // Gravity (in the image's frame) carried into the reference frame by the combined orientation: one
        // direction within 1° on average. Carried by CORI as if it turned the body into the reference (the
        // other sense), it wanders three times as far.
        let inReference = zip(telemetry.gravity, combined).map { OrientationHeading.rotate(SIMD3($0.x, $0.y, $0.z), by: $1) }
        let wrongSense = zip(grav, cori).map { OrientationHeading.rotate($0, by: $1) }
        #expect(Self.spread(inReference) < 1, "\(Self.spread(inReference))°")
        #expect(Self.spread(wrongSense) > 2 * Self.spread(inReference), "\(Self.spread(wrongSense))° against \(Self.spread(inReference))°")
        // The stabilised picture shakes a tenth of the body; IORI taken the other way round doubles the shake.
        let body = Self.jitter(cori), picture = Self.jitter(combined)
        let backwards = Self.jitter(zip(cori, iori).map { OrientationHeading.multiply($0, Q(1, -1, -1, -1) * $1) })
        #expect(picture < body / 5 && backwards > body, "jitter: picture \(picture)°, body \(body)°, IORI reversed \(backwards)°")
    }

    /// The heading against the direction of travel along the straight path the walker kept (the travel
    /// turning 5° over 10 s): the orientation, tied to the travel once for the whole clip, must follow it at
    /// every quarter second within 4°. (Tied on the first 5 s only it picks the wrong sense of turning —
    /// 9° off by 9.5 s: a straight clip this short cannot say it.) With IORI the tie is tighter than with
    /// CORI alone (the body's shake left out).
    @Test func headingFollowsTheTravel() throws {
        let path = try GPMFTests.sharedFile("max-heromode.mp4")
        let telemetry = try #require(try VideoRecording(path: path).telemetry)
        let track = GPSTrack(telemetry.gps, maximumGapSeconds: TrackSampler.maximumGapSeconds)
        let model = try #require(OrientationHeading(telemetry: telemetry, track: track))
        #expect(model.isUsable, "\(model.note)")
        var worst = 0.0
        for time in stride(from: 0.5, through: 9.5, by: 0.25) {
            let travel = try #require(TrackSampler.travelHeading(at: time, track: track)), heading = try #require(model.heading(at: time))
            worst = max(worst, abs(remainder(heading - travel, 360)))
        }
        #expect(worst < 4, "worst difference \(worst)°")
        // The whole track: CORI+IORI agrees with the travel better than CORI alone.
        let streams = try Self.exiftoolStreams(path)
        let cori = try #require(streams["CORI"]).map(Self.unit), grav = try #require(streams["GRAV"])
        var bodyOnly = telemetry   // the body's orientation and gravity, as if the camera wrote no IORI
        bodyOnly.orientation = zip(telemetry.orientation, cori).map { s, c in OrientationSample(timeSeconds: s.timeSeconds, w: c[0], x: -c[1], y: -c[2], z: -c[3]) }
        bodyOnly.gravity = zip(telemetry.gravity, grav).map { s, g in GravitySample(timeSeconds: s.timeSeconds, x: g[0], y: g[1], z: g[2]) }
        let withIORI = model
        let withoutIORI = try #require(OrientationHeading(telemetry: bodyOnly, track: track))
        #expect(withIORI.isUsable && withIORI.agreement > withoutIORI.agreement, "\(withIORI.note) against \(withoutIORI.note)")
        #expect(withIORI.note.contains("GPMF CORI+IORI"))
    }

    /// GRAV turned into the image's frame: HERO mode levels the horizon, so the picture's roll (the angle of
    /// gravity about the lens axis, whichever way X points) stays near 0 while the body rolls by more than
    /// 10°; and the camera looks down about 7°, as its picture shows.
    @Test func tiltOfThePictureFromGravity() throws {
        let path = try GPMFTests.sharedFile("max-heromode.mp4")
        let telemetry = try #require(try VideoRecording(path: path).telemetry)
        let grav = try #require(try Self.exiftoolStreams(path)["GRAV"])
        let pictureRolls = telemetry.gravity.map { atan2($0.x, $0.y) * 180 / .pi }, bodyRolls = grav.map { atan2($0[0], $0[1]) * 180 / .pi }
        #expect(pictureRolls.allSatisfy { abs($0) < 1 }, "picture roll \(pictureRolls.min()!)…\(pictureRolls.max()!)°")
        #expect(bodyRolls.max()! - bodyRolls.min()! > 10, "body roll \(bodyRolls.min()!)…\(bodyRolls.max()!)°")
        let pitches = telemetry.gravity.compactMap { OrientationHeading.pitch(at: $0.timeSeconds, gravity: [$0]) }
        let pitch = pitches.reduce(0, +) / Double(pitches.count)
        #expect(pitches.count == telemetry.gravity.count && pitch > -10 && pitch < -5, "mean pitch \(pitch)°")
    }

    /// The sense of the pitch is the renderer's: gravity seen by a camera posed with a GPano pitch (and any
    /// roll, heading; Geodesy's `EquirectangularFrame`, which views and labels use) gives that pitch back.
    @Test(arguments: [(0.0, 0.0), (-7.0, 0.0), (0.0, 12.0), (15.0, -20.0), (-30.0, 45.0), (5.0, 170.0)])
    func pitchHasTheRenderersSense(pitch: Double, roll: Double) throws {
        for heading in [0.0, 75.0, 200.0] {
            let frame = EquirectangularFrame(headingDegrees: heading, pitchDegrees: pitch, rollDegrees: roll)
            // Gravity (world down) along the camera's Y (down) and Z (forward).
            let g = GravitySample(timeSeconds: 0, x: -frame.right.up, y: frame.up.up, z: -frame.forward.up)
            let ours = try #require(OrientationHeading.pitch(at: 0, gravity: [g]))
            #expect(abs(ours - pitch) < 1e-9, "heading \(heading), roll \(roll): \(ours) for \(pitch)")
        }
        #expect(OrientationHeading.pitch(at: 5, gravity: [GravitySample(timeSeconds: 0, x: 0, y: 1, z: 0)]) == nil)
    }

    /// The frames planned on the real file carry that pitch into their GPano pose.
    @Test func framesCarryThePitch() throws {
        let recording = try VideoRecording(path: try GPMFTests.sharedFile("max-heromode.mp4"))
        let plan = try TrackSampler.plan(recording, everyMeters: 2)
        #expect(plan.frames.count >= 6)
        for frame in plan.frames {
            let pitch = try #require(frame.pitchDegrees)
            #expect(pitch > -12 && pitch < -4, "\(frame.timeSeconds) s: pitch \(pitch)°")
            let pano = try #require(FrameExtractor.metadata(for: frame, recording: recording, width: 848, height: 424).panorama)
            #expect(abs(pano.posePitchDegrees! - pitch) < 0.006 && pano.poseRollDegrees == 0)
            #expect(frame.headingSource == "orientation")
        }
    }
}
