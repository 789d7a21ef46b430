import Foundation
import Geodesy
import Imaging
import MapData
import Simulator

// Simulator benchmarks on the shipped Helsinki extract: BVH build time, rays per second on ONE core
// (primary and shadow rays together, a 512×256 panorama at 4 samples per pixel), and seconds per
// 2048×1024 panorama at 4 samples per pixel on all cores; our BVH against Intel Embree 3 on the same
// triangles and the same rays (primary + shadow, one thread each; Embree single rays and the coherent
// streams the renderer uses). Goal: ≥ 10 million rays per second
// per core with the default engine.
// SIMULATOR_BENCH_OUT=DIR also writes the rendered images there (for looking at them).

func runSimulatorBenchmarks() throws {
    guard let extract = try BenchmarkReport.loadHelsinkiExtract() else { return }
    let dataset = extract.dataset, loaded = extract.seconds
    let buildStart = DispatchTime.now().uptimeNanoseconds
    let model = try CityModel(dataset: dataset)
    let built = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e9
    print("   model: \(model.triangleCount) triangles stored (\(model.instancedTriangleCount) with every copy of a tree, shrub or "
          + "furniture prototype written out; \(model.instanceCount) copies), \(model.signs.count) signs; OSM load \(String(format: "%.2f", loaded)) s, "
          + "city model \(String(format: "%.2f", built)) s")
    print("   BVH build (binned SAH, \(model.triangleCount) triangles): \(String(format: "%.3f", model.bvhBuildSeconds)) s; "
          + "default engine \(model.rayEngine.rawValue) (Embree scene \(String(format: "%.3f", model.embreeBuildSeconds)) s)")

    // A capture on Aleksanterinkatu, looking east towards Senaatintori.
    let coordinate = try GeoCoordinate(latitude: 60.16905, longitude: 24.9515)
    let position = model.position(of: coordinate, heightMeters: 2.5)
    let sun = SolarPosition(date: ISO8601DateFormatter().date(from: "2026-06-15T09:00:00Z") ?? Date(), coordinate: coordinate)
    let small = try EquirectangularCamera(position: position, headingDegrees: 80, width: 512)
    let oneCore = try RenderSettings(samplesPerPixel: 4, seed: 1, sun: sun, maximumThreads: 1)
    let reference = try CityModel(dataset: dataset, options: CityModelOptions(engine: .bvh))
    for (name, m) in [("default (\(model.rayEngine.rawValue))", model), ("reference (bvh)", reference)] {
        _ = m.renderCountingRays(small, settings: oneCore)  // warm-up
        var best = Double.infinity, rays = 0
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            let result = m.renderCountingRays(small, settings: oneCore)
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            rays = result.rayCount
        }
        let perCore = Double(rays) / best
        print("   rays per second, 1 core, \(name) (512×256, 4 spp, \(rays) rays incl. shadow and water-mirror rays, with shading): "
              + "\(String(format: "%.2f", perCore / 1e6)) M/s  (goal ≥ 10 M/s: \(perCore >= 10e6 ? "met" : "not met"))")
    }

    try compareRayEngines(model: model, position: position, sun: sun)

    // The same capture from the tile model `simulate` builds for it (500 m tile, 600 m of horizon, the
    // whole model's frame and ground): triangles and rays per second on one core against the whole.
    let tiling = try CaptureTiling()
    let square = SceneRect(minEast: (position.east / tiling.tileMeters).rounded(.down) * tiling.tileMeters,
                           minNorth: (position.north / tiling.tileMeters).rounded(.down) * tiling.tileMeters,
                           maxEast: ((position.east / tiling.tileMeters).rounded(.down) + 1) * tiling.tileMeters,
                           maxNorth: ((position.north / tiling.tileMeters).rounded(.down) + 1) * tiling.tileMeters)
    let tile = try CityModel(dataset: dataset, frame: model.frame, extent: square.expanded(by: tiling.horizonMeters).clamped(to: model.extent),
                             builtUpShare: model.builtUpShare)
    // And the same capture from the flat build (copies written out as triangles): the instancing's cost.
    let flat = try CityModel(dataset: dataset, options: CityModelOptions(instancing: false))
    var rates: [Double] = []
    for m in [model, tile, flat] {
        _ = m.renderCountingRays(small, settings: oneCore)
        var best = Double.infinity, rays = 0
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            rays = m.renderCountingRays(small, settings: oneCore).rayCount
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        rates.append(Double(rays) / best)
    }
    print(String(format: "   the capture's tile model (500 m + 600 m horizon): %d triangles against the whole model's %d; "
                 + "rays/s on one core %.2f M against %.2f M (%.2f×)", tile.triangleCount, model.triangleCount,
                 rates[1] / 1e6, rates[0] / 1e6, rates[1] / rates[0]))
    print(String(format: "   instanced against flat (the same objects written out, %d triangles): rays/s on one core %.2f M against %.2f M "
                 + "(%.2f×)", flat.triangleCount, rates[0] / 1e6, rates[2] / 1e6, rates[0] / rates[2]))

    let full = try EquirectangularCamera(position: position, headingDegrees: 80, width: 2048)
    let allCores = try RenderSettings(samplesPerPixel: 4, seed: 1, sun: sun)
    var result = model.renderCountingRays(try EquirectangularCamera(position: position, headingDegrees: 80, width: 64), settings: allCores)
    for (name, m) in [("default (\(model.rayEngine.rawValue))", model), ("reference (bvh)", reference)] {
        let start = DispatchTime.now().uptimeNanoseconds
        let r = m.renderCountingRays(full, settings: allCores)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        if m === model { result = r }
        print("   2048×1024 panorama, 4 spp, \(ProcessInfo.processInfo.activeProcessorCount) cores, \(name): \(String(format: "%.2f", seconds)) s "
              + "(\(String(format: "%.2f", Double(r.rayCount) / seconds / 1e6)) M rays/s in total; goal ≤ 0.5 s)")
    }
    let mapStart = DispatchTime.now().uptimeNanoseconds
    _ = model.renderDepthAndLabels(try EquirectangularCamera(position: position, headingDegrees: 80, width: 1024))
    print("   1024×512 depth + label maps: \(String(format: "%.2f", Double(DispatchTime.now().uptimeNanoseconds - mapStart) / 1e9)) s")

    if let out = ProcessInfo.processInfo.environment["SIMULATOR_BENCH_OUT"] {
        try ImageFile.write(JPEGCodec.encode(result.image, quality: 90), to: "\(out)/bench-panorama.jpg")
        let p = model.position(of: coordinate)
        let top = try OrthographicCamera(minEast: p.east - 150, minNorth: p.north - 100, maxEast: p.east + 150, maxNorth: p.north + 100,
                                         width: 1200, height: 800)
        try ImageFile.write(PNGCodec.encode(model.render(top, settings: allCores)), to: "\(out)/bench-topdown.png")
    }
}

/// Our BVH and Embree on the model's triangles (no ground plane) and the same rays, one thread each:
/// the primary rays of a 1024×512 panorama through pixel centres, then a shadow ray towards the sun
/// from every primary hit (our hit, pulled back 2 mm towards the camera). Prints rays per second, the
/// ratio, and how far the two engines' answers agree.
func compareRayEngines(model: CityModel, position: EastNorthUp, sun: SolarPosition) throws {
    let camera = try EquirectangularCamera(position: position, headingDegrees: 80, width: 1024)
    var origins: [Float] = [], directions: [Float] = []
    origins.reserveCapacity(camera.width * camera.height * 3); directions.reserveCapacity(camera.width * camera.height * 3)
    for y in 0..<camera.height {
        for x in 0..<camera.width {
            let d = camera.direction(pixelX: Double(x) + 0.5, pixelY: Double(y) + 0.5)
            let l = (d.east * d.east + d.north * d.north + d.up * d.up).squareRoot()
            origins += [Float(position.east), Float(position.north), Float(position.up)]
            directions += [Float(d.east / l), Float(d.north / l), Float(d.up / l)]
        }
    }
    func seconds(_ body: () -> Void) -> Double {
        var best = Double.infinity
        for _ in 0..<3 {
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }
    var ours: [Float] = []
    let oursPrimary = seconds { ours = model.closestHitDistances(origins: origins, directions: directions) }
    let s = sun.direction
    var shadowOrigins: [Float] = [], shadowDirections: [Float] = []
    for i in 0..<ours.count where ours[i].isFinite {
        let t = ours[i] - 2e-3
        shadowOrigins += [origins[3 * i] + directions[3 * i] * t, origins[3 * i + 1] + directions[3 * i + 1] * t,
                          origins[3 * i + 2] + directions[3 * i + 2] * t]
        shadowDirections += [Float(s.east), Float(s.north), Float(s.up)]
    }
    var oursShadow: [Bool] = []
    let oursShadowSeconds = seconds { oursShadow = model.occlusions(origins: shadowOrigins, directions: shadowDirections) }
    let primaryCount = ours.count, shadowCount = oursShadow.count
    let oursRate = Double(primaryCount + shadowCount) / (oursPrimary + oursShadowSeconds)
    print("   ray engines, 1 thread, \(model.triangleCount) triangles, \(primaryCount) primary + \(shadowCount) shadow rays "
          + "(\(ours.filter(\.isFinite).count) hits, \(oursShadow.filter { $0 }.count) occluded):")
    print("     our BVH: primary \(String(format: "%.2f", Double(primaryCount) / oursPrimary / 1e6)) M/s, "
          + "shadow \(String(format: "%.2f", Double(shadowCount) / oursShadowSeconds / 1e6)) M/s, "
          + "together \(String(format: "%.2f", oursRate / 1e6)) M/s")
    guard let embree = EmbreeScene(triangles: model.triangleVertexArray()) else {
        print("     Embree: no device (rtcNewDevice failed)")
        return
    }
    var theirs: [Float] = [], theirsShadow: [Bool] = []
    let embreePrimary = seconds { theirs = embree.closestHitDistances(origins: origins, directions: directions) }
    let embreeShadowSeconds = seconds { theirsShadow = embree.occlusions(origins: shadowOrigins, directions: shadowDirections) }
    let embreeRate = Double(primaryCount + shadowCount) / (embreePrimary + embreeShadowSeconds)
    print("     Embree 3 (rtcIntersect1/rtcOccluded1, MEDIUM, commit \(String(format: "%.3f", embree.commitSeconds)) s): "
          + "primary \(String(format: "%.2f", Double(primaryCount) / embreePrimary / 1e6)) M/s, "
          + "shadow \(String(format: "%.2f", Double(shadowCount) / embreeShadowSeconds / 1e6)) M/s, "
          + "together \(String(format: "%.2f", embreeRate / 1e6)) M/s = \(String(format: "%.2f", embreeRate / oursRate))× our BVH")
    printAgreement("Embree single rays", ours, oursShadow, theirs, theirsShadow)
    // The renderer's path: coherent streams of 256 rays (a run of one row's pixels, as it batches them).
    var streamed: [Float] = [], streamedShadow: [Bool] = []
    let streamPrimary = seconds { streamed = embree.closestHitDistances(origins: origins, directions: directions, streamSize: 256) }
    let streamShadowSeconds = seconds { streamedShadow = embree.occlusions(origins: shadowOrigins, directions: shadowDirections, streamSize: 256) }
    let streamRate = Double(primaryCount + shadowCount) / (streamPrimary + streamShadowSeconds)
    print("     Embree 3 streams of 256 (rtcIntersect1M/rtcOccluded1M, coherent; the renderer's path): "
          + "primary \(String(format: "%.2f", Double(primaryCount) / streamPrimary / 1e6)) M/s, "
          + "shadow \(String(format: "%.2f", Double(shadowCount) / streamShadowSeconds / 1e6)) M/s, "
          + "together \(String(format: "%.2f", streamRate / 1e6)) M/s = \(String(format: "%.2f", streamRate / oursRate))× our BVH, "
          + "\(String(format: "%.2f", streamRate / embreeRate))× single rays")
    printAgreement("Embree streams", ours, oursShadow, streamed, streamedShadow)
}

/// How far another engine's answers agree with our BVH's on the same rays.
func printAgreement(_ name: String, _ ours: [Float], _ oursShadow: [Bool], _ theirs: [Float], _ theirsShadow: [Bool]) {
    var sameHit = 0, close = 0
    for i in 0..<ours.count {
        if ours[i].isFinite == theirs[i].isFinite { sameHit += 1 }
        if ours[i].isFinite && theirs[i].isFinite && abs(ours[i] - theirs[i]) <= 1e-3 * max(1, ours[i]) { close += 1 }
    }
    let sameShadow = zip(oursShadow, theirsShadow).filter { $0 == $1 }.count
    print("     agreement of \(name) with our BVH: hit/miss \(String(format: "%.4f", 100 * Double(sameHit) / Double(ours.count))) %, "
          + "t within 0.1 % on \(String(format: "%.4f", 100 * Double(close) / Double(max(1, ours.filter(\.isFinite).count)))) % of hits, "
          + "shadow \(String(format: "%.4f", 100 * Double(sameShadow) / Double(max(1, oursShadow.count)))) %")
}
