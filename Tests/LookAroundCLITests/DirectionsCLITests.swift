import Foundation
import Imaging
import Testing
import TestSupport

/// `lookaround directions`, `map --route-from/--route-to` and the directions routes of `serve`, run as a
/// user runs them: the built executable, its stdout, stderr and exit code; routingpy as an OSRM client.
@Suite struct DirectionsCLITests {
    enum MapDefaults {
        static let helsinki = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
    }

    static func catalog() throws -> String { try SnapshotCLITests.setup.get().catalog }

    @Test func helpTeachesTheCommand() throws {
        let result = try Lookaround.run(["directions", "--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("--mode MODE") && result.stdout.contains("walking, cycling, driving"))
        #expect(result.stdout.contains("lookaround directions --from Senaatintori --to Stockmann"))
    }

    @Test func badValuesAreUsageErrorsNamingTheAllowedOnes() throws {
        let mode = try Lookaround.run(["directions", "--from", "60.1699,24.9523", "--to", "60.1686,24.9417", "--mode", "flying"])
        #expect(mode.exitCode == 64)
        #expect(mode.stderr.contains("flying") && mode.stderr.contains("walking"), "\(mode.stderr)")
        let latitude = try Lookaround.run(["directions", "--from", "95,24.9523", "--to", "60.1686,24.9417"])
        #expect(latitude.exitCode == 64 && latitude.stderr.contains("95"), "\(latitude.stderr)")
        let both = try Lookaround.run(["directions", "--from", "60.1699,24.9523", "--to", "60.1686,24.9417", "--json", "--geojson"])
        #expect(both.exitCode == 64)
    }

    @Test func walkingDirectionsBetweenPlacesWithStepsAndPreviews() throws {
        let previews = try Lookaround.temporaryDirectory()
        let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
        let result = try Lookaround.run(["directions", "--catalog", try Self.catalog(), "--osm", osm, "--from", "Senaatintori", "--to", "Stockmann",
                                         "--previews", previews.path, "--preview-size", "160x90", "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let route = try #require((report["routes"] as? [[String: Any]])?.first)
        let distance = try #require(route["distance_meters"] as? Double)
        #expect(distance > 500 && distance < 900, "\(distance)")
        let steps = try #require(route["steps"] as? [[String: Any]])
        #expect((steps.first?["maneuver"] as? [String: Any])?["type"] as? String == "depart")
        #expect(steps.last?["instructions"] as? String == "Arrive at Stockmann")
        #expect(steps.contains { $0["instructions"] as? String == "Turn left onto Unioninkatu" }, "\(steps.map { $0["instructions"] ?? "" })")
        #expect(report["attribution"] as? String == "© OpenStreetMap contributors")
        // Previews look along the new street: the heading is within 60° of the street's bearing after the turn.
        var looked = 0
        for step in steps {
            guard let preview = step["preview"] as? [String: Any], let maneuver = step["maneuver"] as? [String: Any],
                  maneuver["type"] as? String != "arrive", let heading = preview["heading_degrees"] as? Double,
                  let after = maneuver["bearing_after_degrees"] as? Double, let path = preview["path"] as? String else { continue }
            var difference = abs(heading - after).truncatingRemainder(dividingBy: 360)
            if difference > 180 { difference = 360 - difference }
            #expect(difference < 60, "step \(step["instructions"] ?? ""): view \(heading)°, street \(after)°")
            let image = try JPEGCodec.decodeRGB(try ImageFile.read(path)).image
            #expect(image.width == 160 && image.height == 90)
            looked += 1
        }
        #expect(looked >= 3)
        // The text form.
        let text = try Lookaround.run(["directions", "--catalog", try Self.catalog(), "--osm", osm, "--from", "Senaatintori", "--to", "Stockmann"])
        #expect(text.exitCode == 0 && text.stdout.contains("route 1 ") && text.stdout.contains("Turn left onto Unioninkatu"), "\(text.stdout)")
        #expect(text.stdout.contains("© OpenStreetMap contributors"))
    }

    /// `index --osm` stores the routing graph in the catalog; `directions`, `map --route-from` and `walk`
    /// then route over it without `--osm`. Munich's extract is indexed, so a route in Munich proves the
    /// stored graph was used (without it they would build the default Helsinki extract's and find no street).
    @Test func indexStoresTheGraphAndDirectionsUseItWithoutOSM() throws {
        let folder = try Lookaround.temporaryDirectory()
        let panoramas = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: panoramas, withIntermediateDirectories: true)
        let munich = Lookaround.repository.appendingPathComponent("Tests/Fixtures/osm/munich-centre-2020-07.osm.pbf").path
        let osm = folder.appendingPathComponent("munich.osm.pbf").path
        try FileManager.default.copyItem(atPath: munich, toPath: osm)
        let catalog = folder.appendingPathComponent("munich.sqlite").path
        let index = try Lookaround.run(["index", panoramas.path, "--catalog", catalog, "--osm", osm, "--no-derived-maps", "--quiet"])
        #expect(index.exitCode == 0, "\(index.stderr)")
        #expect(index.stdout.contains("routing     graph of ") && index.stdout.contains("built in"), "\(index.stdout)")
        // Marienplatz to Karlsplatz (Stachus), walking.
        let ends = ["--from", "48.13730,11.57540", "--to", "48.13900,11.56580"]
        let stored = try Lookaround.run(["directions", "--catalog", catalog] + ends + ["--json"])
        #expect(stored.exitCode == 0, "\(stored.stderr)")
        let built = try Lookaround.run(["directions", "--catalog", catalog, "--osm", osm] + ends + ["--json"])
        #expect(built.exitCode == 0, "\(built.stderr)")
        #expect(stored.stdout == built.stdout, "the stored graph and the extract's give the same routes")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(stored.stdout.utf8)) as? [String: Any])
        let distance = try #require((report["routes"] as? [[String: Any]])?.first?["distance_meters"] as? Double)
        #expect(distance > 650 && distance < 1_100, "\(distance)")
        // Without the catalog's graph the default (Helsinki) extract has no street in Munich.
        let helsinki = try Lookaround.run(["directions", "--catalog", catalog, "--osm", MapDefaults.helsinki] + ends)
        #expect(helsinki.exitCode == 1 && helsinki.stderr.contains("no street open to walking"), "\(helsinki.stderr)")
        // The map draws the same route from the stored graph.
        let png = folder.appendingPathComponent("route.png").path
        let map = try Lookaround.run(["map", "--catalog", catalog, "--osm", osm, "--route-from", "48.13730,11.57540",
                                      "--route-to", "48.13900,11.56580", "--size", "300x200", "-o", png])
        #expect(map.exitCode == 0, "\(map.stderr)")
        // serve without --osm answers from the catalog's graph too (its maps would come from the extract beside the catalog: none here).
        let server = try ServeCLITests.Server(["--catalog", catalog])
        defer { _ = server.terminate() }
        let client = try RawHTTPClient(port: server.port)
        let native = try client.get("/v1/directions?from=48.13730,11.57540&to=48.13900,11.56580")
        #expect(native.status == 200 && native.text.contains("\"distance_meters\""), "\(native.text.prefix(300))")
        let osrm = try client.get("/route/v1/foot/11.57540,48.13730;11.56580,48.13900?steps=true")
        #expect(osrm.status == 200 && osrm.text.contains("\"code\":\"Ok\""), "\(osrm.text.prefix(300))")
        // A second index run over the unchanged extract keeps the graph; --full builds it again.
        let again = try Lookaround.run(["index", panoramas.path, "--catalog", catalog, "--osm", osm, "--no-derived-maps", "--quiet"])
        #expect(again.stdout.contains("kept (the OSM files are unchanged)"), "\(again.stdout)")
        let full = try Lookaround.run(["index", panoramas.path, "--catalog", catalog, "--osm", osm, "--no-derived-maps", "--quiet", "--full"])
        #expect(full.stdout.contains("built in"), "\(full.stdout)")
        // --help says where the graph comes from.
        let help = try Lookaround.run(["directions", "--help"])
        #expect(help.stdout.contains("routing graph 'lookaround index --osm' stored in the catalog"), "\(help.stdout)")
    }

    @Test func noRouteIsExitOneNamingWhy() throws {
        let result = try Lookaround.run(["directions", "--from", "60.30,25.30", "--to", "60.1686,24.9417", "--mode", "driving"])
        #expect(result.exitCode == 1)
        #expect(result.stderr.contains("no street open to driving within 250 m of the start"), "\(result.stderr)")
    }

    @Test func geoJSONRoutesAndTheMapDrawsTheRoute() throws {
        let folder = try Lookaround.temporaryDirectory()
        let geojson = try Lookaround.run(["directions", "--from", "60.1699,24.9523", "--to", "60.1686,24.9417", "--mode", "driving", "--geojson"])
        #expect(geojson.exitCode == 0, "\(geojson.stderr)")
        let collection = try #require(try JSONSerialization.jsonObject(with: Data(geojson.stdout.utf8)) as? [String: Any])
        let features = try #require(collection["features"] as? [[String: Any]])
        #expect((features.first?["geometry"] as? [String: Any])?["type"] as? String == "LineString")
        let output = folder.appendingPathComponent("route.png").path
        let map = try Lookaround.run(["map", "--route-from", "60.1699,24.9523", "--route-to", "60.1686,24.9417", "--size", "400x300", "-o", output])
        #expect(map.exitCode == 0, "\(map.stderr)")
        let image = try PNGCodec.decodeRGB(try ImageFile.read(output))
        // Route blue (0, 122, 255) is drawn.
        var blue = 0
        for y in 0..<image.height { for x in 0..<image.width {
            let r = image[x, y, 0], g = image[x, y, 1], b = image[x, y, 2]
            if r < 40, g > 100, g < 150, b > 230 { blue += 1 }
        } }
        #expect(blue > 300, "\(blue) route-blue pixels")
        let half = try Lookaround.run(["map", "--route-from", "60.1699,24.9523", "-o", output])
        #expect(half.exitCode == 64 && half.stderr.contains("--route-to"))
    }

    @Test func serveAnswersDirectionsAndOSRMClientsWorkUnchanged() throws {
        let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path
        let server = try ServeCLITests.Server(["--catalog", try Self.catalog(), "--osm", osm])
        defer { _ = server.terminate() }
        let client = try RawHTTPClient(port: server.port)
        let native = try client.get("/v1/directions?from=Senaatintori&to=Stockmann&previews=true")
        #expect(native.status == 200, "\(native.text.prefix(300))")
        #expect(native.text.contains("\"instructions\":\"Turn left onto Unioninkatu\"") && native.text.contains("\"snapshot_url\""))
        let osrm = try client.get("/route/v1/driving/24.9523,60.1699;24.9417,60.1686?steps=true&geometries=geojson")
        #expect(osrm.status == 200 && osrm.text.contains("\"code\":\"Ok\"") && osrm.text.contains("\"bearing_before\""))
        let badProfile = try client.get("/route/v1/boat/24.9523,60.1699;24.9417,60.1686")
        #expect(badProfile.status == 400 && badProfile.text.contains("InvalidOptions"))
        let nowhere = try client.get("/v1/directions?from=60.3,25.3&to=60.1686,24.9417")
        #expect(nowhere.status == 404 && nowhere.text.contains("no_street_near_source"))
        // routingpy's OSRM client, pointed at the server, unchanged.
        let script = Lookaround.repository.appendingPathComponent("scripts/routingpy_client.py").path
        let output = try PeerScript.run(script, ["http://127.0.0.1:\(server.port)"])
        let answers = try #require(try JSONSerialization.jsonObject(with: output) as? [String: Any])
        for profile in ["driving", "foot", "bike"] {
            let answer = try #require(answers[profile] as? [String: Any], "\(profile)")
            let distance = answer["distance"] as? Int ?? 0, points = answer["points"] as? Int ?? 0
            #expect(distance > 500 && points > 10, "\(profile): \(answer)")
            let maneuvers = try #require(answer["maneuvers"] as? [[String: Any]])
            #expect(maneuvers.first?["type"] as? String == "depart" && maneuvers.last?["type"] as? String == "arrive")
        }
        let alternatives = (answers["alternatives"] as? [Any])?.count ?? 0
        #expect(alternatives >= 2)
    }
}
