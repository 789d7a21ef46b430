import CPNG
import Foundation
import Imaging

// Codec benchmarks: JPEG decode at DCT scales, JPEG encode, PNG encode, each against libjpeg-turbo's
// own command-line tools measured in the same run. Single-threaded; medians of several runs.

/// A deterministic photo-like RGB image: sky gradient with soft clouds, hard-edged buildings with
/// window grids, a textured street, and per-pixel noise, so JPEG and PNG sizes are realistic.
func syntheticStreetScene(width: Int, height: Int, seed: UInt64 = 0x5EED) -> RGB8Image {
    var pixels = [UInt8](repeating: 0, count: width * height * 3)
    // Building outlines, chosen once (not per pixel).
    var state = seed
    func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
    struct Building { var x0: Int, x1: Int, top: Int, r: Int, g: Int, b: Int, windowW: Int, windowH: Int }
    var buildings: [Building] = []
    var x = 0
    let horizon = height * 11 / 20
    while x < width {
        let w = max(8, width / 40 + Int(next() % UInt64(max(1, width / 12))))
        let top = height / 6 + Int(next() % UInt64(max(1, horizon - height / 6)))
        let base = 90 + Int(next() % 120)
        buildings.append(Building(x0: x, x1: min(width, x + w), top: top, r: base, g: base - 20 + Int(next() % 40),
                                  b: base - 30 + Int(next() % 50), windowW: max(2, w / 9), windowH: max(2, height / 90)))
        x += w
    }
    pixels.withUnsafeMutableBufferPointer { p in
        var noise = seed | 1
        var buildingIndex = 0
        for y in 0..<height {
            buildingIndex = 0
            let fy = Double(y) / Double(height)
            for x in 0..<width {
                while buildingIndex + 1 < buildings.count && buildings[buildingIndex].x1 <= x { buildingIndex += 1 }
                let b = buildings[buildingIndex]
                var r: Int, g: Int, bl: Int
                if y >= horizon {
                    // Street: grey with a perspective-ish gradient and lane marks.
                    let shade = 70 + Int(60 * (fy - 0.55))
                    r = shade; g = shade; bl = shade + 4
                    if abs(x - width / 2) < max(1, (y - horizon) / 12) && (y / max(1, height / 40)) % 2 == 0 {
                        r = 230; g = 220; bl = 180
                    }
                } else if y >= b.top {
                    r = b.r; g = b.g; bl = b.b
                    let wx = (x - b.x0) % (b.windowW * 2), wy = (y - b.top) % (b.windowH * 3)
                    if wx >= b.windowW / 2 && wx < b.windowW / 2 + b.windowW && wy >= b.windowH && wy < b.windowH * 2 {
                        r = 40; g = 50; bl = 70
                    }
                    if x == b.x0 { r /= 2; g /= 2; bl /= 2 }
                } else {
                    // Sky: vertical gradient plus smooth clouds.
                    let fx = Double(x) / Double(width)
                    let cloud = max(0, sin(fx * 23 + sin(fy * 9) * 2) * sin(fy * 31 + fx * 5) - 0.3) * 120
                    r = 90 + Int(100 * fy + cloud); g = 140 + Int(70 * fy + cloud); bl = 235 + Int(cloud * 0.2)
                }
                noise = noise &* 6364136223846793005 &+ 1442695040888963407
                let n = Int((noise >> 59) & 7) - 3
                let i = (y * width + x) * 3
                p[i] = UInt8(clamping: r + n); p[i + 1] = UInt8(clamping: g + n); p[i + 2] = UInt8(clamping: bl + n)
            }
        }
    }
    return RGB8Image(width: width, height: height, components: pixels)
}

/// Runs a command-line tool `runs` times (plus a warm-up) and returns the median wall time in ms,
/// including process start-up; `nil` when the tool is missing or fails.
private func medianToolMilliseconds(_ path: String, _ arguments: [String], runs: Int) -> Double? {
    func once() -> Double? { BenchmarkReport.spawnMilliseconds(path, arguments) }
    guard once() != nil else { return nil }
    var times: [Double] = []
    for _ in 0..<runs { guard let t = once() else { return nil }; times.append(t) }
    return times.sorted()[times.count / 2]
}

private func writePPM(_ image: RGB8Image, to path: String) throws {
    let header = Array("P6\n\(image.width) \(image.height)\n255\n".utf8)
    try ImageFile.write(header + image.components, to: path)
}

private func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
    let fill = String(repeating: " ", count: max(0, n - s.count))
    return right ? s + fill : fill + s
}

private func fmt(_ v: Double, _ digits: Int = 1) -> String { String(format: "%.\(digits)f", v) }

/// Prints the codec benchmark table. Call from the `Benchmarks` executable of a release build.
func runCodecBenchmarks() {
    do { try codecBenchmarks() } catch { print("codec benchmarks failed: \(error)") }
}

private func codecBenchmarks() throws {
    let runs = 7
    let tmp = NSTemporaryDirectory() + "lookaround-codec-bench-\(getpid())/"
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let djpeg = "/usr/bin/djpeg", cjpeg = "/usr/bin/cjpeg"

    // Process start-up: djpeg of an 8×8 JPEG, to subtract from the tool timings.
    let tiny = try JPEGCodec.encode(RGB8Image(width: 8, height: 8, fill: 128), quality: 85)
    try ImageFile.write(tiny, to: tmp + "tiny.jpg")
    let startup = medianToolMilliseconds(djpeg, ["-outfile", "/dev/null", tmp + "tiny.jpg"], runs: 15)

    print("Codec benchmarks (release, one thread, median of \(runs) runs; peers: libjpeg-turbo-progs via Process)")
    if let startup {
        print("djpeg start-up (8×8 file): \(fmt(startup, 2)) ms; 'corrected' ratios subtract it from the tool time")
    } else {
        print("djpeg/cjpeg not found: ratios skipped (apt install libjpeg-turbo-progs)")
    }
    print("")
    let header = pad("operation", 40, right: true) + pad("ours ms", 10) + pad("tool ms", 10)
        + pad("tool-start", 11) + pad("ratio", 8) + pad("corr.", 8)
    print("ratio = tool ms / ours ms (> 1: ours faster); corr. = (tool ms − start-up) / ours ms")
    print(header)
    print(String(repeating: "-", count: header.count))
    func row(_ name: String, ours: Double, tool: Double?) {
        var line = pad(name, 40, right: true) + pad(fmt(ours), 10)
        if let tool, let startup {
            let corrected = max(0.001, tool - startup)
            line += pad(fmt(tool), 10) + pad(fmt(corrected), 11) + pad(fmt(tool / ours, 2), 8)
                + pad(fmt(corrected / ours, 2), 8)
        }
        print(line)
    }

    for (w, h) in [(4096, 2048), (8192, 4096)] {
        let scene = syntheticStreetScene(width: w, height: h)
        let jpeg = try JPEGCodec.encode(scene, quality: 85, subsampling: .chroma420)
        let path = tmp + "scene-\(w).jpg"
        try ImageFile.write(jpeg, to: path)
        print("\(w)×\(h) q85 4:2:0 JPEG: \(jpeg.count) bytes")
        for scale in [JPEGScale.full, .half, .quarter, .eighth] {
            let ours = try BenchmarkReport.medianMilliseconds(runs: runs) {
                _ = try JPEGCodec.decodeRGB(jpeg, options: JPEGDecodeOptions(scale: scale))
            }
            let tool = medianToolMilliseconds(djpeg, ["-scale", scale.description, "-outfile", "/dev/null", path],
                                              runs: runs)
            row("  decode \(scale) → \(scale.scaled(w))×\(scale.scaled(h))", ours: ours, tool: tool)
        }
        // Our decode returns the whole image in fresh memory; djpeg streams strips to /dev/null.
        // Fresh allocations over glibc's mmap threshold (32 MiB at most) are page-faulted on first touch.
        let bytes = w * h * 3
        let touchMs = BenchmarkReport.medianMilliseconds(runs: runs) {
            let buffer = [UInt8](unsafeUninitializedCapacity: bytes) { b, n in
                for i in stride(from: 0, to: b.count, by: 4096) { b[i] = 0 }
                n = b.count
            }
            precondition(buffer.count == bytes)
        }
        print(pad("  (of which: first touch of \(bytes / 1_000_000) MB output)", 40, right: true) + pad(fmt(touchMs), 10))
    }

    // A 1920×1080 "view": photo-like content that went through JPEG once, like a reprojected panorama.
    let sourceView = syntheticStreetScene(width: 1920, height: 1080, seed: 42)
    let view = try JPEGCodec.decodeRGB(try JPEGCodec.encode(sourceView, quality: 85)).image
    try writePPM(view, to: tmp + "view.ppm")
    print("1920×1080 view")
    let encodeMs = try BenchmarkReport.medianMilliseconds(runs: runs) { _ = try JPEGCodec.encode(view, quality: 85) }
    let cjpegMs = medianToolMilliseconds(cjpeg, ["-quality", "85", "-outfile", tmp + "out.jpg", tmp + "view.ppm"],
                                         runs: runs)
    row("  JPEG encode q85 4:2:0", ours: encodeMs, tool: cjpegMs)

    print("")
    let goalMs = 40.0
    print(pad("PNG encode 1920×1080 RGB view", 40, right: true) + pad("ms", 10) + pad("bytes", 12) + pad("goal", 16))
    var fastPNG: [UInt8] = []
    for compression in PNGEncodeOptions.Compression.allCases {
        let options = PNGEncodeOptions(compression: compression)
        var png: [UInt8] = []
        let localRuns = compression == .smallest ? 3 : runs
        let ms = try BenchmarkReport.medianMilliseconds(runs: localRuns) { png = try PNGCodec.encode(view, options: options) }
        if compression == .fast { fastPNG = png }
        let verdict = compression == .fast ? (ms < goalMs ? "PASS (< 40 ms)" : "FAIL (≥ 40 ms)") : "-"
        print(pad("  .\(compression)", 40, right: true) + pad(fmt(ms), 10) + pad("\(png.count)", 12) + pad(verdict, 16))
    }
    // Peer in the same process: libpng's simplified writer (zlib level 6, libpng's filter heuristic).
    var libpngSize = 0
    let libpngMs = BenchmarkReport.medianMilliseconds(runs: 3) { libpngSize = libpngEncodeRGB(view) }
    print(pad("  libpng png_image_write_to_memory", 40, right: true) + pad(fmt(libpngMs), 10) + pad("\(libpngSize)", 12)
          + pad("peer", 16))
    let decodeMs = try BenchmarkReport.medianMilliseconds(runs: runs) { _ = try PNGCodec.decodeRGB(fastPNG) }
    print(pad("  decode of the .fast file (libpng)", 40, right: true) + pad(fmt(decodeMs), 10))
    let roundTrip = try PNGCodec.decodeRGB(fastPNG)
    print("PNG .fast round trip exact: \(roundTrip == view ? "yes" : "NO")")

    // Metadata: header-only reads, as ingest does them.
    let metadata = ImageMetadata(latitudeDegrees: 60.1699, longitudeDegrees: 24.9384, altitudeMeters: 12,
                                 imageDirectionDegrees: 90, gpsTimestamp: Date(timeIntervalSince1970: 1.7e9),
                                 dateTimeOriginal: "2024:06:21 12:30:15", make: "LookAround", model: "Simulator",
                                 panorama: .equirectangular(width: 4096, height: 2048, headingDegrees: 90))
    let tagged = try JPEGCodec.encode(view, quality: 85, metadata: metadata)
    let reads = 10_000
    let readMs = try BenchmarkReport.medianMilliseconds(runs: 5) {
        for _ in 0..<reads { _ = try ImageMetadata.read(fromJPEG: tagged) }
    }
    print("EXIF+XMP metadata read (in memory, \(tagged.count)-byte JPEG): \(fmt(readMs * 1000 / Double(reads), 2)) µs each, "
          + "\(Int(Double(reads) / readMs * 1000)) per second")
}

/// Encodes through libpng's simplified API (the peer); returns the byte count.
private func libpngEncodeRGB(_ image: RGB8Image) -> Int {
    var png = png_image()
    png.version = UInt32(PNG_IMAGE_VERSION)
    png.width = UInt32(image.width)
    png.height = UInt32(image.height)
    png.format = PNG_FORMAT_RGB
    var size = 0
    _ = image.components.withUnsafeBytes { png_image_write_to_memory(&png, nil, &size, 0, $0.baseAddress, 0, nil) }
    var out = [UInt8](repeating: 0, count: size)
    _ = image.components.withUnsafeBytes { px in
        out.withUnsafeMutableBytes { png_image_write_to_memory(&png, $0.baseAddress, &size, 0, px.baseAddress, 0, nil) }
    }
    return size
}
