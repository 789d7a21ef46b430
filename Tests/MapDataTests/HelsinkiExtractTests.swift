import Foundation
import Testing
@testable import MapData

/// The shipped extract of central Helsinki (© OpenStreetMap contributors, ODbL). Expected values were
/// looked up in the data with pyosmium before writing these tests.
@Suite("Helsinki extract")
struct HelsinkiExtractTests {
    func helsinki() throws -> MapDataset { try Fixtures.helsinki.get() }

    /// Approximate ground distance in meters (equirectangular; fine below a few km).
    func distanceMeters(_ a: OSMCoordinate, _ b: OSMCoordinate) -> Double {
        let metersPerDegree = 111_195.0
        let dLat = (a.latitude - b.latitude) * metersPerDegree
        let dLon = (a.longitude - b.longitude) * metersPerDegree * cos((a.latitude + b.latitude) / 2 * .pi / 180)
        return (dLat * dLat + dLon * dLon).squareRoot()
    }

    @Test("raw counts")
    func rawCounts() throws {
        let data = try helsinki()
        #expect(data.counts.nodes == 24260)
        #expect(data.counts.ways == 5130)
        #expect(data.counts.relations == 620)
        #expect(data.counts.buildingWays == 433)
        #expect(data.counts.highwayWays == 2650)
        #expect(data.attribution == "© OpenStreetMap contributors")
    }

    @Test("sensible feature counts")
    func featureCounts() throws {
        let data = try helsinki()
        #expect((300...1000).contains(data.buildings.count), "\(data.buildings.count) buildings")
        #expect(data.buildings.contains { $0.isPart })
        #expect(data.buildings.contains { $0.source.kind == .relation && $0.footprint.contains { !$0.inners.isEmpty } },
                "some building multipolygon has a courtyard")
        #expect((2000...4000).contains(data.streets.count), "\(data.streets.count) streets")
        #expect(data.railways.filter { $0.kind == .tram }.count > 100)
        #expect(data.trees.count == 649)
        #expect(!data.treeRows.isEmpty)
        #expect(data.areas.contains { $0.kind == .water })
        #expect(data.areas.contains { $0.kind == .park })
        #expect(data.areas.contains { $0.kind == .grass })
        #expect(data.coastlines.count >= 1, "the harbour's coastline pieces")
        #expect(data.places.count > 1000)
        // Street furniture nodes, counted with `osmium tags-filter … n/highway=street_lamp` (and so on).
        func count(_ kind: StreetFurnitureKind) -> Int { data.furniture.filter { $0.kind == kind }.count }
        #expect(count(.streetLamp) == 586)
        #expect(count(.bench) >= 162)
        // 92 bus_stop nodes, 4 of them also railway=tram_stop (tram stops come first), 40 tram stops.
        #expect(count(.busStop) == 88 && count(.tramStop) == 40)
        #expect(count(.bollard) == 125 && count(.wasteBasket) == 36 && count(.fountain) == 8)
        #expect(data.furniture.contains { $0.kind == .busStop && $0.hasShelter })
        // 29 hedge ways, one with a single node inside the extract.
        #expect(Set(data.hedges.map(\.source)).count == 28)
        for building in data.buildings {
            #expect(building.heightMeters > 0 && building.heightMeters < 200, "\(building.source)")
            #expect(building.footprint.allSatisfy { $0.outer.count >= 4 && $0.outer.first == $0.outer.last })
        }
    }

    @Test("bounding box covers the city centre")
    func boundingBox() throws {
        let box = try #require(try helsinki().boundingBox)
        #expect(box.contains(OSMCoordinate(latitude: 60.1699, longitude: 24.9384)), "Kolmen sepän aukio")
        #expect(box.contains(OSMCoordinate(latitude: 60.1695, longitude: 24.9525)), "Senaatintori")
        #expect(box.maxLatitude - box.minLatitude < 0.1)
        #expect(box.maxLongitude - box.minLongitude < 0.2)
    }

    @Test("well-known streets with their Swedish names", arguments: [
        ("Aleksanterinkatu", "Alexandersgatan"), ("Pohjoisesplanadi", "Norra Esplanaden"),
        ("Eteläesplanadi", "Södra Esplanaden"), ("Mannerheimintie", "Mannerheimvägen"), ("Unioninkatu", "Unionsgatan"),
    ])
    func streets(name: String, swedish: String) throws {
        let data = try helsinki()
        let ways = data.streets(named: name)
        #expect(!ways.isEmpty, "\(name)")
        #expect(ways.allSatisfy { $0.swedishName == swedish }, "\(name)")
        #expect(data.streets(named: swedish).count == ways.count)
    }

    @Test("Helsinki Cathedral, by Senaatintori")
    func cathedral() throws {
        let data = try helsinki()
        let cathedral = try #require(data.places.first { $0.name == "Helsingin tuomiokirkko" })
        #expect(cathedral.source == OSMElementReference(.way, 419479428))
        #expect(cathedral.names["en"] == "Helsinki Cathedral")
        #expect(cathedral.names["sv"] == "Helsingfors domkyrka")
        #expect(cathedral.names["zh"] != nil)
        #expect(cathedral.category.name == "place_of_worship")
        #expect(cathedral.category.group == .culture)
        #expect(cathedral.address?.street == "Unioninkatu")
        let square = try #require(data.places.first { $0.name == "Senaatintori" && $0.category.name == "square" })
        #expect(square.names["sv"] == "Senatstorget")
        #expect(distanceMeters(cathedral.position, square.position) < 200)
        #expect(data.areas.contains { $0.kind == .square && $0.name == "Senaatintori" })
        let building = try #require(data.buildings.first { $0.source == cathedral.source })
        #expect(building.buildingType == "cathedral")
        #expect(building.heightSource == .heightTag)
        #expect(!data.places(matching: "Helsinki Cathedral").isEmpty)
        #expect(!data.places(matching: "domkyrka").isEmpty)
    }

    @Test("Stockmann department store")
    func stockmann() throws {
        let data = try helsinki()
        let store = try #require(data.places.first { $0.name == "Stockmann" && $0.category.name == "department_store" })
        #expect(store.category.group == .shop)
        #expect(store.names["sv"] == "Stockmann Helsingfors")
        #expect(store.address?.formatted == "Aleksanterinkatu 52, 00100 Helsinki")
        #expect(store.phone != nil)
        #expect(store.openingHours != nil)
        let building = try #require(data.buildings.first { $0.source == store.source })
        #expect(building.heightMeters == 39)
        let street = try #require(data.streets(named: "Aleksanterinkatu").first?.points.first)
        #expect(distanceMeters(store.position, street) < 600)
    }

    @Test("named buildings without a POI tag are places too")
    func namedBuildings() throws {
        let data = try helsinki()
        let lasipalatsi = data.places.filter { $0.name == "Lasipalatsi" }
        #expect(lasipalatsi.contains { $0.category.group == .building && $0.source.kind == .way })
        #expect(lasipalatsi.contains { $0.category.group == .transport }, "the stop of the same name")
        #expect(data.places.filter { $0.category.group == .building }.count > 20)
    }

    @Test("Swedish names where tagged")
    func swedishNames() throws {
        let data = try helsinki()
        let swedishStreets = data.streets.filter { $0.name != nil && $0.swedishName != nil }
        let namedStreets = data.streets.filter { $0.name != nil }
        #expect(swedishStreets.count * 2 > namedStreets.count, "most named streets have name:sv")
        #expect(data.places.filter { $0.names["sv"] != nil }.count > 100)
    }

    @Test("clipped data is reported, not fatal")
    func diagnostics() throws {
        let data = try helsinki()
        let kinds = Set(data.diagnostics.map(\.kind))
        #expect(kinds.contains(.missingNodes))
        #expect(data.diagnostics.allSatisfy { !$0.detail.isEmpty })
    }
}
