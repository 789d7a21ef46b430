import Foundation
import Imaging
import Testing
import TestSupport

/// `lookaround serve`'s STAC API and coverage vector tiles under `/api`, judged by clients written by
/// others (PyPI's pystac-client, stac-validator and mapbox-vector-tile, run unchanged by the scripts in
/// `scripts/`), with the catalog file itself (read by Python's sqlite3) as the ground truth.
@Suite struct STACCLITests {
    typealias Server = ServeCLITests.Server

    static func python(_ script: String, _ arguments: [String]) throws -> ProcessResult {
        let path = Lookaround.repository.appendingPathComponent("scripts/\(script)").path
        return try Lookaround.runProcess("/usr/bin/env", ["python3", path] + arguments)
    }

    /// Cancels the test (reported as skipped) when `modules` cannot be imported.
    static func require(_ modules: String, package: String) throws {
        let probe = try Lookaround.runProcess("/usr/bin/env", ["python3", "-W", "ignore", "-c", "import \(modules)"])
        guard probe.exitCode == 0 else {
            try Test.cancel("skipped: PyPI \(package) is not installed (scripts/install-test-tools.sh installs it): \(probe.stderr.prefix(200))")
        }
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(400))")
    }

    @Test func pystacClientListsSearchesAndPagesUnchanged() throws {
        try Self.require("pystac_client", package: "pystac-client")
        let catalog = try ServeCLITests.catalog()
        let server = try Server(["--catalog", catalog])
        defer { _ = server.terminate() }
        let run = try Self.python("stac_client.py", ["http://127.0.0.1:\(server.port)/api", catalog])
        #expect(run.exitCode == 0, "\(run.stderr.suffix(3000))")
        let answers = try Self.json(run.stdout)
        #expect(answers["conformance"] as? [String: Bool] == ["ITEM_SEARCH": true, "COLLECTIONS": true, "FEATURES": true])
        let collections = try #require(answers["collections"] as? [String: [String]])
        #expect(collections["catalog"]?.isEmpty == false)
        #expect(collections["listed"]?.sorted() == collections["catalog"], "\(collections)")
        for method in ["get", "post"] {
            let search = try #require(answers["search_\(method)"] as? [String: Any])
            let found = try #require(search["found"] as? [String]), expected = try #require(search["expected"] as? [String])
            #expect(expected.count > 7, "the box and time hold more than one page")
            #expect(found.sorted() == expected, "\(method): found \(found.count), the catalog holds \(expected.count)")
            #expect(Set(found).count == found.count, "\(method): an item twice")
            #expect((search["pages"] as? Int ?? 0) == (expected.count + 6) / 7, "\(method): pages \(search["pages"] ?? "-")")
        }
        let intersects = try #require(answers["intersects"] as? [String: [String]])
        #expect(intersects["found"]?.sorted() == intersects["expected"] && intersects["expected"]?.isEmpty == false, "\(intersects)")
        // Pictures that show the place: every one within 40 m (Python's haversine, so ±0.5 m), nearest first.
        let place = try #require(answers["place"] as? [String: Any])
        let found = try #require(place["found"] as? [[Any]]).compactMap { pair in (pair[0] as? String).map { ($0, pair[1] as? Double ?? -1) } }
        let nearby = try #require(place["catalog"] as? [[Any]]).compactMap { pair in (pair[0] as? String).map { ($0, pair[1] as? Double ?? -1) } }
        #expect(!found.isEmpty)
        #expect(found.allSatisfy { $0.1 >= 0 && $0.1 <= 40.5 }, "\(found)")
        #expect(Set(nearby.filter { $0.1 <= 39.5 }.map(\.0)).isSubset(of: Set(found.map(\.0))), "\(nearby) vs \(found)")
        #expect(zip(found, found.dropFirst()).allSatisfy { $0.1 <= $1.1 + 0.05 }, "nearest first: \(found)")
        let item = try #require(answers["item"] as? [String: Any])
        let properties = try #require(item["properties"] as? [String: Any])
        let azimuth = try #require(properties["view:azimuth"] as? Double)
        #expect((0..<360).contains(azimuth))
        let orientation = try #require(properties["pers:interior_orientation"] as? [String: Any])
        #expect(orientation["field_of_view"] as? Double == 360)
        #expect((orientation["sensor_array_dimensions"] as? [Int])?.count == 2)
        #expect(properties["pers:pitch"] is Double && properties["pers:roll"] is Double && properties["datetime"] is String)
        let assets = try #require(item["assets"] as? [String: String])
        #expect(Set(assets.keys) == ["hd", "sd", "thumb"], "\(assets)")
        #expect(assets["sd"]?.hasSuffix("/sd.jpg") == true)
        #expect(Set(item["links"] as? [String] ?? []).isSuperset(of: ["self", "parent", "collection", "root", "next"]), "\(item["links"] ?? "")")
        #expect((item["extensions"] as? [String])?.contains("https://stac-extensions.github.io/view/v1.0.0/schema.json") == true)
    }

    @Test func stacValidatorFindsTheDocumentsValid() throws {
        try Self.require("stac_validator, pystac", package: "stac-validator")
        let server = try Server(["--catalog", try ServeCLITests.catalog()])
        defer { _ = server.terminate() }
        let base = "http://127.0.0.1:\(server.port)/api"
        let client = try RawHTTPClient(port: server.port)
        let collections = try client.get("/api/collections?limit=2").json()
        let first = try #require((collections["collections"] as? [[String: Any]])?.first?["id"] as? String)
        let items = try RawHTTPClient(port: server.port).get("/api/collections/\(first)/items?limit=2").json()
        let feature = try #require((items["features"] as? [[String: Any]])?.first)
        // RawHTTPClient sends `Host: 127.0.0.1`, so the links it gets name no port: the item's URL from its id.
        let itemURL = "\(base)/collections/\(first)/items/\(try #require(feature["id"] as? String))"
        let urls = [base, "\(base)/collections/\(first)", itemURL, "\(base)/collections?limit=2", "\(base)/collections/\(first)/items?limit=3",
                    "\(base)/search?limit=3"]
        let run = try Self.python("stac_validate.py", urls)
        let reports = try Self.json(run.stdout)
        for url in urls {
            let report = try #require(reports[url] as? [String: Any], "\(url)")
            #expect(report["valid"] as? Bool == true && (report["documents"] as? Int ?? 0) >= 1, "\(url): \(report)")
        }
        #expect(run.exitCode == 0, "\(run.stderr.suffix(2000))")
    }

    /// Collections and a collection's items page by `next` links until every one was seen once, in
    /// order (collections by name, items by their position in the sequence), with the extents the items have.
    @Test func collectionsAndItemsPageWithNextLinks() throws {
        let server = try Server(["--catalog", try ServeCLITests.catalog()])
        defer { _ = server.terminate() }
        /// The pages from `path` on: each page's JSON, following `next` (its path: the links name the Host sent, no port).
        func pages(_ path: String) throws -> [[String: Any]] {
            var pages: [[String: Any]] = [], next: String? = path
            while let current = next, pages.count < 100 {
                let page = try RawHTTPClient(port: server.port).get(current).json()
                pages.append(page)
                let href = (page["links"] as? [[String: Any]])?.first { $0["rel"] as? String == "next" }?["href"] as? String
                next = href.map { String($0.dropFirst("http://127.0.0.1".count)) }
            }
            return pages
        }
        let collectionPages = try pages("/api/collections?limit=2")
        let collections = collectionPages.flatMap { $0["collections"] as? [[String: Any]] ?? [] }
        let names = collections.compactMap { $0["id"] as? String }
        #expect(collectionPages.count == 3 && names == ["aleksanterinkatu", "etelaesplanadi", "mannerheimintie", "pohjoisesplanadi", "senaatintori"],
                "\(collectionPages.count) pages: \(names)")
        let senaatintori = try #require(collections.first { $0["id"] as? String == "senaatintori" })
        let extent = try #require(senaatintori["extent"] as? [String: Any])
        let bbox = try #require(((extent["spatial"] as? [String: Any])?["bbox"] as? [[Double]])?.first)
        let interval = try #require(((extent["temporal"] as? [String: Any])?["interval"] as? [[String]])?.first)
        let itemPages = try pages("/api/collections/senaatintori/items?limit=3")
        let items = itemPages.flatMap { $0["features"] as? [[String: Any]] ?? [] }
        let count = try #require((senaatintori["stats:items"] as? [String: Any])?["count"] as? Int)
        #expect(items.count == count && itemPages.count == (count + 2) / 3, "\(items.count) items in \(itemPages.count) pages")
        let ranks = items.compactMap { ($0["properties"] as? [String: Any])?["geovisio:rank_in_collection"] as? Int }
        #expect(ranks == Array(1...count))
        let points = items.compactMap { ($0["geometry"] as? [String: Any])?["coordinates"] as? [Double] }
        #expect(points.count == count && bbox.count == 4)
        #expect(points.map { $0[0] }.min() == bbox[0] && points.map { $0[1] }.min() == bbox[1], "\(bbox)")
        #expect(points.map { $0[0] }.max() == bbox[2] && points.map { $0[1] }.max() == bbox[3], "\(bbox)")
        let times = items.compactMap { ($0["properties"] as? [String: Any])?["datetime"] as? String }.sorted()
        #expect(interval == [times.first ?? "", times.last ?? ""], "\(interval)")
        // Paging a filtered collection keeps its filter.
        let filtered = try pages("/api/collections/senaatintori/items?limit=2&ids=senaatintori-001,senaatintori-004,senaatintori-007")
        #expect(filtered.flatMap { $0["features"] as? [[String: Any]] ?? [] }.compactMap { $0["id"] as? String }
                == ["senaatintori-001", "senaatintori-004", "senaatintori-007"])
    }

    /// The item's assets: the original, 2048 and 500 pixels wide, and the 8 × 4 tiles of the sphere.
    @Test func pictureAssetsHaveTheirSizes() throws {
        let server = try Server(["--catalog", try ServeCLITests.catalog()])
        defer { _ = server.terminate() }
        let search = try RawHTTPClient(port: server.port).get("/api/search?limit=1").json()
        let feature = try #require((search["features"] as? [[String: Any]])?.first)
        let id = try #require(feature["id"] as? String)
        let dimensions = try #require(((feature["properties"] as? [String: Any])?["pers:interior_orientation"] as? [String: Any])?["sensor_array_dimensions"] as? [Int])
        let hd = try RawHTTPClient(port: server.port).get("/api/pictures/\(id)/hd.jpg")
        #expect(hd.status == 200 && hd.header("content-type") == "image/jpeg")
        let original = try JPEGCodec.readHeader(hd.body)
        #expect([original.width, original.height] == dimensions)
        for (file, width) in [("sd", min(2048, original.width)), ("thumb", 500)] {
            let answer = try RawHTTPClient(port: server.port).get("/api/pictures/\(id)/\(file).jpg")
            #expect(answer.status == 200, "\(file): \(answer.text.prefix(200))")
            let header = try JPEGCodec.readHeader(answer.body)
            #expect(header.width == width && abs(header.height * original.width - original.height * width) <= original.width, "\(file): \(header)")
        }
        let tile = try RawHTTPClient(port: server.port).get("/api/pictures/\(id)/tiled/7_3.jpg")
        #expect(tile.status == 200)
        let tileHeader = try JPEGCodec.readHeader(tile.body)
        #expect(tileHeader.width == original.width / 8 && tileHeader.height == original.height / 4)
        let outside = try RawHTTPClient(port: server.port).get("/api/pictures/\(id)/tiled/8_0.jpg")
        #expect(outside.status == 400 && outside.text.contains("0…7"), "\(outside.text)")
        let missing = try RawHTTPClient(port: server.port).get("/api/pictures/no-such-picture/hd.jpg")
        #expect(missing.status == 404, "\(missing.status) \(missing.text)")
    }

    /// Bad searches are 400s in STAC's error shape naming the parameter and what is allowed; unknown
    /// collections and items are 404s; every `/api` answer may be read across origins, preflights included.
    @Test func badRequestsAreClearAndCORSIsAnswered() throws {
        let server = try Server(["--catalog", try ServeCLITests.catalog()])
        defer { _ = server.terminate() }
        func get(_ path: String) throws -> RawHTTPClient.Response { try RawHTTPClient(port: server.port).get(path) }
        let cases: [(String, String, String)] = [
            ("/api/search?limit=0", "limit", "1…10000"), ("/api/search?limit=10001", "limit", "1…10000"),
            ("/api/search?bbox=1,2,3", "bbox", "WEST,SOUTH,EAST,NORTH"), ("/api/search?bbox=24,61,25,60", "bbox", "south ≤ north"),
            ("/api/search?datetime=2024-05-02T00:00:00Z/2024-05-01T00:00:00Z", "datetime", "ends before it starts"),
            ("/api/search?datetime=yesterday", "datetime", "RFC 3339"), ("/api/search?bboxx=1,2,3,4", "bboxx", "did you mean 'bbox'"),
            ("/api/search?place_position=200,60", "place_position", "-180…180"),
            ("/api/search?place_position=24.95,60.17&place_distance=5-2000", "place_distance", "1000"),
            ("/api/search?intersects=%7B%22type%22:%22Polygon%22%7D", "intersects", "intersects"),
        ]
        for (path, parameter, text) in cases {
            let answer = try get(path)
            #expect(answer.status == 400, "\(path): \(answer.status)")
            let body = try answer.json()
            #expect(body["code"] as? String == "invalid_parameter" && body["parameter"] as? String == parameter, "\(path): \(body)")
            #expect((body["description"] as? String)?.contains(text) == true, "\(path): \(body)")
            #expect(answer.header("access-control-allow-origin") == "*")
        }
        let unknown = try get("/api/collections/no-such-sequence")
        #expect(unknown.status == 404 && unknown.text.contains("no-such-sequence"), "\(unknown.text)")
        let collections = try get("/api/collections?limit=1").json()
        let first = try #require((collections["collections"] as? [[String: Any]])?.first?["id"] as? String)
        let noItem = try get("/api/collections/\(first)/items/nothing-here")
        #expect(noItem.status == 404, "\(noItem.text)")
        let preflight = try RawHTTPClient(port: server.port).get("/api/search", headers: [
            "Origin": "https://example.org", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"],
            method: "OPTIONS")
        #expect(preflight.status == 204)
        #expect(preflight.header("access-control-allow-origin") == "*")
        #expect(preflight.header("access-control-allow-methods")?.contains("POST") == true)
        #expect(preflight.header("access-control-allow-headers")?.lowercased().contains("content-type") == true)
        // POST with the body pystac-client sends, and a body that is not JSON.
        let posted = try RawHTTPClient(port: server.port).post("/api/search", body: Array("{\"limit\": 2, \"collections\": [\"\(first)\"]}".utf8))
        let postedFeatures = try posted.json()["features"] as? [Any]
        #expect(posted.status == 200 && postedFeatures?.count == 2, "\(posted.text.prefix(300))")
        let notJSON = try RawHTTPClient(port: server.port).post("/api/search", body: Array("limit=2".utf8))
        #expect(notJSON.status == 400 && notJSON.text.contains("JSON object"), "\(notJSON.text)")
        // With API keys the reads need one, as every other route's; preflights carry none and are answered.
        let keyed = try Server(["--catalog", try ServeCLITests.catalog(), "--api-key-file", try ServeCLITests.keyFile()])
        defer { _ = keyed.terminate() }
        let refused = try RawHTTPClient(port: keyed.port).get("/api/collections")
        let refusedCode = try refused.json()["code"] as? String
        #expect(refused.status == 403 && refusedCode == "forbidden", "\(refused.text)")
        #expect(try RawHTTPClient(port: keyed.port).get("/api/collections", headers: ["X-API-Key": "test-key"]).status == 200)
        #expect(try RawHTTPClient(port: keyed.port).get("/api/collections?key=test-key").status == 200)
        let keyedPreflight = try RawHTTPClient(port: keyed.port).get("/api/collections", headers: [
            "Origin": "https://example.org", "Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-api-key"], method: "OPTIONS")
        #expect(keyedPreflight.status == 204 && keyedPreflight.header("access-control-allow-headers")?.contains("X-API-Key") == true)
    }

    /// A coverage tile over the shipped panoramas, decoded by PyPI's mapbox-vector-tile: the sequences
    /// as lines, the pictures as points where the items say they are, with the attributes Panoramax's
    /// style reads; and the style that draws them.
    @Test func coverageTilesDecodeWithMapboxVectorTile() throws {
        try Self.require("mapbox_vector_tile", package: "mapbox-vector-tile")
        let server = try Server(["--catalog", try ServeCLITests.catalog()])
        defer { _ = server.terminate() }
        // The tile at zoom 16 holding the first item, and every item inside the tile.
        let first = try RawHTTPClient(port: server.port).get("/api/search?limit=1").json()
        let coordinates = try #require(((first["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        let zoom = 16, scale = Double(1 << zoom)
        func world(_ longitude: Double, _ latitude: Double) -> (x: Double, y: Double) {
            let sine = sin(latitude * .pi / 180)
            return ((longitude + 180) / 360 * scale, (0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * scale)
        }
        let position = world(coordinates[0], coordinates[1])
        let (x, y) = (Int(position.x), Int(position.y))
        func longitude(_ x: Double) -> Double { x / scale * 360 - 180 }
        func latitude(_ y: Double) -> Double { atan(sinh(.pi * (1 - 2 * y / scale))) * 180 / .pi }
        let box = "\(longitude(Double(x))),\(latitude(Double(y + 1))),\(longitude(Double(x + 1))),\(latitude(Double(y)))"
        let inside = try RawHTTPClient(port: server.port).get("/api/search?limit=10000&bbox=\(box)").json()
        let items = try #require(inside["features"] as? [[String: Any]])
        #expect(!items.isEmpty)
        let answer = try RawHTTPClient(port: server.port).get("/api/map/\(zoom)/\(x)/\(y).mvt")
        #expect(answer.status == 200 && answer.header("content-type") == "application/vnd.mapbox-vector-tile", "\(answer.text.prefix(200))")
        let file = try Lookaround.temporaryDirectory().appendingPathComponent("tile.mvt")
        try Data(answer.body).write(to: file)
        let run = try Self.python("mvt_decode.py", [file.path])
        #expect(run.exitCode == 0, "\(run.stderr.suffix(2000))")
        let layers = try #require(try Self.json(run.stdout)[file.path] as? [String: [String: Any]])
        let sequences = try #require(layers["sequences"]?["features"] as? [[String: Any]])
        let pictures = try #require(layers["pictures"]?["features"] as? [[String: Any]])
        #expect(layers["sequences"]?["extent"] as? Int == 4096 && layers["sequences"]?["version"] as? Int == 2)
        let itemSequences = Set(items.compactMap { $0["collection"] as? String })
        let lineSequences = Set(sequences.compactMap { ($0["properties"] as? [String: Any])?["id"] as? String })
        #expect(sequences.allSatisfy { $0["type"] as? String == "LineString" }, "\(sequences.map { $0["type"] ?? "" })")
        #expect(itemSequences.isSubset(of: lineSequences), "\(itemSequences) vs \(lineSequences)")
        for line in sequences {
            let properties = try #require(line["properties"] as? [String: Any])
            #expect(properties["type"] as? String == "equirectangular" && (properties["date"] as? String)?.count == 10, "\(properties)")
        }
        #expect(pictures.count == items.count, "\(pictures.count) points, \(items.count) items in the tile")
        let points = Dictionary(pictures.compactMap { feature -> (String, [Double])? in
            guard let id = (feature["properties"] as? [String: Any])?["id"] as? String, let xy = feature["coordinates"] as? [Double] else { return nil }
            return (id, xy)
        }, uniquingKeysWith: { a, _ in a })
        for item in items {
            let id = try #require(item["id"] as? String)
            let lonLat = try #require((item["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            let world = world(lonLat[0], lonLat[1])
            let expected = ((world.x - Double(x)) * 4096, (world.y - Double(y)) * 4096)
            let point = try #require(points[id], "no point for \(id)")
            #expect(abs(point[0] - expected.0) <= 1 && abs(point[1] - expected.1) <= 1, "\(id): \(point) vs \(expected)")
            let properties = pictures.first { ($0["properties"] as? [String: Any])?["id"] as? String == id }?["properties"] as? [String: Any]
            // view:azimuth is in tenths, the tile's heading in whole degrees: within one degree (mod 360).
            let azimuth = try #require((item["properties"] as? [String: Any])?["view:azimuth"] as? Double)
            let heading = try #require(properties?["heading"] as? Int, "\(properties ?? [:])")
            let difference = abs(Double(heading) - azimuth).truncatingRemainder(dividingBy: 360)
            #expect(min(difference, 360 - difference) <= 0.51 && (0..<360).contains(heading) && properties?["ts"] is String, "\(properties ?? [:]) vs \(azimuth)")
        }
        // Below zoom 15 no points, the lines still; a zoom outside 0…22 is a clear 400.
        let low = try RawHTTPClient(port: server.port).get("/api/map/\(zoom - 4)/\(x >> 4)/\(y >> 4).mvt")
        try Data(low.body).write(to: file)
        let lowLayers = try Self.json(try Self.python("mvt_decode.py", [file.path]).stdout)[file.path] as? [String: [String: Any]]
        #expect((lowLayers?["sequences"]?["features"] as? [Any])?.isEmpty == false)
        #expect(lowLayers?["pictures"] == nil || (lowLayers?["pictures"]?["features"] as? [Any])?.isEmpty == true)
        let bad = try RawHTTPClient(port: server.port).get("/api/map/23/0/0.mvt")
        #expect(bad.status == 400 && bad.text.contains("0…22"), "\(bad.text)")
        let style = try RawHTTPClient(port: server.port).get("/api/map/style.json").json()
        #expect(style["version"] as? Int == 8)
        let sources = try #require(style["sources"] as? [String: [String: Any]])
        #expect((sources["geovisio"]?["tiles"] as? [String])?.first == "http://127.0.0.1/api/map/{z}/{x}/{y}.mvt", "links from the Host header")
        #expect((sources["basemap"]?["attribution"] as? String)?.contains("OpenStreetMap contributors") == true)
        #expect((style["layers"] as? [[String: Any]])?.compactMap { $0["source-layer"] as? String } == ["sequences", "pictures"])
    }
}
