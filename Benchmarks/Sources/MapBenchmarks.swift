import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot

/// `Benchmarks map`: a 1024×1024 snapshot of the Helsinki extract (standard type, flat and pitched) on one
/// core, against Mapnik rendering the same layers at the same size in the same run
/// (`scripts/mapnik-peer.sh`; render and PNG encode timed separately).
func runMapBenchmarks() throws {
    let osm = BenchmarkReport.helsinkiExtract
    guard let extract = try BenchmarkReport.loadHelsinkiExtract() else { return }
    let dataset = extract.dataset, loadMs = extract.seconds * 1e3
    var content: MapContent?
    let prepareMs = BenchmarkReport.medianMilliseconds(runs: 5) { content = MapContent(dataset) }
    let snapshotter = MapSnapshotter(content: content!, fonts: try FontLibrary())
    guard let box = dataset.boundingBox else { print("   skipped: the extract has no nodes"); return }
    let size = PointSize(width: 1024, height: 1024)
    var flat = MapSnapshotOptions(region: try CoordinateRegion(north: box.maxLatitude, south: box.minLatitude,
                                                               west: box.minLongitude, east: box.maxLongitude), size: size)
    flat.maximumThreads = 1
    let center = try GeoCoordinate(latitude: (box.minLatitude + box.maxLatitude) / 2, longitude: (box.minLongitude + box.maxLongitude) / 2)
    var pitched = MapSnapshotOptions(camera: try MapCamera(centerCoordinate: center, centerCoordinateDistanceMeters: 1200,
                                                           heading: .degrees(20), pitch: MapCameraPitch(degrees: 60)), size: size)
    pitched.maximumThreads = 1
    var image = RGBA8Image(width: 1, height: 1)
    if ProcessInfo.processInfo.environment["MAP_BENCH_BREAKDOWN"] == "1" {
        for (name, change) in [("no labels", { (o: inout MapSnapshotOptions) in o.showsLabels = false }),
                               ("no buildings", { (o: inout MapSnapshotOptions) in o.showsBuildings = false }),
                               ("no labels, no buildings", { (o: inout MapSnapshotOptions) in o.showsLabels = false; o.showsBuildings = false })] {
            for (kind, base) in [("flat", flat), ("pitched", pitched)] {
                var o = base
                change(&o)
                let ms = try BenchmarkReport.medianMilliseconds(runs: 9) { image = try snapshotter.snapshot(o).image }
                print("   breakdown: \(kind), \(name): \(String(format: "%.1f", ms)) ms")
            }
        }
    }
    let flatMs = try BenchmarkReport.medianMilliseconds(runs: 15) { image = try snapshotter.snapshot(flat).image }
    try? FileManager.default.createDirectory(atPath: ".build/benchmarks", withIntermediateDirectories: true)
    try ImageFile.write(PNGCodec.encode(image), to: ".build/benchmarks/map-flat-1024.png")
    var bytes: [UInt8] = []
    let encodeMs = try BenchmarkReport.medianMilliseconds(runs: 9) { bytes = try PNGCodec.encode(image) }
    let pitchedMs = try BenchmarkReport.medianMilliseconds(runs: 15) { image = try snapshotter.snapshot(pitched).image }
    try ImageFile.write(PNGCodec.encode(image), to: ".build/benchmarks/map-pitched-1024.png")

    let peer = BenchmarkReport.runMapnikPeer(osm: osm, width: 1024, height: 1024, runs: 15, folder: ".build/benchmarks/mapnik")
    func row(_ name: String, _ ours: Double, _ theirs: Double?) {
        let them = theirs.map { String(format: "%9.1f", $0) } ?? "        –"
        let ratio = theirs.map { String(format: "%6.2f×", $0 / ours) } ?? "      –"
        print("   \(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(String(format: "%9.1f", ours)) \(them)  \(ratio)")
    }
    print("   Helsinki extract (\(dataset.buildings.count) buildings, \(dataset.streets.count) streets, \(dataset.places.count) places), "
          + "1024×1024, standard type, one core")
    print("   \("step".padding(toLength: 44, withPad: " ", startingAt: 0))  ours ms mapnik ms  mapnik/ours")
    row("read OSM + prepare (once; mapnik: load_map)", loadMs + prepareMs, peer?.loadMs)
    row("render flat (top-down)", flatMs, peer?.renderMs)
    row("render pitched 60° (3D buildings)", pitchedMs, nil)
    row("PNG encode 1024×1024", encodeMs, peer?.encodeMs)
    print("   ours: PNG \(bytes.count) bytes; images in .build/benchmarks/")
    if let peer {
        print("   mapnik \(peer.version): PNG \(peer.pngBytes) bytes (png32, zlib 6); its image in .build/benchmarks/mapnik/mapnik.png")
        print("   differences: at this zoom (15.6) ours leaves out footways and building outlines (drawn from zoom 16) "
              + "and caps place labels at one per 20,000 px²; Mapnik's style draws footways (1 px), outlines, and "
              + "every POI label that fits; Mapnik has no pitched view")
    } else {
        print("   peer: Mapnik missing or failed (see above); install with: "
              + "sudo apt-get install python3-mapnik mapnik-utils osmium-tool")
    }
    print("   target: flat and pitched under 50 ms on one core: "
          + (flatMs < 50 && pitchedMs < 50 ? "met" : "NOT met"))
    try runWorldMapBenchmarks(snapshotter: snapshotter, size: size)
}

/// 1024×1024 world maps on one core: Europe at zoom 2 (the 1:110 m band), southern Finland and the
/// Baltic at zoom 6 (the finest 1:10 m band); and the one-off cost of reading and preparing the basemap.
func runWorldMapBenchmarks(snapshotter: MapSnapshotter, size: PointSize) throws {
    guard let path = WorldBasemap.searchPaths.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
        print("   world: skipped, no world basemap found")
        return
    }
    var layer: WorldLayer?
    let readMs = try BenchmarkReport.medianMilliseconds(runs: 5) { layer = WorldLayer(try WorldBasemap(contentsOfFile: path)) }
    _ = layer
    func options(_ latitude: Double, _ longitude: Double, zoom: Double) throws -> MapSnapshotOptions {
        let center = MapPoint(try GeoCoordinate(latitude: latitude, longitude: longitude))
        let side = MapSize.world.width / pow(2, zoom) * Double(size.width) / 256
        var o = MapSnapshotOptions(framing: .mapRect(MapRect(x: center.x - side / 2, y: center.y - side / 2, width: side, height: side)),
                                   size: size)
        o.maximumThreads = 1
        return o
    }
    var image = RGBA8Image(width: 1, height: 1)
    var results: [(String, Double)] = []
    for (name, o) in [("world zoom 2 (Europe)", try options(50, 15, zoom: 2)), ("world zoom 6 (southern Finland)", try options(60.5, 25, zoom: 6))] {
        let ms = try BenchmarkReport.medianMilliseconds(runs: 15) { image = try snapshotter.snapshot(o).image }
        let file = ".build/benchmarks/map-" + name.split(separator: " ").prefix(3).joined(separator: "-") + "-1024.png"
        try ImageFile.write(PNGCodec.encode(image), to: file)
        results.append((name, ms))
    }
    print("   world layer (Natural Earth, \(path.split(separator: "/").last ?? "")): read + prepare once \(String(format: "%.1f", readMs)) ms")
    for (name, ms) in results { print("   render \(name.padding(toLength: 37, withPad: " ", startingAt: 0)) \(String(format: "%9.1f", ms)) ms") }
    print("   target: world maps under 50 ms on one core: " + (results.allSatisfy { $0.1 < 50 } ? "met" : "NOT met"))
}
