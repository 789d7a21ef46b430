import Foundation
import Geodesy
import Imaging
import MapData
import Simulator

// Simulator benchmarks on the shipped Helsinki extract: BVH build time, rays per second on ONE core
// (primary and shadow rays together, a 512×256 panorama at 4 samples per pixel), and seconds per
// 2048×1024 panorama at 4 samples per pixel on all cores. Goal: ≥ 5 million rays per second per core.
// SIMULATOR_BENCH_OUT=DIR also writes the rendered images there (for looking at them).

func runSimulatorBenchmarks() throws {
    let path = "Panoramas/sources/helsinki-centre.osm.pbf"
    guard FileManager.default.fileExists(atPath: path) else {
        print("   skipped: run from the repository root (\(path) not found)")
        return
    }
    let loadStart = DispatchTime.now().uptimeNanoseconds
    let dataset = try MapDataset(contentsOfFile: path)
    let loaded = Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e9
    let buildStart = DispatchTime.now().uptimeNanoseconds
    let model = try CityModel(dataset: dataset)
    let built = Double(DispatchTime.now().uptimeNanoseconds - buildStart) / 1e9
    print("   model: \(model.triangleCount) triangles, \(model.signs.count) signs; OSM load \(String(format: "%.2f", loaded)) s, "
          + "city model \(String(format: "%.2f", built)) s")
    print("   BVH build (binned SAH, \(model.triangleCount) triangles): \(String(format: "%.3f", model.bvhBuildSeconds)) s")

    // A capture on Aleksanterinkatu, looking east towards Senaatintori.
    let coordinate = try GeoCoordinate(latitude: 60.16905, longitude: 24.9515)
    let position = model.position(of: coordinate, heightMeters: 2.5)
    let sun = SolarPosition(date: ISO8601DateFormatter().date(from: "2026-06-15T09:00:00Z") ?? Date(), coordinate: coordinate)
    let small = try EquirectangularCamera(position: position, headingDegrees: 80, width: 512)
    let oneCore = try RenderSettings(samplesPerPixel: 4, seed: 1, sun: sun, maximumThreads: 1)
    _ = model.renderCountingRays(small, settings: oneCore)  // warm-up
    var best = Double.infinity, rays = 0
    for _ in 0..<3 {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = model.renderCountingRays(small, settings: oneCore)
        best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        rays = result.rayCount
    }
    let perCore = Double(rays) / best
    print("   rays per second, 1 core (512×256, 4 spp, \(rays) rays incl. shadow rays): "
          + "\(String(format: "%.2f", perCore / 1e6)) M/s  (goal ≥ 5 M/s: \(perCore >= 5e6 ? "met" : "not met"))")

    let full = try EquirectangularCamera(position: position, headingDegrees: 80, width: 2048)
    let allCores = try RenderSettings(samplesPerPixel: 4, seed: 1, sun: sun)
    let start = DispatchTime.now().uptimeNanoseconds
    let result = model.renderCountingRays(full, settings: allCores)
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    print("   2048×1024 panorama, 4 spp, \(ProcessInfo.processInfo.activeProcessorCount) cores: \(String(format: "%.2f", seconds)) s "
          + "(\(String(format: "%.2f", Double(result.rayCount) / seconds / 1e6)) M rays/s in total)")
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
