import Testing
@testable import MapData

@Suite("Streets, rail and squares")
struct StreetTests {
    static func streets() throws -> (MapDataset, [Int64: [Street]]) {
        let data = try Fixtures.load("streets.osm")
        return (data, Dictionary(grouping: data.streets, by: \.source.id))
    }

    @Test("class, names, lanes, width, sidewalk")
    func attributes() throws {
        let (_, byID) = try Self.streets()
        let main = try #require(byID[501]?.first)
        #expect(main.highwayClass == .primary)
        #expect(main.name == "Testikatu")
        #expect(main.swedishName == "Testgatan")
        #expect(main.lanes == 2)
        #expect(main.widthMeters == 7.5)
        #expect(main.sidewalk == .both)
        #expect(main.points.count == 3)
        #expect(byID[507]?.first?.highwayClass == .primary)
        #expect(byID[507]?.first?.isLink == true)
        #expect(byID[508]?.first?.highwayClass == .footway)
        #expect(byID[508]?.first?.footwayType == "sidewalk")
        #expect(byID[509]?.first?.highwayClass == .cycleway)
        #expect(byID[509]?.first?.widthMeters == 3)
        #expect(byID[510]?.first?.highwayClass == .pedestrian)
        #expect(byID[513]?.first?.lanes == nil, "lanes=2;3 is not one number")
        #expect(byID[513]?.first?.widthMeters == nil, "width=wide is not a length")
        #expect(byID[518]?.first?.highwayClass == .other("trail"))
        #expect(byID[518]?.first?.isTunnel == true)
        #expect(byID[518]?.first?.layer == -1)
        #expect(byID[520]?.first?.highwayClass == .pedestrian, "a closed pedestrian way without area=yes is a street")
    }

    @Test("oneway variants", arguments: [
        (Int64(501), OnewayDirection.forward), (502, .backward), (503, .both), (504, .forward), (505, .forward),
        (506, .forward), (510, .both), (514, .reversible), (517, .forward),
    ])
    func oneway(wayID: Int64, direction: OnewayDirection) throws {
        let (_, byID) = try Self.streets()
        #expect(byID[wayID]?.first?.oneway == direction)
    }

    @Test("a way clipped in the middle becomes two pieces and a diagnostic")
    func clippedWay() throws {
        let (data, byID) = try Self.streets()
        #expect(byID[516]?.count == 2)
        #expect(byID[516]?.allSatisfy { $0.points.count == 2 } == true)
        #expect(data.diagnostics.contains { $0.kind == .missingNodes && $0.element == OSMElementReference(.way, 516) })
    }

    @Test("squares are areas, not streets; tram track is a railway line")
    func squaresAndRail() throws {
        let (data, byID) = try Self.streets()
        #expect(byID[511] == nil)
        #expect(byID[515] == nil)
        let squares = data.areas.filter { $0.kind == .square }
        #expect(Set(squares.map(\.source.id)) == [511, 515])
        #expect(squares.first { $0.source.id == 515 }?.names["sv"] == "Lilla torget")
        #expect(data.places.contains { $0.name == "Pikkutori" && $0.category.name == "square" })
        #expect(data.railways.map(\.kind) == [.tram, .subway])
        #expect(data.railways.first?.name == "Raitiotie")
        #expect(data.railways.last?.isTunnel == true)
        #expect(data.counts.highwayWays == 17)
        #expect(data.counts.railwayWays == 2)
    }
}

extension StreetTests {
    /// What the catalog stores is the OSM value, and it reads back as the same class.
    @Test func tagValueRoundTrips() {
        for value in ["motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "living_street",
                      "service", "pedestrian", "footway", "cycleway", "path", "steps", "track", "bridleway", "corridor",
                      "platform", "construction", "trail", "elevator"] {
            #expect(HighwayClass(tagValue: value).tagValue == value)
        }
    }
}
