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

    @Test func headingAgainstTheTravel() throws {
        let path = try GPMFTests.sharedFile("max-heromode.mp4")
        let recording = try VideoRecording(path: path)
        let telemetry = try #require(recording.telemetry)
        let track = GPSTrack(telemetry.gps, maximumGapSeconds: TrackSampler.maximumGapSeconds)
        let theirs = try Self.exiftoolStreams(path)
        let cori = try #require(theirs["CORI"]).map(Self.unit)
        var variants: [(String, Telemetry)] = [("combined", telemetry)]
        var bodyOnly = telemetry
        bodyOnly.orientation = zip(telemetry.orientation, cori).map { s, c in OrientationSample(timeSeconds: s.timeSeconds, w: c[0], x: -c[1], y: -c[2], z: -c[3]) }
        variants.append(("CORI only", bodyOnly))
        var old = telemetry
        old.orientation = zip(telemetry.orientation, cori).map { s, c in OrientationSample(timeSeconds: s.timeSeconds, w: c[0], x: c[1], y: c[2], z: c[3]) }
        variants.append(("CORI raw (old)", old))
        for (name, t) in variants {
            let model = try #require(OrientationHeading(telemetry: t, track: track))
            print("HEADING \(name): usable \(model.isUsable) agreement \(model.agreement) offset \(model.offsetDegrees) sense \(model.sense) axis \(model.axis) — \(model.note)")
            var line = ""
            for time in stride(from: 0.0, through: 10.5, by: 0.5) {
                let travel = TrackSampler.travelHeading(at: time, track: track)
                let yaw = model.yaw(at: time)
                line += String(format: " t%.1f tr%.1f yaw%.1f;", time, travel ?? -1, yaw ?? -999)
            }
            print("HEADING \(name):\(line)")
        }
        for s in telemetry.gps where Int(s.timeSeconds * 18) % 9 == 0 { print(String(format: "GPS %.2f %.7f %.7f v%.2f", s.timeSeconds, s.latitude, s.longitude, s.speedMetersPerSecond ?? -1)) }
    }

    /// GRAV turned into the image's frame: HERO mode levels the horizon, so the picture's roll stays near 0
    /// while the body rolls by more than 10°; and the camera looks down about 7°, as its picture shows.
    @Test func tiltOfThePictureFromGravity() throws {
        let path = try GPMFTests.sharedFile("max-heromode.mp4")
        let telemetry = try #require(try VideoRecording(path: path).telemetry)
        let grav = try #require(try Self.exiftoolStreams(path)["GRAV"])
        let picture = telemetry.gravity.compactMap { OrientationHeading.tilt(at: $0.timeSeconds, gravity: [$0]) }
        let body = grav.compactMap { g in OrientationHeading.tilt(at: 0, gravity: [GravitySample(timeSeconds: 0, x: g[0], y: g[1], z: g[2])]) }
        let pictureRolls = picture.map { $0.roll }, bodyRolls = body.map { $0.roll }
        #expect(pictureRolls.allSatisfy { abs($0) < 1 }, "picture roll \(pictureRolls.min()!)…\(pictureRolls.max()!)°")
        #expect(bodyRolls.max()! - bodyRolls.min()! > 10, "body roll \(bodyRolls.min()!)…\(bodyRolls.max()!)°")
        let pitch = picture.map { $0.pitch }.reduce(0, +) / Double(picture.count)
        #expect(pitch > -10 && pitch < -5, "mean pitch \(pitch)°")
    }

    /// The sense of pitch and roll is the renderer's: gravity seen by a camera posed with a GPano pitch and
    /// roll (Geodesy's `EquirectangularFrame`, which views and labels use) gives that pitch and roll back.
    @Test(arguments: [(0.0, 0.0), (-7.0, 0.0), (0.0, 12.0), (15.0, -20.0), (-30.0, 45.0), (5.0, 170.0)])
    func tiltHasTheRenderersSense(pitch: Double, roll: Double) throws {
        for heading in [0.0, 75.0, 200.0] {
            let frame = EquirectangularFrame(headingDegrees: heading, pitchDegrees: pitch, rollDegrees: roll)
            // Gravity (world down) in GoPro's axes: X right, Y down, Z forward.
            let g = GravitySample(timeSeconds: 0, x: -frame.right.up, y: frame.up.up, z: -frame.forward.up)
            let tilt = try #require(OrientationHeading.tilt(at: 0, gravity: [g]))
            #expect(abs(tilt.pitch - pitch) < 1e-9 && abs(tilt.roll - roll) < 1e-9, "heading \(heading): \(tilt) for \(pitch), \(roll)")
        }
        #expect(OrientationHeading.tilt(at: 5, gravity: [GravitySample(timeSeconds: 0, x: 0, y: 1, z: 0)]) == nil)
    }

    /// The frames planned on the real file carry that tilt into their GPano pose.
    @Test func framesCarryTheTilt() throws {
        let recording = try VideoRecording(path: try GPMFTests.sharedFile("max-heromode.mp4"))
        let plan = try TrackSampler.plan(recording, everyMeters: 2)
        #expect(plan.frames.count >= 6)
        for frame in plan.frames {
            let pitch = try #require(frame.pitchDegrees), roll = try #require(frame.rollDegrees)
            #expect(pitch > -12 && pitch < -4 && abs(roll) < 1, "\(frame.timeSeconds) s: pitch \(pitch)°, roll \(roll)°")
            let pano = try #require(FrameExtractor.metadata(for: frame, recording: recording, width: 848, height: 424).panorama)
            #expect(abs(pano.posePitchDegrees! - pitch) < 0.006 && abs(pano.poseRollDegrees! - roll) < 0.006)
            #expect(frame.headingSource == "orientation")
        }
    }
}
