import Foundation
import Imaging
import Testing
import TestSupport

/// The web viewer in a real headless Chromium (Debian's chromium and chromium-driver, Selenium from
/// PyPI with the driver's path given, so nothing is downloaded), driven by scripts/browser_check.py as
/// users would use it: with a mouse, on a phone-sized touch screen, with WebGL off, behind an API key.
@Suite(.serialized) struct WebViewerCLITests {
    static let script = Lookaround.repository.appendingPathComponent("scripts/browser_check.py").path

    /// Skips (with the reason) where the browser or Selenium is missing.
    static func requireBrowser() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: tool) {
            try Test.cancel("skipped: \(tool) is missing (scripts/install-test-tools.sh installs Debian's chromium and chromium-driver)")
        }
        let probe = try Lookaround.runProcess("/usr/bin/env", ["python3", "-c", "import selenium"])
        if probe.exitCode != 0 {
            try Test.cancel("skipped: PyPI selenium is not installed (scripts/install-test-tools.sh installs it): \(probe.stderr.prefix(200))")
        }
    }

    /// Runs one flow against `server`; its JSON (or the reason it failed).
    static func run(_ flow: String, server: ServeCLITests.Server, extra: [String] = []) throws -> [String: Any] {
        let out = try Lookaround.temporaryDirectory()
        let result = try Lookaround.runProcess("/usr/bin/env", ["python3", script, "http://127.0.0.1:\(server.port)", out.path, flow] + extra)
        let answer = (try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) as? [String: Any]
        #expect(result.exitCode == 0, "\(flow): \(answer?["failure"] ?? result.stdout.suffix(2000))\n\(result.stderr.suffix(3000))")
        return try #require(answer, "\(flow) printed no JSON: \(result.stdout.suffix(500)) \(result.stderr.suffix(2000))")
    }

    static func server(_ more: [String] = []) throws -> ServeCLITests.Server {
        try ServeCLITests.Server(["--catalog", try ServeCLITests.catalog(), "--osm", MapTilesCLITests.osm] + more)
    }

    /// The page's scripts type-check (their JSDoc types, the DOM's) with TypeScript's checker in strict
    /// mode: a typo'd property or a misused API is an error here, not a blank page for a user. Every
    /// script of the page is checked (Leaflet, a copy of someone else's, aside); the server's generated
    /// `lookaround/facts.js` is checked by its declared shape (`facts.d.ts`).
    @Test func thePagesJavaScriptTypeChecks() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/tsc") else {
            try Test.cancel("skipped: tsc is missing (scripts/install-test-tools.sh installs Debian's node-typescript)")
        }
        let web = Lookaround.repository.appendingPathComponent("Sources/Service/Resources/web")
        let scripts = try FileManager.default.subpathsOfDirectory(atPath: web.path)
            .filter { $0.hasSuffix(".js") && !$0.hasPrefix("leaflet/") }.sorted()
        #expect(scripts.count >= 18 && scripts.contains("lookaround.js") && scripts.contains("lookaround/look-around.js"), "\(scripts)")
        let result = try Lookaround.runProcess("/usr/bin/tsc", ["--allowJs", "--checkJs", "--noEmit", "--strict", "--target", "es2020",
                                                               "--module", "es2020", "--lib", "es2020,dom,dom.iterable"] + scripts, in: web)
        #expect(result.exitCode == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test func mapPreviewViewerArrowsBackDeepLinkAndEmbedInChromium() throws {
        try Self.requireBrowser()
        let server = try Self.server()
        defer { _ = server.terminate() }
        let desktop = try Self.run("desktop", server: server)
        #expect((desktop["preview_caption"] as? String)?.contains("2026") == true, "\(desktop["preview_caption"] ?? "")")
        let drag = try #require(desktop["drag"] as? [String: Double])
        #expect(abs((drag["turned_degrees"] ?? 99) - (drag["expected_degrees"] ?? 0)) < 0.6, "\(drag)")
        #expect(abs((desktop["arrow_right_degrees"] as? Double ?? 0) - 15) < 0.01)
        #expect(abs((desktop["plus_fov"] as? Double ?? 0) - 72) < 0.01, "+ zooms in by 1.25×")
        let arrow = try #require(desktop["arrow"] as? [String: Any])
        #expect(arrow["move"] as? String == "depth-warp" && arrow["from"] as? String != arrow["to"] as? String, "\(arrow)")
        #expect(desktop["back"] as? String == arrow["from"] as? String, "Back returns to the previous panorama")
        #expect((desktop["console_errors"] as? [String])?.isEmpty == true, "\(desktop["console_errors"] ?? "")")
        // A simulated city is OpenStreetMap's data drawn: the view credits it.
        #expect((desktop["viewer_opened"] as? [String: Any])?["attribution"] as? String == "© OpenStreetMap contributors",
                "\(desktop["viewer_opened"] ?? "")")
        try Self.checkDeepLinkPicture(desktop["desktop-deeplink-canvas"], flow: "desktop")
        let query = try #require((desktop["desktop-deeplink-canvas"] as? [String: Any])?["query_form"] as? [String: Any])
        #expect(query["id"] as? String == "aleksanterinkatu-012" && query["heading"] as? Double == 200 && query["pitch"] as? Double == -3
                && query["fov"] as? Double == 60, "\(query)")
        let escape = try #require(desktop["escape"] as? [String: Any])
        #expect((escape["map_center_off_meters"] as? Double ?? 99) < 5 && escape["path"] as? String == "/", "Esc: \(escape)")
        let walk = try #require(desktop["walk"] as? [String: Any])
        #expect(walk["progress_when_paused"] as? String == walk["progress_later"] as? String, "the walk box's pause: \(walk)")
        #expect((desktop["labels_after_toggle"] as? [String: String])?["parameter"] == "roads")
        // Directions in the page: the route drawn, its steps each with a street-level preview, a step opens the viewer.
        let directions = try #require(desktop["directions"] as? [String: Any])
        let steps = directions["steps"] as? [String] ?? []
        #expect(steps.count >= 3 && steps.last?.hasPrefix("Arrive") == true && (directions["route_on_map"] as? Int ?? 0) >= 1, "\(directions)")
        #expect((directions["previews"] as? Int ?? 0) >= 3 && (directions["opened"] as? String)?.isEmpty == false, "\(directions)")
        // The embed as pages load it: a plain <script src=/lookaround.js>, a view made at once; only the MapKit-shaped API.
        let embed = try #require(desktop["embed"] as? [String: Any])
        #expect(embed["state"] as? String == "destroyed" && embed["scene"] as? String == "senaatintori-005", "\(embed)")
        let api = ["LookAround", "LookAroundPreview", "configure", "version"]
        #expect(embed["global"] as? [String] == api && embed["module"] as? [String] == api && embed["before"] as? String == "loading", "\(embed)")
        // The search box's suggestions (its datalist), filled as one types.
        #expect((desktop["suggestions"] as? [String])?.contains { $0.hasPrefix("Stockmann") } == true, "\(desktop["suggestions"] ?? "")")
    }

    @Test func withoutWebGLAndOnAPhone() throws {
        try Self.requireBrowser()
        let server = try Self.server()
        defer { _ = server.terminate() }
        let plain = try Self.run("nowebgl", server: server)
        #expect(plain["webgl"] as? Bool == false, "WebGL was not off")
        #expect((plain["arrow"] as? [String: Any])?["move"] as? String == "depth-warp")
        #expect((plain["console_errors"] as? [String])?.isEmpty == true, "\(plain["console_errors"] ?? "")")
        try Self.checkDeepLinkPicture(plain["nowebgl-deeplink-canvas"], flow: "nowebgl")

        let phone = try Self.run("phone", server: server)
        #expect(phone["touch_points"] as? Int ?? 0 >= 1 && phone["layout_width"] as? Int == 390, "\(phone)")
        let drag = try #require(phone["drag"] as? [String: Double])
        #expect(abs((drag["turned_degrees"] ?? 99) - (drag["expected_degrees"] ?? 0)) < 0.6, "a touch drag: \(drag)")
        // Two fingers spread from 80 to 160 pixels apart halve the field of view.
        let pinch = try #require(phone["pinch"] as? [String: Double])
        #expect(abs((pinch["fov_after"] ?? 0) - (pinch["fov_before"] ?? 0) / 2) < 5, "a pinch: \(pinch)")
        #expect((phone["console_errors"] as? [String])?.isEmpty == true, "\(phone["console_errors"] ?? "")")
    }

    @Test func thePageAsksForTheKeyOnce() throws {
        try Self.requireBrowser()
        let keys = try Lookaround.temporaryDirectory().appendingPathComponent("keys.txt")
        try Data("browser-key-7\n".utf8).write(to: keys)
        let server = try Self.server(["--api-key-file", keys.path])
        defer { _ = server.terminate() }
        let keyed = try Self.run("key", server: server, extra: ["--key", "browser-key-7"])
        #expect((keyed["key_reason"] as? String)?.contains("403") == true, "\(keyed["key_reason"] ?? "")")
        #expect(keyed["key_in_requests"] as? Bool == true)
        // Its deep link's first view made by first-view.js (the server names no key in a page), taken by the viewer.
        let first = try #require(keyed["key_first_view"] as? [String: Any])
        let size = (first["size"] as? String ?? "").split(separator: "x").map(String.init)
        #expect(first["source"] as? String == "script" && first["images_left"] as? Int == 0 && size.count == 2
                && first["key"] as? String == "senaatintori-005|75.00|2.00|80.00|\(size.first ?? "")|\(size.last ?? "")|all|1.00", "\(first)")
        #expect((keyed["console_errors"] as? [String])?.isEmpty == true, "\(keyed["console_errors"] ?? "")")
    }

    /// The viewer's canvas for a deep link against `lookaround snapshot` of the same camera and size.
    static func checkDeepLinkPicture(_ value: Any?, flow: String) throws {
        let shown = try #require(value as? [String: Any], "\(flow): no deep-link result")
        let width = try #require(shown["width"] as? Int), height = try #require(shown["height"] as? Int)
        // Its first view came in the page (Chromium sends the viewport's client hints), was the viewer's
        // first frame (that frame asked for once), and is gone once the canvas shows it.
        let first = try #require(shown["first_view"] as? [String: Any], "\(flow): \(shown)")
        #expect(first["source"] as? String == "page" && first["taken"] as? Bool == true && first["images_left"] as? Int == 0
                && first["frame_requests"] as? Int == 1, "\(flow): the first view \(first)")
        #expect(first["key"] as? String == "\(shown["panorama"] ?? "")|123.00|5.00|75.00|\(width)|\(height)|all|1.00", "\(flow): \(first)")
        // The rest of the page, held back until the picture was painted, is in place and styled: the map
        // laid out by Leaflet at its size, every style sheet loaded.
        let sheets = first["sheets"] as? [String] ?? []
        #expect(first["held"] as? Bool == false && first["map_ready"] as? Bool == true && (first["map_height"] as? Int ?? 0) > 100
                && ["/first-view.css", "/lookaround.css", "/app.css"].allSatisfy(sheets.contains), "\(flow): the page after its first view \(first)")
        let canvas = try PNGCodec.decodeRGB(try ImageFile.read(try #require(shown["canvas"] as? String)))
        let out = try Lookaround.temporaryDirectory().appendingPathComponent("snapshot.png").path
        let snapshot = try Lookaround.run(["snapshot", "--catalog", try ServeCLITests.catalog(), "--scene", try #require(shown["panorama"] as? String),
                                           "--heading-degrees", "\(shown["heading"] ?? 0)", "--pitch-degrees", "\(shown["pitch"] ?? 0)",
                                           "--fov-degrees", "\(shown["fov"] ?? 0)", "--size", "\(width)x\(height)", "--labels", "\(shown["labels"] ?? "all")",
                                           "-o", out])
        #expect(snapshot.exitCode == 0, "\(snapshot.stderr)")
        let reference = try PNGCodec.decodeRGB(try ImageFile.read(out))
        #expect(canvas.width == reference.width && canvas.height == reference.height)
        let agreement = ImageMetrics.psnr(canvas, reference)
        #expect(agreement >= 30, "\(flow): the viewer's picture against lookaround snapshot: \(agreement) dB")
        print("\(flow): deep link \(width)x\(height), viewer against snapshot \(String(format: "%.1f", agreement)) dB")
    }
}
