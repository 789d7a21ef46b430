import Foundation
import Imaging
import ProcessRunner
import Testing
import TestSupport
@testable import Video
import VideoTestSupport

/// The other ways a video gets its positions (CAMM, the Insta360 trailer, a GPX or NMEA log beside it with
/// a clock offset), chapters read as one recording, spherical metadata, and the sampling along the track.
@Suite struct TelemetrySourcesTests {
    static let start = Date(timeIntervalSince1970: 1_715_508_930)   // 2024-05-12T10:15:30Z

    /// A straight walk north from (60.17, 24.94) at `speed` m/s, `count` fixes `interval` s apart.
    static func walk(count: Int, interval: Double = 1, speed: Double = 1.5, from start: Date = start) -> [TestFix] {
        (0..<count).map { k in
            TestFix(latitude: 60.17 + Double(k) * interval * speed / 111_320, longitude: 24.94, altitudeMeters: 15,
                    speedMetersPerSecond: speed, utc: start.addingTimeInterval(Double(k) * interval))
        }
    }

    static func requireFFmpeg() throws {
        guard FileManager.default.isExecutableFile(atPath: TestRecordings.ffmpeg) else {
            try Test.cancel("skipped: no \(TestRecordings.ffmpeg) to encode the test video")
        }
    }

    /// A small video from FFmpeg's test source: `width`x`height`, `seconds` long at 2 fps.
    static func video(_ path: String, width: Int = 256, height: Int = 128, seconds: Int = 10, creationTime: String = "2024-05-12T10:15:30Z") throws {
        try TestRecordings.runFFmpeg(["-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=2", "-t", "\(seconds)", "-c:v", "libx264",
                                      "-preset", "ultrafast", "-pix_fmt", "yuv420p", "-metadata", "creation_time=\(creationTime)", path])
    }

    @Test func cammTrackGivesPositionsTimeAndSpeed() throws {
        let fixes = Self.walk(count: 20, interval: 0.5, speed: 3)
        let samples = fixes.enumerated().map { k, f in
            MP4Writer.Sample(bytes: k % 2 == 0 ? CAMMWriter.gps(f, bearingDegrees: 0) : CAMMWriter.position(f), duration: 500)
        }
        let file = try Lookaround.temporaryDirectory().appendingPathComponent("camm.mp4").path
        try Data(MP4Writer.movie(with: .init(format: "camm", handler: "camm", name: "CameraMetadataMotionHandler", samples: samples),
                                 creationTime: Self.start)).write(to: URL(fileURLWithPath: file))
        let movie = try MP4Movie(contentsOf: file)
        let track = try #require(movie.tracks.first { $0.format == "camm" })
        let t = try CAMMTelemetry.read(track: track, reader: try VideoFileReader(path: file), creationTime: movie.creationTime)
        #expect(t.gps.count == 20 && t.source == "CAMM")
        for (a, b) in zip(t.gps, fixes) {
            #expect(abs(a.latitude - b.latitude) < 1e-12 && abs(a.longitude - b.longitude) < 1e-12)
        }
        #expect(abs(t.gps[2].timeSeconds - 1.0) < 1e-9)
        // Type 6 carries GPS time (since 1980-01-06) and velocity; type 5 only the position.
        #expect(abs(t.gps[0].utc!.timeIntervalSince1970 - Self.start.timeIntervalSince1970) < 1e-3 && abs(t.gps[0].speedMetersPerSecond! - 3) < 1e-5)
        #expect(t.gps[1].utc == nil && abs(t.startUTC!.timeIntervalSince1970 - Self.start.timeIntervalSince1970) < 1e-3)
    }

    @Test func insta360InsvIsRefusedWithItsGPSRead() throws {
        try Self.requireFFmpeg()
        let folder = try Lookaround.temporaryDirectory()
        let mp4 = folder.appendingPathComponent("made.mp4").path
        try Self.video(mp4, width: 512, height: 256)
        let fixes = Self.walk(count: 30, interval: 0.2, speed: 2)
        let insv = folder.appendingPathComponent("VID_20240512_101530_00_001.insv").path
        try Data([UInt8](try Data(contentsOf: URL(fileURLWithPath: mp4))) + Insta360TrailerWriter.trailer(fixes: fixes, voidFixes: 2))
            .write(to: URL(fileURLWithPath: insv))
        let recording = try VideoRecording(path: insv)
        #expect(recording.projection == .dualFisheye && recording.cameraModel == "Insta360 X3" && recording.cameraMake == "Insta360")
        let telemetry = try #require(recording.telemetry)
        #expect(telemetry.source == "Insta360 trailer" && telemetry.gps.count == 28 && telemetry.droppedNoFix == 2)
        // exiftool reads the same fixes from the trailer (it skips void ones too).
        let outcome = try ChildProcess.run("/usr/bin/exiftool", ["-ee", "-n", "-s", "-s", "-s", "-GPSLatitude", insv])
        let theirs = String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n").compactMap { Double($0) }
        #expect(theirs.count == 28 && zip(theirs, telemetry.gps).allSatisfy { abs($0 - $1.latitude) < 1e-9 }, "\(theirs.prefix(3))")
        let refusal = FrameExtractor.refusal(recording)
        #expect(refusal.contains("Insta360 Studio") && refusal.contains("VID_20240512_101530_00_001.mp4"))
        // Its export beside it (here a 2:1 video with no metadata and no GPS of its own) takes the .insv's GPS.
        let export = folder.appendingPathComponent("VID_20240512_101530_00_001.mp4").path
        try FileManager.default.copyItem(atPath: mp4, toPath: export)
        let exported = try VideoRecording(path: export)
        #expect(exported.projection == .equirectangular && exported.telemetry?.gps.count == 28, "\(exported.projectionReason)")
        #expect(exported.telemetry?.source == "Insta360 trailer of VID_20240512_101530_00_001.insv")
    }

    @Test func gpxBesideTheVideoWithAClockOffset() throws {
        try Self.requireFFmpeg()
        let folder = try Lookaround.temporaryDirectory()
        let video = folder.appendingPathComponent("ride.mp4").path
        // The camera's clock says 12:15:30 (local time, UTC+2); the GPS log is in UTC.
        try Self.video(video, seconds: 12, creationTime: "2024-05-12T12:15:30Z")
        try TestRecordings.gpx(Self.walk(count: 12)).write(toFile: folder.appendingPathComponent("ride.gpx").path, atomically: true, encoding: .utf8)
        let off = try VideoRecording(path: video)
        #expect(off.telemetry == nil && off.projection == .flat)
        let problem = try #require(off.telemetryProblem)
        #expect(problem.contains("--time-offset-seconds") && problem.contains("about -7200"), "\(problem)")
        let fixed = try VideoRecording(path: video, options: VideoReadOptions(timeOffsetSeconds: -7200))
        let telemetry = try #require(fixed.telemetry)
        #expect(telemetry.source == "GPX ride.gpx" && telemetry.gps.count == 12 && abs(telemetry.gps[0].timeSeconds) < 1e-6)
        #expect(fixed.projection == .equirectangular && fixed.projectionReason.hasPrefix("assumed"))
        // 11 s at 1.5 m/s: a frame every 3 m, every 2 s from 0 to 10 s.
        let plan = try TrackSampler.plan(fixed, everyMeters: 3)
        #expect(plan.frames.count == 6, "\(plan.frames.map(\.timeSeconds))")
        #expect(plan.frames.allSatisfy { $0.headingSource == "travel" && abs($0.headingDegrees! - 0) < 0.5 })
    }

    @Test func nmeaSentences() throws {
        func sentence(_ body: String) -> String {
            let sum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
            return "$" + body + "*" + String(format: "%02X", Int(sum))
        }
        let text = [sentence("GPRMC,101530.00,A,6010.2000,N,02456.4000,E,2.0,0.0,120524,,,A"),
                    sentence("GPGGA,101530.00,6010.2000,N,02456.4000,E,1,08,0.9,12.5,M,17.0,M,,"),
                    sentence("GPRMC,101531.00,A,6010.2010,N,02456.4000,E,2.0,0.0,120524,,,A"),
                    "$GPRMC,101532.00,A,6010.2020,N,02456.4000,E,2.0,0.0,120524,,,A*00",   // bad checksum
                    sentence("GPRMC,101533.00,V,,,,,,,120524,,,N")].joined(separator: "\r\n")
        let path = try Lookaround.temporaryDirectory().appendingPathComponent("log.nmea").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let log = try GPSLog(contentsOf: path)
        #expect(log.format == "NMEA" && log.fixes.count == 2 && log.skipped == 2, "\(log.fixes), \(log.skipped) skipped")
        #expect(abs(log.fixes[0].latitude - (60 + 10.2 / 60)) < 1e-9 && abs(log.fixes[0].longitude - (24 + 56.4 / 60)) < 1e-9)
        #expect(log.fixes[0].altitudeMeters == 12.5 && abs(log.fixes[0].precision! - 90) < 1e-9)
        #expect(log.fixes[0].utc == GPSLog.civilUTC(year: 2024, month: 5, day: 12, hour: 10, minute: 15, second: 30))
        #expect(abs(log.fixes[0].speedMetersPerSecond! - 2 * 1852.0 / 3600) < 1e-9)
    }

    /// GoPro splits long recordings into chapters (GS01nnnn, GS02nnnn…): one recording, one clock.
    @Test func chaptersAreOneRecording() throws {
        try Self.requireFFmpeg()
        let folder = try Lookaround.temporaryDirectory()
        var fixes = Self.walk(count: 20, speed: 2)
        for (k, name) in ["GX010077.MP4", "GX020077.MP4"].enumerated() {
            let plain = folder.appendingPathComponent("plain-\(k).mp4").path
            try Self.video(plain, width: 320, height: 240)
            let payloads = (0..<10).map { GPMFWriter.payload(fixes: [fixes[$0 + 10 * k]]) }
            try TestRecordings.addGoProTelemetry(payloads, to: plain, writing: folder.appendingPathComponent(name).path)
        }
        try TestRecordings.runFFmpeg(["-f", "lavfi", "-i", "testsrc2=size=64x64:rate=2", "-t", "1", folder.appendingPathComponent("GX010078.MP4").path])
        #expect(VideoRecording.goProChapter(of: "GX020077.MP4")! == ("GX", 2, "0077", "MP4"))
        #expect(VideoRecording.goProChapter(of: "GOPR0077.MP4")! == ("GP", 0, "0077", "MP4") && VideoRecording.goProChapter(of: "IMG_0001.MP4") == nil)
        let second = folder.appendingPathComponent("GX020077.MP4").path
        #expect(VideoRecording.chapterPaths(of: second).map { FilePath.name(of: $0) } == ["GX010077.MP4", "GX020077.MP4"])
        let recording = try VideoRecording(path: second)
        #expect(recording.chapters.count == 2 && abs(recording.durationSeconds - 20) < 0.2 && recording.path.hasSuffix("GX010077.MP4"))
        let gps = try #require(recording.telemetry?.gps)
        #expect(gps.count == 20 && abs(gps[10].timeSeconds - recording.chapters[1].startSeconds) < 1e-6)
        fixes = []
        let (recordings, partOf) = VideoFrameStore.recordings(of: ["GX010077.MP4", "GX020077.MP4", "GX010078.MP4"].map { folder.appendingPathComponent($0).path })
        #expect(recordings.map { FilePath.name(of: $0) } == ["GX010077.MP4", "GX010078.MP4"] && partOf.count == 1)
    }

    @Test func sphericalMetadataDecidesTheProjection() throws {
        try Self.requireFFmpeg()
        let folder = try Lookaround.temporaryDirectory()
        let plain = folder.appendingPathComponent("plain.mp4").path
        try Self.video(plain, width: 320, height: 240)   // 4:3: only the metadata can make it 360°
        let fixes = Self.walk(count: 10, speed: 2)
        try TestRecordings.gpx(fixes).write(toFile: folder.appendingPathComponent("mono.gpx").path, atomically: true, encoding: .utf8)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: plain)))
        try Data(try MP4Writer.adding([], to: bytes, videoTrackBoxes: MP4Writer.sphericalV1Box())).write(to: folder.appendingPathComponent("mono.mp4"))
        try Data(try MP4Writer.adding([], to: bytes, videoTrackBoxes: MP4Writer.sphericalV1Box(stereoMode: "top-bottom")))
            .write(to: folder.appendingPathComponent("stereo.mp4"))
        let mono = try VideoRecording(path: folder.appendingPathComponent("mono.mp4").path)
        #expect(mono.projection == .equirectangular && mono.projectionReason == "spherical metadata (uuid XMP)")
        let stereo = try VideoRecording(path: folder.appendingPathComponent("stereo.mp4").path)
        #expect(stereo.projection == .flat && stereo.projectionReason.contains("stereo"))
        // A plain 4:3 video is flat, and says so when asked for frames; its track is still read.
        let flat = try VideoRecording(path: plain, options: VideoReadOptions(gpsLogPath: folder.appendingPathComponent("mono.gpx").path))
        #expect(flat.projection == .flat && flat.telemetry?.gps.count == 10 && FrameExtractor.refusal(flat).contains("flat"))
        #expect(throws: VideoError.self) { _ = try FrameExtractor.extract(flat, plan: try TrackSampler.plan(flat, everyMeters: 3)) { _ in "/dev/null" } }
    }

    /// Sampling: a stop gives one frame, a GPS gap is skipped and counted, the spacing follows the speed.
    @Test func samplingCollapsesStopsAndSkipsGaps() throws {
        try Self.requireFFmpeg()
        let folder = try Lookaround.temporaryDirectory()
        let video = folder.appendingPathComponent("walk.mp4").path
        try Self.video(video, width: 256, height: 128, seconds: 60)
        // 0–15 s walking at 2 m/s, 15–35 s standing (GPS wander of ±1 m), 35–45 s walking, 45–55 s no GPS, 55–60 s walking.
        var fixes: [TestFix] = []
        var latitude = 60.17
        for k in 0..<60 {
            let t = Double(k)
            if t >= 45 && t < 55 { continue }
            let moving = !(t >= 15 && t < 35)
            if moving && k > 0 { latitude += 2 / 111_320 }
            let wander = moving ? 0 : (Double(k % 3) - 1) / 111_320
            fixes.append(TestFix(latitude: latitude + wander, longitude: 24.94, speedMetersPerSecond: moving ? 2 : 0.12,
                                 utc: Self.start.addingTimeInterval(t)))
        }
        try TestRecordings.gpx(fixes).write(toFile: folder.appendingPathComponent("walk.gpx").path, atomically: true, encoding: .utf8)
        let recording = try VideoRecording(path: video)
        let plan = try TrackSampler.plan(recording, everyMeters: 3)
        // No <speed> in GPX: speeds come from the positions (±2.5 s), so the wander reads as standing.
        #expect(plan.stops == 1, "\(plan.stops) stops")
        // 20 s standing give at most one frame (the speed window, ±2.5 s, sees the walk resume just before 35 s).
        let during = plan.frames.filter { $0.timeSeconds > 15.5 && $0.timeSeconds < 35 }
        #expect(during.count <= 1, "frames while standing: \(during.map(\.timeSeconds))")
        #expect(plan.frames.filter { $0.timeSeconds > 44.5 && $0.timeSeconds < 55 }.isEmpty)
        // No GPS from 44 s to 55 s (a gap of 11 s); a video frame within half a GPS interval (0.5 s) of a segment's
        // end takes the end's position, so the frames at 45.0…54.0 s have none: 19 video frames at 2 fps, 9.5 s.
        // The frames after the last fix at 59 s (59.5 s) are within that half interval.
        #expect(abs(plan.secondsWithoutGPS - 9.5) < 0.01 && plan.videoFramesWithoutGPS == 19, "\(plan.secondsWithoutGPS) s, \(plan.videoFramesWithoutGPS) frames")
        // About 2 m/s × 30 s of walking / 3 m, plus a frame at the start of each GPS segment.
        #expect(plan.frames.count >= 19 && plan.frames.count <= 23, "\(plan.frames.count) frames")
        // Consecutive frames on a walk are about 3 m apart.
        let walking = plan.frames.filter { $0.timeSeconds < 15 }
        for (a, b) in zip(walking, walking.dropFirst()) {
            let d = TrackGeometry.distanceMeters(latitude: a.latitude, longitude: a.longitude, latitude2: b.latitude, longitude2: b.longitude)
            #expect(abs(d - 3) < 1.1, "\(d) m between frames at \(a.timeSeconds) and \(b.timeSeconds)")
        }
    }

    /// Damaged containers: a clear error, no trap.
    @Test func damagedContainers() throws {
        let folder = try Lookaround.temporaryDirectory()
        let cases: [(String, [UInt8])] = [("empty.mp4", []), ("text.mp4", Array("hello, this is no video at all".utf8)),
                                          ("box.mp4", [0, 0, 0, 8] + Array("ftyp".utf8) + [0, 0, 0x10, 0] + Array("moov".utf8) + [1, 2, 3])]
        for (name, bytes) in cases {
            let path = folder.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            #expect(throws: VideoError.self) { _ = try VideoRecording(path: path) }
        }
        #expect(throws: VideoError.fileNotFound(path: folder.appendingPathComponent("none.mp4").path)) {
            _ = try VideoRecording(path: folder.appendingPathComponent("none.mp4").path)
        }
    }
}
