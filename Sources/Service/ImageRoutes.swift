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

/// The native picture routes: `/v1/snapshot` (the view `lookaround snapshot` renders), `/v1/map` (the
/// map `lookaround map` draws) and a panorama's pyramid tiles. Each is a ``RenderJob`` for the
/// ``RenderPipeline`` (validated on the network thread, cached, rendered by a worker).
struct ImageRoutes: RouteFamily {
    let catalog: Catalog
    let cached: CachedAnswers
    let panoramas: PanoramaCache
    let tileStore: PanoramaTileStore
    let maps: MapResources
    let limit: ImageLimit

    static let snapshotSpec = CommandSpec(name: "snapshot", abstract: "",
                                          options: SceneSelection.sceneOptions + SceneSelection.cameraOptions + SnapshotOptions.options)
    static let mapSpec = CommandSpec(name: "map", abstract: "", options: MapOptions.options)

    var routes: [Route] {
        // Snapshot and map parameters are checked by their option specs (the CLI's own), naming the closest.
        [Route(.get, PathPattern("/v1/snapshot"), label: "snapshot", parameters: nil, .rendered { try snapshotJob($0) }),
         Route(.get, PathPattern("/v1/map"), label: "map", parameters: nil, .rendered { try mapJob($0) }),
         Route(.get, PathPattern("/v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg", accepts: { TilePath($0) != nil }), label: "tile",
               parameters: [], .rendered { try tileJob($0) })]
    }

    // MARK: /v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg

    func tileJob(_ request: HTTPRequest) throws -> RenderJob {
        guard let tile = TilePath(request.path) else { throw ServiceError.notFound(path: request.path) }
        let record = try catalog.panorama(id: tile.panoramaID)
        let levels = TilePath.levels(fullWidth: record.fullWidth, fullHeight: record.fullHeight, tileSize: PanoramaTileFile.defaultTileSize)
        guard levels.indices.contains(tile.level) else {
            throw ServiceError.invalidParameter(parameter: "level", message: "level \(tile.level) does not exist; allowed 0…\(levels.count - 1) (0 is the smallest)")
        }
        let level = levels[tile.level]
        guard (0..<level.columns).contains(tile.x), (0..<level.rows).contains(tile.y) else {
            throw ServiceError.invalidParameter(parameter: "x", message: "tile \(tile.x)/\(tile.y) is outside level \(tile.level); allowed x 0…\(level.columns - 1), y 0…\(level.rows - 1)")
        }
        let crop = try Self.crop(of: record)
        let store = tileStore, fileLevel = levels.count - 1 - tile.level
        return RenderJob(key: RenderPipeline.cacheKey("tile", request, extra: "\(record.imagePath)"), cacheControl: "public, max-age=86400") {
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

    /// `/v1/snapshot`, a viewer's frame when it names one (``ViewerFrame``).
    func snapshotJob(_ request: HTTPRequest) throws -> RenderJob {
        try ViewerFrame.job(request) { try snapshotJob(drawing: $0) }
    }

    private func snapshotJob(drawing request: HTTPRequest) throws -> RenderJob {
        let parsed = try QueryParameters(request: request).parsed(by: Self.snapshotSpec)
        let options = try SnapshotOptions(parsed)
        try limit.check(options.selection.size.width * options.selection.size.height)
        let format = options.format ?? "jpeg"
        let catalog = self.catalog, cache = panoramas, cached = self.cached
        return RenderJob(key: RenderPipeline.cacheKey("snapshot", request), cacheControl: "public, max-age=3600") {
            let resolution = try options.selection.resolve(parsed, catalog: catalog, language: options.language, detailCache: cached.details)
            guard let scene = resolution.scene else { return Self.noCoverage(resolution) }
            let snapshotter = cached.labelSources.snapshotter(scene: scene, options: options.snapshotter, cache: cache, catalog: catalog)
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
    static func noCoverage(_ resolution: SceneSelection.Resolution) -> HTTPResponse {
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
        try limit.check(Int((Double(options.size.width) * options.scale).rounded() * (Double(options.size.height) * options.scale).rounded()))
        let maps = self.maps, catalog = self.catalog
        return RenderJob(key: RenderPipeline.cacheKey("map", request), cacheControl: "public, max-age=3600") {
            let resources = try maps.resources(imagery: options.type.needsOrthophoto)
            var framing = options.framing
            // No view named: the catalog's coverage when it is drawn, else the extract.
            if framing == nil, options.showsCoverage, let region = CoverageMaps.region(catalog: catalog) { framing = .region(region) }
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

/// The largest picture a request may ask for (`--max-image-pixels`), shared by every route that draws.
struct ImageLimit: Sendable {
    let maximumPixels: Int

    /// Refuses a picture of more than ``maximumPixels`` pixels.
    func check(_ pixels: Int) throws(ServiceError) {
        guard pixels <= maximumPixels else { throw .imageTooLarge(pixels: pixels, limit: maximumPixels) }
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
