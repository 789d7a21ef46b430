import Foundation
import Service
import Testing
import TestSupport

/// The Nominatim-compatible routes: Nominatim's field names and types, formats, and errors.
@Suite struct NominatimRouteTests {
    static func array(_ path: String) throws -> [[String: Any]] {
        let response = try ServiceFixture.get(path)
        #expect(response.status == 200, "\(path): \(response.text.prefix(300))")
        return try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]], "\(path)")
    }

    @Test func searchAnswersInNominatimsShape() throws {
        let results = try Self.array("/search?q=Aleksanterinkatu+52,+Helsinki&format=json&addressdetails=1")
        let first = try #require(results.first)
        // Nominatim's types: lat, lon and the bounding box are strings; ids are numbers.
        let lat = try #require(first["lat"] as? String), lon = try #require(first["lon"] as? String)
        #expect(abs(Double(lat)! - 60.16829) < 0.0002 && abs(Double(lon)! - 24.94216) < 0.0004)
        #expect((first["boundingbox"] as? [String])?.count == 4)
        #expect(first["place_id"] is Int && first["osm_id"] is Int && first["osm_type"] as? String == "way")
        #expect(first["class"] as? String == "place" && first["type"] as? String == "house")
        #expect((first["licence"] as? String)?.contains("OpenStreetMap contributors") == true)
        #expect(first["display_name"] as? String == "Aleksanterinkatu 52, 00100 Helsinki")
        let address = try #require(first["address"] as? [String: String])
        #expect(address["house_number"] == "52" && address["road"] == "Aleksanterinkatu" && address["postcode"] == "00100")
        #expect(address["city"] == "Helsinki" && address["country_code"] == "fi")
        // jsonv2 says category and place_rank; structured queries and the Swedish name find the same house.
        let v2 = try #require(try Self.array("/search?street=52+Aleksanterinkatu&city=Helsinki&format=jsonv2").first)
        #expect(v2["category"] as? String == "place" && v2["place_rank"] as? Int == 30 && v2["lat"] as? String == lat)
        let swedish = try #require(try Self.array("/search?q=Alexandersgatan+52&accept-language=sv").first)
        #expect(swedish["lat"] as? String == lat && (swedish["display_name"] as? String)?.hasPrefix("Alexandersgatan 52") == true)
        #expect(try Self.array("/search?q=Qqqxxzz+Street+5").isEmpty)
        #expect(try Self.array("/search?q=Stockmann&countrycodes=se").isEmpty, "the extract is in Finland")
        #expect(try Self.array("/search?q=Stockmann&countrycodes=fi,se").count >= 1)
        // bounded to a box around Senaatintori: Stockmann (600 m west) is outside.
        #expect(try Self.array("/search?q=Stockmann&viewbox=24.950,60.168,24.954,60.171&bounded=1").isEmpty)
    }

    @Test func geoJSONAndGeocodeJSON() throws {
        let geo = try ServiceFixture.get("/search?q=Senaatintori&format=geojson").json()
        #expect(geo["type"] as? String == "FeatureCollection")
        let feature = try #require((geo["features"] as? [[String: Any]])?.first)
        let coordinates = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        #expect(abs(coordinates[0] - 24.952) < 0.002 && abs(coordinates[1] - 60.1695) < 0.001, "longitude first")
        let geocode = try ServiceFixture.get("/search?q=Aleksanterinkatu+52&format=geocodejson").json()
        #expect((geocode["geocoding"] as? [String: Any])?["version"] as? String == "0.1.0")
        let properties = try #require(((geocode["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
        #expect(properties["type"] as? String == "house" && properties["housenumber"] as? String == "52")
    }

    @Test func reverseFindsTheHouseOrSaysUnableToGeocode() throws {
        let house = try ServiceFixture.get("/reverse?lat=60.16845&lon=24.94205&format=jsonv2").json()
        let address = try #require(house["address"] as? [String: String])
        #expect(address["road"] == "Aleksanterinkatu" && address["house_number"] == "52", "\(house)")
        let street = try ServiceFixture.get("/reverse?lat=60.16845&lon=24.94205&zoom=17").json()
        #expect((street["address"] as? [String: String])?["house_number"] == nil && (street["address"] as? [String: String])?["road"] != nil)
        let nothing = try ServiceFixture.get("/reverse?lat=10&lon=10").json()
        #expect(nothing["error"] as? String == "Unable to geocode")
    }

    @Test(arguments: [("/search?format=xml&q=a", "format"), ("/search?q=a&limit=41", "limit"), ("/search", "q"),
                      ("/search?q=a&street=b", "q"), ("/search?q=a&bounded=1", "bounded"), ("/search?q=a&viewbox=1,2,3", "viewbox"),
                      ("/reverse?lat=91&lon=0", "lat"), ("/reverse?lat=1", "lon"), ("/reverse?lat=1&lon=1&zoom=19", "zoom"),
                      ("/search?q=a&polygon=1", "polygon")])
    func badParametersAre400NamingThem(path: String, parameter: String) throws {
        let response = try ServiceFixture.get(path)
        #expect(response.status == 400, "\(path): \(response.status)")
        let error = try #require(try response.json()["error"] as? [String: Any])
        #expect(error["parameter"] as? String == parameter, "\(path): \(error)")
    }
}
