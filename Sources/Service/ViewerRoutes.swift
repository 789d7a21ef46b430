import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Playback
import Reprojection
import Synchronization

/// The web viewer's own API: the depth-warped move between two panoramas as a burst of frames
/// (`/v1/move`) and a walk's stops between two places (`/v1/walk`). Nothing is drawn in the browser
/// beyond placing these frames: every view is rendered here by the library that renders `lookaround
/// snapshot` and the walkthroughs' moves, so the page needs neither WebGL nor a GPU.
struct ViewerRoutes: RouteFamily {
    let catalog: Catalog
    let places: PlaceLookup
    let limit: ImageLimit
    let walkPlanners = WalkPlanners()

    var routes: [Route] {
        [Route(.get, PathPattern("/v1/move"), label: "move", parameters: Self.moveParameters + ["viewer", "seq"], .rendered { try moveJob($0) }),
         Route(.get, PathPattern("/v1/walk"), label: "walk", parameters: ["from", "to", "language"], .worker { try walk($0) })]
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
        try ViewerFrame.job(request) { try moveJob(drawing: $0) }
    }

    private func moveJob(drawing request: HTTPRequest) throws -> RenderJob {
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
        try limit.check(size.width * size.height * frames)
        let view: ViewCamera
        do {
            view = try ViewCamera(headingDegrees: camera.headingDegrees ?? 0, pitchDegrees: camera.pitchDegrees,
                                  fieldOfViewDegrees: camera.fieldOfViewDegrees, width: size.width, height: size.height)
        } catch {
            throw ServiceError.invalidParameter(parameter: "size", message: "\(error)")
        }
        let from = try catalog.panorama(id: fromID), to = try catalog.panorama(id: toID)
        return RenderJob(key: RenderPipeline.cacheKey("move", request), cacheControl: "public, max-age=3600") {
            let frame = try LocalTangentFrame(origin: from.coordinate)
            let level = PanoramaTransition.Endpoint.level(for: view, panoramaWidth: from.fullWidth)
            var transition = try ImageRoutes.rendering(from.id) {
                PanoramaTransition(from: try PanoramaTransition.Endpoint(record: from, frame: frame, level: level),
                                   to: try ImageRoutes.rendering(to.id) { try PanoramaTransition.Endpoint(record: to, frame: frame, level: level) })
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
        let from = try places.place(query.string("from"), parameter: "from", language: language)
        let to = try places.place(query.string("to"), parameter: "to", language: language)
        // A coordinate given as LAT,LON has no name: the stop says what was asked.
        let fromName = from.name.isEmpty ? nil : from.name, toName = to.name.isEmpty ? nil : to.name
        let route: WalkRoute
        do {
            route = try walkPlanners.planner(catalog: catalog, language: language).route(from: from.coordinate, to: to.coordinate, fromName: fromName, toName: toName)
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

}

/// The walk planners of the catalog's current revision, by label language (the link graph is read once
/// per revision and language; at most 8 languages are kept).
final class WalkPlanners: Sendable {
    private let kept = Mutex<(revision: Int64, planners: [String: RoutePlanner])>((-1, [:]))

    /// The planner of `catalog`'s current revision for `language`.
    func planner(catalog: Catalog, language: String?) throws -> RoutePlanner {
        let revision = catalog.revision, key = language ?? ""
        if let planner = kept.withLock({ $0.revision == revision ? $0.planners[key] : nil }) { return planner }
        let planner = try RoutePlanner(catalog: catalog, language: language)
        kept.withLock {
            if $0.revision != revision { $0 = (revision, [:]) }
            if $0.planners.count >= 8 { $0.planners.removeAll() }
            $0.planners[key] = planner
        }
        return planner
    }
}
