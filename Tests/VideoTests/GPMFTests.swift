import Foundation
import ProcessRunner
import Testing
import TestSupport
@testable import Video
import VideoTestSupport

/// The real GoPro files (gopro/gpmf-parser's samples, MIT/Apache: ../shared/data/video and, for the small
/// raw payloads, Tests/VideoTests/Fixtures): their GPS tracks read here against exiftool's reading of the
/// same bytes (`exiftool -ee`, an independent implementation).
@Suite struct GPMFTests {
    /// ../shared/data/video beside the project (or beside a folder of worktrees holding it).
    static let shared = TestRecordings.sharedVideoData(besides: Lookaround.repository)
        ?? Lookaround.repository.deletingLastPathComponent().appendingPathComponent("shared/data/video")
    static let fixtures = Bundle.module.resourceURL!.appendingPathComponent("Fixtures")

    /// A file from ../shared/data/video, or a skip naming where it was looked for.
    static func sharedFile(_ name: String) throws -> String {
        let path = shared.appendingPathComponent(name).path
        guard FileManager.default.fileExists(atPath: path) else {
            try Test.cancel("skipped: \(name) is not at \(path) (../shared/data/video beside the project)")
        }
        return path
    }

    /// exiftool's positions of a file, in file order: (document, latitude, longitude, altitude). exiftool
    /// prints each requested tag's values together, so the three lists are read apart and zipped.
    static func exiftoolTrack(_ path: String) throws -> [(doc: String, latitude: Double, longitude: Double, altitude: Double)] {
        let outcome = try ChildProcess.run("/usr/bin/exiftool", ["-ee", "-n", "-G3", "-s", "-GPSLatitude", "-GPSLongitude", "-GPSAltitude", path])
        #expect(outcome.exitStatus == 0, "\(String(decoding: outcome.stderr, as: UTF8.self))")
        var values: [String: [(String, Double)]] = [:]
        for line in String(decoding: outcome.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let value = Double(parts[1]) else { continue }
            let head = parts[0].split(separator: " ", omittingEmptySubsequences: true)
            guard head.count == 2, head[0] != "[Main]" else { continue }
            values[String(head[1]), default: []].append((String(head[0]), value))
        }
        let lats = values["GPSLatitude"] ?? [], lons = values["GPSLongitude"] ?? [], alts = values["GPSAltitude"] ?? []
        #expect(lats.count == lons.count && lons.count == alts.count)
        return zip(lats, zip(lons, alts)).map { (doc: $0.0.0, latitude: $0.0.1, longitude: $0.1.0.1, altitude: $0.1.1.1) }
    }

    static func compare(_ ours: [GPSSample], _ theirs: [(doc: String, latitude: Double, longitude: Double, altitude: Double)], file: String) {
        #expect(ours.count == theirs.count, "\(file): \(ours.count) positions here, \(theirs.count) by exiftool")
        for (a, b) in zip(ours, theirs) {
            // exiftool prints the scaled integers to 7 decimals: the same numbers.
            #expect(abs(a.latitude - b.latitude) < 1e-9 && abs(a.longitude - b.longitude) < 1e-9, "\(file): \(a) vs \(b)")
            #expect(abs((a.altitudeMeters ?? .nan) - b.altitude) < 1e-6, "\(file): altitude \(a.altitudeMeters ?? .nan) vs \(b.altitude)")
        }
    }

    @Test func maxHeroModeTrackMatchesExiftool() throws {
        let path = try Self.sharedFile("max-heromode.mp4")
        let recording = try VideoRecording(path: path)
        let telemetry = try #require(recording.telemetry)
        #expect(telemetry.source == "GPMF GPS5" && telemetry.droppedNoFix == 0 && telemetry.droppedImprecise == 0)
        Self.compare(telemetry.gps, try Self.exiftoolTrack(path), file: "max-heromode.mp4")
        // 10.5 s of GPS5 at about 18 Hz, timed by the gpmd track's samples (1.001 s each).
        #expect(abs(recording.durationSeconds - 10.51) < 0.02)
        #expect(telemetry.gps.first!.timeSeconds == 0 && telemetry.gps.last!.timeSeconds < 10.52 && telemetry.gps.last!.timeSeconds > 9.9)
        #expect(recording.cameraModel == "GoPro Max" && recording.cameraMake == "GoPro" && recording.firmware == "H19.03.01.30.00")
        #expect(recording.cameraSerial == "C3353424500199")
        // GPSU 2019-11-18 23:45:14 UTC for the first payload (exiftool: GPS Date Time), on the video's clock.
        let start = try #require(recording.captureStartUTC)
        #expect(abs(start.timeIntervalSince1970 - 1_574_120_714) < 1.5, "\(start)")
        #expect(recording.projection == .flat && recording.captureStartSource == "GPS")
        // CORI, IORI and GRAV at the frame rate (GPMFOrientationTests checks their values).
        #expect(telemetry.orientation.count > 250 && telemetry.gravity.count > 250 && telemetry.orientationSource == "GPMF CORI+IORI")
    }

    @Test func karmaTrackMatchesExiftool() throws {
        let path = try Self.sharedFile("karma.mp4")
        let recording = try VideoRecording(path: path)
        let telemetry = try #require(recording.telemetry)
        // The HERO5 wrote no GPS5 on the drone: the track is the drone's position (GLPI), as exiftool reads it.
        #expect(telemetry.source.hasPrefix("GPMF GLPI"))
        Self.compare(telemetry.gps, try Self.exiftoolTrack(path), file: "karma.mp4")
        #expect(telemetry.gps.count > 40 && recording.projection == .flat)
    }

    /// The raw payloads, put in an MP4 of their own (one second each) so exiftool reads the same bytes.
    @Test(arguments: ["hero5.raw", "hero6.raw", "hero6+ble.raw", "Fusion.raw", "karma.raw"])
    func rawPayloadMatchesExiftool(name: String) throws {
        let raw = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent(name)))
        let ours = GPMFTelemetry.telemetry(from: [.init(bytes: raw, timeSeconds: 0, durationSeconds: 1)])
        let wrapped = MP4Writer.movie(with: .init(format: "gpmd", handler: "meta", name: "GoPro MET", samples: [.init(bytes: raw, duration: 1000)]))
        let file = try Lookaround.temporaryDirectory().appendingPathComponent(name + ".mp4")
        try Data(wrapped).write(to: file)
        let theirs = try Self.exiftoolTrack(file.path)
        if name == "karma.raw" {
            // The camera wrote accelerometer and gyro only; the drone wrote its flight controller's position
            // (GLPI), which exiftool reads as GPS and so do we (with no fix or precision to filter by).
            #expect(ours.source.hasPrefix("GPMF GLPI") && ours.gps.count == 4)
            Self.compare(ours.gps, theirs, file: name)
            return
        }
        // exiftool reads every point; the fix and precision filter is ours, and every one of these payloads
        // fails it: hero5.raw's GPSP is 606 and Fusion.raw's 674 (a dilution of precision over 5), hero6.raw's
        // and hero6+ble.raw's GPSF is 0 (no fix). mapillary_tools drops them the same way.
        let unfiltered = GPMFTelemetry.unfilteredGPS(from: [.init(bytes: raw, timeSeconds: 0, durationSeconds: 1)])
        Self.compare(unfiltered, theirs, file: name)
        let expected: [String: (noFix: Int, imprecise: Int, precision: Double?, fix: Int?)] = [
            "hero5.raw": (0, 18, 606, 3), "Fusion.raw": (0, 19, 674, 3), "hero6.raw": (17, 0, 9999, 0), "hero6+ble.raw": (18, 0, 9999, 0)]
        let e = try #require(expected[name])
        #expect(ours.gps.isEmpty && ours.droppedNoFix == e.noFix && ours.droppedImprecise == e.imprecise,
                "\(name): \(ours.gps.count) kept, \(ours.droppedNoFix) without a fix, \(ours.droppedImprecise) imprecise")
        #expect(unfiltered.allSatisfy { $0.precision == e.precision && $0.fix == e.fix })
        // Our reading of the wrapped file agrees with our reading of the payload.
        let movie = try MP4Movie(contentsOf: file.path)
        let track = try #require(movie.tracks.first { $0.format == "gpmd" })
        let fromFile = try GPMFTelemetry.read(track: track, reader: try VideoFileReader(path: file.path))
        #expect(fromFile.gps == ours.gps)
        // Spread over the payload's second in order.
        #expect(unfiltered.first?.timeSeconds == 0 && (unfiltered.last?.timeSeconds ?? 1) < 1)
        // GPSU sets the clock only where there is a fix.
        #expect((e.fix == 0) == (ours.startUTC == nil))
    }

    /// mapillary_tools' filter: no fix (GPSF 0) and a dilution of precision over 5 (GPSP > 500) are dropped.
    @Test func fixAndPrecisionFilter() throws {
        let utc = Date(timeIntervalSince1970: 1_700_000_000)
        func fixes(_ second: Int) -> [TestFix] {
            (0..<10).map { TestFix(latitude: 60.17 + Double(second * 10 + $0) * 1e-5, longitude: 24.94, speedMetersPerSecond: 1.1,
                                   utc: utc.addingTimeInterval(Double(second) + Double($0) / 10)) }
        }
        let good = GPMFWriter.payload(fixes: fixes(0))
        let noFix = GPMFWriter.payload(fixes: fixes(1), fix: 0)
        let imprecise = GPMFWriter.payload(fixes: fixes(2), precision: 620)
        let borderline = GPMFWriter.payload(fixes: fixes(3), precision: 500)
        let t = GPMFTelemetry.telemetry(from: [.init(bytes: good, timeSeconds: 0, durationSeconds: 1), .init(bytes: noFix, timeSeconds: 1, durationSeconds: 1),
                                               .init(bytes: imprecise, timeSeconds: 2, durationSeconds: 1), .init(bytes: borderline, timeSeconds: 3, durationSeconds: 1)])
        #expect(t.gpsRead == 40 && t.gps.count == 20 && t.droppedNoFix == 10 && t.droppedImprecise == 10)
        let expected: [Double] = (0..<10).map { Double($0) / 10 } + (0..<10).map { 3 + Double($0) / 10 }
        #expect(zip(t.gps.map(\.timeSeconds), expected).allSatisfy { abs($0 - $1) < 1e-9 })
        // GPSU of the first payload, on the video clock.
        #expect(abs(t.startUTC!.timeIntervalSince1970 - 1_700_000_000) < 0.002)
    }

    /// GPS9 (HERO11 and later): its own time per sample, DOP and fix per sample, read as the GPS of choice.
    @Test func gps9WithTimeDOPAndFixPerSample() throws {
        let utc = Date(timeIntervalSince1970: 1_715_508_930.5)
        let fixes = (0..<10).map { TestFix(latitude: -33.8 - Double($0) * 2e-5, longitude: 151.2, altitudeMeters: 25.5, speedMetersPerSecond: 2.2,
                                           utc: utc.addingTimeInterval(Double($0) / 10)) }
        var payload = GPMFWriter.gps9Payload(fixes: Array(fixes[0..<5]))
        payload += GPMFWriter.gps9Payload(fixes: Array(fixes[5..<10]), fix: 0)
        let t = GPMFTelemetry.telemetry(from: [.init(bytes: payload, timeSeconds: 4, durationSeconds: 1)])
        #expect(t.source == "GPMF GPS9" && t.gpsRead == 10 && t.gps.count == 5 && t.droppedNoFix == 5)
        let first = try #require(t.gps.first)
        #expect(abs(first.latitude + 33.8) < 1e-9 && abs(first.altitudeMeters! - 25.5) < 1e-9 && abs(first.precision! - 150) < 1e-9)
        #expect(abs(first.utc!.timeIntervalSince1970 - utc.timeIntervalSince1970) < 0.001)
        // Video time 4 s is the first fix's UTC.
        // (Each device's five fixes are spread over the payload's second, 0.2 s apart against their own 0.1 s:
        // the clock is the median of the two, within 0.3 s.)
        #expect(abs(t.startUTC!.timeIntervalSince1970 - (utc.timeIntervalSince1970 - 4)) < 0.3)
    }

    /// Truncated and garbage payloads: what comes before the damage is read, the rest reported, no trap.
    @Test func damagedPayloads() throws {
        let raw = [UInt8](try Data(contentsOf: Self.fixtures.appendingPathComponent("hero6.raw")))
        let whole = GPMFTelemetry.telemetry(from: [.init(bytes: raw, timeSeconds: 0, durationSeconds: 1)])
        for cut in [7, 100, raw.count / 2, raw.count - 3] {
            let t = GPMFTelemetry.telemetry(from: [.init(bytes: Array(raw[0..<cut]), timeSeconds: 0, durationSeconds: 1)])
            #expect(t.gps.count <= whole.gps.count)
        }
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var bytes = raw
            for _ in 0..<8 { bytes[Int.random(in: 0..<bytes.count, using: &rng)] = UInt8.random(in: 0...255, using: &rng) }
            _ = GPMFTelemetry.telemetry(from: [.init(bytes: bytes, timeSeconds: 0, durationSeconds: 1)])
        }
        let garbage = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &rng) }
        #expect(GPMFTelemetry.telemetry(from: [.init(bytes: garbage, timeSeconds: 0, durationSeconds: 1)]).gps.isEmpty)
    }
}
