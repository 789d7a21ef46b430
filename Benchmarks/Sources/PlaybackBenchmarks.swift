import Catalog
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Playback
import Reprojection

// Playback benchmarks (issue 12): a 640×360 composed walk frame (depth warp + labels + map inset) on
// 2 cores; the depth warp alone; GIF encoding per frame, bytes and PSNR next to ffmpeg's
// palettegen/paletteuse on the same frames; a 60-second walk at 30 fps rendered and encoded to MP4,
// against real time.

private func fmt(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }

/// Mean PSNR of an animation's frames against PNG frames (read back by Pillow: scripts/read_animation.py).
private func animationPSNR(_ path: String, against folder: String) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "scripts/read_animation.py", path, "--psnr-against", folder]
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0, let json = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
    return json["mean_psnr"] as? Double
}

private func fileSize(_ path: String) -> Int { ((try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int) ?? 0 }

func runPlaybackBenchmarks() throws {
    let shipped = "Panoramas/helsinki", osm = "Panoramas/sources/helsinki-centre.osm.pbf"
    guard FileManager.default.fileExists(atPath: shipped), FileManager.default.fileExists(atPath: osm) else {
        print("playback: skipped (\(shipped) or \(osm) missing; run from the package root)")
        return
    }
    let tmp = NSTemporaryDirectory() + "lookaround-playback-bench-\(getpid())/"
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let catalog = try BenchmarkReport.shippedCatalog(in: tmp, osmFiles: [osm])
    let planner = try RoutePlanner(catalog: catalog)
    let from = try catalog.locate("Senaatintori", language: nil).coordinate
    let to = try catalog.locate("Stockmann", language: nil).coordinate
    let route = try planner.route(from: from, to: to)
    let snapshotter = try MapSnapshotter(dataset: try MapDataset(contentsOfFile: osm))
    print("   route Senaatintori → Stockmann: \(route.stops.count) panoramas, \(fmt(route.lengthMeters, 1)) m")

    // MARK: Depth warp alone.
    let camera = try ViewCamera(headingDegrees: 270, width: 640, height: 360)
    func endpoint(_ id: String) throws -> PanoramaTransition.Endpoint {
        let r = try catalog.panorama(id: id)
        let frame = try LocalTangentFrame(origin: route.stops[0].coordinate)
        let p = try frame.enu(from: r.coordinate)
        let depth = try PanoramaDepthMap(try PNGCodec.decodeGray16(try ImageFile.read(r.depthPath!)))
        return PanoramaTransition.Endpoint(image: try PanoramaDecoder.decode(try ImageFile.read(r.imagePath), level: 0), depth: depth,
                                           pose: PanoramaPose(headingDegrees: r.headingDegrees), position: EastNorthUp(east: p.east, north: p.north, up: 2.5))
    }
    let a = try endpoint("aleksanterinkatu-030"), b = try endpoint("aleksanterinkatu-029")
    var transition = PanoramaTransition(from: a, to: b)
    let setup = BenchmarkReport.medianMilliseconds(runs: 5) { transition = PanoramaTransition(from: a, to: b) }
    var out = RGB8Image(width: 640, height: 360)
    // The same camera every frame: the view's lookup is kept from the frame before.
    let warp = try BenchmarkReport.medianMilliseconds(runs: 21) { try transition.render(fraction: 0.5, camera: camera, into: &out) }
    // The camera turning a thousandth of a degree a frame (as a walk's does between corners): the
    // view's lookup is made afresh each frame instead of kept from the frame before.
    var turn = 0
    let turning = try BenchmarkReport.medianMilliseconds(runs: 21) {
        turn += 1
        try transition.render(fraction: 0.5, camera: try ViewCamera(headingDegrees: 270 + 0.001 * Double(turn), width: 640, height: 360), into: &out)
    }
    let crossfade = try BenchmarkReport.medianMilliseconds(runs: 21) { try transition.crossfade(fraction: 0.5, camera: camera, into: &out) }
    print("   depth warp 640×360 (two 2048×1024 panoramas): \(fmt(warp)) ms per frame "
          + "(set-up per move \(fmt(setup)) ms); crossfade \(fmt(crossfade)) ms")
    print("   depth warp, the camera turning 0.001° a frame (its lookup made afresh): \(fmt(turning)) ms per frame")

    // For counting the warp's instructions (valgrind): LOOKAROUND_BENCH_WARP_ONLY=1 stops here.
    if ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_WARP_ONLY"] != nil { return }

    // MARK: Composed frames.
    var timelineOptions = WalkTimeline.Options()
    timelineOptions.framesPerSecond = 30
    let timeline = try WalkTimeline(route: route, options: timelineOptions)
    let renderer = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: snapshotter)
    // Every frame of the walk's second move, rendered in order as a walk renders them: the move's
    // set-up was done beside the last frames of the first move (whose own set-up, the walk's first,
    // is done in line), and its first frames share the cores with the next move's set-up. The mean
    // carries that set-up; the median is a frame's typical time.
    let moving = timeline.frames.filter { !$0.isPaused }
    let segment = 1
    let move = moving.filter { $0.segment == segment }.map(\.index)
    let before = moving.filter { $0.segment == segment - 1 }.suffix(40).first?.index ?? move[0]
    for index in before..<move[0] { _ = try renderer.render(frameAt: index) }
    var times: [Double] = []
    for index in move { times.append(try BenchmarkReport.milliseconds { _ = try renderer.render(frameAt: index) }) }
    // LOOKAROUND_BENCH_TIMES=1 prints each frame's time, in order.
    if ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_TIMES"] != nil { print("   frame times in order (ms):", times.map { fmt($0, 1) }.joined(separator: " ")) }
    let mean = times.reduce(0, +) / Double(times.count)
    times.sort()
    print("   composed 640×360 frame (warp + labels + map inset + heads-up line), the \(times.count) frames of a move: "
          + "median \(fmt(times[times.count / 2])) ms, mean \(fmt(mean)) ms, 90th percentile \(fmt(times[times.count * 9 / 10])) ms (goal ≤ 8 ms)")
    // For profiling the frame: LOOKAROUND_BENCH_FRAMES_ONLY=1 stops here.
    if ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_FRAMES_ONLY"] != nil { return }

    // MARK: GIF vs ffmpeg palettegen/paletteuse.
    let gifTimeline = try WalkTimeline(route: route)
    let gifRenderer = try WalkRenderer(timeline: gifTimeline, catalog: catalog, mapSnapshotter: snapshotter)
    let frameCount = 48
    let start = gifTimeline.frames.first { !$0.isPaused }!.index
    let frames = try (0..<frameCount).map { try gifRenderer.render(frameAt: start + $0) }
    let folder = tmp + "frames"
    let pngWriter = try PreviewFormat.frames.writer(path: folder, width: 640, height: 360, settings: PreviewSettings(framesPerSecond: 12))
    for f in frames { try pngWriter.add(f) }
    try pngWriter.finish()
    var rows: [(name: String, ms: Double, bytes: Int, psnr: Double?)] = []
    for (palette, dithering) in [(GIFAnimationEncoder.Palette.perFrame, true), (.perFrame, false), (.global, true)] {
        var settings = PreviewSettings(framesPerSecond: 12)
        settings.gifPalette = palette
        settings.gifDithering = dithering
        let path = tmp + "ours-\(palette.rawValue)-\(dithering).gif"
        let ms = try BenchmarkReport.milliseconds {
            let writer = try PreviewFormat.gif.writer(path: path, width: 640, height: 360, settings: settings)
            for f in frames { try writer.add(f) }
            try writer.finish()
        }
        rows.append(("lookaround \(palette.rawValue)\(dithering ? " dithered" : "")", ms / Double(frameCount), fileSize(path), animationPSNR(path, against: folder)))
    }
    if let ffmpeg = BenchmarkReport.which("ffmpeg") {
        let peers: [(String, String)] = [
            ("ffmpeg palettegen+paletteuse (global, sierra2_4a)", "split[a][b];[a]palettegen[p];[b][p]paletteuse"),
            ("ffmpeg palettegen+paletteuse (per frame)", "split[a][b];[a]palettegen=stats_mode=single[p];[b][p]paletteuse=new=1"),
        ]
        for (k, peer) in peers.enumerated() {
            let path = tmp + "ffmpeg-\(k).gif"
            let arguments = ["-hide_banner", "-loglevel", "error", "-y", "-framerate", "12", "-i", folder + "/frame-%05d.png",
                             "-filter_complex", peer.1, path]
            // The PNG decode is part of ffmpeg's time; ours starts from decoded frames. Subtract a decode-only run.
            let decodeOnly = BenchmarkReport.spawnMilliseconds(ffmpeg, ["-hide_banner", "-loglevel", "error", "-framerate", "12",
                                                                        "-i", folder + "/frame-%05d.png", "-f", "null", "-"]) ?? 0
            if let ms = BenchmarkReport.spawnMilliseconds(ffmpeg, arguments) {
                rows.append((peer.0 + " (less its PNG decode)", (ms - decodeOnly) / Double(frameCount), fileSize(path), animationPSNR(path, against: folder)))
            }
        }
    } else {
        print("   ffmpeg: not installed (apt-get install ffmpeg); no GIF peer")
    }
    print("   GIF of \(frameCount) composed 640×360 frames:")
    for row in rows {
        print("     \(row.name.padding(toLength: 62, withPad: " ", startingAt: 0)) \(fmt(row.ms)) ms/frame  "
              + "\(row.bytes / frameCount / 1024) KiB/frame  PSNR \(row.psnr.map { fmt($0, 1) + " dB" } ?? "n/a")")
    }

    // MARK: 60 s at 30 fps to MP4.
    if BenchmarkReport.which("ffmpeg") != nil {
        let seconds = 60.0
        let count = min(timeline.frames.count, Int(seconds * 30))
        let videoRenderer = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: snapshotter)
        let path = tmp + "walk.mp4"
        let ms = try BenchmarkReport.milliseconds {
            let writer = try PreviewFormat.mp4.writer(path: path, width: 640, height: 360, settings: PreviewSettings(framesPerSecond: 30))
            for i in 0..<count { try writer.add(try videoRenderer.render(frameAt: i)) }
            try writer.finish()
        }
        print("   \(fmt(Double(count) / 30, 0)) s walk at 30 fps, 640×360, rendered + MP4 (libx264 veryfast): \(fmt(ms / 1000, 1)) s "
              + "= \(fmt(Double(count) / 30 / (ms / 1000), 2))× real time (goal > 1×), \(fileSize(path) / 1024) KiB")
    }
}
