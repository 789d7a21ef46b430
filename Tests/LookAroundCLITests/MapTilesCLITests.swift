import Foundation
import Imaging
import Testing
import TestSupport

/// Raster map tiles and their TileJSON on `lookaround serve`, as a Leaflet or QGIS client asks for them.
@Suite struct MapTilesCLITests {
    static let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    @Test func tilesAndTileJSONForXYZClients() throws {
        let server = try ServeCLITests.Server(["--catalog", try ServeCLITests.catalog(), "--osm", Self.osm])
        defer { _ = server.terminate() }
        let client = try RawHTTPClient(port: server.port)

        // URLs on the host the client named (this client names 127.0.0.1; behind a proxy, its name).
        let tilejson = try client.get("/v1/tiles/standard.json", headers: ["X-Forwarded-Proto": "https"])
        #expect(tilejson.status == 200, "\(tilejson.text)")
        let document = try tilejson.json()
        #expect(document["tilejson"] as? String == "3.0.0" && document["minzoom"] as? Int == 0 && document["maxzoom"] as? Int == 20)
        #expect(document["tiles"] as? [String] == ["https://127.0.0.1/v1/tiles/standard/{z}/{x}/{y}.png"], "\(tilejson.text)")
        #expect((document["attribution"] as? String)?.contains("© OpenStreetMap contributors") == true)
        // The catalog's coverage (the shipped panoramas, 60.1666…60.1697 N, 24.9390…24.9533 E), not the extract's box.
        let bounds = try #require(document["bounds"] as? [Double])
        #expect(bounds.count == 4 && abs(bounds[0] - 24.93903) < 1e-4 && abs(bounds[2] - 24.95326) < 1e-4
                && abs(bounds[1] - 60.16662) < 1e-4 && abs(bounds[3] - 60.16970) < 1e-4, "\(bounds)")
        let center = try #require(document["center"] as? [Double])
        #expect(center.count == 3 && center[0] > bounds[0] && center[0] < bounds[2] && center[1] > bounds[1] && center[1] < bounds[3]
                && (15...17).contains(center[2]), "\(center)")

        // Senaatintori's tile at zoom 16, at 1× and 2×; a repeat with its ETag is 304.
        let tile = try client.get("/v1/tiles/standard/16/37309/18969.png")
        #expect(tile.status == 200 && tile.header("content-type") == "image/png", "\(tile.text.prefix(200))")
        let image = try PNGCodec.decodeRGBA(tile.body)
        #expect(image.width == 256 && image.height == 256)
        let retina = try PNGCodec.decodeRGBA(try client.get("/v1/tiles/standard/16/37309/18969@2x.png").body)
        #expect(retina.width == 512 && retina.height == 512)
        let etag = try #require(tile.header("etag"))
        #expect(try client.get("/v1/tiles/standard/16/37309/18969.png", headers: ["If-None-Match": etag]).status == 304)
        // A city tile is not one colour, and its neighbours meet it: the shared edge's pixels are close.
        let east = try PNGCodec.decodeRGBA(try client.get("/v1/tiles/standard/16/37310/18969.png").body)
        var step = 0.0
        for y in 0..<256 { for c in 0..<3 { step += abs(Double(image[255, y, c]) - Double(east[0, y, c])) } }
        var inside = 0.0
        for y in 0..<256 { for c in 0..<3 { inside += abs(Double(image[254, y, c]) - Double(image[255, y, c])) } }
        #expect(step <= 3 * inside + 256 * 3 * 4, "across the edge \(step), one column inside \(inside)")

        // The coverage overlay: transparent but for the street imagery (the Esplanadi sequences at zoom 16),
        // wholly transparent where there is none.
        let overlay = try PNGCodec.decodeRGBA(try client.get("/v1/tiles/coverage/16/37310/18970.png").body)
        var clear = 0, drawn = 0
        for y in 0..<256 { for x in 0..<256 { if overlay[x, y, 3] == 0 { clear += 1 } else { drawn += 1 } } }
        #expect(clear > 50_000 && drawn > 500, "transparent \(clear), drawn \(drawn)")
        let empty = try PNGCodec.decodeRGBA(try client.get("/v1/tiles/coverage/12/2335/1182.png").body)
        #expect((0..<(256 * 256)).allSatisfy { empty.components[$0 * 4 + 3] == 0 }, "a tile without imagery is transparent")
        #expect(try client.get("/v1/tiles/coverage.json").json()["attribution"] as? String == "street imagery: lookaround")

        for (path, parameter) in [("/v1/tiles/standard/21/1/1.png", "z"), ("/v1/tiles/satellite/1/1/1.png", "type"),
                                  ("/v1/tiles/standard/2/9/1.png", "tile"), ("/v1/tiles/standard/1/1.png", "tile"),
                                  ("/v1/tiles/satellite.json", "type")] {
            let refused = try client.get(path)
            let error = try refused.json()["error"] as? [String: Any]
            #expect(refused.status == 400 && error?["parameter"] as? String == parameter, "\(path): \(refused.text)")
        }
    }
}
