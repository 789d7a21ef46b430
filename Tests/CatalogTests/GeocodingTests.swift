import Catalog
import Foundation
import Geodesy
import Testing
import TestSupport

/// Forward and reverse geocoding on the shipped Helsinki extract. The expected positions come from the
/// OSM data read by another program (pyosmium: nodes as tagged, buildings by their area centroid), not
/// from this code; an answer passes within 15 m of any element carrying the address.
@Suite struct GeocodingTests {
    static let shipped = Result { try Lookaround.indexShippedPanoramas().catalog }

    static func catalog() throws -> Catalog { try Catalog(path: try shipped.get()) }

    /// A phrasing, what it should find (any of these positions, within 15 m) and how precisely.
    struct Case: Sendable, CustomTestStringConvertible {
        var query: GeocodeQuery
        var expected: [(Double, Double)]
        var precision: GeocodeResult.Precision
        var testDescription: String { query.description }

        init(_ text: String, _ expected: [(Double, Double)], _ precision: GeocodeResult.Precision) {
            self.init(GeocodeQuery(text: text), expected, precision)
        }

        init(_ query: GeocodeQuery, _ expected: [(Double, Double)], _ precision: GeocodeResult.Precision) {
            self.query = query
            self.expected = expected
            self.precision = precision
        }
    }

    // Ground truth (pyosmium over Panoramas/sources/helsinki-centre.osm.pbf).
    static let stockmann = [(60.16829376591331, 24.942155741062006), (60.1686722, 24.9419347), (60.1684514, 24.9422713)]
    static let mannerheimintie5 = [(60.169500574635606, 24.939997871178637), (60.1694433, 24.9397734), (60.1693956, 24.9404415)]
    static let kasarmikatu4648 = [(60.1666295, 24.9474625), (60.1665105, 24.9474853)]
    static let unioninkatu29 = [(60.16998743293088, 24.951147784412427), (60.17038216129784, 24.95217762694368)]
    static let kaivokatu1 = [(60.1713198, 24.9414566), (60.1707093, 24.9408728), (60.17125777587657, 24.941170027275252)]
    static let mikonkatu8 = [(60.1695198, 24.9451638), (60.1696078, 24.9451921), (60.1693686, 24.945231), (60.1694624, 24.944314),
                             (60.169629, 24.9449125)]
    static let senaatintori = [(60.16951005891223, 24.952273809372304),   // the square (relation 2919121)
                               (60.1689887, 24.9503897), (60.1690307, 24.9499241), (60.1691009, 24.951728)]

    static let cases: [Case] = [
        // Street addresses, phrased as people and clients write them.
        Case("Aleksanterinkatu 52", stockmann, .house),
        Case("aleksanterinkatu 52 helsinki", stockmann, .house),
        Case("Aleksanterinkatu 52, Helsinki", stockmann, .house),
        Case("Aleksanterinkatu 52, 00100 Helsinki", stockmann, .house),
        Case("ALEKSANTERINKATU 52", stockmann, .house),
        Case("Alexandersgatan 52", stockmann, .house),                     // Swedish street name
        Case("Alexandersgatan 52, Helsingfors", stockmann, .house),        // … and city name
        Case("Aleksanterinktu 52", stockmann, .house),                     // typo
        Case("Aleksanterinkatu 36 b", [(60.1688498, 24.9485516)], .house), // letter apart
        Case("Aleksanterinkatu 36B", [(60.1688498, 24.9485516)], .house),
        Case("Keskuskatu 1a", [(60.1678594, 24.9432849)], .house),
        Case("Mannerheimintie 5", mannerheimintie5, .house),
        Case("Mannerheimintie 5, 00100", mannerheimintie5, .house),
        Case("Kasarmikatu 47", kasarmikatu4648, .house),                   // inside the range 46-48
        Case("Kasarmikatu 46-48", kasarmikatu4648, .house),
        Case("Uudenmaankatu 3", [(60.1654253, 24.9431974)], .house),         // inside 1-5
        Case("Pohjoisesplanadi 16", [(60.1679875, 24.9519724)], .house),     // inside 15-17
        Case("Ludviginkatu 7", [(60.1656914, 24.9451538)], .house),          // inside 6-8
        Case("Unioninkatu 29", unioninkatu29, .house),
        Case("Kaivokatu 1, Helsinki", kaivokatu1, .house),
        Case("Mikonkatu 8", mikonkatu8, .house),
        Case("Kluuvikatu 3", [(60.1685946, 24.9478496), (60.1685919, 24.9477328)], .house),
        Case(GeocodeQuery(street: "Aleksanterinkatu 52", city: "Helsinki"), stockmann, .house),
        Case(GeocodeQuery(street: "52 Aleksanterinkatu", postcode: "00100"), stockmann, .house),
        Case(GeocodeQuery(street: "Mannerheimintie", houseNumber: "5"), mannerheimintie5, .house),
        // Places, with and without the city.
        Case("Stockmann, Helsinki", [(60.16829376591331, 24.942155741062006), (60.16843997222223, 24.942078922222223)], .place),
        Case("Senaatintori, Helsinki", senaatintori, .place),
        Case("Senaatintori", senaatintori, .place),
        Case("paaposti", [(60.1716419, 24.9385433)], .place),
        Case("Helsingin tuomiokirko", [(60.170377496875, 24.952142996875), (60.17038216129784, 24.95217762694368)], .place),
        // Postcodes: the middle of their addresses.
        Case("00100 Helsinki", [(60.168879990049106, 24.940288530629243)], .postcode),
        Case("00130", [(60.16628721234012, 24.94653720988284)], .postcode),
        // Localities.
        Case("Helsinki", [(60.1674098, 24.9425769)], .locality),
        Case("Kaartinkaupunki, Helsinki", [(60.1652138, 24.9472225)], .locality),
    ]

    @Test(arguments: cases)
    func findsTheAddressWithin15Metres(_ test: Case) throws {
        let answers = try Self.catalog().geocode(test.query)
        let best = try #require(answers.first, "nothing for \(test.query.description)")
        let distance = test.expected.map { expected in
            Geodesic.wgs84.inverse(from: best.coordinate, to: try! GeoCoordinate(latitude: expected.0, longitude: expected.1)).distanceMeters
        }.min()!
        #expect(distance <= 15, "\(test.query.description) → \(best.displayName) at \(best.coordinate), \(distance) m off")
        #expect(best.precision == test.precision, "\(test.query.description) → \(best.precision) \(best.matched)")
    }

    @Test func answersSayWhatMatched() throws {
        let catalog = try Self.catalog()
        let house = try #require(try catalog.geocode(GeocodeQuery(text: "Aleksanterinkatu 52, 00100 Helsinki")).first)
        #expect(Set(house.matched) == ["house", "street", "postcode", "locality"], "\(house.matched)")
        #expect(house.houseNumber == "52" && house.street == "Aleksanterinkatu" && house.postcode == "00100" && house.city == "Helsinki")
        let swedish = try #require(try catalog.geocode(GeocodeQuery(text: "Aleksanterinkatu 52", language: "sv")).first)
        #expect(swedish.name == "Alexandersgatan 52", "names in the language asked for")
        // A house number the street does not have: the street, said so by the precision.
        let missing = try #require(try catalog.geocode(GeocodeQuery(text: "Aleksanterinkatu 999")).first)
        #expect(missing.precision == .street && missing.name == "Aleksanterinkatu")
        // A locality that disagrees lowers an answer but does not break it.
        let elsewhere = try catalog.geocode(GeocodeQuery(text: "Aleksanterinkatu 52, Tampere, Finland"))
        #expect(elsewhere.first?.houseNumber == "52", "a locality the extract does not hold is left out")
        #expect(try catalog.geocode(GeocodeQuery(text: "Qqqxxzz Street 5")).isEmpty)
        #expect(throws: CatalogError.invalidParameter(name: "q", value: "\"\"",
                                                      allowed: "an address, a street, a place, a postcode or a locality")) {
            try catalog.geocode(GeocodeQuery(text: "  "))
        }
    }

    @Test func reverseGeocodingFindsTheNearestTaggedBuilding() throws {
        let catalog = try Self.catalog()
        // Panorama positions (the shipped captures) against the nearest addr:* element, measured by pyosmium.
        let atStockmann = try catalog.reverseGeocode(try GeoCoordinate(latitude: 60.16845, longitude: 24.94205))
        #expect(atStockmann.address?.street == "Aleksanterinkatu" && atStockmann.address?.houseNumber == "52")
        #expect(atStockmann.city == "Helsinki" && atStockmann.postcode == "00100")
        #expect(atStockmann.displayName.hasPrefix("Aleksanterinkatu 52, "), "\(atStockmann.displayName)")
        let senate = try catalog.reverseGeocode(try GeoCoordinate(latitude: 60.16935, longitude: 24.95234), language: "sv")
        #expect(senate.street != nil && senate.neighbourhood != nil, "\(senate)")
        // In the sea: no house within 100 m.
        let sea = try catalog.reverseGeocode(try GeoCoordinate(latitude: 60.1600, longitude: 24.9600))
        #expect(sea.address == nil)
    }

    @Test func placeSearchByAddressFindsThePlacesThere() throws {
        let catalog = try Self.catalog()
        let at = try catalog.searchPlaces(PlaceSearchQuery(text: "Aleksanterinkatu 52", limit: 50))
        #expect(at.first?.place.name == "Stockmann" && at.count > 3, "\(at.map(\.place.name))")
        #expect(at.allSatisfy { $0.place.address?.street == "Aleksanterinkatu" && $0.place.address?.houseNumber == "52" })
        #expect(at.allSatisfy { $0.matchedName == "Aleksanterinkatu 52" && $0.kind == .exact })
        let swedish = try catalog.searchPlaces(PlaceSearchQuery(text: "Alexandersgatan 52", language: "sv", limit: 1))
        #expect(swedish.first?.place.name == "Stockmann" && swedish.first?.matchedName == "Aleksanterinkatu 52")
        // A name stays a name search; a category keeps it one.
        #expect(try catalog.searchPlaces(PlaceSearchQuery(text: "Stockmann", limit: 1)).first?.matchedName == "Stockmann")
        #expect(try catalog.searchPlaces(PlaceSearchQuery(text: "Aleksanterinkatu 52", category: "restaurant")).allSatisfy { $0.place.category == "restaurant" })
    }

    /// The one "nearest named street in the label language" query (the viewer's status line, the
    /// snapshot's hit test and walk's route naming call it).
    @Test func theNearestNamedStreetInTheLabelLanguage() throws {
        let catalog = try Self.catalog()
        let along = [(60.1684734722222, 24.9408504166667), (60.1689036388889, 24.94351475), (60.1689318055556, 24.9474041944444),
                     (60.1689633055556, 24.9486995833333), (60.16900675, 24.9513426666667)]   // aleksanterinkatu-000 … -048
        var others = 0
        for (latitude, longitude) in along {
            let point = try GeoCoordinate(latitude: latitude, longitude: longitude)
            let preferred = try #require(try catalog.namedStreet(near: point, radiusMeters: 20, language: nil, preferring: "aleksanterinkatu"))
            #expect(preferred.name == "Aleksanterinkatu" && preferred.distanceMeters < 20)
            let swedish = try catalog.namedStreet(near: point, radiusMeters: 20, language: "sv", preferring: "Aleksanterinkatu")
            #expect(swedish?.name == "Alexandersgatan")
            let nearest = try #require(try catalog.namedStreet(near: point, radiusMeters: 20, language: nil))
            #expect(nearest.distanceMeters <= preferred.distanceMeters)
            if nearest.name != "Aleksanterinkatu" { others += 1 }
            // Nearest first, and the filter decides what counts.
            let all = try catalog.streets(near: point, radiusMeters: 20).filter { $0.street.name != nil }
            #expect(nearest.street.id == all.first?.street.id)
            #expect(try catalog.namedStreet(near: point, radiusMeters: 20, language: nil) { _, _ in false } == nil)
        }
        #expect(others < along.count, "most of these stand nearest to Aleksanterinkatu itself")
        #expect(try catalog.namedStreet(near: try GeoCoordinate(latitude: 60.1600, longitude: 24.9600), radiusMeters: 20, language: nil) == nil)
    }

    @Test func interpolationWaysGiveTheNumbersBetweenTheirEnds() throws {
        let folder = try Lookaround.temporaryDirectory()
        let osm = folder.appendingPathComponent("interpolated.osm").path
        try Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <osm version="0.6">
              <node id="1" lat="60.0" lon="25.0"><tag k="addr:housenumber" v="1"/><tag k="addr:street" v="Testikatu"/>
                <tag k="addr:postcode" v="00990"/><tag k="addr:city" v="Testilä"/></node>
              <node id="2" lat="60.0" lon="25.002"><tag k="addr:housenumber" v="9"/><tag k="addr:street" v="Testikatu"/></node>
              <node id="3" lat="60.001" lon="25.0"><tag k="addr:housenumber" v="2"/><tag k="addr:street" v="Testikatu"/></node>
              <node id="4" lat="60.001" lon="25.001"><tag k="addr:housenumber" v="6"/><tag k="addr:street" v="Testikatu"/></node>
              <way id="10"><nd ref="1"/><nd ref="2"/><tag k="addr:interpolation" v="odd"/></way>
              <way id="11"><nd ref="3"/><nd ref="4"/><tag k="addr:interpolation" v="even"/></way>
            </osm>
            """.utf8).write(to: URL(fileURLWithPath: osm))
        let empty = folder.appendingPathComponent("panoramas").path
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: false)
        let path = folder.appendingPathComponent("c.sqlite").path
        _ = try CatalogBuilder.build(CatalogBuildOptions(directories: [empty], catalogPath: path, osmFiles: [osm]))
        let catalog = try Catalog(path: path)
        for (number, latitude, longitude) in [("5", 60.0, 25.001), ("3", 60.0, 25.0005), ("4", 60.001, 25.0005)] {
            let answer = try #require(try catalog.geocode(GeocodeQuery(text: "Testikatu \(number)")).first)
            let distance = Geodesic.wgs84.inverse(from: answer.coordinate,
                                                  to: try GeoCoordinate(latitude: latitude, longitude: longitude)).distanceMeters
            #expect(answer.precision == .interpolated && distance < 1, "Testikatu \(number): \(answer)")
        }
        // An even number on the odd side does not exist: the street, not a made-up house.
        #expect(try catalog.geocode(GeocodeQuery(text: "Testikatu 7, Testilä")).first?.precision == .interpolated)
        #expect(try catalog.geocode(GeocodeQuery(text: "Testikatu 8")).first?.precision == .street)
    }
}
