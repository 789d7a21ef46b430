import Catalog
import Foundation
import Geodesy
import Service

// `stac`: STAC item searches (`/api/search?bbox=…`, boxes of 200 m × 200 m around random panoramas of
// the 1,000,000 synthetic ones, limit 100) per second, through the Catalog API on one thread and
// through HTTP (wrk -t1 -c16 against one `lookaround serve`), on the SQLite catalog and on the same
// catalog in PostGIS, the same searches in the same run. geovisio (Panoramax's server) is on PyPI
// (2.15.1), but running it means its Flask app, its migrations on our PostGIS and its own ingest of a
// million pictures; not done yet, so the peer is the same searches in PostGIS (the fallback).
// The database, the server and wrk share the machine's 2 cores.

func runSTACBenchmarks() throws {
    let seconds = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_SECONDS"] ?? "") ?? 5
    let count = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_PANORAMAS"] ?? "") ?? 1_000_000
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-stac-bench-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }
    var records = try syntheticCaptureRuns(count: count)
    let sqlitePath = work.appendingPathComponent("synthetic.sqlite").path
    _ = try CatalogBuilder.writeMeasured(records: records, to: sqlitePath)
    var catalogs: [(name: String, location: String)] = [("SQLite ", sqlitePath)]
    let database = "lookaround_stac_bench"
    var postgresBase: String?
    if let base = postgisBenchmarkURL() {
        let url = base.replacingOccurrences(of: "/lookaround?", with: "/\(database)?")
        try psql(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
        try psql(base, "CREATE DATABASE \(database) TEMPLATE lookaround_template")
        _ = try CatalogBuilder.writeMeasured(records: records, to: url)
        catalogs.append(("PostGIS", url))
        postgresBase = base
    }
    defer { if let postgresBase { _ = try? psql(postgresBase, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") } }
    let centres = stride(from: 0, to: records.count, by: max(1, records.count / 5_000)).map { records[$0].coordinate }
    records = []
    // A 200 m box: ±100 m in each direction.
    func box(_ centre: GeoCoordinate) -> PanoramaSearch.Box {
        let dLat = 100 / 111_195.0, dLon = 100 / (111_195.0 * cos(centre.latitude * .pi / 180))
        return PanoramaSearch.Box(south: centre.latitude - dLat, west: centre.longitude - dLon,
                                  north: centre.latitude + dLat, east: centre.longitude + dLon)
    }

    print("   directly: Catalog.searchPanoramas, bbox 200 m × 200 m around random panoramas, limit 100, one thread, \(seconds) s each")
    for (name, location) in catalogs {
        let catalog = try Catalog(path: location)
        var searches = 0, found = 0, latencies: [Double] = []
        let start = DispatchTime.now().uptimeNanoseconds
        let end = start + UInt64(seconds) * 1_000_000_000
        var now = start
        while now < end {
            let began = now
            found += try catalog.searchPanoramas(PanoramaSearch(box: box(centres[searches % centres.count]), limit: 100)).records.count
            now = DispatchTime.now().uptimeNanoseconds
            latencies.append(Double(now - began) / 1e6)
            searches += 1
        }
        latencies.sort()
        print(String(format: "   %@: %8.0f searches/s  p99 %6.3f ms  (%d searches, %.1f items each)", name,
                     Double(searches) / (Double(now - start) / 1e9), latencies[latencies.count * 99 / 100], searches,
                     Double(found) / Double(max(searches, 1))))
    }

    guard BenchmarkReport.which("wrk") != nil else { print("   HTTP: skipped: wrk is not installed (apt-get install wrk)"); return }
    let rows = centres.map { centre -> String in
        let b = box(centre)
        return String(format: "\"%.7f,%.7f,%.7f,%.7f\"", b.west, b.south, b.east, b.north)
    }.joined(separator: ",")
    let script = wrkScript("stac-search", """
        local boxes = {\(rows)}
        math.randomseed(42)
        request = function()
          return wrk.format("GET", "/api/search?limit=100&bbox=" .. boxes[math.random(#boxes)])
        end
        """)
    print("   through HTTP: GET /api/search?bbox=(200 m)&limit=100, one lookaround serve (3 network threads), wrk -t1 -c16 -d\(seconds)s")
    for (name, location) in catalogs {
        let server = try ServedProcess(catalog: location, extra: ["--threads", "3", "--catalog-connections", "4"])
        defer { server.stop() }
        _ = Wrk.run("http://127.0.0.1:\(server.port)", seconds: 1, connections: 4, script: script, threads: 1)
        guard let result = Wrk.run("http://127.0.0.1:\(server.port)", seconds: seconds, connections: 16, script: script, threads: 1) else { continue }
        print(String(format: "   %@: %8.0f searches/s  p99 %6.2f ms  errors %d  non-2xx %d", name, result.requestsPerSecond,
                     result.p99Milliseconds, result.errors, result.non2xx))
    }
}
