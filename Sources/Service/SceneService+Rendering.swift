import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import Geodesy
import Imaging
import LookAround
import MapSnapshot
import Reprojection
import Synchronization

/// A validated render request: its cache key and the work, run on a render worker.
struct RenderJob: Sendable {
    /// Route, catalog and canonical query: equal keys give equal bytes.
    var key: String
    /// `Cache-Control` of a successful answer.
    var cacheControl: String
    /// Whether an error answer takes Google's shape.
    var streetView: Bool
    /// Makes the answer.
    var work: @Sendable () throws -> HTTPResponse
}

extension SceneService {
    static let snapshotSpec = CommandSpec(name: "snapshot", abstract: "",
                                          options: SceneSelection.sceneOptions + SceneSelection.cameraOptions + SnapshotOptions.options)
    static let mapSpec = CommandSpec(name: "map", abstract: "", options: MapOptions.options)

    /// Images and tiles: validated here on the network thread (errors answer at once), answered from
    /// the response cache when they can be, otherwise made by a render worker and cached.
    func rendered(_ route: Route, _ request: HTTPRequest) -> HTTPDisposition {
        // Before the catalog is asked anything: answers are cached per catalog revision, and one made
        // while the revision changed is not kept (it may come from the old catalog).
        let revision = catalog.revision
        let job: RenderJob
        // A viewer's frame (`viewer=ID&seq=N`, snapshot and move): neither is part of what is drawn.
        var frameRequest = request, viewer: (id: String, sequence: Int)?
        do {
            if route == .snapshot || route == .move, let id = request.argument("viewer") {
                let sequence = try QueryParameters(request: request).int("seq", in: 0...Int(Int32.max)) ?? 0
                guard !id.isEmpty, id.utf8.count <= 64 else {
                    throw ServiceError.invalidParameter(parameter: "viewer", message: "viewer is an id of 1…64 bytes")
                }
                viewer = (id, sequence)
                frameRequest.query.removeAll { $0.name == "viewer" || $0.name == "seq" }
                viewers.note(viewer: id, sequence: sequence)
            }
            switch route {
            case .tile: job = try tileJob(request)
            case .snapshot: job = try snapshotJob(frameRequest)
            case .move: job = try moveJob(frameRequest)
            case .map: job = try mapJob(request)
            case .mapTile: job = try mapTileJob(request)
            default: job = try streetViewImageJob(request)
            }
        } catch {
            return .respond(self.error(QueryParameters.translate(error), streetView: route == .streetViewImage))
        }
        let key = "\(revision)|" + job.key
        if let cached = responses.response(for: key) {
            metrics.recordResponseCache(hit: true)
            return .respond(conditional(cached.response, etag: cached.etag, request: request))
        }
        metrics.recordResponseCache(hit: false)
        let viewers = self.viewers, frameOf = viewer
        return .render { [self] in
            if let viewer = frameOf, viewers.isSuperseded(viewer: viewer.id, sequence: viewer.sequence) {
                metrics.recordSupersededFrame()
                return HTTPResponse(status: 204, contentType: "text/plain", headers: [("X-Superseded", "true"), ("Cache-Control", "no-store")],
                                    body: [])
            }
            // Made while this waited (a page's first frame, prepared before the browser asked for it).
            if let cached = responses.response(for: key) { return conditional(cached.response, etag: cached.etag, request: request) }
            do {
                var response = try job.work()
                guard response.status == 200 else { return response }
                let etag = entityTag(of: response.body)
                response.headers += [("ETag", etag), ("Cache-Control", job.cacheControl)]
                if catalog.revision == revision { responses.insert(response, etag: etag, for: key) }
                return conditional(response, etag: etag, request: request)
            } catch {
                return self.error(QueryParameters.translate(error), streetView: job.streetView)
            }
        }
    }

    /// 304 when `If-None-Match` names the answer's ETag (or `*`), else the answer.
    func conditional(_ response: HTTPResponse, etag: String, request: HTTPRequest) -> HTTPResponse {
        guard let tags = request.headers["if-none-match"] else { return response }
        let given = tags.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard given.contains("*") || given.contains(etag) || given.contains("W/" + etag) else { return response }
        return HTTPResponse(status: 304, contentType: response.contentType,
                            headers: response.headers.filter { ["ETag", "Cache-Control"].contains($0.name) }, body: [])
    }

    /// The cache key of a request: route, catalog and the query sorted (the API key left out).
    func cacheKey(_ route: String, _ request: HTTPRequest, extra: String = "") -> String {
        let query = request.query.filter { $0.name != "key" }.sorted { ($0.name, $0.value) < ($1.name, $1.value) }
            .map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(route)|\(request.path)|\(query)|\(extra)"
    }

    func checkPixels(_ pixels: Int) throws(ServiceError) {
        guard pixels <= configuration.maximumImagePixels else {
            throw .imageTooLarge(pixels: pixels, limit: configuration.maximumImagePixels)
        }
    }

    // MARK: /v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg

    func tileJob(_ request: HTTPRequest) throws -> RenderJob {
        guard let tile = TilePath(request.path) else { throw ServiceError.notFound(path: request.path) }
        let record = try catalog.panorama(id: tile.panoramaID)
        let levels = Self.tileLevels(fullWidth: record.fullWidth, fullHeight: record.fullHeight, tileSize: PanoramaTileFile.defaultTileSize)
        guard levels.indices.contains(tile.level) else {
            throw ServiceError.invalidParameter(parameter: "level", message: "level \(tile.level) does not exist; allowed 0…\(levels.count - 1) (0 is the smallest)")
        }
        let level = levels[tile.level]
        guard (0..<level.columns).contains(tile.x), (0..<level.rows).contains(tile.y) else {
            throw ServiceError.invalidParameter(parameter: "x", message: "tile \(tile.x)/\(tile.y) is outside level \(tile.level); allowed x 0…\(level.columns - 1), y 0…\(level.rows - 1)")
        }
        let crop = try Self.crop(of: record)
        let store = tileStore, fileLevel = levels.count - 1 - tile.level
        return RenderJob(key: cacheKey("tile", request, extra: "\(record.imagePath)"), cacheControl: "public, max-age=86400",
                         streetView: false) {
            guard let file = try Self.rendering(record.id, { try store.fileForView(panoramaID: record.id, source: record.imagePath, crop: crop) }) else {
                throw ServiceError.unreadableImagery(panoramaID: record.id, detail: "its tile file cannot be made from \(record.imagePath)")
            }
            guard file.levels.count == levels.count else {
                throw ServiceError.internalError(detail: "the tile file of \(record.id) has \(file.levels.count) levels, expected \(levels.count)")
            }
            do {
                return HTTPResponse(contentType: "image/jpeg", body: try file.tileBytes(level: fileLevel, column: tile.x, row: tile.y))
            } catch ReprojectionError.storageFailed(let error) where error.isUnavailable {
                throw ServiceError.storageUnavailable(reason: error.publicReason, detail: error.description)
            } catch {
                throw ServiceError.unreadableImagery(panoramaID: record.id, detail: "\(error)")
            }
        }
    }

    /// Where a partial panorama lies in its full sphere (nil for a full one).
    static func crop(of record: PanoramaRecord) throws -> PanoramaCrop? {
        guard record.imageWidth != 2 * record.imageHeight || record.horizontalCoverageDegrees < 360 else { return nil }
        let crop = try PanoramaCrop(fullWidth: record.fullWidth, fullHeight: record.fullHeight, left: record.croppedLeft,
                                    top: record.croppedTop)
        return crop.isFull(width: record.imageWidth, height: record.imageHeight) ? nil : crop
    }

    // MARK: /v1/snapshot

    func snapshotJob(_ request: HTTPRequest) throws -> RenderJob {
        let parsed = try QueryParameters(request: request).parsed(by: Self.snapshotSpec)
        let options = try SnapshotOptions(parsed)
        try checkPixels(options.selection.size.width * options.selection.size.height)
        let format = options.format ?? "jpeg"
        let catalog = self.catalog, cache = panoramas
        return RenderJob(key: cacheKey("snapshot", request), cacheControl: "public, max-age=3600", streetView: false) { [self] in
            let resolution = try options.selection.resolve(parsed, catalog: catalog, language: options.language, detailCache: details)
            guard let scene = resolution.scene else { return noCoverage(resolution) }
            let snapshotter = labelSources.snapshotter(scene: scene, options: options.snapshotter, cache: cache, catalog: catalog)
            let snapshot = try Self.rendering(scene.panoramaID) { try snapshotter.render() }
            let bytes = format == "png" ? try PNGCodec.encode(snapshot.image)
                : try JPEGCodec.encode(snapshot.image, quality: options.quality)
            return HTTPResponse(contentType: format == "png" ? "image/png" : "image/jpeg",
                                headers: [("X-Panorama-Id", snapshot.panoramaID),
                                          ("X-Heading-Degrees", String(format: "%.1f", snapshot.headingDegrees))],
                                body: bytes)
        }
    }

    /// Runs a render of panorama `panoramaID`, reporting damaged or missing imagery (the JPEG, its
    /// depth or label map) as `ServiceError.unreadableImagery` (500 for this panorama; others are
    /// served as before), and an object store that cannot be used now as `.storageUnavailable` (503).
    static func rendering<T>(_ panoramaID: String, _ work: () throws -> T) throws -> T {
        do {
            return try work()
        } catch let error as ReprojectionError {
            switch error {
            case .storageFailed(let failure) where failure.isUnavailable:
                throw ServiceError.storageUnavailable(reason: failure.publicReason, detail: failure.description)
            case .unreadablePanorama, .notEquirectangular, .storageFailed:
                throw ServiceError.unreadableImagery(panoramaID: panoramaID, detail: error.description)
            default: throw error
            }
        } catch let error as ImagingError {
            switch error {
            case .invalidParameter, .invalidSize, .encodeFailed: throw error
            default: throw ServiceError.unreadableImagery(panoramaID: panoramaID, detail: error.description)
            }
        }
    }

    /// 404 with the no-coverage answer of a snapshot that found no scene.
    func noCoverage(_ resolution: SceneSelection.Resolution) -> HTTPResponse {
        var writer = JSONWriter()
        writer.beginObject()
        writer.field("found", false)
        if let point = resolution.point {
            writer.field("latitude", point.latitude)
            writer.field("longitude", point.longitude)
        }
        if let noCoverage = resolution.noCoverage {
            writer.key("no_coverage")
            writer.write(noCoverage)
        }
        writer.field("request_id", resolution.placeName)
        writer.endObject()
        return .json(writer.bytes, status: 404)
    }

    // MARK: /v1/map

    func mapJob(_ request: HTTPRequest) throws -> RenderJob {
        let parsed = try QueryParameters(request: request).parsed(by: Self.mapSpec)
        let options = try MapOptions(parsed, allowCameraFiles: false)
        try checkPixels(Int((Double(options.size.width) * options.scale).rounded() * (Double(options.size.height) * options.scale).rounded()))
        let osmPath = configuration.resolvedOSMPath, maps = self.maps, catalog = self.catalog
        return RenderJob(key: cacheKey("map", request), cacheControl: "public, max-age=3600", streetView: false) {
            let resources = try maps.resources(osmPath: osmPath, imagery: options.type.needsOrthophoto)
            var framing = options.framing
            if framing == nil, let box = resources.dataset.boundingBox {
                framing = .region(try CoordinateRegion(north: box.maxLatitude, south: box.minLatitude,
                                                       west: box.minLongitude, east: box.maxLongitude))
            }
            let snapshotOptions = options.snapshotOptions(defaultFraming: framing ?? .mapRect(.world),
                                                          coverage: options.showsCoverage ? CatalogCoverage(catalog: catalog) : nil,
                                                          orthophoto: resources.orthophoto)
            let snapshot = try resources.snapshotter.snapshot(snapshotOptions)
            return HTTPResponse(contentType: "image/png", body: try PNGCodec.encode(snapshot.image))
        }
    }
}

/// The label sources of recently viewed panoramas (the places and streets near each, the places'
/// anchors), kept between requests: a viewer asks for one frame after another of a panorama, and each
/// new snapshotter would read them from the catalog again (about a sixth of a 1280×720 frame's time).
/// Bounded: the oldest of ``capacity`` panoramas is forgotten; dropped with the other cached answers
/// when the catalog's revision changes.
final class LabelSourceCache: Sendable {
    static let capacity = 64
    private let kept = Mutex<(order: [String], snapshotters: [String: LookAroundSnapshotter])>(([], [:]))

    /// A snapshotter of `scene` with `options` that shares what earlier frames of the same panorama and
    /// label language read.
    func snapshotter(scene: LookAroundScene, options: LookAroundSnapshotter.Options, cache: PanoramaCache,
                     catalog: Catalog) -> LookAroundSnapshotter {
        let key = scene.panoramaID + "|" + (options.language ?? "")
        if let earlier = kept.withLock({ $0.snapshotters[key] }) {
            return earlier.sharingLabels(scene: scene, options: options, catalog: catalog)
        }
        let made = LookAroundSnapshotter(scene: scene, options: options, cache: cache, catalog: catalog)
        kept.withLock { state in
            if state.snapshotters[key] == nil {
                state.order.append(key)
                if state.order.count > Self.capacity { state.snapshotters[state.order.removeFirst()] = nil }
            }
            state.snapshotters[key] = made
        }
        return made
    }

    func removeAll() { kept.withLock { $0 = ([], [:]) } }
}
