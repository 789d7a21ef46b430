import Foundation
import Testing
@testable import MapData

@Suite("MapDataset")
struct MapDatasetTests {
    @Test("a dataset survives a JSON round trip unchanged")
    func jsonRoundTrip() throws {
        let data = try Fixtures.load("pois.osm")
        let encoded = try JSONEncoder().encode(data)
        let decoded = try JSONDecoder().decode(MapDataset.self, from: encoded)
        #expect(decoded == data)
    }

    @Test("summary and attribution")
    func summary() throws {
        let data = try Fixtures.load("pois.osm")
        #expect(data.summary.contains("© OpenStreetMap contributors"))
        #expect(data.summary.contains("elements: 14 nodes, 7 ways, 1 relations"))
        #expect(data.featureCounts["places"] == data.places.count)
        let box = try #require(data.boundingBox)
        #expect(box == OSMBoundingBox(minLatitude: 60.170, minLongitude: 24.950, maxLatitude: 60.172, maxLongitude: 24.952))
    }
}
