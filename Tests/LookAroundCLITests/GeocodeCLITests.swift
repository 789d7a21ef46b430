import Foundation
import Testing
import TestSupport

/// `lookaround geocode`, and addresses wherever a command asks for a place.
@Suite struct GeocodeCLITests {
    static let setup = Result { try Lookaround.indexShippedPanoramas() }

    static func run(_ arguments: [String]) throws -> ProcessResult {
        try Lookaround.run(arguments + ["--catalog", try setup.get().catalog])
    }

    static func object(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text.prefix(300))")
    }

    @Test func forwardAndReverseFromTheCommandLine() throws {
        let text = try Self.run(["geocode", "Aleksanterinkatu 52, Helsinki"])
        #expect(text.exitCode == 0 && text.stdout.hasPrefix("1. Aleksanterinkatu 52, 00100 Helsinki  [house; matched house, street, locality;"),
                "\(text.stdout)\(text.stderr)")
        let json = try Self.run(["geocode", "Alexandersgatan 52", "--language", "sv", "--json", "--limit", "1"])
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(answers.count == 1 && answers[0]["name"] as? String == "Alexandersgatan 52" && answers[0]["precision"] as? String == "house")
        let structured = try Self.run(["geocode", "--street", "52 Aleksanterinkatu", "--postcode", "00100", "--limit", "1"])
        #expect(structured.exitCode == 0 && structured.stdout.contains("Aleksanterinkatu 52, 00100 Helsinki"))
        let reverse = try Self.run(["geocode", "--reverse", "60.16845,24.94205"])
        #expect(reverse.exitCode == 0 && reverse.stdout.hasPrefix("Aleksanterinkatu 52, "), "\(reverse.stdout)")
        #expect(reverse.stdout.contains("house      Aleksanterinkatu 52, 00100 Helsinki"))
        let reverseJSON = try Self.object(try Self.run(["geocode", "--reverse", "60.16845,24.94205", "--json"]).stdout)
        #expect((reverseJSON["address"] as? [String: Any])?["house_number"] as? String == "52")
        // Nothing found is exit code 1 with a sentence; bad input is a usage error naming it.
        let none = try Self.run(["geocode", "Qqqxxzz Street 5"])
        #expect(none.exitCode == 1 && none.stdout.contains("nothing matches 'Qqqxxzz Street 5'"))
        let far = try Self.run(["geocode", "--reverse", "10,10"])
        #expect(far.exitCode == 1 && far.stdout.contains("no address or named street within 100 m"))
        let empty = try Self.run(["geocode"])
        #expect(empty.exitCode == 64 && empty.stderr.contains("give TEXT"), "\(empty.stderr)")
        let both = try Self.run(["geocode", "Stockmann", "--reverse", "60.1,24.9"])
        #expect(both.exitCode == 64 && both.stderr.contains("not both"))
        let radius = try Self.run(["geocode", "--reverse", "60.1,24.9", "--radius-meters", "nan"])
        #expect(radius.exitCode == 64 && radius.stderr.contains("--radius-meters"))
    }

    /// The reverse answer's JSON, key by key: its address is one flat object (``CatalogAddress`` holds
    /// a ``MapData/AddressPoint`` and encodes it as it did when it had fields of its own).
    @Test func reverseJSONKeepsItsShape() throws {
        let answer = try Self.object(try Self.run(["geocode", "--reverse", "60.16845,24.94205", "--json"]).stdout)
        #expect(Set(answer.keys) == ["address", "address_distance_meters", "city", "coordinate", "neighbourhood", "postcode",
                                     "street", "street_distance_meters"])
        let address = try #require(answer["address"] as? [String: Any])
        #expect(Set(address.keys) == ["city", "coordinate", "house_number", "id", "is_interpolated", "osm", "postcode", "street"])
        #expect(address["id"] is Int && (address["id"] as? Int ?? 0) >= 1)
        #expect(address["osm"] as? String == "node/6049453018" && address["house_number"] as? String == "52")
        #expect(address["street"] as? String == "Aleksanterinkatu" && address["postcode"] as? String == "00100")
        #expect(address["city"] as? String == "Helsinki" && address["is_interpolated"] as? Bool == false)
        let coordinate = try #require(address["coordinate"] as? [String: Any])
        #expect(Set(coordinate.keys) == ["latitude", "longitude"])
        #expect(abs((coordinate["latitude"] as? Double ?? 0) - 60.1684825) < 1e-9 && abs((coordinate["longitude"] as? Double ?? 0) - 24.9419513) < 1e-9)
        #expect(abs((answer["address_distance_meters"] as? Double ?? 0) - 6.5678) < 0.001)
        #expect(answer["neighbourhood"] as? String == "Keskusta" && answer["street"] as? String == "Aleksanterinkatu")
        // The text form names the element the address came from.
        let text = try Self.run(["geocode", "--reverse", "60.16845,24.94205"]).stdout
        #expect(text.contains("house      Aleksanterinkatu 52, 00100 Helsinki (node/6049453018), 6.6 m away"), "\(text)")
    }

    @Test func anAddressWorksWhereverAPlaceIsAskedFor() throws {
        // scene: the nearest panorama to the house, what matched, and the panorama's own address.
        let scene = try Self.object(try Self.run(["scene", "--near", "Aleksanterinkatu 52, Helsinki", "--json"]).stdout)
        #expect(scene["found"] as? Bool == true)
        let matched = try #require(scene["matched"] as? [String: Any])
        #expect(matched["precision"] as? String == "house" && matched["display_name"] as? String == "Aleksanterinkatu 52, 00100 Helsinki")
        let address = try #require(scene["address"] as? [String: Any])
        #expect(address["street"] is String && address["city"] as? String == "Helsinki")
        // snapshot looks at the building from there, and says where it stands.
        let out = try Lookaround.temporaryDirectory().appendingPathComponent("house.png").path
        let snapshot = try Self.run(["snapshot", "--near", "Aleksanterinkatu 52, Helsinki", "--size", "160x90", "-o", out])
        #expect(snapshot.exitCode == 0 && snapshot.stdout.contains("place      Aleksanterinkatu 52\n"), "\(snapshot.stdout)")
        #expect(snapshot.stdout.contains("address    "))
        // walk between two addresses given as people write them.
        let walk = try Self.run(["walk", "--from", "Aleksanterinkatu 52", "--to", "Senaatintori, Helsinki", "--dry-run"])
        #expect(walk.exitCode == 0, "\(walk.stderr)")
        // inspect: the facade south of aleksanterinkatu-006 is Stockmann's, Aleksanterinkatu 52.
        let inspect = try Self.object(try Self.run(["inspect", "--scene", "aleksanterinkatu-006", "--heading-degrees", "180",
                                                    "--size", "320x180", "--x", "160", "--y", "60", "--json"]).stdout)
        let hit = try #require(inspect["address"] as? [String: Any], "\(inspect)")
        #expect(hit["house_number"] as? String == "52" && hit["street"] as? String == "Aleksanterinkatu")
        #expect((hit["distance_meters"] as? Double ?? 99) <= 30)
    }
}
