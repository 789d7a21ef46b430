import Catalog
import Foundation
import Geodesy
import Imaging
import Reprojection
import Service
import Testing
import TestSupport

/// The native `/v1/` routes on a live server over the shipped panoramas.
@Suite struct NativeRouteTests {
    /// Reads the CLI's snake_case JSON back into the Codable types (`panorama_id` → `panoramaID`).
    static func decoder() -> JSONDecoder {
        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            let words = path.last!.stringValue.split(separator: "_")
            let camel = words.enumerated().map { i, word in
                i == 0 ? String(word) : word == "id" ? "ID" : word.prefix(1).uppercased() + word.dropFirst()
            }.joined()
            return Key(stringValue: camel)
        }
        return decoder
    }

    @Test func sceneAnswerEqualsTheCatalogsAnswer() throws {
        let response = try ServiceFixture.get("/v1/scene?lat=60.1699&lon=24.9523&radius_meters=60")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/json")
        let served = try Self.decoder().decode(SceneAnswer.self, from: Data(response.body))
        let catalog = try Catalog(path: try ServiceFixture.catalog.get().catalog)
        let expected = try catalog.scene(for: SceneRequest(coordinate: try GeoCoordinate(latitude: 60.1699, longitude: 24.9523),
                                                           radiusMeters: 60))
        #expect(served == expected)
        #expect(served.scene?.panoramaID.hasPrefix("senaatintori-") == true)
        #expect(served.scene?.links.isEmpty == false)
        // Asked again (now from the detail cache): the same bytes.
        #expect(try ServiceFixture.get("/v1/scene?lat=60.1699&lon=24.9523&radius_meters=60").body == response.body)
    }

    @Test func noCoverageIs404WithTheReason() throws {
        let far = try ServiceFixture.get("/v1/scene?lat=10&lon=10")
        #expect(far.status == 404)
        let noCoverage = try #require(try far.json()["no_coverage"] as? [String: Any])
        #expect(noCoverage["reason"] as? String == "nothing_within_radius")
        let filtered = try ServiceFixture.get("/v1/scene?lat=60.1699&lon=24.9523&source=photo")
        #expect(filtered.status == 404)
        #expect((try filtered.json()["no_coverage"] as? [String: Any])?["reason"] as? String == "filtered_out")
    }

    @Test(arguments: [
        ("/v1/scene?lat=nan&lon=24.95", "lat"), ("/v1/scene?lat=60.17&lon=inf", "lon"), ("/v1/scene?lat=91&lon=24", "lat"),
        ("/v1/scene?lat=60.17", "lon"), ("/v1/scene", "lat"), ("/v1/scene?lat=60.17&lon=24.95&radius_meters=-1", "radius_meters"),
        ("/v1/scene?lat=60.17&lon=24.95&radius_meters=10001", "radius_meters"), ("/v1/scene?lat=60.17&lon=24.95&preference=closest", "preference"),
        ("/v1/scene?lat=60.17&lon=24.95&after=yesterday", "after"), ("/v1/scene?lat=abc&lon=24.95", "lat"),
        ("/v1/search?q=", "q"), ("/v1/search?q=cafe&limit=0", "limit"), ("/v1/search?q=cafe&near=1,2,3", "near"),
        ("/v1/coverage/15/x/9484", "tile"), ("/v1/coverage/31/0/0", "tile"), ("/v1/coverage/2/4/0", "tile"),
        ("/v1/snapshot?lat=60.17&lon=24.95&fov_degrees=200", "fov_degrees"), ("/v1/snapshot?lat=60.17&lon=24.95&size=0x10", "size"),
        ("/v1/snapshot?lat=60.17&lon=24.95&heading=10", "heading"), ("/v1/snapshot?lat=60.17&lon=24.95&size=2000x2000", "size"),
        ("/v1/map?center=60.17,24.95&type=satellite", "type"), ("/v1/map?camera=view.json", "camera"),
        ("/v1/map?center=60.17,24.95&span_meters=0", "span_meters"),
    ])
    func badParametersAre400NamingTheParameter(path: String, parameter: String) throws {
        let response = try ServiceFixture.get(path)
        #expect(response.status == 400, "\(path): \(response.text)")
        let error = try #require(try response.json()["error"] as? [String: Any], "\(path)")
        #expect(error["parameter"] as? String == parameter, "\(path): \(response.text)")
        #expect((error["message"] as? String)?.isEmpty == false)
        #expect(error["code"] as? String == (parameter == "size" && path.contains("2000") ? "image_too_large" : "invalid_parameter"))
    }

    @Test func unknownParameterSuggestsTheRightOne() throws {
        let response = try ServiceFixture.get("/v1/snapshot?lat=60.17&lon=24.95&heading_degree=10")
        #expect(response.status == 400)
        #expect(response.text.contains("heading_degrees"), "\(response.text)")
    }

    @Test func nearAPlaceEchoesItsName() throws {
        let response = try ServiceFixture.get("/v1/scene?near=Stockmann&radius_meters=100")
        #expect(response.status == 200, "\(response.text)")
        #expect(try response.json()["request_id"] as? String == "Stockmann")
        let missing = try ServiceFixture.get("/v1/scene?near=Qqqqxxzz")
        #expect(missing.status == 404)
        #expect((try missing.json()["error"] as? [String: Any])?["code"] as? String == "place_not_found")
    }

    @Test func batchAsArrayAndAsLinesAnswersInOrder() throws {
        let client = try ServiceFixture.client()
        let array = try client.post("/v1/scenes", body: Array(#"[{"latitude":60.1699,"longitude":24.9523,"id":"a"},{"lat":10,"lon":10,"id":"b"}]"#.utf8))
        #expect(array.status == 200, "\(array.text)")
        let answers = try Self.decoder().decode([SceneAnswer].self, from: Data(array.body))
        #expect(answers.map(\.requestID) == ["a", "b"])
        #expect(answers.map(\.found) == [true, false])
        let lines = try client.post("/v1/scenes?radius_meters=20", body: Array("60.1699,24.9523\n# comment\n10,10,5,far\n".utf8), contentType: "text/csv")
        #expect(lines.status == 200)
        #expect(lines.header("content-type") == "application/x-ndjson")
        let decoded = try lines.text.split(separator: "\n").map { try Self.decoder().decode(SceneAnswer.self, from: Data($0.utf8)) }
        #expect(decoded.map(\.radiusMeters) == [20, 5])
        #expect(decoded.map(\.requestID) == [nil, "far"])
    }

    @Test func batchOverTheBoundOrWithABadLineIs400() throws {
        let client = try ServiceFixture.client()
        let six = try client.post("/v1/scenes", body: Array(String(repeating: "60.17,24.95\n", count: 6).utf8))
        #expect(six.status == 400)
        #expect((try six.json()["error"] as? [String: Any])?["code"] as? String == "batch_too_large")
        let bad = try client.post("/v1/scenes", body: Array("60.17,24.95\n60.17,nan\n".utf8))
        #expect(bad.status == 400)
        #expect(bad.text.contains("line 2"), "\(bad.text)")
        let notArray = try client.post("/v1/scenes", body: Array("[1, 2".utf8))
        #expect(notArray.status == 400)
        let get = try client.get("/v1/scenes")
        #expect(get.status == 405)
        #expect(get.header("allow") == "POST")
    }

    @Test func searchRanksAndLimits() throws {
        let response = try ServiceFixture.get("/v1/search?q=stockman&limit=3")
        #expect(response.status == 200)
        let matches = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        #expect(!matches.isEmpty && matches.count <= 3)
        #expect(matches.first?["display_name"] as? String == "Stockmann")
    }

    /// The page's search box: a coordinate in any form, a panorama id, and (with the extract) a locality
    /// that is no named place: the first answer each time, where it is.
    @Test func searchFindsCoordinatesPanoramasAndLocalities() throws {
        for (query, category, latitude, longitude) in [("60.1699%2C24.9523", "coordinate", 60.1699, 24.9523),
                                                       ("60%C2%B010%E2%80%B211.6%E2%80%B3N%2024%C2%B057%E2%80%B208.3%E2%80%B3E", "coordinate", 60.169889, 24.952306),
                                                       ("geo%3A60.1699%2C24.9523", "coordinate", 60.1699, 24.9523),
                                                       ("senaatintori-005", "panorama", .nan, .nan),
                                                       ("Kaartinkaupunki", "suburb", 60.1652138, 24.9472225)] {
            let response = try ServiceFixture.get("/v1/search?q=\(query)")
            #expect(response.status == 200, "\(query): \(response.text)")
            let matches = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
            let place = try #require(matches.first?["place"] as? [String: Any], "\(query): \(matches)")
            #expect(place["category"] as? String == category || (category == "suburb" && place["category"] as? String != nil),
                    "\(query): \(place)")
            let point = place["coordinate"] as? [String: Any] ?? [:]
            if !latitude.isNaN {
                #expect(abs((point["latitude"] as? Double ?? 0) - latitude) < 1e-5 && abs((point["longitude"] as? Double ?? 0) - longitude) < 1e-5,
                        "\(query): \(point)")
            }
        }
        let bad = try ServiceFixture.get("/v1/search?q=60%C2%B070%E2%80%B2N%2024%C2%B0E")
        #expect(bad.status == 400 && bad.text.contains("minutes 70 is 60 or more"), "\(bad.text)")
    }

    @Test func coverageIsGeoJSONOfTheTilesPanoramas() throws {
        let tile = "15/18655/9484"
        let response = try ServiceFixture.get("/v1/coverage/\(tile)")
        #expect(response.status == 200)
        #expect(response.header("content-type") == "application/geo+json")
        let object = try response.json()
        #expect(object["type"] as? String == "FeatureCollection")
        let features = try #require(object["features"] as? [[String: Any]])
        let catalog = try Catalog(path: try ServiceFixture.catalog.get().catalog)
        let expected = try catalog.coverage(tile: try SlippyTile(x: 18655, y: 9484, zoom: 15))
        #expect(features.count == expected.count && !expected.isEmpty)
        let ids = features.compactMap { ($0["properties"] as? [String: Any])?["panorama_id"] as? String }
        #expect(ids == expected.map(\.panoramaID))
        let coordinates = try #require((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(abs(coordinates[0] - expected[0].longitude) < 1e-12 && abs(coordinates[1] - expected[0].latitude) < 1e-12)
    }

    @Test func panoramaDetailsAndTilesMatchTheTileFile() throws {
        let details = try ServiceFixture.get("/v1/panoramas/senaatintori-005")
        #expect(details.status == 200)
        let object = try details.json()
        #expect((object["panorama"] as? [String: Any])?["id"] as? String == "senaatintori-005")
        #expect((object["links"] as? [Any])?.isEmpty == false)
        let tiles = try #require(object["tiles"] as? [String: Any])
        let levels = try #require(tiles["levels"] as? [[String: Any]])
        #expect(tiles["tile_size"] as? Int == 256)
        // The smallest level first; a tile of the largest level, then the file it came from.
        let largest = try #require(levels.last)
        let tile = try ServiceFixture.get("/v1/panoramas/senaatintori-005/tiles/\(levels.count - 1)/1/0.jpg")
        #expect(tile.status == 200)
        #expect(tile.header("content-type") == "image/jpeg")
        let header = try JPEGCodec.readHeader(tile.body)
        #expect(header.width == 256 && header.height == 256)
        let store = URL(fileURLWithPath: try ServiceFixture.catalog.get().catalog).deletingPathExtension().appendingPathExtension("tiles")
        let file = try PanoramaTileFile(path: store.appendingPathComponent("senaatintori-005.lktiles").path).levels
        #expect(file.reversed().map { [$0.width, $0.height] } == levels.map { [$0["width"] as? Int ?? 0, $0["height"] as? Int ?? 0] })
        #expect(largest["columns"] as? Int == (file[0].width + 255) / 256)
        // Conditional requests.
        let etag = try #require(tile.header("etag"))
        let again = try ServiceFixture.get("/v1/panoramas/senaatintori-005/tiles/\(levels.count - 1)/1/0.jpg", headers: ["If-None-Match": etag])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        #expect(again.header("etag") == etag)
        let outside = try ServiceFixture.get("/v1/panoramas/senaatintori-005/tiles/0/9/9.jpg")
        #expect(outside.status == 400)
    }

    @Test(arguments: ["/v1/panoramas/..%2F..%2Fetc%2Fpasswd", "/v1/panoramas/../catalog", "/v1/panoramas/%2Fetc%2Fpasswd/tiles/0/0/0.jpg",
                      "/v1/panoramas/nope"])
    func idsNeverReachAPath(path: String) throws {
        let response = try ServiceFixture.get(path)
        #expect(response.status == 404, "\(path): \(response.text)")
        #expect(!response.text.contains("root:"))
    }

    @Test func snapshotIsAJPEGOrPNGOfTheSize() throws {
        let jpeg = try ServiceFixture.get("/v1/snapshot?lat=60.1686&lon=24.9480&heading_degrees=250&size=320x240")
        #expect(jpeg.status == 200, "\(jpeg.text)")
        #expect(jpeg.header("content-type") == "image/jpeg")
        let header = try JPEGCodec.readHeader(jpeg.body)
        #expect(header.width == 320 && header.height == 240)
        #expect(jpeg.header("x-panorama-id")?.hasPrefix("aleksanterinkatu-") == true)
        #expect(jpeg.header("etag") != nil && jpeg.header("cache-control")?.contains("max-age") == true)
        let png = try ServiceFixture.get("/v1/snapshot?scene=senaatintori-005&size=160x90&format=png&labels=none")
        #expect(png.status == 200)
        let image = try PNGCodec.decodeRGB(png.body)
        #expect(image.width == 160 && image.height == 90)
        let none = try ServiceFixture.get("/v1/snapshot?lat=10&lon=10&size=64x64")
        #expect(none.status == 404)
        #expect((try none.json()["no_coverage"] as? [String: Any])?["reason"] as? String == "nothing_within_radius")
    }

    @Test func mapIsAPNG() throws {
        let response = try ServiceFixture.get("/v1/map?center=60.1699,24.9450&span_meters=600&size=320x240&pin=60.16952,24.95239,Senaatintori&coverage")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("content-type") == "image/png")
        let image = try PNGCodec.decodeRGB(response.body)
        #expect(image.width == 320 && image.height == 240)
    }

    @Test func healthMetricsAndErrorsForUnknownRoutesAndMethods() throws {
        let health = try ServiceFixture.get("/v1/health")
        #expect(health.status == 200)
        #expect(try health.json()["panoramas"] as? Int == 189)
        _ = try ServiceFixture.get("/v1/scene?lat=60.1699&lon=24.9523")
        let metrics = try ServiceFixture.get("/metrics")
        #expect(metrics.status == 200)
        #expect(metrics.header("content-type")?.hasPrefix("text/plain") == true)
        #expect(metrics.text.contains("lookaround_http_requests_total{route=\"scene\",status=\"200\"}"))
        #expect(metrics.text.contains("lookaround_http_request_duration_seconds_bucket{route=\"scene\",le=\"+Inf\"}"))
        #expect(metrics.text.contains("lookaround_cache_hits_total{cache=\"scene_details\"}"))
        // The metrics request itself is in flight (other tests' requests may be too).
        #expect(metrics.text.contains("lookaround_http_in_flight ") && !metrics.text.contains("lookaround_http_in_flight 0"))
        let unknown = try ServiceFixture.get("/v2/nothing")
        #expect(unknown.status == 404)
        #expect((try unknown.json()["error"] as? [String: Any])?["code"] as? String == "not_found")
        let delete = try ServiceFixture.client().get("/v1/scene?lat=60&lon=24", method: "DELETE")
        #expect(delete.status == 405)
        // The methods of this resource (RFC 9110 §10.2.1), OPTIONS as a CORS preflight answers it.
        #expect(delete.header("allow") == "GET, HEAD, OPTIONS")
        let listing = try ServiceFixture.get("/v1/")
        #expect(listing.status == 404)
    }

    @Test func headHasTheHeadersOfGetWithoutABody() throws {
        let client = try ServiceFixture.client()
        let get = try client.get("/v1/scene?lat=60.1699&lon=24.9523")
        let head = try client.get("/v1/scene?lat=60.1699&lon=24.9523", method: "HEAD")
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("content-length") == "\(get.body.count)")
        // The connection is still usable: HEAD sent no body that would be read as the next response.
        #expect(try client.get("/v1/health").status == 200)
    }

    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let client = try ServiceFixture.client()
        for i in 0..<50 {
            let response = try client.get("/v1/scene?lat=60.16\(90 + i % 9)&lon=24.9523&radius_meters=200")
            #expect(response.status == 200)
            #expect(response.header("connection")?.lowercased() != "close")
        }
    }

    @Test func oversizeRequestsAreRefused() throws {
        let long = try ServiceFixture.get("/v1/scene?lat=60&lon=24&pad=" + String(repeating: "a", count: 40_000))
        #expect(long.status == 414)
        let header = try ServiceFixture.get("/v1/health", headers: ["X-Padding": String(repeating: "b", count: 40_000)])
        #expect(header.status == 431)
        // A declared body over the limit: 413 at once, before the body is sent.
        let client = try ServiceFixture.client()
        try client.send("POST /v1/scenes HTTP/1.1\r\nHost: x\r\nContent-Length: 50000000\r\n\r\n")
        let declared = try client.readResponse(method: "POST")
        #expect(declared.status == 413)
        #expect((try declared.json()["error"] as? [String: Any])?["code"] as? String == "body_too_large")
        // A chunked body over the limit: read to its end, then 413.
        let chunked = try ServiceFixture.client()
        try chunked.send("POST /v1/scenes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = String(repeating: "6", count: 16_384)
        for _ in 0..<6 { try chunked.send(String(chunk.utf8.count, radix: 16) + "\r\n" + chunk + "\r\n") }
        try chunked.send("0\r\n\r\n")
        #expect(try chunked.readResponse(method: "POST").status == 413)
    }

    @Test func malformedRequestLinesGet400AndTheServerStaysUp() throws {
        for garbage in ["GARBAGE\r\n\r\n", "GET /v1/health HTTP/9.9\r\n\r\n", "GET\r\n\r\n", "\u{01}\u{02}\u{03}\r\n\r\n"] {
            let client = try ServiceFixture.client(timeoutSeconds: 5)
            try client.send(garbage)
            if let response = try? client.readResponse() {
                #expect((400..<600).contains(response.status), "\(garbage.debugDescription) gave \(response.status)")
            }
        }
        #expect(try ServiceFixture.get("/v1/health").status == 200)
    }

    @Test func openAPIDescribesEveryRouteServed() throws {
        let response = try ServiceFixture.get("/v1/openapi.json")
        #expect(response.status == 200)
        let document = try response.json()
        #expect(document["openapi"] as? String == "3.0.3")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        // Every documented path is served (a sample of each answers something other than "no route").
        let samples = ["/v1/health": "/v1/health", "/metrics": "/metrics", "/v1/openapi.json": "/v1/openapi.json",
                       "/v1/scene": "/v1/scene?lat=60.1699&lon=24.9523", "/v1/scenes": "/v1/scenes",
                       "/v1/search": "/v1/search?q=kahvila", "/v1/coverage/{z}/{x}/{y}": "/v1/coverage/15/18655/9484",
                       "/v1/coverage/clusters/{z}/{x}/{y}": "/v1/coverage/clusters/5/18/9",
                       "/v1/panoramas/{id}": "/v1/panoramas/senaatintori-005",
                       "/v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg": "/v1/panoramas/senaatintori-005/tiles/0/0/0.jpg",
                       "/v1/snapshot": "/v1/snapshot?scene=senaatintori-005&size=64x48",
                       "/v1/map": "/v1/map?center=60.1699,24.9450&size=64x48",
                       "/v1/tiles/{type}/{z}/{x}/{y}.png": "/v1/tiles/standard/16/37309/18969.png",
                       "/v1/tiles/{type}.json": "/v1/tiles/muted.json",
                       "/v1/move": "/v1/move?from=senaatintori-005&to=senaatintori-006&size=64x48&frames=2",
                       "/v1/walk": "/v1/walk?from=60.16948,24.9510&to=60.16948,24.9535",
                       "/": "/", "/lookaround.js": "/lookaround.js",
                       "/maps/api/streetview/metadata": "/maps/api/streetview/metadata?location=60.1699,24.9523",
                       "/maps/api/streetview": "/maps/api/streetview?size=64x48&location=60.1699,24.9523",
                       "/search": "/search?q=Aleksanterinkatu%2052", "/reverse": "/reverse?lat=60.16845&lon=24.94205",
                       "/v1/directions": "/v1/directions?from=60.1699,24.9523&to=60.1686,24.9417",
                       "/route/v1/{profile}/{coordinates}": "/route/v1/foot/24.9523,60.1699;24.9417,60.1686",
                       "/api": "/api", "/api/": "/api/", "/api/conformance": "/api/conformance", "/api/collections": "/api/collections",
                       "/api/collections/{id}": "/api/collections/senaatintori",
                       "/api/collections/{id}/items": "/api/collections/senaatintori/items",
                       "/api/collections/{id}/items/{itemId}": "/api/collections/senaatintori/items/senaatintori-005",
                       "/api/search": "/api/search?limit=1", "/api/pictures/{id}/{file}.jpg": "/api/pictures/senaatintori-005/thumb.jpg",
                       "/api/map/style.json": "/api/map/style.json", "/api/map/{z}/{x}/{y}.mvt": "/api/map/15/18654/9485.mvt",
                       "/api/configuration": "/api/configuration", "/api/users/me": "/api/users/me",
                       "/api/upload_sets": "/api/upload_sets", "/api/upload_sets/{id}": "/api/upload_sets/none",
                       "/api/upload_sets/{id}/files": "/api/upload_sets/none/files",
                       "/api/upload_sets/{id}/complete": "/api/upload_sets/none/complete"]
        // Uploads are off on this server (no --upload-key-file): their routes answer 403 `uploads are off`.
        let refusedWithoutUploads: Set<String> = ["/api/users/me", "/api/upload_sets", "/api/upload_sets/{id}", "/api/upload_sets/{id}/files",
                                                  "/api/upload_sets/{id}/complete"]
        #expect(Set(paths.keys) == Set(samples.keys))
        for (template, sample) in samples {
            let method = paths[template]?["get"] != nil ? "GET" : (paths[template]?.keys.first ?? "get").uppercased()
            let client = try ServiceFixture.client()
            let answer = method == "POST" ? try client.post(sample, body: Array("60.1699,24.9523\n".utf8)) : try client.get(sample)
            #expect(answer.status == (refusedWithoutUploads.contains(template) ? 403 : 200),
                    "\(method) \(sample): \(answer.status) \(answer.text.prefix(200))")
            for parameter in (paths[template]?.values.first as? [String: Any])?["parameters"] as? [[String: Any]] ?? [] {
                #expect(parameter["name"] is String && parameter["in"] is String)
            }
        }
    }
}

