import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import Reprojection

// The label pass of a snapshot (issue 5: under 2 ms for 200 candidate places): a panorama standing in
// a ring of 15 m facades 25 m away, 200 places on the ring (some in view, some behind the camera,
// many colliding), one 1280×720 view. Measured as the catalog query + placement alone, and as the
// difference between a warm snapshot with every label and one with none (placement + drawing).

/// A depth map (cm along the ray, 65535 sky) of a camera 2.5 m above flat ground in a ring of
/// 15 m tall walls at `radiusMeters`.
private func ringDepthMap(radiusMeters: Double, width: Int = 512) -> Gray16Image {
    let height = width / 2
    var depth = Gray16Image(width: width, height: height)
    for y in 0..<height {
        let elevation = (0.5 - (Double(y) + 0.5) / Double(height)) * .pi
        var range = Double.infinity
        let toWall = radiusMeters / cos(elevation), wallHeight = radiusMeters * tan(elevation) + 2.5
        if wallHeight >= 0 && wallHeight <= 15 { range = toWall }
        if elevation < 0 { range = min(range, 2.5 / sin(-elevation)) }
        let value = range.isFinite ? UInt16(min(65534, (range * 100).rounded())) : 65535
        for x in 0..<width { depth.components[y * width + x] = value }
    }
    return depth
}

func runLabelBenchmark(panorama rgb: RGB8Image, in tmp: String) throws {
    let folder = tmp + "labels/"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let center = try GeoCoordinate(latitude: 60.1699, longitude: 24.9523)
    let imagePath = folder + "pano.jpg", depthPath = folder + "pano.depth.png", catalogPath = folder + "catalog.sqlite"
    try Data(try JPEGCodec.encode(Resampler.resize(rgb, to: PixelSize(width: 2048, height: 1024), filter: .area), quality: 85))
        .write(to: URL(fileURLWithPath: imagePath))
    try Data(try PNGCodec.encode(ringDepthMap(radiusMeters: 25))).write(to: URL(fileURLWithPath: depthPath))
    let record = PanoramaRecord(id: "ring", coordinate: center, captureTime: Date(timeIntervalSince1970: 1_715_508_930),
                                headingDegrees: 0, imageWidth: 2048, imageHeight: 1024, imagePath: imagePath,
                                cameraHeightMeters: 2.5, depthPath: depthPath, source: .simulated)
    let frame = try LocalTangentFrame(origin: center)
    let categories = [("amenity", "restaurant", "Restaurant", PlaceGroup.food), ("amenity", "cafe", "Café", .food),
                      ("shop", "clothes", "Clothes shop", .shop), ("tourism", "museum", "Museum", .culture),
                      ("amenity", "pharmacy", "Pharmacy", .health), ("tourism", "hotel", "Hotel", .lodging)]
    var places: [Place] = []
    for i in 0..<200 {
        // Bearings spread over the whole circle (a golden-angle sequence), on the facade line.
        let bearing = Double(i) * 137.508 * .pi / 180
        let point = try frame.geodetic(from: EastNorthUp(east: 25 * sin(bearing), north: 25 * cos(bearing), up: 0))
        let c = categories[i % categories.count]
        places.append(Place(source: OSMElementReference(.node, Int64(i + 1)), name: "\(c.2) \(i + 1)", names: [:],
                            category: PlaceCategory(key: c.0, value: c.1, name: c.2, group: c.3), address: nil, phone: nil,
                            website: nil, openingHours: nil,
                            position: OSMCoordinate(latitude: point.coordinate.latitude, longitude: point.coordinate.longitude)))
    }
    _ = try CatalogBuilder.write(records: [record], places: places, to: catalogPath)
    let catalog = try Catalog(path: catalogPath)
    let scene = try LookAroundScene(panoramaID: "ring", catalog: catalog)
    let candidates = try catalog.places(near: center, radiusMeters: LookAroundLabelPlacer.searchRadiusMeters).count
    var options = LookAroundSnapshotter.Options(size: PixelSize(width: 1280, height: 720), camera: .init(headingDegrees: 20))
    options.showsRoadLabels = false
    let cache = PanoramaCache()
    let labelled = LookAroundSnapshotter(scene: scene, options: options, cache: cache, catalog: catalog)
    var bare = options
    bare.pointOfInterestFilter = .excludingAll
    let unlabelled = LookAroundSnapshotter(scene: scene, options: bare, cache: cache, catalog: catalog)
    let camera = try labelled.viewCamera()

    _ = try BenchmarkReport.wait { try await labelled.snapshot }  // warm: tile file made, tiles cached, fonts loaded
    var kept = 0
    let placement = try BenchmarkReport.medianMilliseconds(runs: 15, warmUp: false) {
        kept = try labelled.placeLabels(for: camera, catalog: catalog).count
    }
    let with = try BenchmarkReport.medianMilliseconds(runs: 15, warmUp: false) { _ = try BenchmarkReport.wait { try await labelled.snapshot } }
    let without = try BenchmarkReport.medianMilliseconds(runs: 15) { _ = try BenchmarkReport.wait { try await unlabelled.snapshot } }
    print("")
    print("Label pass, 1280×720 view, \(candidates) candidate places within \(Int(LookAroundLabelPlacer.searchRadiusMeters)) m "
          + "(\(kept) drawn after occlusion and declutter), median of 15")
    print("  placement (catalog query, depth map, projection, occlusion, declutter): \(String(format: "%.2f", placement)) ms")
    print("  whole pass (snapshot with labels − without: placement + drawing):        \(String(format: "%.2f", with - without)) ms"
          + "  (goal < 2 ms: \(with - without < 2 ? "met" : "NOT met"))")
    print("  warm snapshot without labels: \(String(format: "%.2f", without)) ms; with: \(String(format: "%.2f", with)) ms")
}

/// The road-label pass on the shipped Helsinki data, 1280×720 views where a street name is painted:
/// placement and painting timed apart (painting the first time in the process: glyphs not yet cached,
/// as a one-shot `lookaround snapshot` pays it), and the whole pass as the warm snapshot with street
/// names minus the one without (places off in both).
func runRoadLabelBenchmark(in tmp: String) throws {
    let shipped = "Panoramas/helsinki"
    guard FileManager.default.fileExists(atPath: shipped) else {
        print("road labels: skipped (\(shipped) does not exist; run from the package root)")
        return
    }
    let catalog = try BenchmarkReport.shippedCatalog(in: tmp, osmFiles: BenchmarkReport.helsinkiExtractIfPresent)
    let views: [(id: String, heading: Double)] = [("aleksanterinkatu-030", 250), ("aleksanterinkatu-010", 70),
                                                  ("aleksanterinkatu-010", 250), ("pohjoisesplanadi-020", 90),
                                                  ("pohjoisesplanadi-020", 270)]
    print("")
    print("Road labels, 1280×720 views of the shipped data, median of 31 (first paint: glyphs not yet cached)")
    print("view                          name               placement  painting  first paint  whole pass (snapshot with − without)")
    let cache = PanoramaCache()
    for view in views {
        guard let scene = try? LookAroundScene(panoramaID: view.id, catalog: catalog) else {
            print("  \(view.id): skipped (not in the shipped catalog)")
            continue
        }
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: 1280, height: 720), camera: .init(headingDegrees: view.heading),
                                                    pointOfInterestFilter: .excludingAll, showsRoadLabels: true)
        let with = LookAroundSnapshotter(scene: scene, options: options, cache: cache, catalog: catalog)
        options.showsRoadLabels = false
        let without = LookAroundSnapshotter(scene: scene, options: options, cache: cache, catalog: catalog)
        let camera = try with.viewCamera()
        var labels = try with.roadLabels(for: camera, catalog: catalog, avoiding: [])
        let background = RGB8Image(width: camera.width, height: camera.height)
        var image = background
        let first = try BenchmarkReport.milliseconds { try LookAroundSnapshotter.paint(roadLabels: labels, camera: camera, on: &image) }
        var placement: [Double] = [], painting: [Double] = []
        for _ in 0..<31 {
            placement.append(try BenchmarkReport.milliseconds { labels = try with.roadLabels(for: camera, catalog: catalog, avoiding: []) })
            image = background
            image.components.withUnsafeMutableBufferPointer { _ in }  // the copy happens here, not in the paint
            painting.append(try BenchmarkReport.milliseconds { try LookAroundSnapshotter.paint(roadLabels: labels, camera: camera, on: &image) })
        }
        // Alternating runs, so load changes hit both alike.
        var a: [Double] = [], b: [Double] = []
        for _ in 0..<32 {
            a.append(try BenchmarkReport.milliseconds { _ = try BenchmarkReport.wait { try await with.snapshot } })
            b.append(try BenchmarkReport.milliseconds { _ = try BenchmarkReport.wait { try await without.snapshot } })
        }
        let whole = a.dropFirst().sorted()[15] - b.dropFirst().sorted()[15]
        func cell(_ text: String, _ width: Int) -> String { text.padding(toLength: width, withPad: " ", startingAt: 0) }
        print(cell("\(view.id) \(Int(view.heading))°", 30) + cell(labels.map(\.name).joined(separator: ", "), 19)
              + cell(String(format: "%.2f ms", placement.sorted()[15]), 11) + cell(String(format: "%.2f ms", painting.sorted()[15]), 10)
              + cell(String(format: "%.2f ms", first), 13) + String(format: "%.2f ms", whole))
    }
}
