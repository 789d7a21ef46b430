@testable import Catalog
import Foundation
import Geodesy
import Testing

@Suite struct PlaceSearchTests {
    static let shared = Result { try Fixtures.standardCatalog() }
    var catalog: Catalog { get throws { try Self.shared.get().catalog } }

    func first(_ text: String, near: GeoCoordinate? = nil, category: String? = nil, language: String? = nil) throws -> PlaceMatch? {
        try catalog.searchPlaces(PlaceSearchQuery(text: text, near: near, category: category, language: language)).first
    }

    @Test func foldingRemovesCaseAndDiacritics() {
        #expect(TextFolding.fold("Pääposti") == "paaposti")
        #expect(TextFolding.fold("  Café  Engel! ") == "cafe engel")
        #expect(TextFolding.fold("Straße Øresund") == "strasse oresund")
    }

    @Test(arguments: [
        ("Stockmann", "Stockmann", PlaceMatch.Kind.exact),
        ("paaposti", "Pääposti", .exact),
        ("PÄÄPOSTI", "Pääposti", .exact),
        ("stock", "Stockmann", .prefix),
        ("tuomiok", "Helsingin tuomiokirkko", .wordPrefix),
        ("Stokmann", "Stockmann", .typo),
        ("Stockmnan", "Stockmann", .typo),
        ("huvudposten", "Pääposti", .exact),
        ("cathedral", "Helsingin tuomiokirkko", .wordPrefix),
    ])
    func findsByExactPrefixWordAndTypo(query: String, expected: String, kind: PlaceMatch.Kind) throws {
        let match = try #require(try first(query), "no match for \(query)")
        #expect(match.place.name == expected)
        #expect(match.kind == kind)
    }

    @Test func rankingExactBeforePrefixAndNearerFirst() throws {
        let all = try catalog.searchPlaces(PlaceSearchQuery(text: "cafe engel"))
        #expect(all.map(\.place.name) == ["Café Engel", "Cafe Engelberg"])
        #expect(all[0].score > all[1].score)
        let near = try GeoCoordinate(latitude: 60.16, longitude: 24.90)
        let byDistance = try catalog.searchPlaces(PlaceSearchQuery(text: "engel", near: near))
        #expect(byDistance.map(\.place.name) == ["Cafe Engelberg", "Café Engel"])
        #expect(byDistance[0].distanceMeters.map { $0 < 1 } == true)
    }

    @Test func categoryAndLanguage() throws {
        #expect(try first("engel", category: "cafe")?.place.category == "cafe")
        #expect(try first("engel", category: "museum") == nil)
        #expect(try first("posti", category: "service")?.place.name == "Pääposti")
        let swedish = try #require(try first("tuomiokirkko", language: "sv"))
        #expect(swedish.displayName == "Helsingfors domkyrka")
        #expect(try first("Stockmann", language: "sv")?.displayName == "Stockmann")   // falls back to name
    }

    /// A stop named after a landmark ranks after the landmark unless it is much nearer.
    @Test func landmarksBeforeStopsNamedAfterThem() throws {
        let senaatintori = try GeoCoordinate(latitude: 60.1699, longitude: 24.9523)
        let fromSquare = try catalog.searchPlaces(PlaceSearchQuery(text: "Stockmann", near: senaatintori))
        #expect(fromSquare.prefix(2).map(\.place.category) == ["department_store", "bus_stop"])
        #expect(try #require(fromSquare[1].distanceMeters) < #require(fromSquare[0].distanceMeters))
        let atTheStop = try GeoCoordinate(latitude: 60.16775, longitude: 24.94277)
        #expect(try first("Stockmann", near: atTheStop)?.place.category == "bus_stop")
    }

    @Test func placeFieldsComeThrough() throws {
        let stockmann = try #require(try first("Stockmann"))
        #expect(stockmann.place.phone == "+358 9 1211")
        #expect(stockmann.place.website == "https://www.stockmann.com")
        #expect(stockmann.place.address?.formatted == "Aleksanterinkatu 52")
        #expect(stockmann.place.category == "department_store" && stockmann.place.categoryGroup == .shop)
        #expect(try catalog.searchPlaces(PlaceSearchQuery(text: "zzzzqqq")).isEmpty)
        #expect(throws: CatalogError.invalidParameter(name: "limit", value: "0", allowed: "1…1000")) {
            try catalog.searchPlaces(PlaceSearchQuery(text: "a", limit: 0))
        }
    }

    @Test func placesNearAPoint() throws {
        let here = try GeoCoordinate(latitude: 60.1699, longitude: 24.9523)
        let near = try catalog.places(near: here, radiusMeters: 100)
        #expect(near.map(\.place.name) == ["Senaatintori", "Café Engel", "Helsingin tuomiokirkko"])
        #expect(near[0].distanceMeters < 0.01)
        #expect(try catalog.places(near: here, radiusMeters: 0.5).count == 1)
        #expect(throws: CatalogError.invalidParameter(name: "radiusMeters", value: "-1.0", allowed: "0…10000 metres")) {
            try catalog.places(near: here, radiusMeters: -1)
        }
    }

    @Test func streetsNearAPoint() throws {
        // Aleksanterinkatu runs along latitude 60.1690 from 24.9500 to 24.9550; Senaatintori is 100 m north.
        let here = try GeoCoordinate(latitude: 60.1699, longitude: 24.9523)
        let streets = try catalog.streets(near: here, radiusMeters: 150)
        let street = try #require(streets.first)
        #expect(street.street.name == "Aleksanterinkatu" && street.street.names["sv"] == "Alexandersgatan")
        #expect(street.street.highwayClass == .pedestrian && street.street.points.count == 2)
        #expect(abs(street.distanceMeters - 100.2) < 0.5)
        #expect(try catalog.streets(near: here, radiusMeters: 50).isEmpty)
    }
}
