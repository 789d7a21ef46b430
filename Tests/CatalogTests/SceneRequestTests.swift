import Catalog
import Foundation
import Geodesy
import Testing
import TestSupport

@Suite struct SceneRequestTests {
    static let shared = Result { try Fixtures.standardCatalog() }
    var catalog: Catalog { get throws { try Self.shared.get().catalog } }
    var senaatintori: GeoCoordinate { get throws {
        try GeoCoordinate(latitude: Fixtures.senaatintori.latitude, longitude: Fixtures.senaatintori.longitude)
    } }

    @Test func nearestSceneHasGeodesicDistanceBearingHeadingDateAndLinks() throws {
        let answer = try catalog.scene(for: SceneRequest(coordinate: senaatintori))
        let scene = try #require(answer.scene)
        #expect(answer.found && answer.noCoverage == nil)
        #expect(scene.panoramaID == "helsinki/sim_0001")
        #expect(abs(scene.distanceMeters - 5) < 0.005)   // EXIF GPS rationals round to about 1 mm
        #expect(abs(try #require(scene.bearingFromRequestDegrees) - 270) < 0.01)
        #expect(scene.source == .simulated)
        #expect(!scene.links.isEmpty)
        #expect(scene.links.contains { $0.panoramaID == "helsinki/sim_0002" })
    }

    @Test func bestPrefersFullPanoramasWithDepth() throws {
        // Within 30 m: sim_0001 (5 m), R0010023 (10 m, depth), sim_0002 (15 m), Insta360 (20 m, cropped).
        var request = SceneRequest(coordinate: try senaatintori, radiusMeters: 30, preference: .best)
        #expect(try catalog.scene(for: request).scene?.panoramaID == "helsinki/R0010023")
        request.source = .simulated
        #expect(try catalog.scene(for: request).scene?.panoramaID == "helsinki/sim_0001")
    }

    @Test func sourceAndDateFilters() throws {
        var request = SceneRequest(coordinate: try senaatintori, radiusMeters: 30, source: .photo)
        #expect(try catalog.scene(for: request).scene?.panoramaID == "helsinki/R0010023")
        request.capturedAfter = Date(timeIntervalSince1970: 1_715_508_931)   // after the Theta, before the Insta360
        #expect(try catalog.scene(for: request).scene?.panoramaID == "helsinki/IMG_20240512_101530_00_001")
        request.capturedAfter = Date(timeIntervalSince1970: 1_715_600_000)
        let answer = try catalog.scene(for: request)
        #expect(!answer.found)
        #expect(answer.noCoverage?.reason == .filteredOut)
        #expect(answer.noCoverage?.filteredOutCount == 4)
        request.capturedAfter = nil
        request.capturedBefore = Date(timeIntervalSince1970: 1_715_508_930)
        #expect(try catalog.scene(for: request).scene?.panoramaID == "helsinki/R0010023")
    }

    @Test func nothingWithinRadiusNamesTheNearestPanoramaWithin10Kilometres() throws {
        let away = try Fixtures.offset(3000, bearing: 45)
        let answer = try catalog.scene(for: SceneRequest(coordinate: away))
        #expect(answer.noCoverage?.reason == .nothingWithinRadius)
        let nearest = try #require(answer.noCoverage?.nearestDistanceMeters)
        #expect(nearest > 2800 && nearest < 3000)
        #expect(answer.noCoverage?.nearestPanoramaID != nil)
        let far = try catalog.scene(for: SceneRequest(coordinate: try GeoCoordinate(latitude: 0, longitude: 0)))
        #expect(far.noCoverage?.reason == .nothingWithinRadius)
        #expect(far.noCoverage?.nearestDistanceMeters == nil)
        #expect(far.noCoverage?.message.contains("none within 10 km") == true)
    }

    @Test(arguments: [-1.0, 10_001, .nan, .infinity])
    func badRadiusIsAnErrorNamingTheRange(radius: Double) throws {
        #expect(throws: CatalogError.invalidParameter(name: "radiusMeters", value: "\(radius)", allowed: "0…10000 metres")) {
            try catalog.scene(for: SceneRequest(coordinate: try senaatintori, radiusMeters: radius))
        }
        do { _ = try catalog.scene(for: SceneRequest(coordinate: try senaatintori, radiusMeters: radius)) } catch {
            #expect("\(error)".contains("allowed 0…10000 metres"))
        }
    }

    @Test func coverageTileListsItsPanoramas() throws {
        let tile = try SlippyTile(containing: try senaatintori, zoom: 15)
        let entries = try catalog.coverage(tile: tile)
        #expect(entries.count == 5)
        let far = try catalog.coverage(tile: SlippyTile(x: 0, y: 0, zoom: 3))
        #expect(far.isEmpty)
    }

    @Test func lookupByIDAndUnknownID() throws {
        #expect(try catalog.panorama(id: "helsinki/capture-7").sequenceName == "walk")
        #expect(throws: CatalogError.unknownPanorama(id: "nope")) { try catalog.panorama(id: "nope") }
    }

    @Test func missingAndForeignCatalogsAreErrors() throws {
        let root = try Lookaround.temporaryDirectory()
        #expect(throws: CatalogError.catalogMissing(path: root.path + "/none.sqlite")) {
            try Catalog(path: root.path + "/none.sqlite")
        }
        let foreign = root.appendingPathComponent("foreign.sqlite").path
        try Data("hello, not a database at all, just some text to fill a page".utf8).write(to: URL(fileURLWithPath: foreign))
        #expect(throws: CatalogError.notACatalog(path: foreign, detail: "not an SQLite database")) { try Catalog(path: foreign) }
        // A folder (the panoramas' own, say) is named as one, not left to SQLite's "disk I/O error".
        do {
            _ = try Catalog(path: root.path)
            Issue.record("a folder opened as a catalog")
        } catch {
            #expect(error.description.contains("\(root.path): a folder, not a catalog file"), "\(error)")
        }
    }

    @Test func batchParserReadsCSVAndJSONLines() throws {
        let parser = SceneBatchParser(defaults: SceneRequest(coordinate: try senaatintori, radiusMeters: 75))
        #expect(try parser.parse("latitude,longitude,radius_meters,id", number: 1) == nil)
        let csv = try #require(try parser.parse("60.17, 24.95, 20, a", number: 2))
        #expect(csv.request.coordinate.latitude == 60.17 && csv.request.radiusMeters == 20 && csv.id == "a")
        let plain = try #require(try parser.parse("60.17,24.95", number: 2))
        #expect(plain.request.radiusMeters == 75 && plain.id == nil)
        let json = try #require(try parser.parse(#"{"lat": 60.1, "lon": 24.9, "id": "x", "preference": "best"}"#, number: 3))
        #expect(json.request.preference == .best && json.id == "x")
        #expect(try parser.parse("# comment", number: 4) == nil)
        // Decimal only, as in the queries: hex (Double reads 0x3cp0 as 60) and inf are not numbers here.
        let notFinite = "latitude and longitude must be finite numbers"
        let cases: [(line: String, detail: String)] = [
            ("60.17", "expected 2 to 4 comma-separated fields, found 1"),
            ("91,0", "\(GeodesyError.latitudeOutOfRange(91))"),
            ("nan,1", notFinite),
            (#"{"latitude": "x"}"#, "not a JSON object with numeric latitude/longitude"),
            ("1,2,abc", "radius 'abc' is not a finite decimal number"),
            ("1,200", "longitude 200.0 is outside -180…180 degrees"),
            ("0x3cp0,24.95", notFinite),
            ("60.17,24.95,0x32", "radius '0x32' is not a finite decimal number"),
            ("60.17,24.95,inf", "radius 'inf' is not a finite decimal number"),
        ]
        for (bad, detail) in cases {
            #expect(throws: CatalogError.badBatchLine(line: 5, text: bad, detail: detail), "\(bad)") {
                try parser.parse(bad, number: 5)
            }
        }
    }
}

@Suite struct TimeFormattingTests {
    // Foundation switches to the Julian calendar before 1582; ISO 8601 (and we) stay Gregorian, so the
    // comparison covers modern dates only.
    @Test(arguments: [0.0, 951_868_799, 1_715_508_930.9, -1, 4_102_444_800, -12_219_292_800])
    func iso8601MatchesFoundation(seconds: Double) {
        let formatter = ISO8601DateFormatter()
        let date = Date(timeIntervalSince1970: seconds)
        #expect(Catalog.iso8601String(date) == formatter.string(from: Date(timeIntervalSince1970: seconds.rounded(.down))))
    }

    @Test func yearOneIsProlepticGregorian() {
        #expect(Catalog.iso8601String(Date(timeIntervalSince1970: -62_135_596_800)) == "0001-01-01T00:00:00Z")
    }
}

@Suite struct CoverageBoxTests {
    @Test func boxCoverageListsThePanoramasInsideInCaptureOrder() throws {
        let (_, _, catalog, _) = try Fixtures.standardCatalog()
        // Senaatintori ± ~300 m holds all five fixture panoramas; a box east of it holds none.
        let all = try catalog.coverage(south: 60.167, north: 60.173, west: 24.946, east: 24.959)
        #expect(all.count == 5)
        let ids = all.map(\.panoramaID)
        let sim1 = try #require(ids.firstIndex { $0.hasSuffix("sim_0001") })
        let sim2 = try #require(ids.firstIndex { $0.hasSuffix("sim_0002") })
        #expect(sim1 < sim2, "capture order within a sequence: \(ids)")
        #expect(try catalog.coverage(south: 60.167, north: 60.173, west: 24.96, east: 24.97).isEmpty)
    }
}
