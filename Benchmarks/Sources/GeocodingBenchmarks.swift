import Catalog
import CSQLite
import Foundation
import MapData

// Geocoding: index time and bytes per address for the shipped extract; forward geocodes per second on
// one core against SQLite FTS5 over the same address rows (a full-text peer: token AND, prefix on the
// last word, bm25 order, no typo tolerance, no house-number ranges), measured in the same run on the
// same queries; /search under wrk against nginx serving a static answer of the same size.

/// The phrasings the geocoding tests use, and their kinds (house numbers, places, postcodes, typos).
private let geocodingQueries = [
    "Aleksanterinkatu 52", "aleksanterinkatu 52 helsinki", "Aleksanterinkatu 52, 00100 Helsinki", "Alexandersgatan 52",
    "Aleksanterinktu 52", "Aleksanterinkatu 36 b", "Keskuskatu 1a", "Mannerheimintie 5", "Kasarmikatu 47", "Uudenmaankatu 3",
    "Pohjoisesplanadi 16", "Unioninkatu 29", "Kaivokatu 1, Helsinki", "Mikonkatu 8", "Kluuvikatu 3", "Stockmann, Helsinki",
    "Senaatintori, Helsinki", "paaposti", "Helsingin tuomiokirkko", "00100 Helsinki", "Kaartinkaupunki, Helsinki", "Fabianinkatu 29",
]

func runGeocodingBenchmarks() throws {
    let folder = NSTemporaryDirectory() + "lookaround-bench-geocoding-\(getpid())/"
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let osm = "Panoramas/sources/helsinki-centre.osm.pbf"
    let empty = folder + "no-panoramas"
    try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)

    // 1. Index: reading the extract (addresses, streets, places) and writing them, median of 5.
    let readMs = try BenchmarkReport.medianMilliseconds(runs: 5) { _ = try MapDataset(contentsOfFile: osm) }
    let dataset = try MapDataset(contentsOfFile: osm)
    let catalogPath = folder + "gazetteer.sqlite"
    let indexMs = try BenchmarkReport.medianMilliseconds(runs: 5) {
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [empty], catalogPath: catalogPath, osmFiles: [osm]))
    }
    let addressBytes = try tableBytes(catalogPath, ["addresses", "localities", "locality_names"])
    print("   extract: \(dataset.addresses.count) house numbers (\(dataset.addresses.filter(\.isInterpolated).count) interpolated), "
          + "\(dataset.localities.count) localities, \(dataset.streets.count) street ways, \(dataset.places.count) places")
    print(String(format: "   index (read the extract + write the catalog, no panoramas): %.0f ms median of 5 (reading alone %.0f ms)",
                 indexMs, readMs))
    if let addressBytes {
        print(String(format: "   on disk: %d bytes for the gazetteer tables, %.0f bytes per house number", addressBytes,
                     Double(addressBytes) / Double(max(1, dataset.addresses.count))))
    }

    // 2. Forward geocodes per second, one core, against FTS5 over the same rows.
    let catalog = try Catalog(path: catalogPath)
    let loadMs = BenchmarkReport.milliseconds { _ = try? catalog.geocode(GeocodeQuery(text: "Stockmann")) }
    let rounds = 200
    let oursMs = try BenchmarkReport.medianMilliseconds(runs: 5) {
        for _ in 0..<rounds { for text in geocodingQueries { _ = try catalog.geocode(GeocodeQuery(text: text, limit: 5)) } }
    }
    let oursRate = Double(rounds * geocodingQueries.count) / (oursMs / 1000)
    print(String(format: "   geocoding index built on first use in %.1f ms", loadMs))
    print(String(format: "   lookaround geocode: %8.0f queries/s (%d queries × %d, median of 5)", oursRate, geocodingQueries.count, rounds))
    if let peer = try FTS5Peer(catalogPath: catalogPath) {
        var hits = 0
        let peerMs = BenchmarkReport.medianMilliseconds(runs: 5) {
            hits = 0
            for _ in 0..<rounds { for text in geocodingQueries { hits += peer.search(text) > 0 ? 1 : 0 } }
        }
        let peerRate = Double(rounds * geocodingQueries.count) / (peerMs / 1000)
        print(String(format: "   SQLite FTS5 peer:    %8.0f queries/s; it finds something for %d of the %d phrasings (ours: %d)",
                     peerRate, hits / rounds, geocodingQueries.count,
                     try geocodingQueries.filter { !(try catalog.geocode(GeocodeQuery(text: $0, limit: 1))).isEmpty }.count))
        print(String(format: "   ratio: %.2f× FTS5", oursRate / peerRate))
    }

    // 3. /search under wrk against nginx serving the same answer as a static file.
    let server = try ServedProcess(catalog: catalogPath)
    defer { server.stop() }
    let path = "/search?q=Aleksanterinkatu%2052,%20Helsinki&format=jsonv2&limit=5"
    // The answer nginx will serve, fetched once (Foundation on Linux has no HTTP without FoundationNetworking).
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    curl.arguments = ["curl", "-sf", "http://127.0.0.1:\(server.port)\(path)"]
    let pipe = Pipe()
    curl.standardOutput = pipe
    try curl.run()
    let answer = pipe.fileHandleForReading.readDataToEndOfFile()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0, !answer.isEmpty else { print("   skipped /search under wrk: curl could not fetch \(path)"); return }
    let nginx = NginxPeer(serving: [UInt8](answer), name: "search.json", port: 18_932)
    defer { nginx?.stop() }
    let seconds = Int(ProcessInfo.processInfo.environment["LOOKAROUND_BENCH_SECONDS"] ?? "") ?? 10
    let mixed = wrkScript("geocode", """
        local queries = {\(geocodingQueries.map { "\"\($0.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? $0)\"" }.joined(separator: ","))}
        math.randomseed(7)
        request = function()
          return wrk.format("GET", "/search?format=jsonv2&limit=5&q=" .. queries[math.random(#queries)])
        end
        """)
    _ = Wrk.run("http://127.0.0.1:\(server.port)", seconds: 2, script: mixed)
    var lines: [(String, WrkResult)] = []
    if nginx != nil, let ceiling = Wrk.run("http://127.0.0.1:18932/search.json", seconds: seconds) { lines.append(("nginx static answer", ceiling)) }
    if let one = Wrk.run("http://127.0.0.1:\(server.port)\(path)", seconds: seconds) { lines.append(("/search, one address", one)) }
    if let many = Wrk.run("http://127.0.0.1:\(server.port)", seconds: seconds, script: mixed) { lines.append(("/search, the 22 phrasings", many)) }
    print("   answer: \(answer.count) bytes; wrk -t2 -c64 -d\(seconds)s on the same 2 cores")
    let ceiling = lines.first { $0.0.hasPrefix("nginx") }?.1.requestsPerSecond
    for (name, result) in lines {
        var line = "   \(name.padding(toLength: 28, withPad: " ", startingAt: 0)) \(result.summary)"
        if let ceiling, !name.hasPrefix("nginx") { line += String(format: "  %.2f× nginx", result.requestsPerSecond / ceiling) }
        print(line)
    }
}

/// Bytes the named tables and their indexes take in an SQLite file (the dbstat table).
private func tableBytes(_ path: String, _ tables: [String]) throws -> Int? {
    var database: OpaquePointer?
    guard sqlite3_open_v2(path, &database, SQLITE_OPEN_READONLY, nil) == SQLITE_OK else { return nil }
    defer { sqlite3_close(database) }
    var statement: OpaquePointer?
    let list = tables.map { "'\($0)'" }.joined(separator: ",")
    guard sqlite3_prepare_v2(database, "SELECT sum(pgsize) FROM dbstat WHERE name IN (\(list))", -1, &statement, nil) == SQLITE_OK
    else { return nil }
    defer { sqlite3_finalize(statement) }
    guard sqlite3_step(statement) == SQLITE_ROW else { return nil }
    return Int(sqlite3_column_int64(statement, 0))
}

/// The peer: the same house numbers and places in an in-memory SQLite FTS5 table (unicode61 tokenizer,
/// diacritics removed), queried as every word ANDed, the last one as a prefix, best 5 by bm25.
private final class FTS5Peer {
    private var database: OpaquePointer?
    private var statement: OpaquePointer?

    init?(catalogPath: String) throws {
        guard sqlite3_open_v2(":memory:", &database, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil) == SQLITE_OK else { return nil }
        let setup = """
            ATTACH DATABASE '\(catalogPath)' AS catalog;
            CREATE VIRTUAL TABLE search USING fts5(label, latitude UNINDEXED, longitude UNINDEXED,
                                                   tokenize = 'unicode61 remove_diacritics 2');
            INSERT INTO search SELECT coalesce(street, place, '') || ' ' || house_number || ' ' || coalesce(postcode, '') || ' '
                                      || coalesce(city, ''), latitude, longitude FROM catalog.addresses;
            INSERT INTO search SELECT name || ' ' || coalesce(street, '') || ' ' || coalesce(house_number, '') || ' '
                                      || coalesce(city, ''), latitude, longitude FROM catalog.places;
            INSERT INTO search SELECT name, 0, 0 FROM catalog.place_names;
            DETACH DATABASE catalog;
            """
        guard sqlite3_exec(database, setup, nil, nil, nil) == SQLITE_OK else {
            print("   skipped FTS5 peer: \(String(cString: sqlite3_errmsg(database)))")
            return nil
        }
        guard sqlite3_prepare_v2(database, "SELECT latitude, longitude FROM search WHERE search MATCH ?1 ORDER BY bm25(search) LIMIT 5",
                                 -1, &statement, nil) == SQLITE_OK else { return nil }
    }

    deinit {
        sqlite3_finalize(statement)
        sqlite3_close(database)
    }

    /// The number of rows for `text` (its words quoted, ANDed, the last a prefix).
    func search(_ text: String) -> Int {
        let words = text.split { !$0.isLetter && !$0.isNumber }.map { "\"\($0)\"" }
        guard !words.isEmpty else { return 0 }
        let match = words.joined(separator: " ") + "*"
        sqlite3_reset(statement)
        sqlite3_bind_text(statement, 1, match, -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
        var rows = 0
        while sqlite3_step(statement) == SQLITE_ROW {
            _ = sqlite3_column_double(statement, 0)
            rows += 1
        }
        return rows
    }
}
