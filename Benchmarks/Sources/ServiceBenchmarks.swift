import Catalog
import Foundation
import Service

// The scene-request service under load from wrk on loopback, next to nginx serving a static JSON file
// of the same size as a scene answer, measured in the same run. wrk shares the two cores with the
// server, as it does with nginx. Every run is bounded (wrk -d) and stops by itself.

/// What one wrk run measured.
struct WrkResult {
    var requestsPerSecond: Double
    var p50Milliseconds: Double
    var p99Milliseconds: Double
    var errors: Int
    var non2xx: Int
    var requests: Int

    var summary: String {
        String(format: "%8.0f req/s  p50 %5.2f ms  p99 %6.2f ms  errors %d  non-2xx %d", requestsPerSecond, p50Milliseconds,
               p99Milliseconds, errors, non2xx)
    }
}

enum Wrk {
    /// Runs `wrk -t2 -cCONNECTIONS -dSECONDS --latency URL [-s SCRIPT]`; nil (after saying why) when wrk is missing or fails.
    static func run(_ url: String, seconds: Int, connections: Int = 64, script: String? = nil, threads: Int = 2) -> WrkResult? {
        guard let wrk = BenchmarkReport.which("wrk") else {
            print("   skipped: wrk is not installed (apt-get install wrk)")
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: wrk)
        process.arguments = ["-t\(threads)", "-c\(connections)", "-d\(seconds)s", "--timeout", "5s", "--latency"]
            + (script.map { ["-s", $0] } ?? []) + [url]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch {
            print("   wrk failed to start: \(error)")
            return nil
        }
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        func number(after prefix: String) -> Double? {
            guard let line = output.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix(prefix) }) else { return nil }
            let field = line.trimmingCharacters(in: .whitespaces).dropFirst(prefix.count).trimmingCharacters(in: .whitespaces)
                .split(separator: " ").first.map(String.init) ?? ""
            return milliseconds(field) ?? Double(field)
        }
        func milliseconds(_ text: String) -> Double? {
            if text.hasSuffix("us"), let v = Double(text.dropLast(2)) { return v / 1000 }
            if text.hasSuffix("ms"), let v = Double(text.dropLast(2)) { return v }
            if text.hasSuffix("s"), let v = Double(text.dropLast(1)) { return v * 1000 }
            return nil
        }
        var errors = 0
        if let line = output.split(separator: "\n").first(where: { $0.contains("Socket errors:") }) {
            errors = line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
        }
        let requests = output.split(separator: "\n").first { $0.contains("requests in") }
            .flatMap { Int($0.trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "") } ?? 0
        guard process.terminationStatus == 0, let rate = number(after: "Requests/sec:") else {
            print("   wrk failed: \(output.prefix(400))")
            return nil
        }
        return WrkResult(requestsPerSecond: rate, p50Milliseconds: number(after: "50%") ?? .nan,
                         p99Milliseconds: number(after: "99%") ?? .nan, errors: errors,
                         non2xx: Int(number(after: "Non-2xx or 3xx responses:") ?? 0), requests: requests)
    }
}

/// nginx serving one file from a temporary prefix on 127.0.0.1, 2 workers, as `../shared/notes/service.md`
/// configured it; stopped with SIGQUIT.
final class NginxPeer {
    let port: UInt16
    private let prefix: String
    private let process = Process()

    init?(serving body: [UInt8], name: String, port: UInt16) {
        guard let nginx = BenchmarkReport.which("nginx") ?? (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : nil) else {
            print("   skipped nginx: not installed (apt-get install nginx)")
            return nil
        }
        self.port = port
        prefix = NSTemporaryDirectory() + "lookaround-nginx-\(getpid())/"
        try? FileManager.default.createDirectory(atPath: prefix + "html", withIntermediateDirectories: true)
        try? FileManager.default.createDirectory(atPath: prefix + "logs", withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: prefix + "html/" + name, contents: Data(body))
        let configuration = """
            daemon off; worker_processes 2; error_log \(prefix)logs/error.log; pid \(prefix)nginx.pid;
            events { worker_connections 4096; }
            http {
              access_log off; sendfile on; tcp_nopush on; keepalive_requests 100000000; open_file_cache max=64;
              default_type application/json;
              client_body_temp_path \(prefix)tmp; proxy_temp_path \(prefix)tmp; fastcgi_temp_path \(prefix)tmp;
              uwsgi_temp_path \(prefix)tmp; scgi_temp_path \(prefix)tmp;
              server { listen 127.0.0.1:\(port) backlog=4096; root \(prefix)html; }
            }
            """
        _ = FileManager.default.createFile(atPath: prefix + "nginx.conf", contents: Data(configuration.utf8))
        process.executableURL = URL(fileURLWithPath: nginx)
        process.arguments = ["-c", prefix + "nginx.conf", "-p", prefix]
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { print("   nginx failed to start: \(error)"); return nil }
        Thread.sleep(forTimeInterval: 0.5)
        guard process.isRunning else { print("   nginx exited at once; see \(prefix)logs/error.log"); return nil }
    }

    func stop() {
        kill(process.processIdentifier, SIGQUIT)
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: prefix)
    }
}

/// A wrk Lua script in a temporary file.
func wrkScript(_ name: String, _ text: String) -> String {
    let path = NSTemporaryDirectory() + "lookaround-wrk-\(getpid())-\(name).lua"
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}

/// A Lua table of the catalog's panorama positions: requests pick one at random and move up to about
/// 30 m from it, so every request is a new point with coverage (a 200), and no answer repeats.
func panoramaPointsLua(_ catalog: Catalog) throws -> String {
    let entries = try catalog.coverage(south: -90, north: 90, west: -180, east: 180)
    let rows = entries.map { String(format: "{%.7f,%.7f}", $0.latitude, $0.longitude) }.joined(separator: ",")
    return """
        local points = {\(rows)}
        local function near()
          local p = points[math.random(#points)]
          return p[1] + (math.random() - 0.5) * 0.0005, p[2] + (math.random() - 0.5) * 0.001
        end
        """
}

/// A wrk script whose every request is made by `body` (Lua, ending in a `return wrk.format(…)`) at a
/// new point near a panorama (`lat`, `lon`), random from `seed`.
func randomPointScript(_ points: String, seed: Int, _ body: String) -> String {
    points + """

        math.randomseed(\(seed))
        request = function()
          local lat, lon = near()
        \(body)
        end
        """
}

func randomSceneScript(_ points: String, path: String = "/v1/scene") -> String {
    randomPointScript(points, seed: 42, """
          return wrk.format("GET", string.format("\(path)?lat=%.7f&lon=%.7f&radius_meters=50", lat, lon))
        """)
}

func randomMetadataScript(_ points: String) -> String {
    randomPointScript(points, seed: 43, """
          return wrk.format("GET", string.format("/maps/api/streetview/metadata?location=%.7f,%.7f&key=k", lat, lon))
        """)
}

/// 640×480 JPEG snapshots of 30 shipped panoramas at random headings (a tenth of a degree): warm
/// tiles, but new images (the answer cache does not serve them).
let randomSnapshotScript = """
    math.randomseed(44)
    local scenes = {}
    for i = 0, 19 do scenes[#scenes + 1] = string.format("aleksanterinkatu-%03d", 20 + i) end
    for i = 0, 9 do scenes[#scenes + 1] = string.format("senaatintori-%03d", i) end
    request = function()
      local scene = scenes[math.random(#scenes)]
      local heading = math.random(0, 3599) / 10
      return wrk.format("GET", string.format("/v1/snapshot?scene=%s&heading_degrees=%.1f&size=640x480&labels=all", scene, heading))
    end
    """

/// The mixed load of the memory soak: scenes, metadata, Street View images, tiles and maps.
func mixedScript(_ points: String) -> String {
    randomPointScript(points, seed: 45, """
          local r = math.random(100)
          if r <= 60 then
            return wrk.format("GET", string.format("/v1/scene?lat=%.7f&lon=%.7f", lat, lon))
          elseif r <= 85 then
            return wrk.format("GET", string.format("/maps/api/streetview/metadata?location=%.7f,%.7f", lat, lon))
          elseif r <= 95 then
            return wrk.format("GET", string.format("/maps/api/streetview?size=640x480&location=%.7f,%.7f&heading=%d", lat, lon, math.random(0, 359)))
          elseif r <= 99 then
            return wrk.format("GET", string.format("/v1/panoramas/senaatintori-%03d/tiles/%d/0/0.jpg", math.random(0, 9), math.random(0, 2)))
          else
            return wrk.format("GET", string.format("/v1/map?center=%.6f,%.6f&span_meters=%d&size=512x384", lat, lon, math.random(300, 2000)))
          end
        """)
}

func runServiceBenchmarks() throws {
    let seconds = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_SECONDS"] ?? "") ?? 10
    let rounds = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_ROUNDS"] ?? "") ?? 3
    let service = try benchmarkService()
    let server = try ServedProcess(catalog: service.catalog.path)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(server.port)"
    let sceneURL = base + "/v1/scene?lat=60.1699&lon=24.9523"
    guard case .respond(let sceneAnswer) = service.handle(HTTPRequest(path: "/v1/scene", query: [("lat", "60.1699"), ("lon", "24.9523")])).disposition,
          sceneAnswer.status == 200 else { throw ServiceError.internalError(detail: "no scene at Senaatintori") }
    let sceneBody = sceneAnswer.body
    print("   server: lookaround serve (its defaults: 3 network threads, 2 render workers on 2 cores), \(service.catalog.panoramaCount) panoramas; "
          + "wrk -t2 -c64 -d\(seconds)s on the same 2 cores; \(rounds) rounds, median (min–max)")
    print("   scene answer: \(sceneBody.count) bytes; nginx serves a static JSON file of the same size")
    let nginx = NginxPeer(serving: [UInt8](sceneBody), name: "scene.json", port: 18_931)
    defer { nginx?.stop() }

    let points = try panoramaPointsLua(service.catalog)
    // Warm up: tiles of the snapshot panoramas, the detail cache.
    _ = Wrk.run(base, seconds: 2, script: wrkScript("warm-scene", randomSceneScript(points)))
    _ = Wrk.run(base, seconds: 3, connections: 8, script: wrkScript("warm-snap", randomSnapshotScript))

    var cases: [(name: String, url: String, script: String?)] = [
        ("nginx static JSON (ceiling)", "http://127.0.0.1:18931/scene.json", nil),
        ("nginx static JSON, scripted random queries", "http://127.0.0.1:18931",
         wrkScript("nginx", randomSceneScript(points, path: "/scene.json"))),
        ("scene, one point (keep-alive)", sceneURL, nil),
        ("scene, random points", base, wrkScript("scene", randomSceneScript(points))),
        ("Street View metadata, random points", base, wrkScript("metadata", randomMetadataScript(points))),
        ("640x480 snapshots, random headings (warm)", base, wrkScript("snapshot", randomSnapshotScript)),
        ("640x480 snapshots, 8 connections", base, wrkScript("snapshot8", randomSnapshotScript)),
    ]
    // Another build's `lookaround` (LOOKAROUND_BENCH_PREVIOUS_SERVER=PATH, e.g. the commit before a change
    // to the HTTP layer), measured the same way in the same rounds.
    var previous: ServedProcess?
    if let path = ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_PREVIOUS_SERVER"] {
        previous = try ServedProcess(catalog: service.catalog.path, executable: path)
        let previousBase = "http://127.0.0.1:\(previous!.port)"
        print("   previous server: \(path)")
        _ = Wrk.run(previousBase, seconds: 2, script: wrkScript("warm-previous", randomSceneScript(points)))
        cases += [("previous: scene, one point (keep-alive)", previousBase + "/v1/scene?lat=60.1699&lon=24.9523", nil),
                  ("previous: scene, random points", previousBase, wrkScript("scene-previous", randomSceneScript(points))),
                  ("previous: Street View metadata, random", previousBase, wrkScript("metadata-previous", randomMetadataScript(points)))]
    }
    defer { previous?.stop() }
    var results: [String: [WrkResult]] = [:]
    for round in 0..<rounds {
        for entry in cases where entry.name.hasPrefix("nginx") ? nginx != nil : true {
            let connections = entry.name.hasSuffix("8 connections") ? 8 : 64
            guard let result = Wrk.run(entry.url, seconds: seconds, connections: connections, script: entry.script) else { continue }
            results[entry.name, default: []].append(result)
            print("   round \(round + 1) \(entry.name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(result.summary)")
        }
    }
    print("")
    // Each of ours is compared with nginx driven the same way (a scripted wrk costs wrk more CPU,
    // which the two cores share with the server).
    let plainCeiling = results[cases[0].name].map(median), scriptedCeiling = results[cases[1].name].map(median)
    for entry in cases {
        let ceiling = entry.script == nil ? plainCeiling : scriptedCeiling
        guard let runs = results[entry.name], !runs.isEmpty else { continue }
        let m = median(runs)
        let rates = runs.map(\.requestsPerSecond)
        var line = String(format: "   %@ %8.0f req/s (%.0f–%.0f), p99 %.2f ms (worst %.2f), errors %d, non-2xx %d",
                          entry.name.padding(toLength: 44, withPad: " ", startingAt: 0), m.requestsPerSecond,
                          rates.min()!, rates.max()!, m.p99Milliseconds, runs.map(\.p99Milliseconds).max()!,
                          runs.map(\.errors).reduce(0, +), runs.map(\.non2xx).reduce(0, +))
        if let ceiling, !entry.name.hasPrefix("nginx"), !entry.name.contains("snapshots") {
            line += String(format: "  %.2f× nginx%@", m.requestsPerSecond / ceiling.requestsPerSecond, entry.script == nil ? "" : " (scripted)")
        }
        print(line)
    }
    print("   goals: scene and metadata ≥ 0.9× nginx, p99 < 10 ms, 0 errors; snapshots ≥ 200/s")
    runHostileClientFigures(server: server)
}

/// The median run by requests per second (its p99 is that run's).
func median(_ runs: [WrkResult]) -> WrkResult {
    runs.sorted { $0.requestsPerSecond < $1.requestsPerSecond }[runs.count / 2]
}

/// `lookaround serve` as users run it (the executable built beside this one), on a free loopback port.
final class ServedProcess {
    let process = Process()
    private(set) var port: UInt16 = 0
    private var errorLog = ""

    /// `executable` nil: the `lookaround` built beside this benchmark.
    /// `osm` nil: no OSM extract named (the catalog's own `sources/`, if any).
    init(catalog: String, extra: [String] = [], executable: String? = nil, osm: String? = "Panoramas/sources/helsinki-centre.osm.pbf") throws {
        let executable = executable ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            .deletingLastPathComponent().appendingPathComponent("lookaround").path
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["serve", "--listen", "127.0.0.1:0", "--catalog", catalog] + (osm.map { ["--osm", $0] } ?? [])
            + ["--max-queue", "256"] + extra
        let output = Pipe()
        process.standardOutput = output
        // The server's stderr goes to a file, so a server that dies under load says why (`stop()` prints it).
        errorLog = NSTemporaryDirectory() + "lookaround-bench-serve-\(getpid())-\(ObjectIdentifier(process).hashValue).log"
        _ = FileManager.default.createFile(atPath: errorLog, contents: nil)
        process.standardError = FileHandle(forWritingAtPath: errorLog)
        try process.run()
        var text = ""
        while !text.contains("stop with") {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("listening on http://127.0.0.1:") }),
              let port = UInt16(line.split(separator: ":").last ?? "") else {
            process.terminate()
            throw ServiceError.internalError(detail: "lookaround serve did not start: \(text)")
        }
        self.port = port
    }

    /// The server's resident set size, bytes.
    var residentBytes: Int {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/statm", encoding: .utf8),
              let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The resident set by kind, from /proc/PID/status: "anon N MiB, file N MiB".
    var residentBreakdown: String {
        guard let text = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8) else { return "?" }
        func mebibytes(_ field: String) -> String {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                  let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return "?" }
            return String(format: "%.0f", Double(kilobytes) / 1024)
        }
        return "anon \(mebibytes("RssAnon")) MiB, file \(mebibytes("RssFile")) MiB"
    }

    /// Whether the server is still running.
    var isRunning: Bool { process.isRunning }

    func stop() {
        if !process.isRunning {
            let errors = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            print("   lookaround serve died (status \(process.terminationStatus)); its stderr ends:\n"
                  + errors.split(separator: "\n").suffix(20).map { "     " + $0 }.joined(separator: "\n"))
        } else {
            kill(process.processIdentifier, SIGTERM)
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: errorLog)
    }
}

/// The service over the shipped panoramas indexed into a temporary catalog (places from the extract).
func benchmarkService() throws -> SceneService {
    let folder = NSTemporaryDirectory() + "lookaround-bench-service-\(getpid())/"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let catalogPath = folder + "catalog.sqlite"
    _ = try CatalogBuilder.build(CatalogBuildOptions(directories: ["Panoramas/helsinki"], catalogPath: catalogPath,
                                                     osmFiles: ["Panoramas/sources/helsinki-centre.osm.pbf"]))
    var configuration = ServiceConfiguration()
    configuration.catalogPath = catalogPath
    configuration.osmPath = "Panoramas/sources/helsinki-centre.osm.pbf"
    configuration.http.port = 0
    configuration.http.networkThreads = 3
    configuration.http.renderWorkers = 2
    configuration.http.maximumQueuedRenders = 256
    return try SceneService(configuration: configuration)
}

/// The same mix as `mixedScript`, pipelined: each connection sends `depth` requests at once (built
/// at start, each at a random point) and reads their answers in order.
func pipelinedScript(_ points: String, depth: Int) -> String {
    points + """

        local depth = \(depth)
        init = function(args)
          math.randomseed(46 + math.floor(os.clock() * 1000000))
          local r = {}
          for i = 1, depth do
            local lat, lon = near()
            if i % 4 == 0 then
              r[i] = wrk.format("GET", string.format("/maps/api/streetview/metadata?location=%.7f,%.7f", lat, lon))
            else
              r[i] = wrk.format("GET", string.format("/v1/scene?lat=%.7f&lon=%.7f", lat, lon))
            end
          end
          req = table.concat(r)
        end
        request = function()
          return req
        end
        """
}

/// `soak`: LOOKAROUND_SOAK_SECONDS (default 600) of load on `lookaround serve`: 10-second slices of the
/// mixed load, keep-alive and pipelined in turn, beside hostile clients of every kind (``HostileMix``);
/// the server's RSS sampled after each slice. The start and the end are measured the same way, at rest:
/// the load stopped, every hostile connection closed, 5 s later. The start is taken after the first
/// minute (the server warm: its caches full — tiles, answers, the map renderer — and its heap grown to
/// what the load needs); then the hostile clients start again and the load goes on. Goal: no growth, the
/// end within 10 % of the start. Samples under load are not compared: they go up and down with what is
/// held at that moment (up to the 64 MiB body budget of hostile bodies, and freed heap that glibc hands
/// back only when the body budget drains: ``HTTPBodyBudget/release(_:)``).
func runServiceSoak() throws {
    let total = Int(ProcessInfo.processInfo.environment["LOOKAROUND_SOAK_SECONDS"] ?? "") ?? 600
    let service = try benchmarkService()
    let server = try ServedProcess(catalog: service.catalog.path)
    defer { server.stop() }
    let base = "http://127.0.0.1:\(server.port)"
    print("   mixed load (60 % scenes, 25 % metadata, 10 % Street View images, 4 % tiles, 1 % maps) for \(total) s, "
          + "wrk -t2 -c32 in 10 s slices, keep-alive and pipelined (depth 8: scenes and metadata) in turn; RSS after each slice")
    let points = try panoramaPointsLua(service.catalog)
    let mixed = wrkScript("mixed", mixedScript(points)), pipelined = wrkScript("pipelined", pipelinedScript(points, depth: 8))
    func megabytes(_ bytes: Int) -> Double { Double(bytes) / 1_048_576 }
    print(String(format: "   RSS before any load %.1f MiB", megabytes(server.residentBytes)))
    var samples: [(seconds: Int, rss: Int)] = []
    var requests = 0, errors = 0, non2xx = 0
    var elapsed = 0
    // Beside the normal load (wrk, from 127.0.0.1), hostile clients from other addresses the whole time.
    var hostile = ProcessInfo.processInfo.environment["LOOKAROUND_SOAK_HOSTILE"] == "0" ? nil : HostileMix(port: server.port)
    if hostile != nil {
        print("   with hostile clients throughout: 600 slow senders (127.0.0.3); in rounds, 300 held 1 MiB bodies on an unknown route "
              + "(127.0.1.1-2), 100 bodies of 1 MiB less a byte on POST /v1/scenes pressing on the body budget (127.0.1.1-4), "
              + "20 abandoned bodies (127.0.0.8), 8 endless empty-line streams (127.0.0.6), 10 huge heads (127.0.0.7), malformed requests (127.0.0.5)")
    }
    var slice = 0
    /// The RSS at rest: hostile clients stopped (their connections closed), 5 s without load.
    func atRest() -> (rss: Int, breakdown: String) {
        hostile?.stop()
        Thread.sleep(forTimeInterval: 5)
        return (server.residentBytes, server.residentBreakdown)
    }
    var start: (rss: Int, breakdown: String)?
    var mixes = hostile.map { [$0] } ?? []
    while elapsed < total {
        if start == nil && elapsed >= min(60, total / 2) {
            let underLoad = server.residentBytes
            start = atRest()
            print(String(format: "   %4d s  RSS at rest (start) %.1f MiB (%@); under load just before: %.1f MiB", elapsed,
                         megabytes(start!.rss), start!.breakdown, megabytes(underLoad)))
            if hostile != nil {
                hostile = HostileMix(port: server.port)
                mixes.append(hostile!)
            }
        }
        let seconds = min(10, total - elapsed)
        let isPipelined = slice % 2 == 1
        slice += 1
        guard let result = Wrk.run(base, seconds: seconds, connections: 32, script: isPipelined ? pipelined : mixed) else { break }
        elapsed += seconds
        requests += result.requests
        errors += result.errors
        non2xx += result.non2xx
        samples.append((elapsed, server.residentBytes))
        if samples.count % 6 == 0 || elapsed >= total {
            print(String(format: "   %4d s  RSS %.1f MiB  %.0f req/s  p99 %.2f ms (%@)", elapsed, megabytes(samples.last!.rss),
                         result.requestsPerSecond, result.p99Milliseconds, isPipelined ? "pipelined" : "keep-alive"))
        }
    }
    let underLoad = server.residentBytes
    let end = atRest()
    print(String(format: "   %4d s  RSS at rest (end) %.1f MiB (%@); under load just before: %.1f MiB", elapsed,
                 megabytes(end.rss), end.breakdown, megabytes(underLoad)))
    if !mixes.isEmpty {
        func sum(_ counter: (HostileMix) -> Int) -> Int { mixes.map(counter).reduce(0, +) }
        print("   hostile rounds: \(sum { $0.rounds.load(ordering: .relaxed) }); budget: \(sum { $0.budgetHeld.load(ordering: .relaxed) }) "
              + "bodies held, \(sum { $0.budgetRefused.load(ordering: .relaxed) }) refused 503; empty-line floods answered 400: "
              + "\(sum { $0.floodsRefused.load(ordering: .relaxed) }); huge heads answered 431/414: \(sum { $0.hugeHeadsRefused.load(ordering: .relaxed) })")
    }
    print("   RSS samples (MiB, every 10 s): " + samples.map { String(format: "%.0f", megabytes($0.rss)) }.joined(separator: " "))
    let startRSS = start?.rss ?? 0
    let growth = Double(end.rss - startRSS) / Double(max(1, startRSS)) * 100
    func largest(_ slice: ArraySlice<(seconds: Int, rss: Int)>) -> Double { megabytes(slice.map(\.rss).max() ?? 0) }
    print(String(format: "   RSS at rest: start (after the first minute) %.1f MiB, end %.1f MiB: %+.1f %% (goal within ±10 %%: %@); "
                 + "under load: peak %.1f, largest sample of the first minute %.1f, of the last %.1f MiB; %d requests, %d socket errors, %d non-2xx",
                 megabytes(startRSS), megabytes(end.rss), growth, abs(growth) <= 10 ? "met" : "NOT met",
                 megabytes(samples.map(\.rss).max() ?? 0), largest(samples.prefix(6)[...]), largest(samples.suffix(6)[...]),
                 requests, errors, non2xx))
}
