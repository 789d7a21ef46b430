import Foundation
import Geodesy
import Imaging
import Playback
import Testing
import TestSupport

/// The preview writers, read back by independent readers (Pillow for GIF and WebP, ffprobe for video).
@Suite struct PreviewWriterTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let reader = repository.appendingPathComponent("scripts/read_animation.py").path

    /// Frames of a moving gradient with a disc: smooth areas (where palettes band) and edges.
    static func frames(count: Int, width: Int = 96, height: Int = 64) throws -> [WalkFrame] {
        let coordinate = try GeoCoordinate(latitude: 60.17, longitude: 24.95)
        return (0..<count).map { k in
            var image = RGB8Image(width: width, height: height)
            for y in 0..<height {
                for x in 0..<width {
                    let dx = Double(x - 20 - 5 * k), dy = Double(y - height / 2)
                    let inside = dx * dx + dy * dy < 144
                    image[x, y, 0] = inside ? 230 : UInt8(40 + 150 * x / width)
                    image[x, y, 1] = inside ? 60 : UInt8(90 + 120 * y / height)
                    image[x, y, 2] = inside ? 40 : 190
                }
            }
            let info = WalkTimeline.Frame(index: k, timeSeconds: Double(k) / 12, segment: 0, fraction: 0, coordinate: coordinate,
                                          position: EastNorthUp(east: 0, north: 0, up: 0), distanceMeters: Double(k),
                                          headingDegrees: 90, pitchDegrees: 0, fieldOfViewDegrees: 90, isPaused: false)
            return WalkFrame(info: info, panoramaID: "p\(k)", image: image)
        }
    }

    static func write(_ frames: [WalkFrame], to path: String, settings: PreviewSettings) throws {
        let writer = try PreviewFormat(path: path).writer(path: path, width: frames[0].image.width, height: frames[0].image.height,
                                                          settings: settings)
        for frame in frames { try writer.add(frame) }
        try writer.finish()
    }

    static func read(_ path: String, _ extra: [String] = []) throws -> [String: Any] {
        let data = try PeerScript.run(reader, [path] + extra)
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func leftovers(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".partial-") }
    }

    @Test func framesFolderHasPNGsAndFramesJSON() throws {
        let root = try Lookaround.temporaryDirectory()
        let path = root.appendingPathComponent("frames").path
        try Self.write(try Self.frames(count: 5), to: path + "/", settings: PreviewSettings(framesPerSecond: 12))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path + "/frames.json"))) as? [String: Any])
        let entries = try #require(json["frames"] as? [[String: Any]])
        #expect(entries.count == 5)
        #expect(entries[2]["panorama_id"] as? String == "p2" && entries[2]["heading_degrees"] as? Double == 90)
        #expect(entries[2]["file"] as? String == "frame-00002.png" && entries[2]["field_of_view_degrees"] as? Double == 90)
        #expect(try PNGCodec.decodeRGB(try ImageFile.read(path + "/frame-00004.png")).width == 96)
        #expect(try Self.leftovers(in: root).isEmpty)
    }

    @Test(arguments: [GIFAnimationEncoder.Palette.perFrame, .global])
    func gifReadBackByPillow(palette: GIFAnimationEncoder.Palette) throws {
        let root = try Lookaround.temporaryDirectory()
        let frames = try Self.frames(count: 12)
        try Self.write(frames, to: root.appendingPathComponent("reference").path, settings: PreviewSettings(framesPerSecond: 12))
        var settings = PreviewSettings(framesPerSecond: 12)
        settings.gifPalette = palette
        let path = root.appendingPathComponent("walk.gif").path
        try Self.write(frames, to: path, settings: settings)
        let info = try Self.read(path, ["--psnr-against", root.appendingPathComponent("reference").path])
        #expect(info["format"] as? String == "GIF")
        #expect(info["frames"] as? Int == 12 && info["width"] as? Int == 96 && info["height"] as? Int == 64)
        #expect(info["loop"] as? Int == 0)
        // 12 fps in centiseconds: 8 or 9 each, one second in all.
        let durations = try #require(info["durations_ms"] as? [Int])
        #expect(durations.allSatisfy { $0 == 80 || $0 == 90 } && durations.reduce(0, +) == 1000, "\(durations)")
        let psnr = try #require(info["mean_psnr"] as? Double)
        print("GIF \(palette.rawValue): mean PSNR \(String(format: "%.1f", psnr)) dB against the frames")
        #expect(psnr > 30)
        #expect(try Self.leftovers(in: root).isEmpty)
    }

    /// After the first frame, pixels that did not change are transparent (the frame below shows through):
    /// a disc moving over a still, noisy background costs a fraction of full frames, and every frame
    /// Pillow composes still matches its source.
    @Test(arguments: [GIFAnimationEncoder.Palette.perFrame, .global])
    func gifLeavesStillPixelsToTheFrameBelow(palette: GIFAnimationEncoder.Palette) throws {
        let root = try Lookaround.temporaryDirectory()
        // Noise of 64 colours (a palette holds them exactly; LZW cannot pack it).
        var state: UInt32 = 12_345
        var background = [UInt8](repeating: 0, count: 160 * 120 * 3)
        for i in stride(from: 0, to: background.count, by: 3) {
            state = state &* 1_664_525 &+ 1_013_904_223
            let k = Int(state >> 26)
            background[i] = UInt8(k & 3) * 80; background[i + 1] = UInt8((k >> 2) & 3) * 80; background[i + 2] = UInt8(k >> 4) * 80
        }
        let frames = try Self.frames(count: 12, width: 160, height: 120).map { frame in
            var frame = frame
            for y in 0..<120 {
                for x in 0..<160 where frame.image[x, y, 0] != 230 {
                    for c in 0..<3 { frame.image[x, y, c] = background[(y * 160 + x) * 3 + c] }
                }
            }
            return frame
        }
        try Self.write(frames, to: root.appendingPathComponent("reference").path, settings: PreviewSettings(framesPerSecond: 12))
        var settings = PreviewSettings(framesPerSecond: 12)
        settings.gifPalette = palette
        let one = root.appendingPathComponent("one.gif").path, all = root.appendingPathComponent("all.gif").path
        try Self.write([frames[0]], to: one, settings: settings)
        try Self.write(frames, to: all, settings: settings)
        let oneBytes = try #require(try FileManager.default.attributesOfItem(atPath: one)[.size] as? Int)
        let allBytes = try #require(try FileManager.default.attributesOfItem(atPath: all)[.size] as? Int)
        print("GIF \(palette.rawValue), still noisy background: 1 frame \(oneBytes) bytes, 12 frames \(allBytes) bytes")
        // Twelve full frames would take about twelve times one.
        #expect(allBytes < 4 * oneBytes, "12 frames \(allBytes) bytes, 1 frame \(oneBytes) bytes")
        let psnrs = try #require(try Self.read(all, ["--psnr-against", root.appendingPathComponent("reference").path])["psnr"] as? [Double])
        #expect(psnrs.count == 12 && psnrs.allSatisfy { $0 > 35 }, "\(psnrs)")
    }

    @Test func gifDitheringBeatsBandingOnGradients() throws {
        let root = try Lookaround.temporaryDirectory()
        let frames = try Self.frames(count: 2, width: 200, height: 120)
        try Self.write(frames, to: root.appendingPathComponent("reference").path, settings: PreviewSettings(framesPerSecond: 12))
        var figures: [Bool: Double] = [:]
        for dithering in [true, false] {
            var settings = PreviewSettings(framesPerSecond: 12)
            settings.gifDithering = dithering
            let path = root.appendingPathComponent("d\(dithering).gif").path
            try Self.write(frames, to: path, settings: settings)
            figures[dithering] = try #require(try Self.read(path, ["--psnr-against", root.appendingPathComponent("reference").path])["mean_psnr"] as? Double)
        }
        #expect(figures[true]! > 30 && figures[false]! > 30, "\(figures)")
    }

    @Test(arguments: [false, true])
    func webpReadBackByPillow(lossless: Bool) throws {
        let root = try Lookaround.temporaryDirectory()
        var settings = PreviewSettings(framesPerSecond: 12)
        settings.lossless = lossless
        let path = root.appendingPathComponent("walk.webp").path
        try Self.write(try Self.frames(count: 12), to: path, settings: settings)
        let info = try Self.read(path)
        #expect(info["format"] as? String == "WEBP")
        #expect(info["frames"] as? Int == 12 && info["width"] as? Int == 96 && info["height"] as? Int == 64)
        let durations = try #require(info["durations_ms"] as? [Int])
        #expect(durations.reduce(0, +) == 1000, "\(durations)")
        #expect(durations.allSatisfy { $0 == 83 || $0 == 84 }, "\(durations)")
    }

    // A parameterized test's cancellation is reported per case (the test as passed): the trait reports it skipped.
    @Test(.enabled(if: which("ffmpeg") != nil && which("ffprobe") != nil, "ffmpeg is not installed (apt install ffmpeg)"),
          arguments: [PreviewFormat.mp4, .webm])
    func videoReadBackByFFprobe(format: PreviewFormat) throws {
        let root = try Lookaround.temporaryDirectory()
        let path = root.appendingPathComponent("walk.\(format.rawValue)").path
        do {
            try Self.write(try Self.frames(count: 30), to: path, settings: PreviewSettings(framesPerSecond: 30))
        } catch PlaybackError.toolMissing(let tool, let package, _) {
            try Test.cancel("skipped: \(tool) is not installed (Debian package \(package))")
        }
        let info = try Self.read(path)
        #expect(info["codec"] as? String == (format == .mp4 ? "h264" : "vp9"))
        #expect(info["frames"] as? Int == 30 && info["width"] as? Int == 96 && info["height"] as? Int == 64)
        #expect(abs((info["fps"] as? Double ?? 0) - 30) < 0.01)
    }

    @Test func missingFFmpegNamesTheDebianPackage() throws {
        let error = PlaybackError.toolMissing(tool: "ffmpeg", debianPackage: "ffmpeg", purpose: "writing MP4")
        #expect(error.description.contains("apt-get install ffmpeg"))
    }

    @Test func cancelLeavesNothingBehind() throws {
        let root = try Lookaround.temporaryDirectory()
        for name in ["walk.gif", "walk.webp", "frames"] {
            let path = root.appendingPathComponent(name).path
            let writer = try PreviewFormat(path: path).writer(path: path, width: 96, height: 64, settings: PreviewSettings(framesPerSecond: 12))
            for frame in try Self.frames(count: 3) { try writer.add(frame) }
            writer.cancel()
            #expect(!FileManager.default.fileExists(atPath: path), "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path).isEmpty)
    }

    @Test func outputsThatCannotBeWrittenAreNamedWithTheirCause() throws {
        let root = try Lookaround.temporaryDirectory()
        // A folder of someone else's files is never replaced by a frames folder.
        let theirs = root.appendingPathComponent("photos").path
        try FileManager.default.createDirectory(atPath: theirs, withIntermediateDirectories: false)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: theirs + "/holiday.jpg"))
        #expect(throws: PlaybackError.outputInTheWay(path: theirs)) {
            try Self.write(try Self.frames(count: 2), to: theirs + "/", settings: PreviewSettings(framesPerSecond: 12))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: theirs) == ["holiday.jpg"])
        // A missing parent folder is a write failure with its errno, for every format.
        for name in ["frames/", "walk.gif", "walk.webp"] {
            let path = root.appendingPathComponent("missing/\(name)").path
            #expect(throws: PlaybackError.cannotWrite(WriteFailure(path: path, code: ENOENT)), "\(name)") {
                try Self.write(try Self.frames(count: 2), to: path, settings: PreviewSettings(framesPerSecond: 12))
            }
        }
        #expect(try Self.leftovers(in: root).isEmpty)
    }

    @Test func formatsByExtension() throws {
        #expect(try PreviewFormat(path: "out/walk.GIF") == .gif)
        #expect(try PreviewFormat(path: "out/frames/") == .frames)
        #expect(try PreviewFormat(path: "walk.mp4").isVideo)
        #expect(throws: PlaybackError.invalidParameter(name: "-o", value: "walk.avi", allowed: "a folder (PNG frames), .gif, .webp, .mp4 or .webm")) {
            try PreviewFormat(path: "walk.avi")
        }
    }
}
