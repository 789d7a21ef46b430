import Catalog
import Foundation
import Geodesy
import ProcessRunner
import Service

// `postgis`: the catalog in PostgreSQL + PostGIS next to the SQLite catalog, on the same 1,000,000
// synthetic panoramas and the same queries, in the same run: COPY ingest rows/s; nearest-within-50 m
// scene queries per second and p99 latency directly through the Catalog API (1, 2, 4 client threads)
// and through HTTP (wrk against 1, 2, 4 `lookaround serve` processes sharing the one database).
// The server is $LOOKAROUND_BENCH_POSTGRES, else the local cluster of scripts/postgis.sh (started if
// needed). The database server, the serve processes and wrk all share the machine's 2 cores.

func runPostGISBenchmarks() throws {
    guard let base = postgisBenchmarkURL() else { return }
    let seconds = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_SECONDS"] ?? "") ?? 5
    let count = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_PANORAMAS"] ?? "") ?? 1_000_000
    let database = "lookaround_bench"
    let url = base.replacingOccurrences(of: "/lookaround?", with: "/\(database)?")
    try psql(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)")
    try psql(base, "CREATE DATABASE \(database) TEMPLATE lookaround_template")
    defer { _ = try? psql(base, "DROP DATABASE IF EXISTS \(database) WITH (FORCE)") }
    let work = FileManager.default.temporaryDirectory.appendingPathComponent("lookaround-postgis-bench-\(getpid())")
    try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: work) }

    var records = try syntheticCaptureRuns(count: count)
    let sqlitePath = work.appendingPathComponent("synthetic.sqlite").path
    let sqliteWrite = try CatalogBuilder.writeMeasured(records: records, to: sqlitePath)
    let postgisWrite = try CatalogBuilder.writeMeasured(records: records, to: url)
    let copiedRows = Double(records.count + postgisWrite.links + records.count / 200)
    print(String(format: "   ingest of %d panoramas (+ %d links, %d sequences): PostGIS %.1f s in all, COPY %.1f s = %.0f rows/s "
                 + "(%.0f panoramas/s in all); SQLite %.1f s in all (%.0f panoramas/s)",
                 records.count, postgisWrite.links, records.count / 200, postgisWrite.totalSeconds, postgisWrite.copySeconds ?? 0,
                 copiedRows / max(postgisWrite.copySeconds ?? 1, 1e-9), Double(records.count) / postgisWrite.totalSeconds,
                 sqliteWrite.totalSeconds, Double(records.count) / sqliteWrite.totalSeconds))
    let samples = stride(from: 0, to: records.count, by: max(1, records.count / 5_000)).map { records[$0].coordinate }
    records = []

    // Directly: Catalog.scene with a detail cache, as the service calls it, from 1, 2, 4 threads.
    let sqlite = try Catalog(path: sqlitePath), postgis = try Catalog(path: url)
    print("   directly: Catalog.scene(for:) nearest within 50 m of random points near panoramas, detail cache on, \(seconds) s per row")
    for threads in [1, 2, 4] {
        for (name, catalog) in [("SQLite ", sqlite), ("PostGIS", postgis)] {
            let result = directSceneQueries(catalog, samples: samples, threads: threads, seconds: Double(seconds))
            print(String(format: "   %@ %d thread%@: %8.0f queries/s  p99 %6.3f ms  (%d queries, %d found)", name, threads,
                         threads == 1 ? " " : "s", result.rate, result.p99Milliseconds, result.queries, result.found))
        }
    }

    // Through HTTP: 1, 2, 4 serve processes on one catalog, one wrk per process (-t1 -c16).
    guard BenchmarkReport.which("wrk") != nil else { print("   HTTP: skipped: wrk is not installed (apt-get install wrk)"); return }
    let rows = samples.map { String(format: "{%.7f,%.7f}", $0.latitude, $0.longitude) }.joined(separator: ",")
    let script = wrkScript("postgis-scene", randomSceneScript("""
        local points = {\(rows)}
        local function near()
          local p = points[math.random(#points)]
          return p[1] + (math.random() - 0.5) * 0.0005, p[2] + (math.random() - 0.5) * 0.001
        end
        """))
    print("   through HTTP: GET /v1/scene nearest within 50 m, random points; k serve processes (3 network threads each), "
          + "one wrk -t1 -c16 -d\(seconds)s per process, run together")
    for processes in [1, 2, 4] {
        for (name, catalog) in [("SQLite ", sqlitePath), ("PostGIS", url)] {
            var servers: [ServedProcess] = []
            defer { servers.forEach { $0.stop() } }
            for _ in 0..<processes { servers.append(try ServedProcess(catalog: catalog, extra: ["--threads", "3", "--catalog-connections", "4"])) }
            for server in servers { _ = Wrk.run("http://127.0.0.1:\(server.port)", seconds: 1, connections: 4, script: script, threads: 1) }
            let group = DispatchGroup()
            let results = LockedResults()
            for port in servers.map(\.port) {
                group.enter()
                DispatchQueue.global().async {
                    if let r = Wrk.run("http://127.0.0.1:\(port)", seconds: seconds, connections: 16, script: script, threads: 1) {
                        results.append(r)
                    }
                    group.leave()
                }
            }
            group.wait()
            let all = results.values
            print(String(format: "   %@ %d process%@: %8.0f req/s  p99 %6.2f ms (worst process)  errors %d  non-2xx %d", name, processes,
                         processes == 1 ? "  " : "es", all.map(\.requestsPerSecond).reduce(0, +), all.map(\.p99Milliseconds).max() ?? 0,
                         all.map(\.errors).reduce(0, +), all.map(\.non2xx).reduce(0, +)))
        }
    }
}

/// The catalog section's layout: `count` panoramas in capture runs of 200, 8 m apart, over 25 km × 25 km
/// around Helsinki (sequences `run-N`), the same every time.
func syntheticCaptureRuns(count: Int) throws -> [PanoramaRecord] {
    var random = BenchmarkRandom(state: 0xC0FFEE)
    return try syntheticCaptureRuns(count: count, random: &random)
}

/// The same layout drawn from `random` (which goes on from where the layout left it: the catalog
/// section draws its query points from it next).
func syntheticCaptureRuns(count: Int, random: inout BenchmarkRandom) throws -> [PanoramaRecord] {
    let center = (latitude: 60.17, longitude: 24.94)
    let metersPerDegreeLatitude = 111_412.0, metersPerDegreeLongitude = 111_412.0 * cos(center.latitude * .pi / 180)
    var records: [PanoramaRecord] = []
    records.reserveCapacity(count)
    for run in 0..<(count / 200) {
        var x = (random.next() - 0.5) * 25_000, y = (random.next() - 0.5) * 25_000
        let heading = random.next() * 2 * .pi
        for k in 0..<200 {
            x += 8 * sin(heading)
            y += 8 * cos(heading)
            let coordinate = try GeoCoordinate(latitude: center.latitude + y / metersPerDegreeLatitude,
                                               normalizingLongitude: center.longitude + x / metersPerDegreeLongitude)
            records.append(PanoramaRecord(id: "synthetic/\(run)/\(k)", coordinate: coordinate,
                                          captureTime: Date(timeIntervalSince1970: 1_700_000_000 + Double(run) * 3600 + Double(k) * 2),
                                          headingDegrees: Angle.normalizedHeadingDegrees(heading * 180 / .pi), imageWidth: 4096,
                                          imageHeight: 2048, imagePath: "/synthetic/\(run)/\(k).jpg",
                                          source: run % 3 == 0 ? .photo : .simulated, sequenceName: "run-\(run)", sequenceIndex: k))
        }
    }
    return records
}

final class LockedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [WrkResult] = []
    func append(_ result: WrkResult) { lock.lock(); stored.append(result); lock.unlock() }
    var values: [WrkResult] { lock.lock(); defer { lock.unlock() }; return stored }
}

/// Scene queries from `threads` threads for `seconds`: rate, p99 latency, counts.
func directSceneQueries(_ catalog: Catalog, samples: [GeoCoordinate], threads: Int, seconds: Double)
    -> (rate: Double, p99Milliseconds: Double, queries: Int, found: Int) {
    let cache = SceneDetailCache()
    let lock = NSLock()
    nonisolated(unsafe) var latencies: [Double] = []
    nonisolated(unsafe) var found = 0
    let start = DispatchTime.now().uptimeNanoseconds
    DispatchQueue.concurrentPerform(iterations: threads) { thread in
        var random = BenchmarkRandom(state: UInt64(77 + thread))
        var mine: [Double] = []
        var hits = 0
        let deadline = start + UInt64(seconds * 1e9)
        while DispatchTime.now().uptimeNanoseconds < deadline {
            let p = samples[Int(random.next() * Double(samples.count)) % samples.count]
            guard let point = try? GeoCoordinate(latitude: p.latitude + (random.next() - 0.5) * 0.0005,
                                                 normalizingLongitude: p.longitude + (random.next() - 0.5) * 0.001) else { continue }
            let t0 = DispatchTime.now().uptimeNanoseconds
            if let answer = try? catalog.scene(for: SceneRequest(coordinate: point), detailCache: cache), answer.found { hits += 1 }
            mine.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        lock.lock()
        latencies += mine
        found += hits
        lock.unlock()
    }
    let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    latencies.sort()
    let p99 = latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, Int(Double(latencies.count) * 0.99))]
    return (Double(latencies.count) / elapsed, p99, latencies.count, found)
}

/// The PostGIS server to measure: $LOOKAROUND_BENCH_POSTGRES, else `scripts/postgis.sh up`; nil (after
/// saying why) when there is none.
func postgisBenchmarkURL() -> String? {
    if let url = ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_POSTGRES"], !url.isEmpty { return url }
    // ChildProcess (posix_spawn and waitpid, output through a file): with Foundation's Process the
    // script's exit was never noticed (waitUntilExit spun on a zombie; 2026-12-01), and a pipe would
    // stay open in the server that the script leaves running.
    let outcome: ChildProcess.Outcome
    do {
        outcome = try ChildProcess.run("/bin/bash", ["scripts/postgis.sh", "up"])
    } catch {
        print("   skipped: \(error)")
        return nil
    }
    let text = String(decoding: outcome.stdout, as: UTF8.self)
    guard outcome.exitStatus == 0, let url = text.split(separator: "\n").last.map(String.init), url.hasPrefix("postgresql://") else {
        print("   skipped: no PostGIS server could be started (scripts/postgis.sh up exited \(outcome.exitStatus))")
        return nil
    }
    return url
}

func psql(_ url: String, _ sql: String) throws {
    let outcome = try ChildProcess.run("/usr/bin/psql", ["-X", "-q", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
    guard outcome.exitStatus == 0 else { throw ServiceError.internalError(detail: "psql '\(sql)' failed") }
}
