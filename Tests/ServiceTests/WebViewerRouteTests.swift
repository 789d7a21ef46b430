import Foundation
import Imaging
import Service
import Testing
import TestSupport

/// The web viewer's routes without a browser: the page and its files, the move's frames, the walk's
/// stops, and a viewer's stale frames dropped before they are rendered.
@Suite struct WebViewerRouteTests {
    @Test func thePageIsSelfContainedUnderAStrictPolicy() throws {
        let page = try ServiceFixture.get("/")
        #expect(page.status == 200 && page.header("content-type") == "text/html; charset=utf-8")
        let policy = try #require(page.header("content-security-policy"))
        #expect(policy.hasPrefix("default-src 'self';") && !policy.contains("unsafe") && !policy.contains("data:"), "\(policy)")
        // No inline script or style, no handler attributes: everything the policy would block is absent.
        let html = page.text
        #expect(!html.contains("<script>") && !html.contains(" style=") && !html.contains("<style") && !html.contains(" onclick="))
        // Every file it names is served from this origin (nothing from a third party).
        var named: [String] = []
        for attribute in ["src=\"", "href=\""] {
            var rest = Substring(html)
            while let start = rest.range(of: attribute) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                named.append(String(rest[..<end]))
            }
        }
        #expect(named.count >= 5, "\(named)")
        for path in named {
            #expect(path.hasPrefix("/"), "\(path) is not on this origin")
            let file = try ServiceFixture.get(path)
            #expect(file.status == 200, "\(path): \(file.status)")
        }
        // Leaflet, which app.js loads when the map is first needed, and the images its CSS names.
        #expect(try ServiceFixture.get("/leaflet/leaflet.js").status == 200)
        #expect(try ServiceFixture.get("/app.js").text.contains("\"/leaflet/leaflet.js\""))
        let css = try ServiceFixture.get("/leaflet/leaflet.css").text
        for image in ["layers.png", "layers-2x.png", "marker-icon.png"] {
            #expect(css.contains("images/\(image)"))
            #expect(try ServiceFixture.get("/leaflet/images/\(image)").status == 200)
        }
        // A deep link is the page; gzip for clients that take it; ETag → 304; no path escapes the folder.
        #expect(try ServiceFixture.get("/@60.1694770,24.9523993,3a,75y,85.8h,90t").text == html)
        let script = try ServiceFixture.get("/lookaround.js")
        let zipped = try ServiceFixture.get("/lookaround.js", headers: ["Accept-Encoding": "gzip, deflate, br"])
        #expect(zipped.header("content-encoding") == "gzip" && zipped.body.count < script.body.count / 2
                && zipped.body.starts(with: [0x1F, 0x8B]), "\(zipped.body.count) of \(script.body.count)")
        let etag = try #require(script.header("etag"))
        #expect(try ServiceFixture.get("/lookaround.js", headers: ["If-None-Match": etag]).status == 304)
        for hostile in ["/leaflet/../index.html", "/leaflet/%2e%2e/index.html", "/leaflet/images/../../app.js", "/app.js/x", "/index.htm"] {
            #expect(try ServiceFixture.get(hostile).status == 404, "\(hostile)")
        }
    }

    /// A deep link from a browser that sends the viewport's client hints carries its first view: the
    /// full-window viewer's first frame as an <img>, which an idle render worker makes before the
    /// browser asks for it. Without the hints the page asks for them (Critical-CH) and has no picture.
    @Test func aDeepLinkCarriesItsFirstView() throws {
        let hints = ["sec-ch-viewport-width": "640", "sec-ch-viewport-height": "360", "sec-ch-dpr": "1.5"]
        let service = try SceneService(configuration: try ServiceFixture.configuration())
        func page(_ path: String, _ query: [(name: String, value: String)], _ headers: [String: String]) -> (HTTPResponse, (@Sendable () -> Void)?) {
            switch service.handle(HTTPRequest(path: path, query: query, headers: headers)).disposition {
            case .respond(let response): return (response, nil)
            case .respondAndPrepare(let response, let prepare): return (response, prepare)
            case .render: Issue.record("\(path) went to a render worker"); return (HTTPResponse(status: 0, contentType: "", body: []), nil)
            }
        }
        let asked = page("/", [("pano", "senaatintori-005"), ("heading", "75.125")], [:])
        #expect(asked.0.header("Critical-CH") == "Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-DPR" && asked.1 == nil)
        #expect(!String(decoding: asked.0.body, as: UTF8.self).contains("la-first-view"))
        let plain = page("/", [], hints)
        #expect(plain.0.header("Critical-CH") == nil && plain.0.header("Accept-CH") != nil && plain.1 == nil, "a page without a camera asks nothing")
        // Google's form (the camera ends at the next slash), with the plain page's ETag: the page with the
        // picture is another page, so 200, not 304.
        let etag = try #require(plain.0.header("ETag"))
        let (deep, prepare) = page("/@60.1694770,24.9523993,3a,60y,75.125h,95t/data=!3m1", [("pano", "senaatintori-005")],
                                   hints.merging(["if-none-match": etag]) { $1 })
        #expect(deep.status == 200 && deep.header("ETag") != etag)
        let html = String(decoding: deep.body, as: UTF8.self)
        // 640×360 CSS pixels at 1.5 device pixels each; the key as lookaround.js writes it (toFixed(2) rounds 75.125 up).
        #expect(html.contains("data-key=\"senaatintori-005|75.13|5.00|60.00|960|540|all|1.50\""), "\(html.prefix(600))")
        // The picture first in the body; before it only first-view.css and first-view.js, the rest of the page
        // (its style sheets, preloads and body) held in the template first-view.js unfolds; the icon stays (without
        // it Chromium asks for /favicon.ico).
        let picture = try #require(html.range(of: "<img class=\"la-first-view\""))
        let held = try #require(html.range(of: "<template id=\"la-page\">"))
        let heldEnd = try #require(html.range(of: "</template>\n</body>"))
        let before = html[..<picture.lowerBound], inside = html[held.upperBound..<heldEnd.lowerBound]
        #expect(before.contains("href=\"/first-view.css\"") && before.contains("src=\"/first-view.js\"") && picture.upperBound < held.lowerBound)
        for part in ["href=\"/app.css\"", "href=\"/lookaround.css\"", "rel=\"modulepreload\"", "<header", "id=\"map\"", "id=\"notice\""] {
            #expect(!before.contains(part) && inside.contains(part), "\(part) is held back")
        }
        let source = try #require(html.range(of: "src=\"/v1/snapshot?").map { html[$0.upperBound...].prefix { $0 != "\"" } })
        let query = source.replacingOccurrences(of: "&amp;", with: "&").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (name: String(parts[0]), value: String(parts[1]).removingPercentEncoding ?? "")
        }
        // Once prepared, the browser's request for it is answered from the response cache, at once.
        let work = try #require(prepare, "the page's frame is prepared")
        work()
        guard case .respond(let frame) = service.handle(HTTPRequest(path: "/v1/snapshot", query: query)).disposition else {
            Issue.record("the first view's frame was not answered from the cache"); return
        }
        #expect(frame.status == 200 && frame.contentType == "image/jpeg")
        let image = try JPEGCodec.decodeRGB(frame.body).image
        #expect(image.width == 960 && image.height == 540)
        // Hints out of range or a picture over the pixel budget: the plain page.
        #expect(page("/", [("pano", "senaatintori-005"), ("heading", "10")], ["sec-ch-viewport-width": "100000", "sec-ch-viewport-height": "9"]).1 == nil)
        #expect(page("/", [("pano", "senaatintori-005"), ("heading", "10")], ["sec-ch-viewport-width": "2000", "sec-ch-viewport-height": "2000"]).1 == nil)
        #expect(page("/", [("pano", "senaatintori-005"), ("heading", "nan")], hints).1 == nil, "no heading, no first view")
        // A server that wants keys cannot name one in the page.
        var keyed = try ServiceFixture.configuration()
        keyed.apiKeys = ["page-test-key"]
        guard case .respond(let refused) = try SceneService(configuration: keyed)
            .handle(HTTPRequest(path: "/", query: [("pano", "senaatintori-005"), ("heading", "10")], headers: hints)).disposition else {
            Issue.record("a keyed server prepared a frame"); return
        }
        #expect(!String(decoding: refused.body, as: UTF8.self).contains("la-first-view"))
    }

    @Test func thePageNeedsNoKeyButTheAPIDoes() throws {
        var configuration = try ServiceFixture.configuration()
        configuration.apiKeys = ["page-test-key"]
        let service = try SceneService(configuration: configuration)
        for path in ["/", "/lookaround.js", "/leaflet/leaflet.js", "/@60.17,24.95,3a,75y,0h,90t"] {
            guard case .respond(let response) = service.handle(HTTPRequest(path: path)).disposition else {
                Issue.record("\(path) was not answered at once"); continue
            }
            #expect(response.status == 200, "\(path): \(response.status)")
        }
        guard case .respond(let refused) = service.handle(HTTPRequest(path: "/v1/walk", query: [("from", "60.1695,24.951"), ("to", "60.1695,24.953")])).disposition else {
            Issue.record("the walk was not refused at once"); return
        }
        #expect(refused.status == 403)
    }

    @Test func aMoveIsItsFramesInOrder() throws {
        let query = "from=senaatintori-005&to=senaatintori-006&heading_degrees=85.8&size=160x90&frames=4"
        let move = try ServiceFixture.get("/v1/move?" + query)
        #expect(move.status == 200 && move.header("content-type") == "application/x-lookaround-frames", "\(move.text.prefix(200))")
        #expect(move.header("x-move") == "depth-warp")
        let lengths = try #require(move.header("x-frame-lengths")).split(separator: ",").compactMap { Int($0) }
        #expect(lengths.count == 4 && lengths.reduce(0, +) == move.body.count, "\(lengths) for \(move.body.count) bytes")
        var offset = 0, frames: [RGB8Image] = []
        for length in lengths {
            let frame = try JPEGCodec.decodeRGB(Array(move.body[offset..<(offset + length)])).image
            #expect(frame.width == 160 && frame.height == 90)
            frames.append(frame)
            offset += length
        }
        // The camera moves 12 m east looking east: frames differ from each other, and the last is the
        // view from the second panorama (its snapshot without labels, at the same camera).
        #expect(ImageMetrics.psnr(frames[0], frames[3]) < 30)
        let end = try ServiceFixture.get("/v1/snapshot?scene=senaatintori-006&heading_degrees=85.8&size=160x90&labels=none&format=png")
        let snapshot = try PNGCodec.decodeRGB(end.body)
        let agreement = ImageMetrics.psnr(frames[3], snapshot)
        #expect(agreement >= 27, "the move's last frame against the destination's view: \(agreement) dB")

        for (bad, parameter) in [("from=senaatintori-005&frames=4", "to"), ("from=senaatintori-005&to=senaatintori-006&frames=1", "frames"),
                                 ("from=senaatintori-005&to=senaatintori-006&frames=31", "frames"),
                                 ("from=senaatintori-005&to=senaatintori-006&size=2000x1000&frames=10", "size"),
                                 ("from=senaatintori-005&to=senaatintori-006&fov_degrees=nan", "fov_degrees"),
                                 ("from=senaatintori-005&to=senaatintori-006&spin=1", "spin")] {
            let refused = try ServiceFixture.get("/v1/move?" + bad)
            #expect(refused.status == 400 && (try? refused.json()["error"] as? [String: Any])?["parameter"] as? String == parameter,
                    "\(bad): \(refused.status) \(refused.text)")
        }
        #expect(try ServiceFixture.get("/v1/move?from=senaatintori-005&to=no-such-panorama&size=64x48").status == 404)
    }

    @Test func aViewersStaleFramesAreDroppedUnrendered() throws {
        let service = try SceneService(configuration: try ServiceFixture.configuration())
        func frame(_ viewer: String, _ sequence: Int, heading: Int) -> @Sendable () -> HTTPResponse {
            let request = HTTPRequest(path: "/v1/snapshot", query: [("scene", "senaatintori-005"), ("heading_degrees", "\(heading)"),
                                                                   ("size", "64x48"), ("viewer", viewer), ("seq", "\(sequence)")])
            guard case .render(let work) = service.handle(request).disposition else { return { HTTPResponse(status: 0, contentType: "", body: []) } }
            return work
        }
        // Three cameras of viewer A queued while a render worker is busy, one of viewer B in between:
        // A's first two are dropped (204), its newest and B's are rendered.
        let a1 = frame("A", 1, heading: 10), a2 = frame("A", 2, heading: 20), b1 = frame("B", 1, heading: 30), a3 = frame("A", 3, heading: 40)
        let first = a1(), second = a2()
        #expect(first.status == 204 && first.headers.contains { $0.name == "X-Superseded" }, "\(first.status)")
        #expect(second.status == 204)
        #expect(b1().status == 200)
        let newest = a3()
        #expect(newest.status == 200 && newest.contentType == "image/jpeg")
        // A frame asked for again (a repeat of an old camera) after a newer one is still dropped, and
        // the count is in the metrics.
        #expect(frame("A", 2, heading: 20)().status == 204)
        guard case .respond(let metrics) = service.handle(HTTPRequest(path: "/metrics")).disposition else { Issue.record("no metrics"); return }
        #expect(String(decoding: metrics.body, as: UTF8.self).contains("lookaround_viewer_frames_superseded_total 3"))
        // A bad viewer id or sequence is a clear 400.
        for query in [[("viewer", ""), ("seq", "1")], [("viewer", "A"), ("seq", "-1")], [("viewer", String(repeating: "x", count: 65))]] {
            guard case .respond(let refused) = service.handle(HTTPRequest(path: "/v1/snapshot", query: [("scene", "senaatintori-005")] + query)).disposition
            else { Issue.record("\(query) was not refused at once"); continue }
            #expect(refused.status == 400, "\(query): \(refused.status)")
        }
    }

    @Test func aWalkIsItsStopsBetweenTwoPlaces() throws {
        let walk = try ServiceFixture.get("/v1/walk?from=60.16948,24.9510&to=60.16948,24.9535")
        #expect(walk.status == 200, "\(walk.text)")
        let answer = try walk.json()
        let stops = try #require(answer["stops"] as? [[String: Any]])
        #expect(stops.count >= 5, "\(stops.count) stops")
        let ids = stops.compactMap { $0["panorama_id"] as? String }
        #expect(ids.allSatisfy { $0.hasPrefix("senaatintori-") }, "\(ids)")
        let length = try #require(answer["length_meters"] as? Double)
        #expect(length > 100 && length < 160, "\(length) m for about 139 m east along Senaatintori")
        #expect(try ServiceFixture.get("/v1/walk?from=Senaatintori").status == 400)
        #expect(try ServiceFixture.get("/v1/walk?from=91,24&to=60.16948,24.9535").status == 400)
        #expect(try ServiceFixture.get("/v1/walk?from=Qqqxxzz&to=Senaatintori").status == 404)
    }
}

extension HTTPResponse {
    /// The last value of header `name` (any case), nil when absent.
    func header(_ name: String) -> String? { headers.last { $0.name.lowercased() == name.lowercased() }?.value }
}
