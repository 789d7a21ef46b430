import Foundation
import Imaging
import ProcessRunner
import Reprojection
import Video

/// Recordings in the cameras' real layouts, made from panoramas of known content (the shipped simulated
/// ones), for tests and benchmarks: the pictures through the `ffmpeg` command line (HEVC, H.264), the
/// telemetry written here (GPMF, GPX), the boxes joined by ``MP4Writer``.
public enum TestRecordings {
    /// The ffmpeg the recordings are encoded with.
    public static let ffmpeg = "/usr/bin/ffmpeg"

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// `shared/data/video` beside `repository` (or beside a folder of worktrees holding it): the real GoPro
    /// files the tests read; nil when it is not there.
    public static func sharedVideoData(besides repository: URL) -> URL? {
        var folder = repository.deletingLastPathComponent()
        for _ in 0..<3 {
            let candidate = folder.appendingPathComponent("shared/data/video")
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }

    /// Runs ffmpeg; throws its stderr when it fails.
    public static func runFFmpeg(_ arguments: [String]) throws {
        let outcome = try ChildProcess.run(ffmpeg, ["-hide_banner", "-loglevel", "error", "-y"] + arguments)
        guard outcome.exitStatus == 0 else {
            throw Failure(description: "ffmpeg \(arguments.joined(separator: " ")): " + String(decoding: outcome.stderr, as: UTF8.self))
        }
    }

    /// A GoPro MAX `.360` at `path`: one frame per panorama (each `framesPerPanorama` times) at `fps`, both strips
    /// of `layout` as HEVC (full-range BT.709 4:2:0, as the camera writes), then a `gpmd` track of `payloads`
    /// (one per second) and GoPro's `udta` (firmware, model).
    public static func goProMax360(panoramas: [RGB8Image], layout: GoProMaxLayout, payloads: [[UInt8]], path: String,
                                   fps: Int = 1, framesPerPanorama: Int = 1, crf: Int = 18) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let a = folder + "/.strip-a.rgb", b = folder + "/.strip-b.rgb"
        FileManager.default.createFile(atPath: a, contents: nil)
        FileManager.default.createFile(atPath: b, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: a); try? FileManager.default.removeItem(atPath: b) }
        let handleA = try FileHandle(forWritingTo: URL(fileURLWithPath: a)), handleB = try FileHandle(forWritingTo: URL(fileURLWithPath: b))
        let cubemap = layout.cubemap
        for panorama in panoramas {
            let strips = layout.strips(fromCube: cubemap.render(from: panorama))
            for _ in 0..<framesPerPanorama {
                handleA.write(Data(strips.a.components))
                handleB.write(Data(strips.b.components))
            }
        }
        try handleA.close()
        try handleB.close()
        let size = "\(layout.stripWidth)x\(layout.stripHeight)"
        let encoded = folder + "/.strips.mp4"
        defer { try? FileManager.default.removeItem(atPath: encoded) }
        try runFFmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-r", "\(fps)", "-i", a,
                       "-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-r", "\(fps)", "-i", b,
                       "-map", "0:v", "-map", "1:v", "-vf", "scale=out_color_matrix=bt709:out_range=full,format=yuvj420p",
                       "-c:v", "libx265", "-preset", "ultrafast", "-crf", "\(crf)", "-x265-params", "log-level=error",
                       "-color_range", "pc", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                       "-tag:v", "hvc1", "-metadata", "creation_time=2019-11-18T15:45:32Z", encoded])
        try addGoProTelemetry(payloads, to: encoded, writing: path)
    }

    /// The filter graph that turns equirectangular frames into the two strips of `layout` with FFmpeg alone
    /// (`v360=e:eac` for the cube, then crops, the seam squeezed into two copies, stacks): the camera's side,
    /// written independently of ``GoProMaxLayout/strips(fromCube:)``. Outputs `[A]` and `[B]`.
    public static func stripFilterGraph(_ layout: GoProMaxLayout) -> String {
        let f = layout.faceSize, kept = layout.keptWidth, seam = layout.seamWidth, overlap = layout.overlap
        // Through RGB, so that the last scale makes real BT.709 (a YUV-to-YUV scale keeps the matrix). FFmpeg's
        // EAC insets its faces by 2 pixels (at the layout's left and right, above and below each row): made
        // 4 + 3f wide and 8 + 2f high, the faces are exactly f square at (2 + k·f, 2) and (2 + k·f, f + 6).
        var graph = "[0:v]format=rgb24,v360=e:eac:w=\(3 * f + 4):h=\(2 * f + 8):interp=cubic,split=14" + (0..<14).map { "[c\($0)]" }.joined() + ";"
        var next = 0
        func label() -> String { defer { next += 1 }; return "c\(next)" }
        for (row, name) in [(0, "A"), (1, "B")] {
            let y = row == 0 ? 2 : f + 6
            var parts: [String] = []
            for (k, x0) in [2, 2 * f + 2].enumerated() {
                let p = "r\(row)s\(k)"
                graph += "[\(label())]crop=\(kept):\(f):\(x0):\(y)[\(p)l];"
                graph += "[\(label())]crop=\(seam):\(f):\(x0 + kept):\(y),scale=\(overlap):\(f),split=2[\(p)s1][\(p)s2];"
                graph += "[\(label())]crop=\(kept):\(f):\(x0 + kept + seam):\(y)[\(p)r];"
                graph += "[\(p)l][\(p)s1][\(p)s2][\(p)r]hstack=4[\(p)];"
                parts.append(p)
            }
            graph += "[\(label())]crop=\(f):\(f):\(f + 2):\(y)[r\(row)c];"
            graph += "[\(parts[0])][r\(row)c][\(parts[1])]hstack=3,scale=out_color_matrix=bt709:out_range=full,format=yuvj420p[\(name)];"
        }
        return String(graph.dropLast())
    }

    /// A GoPro MAX `.360` made by FFmpeg alone from panorama JPEG files (``stripFilterGraph(_:)``), at `fps`,
    /// with the `gpmd` track of `payloads` and GoPro's `udta`, as ``goProMax360(panoramas:layout:payloads:path:fps:framesPerPanorama:crf:)``.
    /// `bitrate` (FFmpeg's `-b:v`, "60M" as the camera) instead of `crf` when given.
    public static func goProMax360(panoramaFiles: [String], layout: GoProMaxLayout, payloads: [[UInt8]], path: String,
                                   fps: Int = 1, crf: Int = 18, bitrate: String? = nil, preset: String = "ultrafast") throws {
        let folder = (path as NSString).deletingLastPathComponent + "/.panoramas-\(getpid())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (k, file) in panoramaFiles.enumerated() {
            try FileManager.default.createSymbolicLink(atPath: folder + String(format: "/p%04d.jpg", k), withDestinationPath: file)
        }
        let encoded = (path as NSString).deletingLastPathComponent + "/.strips-\(getpid()).mp4"
        defer { try? FileManager.default.removeItem(atPath: encoded) }
        try runFFmpeg(["-framerate", "\(fps)", "-start_number", "0", "-i", folder + "/p%04d.jpg", "-filter_complex", stripFilterGraph(layout),
                       "-map", "[A]", "-map", "[B]", "-c:v", "libx265", "-preset", preset]
                      + (bitrate.map { ["-b:v", $0] } ?? ["-crf", "\(crf)"]) + ["-x265-params", "log-level=error",
                       "-color_range", "pc", "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709",
                       "-tag:v", "hvc1", "-metadata", "creation_time=2019-11-18T15:45:32Z", encoded])
        try addGoProTelemetry(payloads, to: encoded, writing: path)
    }

    /// `source` with a `gpmd` track of `payloads` (one per second) and GoPro's `udta`, written to `path`.
    public static func addGoProTelemetry(_ payloads: [[UInt8]], to source: String, writing path: String) throws {
        let track = MP4Writer.MetadataTrack(format: "gpmd", handler: "meta", name: "GoPro MET",
                                            samples: payloads.map { .init(bytes: $0, duration: 1000) })
        let userData = MP4Writer.box("FIRM", Array("H19.03.02.00.00".utf8))
            + MP4Writer.box("GPMF", GPMFWriter.nest("DEVC", GPMFWriter.entry("MINF", "c", size: 9, count: 1, Array("GoPro Max".utf8))))
        let file = try MP4Writer.adding([track], to: [UInt8](try Data(contentsOf: URL(fileURLWithPath: source))), userData: userData)
        try Data(file).write(to: URL(fileURLWithPath: path))
    }

    /// An equirectangular MP4 at `path` (H.264, limited-range BT.601 4:2:0 as most exports are): each panorama
    /// `framesPerPanorama` times at `fps`, with the given creation time; no spherical metadata unless `spherical`.
    public static func equirectangularMP4(panoramas: [RGB8Image], path: String, fps: Int = 1, framesPerPanorama: Int = 1,
                                          creationTime: String, crf: Int = 18) throws {
        let folder = (path as NSString).deletingLastPathComponent
        let raw = folder + "/.frames.rgb"
        FileManager.default.createFile(atPath: raw, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: raw) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: raw))
        for panorama in panoramas { for _ in 0..<framesPerPanorama { handle.write(Data(panorama.components)) } }
        try handle.close()
        let size = "\(panoramas[0].width)x\(panoramas[0].height)"
        try runFFmpeg(["-f", "rawvideo", "-pix_fmt", "rgb24", "-s", size, "-r", "\(fps)", "-i", raw, "-c:v", "libx264", "-preset", "veryfast",
                       "-crf", "\(crf)", "-pix_fmt", "yuv420p", "-metadata", "creation_time=\(creationTime)", path])
    }

    /// A GPX 1.1 track of `fixes`.
    public static func gpx(_ fixes: [TestFix]) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let points = fixes.map {
            "   <trkpt lat=\"\(String(format: "%.8f", $0.latitude))\" lon=\"\(String(format: "%.8f", $0.longitude))\"><ele>\($0.altitudeMeters)</ele>"
                + "<time>\(formatter.string(from: $0.utc))</time></trkpt>"
        }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="lookaround tests" xmlns="http://www.topografix.com/GPX/1/1">
             <trk><name>test</name><trkseg>
            \(points)
             </trkseg></trk>
            </gpx>

            """
    }
}
