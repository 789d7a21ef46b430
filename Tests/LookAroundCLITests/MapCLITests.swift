import Foundation
import Imaging
import Testing
import TestSupport

@Suite struct MapCLITests {
    /// The shipped extract, by absolute path (the CLI runs in a temporary folder).
    static let osm = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    @Test func rendersAPNGWithPins() throws {
        let directory = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["map", "--osm", Self.osm, "--center", "60.1699,24.9450", "--span-meters", "600",
                                         "--size", "320x200", "--scale", "2", "--pin", "60.16952,24.95239,Senaatintori",
                                         "--save-camera", "camera.json", "-o", "map.png"], in: directory)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("wrote map.png (640x400 pixels, standard"))
        let image = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("map.png").path))
        #expect(image.width == 640 && image.height == 400)
        // The saved camera restores the same view.
        let again = try Lookaround.run(["map", "--osm", Self.osm, "--camera", "camera.json", "--size", "320x200", "--scale", "2",
                                        "--pin", "60.16952,24.95239,Senaatintori", "-o", "again.png"], in: directory)
        #expect(again.exitCode == 0, "\(again.stderr)")
        let second = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("again.png").path))
        #expect(second == image)
    }

    /// Imagery is the simulator's city seen from straight above: roofs, not the vector map's flat fills.
    @Test func imageryComesFromTheSimulator() throws {
        let directory = try Lookaround.temporaryDirectory()
        let common = ["map", "--osm", Self.osm, "--center", "60.1695,24.9500", "--span-meters", "300", "--size", "128x128"]
        let imagery = try Lookaround.run(common + ["--type", "imagery", "-o", "imagery.png"], in: directory)
        let standard = try Lookaround.run(common + ["-o", "standard.png"], in: directory)
        #expect(imagery.exitCode == 0 && standard.exitCode == 0, "\(imagery.stderr)\(standard.stderr)")
        #expect(imagery.stdout.hasPrefix("wrote imagery.png (128x128 pixels, imagery"))
        let a = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("imagery.png").path))
        let b = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("standard.png").path))
        #expect(ImageMetrics.psnr(a, b) < 20, "imagery should look unlike the vector map")
    }

    /// Imagery is built for the map's rectangle only: a map far from the data has no city to build (it
    /// used to build the whole extract's) and still draws; a coarse map of the whole extract leaves plants
    /// out, and looks like the fine map where they are not.
    @Test func imageryIsBuiltForTheMapOnly() throws {
        let directory = try Lookaround.temporaryDirectory()
        let far = try Lookaround.run(["map", "--osm", Self.osm, "--center", "60.30,25.30", "--span-meters", "400", "--size", "64x64",
                                      "--type", "imagery", "-o", "far.png"], in: directory)
        #expect(far.exitCode == 0 && far.stdout.hasPrefix("wrote far.png (64x64 pixels, imagery"), "\(far.stderr)")
        // The same square of Senaatintori (no trees on it) at 4.7 and 1.2 m per pixel.
        let common = ["map", "--osm", Self.osm, "--center", "60.16952,24.95239", "--type", "imagery", "--no-buildings"]
        let coarse = try Lookaround.run(common + ["--span-meters", "1200", "--size", "256x256", "-o", "coarse.png"], in: directory)
        let fine = try Lookaround.run(common + ["--span-meters", "300", "--size", "256x256", "-o", "fine.png"], in: directory)
        #expect(coarse.exitCode == 0 && fine.exitCode == 0, "\(coarse.stderr)\(fine.stderr)")
        let a = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("coarse.png").path))
        let b = try PNGCodec.decodeRGBA(ImageFile.read(directory.appendingPathComponent("fine.png").path))
        // The centre 16 × 16 pixels of the coarse map are the fine map's centre 64 × 64, downscaled.
        func mean(_ image: RGBA8Image, _ half: Int) -> [Double] {
            var sums = [0.0, 0.0, 0.0]
            for y in (128 - half)..<(128 + half) { for x in (128 - half)..<(128 + half) { for c in 0..<3 { sums[c] += Double(image[x, y, c]) } } }
            return sums.map { $0 / Double(4 * half * half) }
        }
        let (m, n) = (mean(a, 8), mean(b, 32))
        #expect(zip(m, n).allSatisfy { abs($0 - $1) < 12 }, "coarse \(m), fine \(n)")
    }

    @Test func coverageComesFromTheCatalog() throws {
        let setup = try CatalogCLITests.setUp()
        #expect(setup.indexResult.exitCode == 0, "\(setup.indexResult.stderr)")
        let common = ["map", "--osm", Self.osm, "--center", "60.1695,24.9480", "--span-meters", "500",
                      "--size", "256x256", "--no-buildings"]
        let plain = try Lookaround.run(common + ["-o", "plain.png"], in: setup.root)
        let covered = try Lookaround.run(common + ["--coverage", "--catalog", setup.catalog, "-o", "covered.png"],
                                         in: setup.root)
        #expect(plain.exitCode == 0 && covered.exitCode == 0, "\(covered.stderr)")
        let a = try PNGCodec.decodeRGBA(ImageFile.read(setup.root.appendingPathComponent("plain.png").path))
        let b = try PNGCodec.decodeRGBA(ImageFile.read(setup.root.appendingPathComponent("covered.png").path))
        #expect(ImageMetrics.differingPixelFraction(a, b, threshold: 8) > 0.0005, "coverage drew nothing")
        let missing = try Lookaround.run(common + ["--coverage", "--catalog", "nowhere.sqlite", "-o", "x.png"],
                                         in: setup.root)
        #expect(missing.exitCode == 66, "\(missing.stderr)")
        #expect(missing.stderr.contains("nowhere.sqlite"))
    }

    @Test func overlaysRoutesAndCoverageFromGeoJSON() throws {
        let directory = try Lookaround.temporaryDirectory()
        let route = #"{"type": "LineString", "coordinates": [[24.940, 60.168], [24.946, 60.171], [24.950, 60.170]]}"#
        let overlay = ##"{"type": "Feature", "properties": {"fill": "#ff0000", "blend-mode": "multiply", "radius-meters": 80, "opacity": 0.6}, "geometry": {"type": "Point", "coordinates": [24.945, 60.170]}}"##
        let coverage = #"{"type": "MultiPoint", "coordinates": [[24.944, 60.170], [24.9442, 60.1701]]}"#
        for (name, text) in [("route.geojson", route), ("overlay.geojson", overlay), ("coverage.geojson", coverage)] {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        let result = try Lookaround.run(["map", "--osm", Self.osm, "--center", "60.1699,24.9450", "--span", "0.006,0.012",
                                         "--size", "300x200", "--type", "muted", "--route", "route.geojson",
                                         "--overlay", "overlay.geojson", "--coverage-file", "coverage.geojson",
                                         "--poi-include", "culture,transport", "-o", "o.png"], in: directory)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("o.png").path))
    }

    @Test func flightWritesFrames() throws {
        let directory = try Lookaround.temporaryDirectory()
        let result = try Lookaround.run(["map", "--osm", Self.osm, "--fly-from", "60.1699,24.9523", "--fly-to", "60.1655,24.9395",
                                         "--frames", "3", "--size", "160x120", "-o", "flight"], in: directory)
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stdout.hasPrefix("direct flight, 0.86 km"), "\(result.stdout)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("flight").path).sorted()
        #expect(files == ["frame-0000.png", "frame-0001.png", "frame-0002.png"])
    }

    @Test(arguments: [
        (["--span", "0.01,0.01"], 64, "--span needs --center"),
        (["--center", "60.17,24.94", "--span", "0.01"], 64, "--span '0.01' is not DLAT,DLON"),
        (["--center", "95,24.94"], 64, "--center latitude 95 is out of range; allowed -90…90"),
        (["--camera", "60.17,24.94,0"], 64, "--camera distance 0 is out of range"),
        (["--size", "0x10"], 64, "--size"),
        (["--scale", "9"], 64, "--scale 9 is out of range; allowed 1…4"),
        (["--pin", "60.17"], 64, "--pin '60.17' is not LAT,LON[,TITLE]"),
        (["--poi-include", "cafes"], 64, "unknown place group 'cafes'"),
        (["--fly-from", "60.17,24.94"], 64, "a flight needs both --fly-from LAT,LON and --fly-to LAT,LON"),
        (["--overlay", "/nonexistent/x.geojson"], 66, "/nonexistent/x.geojson: no such file"),
        (["--osm", "/nonexistent/x.osm.pbf"], 66, "/nonexistent/x.osm.pbf"),
    ])
    func badInputExitsWithTheRightCode(extra: [String], code: Int32, message: String) throws {
        let directory = try Lookaround.temporaryDirectory()
        var arguments = ["map", "--osm", Self.osm, "-o", "x.png"]
        arguments += extra
        if let i = extra.firstIndex(of: "--osm") { arguments[2] = extra[i + 1]; arguments.removeLast(2) }
        let result = try Lookaround.run(arguments, in: directory)
        #expect(result.exitCode == code, "\(result.stderr)")
        #expect(result.stderr.contains(message), "stderr: \(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("x.png").path))
    }

    @Test func malformedGeoJSONIsBadDataNamingFileAndPath() throws {
        let directory = try Lookaround.temporaryDirectory()
        let text = #"{"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[24.9, 60.1], "x"]}}]}"#
        try Data(text.utf8).write(to: directory.appendingPathComponent("bad.geojson"))
        let result = try Lookaround.run(["map", "--osm", Self.osm, "--overlay", "bad.geojson", "-o", "x.png"], in: directory)
        #expect(result.exitCode == 65)
        #expect(result.stderr.contains("bad.geojson: GeoJSON at features[0].geometry.coordinates[1]"), "\(result.stderr)")
    }

    @Test func helpDocumentsGeoJSONStylingAndFlights() throws {
        let result = try Lookaround.run(["map", "--help"])
        #expect(result.exitCode == 0)
        for word in ["stroke-width", "blend-mode", "above-labels", "radius-meters", "--fly-from", "2.5 km", "© OpenStreetMap contributors"] {
            #expect(result.stdout.contains(word), "help lacks \(word)")
        }
    }
}
