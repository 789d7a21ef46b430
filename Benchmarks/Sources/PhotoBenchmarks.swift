import DerivedMaps
import Foundation
import Geodesy
import Imaging
import MapData
import Simulator

// Photos: what `lookaround index` spends on a photo without depth and label maps when an OSM extract
// covers it (issue 33): aligning its pose with the city model, then rendering its 512×256 depth and label
// maps (a 2048×1024 photo's quarter) and writing them, all cores. Measured on 40 shipped Helsinki
// panoramas whose true pose is known, with their heading disturbed by up to ±30° and their position by
// up to 5 m (PoseAlignmentTrial, the same cases as PoseAlignerTests), so the accuracy is measured in the
// same run: the share within 2° (goal ≥ 90 %). Peer: the simulator rendering the same 2048×1024
// panorama and its maps at the true pose (4 samples per pixel), measured in the same run on the same
// model: deriving a photo's maps costs this fraction of simulating the capture outright.

func runPhotoBenchmarks() throws {
    let osm = "Panoramas/sources/helsinki-centre.osm.pbf", folder = "Panoramas/helsinki"
    guard FileManager.default.fileExists(atPath: osm) else {
        print("   skipped: run from the repository root (\(osm) not found)")
        return
    }
    struct Truth: Decodable { var latitude: Double; var longitude: Double; var headingDegrees: Double; var cameraHeightMeters: Double }
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    let ids = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jpg") }.map { String($0.dropLast(4)) }.sorted()
    let trials = PoseAlignmentTrial.cases(count: 40, seed: 33)
    let chosen = trials.indices.map { ids[$0 * ids.count / trials.count] }
    let truths = try chosen.map { try decoder.decode(Truth.self, from: Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0).json"))) }

    let dataset = try MapDataset(contentsOfFile: osm)
    let points = truths.map { OSMCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
    var model: CityModel?
    let modelMs = try BenchmarkReport.milliseconds {
        model = try CityModel(dataset: dataset, region: OSMBoundingBox(enclosing: points),
                              options: CityModelOptions(marginMeters: CityMapDeriver.horizonMeters, includeSigns: false,
                                                        includeStreetPlates: false))
    }
    guard let model else { return }
    print(String(format: "   city model around the 40 photos (+%.0f m): %d triangles in %.0f ms (once per index run)",
                 CityMapDeriver.horizonMeters, model.triangleCount, modelMs))

    let out = NSTemporaryDirectory() + "lookaround-bench-photos-\(getpid())/"
    try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: out) }
    var decodeMs = 0.0, alignMs = 0.0, mapsMs = 0.0, headingErrors: [Double] = [], positionErrors: [Double] = []
    for (k, trial) in trials.enumerated() {
        let truth = truths[k]
        let truePosition = model.position(of: try GeoCoordinate(latitude: truth.latitude, longitude: truth.longitude),
                                          heightMeters: truth.cameraHeightMeters)
        let start = EastNorthUp(east: truePosition.east + trial.eastMeters, north: truePosition.north + trial.northMeters, up: truePosition.up)
        var photo: PhotoPanorama?
        decodeMs += try BenchmarkReport.milliseconds {
            let image = try JPEGCodec.decodeRGB(try ImageFile.read("\(folder)/\(chosen[k]).jpg"), options: JPEGDecodeOptions(scale: .half)).image
            photo = PhotoPanorama(image: image, headingDegrees: truth.headingDegrees + trial.headingDegrees)
        }
        var found: PoseAlignment?
        alignMs += BenchmarkReport.milliseconds { found = photo.flatMap { PoseAligner.align(photo: $0, model: model, position: start) } }
        guard let found else { headingErrors.append(180); continue }
        var error = (found.headingDegrees - truth.headingDegrees).truncatingRemainder(dividingBy: 360)
        if error > 180 { error -= 360 } else if error < -180 { error += 360 }
        headingErrors.append(abs(error))
        positionErrors.append(((found.position.east - truePosition.east) * (found.position.east - truePosition.east)
                               + (found.position.north - truePosition.north) * (found.position.north - truePosition.north)).squareRoot())
        mapsMs += try BenchmarkReport.milliseconds {
            let camera = try EquirectangularCamera(position: found.position, headingDegrees: found.headingDegrees,
                                                   width: CityMapDeriver.mapWidth(forFullWidth: 2048))
            let maps = model.renderDepthAndLabels(camera)
            try ImageFile.write(try PNGCodec.encode(maps.depth), to: out + "\(k).depth.png")
            try ImageFile.write(try PNGCodec.encode(maps.labels), to: out + "\(k).labels.png")
        }
    }
    let n = Double(trials.count)
    let within = headingErrors.count { $0 <= 2 }
    let sortedErrors = headingErrors.sorted(), sortedPositions = positionErrors.sorted()
    print(String(format: "   heading within 2°: %d of %d (%.0f %%; goal ≥ 90 %%), median error %.2f°, largest %.2f°",
                 within, trials.count, 100 * Double(within) / n, sortedErrors[sortedErrors.count / 2], sortedErrors.last ?? 0))
    if !sortedPositions.isEmpty {
        print(String(format: "   position: median error %.2f m, %d of %d within 0.5 m (disturbed by up to 5 m)",
                     sortedPositions[sortedPositions.count / 2], positionErrors.count { $0 <= 0.5 }, positionErrors.count))
    }
    print(String(format: "   per photo (2048×1024, %d cores): decode at 1/2 %.0f ms, align %.0f ms, depth + labels 512×256 rendered and written %.0f ms; "
                 + "%.2f s in all", ProcessInfo.processInfo.activeProcessorCount, decodeMs / n, alignMs / n, mapsMs / n,
                 (decodeMs + alignMs + mapsMs) / n / 1000))

    // Peer: simulating the same capture outright (the panorama at 4 samples per pixel, and its maps).
    let truth = truths[0]
    let coordinate = try GeoCoordinate(latitude: truth.latitude, longitude: truth.longitude)
    let position = model.position(of: coordinate, heightMeters: truth.cameraHeightMeters)
    let settings = try RenderSettings(samplesPerPixel: 4, seed: 1, sun: SolarPosition(date: Date(timeIntervalSince1970: 1_781_514_000), coordinate: coordinate))
    let peerMs = try BenchmarkReport.medianMilliseconds(runs: 3) {
        _ = model.render(try EquirectangularCamera(position: position, headingDegrees: truth.headingDegrees, width: 2048), settings: settings)
        _ = model.renderDepthAndLabels(try EquirectangularCamera(position: position, headingDegrees: truth.headingDegrees, width: 512))
    }
    print(String(format: "   peer, the simulator's own 2048×1024 capture (4 spp) + maps at the true pose: %.0f ms median of 3; "
                 + "aligning and deriving a photo's maps costs %.2f× that", peerMs, (alignMs + mapsMs) / n / peerMs))
}
