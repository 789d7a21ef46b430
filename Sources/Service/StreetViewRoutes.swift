import Catalog
import CommandOptions
import Foundation
import Geodesy
import Imaging
import LookAround
import Reprojection

/// Google Street View Static API compatibility: `GET /maps/api/streetview/metadata` and
/// `GET /maps/api/streetview`, with Google's parameters, defaults, status values and error shapes, so
/// a client written for Google's API works when its base URL points here.
struct StreetViewRoutes: RouteFamily {
    let catalog: Catalog
    let cached: CachedAnswers
    let panoramas: PanoramaCache
    let limit: ImageLimit
    let errors: ErrorAnswers

    var routes: [Route] {
        // Google's parameters (and any others, which Google ignores too).
        [Route(.get, PathPattern("/maps/api/streetview/metadata"), label: "streetview_metadata", errors: .streetViewMetadata,
               parameters: nil, .answer { streetViewMetadata($0) }),
         Route(.get, PathPattern("/maps/api/streetview"), label: "streetview_image", errors: .streetViewImage, parameters: nil,
               .rendered { try streetViewImageJob($0) })]
    }

    /// Google's largest image side, pixels.
    static let streetViewMaximumSide = 640

    /// A Street View request's scene: from `pano` (an id), or from `location` (`lat,lng` or a place
    /// name) within `radius` metres (default 50), with `source` `default` or `outdoor`.
    struct StreetViewLookup {
        var scene: LookAroundScene?
        /// The answer's request point (nil for `pano`).
        var point: GeoCoordinate?
    }

    func streetViewLookup(_ request: HTTPRequest) throws(ServiceError) -> StreetViewLookup {
        let query = QueryParameters(request: request)
        let radius = try query.double("radius", in: SceneRequest.radiusRange, unit: "metres") ?? SceneRequest.defaultRadiusMeters
        _ = try query.choice("source", ["default", "outdoor"])
        if let id = query.string("pano"), !id.isEmpty {
            do {
                return StreetViewLookup(scene: try LookAroundScene(panoramaID: id, catalog: catalog), point: nil)
            } catch let error as CatalogError {
                if case .unknownPanorama = error { return StreetViewLookup(scene: nil, point: nil) }
                throw QueryParameters.translate(error)
            } catch {
                throw QueryParameters.translate(error)
            }
        }
        guard let location = query.string("location"), location.utf8.contains(where: { $0 != UInt8(ascii: " ") }) else {
            throw .invalidParameter(parameter: "location", message: "give location (lat,lng or a place name) or pano")
        }
        let point: GeoCoordinate
        if let pair = QueryParameters.numberPair(location) {
            point = try QueryParameters.coordinate(pair, text: location, parameter: "location")
        } else {
            do { point = try catalog.locate(location, language: nil).coordinate } catch {
                throw QueryParameters.translate(error)
            }
        }
        let answer: SceneAnswer
        do { answer = try catalog.scene(for: SceneRequest(coordinate: point, radiusMeters: radius), detailCache: cached.details) } catch {
            throw QueryParameters.translate(error)
        }
        return StreetViewLookup(scene: answer.scene.map(LookAroundScene.init(match:)), point: point)
    }

    // MARK: Metadata

    /// `GET /maps/api/streetview/metadata`: always HTTP 200 with Google's `status`; with `OK` also
    /// `copyright`, `date` (`YYYY-MM`), `location` and `pano_id`.
    func streetViewMetadata(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let revision = catalog.revision
            let lookup = try streetViewLookup(request)
            guard let scene = lookup.scene else { return ErrorAnswers.streetViewStatus("ZERO_RESULTS", message: nil) }
            let match = scene.match
            return .json(cached.fragments.metadata(of: match.panoramaID, revision: revision) {
                var writer = JSONWriter(capacity: 256)
                writer.beginObject()
                writer.field("copyright", match.source == .simulated
                             ? "© OpenStreetMap contributors; imagery simulated by lookaround" : "© the photographer")
                writer.field("date", String(match.captureTime.prefix(7)))
                writer.key("location")
                writer.beginObject()
                writer.field("lat", match.latitude)
                writer.field("lng", match.longitude)
                writer.endObject()
                writer.field("pano_id", match.panoramaID)
                writer.field("status", "OK")
                writer.endObject()
                return writer.bytes
            })
        } catch {
            return errors.response(error, shape: .streetViewMetadata)
        }
    }

    // MARK: Image

    /// `GET /maps/api/streetview`: `size` (required, up to 640×640), `location` or `pano`, `heading`
    /// (default: toward the location), `pitch` (−90…90, default 0), `fov` (10…120, default 90),
    /// `radius`, `source`, `return_error_code`. A JPEG; no imagery: a grey image (200), or 404 with
    /// `return_error_code=true`; invalid: 400.
    func streetViewImageJob(_ request: HTTPRequest) throws(ServiceError) -> RenderJob {
        let query = QueryParameters(request: request)
        guard let sizeText = query.string("size") else {
            throw .invalidParameter(parameter: "size", message: "size is required: {width}x{height} in pixels, up to 640x640")
        }
        let size: PixelSize
        do { size = try PixelSize(parsing: sizeText, maximumSide: Self.streetViewMaximumSide) } catch {
            throw .invalidParameter(parameter: "size", message: "size '\(sizeText)' is not {width}x{height} with sides 1…640 pixels")
        }
        try limit.check(size.width * size.height)
        let heading = try query.heading("heading")
        let pitch = try query.double("pitch", in: -90...90, unit: "degrees") ?? 0
        let fov = try query.double("fov", in: 10...120, unit: "degrees") ?? 90
        let returnErrorCode = query.string("return_error_code")?.lowercased() == "true"
        let lookup = try streetViewLookup(request)
        let key = RenderPipeline.cacheKey("streetview", request)
        guard let scene = lookup.scene else {
            if returnErrorCode { throw .unknownPanorama(id: query.string("pano") ?? query.string("location") ?? "") }
            return RenderJob(key: key, cacheControl: "public, max-age=600") {
                HTTPResponse(contentType: "image/jpeg", body: try JPEGCodec.encode(try Self.noImagery(size: size), quality: 85))
            }
        }
        var options = LookAroundSnapshotter.Options(size: size, camera: LookAroundSnapshotter.Camera(
            headingDegrees: heading, pitchDegrees: pitch, fieldOfViewDegrees: fov), pointOfInterestFilter: .excludingAll,
                                                    showsRoadLabels: false)
        options.language = nil
        let snapshotter = LookAroundSnapshotter(scene: scene, options: options, cache: panoramas, catalog: catalog)
        return RenderJob(key: key, cacheControl: "public, max-age=3600") {
            let snapshot = try ImageRoutes.rendering(scene.panoramaID) { try snapshotter.render() }
            return HTTPResponse(contentType: "image/jpeg", headers: [("X-Panorama-Id", snapshot.panoramaID)],
                                body: try JPEGCodec.encode(snapshot.image, quality: 90))
        }
    }

    /// The fonts of the "no imagery" image, loaded once.
    private static let fonts: FontLibrary? = try? FontLibrary()

    /// A grey image saying there is no imagery here (what Google sends for a location without any).
    static func noImagery(size: PixelSize) throws -> RGB8Image {
        var canvas = Canvas(width: size.width, height: size.height, background: RGBAColor(red: 228, green: 227, blue: 223))
        if let fonts {
            let renderer = TextRenderer(fonts: fonts)
            let text = "Sorry, we have no imagery here."
            let pixelSize = max(8, min(24, Double(size.width) / 18))
            let style = TextStyle(pixelSize: pixelSize, color: RGBAColor(red: 120, green: 120, blue: 120))
            let metrics = try renderer.measure(text, style: style)
            try renderer.draw(text, at: PixelPoint(x: (Double(size.width) - metrics.advanceWidth) / 2,
                                                   y: Double(size.height) / 2 + pixelSize / 3), style: style, on: &canvas)
        }
        let rgba = canvas.image
        var rgb = RGB8Image(width: size.width, height: size.height)
        for i in 0..<(size.width * size.height) {
            rgb.components[3 * i] = rgba.components[4 * i]
            rgb.components[3 * i + 1] = rgba.components[4 * i + 1]
            rgb.components[3 * i + 2] = rgba.components[4 * i + 2]
        }
        return rgb
    }
}
