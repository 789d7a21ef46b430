import Foundation
import Service
import Testing
import TestSupport

/// What the routes accept: parameters they take (every native route refuses others, naming the closest),
/// numbers in decimal only, image sides within what every writer takes, batches parsed off the
/// network threads and cheaply when they are mostly blank.
@Suite struct RouteHardeningTests {
    @Test(arguments: [("/v1/scene?lat=60.1699&lon=24.9523&radius_metres=3", "radius_metres", "radius_meters"),
                      ("/v1/search?q=Stockmann&limits=3", "limits", "limit"),
                      ("/v1/panoramas/senaatintori-005?langauge=fi", "langauge", nil),
                      ("/v1/health?verbose=1", "verbose", nil),
                      ("/v1/snapshot?scene=senaatintori-005&fov=60", "fov", "fov_degrees")])
    func unknownParametersAreRefusedWithTheClosestName(path: String, parameter: String, suggestion: String?) throws {
        let answer = try ServiceFixture.get(path)
        #expect(answer.status == 400, "\(path): \(answer.status) \(answer.text.prefix(200))")
        let error = try #require(try answer.json()["error"] as? [String: Any])
        #expect(error["parameter"] as? String == parameter, "\(path): \(error)")
        if let suggestion { #expect((error["message"] as? String)?.contains("did you mean '\(suggestion)'") == true, "\(error)") }
    }

    @Test(arguments: ["/v1/scene?lat=0x1p4&lon=24.9523", "/v1/scene?lat=60.1699&lon=inf", "/v1/scene?lat=60.1699&lon=2.49523e1x",
                      "/v1/scene?lat=%2060.1699&lon=24.9523", "/v1/scene?lat=60.1699&lon=24.9523&radius_meters=0x32",
                      "/v1/snapshot?scene=senaatintori-005&heading_degrees=0x10",
                      "/maps/api/streetview/metadata?location=0x3c,24.95", "/maps/api/streetview?size=64x64&location=60.17,24.95&heading=nan"])
    func numbersAreDecimalOnly(path: String) throws {
        let answer = try ServiceFixture.get(path)
        if path.hasPrefix("/maps/api/streetview/metadata") {
            #expect(try answer.json()["status"] as? String != "OK", "\(path): \(answer.text)")
        } else {
            #expect(answer.status == 400, "\(path): \(answer.status) \(answer.text.prefix(200))")
        }
    }

    @Test func decimalNumbersInEveryFormStillWork() throws {
        for path in ["/v1/scene?lat=60.1699&lon=24.9523", "/v1/scene?lat=%2B60.1699&lon=24.9523&radius_meters=5e1",
                     "/v1/scene?lat=60.1699&lon=24.9523&radius_meters=50."] {
            #expect(try ServiceFixture.get(path).status == 200, "\(path)")
        }
    }

    @Test func imageSidesAreBoundedWith400() throws {
        for path in ["/v1/snapshot?scene=senaatintori-005&size=65535x1", "/v1/snapshot?scene=senaatintori-005&size=16385x10",
                     "/v1/map?size=65535x1", "/maps/api/streetview?size=65535x1&location=60.17,24.95"] {
            let answer = try ServiceFixture.get(path)
            #expect(answer.status == 400, "\(path): \(answer.status) \(answer.text.prefix(200))")
        }
    }

    @Test func aMegabyteOfBlankLinesIsAnEmptyBatchAtOnce() throws {
        // The fixture takes bodies up to 64 KiB: the whole limit, in newlines.
        let client = try ServiceFixture.client()
        let clock = ContinuousClock.now
        let answer = try client.post("/v1/scenes", body: [UInt8](repeating: 10, count: 64 * 1024), contentType: "application/x-ndjson")
        #expect(answer.status == 200 && answer.body.isEmpty)
        #expect(ContinuousClock.now - clock < .seconds(5))
        // Blank lines between requests keep the line numbers of the body in errors.
        let bad = try client.post("/v1/scenes", body: Array("\n\n60.1699,24.9523\n\nnot a line\n".utf8), contentType: "text/csv")
        #expect(bad.status == 400 && bad.text.contains("5"), "\(bad.text)")
    }

    @Test func healthShowsNoPathOfTheServer() throws {
        let health = try ServiceFixture.get("/v1/health")
        let catalog = try ServiceFixture.catalog.get().catalog
        #expect(health.status == 200 && !health.text.contains(catalog) && !health.text.contains("/"), "\(health.text)")
        #expect(try health.json()["catalog"] as? String == "sqlite")
    }
}
