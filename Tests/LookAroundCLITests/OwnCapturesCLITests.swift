import Foundation
import Imaging
import Testing
import TestSupport

/// A folder of one's own 360° photos and no OpenStreetMap extract, as a new user arrives with it: the
/// real camera files of ../shared/data/real-photos (a GoPro Max walk near Pontoise, single photos from
/// Strasbourg, the Netherlands and England) indexed alone, then served without --osm, mapped, searched.
@Suite(.serialized) struct OwnCapturesCLITests {
    /// `shared/data/real-photos` beside the project (or beside the folder of worktrees), nil when absent.
    static let realPhotos: URL? = {
        var folder = Lookaround.repository
        for _ in 0..<3 {
            folder = folder.deletingLastPathComponent()
            let candidate = folder.appendingPathComponent("shared/data/real-photos")
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("gopro-max-sequence/1.jpg").path) { return candidate }
        }
        return nil
    }()

    static func photosOrSkip() throws -> URL {
        guard let folder = realPhotos else { try Test.cancel("skipped: ../shared/data/real-photos is not beside the project") }
        return folder
    }

    /// Every real photo copied into `photos/` and indexed (no OSM file) into `photos.sqlite` in a fresh
    /// folder, as the README's "Your own 360° photos" does.
    static let indexed = Result { () throws -> (root: URL, catalog: String, index: ProcessResult) in
        guard let shared = realPhotos else { throw CocoaError(.fileNoSuchFile) }
        let (root, _) = try Lookaround.temporaryDirectory(withFolder: "photos", copying: ["gopro-max-sequence", "single-cameras"]
            .map { shared.appendingPathComponent($0) })
        let catalog = root.appendingPathComponent("photos.sqlite").path
        return (root, catalog, try Lookaround.run(["index", "photos", "--catalog", "photos.sqlite"], in: root))
    }

    /// The photos' box: the first GoPro capture near Pontoise, the others from England to Strasbourg.
    static let goProFirst = (latitude: 49.006889619883, longitude: 1.91918544179914)
    static let bounds = (west: -2.86126, south: 48.53341, east: 7.74831, north: 53.18205)

    /// The XYZ tile holding a point at `zoom` (OpenStreetMap's formula).
    static func tile(_ latitude: Double, _ longitude: Double, zoom: Int) -> (x: Int, y: Int) {
        let n = pow(2, Double(zoom)), phi = latitude * .pi / 180
        return (Int((longitude + 180) / 360 * n), Int((1 - asinh(tan(phi)) / .pi) / 2 * n))
    }

    /// Pixels of the coverage blue (30, 120, 240) in a tile, give or take the antialiasing.
    static func bluePixels(_ image: RGBA8Image) -> Int {
        var count = 0
        for y in 0..<image.height {
            for x in 0..<image.width {
                if image[x, y, 3] > 200 && abs(Int(image[x, y, 0]) - 30) < 30 && abs(Int(image[x, y, 1]) - 120) < 30
                    && abs(Int(image[x, y, 2]) - 240) < 30 { count += 1 }
            }
        }
        return count
    }

    @Test func indexingTheFolderAlone() throws {
        _ = try Self.photosOrSkip()
        let index = try Self.indexed.get().index
        #expect(index.exitCode == 0, "\(index.stdout)\(index.stderr)")
        #expect(index.stdout.contains("panoramas   10 (10 files: 10 read, 0 unchanged, 0 failed)"), "\(index.stdout)")
        #expect(!index.stdout.contains("advance towards"), "the GoPro walk faces its way: no heading warning")
    }

    /// The README's commands from a folder of camera files to the browser, as written there (but `serve`,
    /// which ``servingWithoutAnExtract()`` runs): each exits 0.
    @Test func theREADMECommands() throws {
        _ = try Self.photosOrSkip()
        let (root, _, _) = try Self.indexed.get()
        let readme = try String(contentsOf: Lookaround.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let start = try #require(readme.range(of: "**From a folder of camera files to the browser, without an extract**"))
        let block = try #require(readme[start.upperBound...].components(separatedBy: "```sh\n").dropFirst().first?
            .components(separatedBy: "```").first)
        let commands = block.split(separator: "\n").map { line in
            String(line.components(separatedBy: " #").first ?? "").trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        #expect(commands.count == 5 && commands.allSatisfy { $0.hasPrefix("lookaround ") }, "\(commands)")
        for command in commands where !command.hasPrefix("lookaround serve") {
            // The shell's words: double-quoted strings kept whole.
            var words: [String] = [], word = "", quoted = false
            for c in command.dropFirst("lookaround ".count) {
                if c == "\"" { quoted.toggle() } else if c == " " && !quoted { if !word.isEmpty { words.append(word); word = "" } } else { word.append(c) }
            }
            if !word.isEmpty { words.append(word) }
            let result = try Lookaround.run(words, in: root)
            #expect(result.exitCode == 0, "\(command): \(result.stdout)\(result.stderr)")
        }
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("coverage.png").path))
    }

    /// The page as a user meets it on a server of their own photos without --osm, in headless Chromium with
    /// WebGL off (scripts/browser_check.py's `captures` flow): no answer of 500 (or 400), the first map shows
    /// the photos, the coverage is clickable at zoom 5 (the GoPro walk's cluster zooms in; a lone photo
    /// previews) and at 17, the preview and the viewer show a photo, a key after clicking Roads or + still
    /// turns the view, every coordinate form typed in the search box goes there, and the README's embed
    /// snippet, in a page of its own, paints a view and keeps its 640×360.
    @Test func theWebPageOnOwnPhotosWithoutAnExtract() throws {
        _ = try Self.photosOrSkip()
        try WebViewerCLITests.requireBrowser()
        let (_, catalog, _) = try Self.indexed.get()
        let server = try ServeCLITests.Server(["--catalog", catalog, "--serve-unblurred"])
        defer { _ = server.terminate() }
        let page = try WebViewerCLITests.run("captures", server: server)
        #expect(page["webgl"] as? Bool == false, "WebGL was not off")
        #expect((page["answers"] as? Int ?? 0) > 50, "the flow saw the page's answers: \(page["answers"] ?? "")")
        // The first map: the photos' box (England to Strasbourg) in view, not Helsinki, not a street.
        let first = try #require(page["first_map"] as? [String: Any])
        #expect((first["west"] as? Double ?? 0) <= Self.bounds.west && (first["east"] as? Double ?? 0) >= Self.bounds.east
                && (first["south"] as? Double ?? 90) <= Self.bounds.south && (first["north"] as? Double ?? 0) >= Self.bounds.north, "\(first)")
        // Zoom 5: a click on the walk's cluster zooms in (to where its photos come apart), then a click previews one.
        let zooms = page["cluster_clicks"] as? [Int] ?? []
        #expect(zooms.first == 5 && zooms.count >= 2 && zooms.last ?? 0 >= 14, "\(zooms)")
        #expect(page["preview_after_clusters"] as? String == "July 2021", "\(page["preview_after_clusters"] ?? "")")
        let lone = try #require(page["lone_at_zoom5"] as? [String: Any])
        #expect(lone["zoom"] as? Int == 5 && (lone["spread"] as? Double ?? 0) > 10, "a lone photo previewed at zoom 5: \(lone)")
        let preview = try #require(page["preview_at_zoom17"] as? [String: Any])
        #expect(preview["caption"] as? String == "July 2021" && (preview["spread"] as? Double ?? 0) > 10, "\(preview)")
        let viewer = try #require(page["viewer"] as? [String: Any])
        #expect((viewer["id"] as? String)?.hasPrefix("gopro-max-sequence/") == true && (viewer["spread"] as? Double ?? 0) > 10, "\(viewer)")
        // A photo without an extract shows nothing of OpenStreetMap: the view credits nothing it does not show.
        #expect(viewer["attribution"] as? String == "", "\(viewer)")
        // Keys after a click on a control: the focus is on the button, the arrow still turns the view.
        let keys = try #require(page["keys_after_controls"] as? [String: [String: Any]])
        #expect(keys.count == 2 && keys.values.allSatisfy { abs(($0["turned"] as? Double ?? 0) - ($0["expected"] as? Double ?? 99)) < 0.01 }, "\(keys)")
        #expect(keys.values.allSatisfy { ($0["focused"] as? String)?.contains("la-button") == true }, "the click left the focus on the control: \(keys)")
        let search = try #require(page["coordinate_search_meters"] as? [String: Double])
        #expect(search.count == 5 && search.values.allSatisfy { $0 < 1 }, "\(search)")
        // The README's embed: its own style sheet brought by the script, one frame, its size kept.
        let embed = try #require(page["embed_snippet"] as? [String: Any])
        #expect(embed["view"] as? [Int] == [640, 360] && embed["canvas"] as? [Int] == [640, 360] && embed["frames"] as? [Int] == [200], "\(embed)")
        #expect((embed["sheets"] as? [String])?.contains { $0.hasSuffix("/lookaround.css") } == true, "\(embed)")
        #expect((page["preview_by_id"] as? [String: Any])?["id"] as? String == "gopro-max-sequence/2", "\(page["preview_by_id"] ?? "")")
        #expect((page["console_errors"] as? [String])?.isEmpty == true, "\(page["console_errors"] ?? "")")
    }

    /// `serve` without --osm: every map, tile, coverage, TileJSON and search route the page uses answers
    /// (no 500), at zoom 5 and 17, centred on the photos; search finds coordinates in every form, ids and
    /// sequences; a click's radius follows the zoom.
    @Test func servingWithoutAnExtract() throws {
        _ = try Self.photosOrSkip()
        let (root, catalog, _) = try Self.indexed.get()
        let server = try ServeCLITests.Server(["--catalog", catalog, "--serve-unblurred"])
        defer { _ = server.terminate() }
        #expect(server.banner.contains { $0.contains("/v1/scene?lat=") && !$0.contains("60.1699") }, "the hint names a point of this catalog: \(server.banner)")
        let client = try RawHTTPClient(port: server.port, timeoutSeconds: 60)
        func get(_ path: String) throws -> RawHTTPClient.Response {
            let response = try client.get(path)
            #expect(response.status < 500, "\(path): \(response.status) \(response.text.prefix(300))")
            return response
        }
        _ = root

        // TileJSON: the photos' box and a centre inside it, for every type; no OSM credit without OSM data.
        for type in ["standard", "muted", "imagery", "hybrid", "coverage"] {
            let response = try get("/v1/tiles/\(type).json")
            #expect(response.status == 200, "\(type).json: \(response.text)")
            let tilejson = try response.json()
            let box = try #require(tilejson["bounds"] as? [Double], "\(type): \(tilejson)")
            #expect(abs(box[0] - Self.bounds.west) < 1e-4 && abs(box[1] - Self.bounds.south) < 1e-4
                    && abs(box[2] - Self.bounds.east) < 1e-4 && abs(box[3] - Self.bounds.north) < 1e-4, "\(type): bounds \(box)")
            let center = try #require(tilejson["center"] as? [Double])
            #expect(center[0] > box[0] && center[0] < box[2] && center[1] > box[1] && center[1] < box[3], "\(type): centre \(center)")
            #expect((4...7).contains(center[2]), "\(type): a zoom that shows England to Strasbourg, not a street: \(center[2])")
            let attribution = tilejson["attribution"] as? String ?? ""
            if type != "coverage" {
                #expect(attribution.contains("Natural Earth") && !attribution.contains("OpenStreetMap"), "\(type): \(attribution)")
            }
        }

        // Tiles of every type at zoom 5 and 17 over the GoPro walk, and the coverage drawn into them.
        for zoom in [5, 17] {
            let (x, y) = Self.tile(Self.goProFirst.latitude, Self.goProFirst.longitude, zoom: zoom)
            for type in ["standard", "muted", "imagery", "hybrid", "coverage"] {
                for suffix in ["", "@2x"] {
                    let response = try get("/v1/tiles/\(type)/\(zoom)/\(x)/\(y)\(suffix).png")
                    #expect(response.status == 200 && response.header("content-type") == "image/png", "\(type) z\(zoom)\(suffix): \(response.status)")
                    guard response.status == 200 else { continue }
                    let image = try PNGCodec.decodeRGBA(response.body)
                    #expect(image.width == (suffix.isEmpty ? 256 : 512))
                    if type == "coverage" {
                        let blue = Self.bluePixels(image)
                        // z5: a counted circle of radius 11 + 2.5·log10(5) points; z17: a line 4 points wide over the 9 m walk.
                        #expect(blue > (zoom == 5 ? 250 : 25) * (suffix.isEmpty ? 1 : 4), "coverage z\(zoom)\(suffix): \(blue) blue pixels")
                    }
                }
            }
            let clusters = try get("/v1/coverage/clusters/\(zoom)/\(x)/\(y)")
            #expect(clusters.status == 200 && clusters.header("content-type") == "application/geo+json")
            let features = try #require(try clusters.json()["features"] as? [[String: Any]])
            let properties = features.compactMap { $0["properties"] as? [String: Any] }
            if zoom == 5 {
                // The walk's five photos are one cluster at zoom 5; a click on it zooms in past 5.
                let walk = try #require(properties.first { $0["count"] as? Int == 5 }, "\(properties)")
                #expect((walk["zoom"] as? Int ?? 0) > 5, "\(walk)")
                #expect((walk["bounds"] as? [Double])?.count == 4)
            } else {
                #expect(properties.count == 5 && properties.allSatisfy { $0["count"] as? Int == 1 && $0["panorama_id"] is String }, "\(properties)")
            }
            #expect(try get("/v1/coverage/\(zoom)/\(x)/\(y)").status == 200)
        }
        // Every photo's zoom-5 tile, base and coverage.
        for (latitude, longitude) in [(52.44341, 6.88993), (53.18205, -2.86126), (48.58272, 7.74831), (50.87071, -1.52609)] {
            let (x, y) = Self.tile(latitude, longitude, zoom: 5)
            #expect(try get("/v1/tiles/standard/5/\(x)/\(y).png").status == 200)
            #expect(try get("/v1/tiles/coverage/5/\(x)/\(y).png").status == 200)
        }

        // A click: at zoom 17, 12 m east of the first photo finds it (a 17 m radius there); the same click's
        // radius at zoom 20 (15 m, the smallest) does too, 20 m away does not.
        let east12 = Self.goProFirst.longitude + 12 / (111_320 * cos(Self.goProFirst.latitude * .pi / 180))
        let east20 = Self.goProFirst.longitude + 20 / (111_320 * cos(Self.goProFirst.latitude * .pi / 180))
        let scene = try get("/v1/scene?lat=\(Self.goProFirst.latitude)&lon=\(east12)&zoom=17")
        #expect(scene.status == 200, "\(scene.text)")
        #expect(try get("/v1/scene?lat=\(Self.goProFirst.latitude)&lon=\(east20)&zoom=20").status == 404)
        let batch = try client.post("/v1/scenes", body: Array("[{\"lat\":\(Self.goProFirst.latitude),\"lon\":\(east20),\"zoom\":15}]".utf8))
        #expect(batch.status == 200 && batch.text.contains("\"found\":true"), "\(batch.text)")
        #expect(try get("/v1/scene?lat=49&lon=2&zoom=17&radius_meters=50").status == 400)

        // Search: a coordinate in every form, a panorama by id or file name, a sequence by name.
        let forms = ["49.00689,1.91919", "49.00689 1.91919", "49°0′24.8″N 1°55′9.1″E", "49°0'24.8\"N 1°55'9.1\"E", "N 49 0.413 E 1 55.151",
                     "geo:49.00689,1.91919", "https://www.google.com/maps/@49.00689,1.91919,17z"]
        for form in forms {
            let escaped = form.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? form
            let answers = try JSONSerialization.jsonObject(with: Data(try get("/v1/search?q=\(escaped)").body)) as? [[String: Any]] ?? []
            let place = answers.first?["place"] as? [String: Any], point = place?["coordinate"] as? [String: Any]
            #expect(place?["category"] as? String == "coordinate", "\(form): \(answers)")
            #expect(abs((point?["latitude"] as? Double ?? 0) - 49.00689) < 1e-4 && abs((point?["longitude"] as? Double ?? 0) - 1.91919) < 1e-4,
                    "\(form): \(point ?? [:])")
            let nominatim = try JSONSerialization.jsonObject(with: Data(try get("/search?q=\(escaped)&format=json").body)) as? [[String: Any]] ?? []
            #expect(abs((Double(nominatim.first?["lat"] as? String ?? "") ?? 0) - 49.00689) < 1e-4, "Nominatim \(form): \(nominatim)")
        }
        for (query, category, id) in [("R0014760", "panorama", "single-cameras/R0014760"), ("gopro-max-sequence/3", "panorama", "gopro-max-sequence/3"),
                                      ("gopro-max-sequence", "sequence", "photos/gopro-max-sequence/GoPro Max")] {
            let answers = try JSONSerialization.jsonObject(with: Data(try get("/v1/search?q=\(query)").body)) as? [[String: Any]] ?? []
            let place = answers.first?["place"] as? [String: Any]
            #expect(place?["category"] as? String == category && place?["name"] as? String == id, "\(query): \(answers)")
        }
        let nowhere = try get("/v1/search?q=Toulouse")
        #expect(nowhere.status == 200 && nowhere.text == "[]", "no extract: no place names, and no error: \(nowhere.text)")
        let bad = try get("/v1/search?q=91,2")
        #expect(bad.status == 400 && bad.text.contains("latitude 91"), "\(bad.text)")

        // The rest the page asks for.
        #expect(try get("/").status == 200)
        #expect(try get("/v1/snapshot?scene=gopro-max-sequence/1&size=320x180&heading_degrees=10").status == 200)
        #expect(try get("/v1/panoramas/gopro-max-sequence/1").status == 200)
        #expect(try get("/v1/panoramas/gopro-max-sequence/1/tiles/0/0/0.jpg").status == 200)
        let directions = try get("/v1/directions?from=49.00689,1.91919&to=49.00697,1.91919")
        #expect(directions.status == 404 && directions.text.contains("no_street_network"), "\(directions.text)")
        #expect(try get("/v1/map?coverage=true&size=320x200").status == 200)
        #expect(try get("/reverse?lat=49.00689&lon=1.91919&format=jsonv2").status == 200)
        #expect(try get("/v1/health").status == 200)
    }

    /// `lookaround map --coverage` without an extract, from a folder without the shipped one: the world
    /// layer and the coverage, framed on the photos.
    @Test func mapOfTheCoverageWithoutAnExtract() throws {
        _ = try Self.photosOrSkip()
        let (root, catalog, _) = try Self.indexed.get()
        let output = root.appendingPathComponent("coverage.png").path
        let result = try Lookaround.run(["map", "--coverage", "--catalog", catalog, "--size", "800x600", "-o", output, "--json"], in: root)
        #expect(result.exitCode == 0, "\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let camera = try #require(report["camera"] as? [String: Any])
        let center = try #require(camera["center_coordinate"] as? [String: Any] ?? camera["centerCoordinate"] as? [String: Any], "\(camera)")
        let latitude = center["latitude"] as? Double ?? 0, longitude = center["longitude"] as? Double ?? 0
        #expect(latitude > Self.bounds.south && latitude < Self.bounds.north && longitude > Self.bounds.west && longitude < Self.bounds.east,
                "\(center)")
        let image = try PNGCodec.decodeRGBA(try ImageFile.read(output))
        #expect(Self.bluePixels(image) > 500, "the clusters and dots of the coverage")
        // Naming the catalog is enough: without an extract or a view, its coverage is what the map shows.
        let named = try Lookaround.run(["map", "--catalog", catalog, "--size", "800x600", "-o", output, "--json"], in: root)
        #expect(named.exitCode == 0, "\(named.stderr)")
        #expect(Self.bluePixels(try PNGCodec.decodeRGBA(try ImageFile.read(output))) > 500, "the coverage drawn without --coverage")
        // The imagery types need the simulator's city: a usage error naming the way out.
        let imagery = try Lookaround.run(["map", "--coverage", "--catalog", catalog, "--type", "imagery", "-o", output], in: root)
        #expect(imagery.exitCode == 64 && imagery.stderr.contains("needs an OSM extract"), "\(imagery.stderr)")
    }

    /// `search` and `geocode` on the command line: the same forms, ids and sequences.
    @Test func searchAndGeocodeWithoutAnExtract() throws {
        _ = try Self.photosOrSkip()
        let (root, catalog, _) = try Self.indexed.get()
        for form in ["49.00689,1.91919", "49°0′24.8″N 1°55′9.1″E", "geo:49.00689,1.91919"] {
            let search = try Lookaround.run(["search", form, "--catalog", catalog], in: root)
            #expect(search.exitCode == 0 && search.stdout.contains("coordinate") && search.stdout.contains("49.0068")
                    && search.stdout.contains(",1.9191"), "search \(form): \(search.stdout)\(search.stderr)")
            let geocode = try Lookaround.run(["geocode", form, "--catalog", catalog, "--json"], in: root)
            let answers = try JSONSerialization.jsonObject(with: Data(geocode.stdout.utf8)) as? [[String: Any]] ?? []
            #expect(geocode.exitCode == 0 && answers.first?["precision"] as? String == "coordinate", "geocode \(form): \(geocode.stdout)")
        }
        let id = try Lookaround.run(["geocode", "R0014760", "--catalog", catalog], in: root)
        #expect(id.exitCode == 0 && id.stdout.contains("panorama single-cameras/R0014760"), "\(id.stdout)")
        let sequence = try Lookaround.run(["search", "gopro-max", "--catalog", catalog], in: root)  // part of its name
        #expect(sequence.exitCode == 0 && sequence.stdout.contains("sequence photos/gopro-max-sequence/GoPro Max (5 panoramas)"), "\(sequence.stdout)")
        let scene = try Lookaround.run(["scene", "--near", "N 49 0.413 E 1 55.151", "--catalog", catalog], in: root)
        #expect(scene.exitCode == 0 && scene.stdout.contains("gopro-max-sequence/1"), "\(scene.stdout)\(scene.stderr)")
        let bad = try Lookaround.run(["geocode", "49°61′N 1°55′E", "--catalog", catalog], in: root)
        #expect(bad.exitCode == 64 && bad.stderr.contains("minutes 61 is 60 or more"), "\(bad.stderr)")
    }

    /// The GoPro walk with its compass turned by 180° (exiftool on copies): `index` names the sequence,
    /// both directions and the likely causes; `--heading-from travel` faces every photo along the way
    /// (within 10° of the walk's direction), and `scene --json` says so.
    @Test func aSequenceWhoseCompassPointsBackwards() throws {
        let shared = try Self.photosOrSkip()
        guard let exiftool = ["/usr/bin/exiftool", "/usr/local/bin/exiftool"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            try Test.cancel("skipped: exiftool is not installed (Debian: libimage-exiftool-perl)")
        }
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("walk")
        try FileManager.default.copyItem(at: shared.appendingPathComponent("gopro-max-sequence"), to: folder)
        _ = chmod(folder.path, 0o755)  // the shared copy is read-only; exiftool writes beside the file
        let written = [349.06, 11.19, 1.47, 350.44, 356.46]
        for (k, degrees) in written.enumerated() {
            let path = folder.appendingPathComponent("\(k + 1).jpg").path
            _ = chmod(path, 0o644)
            let turned = (degrees + 180).truncatingRemainder(dividingBy: 360)
            let run = try Lookaround.runProcess(exiftool, ["-q", "-overwrite_original", "-GPSImgDirectionRef=T",
                                                           "-GPSImgDirection=\(turned)", path])
            #expect(run.exitCode == 0, "\(run.stderr)")
        }
        let catalog = root.appendingPathComponent("walk.sqlite").path
        let index = try Lookaround.run(["index", folder.path, "--catalog", catalog], in: root)
        #expect(index.exitCode == 0, "\(index.stderr)")
        let warning = index.stdout.split(separator: "\n").first { $0.contains("advance towards") }.map(String.init) ?? ""
        #expect(warning.contains("sequence walk/GoPro Max: GPSImgDirection says 177.7° but the photos advance towards 3.") && warning.contains("for 5 of 5 photos")
                && warning.contains("mounted backwards") && warning.contains("--heading-from travel"), "\(index.stdout)")
        func headings(_ catalog: String) throws -> [(degrees: Double, source: String, latitude: Double, longitude: Double)] {
            try (1...5).map { k in
                let json = try Lookaround.run(["scene", "--catalog", catalog, "--id", "\(k)", "--json"], in: root).stdout
                let scene = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                let panorama = (scene["panorama"] as? [String: Any]) ?? scene
                let coordinate = panorama["coordinate"] as? [String: Any] ?? [:]
                return (panorama["heading_degrees"] as? Double ?? .nan, panorama["heading_source"] as? String ?? "",
                        coordinate["latitude"] as? Double ?? panorama["latitude"] as? Double ?? .nan,
                        coordinate["longitude"] as? Double ?? panorama["longitude"] as? Double ?? .nan)
            }
        }
        let kept = try headings(catalog)
        #expect(kept.map(\.source) == Array(repeating: "GPSImgDirection", count: 5), "metadata by default: \(kept)")
        let travel = try Lookaround.run(["index", folder.path, "--catalog", catalog, "--heading-from", "travel"], in: root)
        #expect(travel.exitCode == 0 && travel.stdout.contains("faced along the way (--heading-from travel)"), "\(travel.stdout)\(travel.stderr)")
        let faced = try headings(catalog)
        // The walk's direction, first photo to last.
        let first = faced[0], last = faced[4]
        let north = (last.latitude - first.latitude) * 111_190
        let east = (last.longitude - first.longitude) * 111_320 * cos(first.latitude * .pi / 180)
        let way = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        for (k, heading) in faced.enumerated() {
            let off = abs((heading.degrees - way + 540).truncatingRemainder(dividingBy: 360) - 180)
            #expect(heading.source == "travel" && off < 10, "\(k + 1).jpg: \(heading.degrees)° (\(heading.source)), the walk goes \(way)°")
        }
        // Back to the metadata: the files are read again and the headings are the compass's.
        let again = try Lookaround.run(["index", folder.path, "--catalog", catalog], in: root)
        #expect(again.exitCode == 0)
        #expect(try headings(catalog).map(\.source) == Array(repeating: "GPSImgDirection", count: 5))
    }
}
