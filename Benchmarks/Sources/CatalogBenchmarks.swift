import Catalog
import Foundation
import Geodesy
import Imaging

// Catalog benchmarks: scene queries through the in-memory index against the plain SQLite R*Tree query
// (the first version an engineer writes), measured in the same run on the same synthetic catalog of
// 1,000,000 panoramas over a city-sized area; catalog open time; bytes per panorama of the query index;
// ingest of JPEG headers. Then the same on the shipped set when Panoramas/helsinki exists.

func runCatalogBenchmarks() throws {
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-catalog-bench-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    print("Catalog benchmarks (release; queries on one thread: index = best of 3 passes over 1M queries, one at a time "
          + "and in batches of \(sceneBatchSize); "
          + "R*Tree = one pass over the first 20k; open = median of 5)")
    print("")
    var table: [(String, String, String)] = []

    // 1. Synthetic catalog: 5,000 capture runs of 200 panoramas 8 m apart over 25 km × 25 km around Helsinki.
    let count = 1_000_000
    var random = BenchmarkRandom(state: 0xC0FFEE)
    let center = (latitude: 60.17, longitude: 24.94)
    let metersPerDegreeLatitude = 111_412.0, metersPerDegreeLongitude = 111_412.0 * cos(center.latitude * .pi / 180)
    let areaMeters = 25_000.0
    var records = try syntheticCaptureRuns(count: count, random: &random)
    let catalogPath = work.appendingPathComponent("synthetic.sqlite").path
    var start = DispatchTime.now().uptimeNanoseconds
    let links = try CatalogBuilder.write(records: records, to: catalogPath)
    let buildSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let fileMB = Double((try FileManager.default.attributesOfItem(atPath: catalogPath)[.size] as? Int) ?? 0) / 1e6
    print("synthetic catalog: \(count) panoramas, \(links) links, \(String(format: "%.0f", fileMB)) MB, "
          + "written in \(String(format: "%.1f", buildSeconds)) s (links with Karney on all cores)")
    records = []

    // 2. Open time (median of 5 opens; the page cache is warm after the build).
    var catalog: Catalog?
    let openMs = try BenchmarkReport.medianMilliseconds(runs: 5) { catalog = try Catalog(path: catalogPath) }
    guard let catalog, let queryIndex = catalog.queryIndex else { return }
    table.append(("catalog open, 1M panoramas", String(format: "%.0f ms", openMs), openMs < 1000 ? "< 1 s: met" : "< 1 s: MISSED"))
    let bytesPerPanorama = Double(queryIndex.byteCount) / Double(catalog.panoramaCount)
    table.append(("query index memory", String(format: "%.1f B/panorama", bytesPerPanorama),
                  bytesPerPanorama < 150 ? "< 150 B: met" : "< 150 B: MISSED"))

    // 3. Queries: half near a panorama's street (within 40 m of the area's runs), half anywhere in the area.
    let queryCount = 1_000_000
    var queries: [SceneQueryIndex.Query] = []
    queries.reserveCapacity(queryCount)
    for i in 0..<queryCount {
        let spread = i % 2 == 0 ? areaMeters : areaMeters * 0.8
        let coordinate = try GeoCoordinate(
            latitude: center.latitude + (random.next() - 0.5) * spread / metersPerDegreeLatitude,
            normalizingLongitude: center.longitude + (random.next() - 0.5) * spread / metersPerDegreeLongitude)
        queries.append(SceneQueryIndex.Query(coordinate: coordinate, radiusMeters: 50))
    }
    var found = 0
    var indexQPS = 0.0
    var bestSeconds = Double.infinity
    for _ in 0..<3 {
        found = 0
        start = DispatchTime.now().uptimeNanoseconds
        for query in queries where catalog.nearest(query).found { found += 1 }
        bestSeconds = min(bestSeconds, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    }
    indexQPS = Double(queryCount) / bestSeconds
    // The same queries in batches, as the availability API receives them: the next queries' cells are prefetched.
    var hits = [SceneQueryIndex.Hit](repeating: SceneQueryIndex.Hit(position: -1, approximateDistanceMeters: 0, withinRadius: 0, accepted: 0),
                                     count: sceneBatchSize)
    var batchSeconds = Double.infinity
    var batchAgrees = true
    for _ in 0..<3 {
        start = DispatchTime.now().uptimeNanoseconds
        var batchFound = 0
        queries.withUnsafeBufferPointer { all in
            hits.withUnsafeMutableBufferPointer { out in
                var first = 0
                while first < all.count {
                    let batch = UnsafeBufferPointer(rebasing: all[first..<min(first + sceneBatchSize, all.count)])
                    catalog.nearest(batch, into: out)
                    for k in 0..<batch.count where out[k].found { batchFound += 1 }
                    first += batch.count
                }
            }
        }
        batchSeconds = min(batchSeconds, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        batchAgrees = batchAgrees && batchFound == found
    }
    let batchQPS = Double(queryCount) / batchSeconds
    print("queries: \(queryCount) points in the area, radius 50 m, nearest; \(found) found (\(found * 100 / queryCount) %)")

    // The layout against its limit: 64-byte lines of the index read per query (each a cache miss on a catalog
    // much larger than the caches), against the layout before the cell table, over the first 100,000 queries.
    var linesNow = 0, linesBefore = 0
    for query in queries.prefix(100_000) {
        let lines = queryIndex.linesRead(query)
        linesNow += lines.cellTable
        linesBefore += lines.previousLayout
    }
    print(String(format: "index lines read per query (64 B; unfiltered nearest): %.2f with the cell table, %.2f in the layout before it",
                 Double(linesNow) / 100_000, Double(linesBefore) / 100_000))
    if let rollup = try? String(contentsOfFile: "/proc/self/smaps_rollup", encoding: .utf8),
       let huge = rollup.split(separator: "\n").first(where: { $0.hasPrefix("AnonHugePages:") }) {
        print("transparent huge pages in this process: \(huge.dropFirst("AnonHugePages:".count).trimmingCharacters(in: .whitespaces))")
    }

    // The R*Tree baseline on the first 20,000 of the same queries; results are compared.
    let baselineCount = 20_000
    var disagreements = 0, atTheBoundary = 0
    start = DispatchTime.now().uptimeNanoseconds
    var baselineResults: [(row: Int, distanceMeters: Double)?] = []
    baselineResults.reserveCapacity(baselineCount)
    for query in queries.prefix(baselineCount) { baselineResults.append(try catalog.nearestByRTreeQuery(query)) }
    let baselineQPS = Double(baselineCount) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    for (query, reference) in zip(queries.prefix(baselineCount), baselineResults) {
        let hit = catalog.nearest(query)
        if hit.found != (reference != nil) {
            disagreements += 1
            // A panorama within the 1e-7° position rounding (≤ 8 mm) of the radius falls on either side.
            let wide = catalog.nearest(SceneQueryIndex.Query(coordinate: query.coordinate, radiusMeters: 50.02))
            if wide.found && wide.approximateDistanceMeters > 49.98 { atTheBoundary += 1 }
            continue
        }
        if let reference, abs(reference.distanceMeters - hit.approximateDistanceMeters) > 0.02 { disagreements += 1 }
    }
    let ratio = indexQPS / baselineQPS
    // Issue 55's goal is 2 M q/s on one core; the limit, two cache misses a query, is about 10 M.
    table.append(("nearest within 50 m, in-memory index", String(format: "%.0f q/s", indexQPS),
                  indexQPS >= 2_000_000 ? "≥ 2,000,000 (limit ≈ 10 M): met" : "≥ 2,000,000 (limit ≈ 10 M): MISSED"))
    table.append(("  same, in batches of \(sceneBatchSize) (prefetching)", String(format: "%.0f q/s", batchQPS),
                  (batchQPS >= 2_000_000 ? "≥ 2,000,000: met" : "≥ 2,000,000: MISSED") + (batchAgrees ? "" : "; found counts DIFFER")))
    table.append(("same queries, SQLite R*Tree + ORDER BY", String(format: "%.0f q/s", baselineQPS), ""))
    table.append(("ratio index / R*Tree", String(format: "%.1f×", ratio), ratio >= 20 ? "≥ 20×: met" : "≥ 20×: MISSED"))
    print("index and R*Tree answers differ on \(disagreements) of \(baselineCount) queries, \(atTheBoundary) of them a panorama "
          + "within 2 cm of the 50 m radius (same panorama or same distance within 2 cm counts as equal)")

    // Full answers (index + Karney distance and bearing + details and links from SQLite), for information.
    let answerCount = 20_000
    start = DispatchTime.now().uptimeNanoseconds
    for query in queries.prefix(answerCount) {
        _ = try catalog.scene(for: SceneRequest(coordinate: query.coordinate, radiusMeters: 50))
    }
    let answersPerSecond = Double(answerCount) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
    table.append(("full scene answers (Karney + details + links)", String(format: "%.0f /s", answersPerSecond), "(no goal)"))

    // 4. Ingest: JPEG headers of 4,000 small panoramas with EXIF GPS + GPano XMP (pixels are never decoded).
    let ingestDirectory = work.appendingPathComponent("ingest/run")
    try FileManager.default.createDirectory(at: ingestDirectory, withIntermediateDirectories: true)
    let fileCount = 4_000
    var image = RGB8Image(width: 256, height: 128)
    for i in 0..<image.components.count { image.components[i] = UInt8(truncatingIfNeeded: i &* 31) }
    for i in 0..<fileCount {
        let metadata = ImageMetadata(
            latitudeDegrees: center.latitude + Double(i % 100) * 1e-4, longitudeDegrees: center.longitude + Double(i / 100) * 1e-4,
            altitudeMeters: 10, imageDirectionDegrees: Double(i % 360), dateTimeOriginal: "2024:05:12 10:15:30",
            make: "RICOH", model: "RICOH THETA Z1",
            panorama: .equirectangular(width: 256, height: 128, headingDegrees: Double(i % 360)))
        try Data(try JPEGCodec.encode(image, quality: 80, metadata: metadata))
            .write(to: ingestDirectory.appendingPathComponent(String(format: "R%07d.JPG", i)))
    }
    let ingestCatalog = work.appendingPathComponent("ingest.sqlite").path
    let report = try CatalogBuilder.build(CatalogBuildOptions(directories: [ingestDirectory.path], catalogPath: ingestCatalog))
    let filesPerSecond = Double(report.filesRead) / report.seconds
    table.append(("index \(fileCount) JPEGs (headers, links, write)", String(format: "%.0f files/s", filesPerSecond),
                  filesPerSecond >= 2000 ? "≥ 2,000: met" : "≥ 2,000: MISSED"))
    let again = try CatalogBuilder.build(CatalogBuildOptions(directories: [ingestDirectory.path], catalogPath: ingestCatalog))
    table.append(("  re-index, all unchanged", String(format: "%.0f files/s", Double(again.filesFound) / again.seconds), "(incremental)"))

    // 5. The shipped set.
    let shipped = "Panoramas/helsinki"
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: shipped, isDirectory: &isDirectory), isDirectory.boolValue {
        let shippedCatalog = work.appendingPathComponent("shipped.sqlite").path
        let shippedReport = try CatalogBuilder.build(CatalogBuildOptions(directories: [shipped], catalogPath: shippedCatalog))
        let opened = try Catalog(path: shippedCatalog)
        table.append(("shipped set: index \(shippedReport.filesRead) files",
                      String(format: "%.0f files/s", Double(shippedReport.filesRead) / max(shippedReport.seconds, 1e-9)),
                      "\(shippedReport.failures.count) failed"))
        if opened.panoramaCount > 0, let openedIndex = opened.queryIndex {
            let sample = (0..<opened.panoramaCount).map { openedIndex.coordinate(at: $0) }
            var shippedQueries: [SceneQueryIndex.Query] = []
            for i in 0..<200_000 {
                let base = sample[i % sample.count]
                if let c = try? GeoCoordinate(latitude: base.latitude + (random.next() - 0.5) * 0.001,
                                              normalizingLongitude: base.longitude + (random.next() - 0.5) * 0.002) {
                    shippedQueries.append(SceneQueryIndex.Query(coordinate: c, radiusMeters: 50))
                }
            }
            start = DispatchTime.now().uptimeNanoseconds
            var shippedFound = 0
            for query in shippedQueries where opened.nearest(query).found { shippedFound += 1 }
            let qps = Double(shippedQueries.count) / (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            table.append(("shipped set: nearest within 50 m", String(format: "%.0f q/s", qps), "\(shippedFound * 100 / max(1, shippedQueries.count)) % found"))
        }
    } else {
        print("shipped set: skipped (\(shipped) does not exist yet; run from the package root after the simulator has written it)")
    }

    print("")
    print(catalogPad("measurement", 48) + catalogPad("result", 22) + "goal")
    print(String(repeating: "-", count: 90))
    for (name, value, goal) in table { print(catalogPad(name, 48) + catalogPad(value, 22) + goal) }
}

/// Queries per call of the batched path (the availability API's batches are of this order).
private let sceneBatchSize = 1024

private func catalogPad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
}

/// A deterministic generator for the synthetic data.
struct BenchmarkRandom {
    var state: UInt64
    mutating func next() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }
}
