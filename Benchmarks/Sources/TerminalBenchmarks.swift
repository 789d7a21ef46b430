import Catalog
import Foundation
import Imaging
import LookAround
import Terminal
import Viewer

// Terminal benchmarks (issue 10): a 160×48-cell truecolor half-block frame (a 160×96 px view: two
// pixels per cell) of a shipped panorama, snapshot (reprojection + labels) and encoding; bytes per
// frame for a 5° turn diffed and for a full repaint; the same frames through the chafa CLI; sixel and
// kitty encodes of a 1280×720 view next to img2sixel and chafa on the same frame (PNG in).

private func fmt(_ v: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", v) }
private func pad(_ s: String, _ n: Int) -> String { s + String(repeating: " ", count: max(0, n - s.count)) }

/// Median milliseconds of `runs` runs of the program, and the bytes it writes to stdout (one more run).
private func peer(_ name: String, _ arguments: [String], runs: Int = 15) -> (ms: Double, bytes: Int)? {
    guard let path = BenchmarkReport.which(name) else { return nil }
    let times = (0..<runs).compactMap { _ in BenchmarkReport.spawnMilliseconds(path, arguments) }.sorted()
    guard times.count == runs else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    let out = Pipe()
    process.standardOutput = out
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return nil }
    let bytes = out.fileHandleForReading.readDataToEndOfFile().count
    process.waitUntilExit()
    return (times[runs / 2], bytes)
}

func runTerminalBenchmarks() throws {
    let shipped = "Panoramas/helsinki"
    guard FileManager.default.fileExists(atPath: shipped) else {
        print("terminal: skipped (\(shipped) does not exist; run from the package root)")
        return
    }
    let tmp = NSTemporaryDirectory() + "lookaround-terminal-bench-\(getpid())/"
    try FileManager.default.createDirectory(atPath: tmp, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: tmp) }
    let catalog = try BenchmarkReport.shippedCatalog(in: tmp, osmFiles: BenchmarkReport.helsinkiExtractIfPresent)
    let panoramaID = "aleksanterinkatu-010"
    let scene = try LookAroundScene(panoramaID: panoramaID, catalog: catalog)
    let cache = PanoramaCache()
    func view(_ width: Int, _ height: Int, heading: Double, labels: Bool = true) throws -> RGB8Image {
        let options = LookAroundSnapshotter.Options(size: PixelSize(width: width, height: height),
                                                    camera: .init(headingDegrees: heading, fieldOfViewDegrees: 90),
                                                    pointOfInterestFilter: labels ? .includingAll : .excludingAll,
                                                    showsRoadLabels: labels)
        let snapshotter = LookAroundSnapshotter(scene: scene, options: options, cache: cache, catalog: catalog)
        return try BenchmarkReport.wait { try await snapshotter.snapshot }.image
    }

    // MARK: 160×48 cells: snapshot + encode.
    let columns = 160, rows = 48
    let a = try view(columns, 2 * rows, heading: 70), b = try view(columns, 2 * rows, heading: 75)
    let runs = 101
    var full: [UInt8] = [], diff: [UInt8] = [], palette: [UInt8] = []
    let encodeFull = BenchmarkReport.medianMilliseconds(runs: runs) {
        full.removeAll(keepingCapacity: true)
        CellEncoder.appendFullRepaint(of: CellFrame(halfBlocks: a), to: &full)
    }
    let frameA = CellFrame(halfBlocks: a), frameB = CellFrame(halfBlocks: b)
    let encodeDiff = BenchmarkReport.medianMilliseconds(runs: runs) {
        diff.removeAll(keepingCapacity: true)
        CellEncoder.appendDifference(from: frameA, to: CellFrame(halfBlocks: b), to: &diff)
    }
    let encode256 = BenchmarkReport.medianMilliseconds(runs: 21) {
        palette.removeAll(keepingCapacity: true)
        CellEncoder.appendFullRepaint(of: CellFrame(halfBlocks: a, colors: .palette256), to: &palette)
    }
    var presenter = FramePresenter()
    var heading = 70.0
    let snapshotOnly = try BenchmarkReport.medianMilliseconds(runs: 41) { heading += 5; _ = try view(columns, 2 * rows, heading: heading) }
    let snapshotNoLabels = try BenchmarkReport.medianMilliseconds(runs: 41) {
        heading += 5; _ = try view(columns, 2 * rows, heading: heading, labels: false)
    }
    var frameBytes = 0
    let whole = try BenchmarkReport.medianMilliseconds(runs: 41) {
        heading += 5
        frameBytes = presenter.bytes(for: CellFrame(halfBlocks: try view(columns, 2 * rows, heading: heading))).count
    }
    let changed = zip(frameA.cells, frameB.cells).filter { $0 != $1 }.count
    // What `lookaround view` does per frame: picture, labels laid out as text, arrows, status line, diff.
    let frames = ViewerFrames(catalog: catalog)
    let layout = ViewerLayout(columns: columns, rows: rows, outputProtocol: .truecolor)
    var viewerState = ViewerState(scene: scene, headingDegrees: 70)
    var viewerBytes = 0
    _ = try frames.bytes(for: try frames.render(viewerState, layout: layout))
    let viewerFrame = try BenchmarkReport.medianMilliseconds(runs: 41) {
        viewerState.turn(by: 5)
        viewerBytes = try frames.bytes(for: try frames.render(viewerState, layout: layout)).count
    }
    frames.invalidate()
    let viewerFull = try frames.bytes(for: try frames.render(viewerState, layout: layout)).count

    let pngPath = tmp + "frame-160x96.png"
    try ImageFile.write(PNGCodec.encode(a), to: pngPath)
    let chafa = peer("chafa", ["-c", "full", "--format", "symbols", "--symbols", "vhalf", "--size", "\(columns)x\(rows)", "--stretch", pngPath])

    print("")
    print("160×48-cell truecolor half-block frame (160×96 px view of \(panoramaID), 90°), median of \(runs) / 41")
    print(pad("step", 100) + pad("ms", 10) + "bytes")
    print(pad("encode: cells from pixels + full repaint", 100) + pad(fmt(encodeFull, 3), 10) + "\(full.count)")
    print(pad("encode: cells from pixels + diff against the frame 5° before (\(changed) of \(columns * rows) cells changed)", 100)
          + pad(fmt(encodeDiff, 3), 10) + "\(diff.count)")
    print(pad("encode: 256 colours (OKLab nearest), full repaint", 100) + pad(fmt(encode256, 3), 10) + "\(palette.count)")
    print(pad("snapshot 160×96 (reprojection + place and road labels), warm tile cache", 100) + fmt(snapshotOnly, 3))
    print(pad("snapshot 160×96 without labels", 100) + fmt(snapshotNoLabels, 3))
    print(pad("whole frame: snapshot + labels + cells + diff (5° turn each frame)  [goal ≤ 4 ms]", 100) + pad(fmt(whole, 3), 10)
          + "\(frameBytes)")
    print(pad("lookaround view frame: picture, text labels, arrows, status, diff (5° turn)  [goal ≤ 4 ms]", 100)
          + pad(fmt(viewerFrame, 3), 10) + "\(viewerBytes)")
    print(pad("lookaround view frame, full repaint (after a resize)", 100) + pad("", 10) + "\(viewerFull)")
    if let chafa {
        print(pad("chafa CLI -c full --format symbols --symbols vhalf --size 160x48 (PNG in, start-up included)", 100)
              + pad(fmt(chafa.ms, 3), 10) + "\(chafa.bytes)")
        print("  ours (encode, full repaint) ×faster than the chafa CLI: \(fmt(chafa.ms / encodeFull, 0))×; "
              + "whole frame incl. snapshot: \(fmt(chafa.ms / whole, 1))×")
    } else {
        print("  chafa CLI: skipped (not installed: apt install chafa)")
    }
    if let library = LibChafa() {
        var bytes = 0
        let ms = BenchmarkReport.medianMilliseconds(runs: 21) { bytes = library.symbols(a, columns: columns, rows: rows) }
        print(pad("libchafa (\(library.version)) in-process, 1 thread: same frame, vhalf, truecolor", 100)
              + pad(fmt(ms, 3), 10) + "\(bytes)")
        print("  ours (encode, full repaint) ×faster than libchafa: \(fmt(ms / encodeFull, 0))×; whole frame incl. snapshot: "
              + "\(fmt(ms / whole, 1))×  [goals: ≥ 10× the CLI, ≥ 5× libchafa]")
    } else {
        print("  libchafa in-process: skipped (libchafa.so.0 not found: apt install libchafa0)")
    }

    // MARK: 1280×720: sixel and kitty.
    let big = try view(1280, 720, heading: 70)
    let bigPNG = tmp + "frame-1280x720.png"
    try ImageFile.write(PNGCodec.encode(big), to: bigPNG)
    var sixelNone: [UInt8] = [], sixelFS: [UInt8] = [], kittyBytes: [UInt8] = []
    let tNone = try BenchmarkReport.medianMilliseconds(runs: 11) { sixelNone = try SixelEncoder(diffusion: .none).encode(big) }
    let tFS = try BenchmarkReport.medianMilliseconds(runs: 11) { sixelFS = try SixelEncoder(diffusion: .floydSteinberg).encode(big) }
    var kitty = KittyGraphicsEncoder()
    let tKitty = try BenchmarkReport.medianMilliseconds(runs: 11) { kittyBytes = try kitty.encode(big) }
    var shm = KittyGraphicsEncoder(transmission: .sharedMemory)
    var shmBytes: [UInt8] = []
    let tShm = try BenchmarkReport.medianMilliseconds(runs: 11) { shmBytes = try shm.encode(big) }
    shm.releaseSharedMemory()
    print("")
    print("1280×720 view (\(panoramaID), with labels), median of 11; peers read the same frame as PNG (start-up and decode included)")
    print(pad("encoder", 100) + pad("ms", 10) + "bytes")
    print(pad("sixel, libsixel 256 adaptive colours, no diffusion (SixelEncoder default)", 100) + pad(fmt(tNone, 1), 10) + "\(sixelNone.count)")
    print(pad("sixel, libsixel 256 adaptive colours, Floyd–Steinberg", 100) + pad(fmt(tFS, 1), 10) + "\(sixelFS.count)")
    print(pad("kitty, direct (base64 RGB in 4096-byte chunks)", 100) + pad(fmt(tKitty, 1), 10) + "\(kittyBytes.count)")
    print(pad("kitty, shared memory (frame copied into a POSIX shm object; name sent)", 100) + pad(fmt(tShm, 2), 10) + "\(shmBytes.count)")
    for (label, name, arguments) in [("img2sixel (libsixel-bin, default: FS diffusion)", "img2sixel", [bigPNG]),
                                     ("img2sixel -d none", "img2sixel", ["-d", "none", bigPNG]),
                                     ("chafa -f sixels --size 160x90 --font-ratio 1", "chafa", ["-f", "sixels", "--size", "160x90", "--font-ratio", "1", bigPNG])] {
        if let r = peer(name, arguments, runs: 9) {
            print(pad(label, 100) + pad(fmt(r.ms, 1), 10) + "\(r.bytes)")
        } else {
            print(pad(label, 100) + "skipped (\(name) not installed or failed)")
        }
    }
}

/// libchafa, loaded at run time (the benchmark's peer only: the package does not link it, so building
/// needs no libchafa-dev). Values from chafa 1.12's headers: CHAFA_CANVAS_MODE_TRUECOLOR 0,
/// CHAFA_PIXEL_MODE_SYMBOLS 0, CHAFA_PIXEL_RGB8 8, CHAFA_SYMBOL_TAG_VHALF 1 << 9.
private struct LibChafa {
    typealias New = @convention(c) () -> OpaquePointer?
    typealias AddTags = @convention(c) (OpaquePointer?, Int32) -> Void
    typealias SetInt = @convention(c) (OpaquePointer?, Int32) -> Void
    typealias SetGeometry = @convention(c) (OpaquePointer?, Int32, Int32) -> Void
    typealias SetMap = @convention(c) (OpaquePointer?, OpaquePointer?) -> Void
    typealias CanvasNew = @convention(c) (OpaquePointer?) -> OpaquePointer?
    typealias Draw = @convention(c) (OpaquePointer?, Int32, UnsafePointer<UInt8>?, Int32, Int32, Int32) -> Void
    typealias Print = @convention(c) (OpaquePointer?, OpaquePointer?) -> UnsafeMutableRawPointer?
    typealias Unref = @convention(c) (OpaquePointer?) -> Void
    typealias StringFree = @convention(c) (UnsafeMutableRawPointer?, Int32) -> UnsafeMutableRawPointer?
    typealias Threads = @convention(c) (Int32) -> Void

    /// glib's GString is { gchar *str; gsize len; gsize allocated_len; }: `len` 8 bytes in.
    static let gStringLengthOffset = MemoryLayout<UnsafeRawPointer>.size

    let symbolMapNew: New, addTags: AddTags, configNew: New, setCanvasMode: SetInt, setPixelMode: SetInt
    let setGeometry: SetGeometry, setSymbolMap: SetMap, canvasNew: CanvasNew, draw: Draw, print: Print
    let canvasUnref: Unref, configUnref: Unref, mapUnref: Unref, stringFree: StringFree
    let version: String

    init?() {
        guard let chafa = dlopen("libchafa.so.0", RTLD_NOW), let glib = dlopen("libglib-2.0.so.0", RTLD_NOW) else { return nil }
        func f<T>(_ handle: UnsafeMutableRawPointer, _ name: String, _: T.Type) -> T? {
            dlsym(handle, name).map { unsafeBitCast($0, to: T.self) }
        }
        guard let symbolMapNew = f(chafa, "chafa_symbol_map_new", New.self), let addTags = f(chafa, "chafa_symbol_map_add_by_tags", AddTags.self),
              let configNew = f(chafa, "chafa_canvas_config_new", New.self),
              let setCanvasMode = f(chafa, "chafa_canvas_config_set_canvas_mode", SetInt.self),
              let setPixelMode = f(chafa, "chafa_canvas_config_set_pixel_mode", SetInt.self),
              let setGeometry = f(chafa, "chafa_canvas_config_set_geometry", SetGeometry.self),
              let setSymbolMap = f(chafa, "chafa_canvas_config_set_symbol_map", SetMap.self),
              let canvasNew = f(chafa, "chafa_canvas_new", CanvasNew.self), let draw = f(chafa, "chafa_canvas_draw_all_pixels", Draw.self),
              let print = f(chafa, "chafa_canvas_print", Print.self), let canvasUnref = f(chafa, "chafa_canvas_unref", Unref.self),
              let configUnref = f(chafa, "chafa_canvas_config_unref", Unref.self), let mapUnref = f(chafa, "chafa_symbol_map_unref", Unref.self),
              let stringFree = f(glib, "g_string_free", StringFree.self), let threads = f(chafa, "chafa_set_n_threads", Threads.self)
        else { return nil }
        (self.symbolMapNew, self.addTags, self.configNew, self.setCanvasMode, self.setPixelMode) = (symbolMapNew, addTags, configNew, setCanvasMode, setPixelMode)
        (self.setGeometry, self.setSymbolMap, self.canvasNew, self.draw, self.print) = (setGeometry, setSymbolMap, canvasNew, draw, print)
        (self.canvasUnref, self.configUnref, self.mapUnref, self.stringFree) = (canvasUnref, configUnref, mapUnref, stringFree)
        threads(1)  // one core, as ours
        let real = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/usr/lib/x86_64-linux-gnu/libchafa.so.0")) ?? "libchafa.so.0"
        version = (real as NSString).lastPathComponent
    }

    /// The image as `columns × rows` cells of half blocks, truecolor; the byte count of the output.
    func symbols(_ image: RGB8Image, columns: Int, rows: Int) -> Int {
        let map = symbolMapNew()
        addTags(map, 1 << 9)
        let config = configNew()
        setCanvasMode(config, 0)
        setPixelMode(config, 0)
        setGeometry(config, Int32(columns), Int32(rows))
        setSymbolMap(config, map)
        let canvas = canvasNew(config)
        image.components.withUnsafeBufferPointer {
            draw(canvas, 8, $0.baseAddress, Int32(image.width), Int32(image.height), Int32(image.width * 3))
        }
        let text = print(canvas, OpaquePointer?.none)
        let count = text?.load(fromByteOffset: Self.gStringLengthOffset, as: Int.self) ?? 0
        _ = stringFree(text, 1)
        canvasUnref(canvas)
        configUnref(config)
        mapUnref(map)
        return count
    }
}
