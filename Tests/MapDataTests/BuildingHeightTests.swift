import Testing
@testable import MapData

@Suite("Building heights")
struct BuildingHeightTests {
    /// way id → (height, min height, source) expected from heights.osm.
    static let expected: [(Int64, Double, Double, BuildingHeightSource)] = [
        (401, 12, 0, .heightTag),
        (402, 12, 0, .heightTag),
        (403, 12.5, 0, .heightTag),
        (404, 40 * 0.3048, 0, .heightTag),
        (405, 4 * 3.2, 0, .levels),
        (406, 5 * 3.2, 0, .levels),
        (407, 6, 0, .defaultForType),
        (408, 15, 0, .defaultForType),
        (409, 25, 0, .defaultForType),
        (410, 12, 0, .defaultForType),
        (411, 18, 0, .defaultForType),
        (412, 20, 10, .heightTag),
        (413, 6 * 3.2, 2 * 3.2, .levels),
        (415, 3 * 3.2, 0, .levels),
        (417, 12 * 0.3048 + 6 * 0.0254, 0, .heightTag),
        (418, 18 + 3, 0, .defaultForType),
    ]
    static let toleranceMeters = 1e-9

    @Test("height, levels, roof levels, defaults by type and min_height")
    func heightRules() throws {
        let data = try Fixtures.load("heights.osm")
        let byID = Dictionary(uniqueKeysWithValues: data.buildings.map { ($0.source.id, $0) })
        for (id, height, minHeight, source) in Self.expected {
            let building = try #require(byID[id], "way \(id) should be a building")
            #expect(abs(building.heightMeters - height) < Self.toleranceMeters, "way \(id)")
            #expect(abs(building.minHeightMeters - minHeight) < Self.toleranceMeters, "way \(id)")
            #expect(building.heightSource == source, "way \(id)")
        }
        #expect(byID[412]?.isPart == true)
        #expect(byID[413]?.isPart == true)
        #expect(byID[401]?.isPart == false)
        #expect(abs((byID[413]?.extrusionMeters ?? 0) - 4 * 3.2) < Self.toleranceMeters)
    }

    @Test("building=no is not a building; an open way is reported, not built")
    func notBuildings() throws {
        let data = try Fixtures.load("heights.osm")
        #expect(!data.buildings.contains { $0.source.id == 414 })
        #expect(!data.buildings.contains { $0.source.id == 416 })
        #expect(data.buildings.count == Self.expected.count)
        #expect(data.diagnostics.contains { $0.kind == .openAreaWay && $0.element == OSMElementReference(.way, 416) })
        #expect(data.diagnostics.contains { $0.kind == .unparsableTag && $0.element.id == 415
                                            && $0.detail.contains("height=tall") })
        #expect(data.counts.buildingWays == 15, "building=no is not counted")
        #expect(data.counts.buildingPartWays == 2)
    }

    @Test("default table")
    func defaults() {
        #expect(BuildingHeightRules.defaultHeightMeters(forType: "house") == 6)
        #expect(BuildingHeightRules.defaultHeightMeters(forType: "apartments") == 15)
        #expect(BuildingHeightRules.defaultHeightMeters(forType: "residential") == 15)
        #expect(BuildingHeightRules.defaultHeightMeters(forType: "office") == 18)
        #expect(BuildingHeightRules.defaultHeightMeters(forType: "church") == 25)
        #expect(BuildingHeightRules.defaultHeightMeters(forType: "something_new") == 12)
        #expect(BuildingHeightRules.levelHeightMeters == 3.2)
    }
}
