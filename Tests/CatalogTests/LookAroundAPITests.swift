import Catalog
import Foundation
import Geodesy
import LookAround
import Testing
import TestSupport

@Suite struct LookAroundAPITests {
    static let shared = Result { try Fixtures.standardCatalog() }
    var catalog: Catalog { get throws { try Self.shared.get().catalog } }

    @Test func sceneRequestReturnsASceneOrNil() async throws {
        let here = try GeoCoordinate(latitude: Fixtures.senaatintori.latitude, longitude: Fixtures.senaatintori.longitude)
        let scene = try await LookAroundSceneRequest(coordinate: here, catalog: try catalog).scene
        #expect(scene != nil)
        let nowhere = try await LookAroundSceneRequest(coordinate: try GeoCoordinate(latitude: 10, longitude: 10),
                                                       catalog: try catalog).scene
        #expect(nowhere == nil)
        var narrow = LookAroundSceneRequest(coordinate: here, catalog: try catalog)
        narrow.radiusMeters = 1
        #expect(try await narrow.scene == nil)
        #expect(try await narrow.answer.noCoverage?.reason == .nothingWithinRadius)
    }

    @Test func sceneIsCodable() async throws {
        let here = try GeoCoordinate(latitude: Fixtures.senaatintori.latitude, longitude: Fixtures.senaatintori.longitude)
        let scene = try #require(try await LookAroundSceneRequest(coordinate: here, catalog: try catalog).scene)
        let data = try JSONEncoder().encode(scene)
        #expect(try JSONDecoder().decode(LookAroundScene.self, from: data) == scene)
        #expect(scene.description.contains("helsinki/sim_0001"))
    }

    @Test func badRadiusThrows() async throws {
        let here = try GeoCoordinate(latitude: 60, longitude: 24)
        var request = LookAroundSceneRequest(coordinate: here, catalog: try catalog)
        request.radiusMeters = -5
        await #expect(throws: CatalogError.invalidParameter(name: "radiusMeters", value: "-5.0", allowed: "0…10000 metres")) {
            try await request.scene
        }
    }

    @Test func localSearchReturnsMapItemsAndSceneByMapItem() async throws {
        var request = LocalSearch.Request(naturalLanguageQuery: "senaatintori")
        request.language = "sv"
        let response = try await LocalSearch(request: request, catalog: try catalog).start()
        let item = try #require(response.mapItems.first)
        #expect(item.name == "Senatstorget")
        #expect(item.category == "square")
        let scene = try await LookAroundSceneRequest(mapItem: item, catalog: try catalog).scene
        #expect(scene != nil)

        let stockmann = try #require(try await LocalSearch(request: .init(naturalLanguageQuery: "Stockmann"), catalog: try catalog)
            .start().mapItems.first)
        #expect(stockmann.phoneNumber == "+358 9 1211")
        #expect(stockmann.url == "https://www.stockmann.com")
        #expect(stockmann.address?.street == "Aleksanterinkatu")
        #expect(abs(stockmann.coordinate.latitude - 60.1686) < 1e-9)
    }
}
