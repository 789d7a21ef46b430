import Foundation
import Testing
import TestSupport

/// End-to-end tests of `lookaround inspect` on the shipped Helsinki panoramas (the catalog
/// `SnapshotCLITests` indexes). The view is the demo's: Aleksanterinkatu looking west, where the
/// Burger King and Dressman labels are pinned on their signs.
@Suite struct InspectCLITests {
    static let view = ["--scene", "aleksanterinkatu-030", "--heading-degrees", "250", "--size", "960x540"]

    func inspect(_ arguments: [String]) throws -> ProcessResult {
        try Lookaround.run(["inspect", "--catalog", try SnapshotCLITests.setup.get().catalog] + arguments)
    }

    /// The number after `prefix` on the line starting with `label`.
    func number(in text: String, line label: String) -> Double? {
        guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(label) }) else { return nil }
        let digits = line.dropFirst(label.count).drop { $0 == " " }.prefix { "-0123456789.".contains($0) }
        return Double(digits)
    }

    @Test func signPixelNamesThePlace() throws {
        let result = try inspect(Self.view + ["--x", "918", "--y", "243"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("panorama   aleksanterinkatu-030"))
        #expect(result.stdout.contains("place      Burger King (fast_food"), "\(result.stdout)")
        #expect(result.stdout.contains("surface    raised"))
        let distance = try #require(number(in: result.stdout, line: "distance"))
        #expect((20...26).contains(distance), "\(result.stdout)")
        // Six decimals, near Aleksanterinkatu 13.
        let coordinate = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("coordinate") })
        #expect(coordinate.contains("60.1690") && coordinate.contains("24.9470"), "\(coordinate)")
        #expect(result.stderr.isEmpty)
    }

    @Test func groundPixelNamesTheStreetAndJSONParses() throws {
        let result = try inspect(Self.view + ["--x", "600", "--y", "450", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(json["surface"] as? String == "ground")
        #expect(json["panorama_id"] as? String == "aleksanterinkatu-030")
        let street = try #require(json["street"] as? [String: Any])
        #expect(street["name"] as? String == "Aleksanterinkatu")
        let point = try #require(json["point"] as? [String: Any])
        let height = try #require(point["height_above_ground_meters"] as? Double)
        #expect(abs(height) < 0.3)
        let latitude = try #require(point["latitude"] as? Double), longitude = try #require(point["longitude"] as? Double)
        #expect(abs(latitude - 60.16892) < 0.0002 && abs(longitude - 24.94728) < 0.0004, "\(point)")
        let view = try #require(json["view"] as? [String: Any])
        #expect(view["width"] as? Int == 960 && view["heading_degrees"] as? Double == 250)
        #expect(Set(view.keys) == ["heading_degrees", "pitch_degrees", "field_of_view_degrees", "width", "height"])
        #expect(json["place"] == nil)
    }

    @Test func skyPixelSaysSky() throws {
        let text = try inspect(Self.view + ["--x", "480.5", "--y", "50.5"])
        #expect(text.exitCode == 0, "\(text.stderr)")
        #expect(text.stdout.contains("sky        "))
        #expect(!text.stdout.contains("coordinate"))
        let json = try inspect(Self.view + ["--x", "480.5", "--y", "50.5", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["surface"] as? String == "sky")
        #expect(object["point"] == nil)
        let direction = try #require(object["direction"] as? [String: Any])
        #expect(try #require(direction["elevation_degrees"] as? Double) > 20)
    }

    @Test func defaultsMatchSnapshot() throws {
        // No --size, --heading-degrees or --pitch-degrees: snapshot's 1280x720, looking at the point, level.
        let result = try inspect(["--lat", "60.1699", "--lon", "24.9523", "--x", "640", "--y", "360"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.contains("field of view 90.0°, 1280x720"), "\(result.stdout)")
        #expect(result.stdout.contains("elevation 0.00°"), "\(result.stdout)")
    }

    @Test func noCoverageIsExitOneWithTheReason() throws {
        let result = try inspect(["--lat", "10", "--lon", "10", "--x", "1", "--y", "1"])
        #expect(result.exitCode == 1)
        #expect(result.stdout.contains("no coverage"))
        #expect(result.stdout.contains("nothing_within_radius"))
    }

    @Test(arguments: [
        (["--x", "961", "--y", "10"], "0…960"),
        (["--x", "-0.5", "--y", "10"], "0…960"),
        (["--x", "nan", "--y", "10"], "not a finite number"),
        (["--x", "10", "--y", "540.5"], "0…540"),
        (["--x", "10"], "--y"),
        (["--x", "10", "--y", "10", "--size", "960by540"], "WIDTHxHEIGHT"),
        (["--x", "10", "--y", "10", "--fov-degrees", "5"], "10…120"),
    ])
    func badInputIsUsageWithTheAllowedRange(arguments: [String], allowed: String) throws {
        let base = arguments.contains("--size") ? ["--scene", "aleksanterinkatu-030"] : Self.view
        let result = try inspect(base + arguments)
        #expect(result.exitCode == 64, "\(result.stdout) \(result.stderr)")
        #expect(result.stderr.contains(allowed), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func helpHasExamples() throws {
        let result = try Lookaround.run(["inspect", "--help"])
        #expect(result.exitCode == 0)
        for text in ["--x PX", "--y PX", "--json", "--heading-degrees", "--near", "Examples:", "lookaround inspect --lat"] {
            #expect(result.stdout.contains(text), "\(text)")
        }
        #expect(try Lookaround.run(["--help"]).stdout.contains("inspect"))
    }
}
