import Testing
@testable import MapData

@Suite("Places, trees, water and parks")
struct PlaceTests {
    @Test("a café with names in five languages, address, phone, website, opening hours")
    func multilingualPlace() throws {
        let data = try Fixtures.load("pois.osm")
        let cafe = try #require(data.places.first { $0.source == OSMElementReference(.node, 601) })
        #expect(cafe.name == "Kahvila Testi")
        #expect(cafe.names == ["fi": "Kahvila Testi", "sv": "Kafé Test", "en": "Test Café", "zh": "测试咖啡馆",
                               "ja": "テストカフェ"])
        #expect(cafe.name(in: "sv") == "Kafé Test")
        #expect(cafe.name(in: "de") == "Kahvila Testi")
        #expect(cafe.category == PlaceCategory(key: "amenity", value: "cafe", name: "cafe", group: .food))
        #expect(cafe.address == PostalAddress(street: "Aleksanterinkatu", houseNumber: "52", postcode: "00100",
                                              city: "Helsinki"))
        #expect(cafe.address?.formatted == "Aleksanterinkatu 52, 00100 Helsinki")
        #expect(cafe.phone == "+358 9 123 4567")
        #expect(cafe.website == "https://example.fi/")
        #expect(cafe.openingHours == "Mo-Fr 08:00-18:00")
        #expect(cafe.position == OSMCoordinate(latitude: 60.1701, longitude: 24.9501))
    }

    @Test("categories and groups; unnamed or uncategorised nodes are not places")
    func categories() throws {
        let data = try Fixtures.load("pois.osm")
        let byName = Dictionary(uniqueKeysWithValues: data.places.map { ($0.name, $0.category) })
        #expect(byName["Leipomo"]?.name == "bakery")
        #expect(byName["Leipomo"]?.group == .shop)
        #expect(byName["Hotelli"]?.group == .lodging)
        #expect(byName["Pysäkki"]?.group == .transport)
        #expect(byName["Kahvila ja ravintola"]?.name == "cafe")
        #expect(byName["Kauppa"]?.name == "shop")
        #expect(byName["Tavaratalo"]?.name == "department_store")
        #expect(byName["Puisto"]?.group == .leisure)
        #expect(byName["Iso puisto"]?.group == .leisure)
        #expect(byName["Pelkkä nimi"] == nil)
        #expect(byName["Ei mitään"] == nil, "amenity=no")
        #expect(byName["Lasitalo"] == PlaceCategory(key: "building", value: "yes", name: "building", group: .building))
        #expect(data.places.count == 10)
        #expect(data.counts.namedPlaceNodes == 6)
    }

    @Test("a way place sits at its polygon's centroid")
    func wayCentroid() throws {
        let data = try Fixtures.load("pois.osm")
        let store = try #require(data.places.first { $0.name == "Tavaratalo" })
        #expect(store.source == OSMElementReference(.way, 607))
        #expect(abs(store.position.latitude - 60.171) < 1e-9)
        #expect(abs(store.position.longitude - 24.951) < 1e-9)
        #expect(data.buildings.first { $0.source.id == 607 }?.heightMeters == 39)
        let park = try #require(data.places.first { $0.name == "Iso puisto" })
        #expect(park.source == OSMElementReference(.relation, 614))
        #expect(abs(park.position.latitude - 60.171) < 1e-9)
    }

    @Test("tree, tree row, water, park and grass")
    func nature() throws {
        let data = try Fixtures.load("pois.osm")
        #expect(data.trees.count == 1)
        #expect(data.trees.first?.species == "Tilia cordata")
        #expect(data.trees.first?.heightMeters == 12)
        #expect(data.treeRows.map(\.source.id) == [611])
        #expect(data.treeRows.first?.points.count == 3)
        let kinds = Dictionary(grouping: data.areas, by: \.kind).mapValues { $0.map(\.source.description).sorted() }
        #expect(kinds[.water] == ["way/608"])
        #expect(kinds[.park] == ["relation/614", "way/609"])
        #expect(kinds[.grass] == ["way/610"])
        #expect(data.areas.first { $0.kind == .water }?.name == "Lampi")
        #expect(data.diagnostics.isEmpty, "\(data.diagnostics)")
    }

    @Test("search by any language, ignoring case and diacritics")
    func search() throws {
        let data = try Fixtures.load("pois.osm")
        #expect(data.places(matching: "kafe test").map(\.source.id) == [601])
        #expect(data.places(matching: "テスト").map(\.source.id) == [601])
        #expect(data.places(matching: "").isEmpty)
    }
}

