import Foundation
import Testing
import TestSupport

/// Photos without depth and label maps, indexed with the OSM extract that covers them: the index aligns
/// their pose with the city model and derives their maps, so they get labels. Truth comes from the
/// shipped panoramas, rendered from this extract at known poses: each is copied without its EXIF and
/// XMP (so nothing says it is simulated, or where it was), with a sidecar whose heading and position
/// are disturbed as a phone's compass and GPS disturb them.
@Suite struct DerivedMapsCLITests {
    static let shipped = Lookaround.repository.appendingPathComponent("Panoramas/helsinki")
    static let osm = Lookaround.repository.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path

    struct Truth: Decodable { var latitude: Double; var longitude: Double; var headingDegrees: Double; var captureTime: String }

    /// Panorama, heading disturbance (degrees), position disturbance east and north (metres).
    static let cases: [(id: String, heading: Double, east: Double, north: Double)] = [
        ("aleksanterinkatu-010", 7.4, 3.1, -3.0), ("pohjoisesplanadi-020", 26.5, -2.2, 3.7),
        ("senaatintori-004", -28.3, 1.5, 3.0), ("mannerheimintie-015", 8.9, -4.0, -2.4),
    ]

    static func truth(_ id: String) throws -> Truth {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        return try decoder.decode(Truth.self, from: Data(contentsOf: shipped.appendingPathComponent("\(id).json")))
    }

    /// The JPEG without its APP1 segments (EXIF, XMP): the picture alone.
    static func withoutMetadata(_ jpeg: [UInt8]) throws -> [UInt8] {
        var out = Array(jpeg[0..<2]), i = 2
        while i + 4 <= jpeg.count {
            let marker = jpeg[i + 1]
            if marker == 0xDA { out += jpeg[i...]; return out }
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if marker != 0xE1 { out += jpeg[i..<(i + 2 + length)] }
            i += 2 + length
        }
        throw CocoaError(.fileReadCorruptFile)
    }

    /// The disturbed photos indexed with the extract: (folder, catalog, index result).
    static let indexed = Result { () throws -> (photos: URL, catalog: String, result: ProcessResult) in
        let root = try Lookaround.temporaryDirectory()
        let photos = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        for c in cases {
            let jpeg = [UInt8](try Data(contentsOf: shipped.appendingPathComponent("\(c.id).jpg")))
            try Data(try withoutMetadata(jpeg)).write(to: photos.appendingPathComponent("\(c.id).jpg"))
            let t = try truth(c.id)
            let latitude = t.latitude + c.north / 111_320, longitude = t.longitude + c.east / (111_320 * cos(t.latitude * .pi / 180))
            let sidecar: [String: Any] = ["latitude": latitude, "longitude": longitude, "heading_degrees": t.headingDegrees + c.heading,
                                          "camera_height_meters": 2.5, "capture_time": t.captureTime]
            try JSONSerialization.data(withJSONObject: sidecar).write(to: photos.appendingPathComponent("\(c.id).json"))
        }
        let catalog = root.appendingPathComponent("photos.sqlite").path
        return (photos, catalog, try Lookaround.run(["index", photos.path, "--catalog", catalog, "--osm", osm, "-q"]))
    }

    static func record(_ id: String, catalog: String) throws -> [String: Any] {
        let result = try Lookaround.run(["scene", "--catalog", catalog, "--id", id, "--json"])
        #expect(result.exitCode == 0, "\(result.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
        return try #require(object?["panorama"] as? [String: Any])
    }

    static func difference(_ a: Double, _ b: Double) -> Double {
        var d = (a - b).truncatingRemainder(dividingBy: 360)
        if d > 180 { d -= 360 } else if d < -180 { d += 360 }
        return d
    }

    @Test func disturbedPhotosGetTheirPoseBackAndDerivedMaps() throws {
        let (photos, catalog, result) = try Self.indexed.get()
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("derived     depth and labels of \(Self.cases.count) photos from OpenStreetMap"), "\(result.stdout)")
        for c in Self.cases {
            let record = try Self.record(c.id, catalog: catalog), truth = try Self.truth(c.id)
            let heading = try #require(record["heading_degrees"] as? Double)
            #expect(abs(Self.difference(heading, truth.headingDegrees)) < 2, "\(c.id): heading \(heading), truth \(truth.headingDegrees)")
            #expect(record["heading_source"] as? String == "aligned" && record["maps_source"] as? String == "derived", "\(c.id)")
            let alignment = try #require(record["alignment"] as? [String: Any])
            #expect(alignment["applied"] as? Bool == true, "\(c.id): \(alignment)")
            let correction = try #require(alignment["heading_correction_degrees"] as? Double)
            #expect(abs(correction + c.heading) < 2, "\(c.id): correction \(correction) for a disturbance of \(c.heading)")
            let depth = try #require(record["depth_path"] as? String)
            #expect(depth.hasSuffix("photos.derived/\(c.id).depth.png") && FileManager.default.fileExists(atPath: depth), "\(depth)")
        }
        // The photos' folder is left as it was: the maps go beside the catalog.
        let left = try FileManager.default.contentsOfDirectory(atPath: photos.path).sorted()
        #expect(left == Self.cases.flatMap { ["\($0.id).jpg", "\($0.id).json"] }.sorted())

        // A second run keeps the maps and the aligned pose of unchanged photos.
        let again = try Lookaround.run(["index", photos.path, "--catalog", catalog, "--osm", Self.osm])
        #expect(again.exitCode == 0 && !again.stdout.contains("derived     "), "\(again.stdout)")
        #expect(again.stdout.contains("\(Self.cases.count) unchanged"), "\(again.stdout)")
        let kept = try Self.record(Self.cases[0].id, catalog: catalog)
        #expect(kept["maps_source"] as? String == "derived" && kept["heading_source"] as? String == "aligned")
    }

    /// The labels of a disturbed, realigned photo land within 1° of where the shipped panorama (its
    /// measured maps, its true pose) puts them, in every direction.
    @Test func aRealignedPhotoGetsItsLabelsBack() throws {
        let catalog = try Self.indexed.get().catalog
        let shipped = try Lookaround.indexShippedPanoramas().catalog
        var compared = 0, missing: [String] = [], largest = 0.0
        for id in ["aleksanterinkatu-010", "senaatintori-004"] {
            for heading in stride(from: 0.0, to: 360, by: 60) {
                func labels(_ catalog: String) throws -> [(name: String, x: Double, distance: Double)] {
                    let out = try Lookaround.temporaryDirectory().appendingPathComponent("view.png").path
                    let result = try Lookaround.run(["snapshot", "--catalog", catalog, "--scene", id, "--heading-degrees", "\(heading)",
                                                     "--size", "900x500", "--fov-degrees", "90", "--labels", "all", "-o", out, "--json"])
                    #expect(result.exitCode == 0, "\(result.stderr)")
                    let report = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
                    return (report?["labels"] as? [[String: Any]] ?? []).compactMap { label in
                        guard let name = label["name"] as? String, let x = label["x"] as? Double,
                              let distance = label["distance_meters"] as? Double else { return nil }
                        return (name, x, distance)
                    }
                }
                let ours = try labels(catalog)
                for (name, x, distance) in try labels(shipped) {
                    // Two places may share a name (the square and its tram stop): the nearest of that name.
                    guard let y = ours.filter({ $0.name == name }).map(\.x).min(by: { abs($0 - x) < abs($1 - x) }) else {
                        missing.append("\(id) \(heading)° \(name)")
                        continue
                    }
                    // 900 pixels over 90°: 10 pixels a degree at the centre, more towards the edges. A label
                    // on something a few metres away (a statue's pedestal) sits where the placer's scan of
                    // depth columns first meets it, which moves by a column or two (0.7° each) with a
                    // hundredth of a degree of heading: 3° there.
                    let tolerance = distance < 10 ? 30.0 : 10.0
                    if distance >= 10 { largest = max(largest, abs(x - y) / 10) }
                    #expect(abs(x - y) <= tolerance, "\(id) at \(heading)°: '\(name)' (\(distance) m) at x \(y), the shipped panorama puts it at \(x)")
                    compared += 1
                }
            }
        }
        print("labels compared: \(compared), largest difference beyond 10 m: \(String(format: "%.2f", largest))°, "
              + "not shown on the realigned photos: \(missing.count)")
        #expect(compared >= 5, "labels compared: \(compared)")
        // Labels that collide are thinned, and a label a fraction of a degree away can win another
        // collision: a few differ in which of two neighbours is shown.
        #expect(missing.count * 3 <= compared, "labels the realigned photos lost: \(missing)")
    }

    /// Scene answers say the maps are derived and what the alignment found: the CLI and `/v1/scene`.
    @Test func sceneAnswersMarkDerivedMaps() throws {
        let catalog = try Self.indexed.get().catalog
        let truth = try Self.truth("senaatintori-004")
        let cli = try Lookaround.run(["scene", "--catalog", catalog, "--lat", "\(truth.latitude)", "--lon", "\(truth.longitude)", "--json"])
        #expect(cli.exitCode == 0, "\(cli.stderr)")
        let answer = try JSONSerialization.jsonObject(with: Data(cli.stdout.utf8)) as? [String: Any]
        let scene = try #require(answer?["scene"] as? [String: Any], "\(cli.stdout)")
        #expect(scene["panorama_id"] as? String == "senaatintori-004" && scene["maps_source"] as? String == "derived")
        let cliAlignment = try #require(scene["pose_alignment"] as? [String: Any], "\(cli.stdout)")
        #expect(cliAlignment["applied"] as? Bool == true && cliAlignment["metadata_heading_source"] as? String == "sidecar")

        let server = try ServeCLITests.Server(["--catalog", catalog, "--serve-unblurred"])
        defer { _ = server.terminate() }
        let response = try RawHTTPClient(port: server.port).get("/v1/scene?lat=\(truth.latitude)&lon=\(truth.longitude)")
        #expect(response.status == 200, "\(response.text)")
        let served = try #require(try response.json()["scene"] as? [String: Any], "\(response.text)")
        #expect(served["maps_source"] as? String == "derived" && served["heading_source"] as? String == "aligned", "\(response.text)")
        let alignment = try #require(served["pose_alignment"] as? [String: Any], "\(response.text)")
        #expect(alignment["applied"] as? Bool == true)
        let correction = try #require(alignment["heading_correction_degrees"] as? Double)
        #expect(abs(correction - 28.3) < 2, "correction \(correction) for a disturbance of -28.3°")
    }

    @Test func noDerivedMapsWhenAskedNot() throws {
        let photos = try Self.indexed.get().photos
        let catalog = try Lookaround.temporaryDirectory().appendingPathComponent("plain.sqlite").path
        let result = try Lookaround.run(["index", photos.path, "--catalog", catalog, "--osm", Self.osm, "--no-derived-maps"])
        #expect(result.exitCode == 0 && !result.stdout.contains("derived "), "\(result.stdout)\(result.stderr)")
        let record = try Self.record(Self.cases[0].id, catalog: catalog)
        #expect(record["maps_source"] == nil && record["depth_path"] == nil && record["heading_source"] as? String == "sidecar")
        let refused = try Lookaround.run(["index", photos.path, "--catalog", catalog, "--no-derived-maps", "--no-align"])
        #expect(refused.exitCode == 64 && refused.stderr.contains("--no-derived-maps derives nothing"), "\(refused.stderr)")
    }
}
