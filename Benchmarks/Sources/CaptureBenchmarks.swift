import Catalog
import Dispatch
import Foundation
import Imaging
import LookAround
import Reprojection

// `Benchmarks captures` (issue 49): one's own large photos without precomputed tiles.
//  1. The first view of a real 8K-class photo (../shared/data/real-photos/single-cameras/R0014760.JPG,
//     RICOH THETA V, 5376×2688) and of an 11000×5500 one made by resizing it (Lanczos, q92 4:2:0, its
//     metadata copied), no tile file: a 1280×720 frame (render + labels + JPEG q80) in-process with every
//     thread pinned to one core, a fresh panorama cache each time (the file in the page cache), against
//     the two ways before: decoding the whole level, and making the tile file first (the lazy path).
//  2. The same first view in Chromium (scripts/bench_web.py firstview) from `lookaround serve` without
//     tile files, against Pannellum 2.5.6 showing the same JPEG on its WebGL: each of our runs on a copy
//     of the photo the server has not seen (its first view of it), the tile directory blocked so no tile
//     file is made meanwhile.
//  3. Tile files (`index --tiles`) of both photos: bytes against the photos' bytes (goal ≤ 1.4×; Pannellum's
//     multires pyramid ≈ 1.33×), against the writer before (every level re-encoded at q92 4:4:4).
// Every loop is bounded; everything is on 127.0.0.1.

/// Copies of each photo in the browser catalog: bench_web.py's first views take a new one each time.
private let browserCopies = 20
/// First views per photo in process (the median counts).
private let inProcessRuns = 7

func runCaptureBenchmarks() throws {
    // ../shared beside the project (or beside the folder of worktrees it is in).
    let relative = "shared/data/real-photos/single-cameras/R0014760.JPG"
    guard let camera = ["../", "../../"].map({ $0 + relative }).first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        print("   skipped: ../\(relative) is not here (the real camera files beside the project)")
        return
    }
    let root = NSTemporaryDirectory() + "lookaround-bench-captures-\(getpid())"
    try? FileManager.default.removeItem(atPath: root)
    try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: root) }

    // The photos: the THETA's file as it is, and 11000×5500 made from it with its metadata.
    let sources = root + "/sources"
    try FileManager.default.createDirectory(atPath: sources, withIntermediateDirectories: true)
    let theta = sources + "/R0014760.JPG", large = sources + "/R0014760-11000.JPG"
    try FileManager.default.copyItem(atPath: camera, toPath: theta)
    let resizeStart = DispatchTime.now()
    var metadata = try ImageMetadata.read(fromJPEGFile: camera).metadata
    let original = try JPEGCodec.decodeRGB(try ImageFile.read(camera)).image
    let resized = try Resampler.resize(original, to: PixelSize(width: 11000, height: 5500), filter: .lanczos3)
    if var panorama = metadata.panorama {
        panorama.fullPanoWidthPixels = 11000
        panorama.fullPanoHeightPixels = 5500
        panorama.croppedAreaImageWidthPixels = 11000
        panorama.croppedAreaImageHeightPixels = 5500
        metadata.panorama = panorama
    }
    try ImageFile.write(try JPEGCodec.encode(resized, quality: 92, subsampling: .chroma420, metadata: metadata), to: large)
    let photos = [(name: "R0014760.JPG (RICOH THETA V)", path: theta), (name: "11000×5500 made from it", path: large)]
    for photo in photos {
        let header = try JPEGCodec.readHeader(try ImageFile.read(photo.path))
        print("   \(photo.name): \(header.width)×\(header.height), \(fileBytes(photo.path)) bytes"
              + (photo.path == large ? String(format: " (made in %.1f s)", Double(DispatchTime.now().uptimeNanoseconds - resizeStart.uptimeNanoseconds) / 1e9) : ""))
    }

    // A catalog of both, no tile files.
    let folder = root + "/photos"
    for (k, photo) in photos.enumerated() {
        try FileManager.default.createDirectory(atPath: folder + "/p\(k)", withIntermediateDirectories: true)
        try FileManager.default.linkItem(atPath: photo.path, toPath: folder + "/p\(k)/" + FilePath.name(of: photo.path))
    }
    let catalogPath = root + "/photos.sqlite"
    _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [folder], catalogPath: catalogPath))
    let catalog = try Catalog(path: catalogPath)
    let ids = ["p0/R0014760", "p1/R0014760-11000"]

    // MARK: 1. In process, one core.
    let size = PixelSize(width: 1280, height: 720)
    func options(_ heading: Double) -> LookAroundSnapshotter.Options {
        LookAroundSnapshotter.Options(size: size, camera: .init(headingDegrees: heading, pitchDegrees: 0, fieldOfViewDegrees: 90))
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func ms(_ body: () throws -> Void) rethrows -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        try body()
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6
    }
    print("")
    print("   1. first view, 1280×720, heading 75°, fov 90° (render + labels + JPEG q80), in process, every thread pinned to one core; "
          + "a fresh panorama cache each run, the file in the page cache; median of \(inProcessRuns)")
    print("   \("".padding(toLength: 34, withPad: " ", startingAt: 0))  region  whole level  tile file first   region decode  whole decode  level")
    let restore = pinToOneCore()
    var firstViews: [Double] = []
    for (k, id) in ids.enumerated() {
        let scene = try LookAroundScene(panoramaID: id, catalog: catalog)
        let record = try catalog.panorama(id: id)
        let bytes = try ImageFile.read(record.imagePath)
        _ = try LookAroundSnapshotter(scene: scene, options: options(75), cache: PanoramaCache(), catalog: catalog).render()  // warm: labels, fonts
        var region: [Double] = [], whole: [Double] = [], tiled: [Double] = [], regionDecode: [Double] = [], wholeDecode: [Double] = []
        var level = 0
        for run in 0..<inProcessRuns {
            let heading = 75 + 0.37 * Double(run)
            region.append(try ms {
                let snapshot = try LookAroundSnapshotter(scene: scene, options: options(heading), cache: PanoramaCache(), catalog: catalog).render()
                _ = try JPEGCodec.encode(snapshot.image, quality: 80)
                level = snapshot.panoramaLevel
            })
            // Whole level: the cache already holding another region makes the view decode the level whole.
            let cache = PanoramaCache()
            _ = try LookAroundSnapshotter(scene: scene, options: options(heading + 180), cache: cache, catalog: catalog).render()
            whole.append(try ms {
                let snapshot = try LookAroundSnapshotter(scene: scene, options: options(heading), cache: cache, catalog: catalog).render()
                _ = try JPEGCodec.encode(snapshot.image, quality: 80)
            })
            // Before: the first view made the tile file, then read its tiles.
            let store = PanoramaTileStore(directory: catalog.location.tileDirectory)
            unlink(store.path(panoramaID: id))
            tiled.append(try ms {
                _ = try store.file(panoramaID: id, source: record.imagePath)
                let snapshot = try LookAroundSnapshotter(scene: scene, options: options(heading), cache: PanoramaCache(), catalog: catalog).render()
                _ = try JPEGCodec.encode(snapshot.image, quality: 80)
            })
            unlink(store.path(panoramaID: id))
            let wanted = PanoramaRegion.needed(for: try ViewCamera(headingDegrees: heading, pitchDegrees: 0, fieldOfViewDegrees: 90,
                                                               width: size.width, height: size.height),
                                               pose: PanoramaPose(headingDegrees: record.headingDegrees, pitchDegrees: record.pitchDegrees,
                                                                  rollDegrees: record.rollDegrees),
                                               width: record.imageWidth >> level, height: record.imageHeight >> level, slackFraction: 0.15)
            regionDecode.append(try ms { _ = try PanoramaDecoder.decodeRegion(bytes, level: level, region: wanted) })
            wholeDecode.append(try ms { _ = try PanoramaDecoder.decode(bytes, level: level) })
        }
        firstViews.append(median(region))
        func cell(_ v: Double, _ width: Int) -> String { String(format: "%.1f", v).leftPadded(width) }
        print("   \(photos[k].name.padding(toLength: 34, withPad: " ", startingAt: 0)) \(cell(median(region), 7)) \(cell(median(whole), 12)) "
              + "\(cell(median(tiled), 16)) \(cell(median(regionDecode), 15)) \(cell(median(wholeDecode), 13))  \(level) (1/\(1 << level))  ms")
    }
    restore()
    print("   goal: a first view of an 8K–11K photo without tile files ≤ 250 ms on one core: "
          + (firstViews.allSatisfy { $0 <= 250 } ? "met" : "NOT met") + " (" + firstViews.map { String(format: "%.1f ms", $0) }.joined(separator: ", ") + ")")

    // MARK: 2. In Chromium, against Pannellum.
    let python = BenchmarkReport.which("python3") ?? "/usr/bin/python3"
    let browserFolder = root + "/browser"
    var lists: [String] = []
    for (k, photo) in photos.enumerated() {
        var names: [String] = []
        for copy in 0..<browserCopies {
            let sub = "c\(k)-\(copy)"
            try FileManager.default.createDirectory(atPath: browserFolder + "/" + sub, withIntermediateDirectories: true)
            try FileManager.default.linkItem(atPath: photo.path, toPath: browserFolder + "/" + sub + "/" + FilePath.name(of: photo.path))
            names.append(sub + "/" + (FilePath.name(of: photo.path) as NSString).deletingPathExtension)
        }
        lists.append(names.joined(separator: ","))
    }
    let browserCatalog = root + "/browser.sqlite"
    _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [browserFolder], catalogPath: browserCatalog))
    // A file where the tile folder would go: no tile file can be made, so every view is without one.
    FileManager.default.createFile(atPath: root + "/browser.tiles", contents: Data("blocked by Benchmarks captures\n".utf8))
    let server = try ServedProcess(catalog: browserCatalog, extra: ["--serve-unblurred"])  // real photos, never blurred: ours
    defer { server.stop() }
    let base = "http://127.0.0.1:\(server.port)"
    let pannellumFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("pannellum").path
    let runs = 7
    for (k, photo) in photos.enumerated() {
        let record = try Catalog(path: browserCatalog).panorama(id: lists[k].split(separator: ",")[0].description)
        guard let view = runHelper(python, [webScript("bench_web.py"), "firstview", base, lists[k], "75", "\(record.headingDegrees)",
                                            pannellumFolder, photo.path, "\(runs)", "1280x720"], label: "first view of \(photo.name)"),
              let ours = view["lookaround"] as? [String: Any], let theirs = view["pannellum"] as? [String: Any] else { continue }
        let oursMs = number(ours, "ms_median") ?? .nan, theirMs = number(theirs, "ms_median") ?? .nan
        func runsText(_ side: [String: Any]) -> String { ((side["ms_all"] as? [NSNumber]) ?? []).map { f1($0.doubleValue) }.joined(separator: ", ") }
        print("")
        print("   2\(k == 0 ? "a" : "b"). \(photo.name) in Chromium, no tile files, 1280×720, heading 75°; a fresh browser and profile per run, "
              + "each of ours a panorama the server had not shown; median of \(runs)")
        print("      lookaround: \(Int(number(ours, "bytes") ?? 0)) bytes in \(Int(number(ours, "requests") ?? 0)) responses, painted at "
              + "\(f1(oursMs)) ms (runs \(runsText(ours)))")
        print("      Pannellum 2.5.6 (WebGL: \(view["webgl_renderer"] ?? "?")): \(Int(number(theirs, "bytes") ?? 0)) bytes, loaded at \(f1(theirMs)) ms "
              + "(runs \(runsText(theirs)))")
        if let warm = view["warm"] as? [String: Any], let o = warm["lookaround"] as? [String: Any], let t = warm["pannellum"] as? [String: Any] {
            let oMs = number(o, "ms_median") ?? .nan, tMs = number(t, "ms_median") ?? .nan
            print(String(format: "      in a running browser (cache and the origin's data cleared each run): lookaround %.1f ms, Pannellum %.1f ms "
                         + "(ours %.2f× sooner)", oMs, tMs, tMs / oMs))
        }
        print(String(format: "      ours: %.2f× sooner, %.1f× fewer bytes", theirMs / oursMs,
                     (number(theirs, "bytes") ?? .nan) / (number(ours, "bytes") ?? .nan)))
    }

    // MARK: 3. Tile file bytes.
    print("")
    print("   3. tile files (index --tiles) against the photos' bytes (Pannellum's multires pyramid: about 1.33×)")
    let tileCatalog = root + "/tiles.sqlite"
    let store = PanoramaTileStore(catalogPath: tileCatalog)
    var photoBytes = 0, tileBytes = 0
    for (k, id) in ids.enumerated() {
        let record = try catalog.panorama(id: id)
        let bytes = fileBytes(record.imagePath)
        var seconds = 0.0, made = 0
        seconds = try ms { made = fileBytes(try store.file(panoramaID: id, source: record.imagePath).file.path) } / 1000
        // The writer before: every level re-encoded at q92 4:4:4 from the whole decode.
        let before = root + "/before-\(k).lktiles"
        var beforeSeconds = 0.0
        beforeSeconds = try ms {
            let image = try PanoramaDecoder.decode(try ImageFile.read(record.imagePath), level: 0)
            try PanoramaTileFile.write(image, source: record.imagePath, to: before)
        } / 1000
        photoBytes += bytes
        tileBytes += made
        let beforeBytes = fileBytes(before)
        print("      \(photos[k].name): photo \(bytes) bytes, tile file \(made) bytes = "
              + String(format: "%.3f× (%.2f s); before %d bytes = %.3f× (%.2f s)", Double(made) / Double(bytes), seconds, beforeBytes,
                       Double(beforeBytes) / Double(bytes), beforeSeconds))
    }
    let ratio = Double(tileBytes) / Double(photoBytes)
    print(String(format: "      both: %d tile bytes for %d photo bytes = %.3f×; goal ≤ 1.4×: %@", tileBytes, photoBytes, ratio, ratio <= 1.4 ? "met" : "NOT met"))
}

/// A file's size in bytes (0 when it is not there).
private func fileBytes(_ path: String) -> Int {
    ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int) ?? 0
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
