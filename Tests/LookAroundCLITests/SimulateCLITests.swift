import Foundation
import Testing
import TestSupport

@Suite struct SimulateCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let osm = root.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
    /// A small area at the east end of Aleksanterinkatu by Senaatintori.
    static let bbox = "60.1688,24.9510,60.1694,24.9525"

    @Test func writesCapturesAndSkipsThemTheSecondTime() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = ["simulate", "--osm", Self.osm, "--out", folder.path, "--streets", "Aleksanterinkatu", "--bbox", Self.bbox,
                         "--size", "64x32", "--depth-size", "32x16", "--samples", "1", "--limit", "2"]
        let first = try Lookaround.run(arguments)
        #expect(first.exitCode == 0, "\(first.stderr)")
        #expect(first.stdout.hasPrefix("wrote 2 captures, skipped 0 existing"))
        #expect(first.stderr.contains("2/2"))
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files == ["aleksanterinkatu-000.depth.png", "aleksanterinkatu-000.jpg", "aleksanterinkatu-000.json",
                          "aleksanterinkatu-000.labels.png", "aleksanterinkatu-001.depth.png", "aleksanterinkatu-001.jpg",
                          "aleksanterinkatu-001.json", "aleksanterinkatu-001.labels.png"])
        let bytes = try Data(contentsOf: folder.appendingPathComponent("aleksanterinkatu-000.jpg"))
        let second = try Lookaround.run(arguments)
        #expect(second.exitCode == 0)
        #expect(second.stdout.hasPrefix("wrote 0 captures, skipped 2 existing"))
        let forced = try Lookaround.run(arguments + ["--force"])
        #expect(forced.stdout.hasPrefix("wrote 2 captures"))
        // Deterministic: the same inputs give the same bytes.
        #expect(try Data(contentsOf: folder.appendingPathComponent("aleksanterinkatu-000.jpg")) == bytes)
    }

    @Test func rendersOnePinholeView() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-view-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("view.png").path
        let result = try Lookaround.run(["simulate", "--osm", Self.osm, "--bbox", Self.bbox, "--view", "60.16905,24.9515",
                                         "--heading-degrees", "80", "--size", "48x32", "--samples", "1", "-o", output])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let png = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(png.prefix(4) == Data([0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func badInputGetsTheDocumentedExitCodes() throws {
        let missing = try Lookaround.run(["simulate", "--osm", "/nonexistent.osm.pbf", "--out", "/tmp/x"])
        #expect(missing.exitCode == 66)
        #expect(missing.stderr.contains("no such file"))
        let size = try Lookaround.run(["simulate", "--osm", Self.osm, "--out", "/tmp/x", "--size", "100x100"])
        #expect(size.exitCode == 64)
        #expect(size.stderr.contains("twice as wide"))
        let street = try Lookaround.run(["simulate", "--osm", Self.osm, "--out", "/tmp/x", "--bbox", Self.bbox, "--streets", "Nowhere Street"])
        #expect(street.exitCode == 64)
        #expect(street.stderr.contains("Nowhere Street"))
        let samples = try Lookaround.run(["simulate", "--osm", Self.osm, "--out", "/tmp/x", "--samples", "0"])
        #expect(samples.exitCode == 64)
    }

    // MARK: Cities never seen (issue 54)

    static let grosserStern = root.appendingPathComponent("Tests/Fixtures/osm/grosser-stern/grosser-stern.osm").path
    static let harbour = root.appendingPathComponent("Tests/Fixtures/osm/harbour/harbour.osm").path

    /// The `<bounds>` of an OSM XML fixture: south, west, north, east.
    static func bounds(_ path: String) throws -> (Double, Double, Double, Double) {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        func value(_ name: String) throws -> Double {
            let start = try #require(text.range(of: "\(name)=\""))
            return try #require(Double(text[start.upperBound...].prefix { $0 != "\"" }))
        }
        return (try value("minlat"), try value("minlon"), try value("maxlat"), try value("maxlon"))
    }

    /// The Berlin case: the extract's longest street (Altonaer Straße, first by name) runs far outside its
    /// bounds. Every capture planned lies inside the bounds and 125 m (a quarter of the 500 m side; the
    /// default horizon would allow 150 m) from their edge, and the plan says what it dropped and why.
    @Test func capturesStayInsideTheDataAndAwayFromItsEdge() throws {
        let result = try Lookaround.run(["simulate", "--osm", Self.grosserStern, "--out", "/tmp/unused", "--dry-run", "--json", "--limit", "6"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let captures = try #require((try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])?["captures"] as? [[String: Any]])
        #expect(captures.count == 6)
        #expect(captures.first?["street_name"] as? String == "Altonaer Straße", "\(captures.map { $0["street_name"] ?? "" })")
        let (south, west, north, east) = try Self.bounds(Self.grosserStern)
        let metersPerDegreeLatitude = 111_260.0, metersPerDegreeLongitude = 111_320.0 * cos(52.5145 * .pi / 180)
        for capture in captures {
            let latitude = try #require(capture["latitude"] as? Double), longitude = try #require(capture["longitude"] as? Double)
            let inside = min((latitude - south) * metersPerDegreeLatitude, (north - latitude) * metersPerDegreeLatitude,
                             (longitude - west) * metersPerDegreeLongitude, (east - longitude) * metersPerDegreeLongitude)
            #expect(inside >= 124, "capture \(capture["id"] ?? "") at \(latitude),\(longitude) is \(inside) m inside the bounds")
        }
        #expect(result.stderr.contains("outside the extract's bounds"), "\(result.stderr)")
        #expect(result.stderr.contains("within 125 m of the extract's edge"), "\(result.stderr)")
        #expect(result.stderr.contains("captures on "), "\(result.stderr)")
        // A wider horizon keeps captures farther in, up to a quarter of the data's narrower side.
        let narrow = try Lookaround.run(["simulate", "--osm", Self.grosserStern, "--out", "/tmp/unused", "--dry-run", "--horizon-meters", "200"])
        #expect(narrow.exitCode == 0 && narrow.stderr.contains("within 50 m of the extract's edge"), "\(narrow.stderr)")
    }

    /// "buildings cover N % of the region" computes what it says: the harbour's 16 blocks (77,000 m²) on
    /// its 800 × 600 m of data are 16 %.
    @Test func theCoverageLineIsTheBuildingsShareOfTheMappedRegion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-coverage-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try Lookaround.run(["simulate", "--osm", Self.harbour, "--out", folder.path, "--streets", "Quai Albert 1er",
                                         "--size", "32x16", "--samples", "1", "--limit", "1"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("buildings cover 16 % of the 0.48 km² the data maps in the region"), "\(result.stderr)")
    }

    /// `--view` on water, inside a building or outside the data warns with the nearest street and how far it is
    /// (and still renders: the user may mean it).
    @Test func viewpointsOffTheStreetsAreWarnedAbout() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("simulate-viewpoint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("view.png").path
        // Metres of the harbour fixture's frame (origin 43.7350 N, 7.4230 E) in degrees.
        func view(_ east: Double, _ north: Double) -> String {
            String(format: "%.6f,%.6f", 43.7350 + north / 111_132.0, 7.4230 + east / (111_412.0 * cos(43.7350 * .pi / 180)))
        }
        let table: [(point: String, says: [String])] = [
            (view(20, -40), ["is on water", "the nearest street is Quai Albert 1er (tertiary), 95 m south"]),
            (view(-250, -240), ["is inside a building", "the nearest street is Boulevard Albert 1er (primary), 65 m north"]),
            (view(600, 0), ["lies 200 m outside the extract's bounds", "Boulevard Albert 1er (primary), 347 m south-west"]),
        ]
        for row in table {
            let result = try Lookaround.run(["simulate", "--osm", Self.harbour, "--view", row.point, "--size", "32x24", "--samples", "1",
                                             "-o", output])
            #expect(result.exitCode == 0, "\(result.stderr)")
            for phrase in row.says { #expect(result.stderr.contains(phrase), "\(row.point): \(result.stderr)") }
        }
        // On a street: no warning.
        let quay = try Lookaround.run(["simulate", "--osm", Self.harbour, "--view", view(0, -135), "--size", "32x24", "--samples", "1", "-o", output])
        #expect(quay.exitCode == 0 && !quay.stderr.contains("warning"), "\(quay.stderr)")
    }
}
