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

    @Test(arguments: [PreviewFormat.mp4, .webm])
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

    @Test func formatsByExtension() throws {
        #expect(try PreviewFormat(path: "out/walk.GIF") == .gif)
        #expect(try PreviewFormat(path: "out/frames/") == .frames)
        #expect(try PreviewFormat(path: "walk.mp4").isVideo)
        #expect(throws: PlaybackError.invalidParameter(name: "-o", value: "walk.avi", allowed: "a folder (PNG frames), .gif, .webp, .mp4 or .webm")) {
            try PreviewFormat(path: "walk.avi")
        }
    }
}
