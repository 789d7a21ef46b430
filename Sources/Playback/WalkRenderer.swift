import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import MapSnapshot
import Reprojection

/// One composed frame of a walk.
public struct WalkFrame: Sendable {
    /// The timeline entry (time, position, heading, pitch, field of view).
    public var info: WalkTimeline.Frame
    /// The panorama nearest the walker (the one labels come from).
    public var panoramaID: String
    /// The composed picture.
    public var image: RGB8Image

    /// A frame from its parts.
    public init(info: WalkTimeline.Frame, panoramaID: String, image: RGB8Image) {
        self.info = info
        self.panoramaID = panoramaID
        self.image = image
    }
}

/// Renders a walk's frames: the street view moving between panoramas through their depth maps
/// (``Reprojection/PanoramaTransition``), place and street labels, a map inset, a heads-up line and
/// an optional title card, all carrying "© OpenStreetMap contributors".
///
/// Frames are rendered in order; one transition (both panoramas resampled into the move's grid) is
/// kept per move, so a walk costs one set-up per move plus one warp per frame. Not thread-safe: one
/// renderer per walk.
// @unchecked Sendable: so that a renderer can be handed to the thread that renders (`walk --play`'s render
// thread): ownership moves with it, and it is never used from two threads at once (its caches are not
// locked). Each call renders on the calling thread, which may itself fan work out (`SideWork`).
public final class WalkRenderer: @unchecked Sendable {
    /// The plan.
    public let timeline: WalkTimeline
    /// The composition.
    public let options: WalkRenderOptions
    let catalog: Catalog
    let inset: MapInset?
    let text: TextRenderer
    private var records: [String: PanoramaRecord] = [:]
    private var endpoints: [String: PanoramaTransition.Endpoint] = [:]
    private var snapshotters: [String: LookAroundSnapshotter] = [:]
    private var current: (segment: Int, transition: PanoramaTransition)?
    /// The next move's transition, set up on another core while this move's frames are rendered (a
    /// set-up takes about as long as ten frames: done in line, a player would drop frames at every
    /// panorama).
    var upcoming: (segment: Int, setUp: TransitionSetUp)?
    private var viewRenderer: ViewRenderer
    /// The last frame's label layer, with the panorama and camera it was placed for: the labels are
    /// those of the nearest panorama's scene seen with the frame's camera, the same for every frame of
    /// a straight stretch until the nearer panorama changes (nil layer: no label in view).
    var labels: (panoramaID: String, camera: ViewCamera, layer: Layer?)?
    /// Per panorama of the route: its street and capture date, as the heads-up line shows them.
    let stopCaptions: [String: (street: String, date: String)]

    /// The attribution every frame carries.
    public static let attribution = "© OpenStreetMap contributors"

    /// A renderer of `timeline`'s frames, panoramas from `catalog`, the map from `mapSnapshotter`
    /// (nil: no map).
    /// - Throws: ``PlaybackError/invalidParameter(name:value:allowed:)`` for options out of range;
    ///   map and font errors.
    public init(timeline: WalkTimeline, catalog: Catalog, mapSnapshotter: MapSnapshotter?, options: WalkRenderOptions = WalkRenderOptions()) throws {
        let options = try options.validated()
        self.timeline = timeline
        self.options = options
        self.catalog = catalog
        text = TextRenderer(fonts: try mapSnapshotter?.fonts ?? FontLibrary(paths: .debian))
        viewRenderer = try ViewRenderer()
        stopCaptions = Dictionary(timeline.route.stops.map { ($0.panoramaID, ($0.streetName ?? "—", Self.dateFormatter.string(from: $0.captureTime))) },
                                  uniquingKeysWith: { first, _ in first })
        if let mapSnapshotter {
            inset = try MapInset(snapshotter: mapSnapshotter, route: timeline.route, sizePixels: options.resolvedInsetSizePixels,
                                 widthMeters: options.mapWidthMeters * Double(options.resolvedInsetSizePixels) / Double(max(1, options.resolvedInsetSizePixels)),
                                 mapType: options.mapType, coverage: CatalogCoverage(catalog: catalog), language: options.language)
        } else {
            inset = nil
        }
    }

    /// Number of frames.
    public var frameCount: Int { timeline.frames.count }

    /// The frames in order, as an async sequence (rendered on demand, one ahead at most).
    public func frames() -> AsyncThrowingStream<WalkFrame, any Error> {
        // @unchecked Sendable: used only by the one stream's unfolding closure, which the stream calls for one element at a time (the next call waits for the previous element).
        final class Cursor: @unchecked Sendable { var index = 0 }
        let cursor = Cursor()
        return AsyncThrowingStream(unfolding: { [self] in
            guard cursor.index < frameCount else { return nil }
            try Task.checkCancellation()
            defer { cursor.index += 1 }
            return try render(frameAt: cursor.index)
        })
    }

    /// The camera of a frame.
    public func camera(for frame: WalkTimeline.Frame) throws -> ViewCamera {
        try ViewCamera(headingDegrees: frame.headingDegrees, pitchDegrees: frame.pitchDegrees,
                       fieldOfViewDegrees: frame.fieldOfViewDegrees, width: options.viewSize.width, height: options.viewSize.height)
    }

    func record(_ id: String) throws -> PanoramaRecord {
        if let r = records[id] { return r }
        let r = try catalog.panorama(id: id)
        records[id] = r
        return r
    }

    func endpoint(_ id: String, camera: ViewCamera) throws -> PanoramaTransition.Endpoint {
        if let e = endpoints[id] { return e }
        let r = try record(id)
        let e = try PanoramaTransition.Endpoint(record: r, frame: timeline.localFrame,
                                                level: PanoramaTransition.Endpoint.level(for: camera, panoramaWidth: r.fullWidth))
        cache(e, id: id)
        return e
    }

    /// Keeps endpoint `e` of panorama `id`, with the few others around the walker (a walk may be long).
    func cache(_ e: PanoramaTransition.Endpoint, id: String) {
        if endpoints[id] == nil, endpoints.count > 4 { endpoints.removeAll() }
        endpoints[id] = e
    }

    /// Starts setting up move `segment` (from its first stop, whose endpoint this move loaded, to the
    /// next) on another core. Nothing when there is no such move, or when its panoramas cannot be
    /// looked up: the move is then set up in line when it comes, and reports the error there.
    func prepare(segment: Int, camera: ViewCamera) {
        let stops = timeline.route.stops
        guard segment + 1 < stops.count, stops[segment].panoramaID != stops[segment + 1].panoramaID,
              let from = try? endpoint(stops[segment].panoramaID, camera: camera),
              let record = try? record(stops[segment + 1].panoramaID) else { return }
        let frame = timeline.localFrame, level = PanoramaTransition.Endpoint.level(for: camera, panoramaWidth: record.fullWidth)
        upcoming = (segment, TransitionSetUp {
            PanoramaTransition(from: from, to: try PanoramaTransition.Endpoint(record: record, frame: frame, level: level))
        })
    }

    /// A transition being set up on another thread; ``wait()`` returns it (or its error).
    ///
    /// `@unchecked Sendable`: `result` is written once, by the work item in `group`, and read only after `group.wait()`, which orders that write before the read.
    final class TransitionSetUp: @unchecked Sendable {
        private let group = DispatchGroup()
        private var result: Result<PanoramaTransition, any Error>?

        init(_ make: @escaping @Sendable () throws -> PanoramaTransition) {
            DispatchQueue.global(qos: .utility).async(group: group) { self.result = Result { try make() } }
        }

        /// The transition, once set up (the group's wait orders the write before this read).
        func wait() throws -> PanoramaTransition {
            group.wait()
            return try result!.get()
        }
    }

    /// Renders frame `index` (0..<``frameCount``).
    /// - Throws: decoding, catalog and drawing errors.
    public func render(frameAt index: Int) throws -> WalkFrame {
        let info = timeline.frames[index]
        let stops = timeline.route.stops
        let camera = try self.camera(for: info)
        let a = stops[info.segment].panoramaID
        let b = info.segment + 1 < stops.count ? stops[info.segment + 1].panoramaID : a
        let nearest = info.fraction < 0.5 ? a : b
        // Standing at a panorama (a pause, the ends): its own view, exactly.
        let standing = a == b || info.fraction <= 0 || info.fraction >= 1
        // What reads the catalog or the renderer's caches, here first.
        var standingAt: PanoramaTransition.Endpoint?
        if standing {
            standingAt = try endpoint(info.fraction >= 1 ? b : a, camera: camera)
            // Standing where a move starts that nothing has set up (the walk's first, or after a seek):
            // it is set up beside the standing frames, not in line with the move's first frame.
            if info.fraction <= 0, current?.segment != info.segment, upcoming?.segment != info.segment {
                prepare(segment: info.segment, camera: camera)
            }
        } else if current?.segment != info.segment {
            let transition: PanoramaTransition
            if let upcoming, upcoming.segment == info.segment {
                transition = try upcoming.setUp.wait()
                cache(transition.to, id: b)
            } else {
                transition = PanoramaTransition(from: try endpoint(a, camera: camera), to: try endpoint(b, camera: camera))
            }
            current = (info.segment, transition)
            upcoming = nil
            prepare(segment: info.segment + 1, camera: camera)
        }
        let kept = labels.flatMap { $0.panoramaID == nearest && $0.camera == camera ? $0 : nil }
        let snapshotter = options.showsLabels && kept == nil ? try labelSnapshotter(panoramaID: nearest, camera: camera) : nil
        // Nothing drawn over the view needs it: while this core (with the other, in the warp's parallel
        // parts) renders the view, another places and draws the labels, the map inset, the heads-up
        // line and the title, each on a layer of its own; the view is then only composited with them.
        let side = SideWork()
        let group = DispatchGroup()
        DispatchQueue.global(qos: .userInitiated).async(group: group) { [self] in
            do {
                if let kept {
                    side.labels = kept.layer
                } else if let snapshotter {
                    let places = try snapshotter.placeLabels(for: camera, catalog: catalog, avoiding: reservedBoxes)
                    let roads = try snapshotter.roadLabels(for: camera, catalog: catalog, avoiding: places)
                    side.labels = try LookAroundSnapshotter.labelLayer(placeLabels: places, roadLabels: roads, camera: camera)
                        .map { Layer(image: $0.image, x: $0.x, y: $0.y, opacity: 1) }
                }
                if let labels = side.labels { side.layers.append(labels) }
                side.layers += try overlay(info: info, panoramaID: nearest)
            } catch {
                side.error = error
            }
        }
        // The side work reads only values and the renderer's immutable parts; it is waited for even
        // when the view fails.
        defer { group.wait() }
        var view: RGB8Image
        if let e = standingAt {
            view = RGB8Image(width: camera.width, height: camera.height)
            try viewRenderer.render(e.image, camera: camera, pose: e.pose, into: &view)
        } else {
            view = try current!.transition.render(fraction: info.fraction, camera: camera)
        }
        group.wait()
        if let error = side.error { throw error }
        if options.showsLabels { labels = (nearest, camera, side.labels) }
        return WalkFrame(info: info, panoramaID: nearest, image: compose(view: view, layers: side.layers))
    }

    /// A picture drawn over the view, at (`x`, `y`) in the frame.
    struct Layer {
        var image: RGBA8Image, x: Int, y: Int, opacity: Float
    }

    /// A frame's layers, worked out beside its view.
    ///
    /// `@unchecked Sendable`: written only by the one side work item in its `DispatchGroup` and read by the frame's thread only after `group.wait()`, which orders the writes before the reads.
    final class SideWork: @unchecked Sendable {
        var layers: [Layer] = []
        /// The label layer, placed afresh or kept from the frame before (nil: none in view).
        var labels: Layer?
        var error: (any Error)?
    }

    /// The label snapshotter of panorama `panoramaID` (kept for the few panoramas around the walker).
    func labelSnapshotter(panoramaID: String, camera: ViewCamera) throws -> LookAroundSnapshotter {
        if let s = snapshotters[panoramaID] { return s }
        let scene = try LookAroundScene(panoramaID: panoramaID, catalog: catalog)
        let snapshotter = LookAroundSnapshotter(scene: scene, options: .init(size: PixelSize(width: camera.width, height: camera.height),
                                                                              language: options.language),
                                                catalog: catalog)
        if snapshotters.count > 4 { snapshotters.removeAll() }
        snapshotters[panoramaID] = snapshotter
        return snapshotter
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds.rounded(.down))
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    /// What a frame shows over its view, in order: the map (the inset's picture of this frame), the
    /// heads-up line with the attribution, and the title while it shows.
    func overlay(info: WalkTimeline.Frame, panoramaID: String) throws -> [Layer] {
        var layers: [Layer] = []
        if let map = inset?.render(coordinate: info.coordinate, distanceMeters: info.distanceMeters,
                                   headingDegrees: info.headingDegrees, fieldOfViewDegrees: info.fieldOfViewDegrees) {
            let place = insetPlacement(side: map.width)
            layers.append(Layer(image: map, x: place.x, y: place.y, opacity: place.opacity))
        }
        layers.append(try headsUp(info: info, panoramaID: panoramaID))
        if let title = options.title, info.timeSeconds < options.titleSeconds {
            let fade = min(1, (options.titleSeconds - info.timeSeconds) / 0.5)
            layers.append(try titleCard(title, opacity: fade))
        }
        return layers
    }

    /// Where a map inset `n` pixels square goes in the frame (its top-left corner), and its opacity.
    func insetPlacement(side n: Int) -> (x: Int, y: Int, opacity: Float) {
        let size = options.size, margin = max(6, size.height / 45)
        switch options.layout {
        case .sideBySide:
            return (size.width - n, 0, 1)
        case .inset:
            let x = options.insetCorner == .topLeft || options.insetCorner == .bottomLeft ? margin : size.width - n - margin
            let y = options.insetCorner == .topLeft || options.insetCorner == .topRight ? margin
                : size.height - n - margin - Self.hudHeight(frameHeight: size.height)
            return (x, max(0, y), 0.95)
        }
    }

    /// The parts of the view the map inset and the heads-up band cover, where a place label would be
    /// hidden (view pixels: the view is the frame's top-left part).
    var reservedBoxes: [PixelRect] {
        let size = options.size, band = Self.hudHeight(frameHeight: size.height)
        var boxes = [PixelRect(minX: 0, minY: Double(size.height - band), maxX: Double(size.width), maxY: Double(size.height))]
        if let inset {
            let n = inset.sizePixels, place = insetPlacement(side: n)
            boxes.append(PixelRect(minX: Double(place.x), minY: Double(place.y), maxX: Double(place.x + n), maxY: Double(place.y + n)))
        }
        return boxes
    }

    /// The frame composed from its view and the layers over it (see ``overlay(info:panoramaID:)``).
    func compose(view: RGB8Image, layers: [Layer]) -> RGB8Image {
        var image = Self.opaqueFrame(view, width: options.size.width, height: options.size.height)
        for layer in layers { Compositing.composite(layer.image, onto: &image, x: layer.x, y: layer.y, opacity: layer.opacity) }
        return image
    }

    static func hudHeight(frameHeight: Int) -> Int { max(16, frameHeight / 16) }

    /// A `width`×`height` opaque frame, black but for `view` in its top-left corner (the view itself
    /// when it fills the frame).
    static func opaqueFrame(_ view: RGB8Image, width: Int, height: Int) -> RGB8Image {
        if view.width == width && view.height == height { return view }
        var frame = RGB8Image(width: width, height: height)
        let w = min(width, view.width), h = min(height, view.height)
        frame.components.withUnsafeMutableBufferPointer { dst in
            view.components.withUnsafeBufferPointer { src in
                for y in 0..<h {
                    _ = UnsafeMutableBufferPointer(rebasing: dst[(3 * y * width)..<(3 * (y * width + w))])
                        .update(fromContentsOf: src[(3 * y * view.width)..<(3 * (y * view.width + w))])
                }
            }
        }
        return frame
    }

    /// The heads-up band along the frame's bottom: street, capture date, distance walked of the
    /// route's length, time of the walk's duration, and the attribution on the right.
    func headsUp(info: WalkTimeline.Frame, panoramaID: String) throws -> Layer {
        let size = options.size, band = Self.hudHeight(frameHeight: size.height)
        var canvas = Canvas(width: size.width, height: band, background: RGBAColor(red: 0, green: 0, blue: 0, alpha: 150))
        let (street, date) = stopCaptions[panoramaID] ?? ("—", "")
        let total = timeline.route.lengthMeters, duration = timeline.durationSeconds
        let line = "\(street) · \(date) · \(Int(info.distanceMeters.rounded())) m of \(Int(total.rounded())) m · "
            + "\(Self.clock(info.timeSeconds)) / \(Self.clock(duration))"
        let pixelSize = Double(band) * 0.6
        let style = TextStyle(pixelSize: pixelSize, weight: .regular, color: .white)
        let baseline = Double(band) * 0.72
        try text.draw(line, at: PixelPoint(Double(band) * 0.4, baseline), style: style, on: &canvas)
        let small = TextStyle(pixelSize: pixelSize * 0.85, weight: .regular, color: RGBAColor(red: 230, green: 230, blue: 230))
        let width = try text.measure(Self.attribution, style: small).advanceWidth
        try text.draw(Self.attribution, at: PixelPoint(Double(size.width) - width - Double(band) * 0.4, baseline), style: small, on: &canvas)
        return Layer(image: canvas.image, x: 0, y: size.height - band, opacity: 1)
    }

    /// The title card: `title` centred on a dark band across the middle, at `opacity`.
    func titleCard(_ title: String, opacity: Double) throws -> Layer {
        let size = options.size
        let pixelSize = Double(size.height) / 11
        let alpha = UInt8(max(0, min(255, 255 * opacity)))
        let style = TextStyle(pixelSize: pixelSize, weight: .bold, color: RGBAColor(red: 255, green: 255, blue: 255, alpha: alpha))
        let metrics = try text.measure(title, style: style)
        let bandHeight = pixelSize * 2, top = Double(size.height) / 2 - bandHeight / 2
        // The layer covers the band's rows (its edges fall inside pixels); drawn at its offset.
        let first = max(0, Int(top.rounded(.down))), last = min(size.height, Int((top + bandHeight).rounded(.up)))
        var canvas = Canvas(width: size.width, height: max(1, last - first))
        let dy = Double(first)
        var path = Path()
        path.addRectangle(x: 0, y: top - dy, width: Double(size.width), height: bandHeight)
        canvas.fill(path, color: RGBAColor(red: 0, green: 0, blue: 0, alpha: UInt8(Double(alpha) * 0.6)))
        try text.draw(title, at: PixelPoint(max(4, (Double(size.width) - metrics.advanceWidth) / 2), Double(size.height) / 2 + pixelSize * 0.35 - dy),
                      style: style, on: &canvas)
        return Layer(image: canvas.image, x: 0, y: first, opacity: 1)
    }

    static let dateFormatter: DateFormatter = {
        let f = DateFormatter()
        f.dateFormat = "yyyy-MM-dd"
        f.timeZone = TimeZone(identifier: "UTC")
        f.locale = Locale(identifier: "en_US_POSIX")
        return f
    }()
}
