import Foundation
import Imaging
import ProcessRunner
import Video
import VideoTestSupport

// Video benchmarks (issue 51): frames per second out of a 5.7K GoPro MAX `.360` (two 4096×1344 HEVC
// streams at the camera's 60 Mbit/s, 30 fps), every frame written: decode + cube rebuild with the
// seam blend + reprojection to 5376×2688 equirectangular + JPEG, against the same work by the ffmpeg
// command line (crop, geq seam blend, scale, hstack/vstack, v360=eac:e, mjpeg) in the same run, on all
// cores. Both write JPEGs of about the same quality (ours q90; ffmpeg -q:v 2) into one temporary folder.

private func fmt(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
private func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }

/// The recording, made once and kept in the temporary folder between runs: `frames` frames at 30 fps,
/// the shipped panoramas in turn, the camera's layout and bitrate, a GPMF track at 15 m/s (0.5 m a frame).
private func benchmarkRecording(frames: Int) throws -> String {
    let folder = NSTemporaryDirectory() + "/lookaround-bench-video"
    let path = folder + "/GS010001-\(frames).360"
    if FileManager.default.fileExists(atPath: path) { return path }
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    let shipped = root.appendingPathComponent("Panoramas/helsinki")
    let names = try FileManager.default.contentsOfDirectory(atPath: shipped.path).filter { $0.hasPrefix("aleksanterinkatu") && $0.hasSuffix(".jpg") }.sorted()
    let files = (0..<frames).map { shipped.appendingPathComponent(names[$0 % names.count]).path }
    let start = Date(timeIntervalSince1970: 1_781_514_930)
    let seconds = (frames + 29) / 30
    let payloads = (0..<seconds).map { s in
        GPMFWriter.payload(fixes: (0..<18).map { j in
            let t = Double(s) + Double(j) / 18
            return TestFix(latitude: 60.168 + 15 * t / 111_320, longitude: 24.94, altitudeMeters: 10, speedMetersPerSecond: 15,
                           utc: start.addingTimeInterval(t))
        })
    }
    let made = folder + "/.making.360"
    print("   (making the recording: \(frames) frames of two 4096x1344 HEVC streams at 60 Mbit/s, once)")
    try TestRecordings.goProMax360(panoramaFiles: files, layout: .max56K, payloads: payloads, path: made, fps: 30, bitrate: "60M", preset: "superfast")
    try FileManager.default.moveItem(atPath: made, toPath: path)
    return path
}

func runVideoBenchmarks() throws {
    guard let ffmpeg = BenchmarkReport.which("ffmpeg") else {
        print("   skipped: ffmpeg not found (apt install ffmpeg): it makes the recording and is the peer")
        return
    }
    let frames = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_VIDEO_FRAMES"] ?? "") ?? 60
    let path = try benchmarkRecording(frames: frames)
    let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
    let recording = try VideoRecording(path: path)
    print("   \(FilePath.name(of: path)): \(recording.chapters[0].movie.videoTracks.count) streams \(recording.width)x\(recording.height), "
          + "\(frames) frames, \(fmt(Double(size) * 8 / recording.durationSeconds / 1e6, 1)) Mbit/s; projection \(recording.projection.rawValue)")
    let plan = try TrackSampler.plan(recording, everyMeters: 0.5)
    print("   plan: \(plan.frames.count) frames (every video frame: 15 m/s, a frame every 0.5 m)")
    let output = NSTemporaryDirectory() + "/lookaround-bench-video/out"
    func clean() {
        try? FileManager.default.removeItem(atPath: output)
        try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
    }
    func folderBytes() -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []).reduce(0) {
            $0 + ((try? FileManager.default.attributesOfItem(atPath: output + "/" + $1)[.size] as? Int) ?? 0)
        }
    }
    // The maps are built once per process (about a second): outside the timed runs, as ffmpeg's v360
    // builds its own once per run (inside its timing: it cannot keep them between runs).
    clean()
    let mapSeconds = BenchmarkReport.milliseconds { FrameExtractor.prepare(recording) } / 1000
    var ours: [Double] = [], oursBytes = 0, written = 0
    for _ in 0..<3 {
        clean()
        let ms = try BenchmarkReport.milliseconds {
            written = try FrameExtractor.extract(recording, plan: plan, path: { String(format: "%@/%06d.jpg", output, $0) }).count
        }
        ours.append(Double(written) / (ms / 1000))
        oursBytes = folderBytes()
    }
    func peer(blend: Bool) -> (fps: Double, bytes: Int)? {
        var rates: [Double] = [], bytes = 0
        for _ in 0..<3 {
            clean()
            let graph = GoProMaxRecipe.filterGraph(.max56K, width: 5376, height: 2688, blend: blend, interpolation: "line")
            guard let ms = BenchmarkReport.spawnMilliseconds(ffmpeg, ["-v", "error", "-i", path, "-filter_complex", graph, "-map", "[out]",
                                                                      "-q:v", "2", "-f", "image2", output + "/%06d.jpg"]) else { return nil }
            let count = (try? FileManager.default.contentsOfDirectory(atPath: output).count) ?? 0
            rates.append(Double(count) / (ms / 1000))
            bytes = folderBytes()
        }
        return (rates.sorted()[1], bytes)
    }
    let oursMedian = ours.sorted()[1]
    let withBlend = peer(blend: true), withoutBlend = peer(blend: false)
    print(pad("   lookaround (decode + rebuild + reprojection + JPEG q90)", 78) + "\(fmt(oursMedian, 2)) fps  "
          + "(\(written) frames, \(oursBytes / max(written, 1) / 1024) KiB each; maps built once in \(fmt(mapSeconds, 2)) s)")
    if let withBlend {
        print(pad("   ffmpeg: crop + geq seam blend + scale + stack + v360=eac:e + mjpeg -q:v 2", 78) + "\(fmt(withBlend.fps, 2)) fps  "
              + "(\(withBlend.bytes / max(frames, 1) / 1024) KiB each)   ratio \(fmt(oursMedian / withBlend.fps, 2))×")
    } else {
        print("   ffmpeg with the seam blend: failed")
    }
    if let withoutBlend {
        print(pad("   ffmpeg: the same without the blend (one seam copy stretched)", 78) + "\(fmt(withoutBlend.fps, 2)) fps  "
              + "(\(withoutBlend.bytes / max(frames, 1) / 1024) KiB each)   ratio \(fmt(oursMedian / withoutBlend.fps, 2))×")
    }
    print("   goal: ≥ 1.5× ffmpeg's rate with the same work (the blend) on \(ProcessInfo.processInfo.activeProcessorCount) cores")
    try? FileManager.default.removeItem(atPath: output)
}
