import Foundation
import Imaging
import Service
import Testing
import TestSupport

/// The Google Street View Static API compatible routes: parameters, statuses and error shapes.
@Suite struct StreetViewRouteTests {
    @Test func metadataOfALocationHasGooglesFiveFields() throws {
        let response = try ServiceFixture.get("/maps/api/streetview/metadata?location=60.1699%2C24.9523&key=anything&size=640x640")
        #expect(response.status == 200)
        let object = try response.json()
        #expect(Set(object.keys) == ["copyright", "date", "location", "pano_id", "status"])
        #expect(object["status"] as? String == "OK")
        let date = try #require(object["date"] as? String)
        #expect(date.count == 7 && date.dropFirst(4).first == "-", "YYYY-MM, was \(date)")
        let location = try #require(object["location"] as? [String: Double])
        #expect(abs((location["lat"] ?? 0) - 60.1699) < 0.001 && abs((location["lng"] ?? 0) - 24.9523) < 0.001)
        #expect((object["copyright"] as? String)?.contains("OpenStreetMap") == true)
        let id = try #require(object["pano_id"] as? String)
        let byPano = try ServiceFixture.get("/maps/api/streetview/metadata?pano=\(id)")
        #expect(try byPano.json()["pano_id"] as? String == id)
    }

    @Test(arguments: [
        ("location=10,10", "ZERO_RESULTS"), ("pano=no-such-panorama", "ZERO_RESULTS"), ("location=Qqqqxxzz%20Street", "NOT_FOUND"),
        ("", "INVALID_REQUEST"), ("location=60.17,24.95&radius=-5", "INVALID_REQUEST"), ("location=91,0", "INVALID_REQUEST"),
        ("location=60.17,24.95&source=indoor", "INVALID_REQUEST"), ("location=Stockmann", "OK"),
    ])
    func metadataStatuses(query: String, status: String) throws {
        let response = try ServiceFixture.get("/maps/api/streetview/metadata?" + query)
        #expect(response.status == 200)
        let object = try response.json()
        #expect(object["status"] as? String == status, "\(query): \(response.text)")
        if status != "OK" { #expect(object["pano_id"] == nil) }
    }

    @Test func imageIsAJPEGOfTheSizeAskedFor() throws {
        let response = try ServiceFixture.get("/maps/api/streetview?size=640x400&location=60.1699,24.9523&heading=151.78&pitch=-0.76&fov=80")
        #expect(response.status == 200, "\(response.text)")
        #expect(response.header("content-type") == "image/jpeg")
        let image = try JPEGCodec.decodeRGB(response.body).image
        #expect(image.width == 640 && image.height == 400)
        // Not a flat image: the street has structure.
        let values = image.components
        let mean = values.reduce(0) { $0 + Int($1) } / values.count
        let spread = values.reduce(0) { $0 + abs(Int($1) - mean) } / values.count
        #expect(spread > 10)
    }

    @Test func anyFiniteHeadingIsADirectionOnEveryRoute() throws {
        // Clients compute headings with atan2 and send negative ones: -45, 315 and 675 are one direction.
        for (route, name) in [("/maps/api/streetview?size=200x120&location=60.16952,24.95247", "heading"),
                              ("/v1/snapshot?size=200x120&lat=60.16952&lon=24.95247", "heading_degrees")] {
            let bodies = try ["-45", "315", "675", "-405"].map { heading -> [UInt8] in
                let response = try ServiceFixture.get("\(route)&\(name)=\(heading)")
                #expect(response.status == 200, "\(route) \(name)=\(heading): \(response.text)")
                return response.body
            }
            // The same view, but not always the same bytes: a panorama's first views are drawn from its JPEG
            // while the server makes its tile file in the background, later ones from the tile file, whose
            // halved levels are re-encoded (q85). Pictures of one view agree far beyond that noise; another
            // heading is another picture (measured: 38.7 dB between the two sources, 16.4 dB to heading 90°).
            let pictures = try bodies.map { try JPEGCodec.decodeRGB($0).image }
            for (k, picture) in pictures.enumerated().dropFirst() {
                let agreement = ImageMetrics.psnr(pictures[0], picture)
                #expect(agreement >= 34, "\(route): heading spelling \(k) of 315° gives another picture (\(agreement) dB)")
            }
            let east = try ServiceFixture.get("\(route)&\(name)=90")
            let eastAgreement = ImageMetrics.psnr(pictures[0], try JPEGCodec.decodeRGB(east.body).image)
            #expect(eastAgreement < 25, "\(route): the heading changed nothing (\(eastAgreement) dB)")
            for bad in ["nan", "inf", "-infinity", "north"] {
                let refused = try ServiceFixture.get("\(route)&\(name)=\(bad)")
                #expect(refused.status == 400 && refused.text.contains("not a finite number of degrees"), "\(name)=\(bad): \(refused.text)")
            }
        }
    }

    @Test func noImageryIsAGreyImageOr404() throws {
        let grey = try ServiceFixture.get("/maps/api/streetview?size=300x200&location=10,10")
        #expect(grey.status == 200)
        let image = try JPEGCodec.decodeRGB(grey.body).image
        #expect(image.width == 300 && image.height == 200)
        #expect(abs(Int(image.components[0]) - 228) <= 3, "grey background")
        let coded = try ServiceFixture.get("/maps/api/streetview?size=300x200&location=10,10&return_error_code=true")
        #expect(coded.status == 404)
    }

    /// The exact request URLs of PyPI `streetview` 0.1.0 (`get_panorama_meta`, `get_streetview`), which
    /// builds them itself and cannot be pointed elsewhere without patching: its pydantic model needs
    /// `date`, `location`, `pano_id` and `copyright`, and it opens the body as an image unchecked.
    @Test func theStreetviewPackagesRequestsAreAnswered() throws {
        let meta = try ServiceFixture.get("/maps/api/streetview/metadata?pano=senaatintori-005&key=abc")
        let object = try meta.json()
        #expect(object["date"] is String && object["location"] is [String: Any] && object["pano_id"] is String && object["copyright"] is String)
        let image = try ServiceFixture.get("/maps/api/streetview?size=640x640&fov=120&pitch=0&heading=0&pano=senaatintori-005&key=abc")
        #expect(image.status == 200)
        let header = try JPEGCodec.readHeader(image.body)
        #expect(header.width == 640 && header.height == 640)
    }

    @Test(arguments: ["location=60.17,24.95", "size=641x100&location=60.17,24.95", "size=big&location=60.17,24.95",
                      "size=100x100", "size=100x100&location=60.17,24.95&fov=130", "size=100x100&location=60.17,24.95&heading=nan",
                      "size=100x100&location=60.17,24.95&pitch=91"])
    func invalidImageRequestsAre400(query: String) throws {
        let response = try ServiceFixture.get("/maps/api/streetview?" + query)
        #expect(response.status == 400, "\(query): \(response.status) \(response.text)")
        #expect(response.header("content-type")?.hasPrefix("text/plain") == true)
    }
}

/// API keys: compared in constant time, 403 / REQUEST_DENIED otherwise; health needs none.
@Suite struct APIKeyTests {
    static let server = Result { () throws -> HTTPServer in
        var configuration = try ServiceFixture.configuration()
        configuration.apiKeys = ["s3cret-key", "other"]
        return try SceneService(configuration: configuration).start()
    }

    @Test func keysAreRequiredWhereConfigured() throws {
        let port = try Self.server.get().port
        func get(_ path: String, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: port).get(path, headers: headers)
        }
        #expect(try get("/v1/scene?lat=60.1699&lon=24.9523").status == 403)
        #expect(try get("/v1/scene?lat=60.1699&lon=24.9523&key=s3cret-ke").status == 403)
        #expect(try get("/v1/scene?lat=60.1699&lon=24.9523&key=s3cret-key").status == 200)
        #expect(try get("/v1/scene?lat=60.1699&lon=24.9523", headers: ["X-API-Key": "other"]).status == 200)
        let denied = try get("/maps/api/streetview/metadata?location=60.1699,24.9523&key=wrong")
        #expect(denied.status == 200)
        #expect(try denied.json()["status"] as? String == "REQUEST_DENIED")
        #expect(try get("/maps/api/streetview?size=64x64&location=60.1699,24.9523").status == 403)
        #expect(try get("/v1/health").status == 200)
    }

    /// One key source rule: the key is given once, as key= or X-API-Key. Two keys are refused, whichever
    /// is valid (a wrong key= no longer beats a valid header, nor a later key= an earlier one).
    @Test func theKeyIsGivenOnce() throws {
        let port = try Self.server.get().port
        func get(_ path: String, headers: [String: String] = [:]) throws -> RawHTTPClient.Response {
            try RawHTTPClient(port: port).get(path, headers: headers)
        }
        for (path, headers) in [("/v1/scene?lat=60.1699&lon=24.9523&key=bad&key=s3cret-key", [String: String]()),
                                ("/v1/scene?lat=60.1699&lon=24.9523&key=s3cret-key&key=s3cret-key", [:]),
                                ("/v1/scene?lat=60.1699&lon=24.9523&key=wrong", ["X-API-Key": "s3cret-key"]),
                                ("/v1/scene?lat=60.1699&lon=24.9523&key=s3cret-key", ["X-API-Key": "s3cret-key"])] {
            let answer = try get(path, headers: headers)
            #expect(answer.status == 400, "\(path) \(headers): \(answer.status)")
            let error = try #require(try answer.json()["error"] as? [String: Any])
            #expect(error["parameter"] as? String == "key" && (error["message"] as? String)?.contains("give it once") == true)
        }
        let metadata = try get("/maps/api/streetview/metadata?location=60.1699,24.9523&key=bad&key=s3cret-key")
        #expect(metadata.status == 200)
        #expect(try metadata.json()["status"] as? String == "INVALID_REQUEST")
        #expect(try get("/v1/scene?lat=60.1699&lon=24.9523&key=s3cret-key").status == 200)
        #expect(try get("/v1/scene?lat=60.1699&lon=24.9523", headers: ["X-API-Key": "s3cret-key"]).status == 200)
        // A NUL cuts nothing short: key=GOOD%00garbage is refused before any route (not accepted as GOOD).
        #expect(try get("/v1/scene?lat=60.1699&lon=24.9523&key=s3cret-key%00garbage").status == 400)
    }

    @Test func keyFileIsReadAndCheckedForKeys() throws {
        let root = try Lookaround.temporaryDirectory()
        let file = root.appendingPathComponent("keys.txt")
        try Data("# keys\n\n  alpha  \nbeta\n".utf8).write(to: file)
        #expect(try ServiceConfiguration.apiKeys(fromFile: file.path) == ["alpha", "beta"])
        try Data("# none\n".utf8).write(to: file)
        #expect(throws: ServiceError.badConfiguration(file: file.path, detail: "holds no API key; write one key per line")) {
            try ServiceConfiguration.apiKeys(fromFile: file.path)
        }
        let missing = root.appendingPathComponent("missing").path
        #expect(throws: ServiceError.badConfiguration(file: missing, detail: "no such API key file; write one key per line")) {
            try ServiceConfiguration.apiKeys(fromFile: missing)
        }
    }
}
