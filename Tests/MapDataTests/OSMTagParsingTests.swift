import Testing
@testable import MapData

@Suite("Tag value parsing")
struct OSMTagParsingTests {
    static let toleranceMeters = 1e-9

    @Test("lengths with units", arguments: [
        ("12", 12.0), ("12 m", 12), ("12.5m", 12.5), ("12.5 metres", 12.5), (" 7 ", 7), ("40'", 12.192),
        ("40 ft", 12.192), ("12'6\"", 3.81), ("12' 6\"", 3.81), ("6\"", 0.1524), ("12,5", 12.5), ("250 cm", 2.5),
    ])
    func lengths(text: String, meters: Double) throws {
        let value = try #require(OSMTagParsing.lengthMeters(text), "\(text)")
        #expect(abs(value - meters) < Self.toleranceMeters, "\(text)")
    }

    @Test("not lengths", arguments: ["", "tall", "12;15", "12 parsecs", "nan", "inf", "1.2.3", "m"])
    func notLengths(text: String) {
        #expect(OSMTagParsing.lengthMeters(text) == nil, "\(text)")
    }

    @Test("levels and lanes")
    func levelsAndLanes() {
        #expect(OSMTagParsing.levels("2.5") == 2.5)
        #expect(OSMTagParsing.levels("-1") == nil)
        #expect(OSMTagParsing.levels("many") == nil)
        #expect(OSMTagParsing.lanes("2") == 2)
        #expect(OSMTagParsing.lanes("0") == nil)
        #expect(OSMTagParsing.lanes("2;3") == nil)
    }

    @Test("names by language")
    func names() {
        let names = OSMTagParsing.names(from: ["name": "A", "name:sv": "B", "name:be-tarask": "C",
                                               "name:etymology:wikidata": "Q1", "name:": "D", "old_name": "E"])
        #expect(names == ["sv": "B", "be-tarask": "C"])
    }

    @Test("oneway", arguments: [
        ("yes", OnewayDirection.forward), ("true", .forward), ("1", .forward), ("-1", .backward),
        ("reverse", .backward), ("no", .both), ("false", .both), ("0", .both), ("alternating", .reversible),
    ])
    func oneway(value: String, direction: OnewayDirection) {
        #expect(OnewayDirection.parse(oneway: value, highway: "residential", junction: nil) == direction)
    }

    @Test("implied oneway")
    func impliedOneway() {
        #expect(OnewayDirection.parse(oneway: nil, highway: "motorway", junction: nil) == .forward)
        #expect(OnewayDirection.parse(oneway: nil, highway: "primary", junction: "roundabout") == .forward)
        #expect(OnewayDirection.parse(oneway: "no", highway: "motorway", junction: nil) == .both)
        #expect(OnewayDirection.parse(oneway: nil, highway: "primary", junction: nil) == .both)
    }

    @Test("sidewalks")
    func sidewalks() {
        #expect(SidewalkSides(tags: ["sidewalk": "both"]) == .both)
        #expect(SidewalkSides(tags: ["sidewalk": "none"]) == SidewalkSides.none)
        #expect(SidewalkSides(tags: ["sidewalk:left": "yes"]) == .left)
        #expect(SidewalkSides(tags: ["sidewalk:both": "separate"]) == .separate)
        #expect(SidewalkSides(tags: ["sidewalk": "this"]) == nil)
    }
}
