import Foundation

/// The web viewer's page and its files: `/` (and `/index.html`), deep links `/@…`, the page's scripts
/// and styles (`/lookaround.js`, `/lookaround/*.js`, `/app.js`, Leaflet). Open to every client: the page
/// asks for the API key itself when the server needs one.
struct WebPageRoutes: RouteFamily {
    let keys: APIKeys
    let images: ImageRoutes
    let pipeline: RenderPipeline
    let limit: ImageLimit

    var routes: [Route] {
        // The page takes a camera (`?pano=&heading=&pitch=&fov=`) for its scripts; its files, cache busters.
        [Route(.get, PathPattern("/"), label: "page", access: .open, parameters: nil, .disposition { try page($0) }),
         Route(.get, PathPattern("/index.html"), label: "page", access: .open, parameters: nil, .disposition { try page($0) }),
         Route(.get, PathPattern("/@{camera}"), label: "page", access: .open, parameters: nil, .disposition { try page($0) }),
         Route(.get, PathPattern("/{file}", accepts: WebResources.isFilePath), label: "asset", access: .open, parameters: nil,
               .answer { try file($0) })]
    }

    /// The page's Content-Security-Policy: its own origin only, no inline script or style, no plugins.
    static let pageSecurityPolicy = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

    /// The client hints the page asks for: the window's size in CSS pixels and its device pixel ratio.
    static let viewportHints = "Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-DPR"

    /// `/` and `/@…`: the page. A deep link naming a panorama and a heading, from a browser that sends
    /// the viewport's client hints (Chromium; asked for with `Critical-CH`, which has it ask again with
    /// them), gets the page with its first view in it: an `<img>` of `/v1/snapshot` for that camera at
    /// the window's device pixel size, the very frame the full-window viewer asks for first. The
    /// browser fetches it with first-view.css and first-view.js alone, the rest of the page being held
    /// in a `<template>` until the picture is painted (``WebPage/firstView(picture:)``), and an idle
    /// render worker starts making it now, so it is in the response cache by then. Other browsers get
    /// the same `<img>` from first-view.js.
    func page(_ request: HTTPRequest) throws(ServiceError) -> HTTPDisposition {
        let resources = try WebResources.current()
        let index = resources.page.plain
        guard let camera = FirstViewCamera(request) else { return .respond(serve(index, path: "/index.html", request: request)) }
        // With keys required the page cannot name one (first-view.js adds the one the user gave).
        guard !keys.isEnabled, let size = camera.pixelSize(hints: request.headers),
              size.width * size.height <= limit.maximumPixels else {
            return .respond(serve(index, path: "/index.html", request: request, asksForHints: true))
        }
        let frame = camera.snapshotRequest(size: size)
        // fetchpriority: the picture is what the page is for until it is painted.
        let picture = "<img class=\"la-first-view\" alt=\"\" fetchpriority=\"high\" elementtiming=\"lookaround-first-view\" "
            + "data-key=\"\(Self.attribute(camera.key(size: size)))\" src=\"\(Self.attribute(frame.url))\">\n"
        // Its own ETag: the condition is checked on the page sent, not on the page without the picture.
        let file = WebResources.File(html: resources.page.firstView(picture: picture))
        let response = serve(file, path: "/index.html", request: request, asksForHints: true)
        // The frame, made by an idle render worker while the browser reads the page.
        guard case .render(let work) = pipeline.disposition(frame.request, shape: .native, { try images.snapshotJob($0) }) else {
            return .respond(response)
        }
        return .respondAndPrepare(response, prepare: { _ = work() })
    }

    /// `text` for an HTML attribute value in double quotes.
    static func attribute(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    static func takesGzip(_ request: HTTPRequest) -> Bool {
        request.headers["accept-encoding"].map { header in
            header.split(separator: ",").contains { $0.split(separator: ";").first?.trimmingCharacters(in: .whitespaces) == "gzip" }
        } ?? false
    }

    /// The page's files (`/lookaround.js`, its modules, Leaflet), compressed for clients that take gzip; ETag and 304.
    func file(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        guard let file = try WebResources.current().files[request.path] else { throw .notFound(path: request.path) }
        return serve(file, path: request.path, request: request)
    }

    /// `file` served at `path`: gzip for clients that take it, its ETag and 304; for HTML the page's
    /// policy and the viewport hints it asks for (`Critical-CH` too when it `asksForHints`: a deep link
    /// naming a camera).
    func serve(_ file: WebResources.File, path: String, request: HTTPRequest, asksForHints: Bool = false) -> HTTPResponse {
        let isPage = file.contentType.hasPrefix("text/html")
        var headers: [(name: String, value: String)] = [
            ("ETag", file.etag), ("X-Content-Type-Options", "nosniff"),
            ("Vary", isPage ? "Accept-Encoding, " + Self.viewportHints : "Accept-Encoding"),
            // Leaflet changes only with the program; the page and the viewer's scripts are checked each time.
            ("Cache-Control", path.hasPrefix("/leaflet/") ? "public, max-age=86400" : "no-cache"),
        ]
        if isPage {
            headers += [("Content-Security-Policy", Self.pageSecurityPolicy), ("Referrer-Policy", "no-referrer"),
                        ("Accept-CH", Self.viewportHints)]
            if asksForHints { headers.append(("Critical-CH", Self.viewportHints)) }
        }
        var body = file.bytes
        if Self.takesGzip(request), let gzipped = file.gzipped {
            body = gzipped
            headers.append(("Content-Encoding", "gzip"))
        }
        return RenderPipeline.conditional(HTTPResponse(contentType: file.contentType, headers: headers, body: body), etag: file.etag, request: request)
    }
}
