import Foundation
import Geodesy
import Imaging
import Reprojection
import Testing
import TestSupport
@testable import Video
import VideoTestSupport

/// GoPro MAX `.360` recordings made from the shipped simulated panoramas in the camera's layout (two HEVC
/// strips with overlap bands, a GPMF track with GPS5), read back as equirectangular frames: within 30 dB
/// PSNR of the panoramas they were made from, at the panoramas' positions.
@Suite(.serialized) struct GoProMaxTests {
    static let shipped = Lookaround.repository.appendingPathComponent("Panoramas/helsinki")
    static let ids = ["aleksanterinkatu-010", "aleksanterinkatu-011", "aleksanterinkatu-012", "aleksanterinkatu-013"]

    struct Truth: Decodable { var latitude: Double; var longitude: Double; var headingDegrees: Double }

    static func truth(_ id: String) throws -> Truth {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Truth.self, from: Data(contentsOf: shipped.appendingPathComponent("\(id).json")))
    }

    static func panorama(_ id: String) throws -> RGB8Image {
        try JPEGCodec.decodeRGB(try ImageFile.read(shipped.appendingPathComponent("\(id).jpg").path)).image
    }

    /// One GPMF payload per second: 10 GPS5 fixes from panorama k's position towards panorama k+1's (one
    /// panorama per second: 12 m/s), with the speed the positions imply.
    static func payloads(_ truths: [Truth], start: Date) -> [[UInt8]] {
        (0..<truths.count).map { k in
            let a = truths[k], b = k + 1 < truths.count ? truths[k + 1] : truths[k]
            let prev = k > 0 ? truths[k - 1] : a
            // The last second goes on as the one before it.
            let (dLat, dLon) = k + 1 < truths.count ? (b.latitude - a.latitude, b.longitude - a.longitude)
                : (a.latitude - prev.latitude, a.longitude - prev.longitude)
            let speed = TrackGeometry.distanceMeters(latitude: a.latitude, longitude: a.longitude,
                                                     latitude2: a.latitude + dLat, longitude2: a.longitude + dLon)
            let fixes = (0..<10).map { j in
                TestFix(latitude: a.latitude + dLat * Double(j) / 10, longitude: a.longitude + dLon * Double(j) / 10, altitudeMeters: 12.5,
                        speedMetersPerSecond: speed, utc: start.addingTimeInterval(Double(k) + Double(j) / 10))
            }
            return GPMFWriter.payload(fixes: fixes)
        }
    }

    /// On a failure: the frame, what it should be and their difference, in `failures/` beside this file.
    static func keep(_ actual: RGB8Image, _ expected: RGB8Image, name: String) {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("failures")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? ImageFile.write(try PNGCodec.encode(actual), to: folder.appendingPathComponent("\(name).actual.png").path)
        try? ImageFile.write(try PNGCodec.encode(expected), to: folder.appendingPathComponent("\(name).expected.png").path)
        try? ImageFile.write(try PNGCodec.encode(ImageMetrics.diffImage(actual, expected)), to: folder.appendingPathComponent("\(name).diff.png").path)
    }

    static func requireFFmpeg() throws {
        guard FileManager.default.isExecutableFile(atPath: TestRecordings.ffmpeg) else {
            try Test.cancel("skipped: no \(TestRecordings.ffmpeg) to encode the test recording (scripts/install-test-tools.sh installs it)")
        }
    }

    static func metres(_ frame: PlannedFrame, _ truth: Truth) -> Double {
        TrackGeometry.distanceMeters(latitude: frame.latitude, longitude: frame.longitude, latitude2: truth.latitude, longitude2: truth.longitude)
    }

    /// Heading difference in degrees, −180…180.
    static func angle(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    /// Writes the frames of `path` into a new folder; returns the recording, the plan and the frames.
    static func extract(_ path: String, everyMeters: Double, options: FrameExtractor.Options = .init())
        throws -> (VideoRecording, SamplingPlan, [FrameExtractor.Written]) {
        let recording = try VideoRecording(path: path)
        let plan = try TrackSampler.plan(recording, everyMeters: everyMeters)
        let folder = try Lookaround.temporaryDirectory()
        let written = try FrameExtractor.extract(recording, plan: plan, options: options) { folder.appendingPathComponent(String(format: "%06d.jpg", $0)).path }
        return (recording, plan, written)
    }

    /// The real 5.6K layout (two 4096x1344 HEVC strips, 64 px overlap copies), made by FFmpeg's own
    /// filters (v360=e:eac, the seam squeezed into two copies): frames come back at 5376x2688 within
    /// 30 dB of the panoramas (compared at the panoramas' 2048x1024), at their positions and headings.
    @Test func realLayoutComesBackAsThePanoramas() throws {
        try Self.requireFFmpeg()
        let ids = Array(Self.ids.prefix(2))
        let truths = try ids.map(Self.truth)
        let folder = try Lookaround.temporaryDirectory()
        let path = folder.appendingPathComponent("GS010042.360").path
        let start = Date(timeIntervalSince1970: 1_781_514_930)
        // At about the camera's own bitrate (crf 12 here: 20 to 30 Mbit/s a stream at 30 fps; the MAX writes 60-80 in all).
        try TestRecordings.goProMax360(panoramaFiles: ids.map { Self.shipped.appendingPathComponent("\($0).jpg").path }, layout: .max56K,
                                       payloads: Self.payloads(truths, start: start), path: path, crf: 12)
        let (recording, plan, written) = try Self.extract(path, everyMeters: 12)
        #expect(recording.projection == .goproMaxEAC && recording.layout == .max56K && recording.decodedStreams.count == 2,
                "\(recording.projectionReason)")
        #expect(recording.cameraModel == "GoPro Max" && recording.cameraMake == "GoPro" && recording.captureStartSource == "GPS")
        #expect(plan.frames.count == 2 && written.count == 2, "\(plan.frames.map(\.timeSeconds))")
        for (k, frame) in written.enumerated() {
            let decoded = try JPEGCodec.decodeRGB(try ImageFile.read(frame.path)).image
            #expect(decoded.width == 5376 && decoded.height == 2688)
            let source = try Self.panorama(ids[k])
            let psnr = ImageMetrics.psnr(try Resampler.resize(decoded, to: PixelSize(width: 2048, height: 1024), filter: .area), source)
            #expect(psnr >= 30, "frame \(k): PSNR \(psnr) dB against \(ids[k])")
            if psnr < 30 { Self.keep(try Resampler.resize(decoded, to: PixelSize(width: 2048, height: 1024), filter: .area), source, name: "real-\(k)") }
            #expect(Self.metres(frame.frame, truths[k]) < 1, "frame \(k) at \(frame.frame.latitude), \(frame.frame.longitude)")
            // The travel direction along the street is the panorama's capture heading.
            #expect(abs(Self.angle(frame.frame.headingDegrees ?? .nan, truths[k].headingDegrees)) < 3, "\(frame.frame)")
            // What any tool reads: EXIF GPS and GPano.
            let metadata = try ImageMetadata.read(fromJPEGFile: frame.path).metadata
            #expect(abs(metadata.latitudeDegrees! - frame.frame.latitude) < 1e-7 && metadata.panorama?.projectionType == "equirectangular")
            #expect(metadata.panorama?.fullPanoWidthPixels == 5376 && metadata.make == "GoPro" && metadata.model == "GoPro Max")
        }
    }

    /// The layout scaled to a quarter (1024x336 strips, 16 px overlap copies) with the strips made by
    /// ``GoProMaxLayout/strips(fromCube:)``: four frames, each within 30 dB of its panorama.
    @Test func scaledLayoutComesBackAsThePanoramas() throws {
        try Self.requireFFmpeg()
        let layout = try GoProMaxLayout.max56K.scaled(by: 4)
        #expect(layout.stripWidth == 1024 && layout.stripHeight == 336 && layout.overlap == 16 && layout.keptWidth == 156 && layout.seamWidth == 24)
        let truths = try Self.ids.map(Self.truth)
        let size = PixelSize(width: 4 * layout.faceSize, height: 2 * layout.faceSize)
        let references = try Self.ids.map { try Resampler.resize(try Self.panorama($0), to: size, filter: .lanczos3) }
        let folder = try Lookaround.temporaryDirectory()
        let path = folder.appendingPathComponent("GS010043.360").path
        try TestRecordings.goProMax360(panoramas: references, layout: layout, payloads: Self.payloads(truths, start: Date(timeIntervalSince1970: 1_781_514_930)),
                                       path: path)
        let (recording, plan, written) = try Self.extract(path, everyMeters: 12)
        #expect(recording.projection == .goproMaxEAC && recording.layout == layout, "\(recording.projectionReason)")
        #expect(written.count == 4, "\(plan.frames.map(\.timeSeconds))")
        for (k, frame) in written.enumerated() {
            let decoded = try JPEGCodec.decodeRGB(try ImageFile.read(frame.path)).image
            #expect(decoded.width == size.width && decoded.height == size.height)
            let psnr = ImageMetrics.psnr(decoded, references[k])
            #expect(psnr >= 30, "frame \(k): PSNR \(psnr) dB")
            #expect(Self.metres(frame.frame, truths[k]) < 1)
            if psnr < 30 { Self.keep(decoded, references[k], name: "scaled-\(k)") }
        }
    }

    /// The recipe users run in FFmpeg (crop, blend the two seam copies, scale them back, stack, v360=eac:e)
    /// reads the strips ``GoProMaxLayout/strips(fromCube:)`` makes as the panorama: the layout is the camera's.
    @Test func ffmpegsRecipeReadsOurStrips() throws {
        try Self.requireFFmpeg()
        let layout = try GoProMaxLayout.max56K.scaled(by: 4)
        let size = PixelSize(width: 4 * layout.faceSize, height: 2 * layout.faceSize)
        let reference = try Resampler.resize(try Self.panorama(Self.ids[0]), to: size, filter: .lanczos3)
        let folder = try Lookaround.temporaryDirectory()
        let path = folder.appendingPathComponent("GS010044.360").path
        let truths = try Self.ids.prefix(1).map(Self.truth)
        try TestRecordings.goProMax360(panoramas: [reference], layout: layout, payloads: Self.payloads(truths, start: Date()), path: path)
        let output = folder.appendingPathComponent("ffmpeg.png").path
        try TestRecordings.runFFmpeg(["-i", path, "-filter_complex", GoProMaxRecipe.filterGraph(layout, width: size.width, height: size.height,
                                                                                                   interpolation: "cubic", rgb: true, exactFaces: true),
                                      "-map", "[out]", "-frames:v", "1", output])
        let ffmpeg = try PNGCodec.decodeRGB(try ImageFile.read(output))
        // FFmpeg's reading agrees with the panorama and with ours; a misplaced seam or face would cost far more.
        let (_, _, written) = try Self.extract(path, everyMeters: 12)
        let ours = try JPEGCodec.decodeRGB(try ImageFile.read(try #require(written.first).path)).image
        let againstPanorama = ImageMetrics.psnr(ffmpeg, reference), againstOurs = ImageMetrics.psnr(ffmpeg, ours)
        #expect(againstPanorama >= 26 && againstOurs >= 30, "FFmpeg's reading: \(againstPanorama) dB against the panorama, \(againstOurs) dB against ours")
        if againstPanorama < 26 || againstOurs < 30 { Self.keep(ffmpeg, ours, name: "ffmpeg-recipe") }
    }

    /// Strips → cube: the seam copies blended with weights rising across the band and stretched back: with
    /// two equal copies the face comes back as it was (within the interpolation).
    @Test func rebuildUndoesTheStrips() throws {
        let layout = try GoProMaxLayout(stripWidth: 200, stripHeight: 64, overlap: 8)
        #expect(layout.keptWidth == 26 && layout.seamWidth == 12 && layout.sideWidth == 68)
        var cube = RGB8Image(width: 192, height: 128)
        for y in 0..<128 { for x in 0..<192 { for c in 0..<3 { cube.components[3 * (y * 192 + x) + c] = UInt8(20 + (x + y) / 2 + 10 * c) } } }
        let strips = layout.strips(fromCube: cube)
        let a = YCbCr420Image(strips.a), b = YCbCr420Image(strips.b)
        var rebuilt = [UInt8](repeating: 0, count: 192 * 128)
        a.luma.withUnsafeBufferPointer { pa in
            b.luma.withUnsafeBufferPointer { pb in
                rebuilt.withUnsafeMutableBufferPointer { layout.rebuildPlane(a: (pa.baseAddress!, 200), b: (pb.baseAddress!, 200), chroma: false, into: $0.baseAddress!) }
            }
        }
        let expected = YCbCr420Image(cube).luma
        var worst = 0
        for y in 0..<128 { for x in 0..<192 { worst = max(worst, abs(Int(rebuilt[y * 192 + x]) - Int(expected[y * 192 + x]))) } }
        #expect(worst <= 3, "largest difference \(worst)")
    }
}
