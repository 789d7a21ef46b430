import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Playback
import Reprojection
import Synchronization

/// The web viewer's routes: the page and its files (`/`, `/@…` deep links, `/lookaround.js`, Leaflet),
/// the depth-warped move between two panoramas as a burst of frames (`/v1/move`), a walk's stops
/// between two places (`/v1/walk`), and the dropping of frames a viewer no longer waits for.
///
/// Nothing is drawn in the browser beyond placing these frames: every view is rendered here by the
/// library that renders `lookaround snapshot` and the walkthroughs' moves, so the page needs neither
/// WebGL nor a GPU.
extension SceneService {
    /// The page's Content-Security-Policy: its own origin only, no inline script or style, no plugins.
    static let pageSecurityPolicy = "default-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'self'"

    /// Whether `path` is the page: `/`, `/index.html`, or a camera in Google's form (`/@60.17,24.95,3a,75y,90h,90t`).
    static func isPagePath(_ path: String) -> Bool {
        path == "/" || path == "/index.html" || path.hasPrefix("/@")
    }

    /// The client hints the page asks for: the window's size in CSS pixels and its device pixel ratio.
    static let viewportHints = "Sec-CH-Viewport-Width, Sec-CH-Viewport-Height, Sec-CH-DPR"

    /// `/` and `/@…`: the page. A deep link naming a panorama and a heading, from a browser that sends
    /// the viewport's client hints (Chromium; asked for with `Critical-CH`, which has it ask again with
    /// them), gets the page with its first view in it: an `<img>` of `/v1/snapshot` for that camera at
    /// the window's device pixel size, the very frame the full-window viewer asks for first. The
    /// browser fetches it with first-view.css and first-view.js alone, the rest of the page being held
    /// in a `<template>` until the picture is painted (``WebResources/firstViewPage(_:)``), and an idle render
    /// worker starts making it now, so it is in the response cache by then. Other browsers get the same
    /// `<img>` from first-view.js.
    func page(_ request: HTTPRequest) -> HTTPDisposition {
        let resources: WebResources
        do { resources = try WebResources.current() } catch { return .respond(self.error(error, streetView: false)) }
        guard let index = resources.files["/index.html"] else { return .respond(self.error(ServiceError.notFound(path: request.path), streetView: false)) }
        guard let camera = FirstViewCamera(request) else { return .respond(webFile(index, path: "/index.html", request: request)) }
        // With keys required the page cannot name one (first-view.js adds the one the user gave).
        guard !keys.isEnabled, let size = camera.pixelSize(hints: request.headers),
              size.width * size.height <= configuration.maximumImagePixels, let held = resources.firstView else {
            return .respond(webFile(index, path: "/index.html", request: request, asksForHints: true))
        }
        let frame = camera.snapshotRequest(size: size)
        // fetchpriority: the picture is what the page is for until it is painted.
        let image = "<img class=\"la-first-view\" alt=\"\" fetchpriority=\"high\" elementtiming=\"lookaround-first-view\" data-key=\"\(Self.attribute(camera.key(size: size)))\" src=\"\(Self.attribute(frame.url))\">\n"
        let page = held.beforePicture + image + held.afterPicture
        // Its own ETag: the condition is checked on the page sent, not on the page without the picture.
        let bytes = Array(page.utf8)
        let file = WebResources.File(contentType: index.contentType, bytes: bytes, gzipped: WebResources.gzip(bytes), etag: entityTag(of: bytes))
        let response = webFile(file, path: "/index.html", request: request, asksForHints: true)
        // The frame, made by an idle render worker while the browser reads the page.
        guard case .render(let work) = rendered(.snapshot, frame.request) else { return .respond(response) }
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

    /// The page's files (`/lookaround.js`, Leaflet), compressed for clients that take gzip; ETag and 304.
    func webFile(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        guard let file = try WebResources.current().files[request.path] else { throw .notFound(path: request.path) }
        return webFile(file, path: request.path, request: request)
    }

    /// `file` served at `path`: gzip for clients that take it, its ETag and 304; for HTML the page's
    /// policy and the viewport hints it asks for (`Critical-CH` too when it `asksForHints`: a deep link
    /// naming a camera).
    func webFile(_ file: WebResources.File, path: String, request: HTTPRequest, asksForHints: Bool = false) -> HTTPResponse {
        let isPage = file.contentType.hasPrefix("text/html")
        var headers: [(name: String, value: String)] = [
            ("ETag", file.etag), ("X-Content-Type-Options", "nosniff"),
            ("Vary", isPage ? "Accept-Encoding, " + Self.viewportHints : "Accept-Encoding"),
            // Leaflet changes only with the program; the page and the viewer's script are checked each time.
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
        return conditional(HTTPResponse(contentType: file.contentType, headers: headers, body: body), etag: file.etag, request: request)
    }

    // MARK: /v1/move

    /// The move's query parameters (besides `viewer` and `seq`, which every frame route takes).
    static let moveParameters = ["from", "to", "heading_degrees", "pitch_degrees", "fov_degrees", "size", "frames", "quality"]
    /// Frames of a move: from 2 up to this many.
    static let maximumMoveFrames = 30

    /// `GET /v1/move?from=ID&to=ID&heading_degrees=&pitch_degrees=&fov_degrees=&size=WxH&frames=N`: the
    /// depth-warped transition of `walk` and `view` (a crossfade where a panorama has no depth map), as
    /// N JPEG frames at fractions 1/N … N/N of the way, one after another in the body
    /// (`application/x-lookaround-frames`), their byte lengths in `X-Frame-Lengths`. The last frame is the
    /// view from `to` without labels; the page then asks `/v1/snapshot` for the labelled one.
    func moveJob(_ request: HTTPRequest) throws -> RenderJob {
        let query = QueryParameters(request: request)
        guard let fromID = query.string("from"), let toID = query.string("to") else {
            throw ServiceError.invalidParameter(parameter: query.string("from") == nil ? "from" : "to",
                                                message: "give from=ID and to=ID, the panoramas the move starts and ends at")
        }
        var camera = LookAroundSnapshotter.Camera()
        camera.headingDegrees = try query.heading("heading_degrees") ?? 0
        camera.pitchDegrees = try query.double("pitch_degrees", in: ViewCamera.pitchRangeDegrees, unit: "degrees") ?? 0
        camera.fieldOfViewDegrees = try query.double("fov_degrees", in: ViewCamera.fieldOfViewRangeDegrees, unit: "degrees") ?? 90
        let sizeText = query.string("size") ?? "640x360"
        let size: PixelSize
        do { size = try PixelSize(parsing: sizeText, maximumSide: 4096) } catch {
            throw ServiceError.invalidParameter(parameter: "size", message: "size '\(sizeText)': \(error)")
        }
        let frames = try query.int("frames", in: 2...Self.maximumMoveFrames) ?? 10
        let quality = try query.int("quality", in: 1...100) ?? 80
        try checkPixels(size.width * size.height * frames)
        let view: ViewCamera
        do {
            view = try ViewCamera(headingDegrees: camera.headingDegrees ?? 0, pitchDegrees: camera.pitchDegrees,
                                  fieldOfViewDegrees: camera.fieldOfViewDegrees, width: size.width, height: size.height)
        } catch {
            throw ServiceError.invalidParameter(parameter: "size", message: "\(error)")
        }
        let from = try catalog.panorama(id: fromID), to = try catalog.panorama(id: toID)
        return RenderJob(key: cacheKey("move", request), cacheControl: "public, max-age=3600", streetView: false) {
            let frame = try LocalTangentFrame(origin: from.coordinate)
            let level = PanoramaTransition.Endpoint.level(for: view, panoramaWidth: from.fullWidth)
            var transition = try Self.rendering(from.id) {
                PanoramaTransition(from: try PanoramaTransition.Endpoint(record: from, frame: frame, level: level),
                                   to: try Self.rendering(to.id) { try PanoramaTransition.Endpoint(record: to, frame: frame, level: level) })
            }
            var body: [UInt8] = [], lengths: [String] = []
            var picture = RGB8Image(width: size.width, height: size.height)
            for k in 1...frames {
                try transition.render(fraction: Double(k) / Double(frames), camera: view, into: &picture)
                let jpeg = try JPEGCodec.encode(picture, quality: quality)
                body += jpeg
                lengths.append(String(jpeg.count))
            }
            return HTTPResponse(contentType: "application/x-lookaround-frames",
                                headers: [("X-Frame-Lengths", lengths.joined(separator: ",")),
                                          ("X-Move", transition.usesDepth ? "depth-warp" : "crossfade")],
                                body: body)
        }
    }

    // MARK: /v1/walk

    /// `GET /v1/walk?from=PLACE|LAT,LON&to=PLACE|LAT,LON`: the stops of the walk `lookaround walk --from
    /// --to` takes (over the panoramas' links), for the page to play move by move.
    func walk(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let query = QueryParameters(request: request)
        let language = query.string("language")
        let from = try requestedPlace(query.string("from"), parameter: "from", language: language)
        let to = try requestedPlace(query.string("to"), parameter: "to", language: language)
        // A coordinate given as LAT,LON has no name: the stop says what was asked.
        let fromName = from.name.isEmpty ? nil : from.name, toName = to.name.isEmpty ? nil : to.name
        let route: WalkRoute
        do {
            route = try walkPlanner(language: language).route(from: from.coordinate, to: to.coordinate, fromName: fromName, toName: toName)
        } catch let error as PlaybackError {
            throw .noImagery(detail: error.description)
        } catch { throw QueryParameters.translate(error) }
        var writer = JSONWriter(capacity: 256 + 160 * route.stops.count)
        writer.beginObject()
        writer.field("from", fromName ?? query.string("from") ?? "")
        writer.field("length_meters", (route.lengthMeters * 10).rounded() / 10)
        writer.key("stops")
        writer.beginArray()
        for stop in route.stops {
            writer.beginObject()
            writer.field("distance_meters", (stop.distanceMeters * 10).rounded() / 10)
            writer.field("latitude", stop.coordinate.latitude)
            writer.field("longitude", stop.coordinate.longitude)
            writer.field("panorama_id", stop.panoramaID)
            writer.key("street")
            if let street = stop.streetName { writer.value(street) } else { writer.null() }
            writer.field("waypoint", stop.isWaypoint)
            writer.endObject()
        }
        writer.endArray()
        writer.field("to", toName ?? query.string("to") ?? "")
        writer.endObject()
        return .json(writer.bytes)
    }

    /// The walk planner of the catalog's current revision (the link graph is read once per revision
    /// and language).
    func walkPlanner(language: String?) throws -> RoutePlanner {
        let revision = catalog.revision, key = language ?? ""
        if let planner = walkPlanners.withLock({ $0.revision == revision ? $0.planners[key] : nil }) { return planner }
        let planner = try RoutePlanner(catalog: catalog, language: language)
        walkPlanners.withLock {
            if $0.revision != revision { $0 = WalkPlanners(revision: revision) }
            if $0.planners.count >= 8 { $0.planners.removeAll() }
            $0.planners[key] = planner
        }
        return planner
    }
}

/// Walk planners by label language, for one catalog revision.
struct WalkPlanners: Sendable {
    var revision: Int64 = -1
    var planners: [String: RoutePlanner] = [:]
}

/// The newest frame each viewer asked for (`viewer=ID&seq=N` on `/v1/snapshot` and `/v1/move`): a frame
/// job still queued when a newer one of its viewer arrived is dropped before it is rendered (answered
/// 204 with `X-Superseded`), so a dragging viewer costs one render per frame it will show, not one per
/// pointer event. Bounded: past ``capacity`` viewers the table starts again (a forgotten viewer's
/// frames are rendered, never wrongly dropped).
final class ViewerSessions: Sendable {
    static let capacity = 4096
    private let newest = Mutex<[String: Int]>([:])

    /// Notes that `viewer` asked for frame `sequence`.
    func note(viewer: String, sequence: Int) {
        newest.withLock { table in
            if table.count >= Self.capacity && table[viewer] == nil { table.removeAll(keepingCapacity: true) }
            table[viewer] = max(table[viewer] ?? sequence, sequence)
        }
    }

    /// Whether a newer frame than `sequence` was asked for by `viewer`.
    func isSuperseded(viewer: String, sequence: Int) -> Bool {
        newest.withLock { ($0[viewer] ?? sequence) > sequence }
    }
}
