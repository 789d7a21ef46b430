import Catalog
import Dispatch
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import MapSnapshot
import Service
import Synchronization

// `Benchmarks web` (issue 32): the web viewer of `lookaround serve`, each figure with its peer measured in
// the same run.
//  1. A 1280×720 frame for a new camera (render + labels + JPEG q80) on one core, in-process, against
//     OpenCV's remap + imencode of the same size from the same panorama (scripts/bench_web_opencv.py).
//  2. Headless Chromium on loopback (scripts/bench_web.py drag): a drag at 60 Hz driven from
//     requestAnimationFrame, measured in the page with performance.now().
//  3. First view of a deep link against Pannellum 2.5.6 (Benchmarks/pannellum/) showing the same
//     panorama JPEG on Chromium's software WebGL (scripts/bench_web.py firstview).
//  4. 256² map tiles at zooms 14–18 over the Helsinki extract, in-process (render + PNG, 2 threads) and
//     from a fresh server, against Mapnik rendering the same tiles in 2 processes
//     (scripts/bench_web_mapnik_tiles.py); 3 rounds in turn, medians.
//  5. Simulated viewers dragging at 30 fps (scripts/bench_web.py load): p50/p99 latency, fps per viewer.
// Every loop is bounded in count and time; everything is on 127.0.0.1.

/// Browser runs per side for a first view (the median counts): a fresh Chromium's first paint moves by
/// ±40 ms from run to run on this machine, more than 3 runs can settle.
private let firstViewRuns = 7

func f1(_ v: Double?) -> String { v.map { String(format: "%.1f", $0) } ?? "–" }
private func f2(_ v: Double?) -> String { v.map { String(format: "%.2f", $0) } ?? "–" }
private func met(_ ok: Bool) -> String { ok ? "met" : "NOT met" }

/// Runs a helper (`python` the interpreter, found on PATH unless it is a path, or an executable script's
/// path) and decodes the JSON object of its last stdout line; nil, after printing why, when it fails.
func runHelper(_ python: String, _ arguments: [String], directory: String? = nil, label: String) -> [String: Any]? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python.contains("/") ? python : "/usr/bin/env")
    process.arguments = (python.contains("/") ? [] : [python]) + arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    do { try process.run() } catch {
        print("   \(label): cannot run \(python): \(error)")
        return nil
    }
    // Read stderr on another thread so a chatty helper cannot block on a full pipe.
    nonisolated(unsafe) var errors = Data()
    let reader = Thread { errors = err.fileHandleForReading.readDataToEndOfFile() }
    reader.start()
    let data = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { Thread.sleep(forTimeInterval: 0.01) }
    guard process.terminationStatus == 0,
          let line = String(decoding: data, as: UTF8.self).split(separator: "\n").last,
          let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        let message = String(decoding: errors, as: UTF8.self).split(separator: "\n").suffix(6).joined(separator: "\n     ")
        print("   \(label): failed (exit \(process.terminationStatus)): \(message)")
        return nil
    }
    return object
}

func number(_ object: [String: Any]?, _ key: String) -> Double? {
    (object?[key] as? NSNumber)?.doubleValue
}

/// The scripts folder: beside the working directory, or found from this source file.
func webScript(_ name: String) -> String {
    let fromSource = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("scripts/\(name)").path
    return FileManager.default.fileExists(atPath: "scripts/\(name)") ? URL(fileURLWithPath: "scripts/\(name)").path : fromSource
}

/// Pins every thread of this process (and so the threads it starts later) to one core; returns a
/// function that gives them all back. One-core figures measured with the library's default threading.
/// glibc's sched_getaffinity/sched_setaffinity (not imported into Swift's Glibc), found with dlsym.
func pinToOneCore() -> () -> Void {
    typealias Affinity = @convention(c) (Int32, Int, UnsafeMutableRawPointer) -> Int32
    guard let getSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_getaffinity"),
          let setSymbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "sched_setaffinity") else {
        print("   (cannot pin to one core: no sched_setaffinity; the figure uses every core)")
        return {}
    }
    let getAffinity = unsafeBitCast(getSymbol, to: Affinity.self), setAffinity = unsafeBitCast(setSymbol, to: Affinity.self)
    var original = [UInt64](repeating: 0, count: 16)  // a cpu_set_t: 1024 bits
    _ = original.withUnsafeMutableBytes { getAffinity(0, $0.count, $0.baseAddress!) }
    var one = [UInt64](repeating: 0, count: 16)
    if let word = original.firstIndex(where: { $0 != 0 }) { one[word] = 1 << UInt64(original[word].trailingZeroBitCount) }
    func apply(_ set: [UInt64]) {
        var set = set
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        for task in tasks {
            if let tid = Int32(task) { _ = set.withUnsafeMutableBytes { setAffinity(tid, $0.count, $0.baseAddress!) } }
        }
    }
    apply(one)
    return { apply(original) }
}

func runWebBenchmarks() throws {
    let python = BenchmarkReport.which("python3") ?? "/usr/bin/python3"
    let service = try benchmarkService()
    let catalog = service.catalog
    let panoramaID = "senaatintori-005"
    let scene = try LookAroundScene(panoramaID: panoramaID, catalog: catalog)
    let record = try catalog.panorama(id: panoramaID)
    print("   catalog: \(catalog.panoramaCount) shipped panoramas (2048×1024), figures on \(panoramaID); python: \(python)")

    // MARK: 1. A 1280×720 frame for a new camera, one core.
    let frames = 60
    let cameras = (0..<frames).map { f in
        LookAroundSnapshotter.Camera(headingDegrees: (Double(f) * 6.1).truncatingRemainder(dividingBy: 360),
                                     pitchDegrees: 20 * sin(Double(f) * 0.4), fieldOfViewDegrees: 90)
    }
    let size = PixelSize(width: 1280, height: 720)
    let cache = PanoramaCache()
    func options(_ camera: LookAroundSnapshotter.Camera, labels: Bool) -> LookAroundSnapshotter.Options {
        LookAroundSnapshotter.Options(size: size, camera: camera, pointOfInterestFilter: labels ? .includingAll : .excludingAll,
                                      showsRoadLabels: labels)
    }
    // Warm: the tile file, the decoded level, the depth map, the places near the panorama.
    for camera in cameras.prefix(3) {
        _ = try LookAroundSnapshotter(scene: scene, options: options(camera, labels: true), cache: cache, catalog: catalog).render()
    }
    let restore = pinToOneCore()
    let pinnedCores = ProcessInfo.processInfo.activeProcessorCount
    var bytes = 0, labelCount = 0
    // The variants take turns, round after round (the machine's speed drifts): the median of 5 rounds of
    // each, a round being the mean ms per frame over every camera.
    var last: LookAroundSnapshotter?
    let variants: [(LookAroundSnapshotter.Camera) throws -> Void] = [
        { camera in  // a new snapshotter per request, then JPEG q80 (how /v1/snapshot answered before LabelSourceCache)
            let snapshot = try LookAroundSnapshotter(scene: scene, options: options(camera, labels: true), cache: cache, catalog: catalog).render()
            bytes = try JPEGCodec.encode(snapshot.image, quality: 80).count
            labelCount = snapshot.labels.count + snapshot.roadLabels.count
        },
        { camera in _ = try LookAroundSnapshotter(scene: scene, options: options(camera, labels: false), cache: cache, catalog: catalog).render() },
        { camera in _ = try LookAroundSnapshotter(scene: scene, options: options(camera, labels: true), cache: cache, catalog: catalog).render() },
        { camera in  // one snapshotter after another sharing what the labels read (as /v1/snapshot's LabelSourceCache and the terminal viewer do)
            let next = last?.sharingLabels(scene: scene, options: options(camera, labels: true), catalog: catalog)
                ?? LookAroundSnapshotter(scene: scene, options: options(camera, labels: true), cache: cache, catalog: catalog)
            last = next
            _ = try JPEGCodec.encode(try next.render().image, quality: 80)
        },
    ]
    // Wall time, and the process's CPU time: with every thread on one core, CPU time leaves out what other
    // processes took of that core (the machine is shared), so it is the steadier one-core figure.
    func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
    var rounds = [[Double]](repeating: [], count: variants.count), cpuRounds = rounds
    for _ in 0..<5 {
        for (index, variant) in variants.enumerated() {
            let start = DispatchTime.now().uptimeNanoseconds, cpuStart = cpuNanoseconds()
            for camera in cameras { try variant(camera) }
            rounds[index].append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 / Double(frames))
            cpuRounds[index].append(Double(cpuNanoseconds() - cpuStart) / 1e6 / Double(frames))
        }
    }
    let medians = rounds.map { $0.sorted()[2] }, cpu = cpuRounds.map { $0.sorted()[2] }
    let served = medians[0], renderOnly = medians[1], withLabels = medians[2], shared = medians[3]
    let image = try LookAroundSnapshotter(scene: scene, options: options(cameras[7], labels: true), cache: cache, catalog: catalog).render().image
    let encode = try BenchmarkReport.medianMilliseconds(runs: 21) { _ = try JPEGCodec.encode(image, quality: 80) }
    let encodeCPUStart = cpuNanoseconds()
    for _ in 0..<21 { _ = try JPEGCodec.encode(image, quality: 80) }
    let encodeCPU = Double(cpuNanoseconds() - encodeCPUStart) / 1e6 / 21
    // Every OpenCV on the machine (BenchmarkReport.opencvPythons); the goal is judged against the one
    // with the least CPU a frame.
    let opencvs = BenchmarkReport.opencvPythons.compactMap { peer in
        runHelper(peer.python, [webScript("bench_web_opencv.py"), record.imagePath, "1280", "720", "90", "80", "\(frames)"],
                  label: "OpenCV \(peer.version) peer")
    }
    let opencv = opencvs.min { (number($0, "frame_cpu_ms") ?? .infinity) < (number($1, "frame_cpu_ms") ?? .infinity) }
    restore()
    let peerFrame = number(opencv, "frame_ms")
    print("")
    print("   1. 1280×720 frame for a new camera (\(frames) headings 6.1° apart, pitch ±20°), every thread pinned to one core "
          + "(activeProcessorCount then \(pinnedCores)), median of 5 rounds taken in turns")
    let peerCPU = number(opencv, "frame_cpu_ms")
    print("   \("step".padding(toLength: 70, withPad: " ", startingAt: 0))  wall ms   CPU ms")
    func row(_ name: String, _ ms: Double?, _ cpuMs: Double?, _ extra: String = "") {
        print("   \(name.padding(toLength: 70, withPad: " ", startingAt: 0)) \(f2(ms).leftPadded(8)) \(f2(cpuMs).leftPadded(8))  \(extra)")
    }
    row("render, no labels", renderOnly, cpu[1])
    row("render + place and road labels", withLabels, cpu[2], "(labels pass \(f2(cpu[2] - cpu[1])) ms CPU)")
    row("JPEG q80 encode", encode, encodeCPU, "(\(bytes) bytes, \(labelCount) labels)")
    row("a new snapshotter per frame, render + labels + JPEG q80", served, cpu[0], "(the labels' sources read again each time)")
    row("as /v1/snapshot does: label sources kept per panorama, + JPEG q80", shared, cpu[3],
        peerFrame.map { String(format: "OpenCV/ours: wall %.2f×, CPU %.2f×", $0 / shared, (peerCPU ?? .nan) / cpu[3]) } ?? "")
    for peer in opencvs {
        row("OpenCV \(peer["opencv"] ?? "?") remap (maps precomputed, not timed) + imencode q80", number(peer, "frame_ms"),
            number(peer, "frame_cpu_ms"),
            String(format: "(remap %.2f, encode %.2f; one camera's maps in numpy %.1f ms; no labels)",
                   number(peer, "remap_ms") ?? .nan, number(peer, "encode_ms") ?? .nan, number(peer, "maps_ms") ?? .nan))
    }
    // Issue 55's goal for the frame as /v1/snapshot serves it: ≤ 5 ms of CPU on one core and ≥ 1.6× OpenCV's remap + encode.
    let peerRatio = peerCPU.map { $0 / cpu[3] }
    print("   goal: render + labels + encode ≤ 5 ms CPU on one core, as served: \(met(cpu[3] <= 5)) (CPU \(f2(cpu[3])) ms, wall \(f2(shared)) ms); "
          + "≥ 1.6× the fastest OpenCV remap + imencode (\(opencv?["opencv"] ?? "?"), CPU \(f2(peerCPU)) ms): "
          + (peerRatio.map { "\(met($0 >= 1.6)) (\(f2($0))×)" } ?? "OpenCV not measured"))

    // LOOKAROUND_BENCH_WEB_FRAME_ONLY=1: stop here (for `perf record` / callgrind of the frame).
    if ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_WEB_FRAME_ONLY"] == "1" { return }

    // MARK: 2–5 against the server: lookaround serve (release) on 127.0.0.1.
    var server: ServedProcess? = try ServedProcess(catalog: catalog.path)
    let base = "http://127.0.0.1:\(server!.port)"
    print("")
    print("   server: lookaround serve on 127.0.0.1 (2 render workers on the 2 cores); Chromium headless (SwiftShader WebGL), Selenium")

    // 2. Drag in Chromium.
    let drag = runHelper(python, [webScript("bench_web.py"), "drag", base, panoramaID, "6", "1280x720"], label: "drag")
    if let drag {
        let canvas = (drag["canvas"] as? [NSNumber])?.map { "\($0)" }.joined(separator: "×") ?? "?"
        print("")
        print("   2. drag in Chromium, canvas \(canvas), measured in the page (performance.now(), Resource Timing)")
        func describe(_ d: [String: Any]?, _ name: String) {
            print("      \(name): \(f1(number(d, "inputs_per_second"))) inputs/s for \(f1(number(d, "seconds"))) s")
            print("        input → painted server frame: median \(f1(number(d, "input_to_paint_median_ms"))) ms, 90th \(f1(number(d, "input_to_paint_p90_ms"))) ms; "
                  + "the viewer's request → painted: median \(f1(number(d, "request_to_paint_median_ms"))) ms, 90th \(f1(number(d, "request_to_paint_p90_ms"))) ms "
                  + "(of which the fetch, request to last byte: median \(f1(number(d, "fetch_median_ms"))) ms)")
            print("        painted server frames \(f1(number(d, "painted_per_second")))/s (\(Int(number(d, "requested") ?? 0)) requested, "
                  + "\(Int(number(d, "dropped") ?? 0)) dropped or aborted); immediate-feedback repaints \(f1(number(d, "repaints_per_second")))/s; "
                  + "animation frames \(f1(number(d, "raf_per_second")))/s (interval median \(f1(number(d, "raf_interval_median_ms"))) ms, "
                  + "90th \(f1(number(d, "raf_interval_p90_ms"))) ms); main thread per input (setCamera + repaint) \(f2(number(d, "input_main_thread_median_ms"))) ms")
        }
        let pointer = drag["pointer"] as? [String: Any]
        describe(pointer, "mouse drag (DevTools Input.dispatchMouseEvent, 3 px a move, sent at up to 60 Hz; the viewer's pointer handler)")
        describe(drag, "setCamera from requestAnimationFrame, +1.5° every animation frame (60 Hz); a camera set inside a frame is requested in the next (+≤16.7 ms)")
        let latency = number(pointer, "input_to_paint_median_ms") ?? .infinity, rate = number(drag, "painted_per_second") ?? 0
        print("      goal: median drag → painted ≤ 40 ms (mouse drag): \(met(latency <= 40)) (\(f1(latency)) ms); "
              + "≥ 30 painted frames/s (60 Hz drag): \(met(rate >= 30)) (\(f1(rate))/s)")
    }

    // 3. First view against Pannellum.
    let pannellumFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("pannellum").path
    let heading = 75.0
    let first = runHelper(python, [webScript("bench_web.py"), "firstview", base, panoramaID, "\(heading)",
                                   "\(record.headingDegrees)", pannellumFolder, record.imagePath, "\(firstViewRuns)", "1280x720"],
                          label: "first view")
    if let first, let ours = first["lookaround"] as? [String: Any], let theirs = first["pannellum"] as? [String: Any] {
        let oursBytes = number(ours, "bytes") ?? .nan, theirBytes = number(theirs, "bytes") ?? .nan
        let oursMs = number(ours, "ms_median") ?? .nan, theirMs = number(theirs, "ms_median") ?? .nan
        print("")
        print("   3. first view of a deep link (\(panoramaID), heading \(Int(heading))°, 1280×720 window, a fresh browser and profile each; median of \(firstViewRuns); "
              + "ours timed by the Element Timing of its first-view picture, Pannellum by the animation frame after its load event)")
        func largest(_ side: [String: Any]) -> String {
            ((side["largest"] as? [[Any]]) ?? []).prefix(4).map { "\(String(describing: $0[0]).split(separator: "?").first ?? "") \($0[1])" }.joined(separator: ", ")
        }
        print("      lookaround: \(Int(oursBytes)) bytes in \(Int(number(ours, "requests") ?? 0)) responses, painted at \(f1(oursMs)) ms "
              + "(runs \(((ours["ms_all"] as? [NSNumber]) ?? []).map { f1($0.doubleValue) }.joined(separator: ", "))); largest: \(largest(ours))")
        print("      Pannellum 2.5.6 (WebGL: \(first["webgl_renderer"] ?? "?")): \(Int(theirBytes)) bytes in \(Int(number(theirs, "requests") ?? 0)) responses "
              + "(the JPEG \(Int(number(first, "jpeg_bytes") ?? 0))), loaded at \(f1(theirMs)) ms "
              + "(runs \(((theirs["ms_all"] as? [NSNumber]) ?? []).map { f1($0.doubleValue) }.joined(separator: ", "))); largest: \(largest(theirs))")
        if let bare = first["floor"] as? [String: Any] {
            print("      the floor, a static page of only our first frame as an <img> (the same JPEG, from Pannellum's Python server): "
                  + "\(Int(number(bare, "bytes") ?? 0)) bytes, painted at \(f1(number(bare, "ms_median"))) ms "
                  + "(runs \(((bare["ms_all"] as? [NSNumber]) ?? []).map { f1($0.doubleValue) }.joined(separator: ", "))): no viewer paints sooner in this browser; "
                  + String(format: "Pannellum takes %.2f× the floor, ours %.2f×", theirMs / (number(bare, "ms_median") ?? .nan), oursMs / (number(bare, "ms_median") ?? .nan)))
        }
        if let slow = first["throttled"] as? [String: Any], let o = slow["lookaround"] as? [String: Any],
           let n = slow["floor"] as? [String: Any], let t = slow["pannellum"] as? [String: Any] {
            let tMs = number(t, "ms_median") ?? .nan
            print("      on a throttled link (DevTools: 10 Mbit/s down, 5 up, +20 ms; the slower of 2 runs): lookaround \(f1(number(o, "ms_median"))) ms, "
                  + "the floor \(f1(number(n, "ms_median"))) ms, Pannellum \(f1(tMs)) ms "
                  + String(format: "(ours %.2f× sooner)", tMs / (number(o, "ms_median") ?? .nan)))
        }
        printWarm(first)
        print("      of ours, asked for once the first view's picture was in (the viewer's and the map's scripts, style sheets and tiles, "
              + "by the time the paint was reported): \(Int(number(ours, "later_requests") ?? 0)) more responses, \(Int(number(ours, "later_bytes") ?? 0)) bytes")
        print(String(format: "      ours: %.2f× fewer bytes, %.2f× sooner", theirBytes / oursBytes, theirMs / oursMs))
        if let pd = first["pannellum_drag"] as? [String: Any] {
            print("      Pannellum while dragging (setYaw every animation frame, 3 s): animation frames \(f1(number(pd, "raf_per_second")))/s, "
                  + "interval median \(f1(number(pd, "raf_interval_median_ms"))) ms, 90th \(f1(number(pd, "raf_interval_p90_ms"))) ms; "
                  + "renders \(f1(number(pd, "renders_per_second")))/s, its render call \(f2(number(pd, "render_call_median_ms"))) ms on the main thread; "
                  + "ours (2, 60 Hz drag): animation frames \(f1(number(drag, "raf_per_second")))/s, interval median \(f1(number(drag, "raf_interval_median_ms"))) ms, "
                  + "\(f2(number(drag, "input_main_thread_median_ms"))) ms per input, server frames \(f1(number(drag, "painted_per_second")))/s")
        }
        print("      goal: ≥ 5× fewer bytes: \(met(theirBytes / oursBytes >= 5)); ≥ 3× sooner: \(sooner(first))")
    }

    // 3b. The same against a camera's own file: the shipped panoramas are small simulated 2048×1024
    // JPEGs (175 KB); a 360° camera writes several megabytes (a RICOH THETA's 5376×2688 JPEG here, from
    // ../shared/data/real-photos), which is what a viewer that sends the panorama must send.
    let camera = "../shared/data/real-photos/single-cameras/R0014760.JPG"
    if FileManager.default.fileExists(atPath: camera) {
        let folder = NSTemporaryDirectory() + "lookaround-bench-web-photo-\(getpid())"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: camera, toPath: folder + "/photos/R0014760.JPG")
        let lookaround = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("lookaround").path
        let index = Process()
        index.executableURL = URL(fileURLWithPath: lookaround)
        // With its tile file, as a server is set up (`index --tiles`): a view decodes only the tiles it shows.
        index.arguments = ["index", "--catalog", folder + "/photos.sqlite", folder + "/photos", "--tiles", "--quiet"]
        index.standardOutput = FileHandle.nullDevice
        index.standardError = FileHandle.nullDevice
        try index.run()
        index.waitUntilExit()
        let photos = try Catalog(location: CatalogLocation(parsing: folder + "/photos.sqlite"))
        let photo = try photos.panorama(id: "R0014760")
        let photoServer = try ServedProcess(catalog: folder + "/photos.sqlite", extra: ["--serve-unblurred"])
        let photoBase = "http://127.0.0.1:\(photoServer.port)"
        let fileBytes = (try? FileManager.default.attributesOfItem(atPath: camera)[.size] as? Int) ?? 0
        if let view = runHelper(python, [webScript("bench_web.py"), "firstview", photoBase, photo.id, "\(heading)",
                                         "\(photo.headingDegrees)", pannellumFolder, photo.imagePath, "\(firstViewRuns)", "1280x720"],
                                label: "first view of a camera file"),
           let ours = view["lookaround"] as? [String: Any], let theirs = view["pannellum"] as? [String: Any] {
            let oursBytes = number(ours, "bytes") ?? .nan, theirBytes = number(theirs, "bytes") ?? .nan
            let oursMs = number(ours, "ms_median") ?? .nan, theirMs = number(theirs, "ms_median") ?? .nan
            print("")
            print("   3b. first view of a deep link to a camera's own file (R0014760.JPG, RICOH THETA, \(photo.imageWidth)×\(photo.imageHeight), "
                  + "\(fileBytes) bytes; heading \(Int(heading))°, 1280×720, median of \(firstViewRuns))")
            print("      lookaround: \(Int(oursBytes)) bytes in \(Int(number(ours, "requests") ?? 0)) responses, painted at \(f1(oursMs)) ms "
                  + "(runs \(((ours["ms_all"] as? [NSNumber]) ?? []).map { f1($0.doubleValue) }.joined(separator: ", ")))")
            if let bare = view["floor"] as? [String: Any] {
                print("      the floor (only our first frame as an <img>): painted at \(f1(number(bare, "ms_median"))) ms")
            }
            printWarm(view)
            print("      Pannellum 2.5.6: \(Int(theirBytes)) bytes in \(Int(number(theirs, "requests") ?? 0)) responses, loaded at \(f1(theirMs)) ms "
                  + "(runs \(((theirs["ms_all"] as? [NSNumber]) ?? []).map { f1($0.doubleValue) }.joined(separator: ", ")))")
            if let slow = view["throttled"] as? [String: Any], let o = slow["lookaround"] as? [String: Any], let t = slow["pannellum"] as? [String: Any] {
                let oMs = number(o, "ms_median") ?? .nan, tMs = number(t, "ms_median") ?? .nan
                print("      on a throttled link (10 Mbit/s down, +20 ms): lookaround \(f1(oMs)) ms, Pannellum \(f1(tMs)) ms "
                      + String(format: "(ours %.2f× sooner)", tMs / oMs))
            }
            print(String(format: "      ours: %.2f× fewer bytes, %.2f× sooner", theirBytes / oursBytes, theirMs / oursMs))
            print("      goal: ≥ 5× fewer bytes: \(met(theirBytes / oursBytes >= 5)); ≥ 3× sooner: \(sooner(view))")
        }
        photoServer.stop()
        try? FileManager.default.removeItem(atPath: folder)
    } else {
        print("   3b. skipped: \(camera) is not here (the real camera files beside the project)")
    }

    server?.stop()
    server = nil

    // 4. Map tiles: a fresh server (empty response cache), every tile distinct.
    try runWebTileBenchmark(catalog: catalog.path)

    // 5. Simulated viewers dragging at 30 fps, on a fresh server.
    server = try ServedProcess(catalog: catalog.path)
    let loadBase = "http://127.0.0.1:\(server!.port)"
    let scenes = (0..<10).map { String(format: "senaatintori-%03d", $0) } + (20..<30).map { String(format: "aleksanterinkatu-%03d", $0) }
    let steps = ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_WEB_VIEWERS"] ?? "1,2,4,6,8,10,12"
    let load = runHelper(python, [webScript("bench_web.py"), "load", loadBase, scenes.joined(separator: ","), "5", "1280x720", steps],
                         label: "viewers")
    server?.stop()
    server = nil
    if let rows = load?["steps"] as? [[String: Any]] {
        print("")
        print("   5. simulated viewers dragging at 30 fps: 1280×720 JPEG q80 with labels, a new camera every 33 ms each, at most 2 in flight "
              + "(a third aborts the oldest), 5 s per step; client: one Python asyncio process on the same 2 cores")
        print("      viewers   p50 ms   p99 ms   fps/viewer (slowest)   asked  delivered  204  aborted  errors")
        var best = 0, bestByLatency = 0
        for r in rows {
            let n = Int(number(r, "viewers") ?? 0), p99 = number(r, "p99_ms") ?? .infinity, fps = number(r, "fps_per_viewer") ?? 0
            if p99 <= 100, fps >= 25, n > best { best = n }
            if p99 <= 100, n > bestByLatency { bestByLatency = n }
            print("      \(String(n).leftPadded(7))  \(f1(number(r, "p50_ms")).leftPadded(7))  \(f1(p99).leftPadded(7))  "
                  + "\(f1(fps).leftPadded(10)) (\(f1(number(r, "fps_min_viewer"))))   \(String(Int(number(r, "asked") ?? 0)).leftPadded(8))  "
                  + "\(String(Int(number(r, "delivered") ?? 0)).leftPadded(9))  \(String(Int(number(r, "dropped_204") ?? 0)).leftPadded(3))  "
                  + "\(String(Int(number(r, "aborted") ?? 0)).leftPadded(7))  \(String(Int(number(r, "errors") ?? 0)).leftPadded(6))")
        }
        print("      most viewers with p99 ≤ 100 ms: \(bestByLatency); with p99 ≤ 100 ms and ≥ 25 delivered frames/s each (mean): \(best); "
              + "goal ≥ 6 (judged on both): \(met(best >= 6))")
    }
}

/// GETs every path once over `connections` keep-alive connections to 127.0.0.1:`port`, one thread each
/// taking the next path from a shared list (as bench_web.py `tiles` does, without Python's per-request
/// cost on the cores the server shares): the wall time, and how many answered 200 and their body bytes.
private func fetchAll(port: UInt16, paths: [String], connections: Int) -> (seconds: Double, ok: Int, errors: Int, bytes: Int) {
    let next = Mutex(0), tally = Mutex((ok: 0, errors: 0, bytes: 0))
    let start = DispatchTime.now().uptimeNanoseconds
    // A thread per connection (concurrentPerform would run only as many at once as there are cores).
    let finished = DispatchGroup()
    for _ in 0..<connections { finished.enter(); Thread { defer { finished.leave() }
        guard let socket = RawSocket(port: port, source: "127.0.0.1", timeoutSeconds: 60) else {
            tally.withLock { $0.errors += 1 }
            return
        }
        var pending: [UInt8] = []
        while true {
            let index = next.withLock { value -> Int in defer { value += 1 }; return value }
            guard index < paths.count else { return }
            guard socket.send("GET \(paths[index]) HTTP/1.1\r\nHost: bench\r\n\r\n"),
                  let answer = socket.response(pending: &pending) else {
                tally.withLock { $0.errors += 1 }
                return
            }
            tally.withLock { if answer.status == 200 { $0.ok += 1; $0.bytes += answer.bodyBytes } else { $0.errors += 1 } }
        }
    }.start() }
    finished.wait()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let result = tally.withLock { $0 }
    return (seconds, result.ok, result.errors, result.bytes)
}

/// `Benchmarks web-tiles`: section 4 of `web` alone (the map tiles against Mapnik), without the browser
/// figures that take minutes.
func runWebTileBenchmarks() throws {
    // (The in-process rounds alone need no catalog.)
    let catalog = ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_TILE_ROUNDS"] != nil ? "" : try benchmarkService().catalog.path
    try runWebTileBenchmark(catalog: catalog)
}

/// Renders `tiles` (z/x/y) in this process on `threads` threads as the tile route does (render + PNG,
/// `MapTileRoutes.mapTilePNG`), no HTTP: the same work Mapnik's figure measures. The list is dealt out
/// as Mapnik's is (thread i takes tiles i, i + threads, …). Returns the wall time, per-tile render and
/// encode milliseconds and the PNG sizes.
private func renderTilesInProcess(_ tiles: [String], snapshotter: MapSnapshotter, threads: Int) throws
    -> (seconds: Double, renderMs: [Double], encodeMs: [Double], bytes: [Int]) {
    let parsed = try tiles.map { path throws -> SlippyTile in
        let v = path.split(separator: "/").compactMap { Int($0) }
        return try SlippyTile(x: v[1], y: v[2], zoom: v[0])
    }
    final class Results: @unchecked Sendable {   // each thread writes only its own slots
        var render: [Double], encode: [Double], bytes: [Int], failure: String?
        init(_ n: Int) { render = Array(repeating: 0, count: n); encode = render; bytes = Array(repeating: 0, count: n) }
    }
    let results = Results(parsed.count)
    let lock = NSLock()
    let start = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: threads) { worker in
        for i in stride(from: worker, to: parsed.count, by: threads) {
            do {
                // `MapTileRoutes.mapTilePNG` (the route's function) in its two halves, for the timing.
                let t0 = DispatchTime.now().uptimeNanoseconds
                let options = MapTileRoutes.mapTileOptions(parsed[i], scale: 1, type: .standard, orthophoto: nil, coverage: nil)
                let image = try snapshotter.snapshot(options).image
                let t1 = DispatchTime.now().uptimeNanoseconds
                let png = try MapTileRoutes.encodeTile(image)
                let t2 = DispatchTime.now().uptimeNanoseconds
                results.render[i] = Double(t1 - t0) / 1e6
                results.encode[i] = Double(t2 - t1) / 1e6
                results.bytes[i] = png.count
            } catch {
                lock.lock(); results.failure = "\(tiles[i]): \(error)"; lock.unlock()
            }
        }
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    if let failure = results.failure { throw ServiceError.internalError(detail: "in-process tiles: \(failure)") }
    return (seconds, results.render, results.encode, results.bytes)
}

/// 256² standard tiles at zooms 14–18 over the Helsinki extract: a fresh `lookaround serve` (4 client
/// connections, 2 render workers) and the same renderer in this process on 2 threads, against Mapnik in
/// 2 processes rendering the same tiles.
private func runWebTileBenchmark(catalog: String) throws {
    let osm = "Panoramas/sources/helsinki-centre.osm.pbf"
    let dataset = try MapDataset(contentsOfFile: osm)
    guard let box = dataset.boundingBox else { print("   4. skipped: the extract has no nodes"); return }
    var tiles: [String] = []
    for z in 14...18 {
        let n = Double(1 << z)
        func tile(_ latitude: Double, _ longitude: Double) -> (Int, Int) {
            let r = latitude * .pi / 180
            return (Int((longitude + 180) / 360 * n), Int((1 - log(tan(r) + 1 / cos(r)) / .pi) / 2 * n))
        }
        let (x0, y0) = tile(box.maxLatitude, box.minLongitude), (x1, y1) = tile(box.minLatitude, box.maxLongitude)
        for x in x0...x1 { for y in y0...y1 { tiles.append("\(z)/\(x)/\(y)") } }
    }
    let folder = NSTemporaryDirectory() + "lookaround-bench-web-\(getpid())/"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let listing = folder + "tiles.txt"
    try Data(tiles.joined(separator: "\n").utf8).write(to: URL(fileURLWithPath: listing))
    // LOOKAROUND_BENCH_TILE_ROUNDS=N: the in-process pass alone, N times (for profiling and quick turns).
    if let rounds = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_TILE_ROUNDS"] ?? "") {
        let snapshotter = try MapSnapshotter(dataset: dataset)
        for _ in 0..<rounds {
            let local = try renderTilesInProcess(tiles, snapshotter: snapshotter, threads: 2)
            let sorted = (render: local.renderMs.sorted(), encode: local.encodeMs.sorted())
            print("   in-process, 2 threads: \(f1(Double(tiles.count) / local.seconds)) tiles/s; median render \(f2(sorted.render[tiles.count / 2])) ms, "
                  + "encode \(f2(sorted.encode[tiles.count / 2])) ms; mean PNG \(local.bytes.reduce(0, +) / tiles.count) bytes")
        }
        return
    }
    // Rounds, each: our server (a fresh one: an empty response cache; its map loaded by one tile outside
    // the list, zoom 12) with every tile fetched once over 4 keep-alive connections from this process;
    // the same tiles in this process (render + PNG on 2 threads, no HTTP: the like-for-like figure, as
    // Mapnik's is); Mapnik. One pass is under a second and this machine's speed moves by ±20 % from
    // minute to minute, so the three alternate and each figure is a median.
    let paths = tiles.map { "/v1/tiles/standard/\($0).png" }
    typealias Served = (seconds: Double, ok: Int, errors: Int, bytes: Int)
    func served(_ executable: String?) throws -> Served {
        let server = try executable.map { try ServedProcess(catalog: catalog, executable: $0) } ?? ServedProcess(catalog: catalog)
        defer { server.stop() }
        _ = try? Data(contentsOf: URL(string: "http://127.0.0.1:\(server.port)/v1/tiles/standard/12/2331/1185.png")!)
        return fetchAll(port: server.port, paths: paths, connections: 4)
    }
    let snapshotter = try MapSnapshotter(dataset: dataset)
    _ = try MapTileRoutes.mapTilePNG(try SlippyTile(x: 2331, y: 1185, zoom: 12), scale: 1, type: .standard,
                                    snapshotter: snapshotter, orthophoto: nil, coverage: nil)
    // Mapnik: the GeoJSON layers scripts/mapnik-peer.sh makes (cached in .build/benchmarks/mapnik-tiles).
    let layers = ".build/benchmarks/mapnik-tiles"
    let hasMapnik = BenchmarkReport.runMapnikPeer(osm: osm, width: 256, height: 256, runs: 1, folder: layers) != nil
    // LOOKAROUND_PEER=PATH: the same served figure for another `lookaround` (the one before a change),
    // in each round after ours.
    let peer = ProcessInfo.processInfo.environment["LOOKAROUND_PEER"]
    let rounds = 3
    var ours: [Served] = [], peers: [Served] = [], local: [(seconds: Double, renderMs: [Double], encodeMs: [Double], bytes: [Int])] = []
    var mapnik: [[String: Any]] = []
    for _ in 0..<rounds {
        ours.append(try served(nil))
        if let peer { peers.append(try served(peer)) }
        local.append(try renderTilesInProcess(tiles, snapshotter: snapshotter, threads: 2))
        if hasMapnik, let run = runHelper("/usr/bin/python3", [webScript("bench_web_mapnik_tiles.py"), URL(fileURLWithPath: listing).path, "2"],
                                          directory: layers, label: "Mapnik tiles") {
            mapnik.append(run)
        }
    }
    func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
    func rates(_ runs: [Served]) -> [Double] { runs.map { $0.ok == tiles.count ? Double($0.ok) / $0.seconds : 0 } }
    func list(_ v: [Double]) -> String { v.map(f1).joined(separator: ", ") }
    let counts = (14...18).map { z in "z\(z) \(tiles.filter { $0.hasPrefix("\(z)/") }.count)" }.joined(separator: ", ")
    print("")
    print("   4. 256² standard map tiles, \(tiles.count) distinct over the Helsinki extract (\(counts)), 2 cores; \(rounds) rounds, "
          + "ours served, ours in-process and Mapnik in turn; medians")
    let oursRates = rates(ours), oursRate = median(oursRates)
    print("      lookaround serve, fresh (empty response cache), 4 keep-alive connections from this process: \(f1(oursRate)) tiles/s "
          + "(rounds \(list(oursRates)); \(ours.map(\.errors).reduce(0, +)) errors; mean PNG \(ours[0].bytes / max(1, ours[0].ok)) bytes)")
    if let peer, !peers.isEmpty {
        print("      peer \(peer) served alike: \(f1(median(rates(peers)))) tiles/s (rounds \(list(rates(peers))))")
    }
    let localRates = local.map { Double(tiles.count) / $0.seconds }, localRate = median(localRates)
    let renders = local.flatMap(\.renderMs), encodes = local.flatMap(\.encodeMs)
    print("      lookaround in-process (MapTileRoutes.mapTilePNG, no HTTP), 2 threads, render + PNG: \(f1(localRate)) tiles/s "
          + "(rounds \(list(localRates)); one tile: render \(f2(median(renders))) ms, encode \(f2(median(encodes))) ms; "
          + "mean PNG \(local[0].bytes.reduce(0, +) / max(1, local[0].bytes.count)) bytes)")
    guard !mapnik.isEmpty else { print("      Mapnik: not measured (see above)"); return }
    let theirRates = mapnik.compactMap { number($0, "tiles_per_second") }, theirRate = median(theirRates)
    print("      Mapnik \(mapnik[0]["mapnik"] ?? "?"), 2 processes (style loaded once each), render + PNG: \(f1(theirRate)) tiles/s "
          + "(rounds \(list(theirRates)); one tile: render \(f2(median(mapnik.compactMap { number($0, "render_median_ms") }))) ms, "
          + "encode \(f2(median(mapnik.compactMap { number($0, "encode_median_ms") }))) ms; mean PNG \(Int(number(mapnik[0], "mean_png_bytes") ?? 0)) bytes)")
    print(String(format: "      in-process %.2f× Mapnik's tiles/s (like for like: both render + PNG in-process); goal ≥ 3×: %@", localRate / theirRate,
                 met(localRate / theirRate >= 3)))
    print(String(format: "      served %.2f× Mapnik's in-process tiles/s (ours with HTTP, the response cache and the client on the same two cores; "
                 + "Mapnik with none of them)", oursRate / theirRate))
}

/// The first view in a running browser (bench_web.py `firstview`'s warm runs): one browser per side, its
/// cache, cookies and the origin's data cleared before each run, so the browser's own start-up is not
/// counted.
private func printWarm(_ first: [String: Any]) {
    guard let warm = first["warm"] as? [String: Any], let o = warm["lookaround"] as? [String: Any], let t = warm["pannellum"] as? [String: Any],
          let f = warm["floor"] as? [String: Any] else { return }
    let oMs = number(o, "ms_median") ?? .nan, tMs = number(t, "ms_median") ?? .nan
    func runs(_ side: [String: Any]) -> String { ((side["ms_all"] as? [NSNumber]) ?? []).map { f1($0.doubleValue) }.joined(separator: ", ") }
    print("      in a running browser (cache, cookies and the origin's data cleared before each run; median of \(firstViewRuns)): lookaround \(f1(oMs)) ms "
          + "(runs \(runs(o)); \(Int(number(o, "bytes") ?? 0)) bytes), Pannellum \(f1(tMs)) ms (runs \(runs(t))), the floor \(f1(number(f, "ms_median"))) ms "
          + "(runs \(runs(f))) " + String(format: "(ours %.2f× sooner than Pannellum)", tMs / oMs))
}

/// The first view's "≥ 3× sooner" goal, judged with a fresh browser and in a running one.
private func sooner(_ first: [String: Any]) -> String {
    func ratio(_ sides: [String: Any]?) -> Double {
        guard let o = sides?["lookaround"] as? [String: Any], let t = sides?["pannellum"] as? [String: Any] else { return .nan }
        return (number(t, "ms_median") ?? .nan) / (number(o, "ms_median") ?? .nan)
    }
    let cold = ratio(first), warm = ratio(first["warm"] as? [String: Any])
    return String(format: "%@ with a fresh browser (%.2f×), %@ in a running browser (%.2f×)", met(cold >= 3), cold, met(warm >= 3), warm)
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
