import Testing
@testable import MapData

@Suite("Multipolygon assembly")
struct RingAssemblerTests {
    @Test("outer ring of 3 ways (one reversed) and 2 inner rings")
    func outerOfThreeWaysAndTwoInners() throws {
        let data = try Fixtures.load("multipolygon.osm")
        #expect(data.diagnostics.isEmpty, "\(data.diagnostics)")
        let building = try #require(data.buildings.first { $0.source == OSMElementReference(.relation, 301) })
        #expect(building.buildingType == "apartments")
        #expect(building.name == "Testitalo")
        #expect(building.names["sv"] == "Testhuset")
        #expect(building.footprint.count == 1)
        let polygon = try #require(building.footprint.first)
        // 8 distinct corners and midpoints + the closing point, counter-clockwise.
        #expect(polygon.outer.count == 9)
        #expect(polygon.outer.first == polygon.outer.last)
        #expect(OSMPolygon.doubleSignedArea(polygon.outer) > 0)
        #expect(Set(polygon.outer.gridPoints.map { "\($0)" }).count == 8)
        #expect(polygon.inners.count == 2)
        for inner in polygon.inners {
            #expect(inner.count == 5)
            #expect(inner.first == inner.last)
            #expect(OSMPolygon.doubleSignedArea(inner) < 0, "inner rings run clockwise")
        }
        // levels 5 + roof levels 1, 3.2 m each.
        #expect(abs(building.heightMeters - 19.2) < 1e-9)
        #expect(building.heightSource == .levels)
    }

    @Test("a building outer way tagged building itself is built once, by its relation")
    func buildingOuterWayNotDuplicated() throws {
        let data = try Fixtures.load("multipolygon.osm")
        #expect(data.buildings.map(\.source.description).sorted() == ["relation/301", "relation/304"])
        let courtyard = try #require(data.buildings.first { $0.source.id == 304 })
        #expect(courtyard.footprint.first?.inners.count == 1)
        #expect(courtyard.heightMeters == 20)
        #expect(data.counts.buildingWays == 1)
        #expect(data.counts.buildingMultipolygonRelations == 2)
    }

    @Test("polygon centroid subtracts the holes")
    func centroidWithHoles() throws {
        let data = try Fixtures.load("multipolygon.osm")
        let polygon = try #require(data.buildings.first { $0.source.id == 301 }?.footprint.first)
        let c = polygon.centroid
        // Outer 4×4 centred on (2, 2); holes of 0.25 at (1.25, 1.25) and (2.75, 2.75) (units 0.001°)
        // balance each other: the centroid stays at the centre.
        #expect(abs(c.latitude - 60.172) < 1e-9)
        #expect(abs(c.longitude - 24.952) < 1e-9)
        #expect(polygon.contains(OSMCoordinate(latitude: 60.1705, longitude: 24.9505)))
        #expect(!polygon.contains(OSMCoordinate(latitude: 60.17125, longitude: 24.95125)), "inside hole A")
    }

    @Test("unclosable rings are dropped and reported with the relation id")
    func unclosableRings() throws {
        let data = try Fixtures.load("unclosable.osm")
        #expect(data.buildings.map(\.source) == [OSMElementReference(.relation, 303)])
        #expect(data.buildings.first?.footprint.count == 1)

        let unclosed = data.diagnostics.filter { $0.kind == .unclosedRing }
        #expect(Set(unclosed.map(\.element.id)) == [302, 303])
        #expect(data.diagnostics.contains { $0.kind == .missingMemberWay && $0.element.id == 302
                                            && $0.detail.contains("113") })
        #expect(data.diagnostics.contains { $0.kind == .emptyMultipolygon && $0.element.id == 302 })
        #expect(unclosed.first { $0.element.id == 303 }?.detail.contains("114") == true)
    }

    @Test("joining works whatever the direction of each segment")
    func joinDirections() {
        // Square 1-2-3-4 split into four segments with mixed directions.
        let segments: [(id: Int64, nodes: [Int64])] = [(1, [1, 2]), (2, [3, 2]), (3, [4, 3]), (4, [4, 1])]
        let (closed, unclosed) = RingAssembler.join(segments)
        #expect(unclosed.isEmpty)
        #expect(closed.count == 1)
        #expect(closed.first?.nodeIDs.count == 5)
        #expect(Set(closed.first?.wayIDs ?? []) == [1, 2, 3, 4])

        let (none, open) = RingAssembler.join([(7, [1, 2, 3]), (8, [3, 4])])
        #expect(none.isEmpty)
        #expect(open == [[7, 8]])
    }
}
