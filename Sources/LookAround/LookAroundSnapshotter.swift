import Catalog
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Reprojection

/// Renders a still perspective view of a ``LookAroundScene``, like MapKit's `MKLookAroundSnapshotter`:
/// make it with a scene and ``Options``, then `try await snapshotter.snapshot`.
///
/// ```swift
/// guard let scene = try await LookAroundSceneRequest(coordinate: point).scene else { return }
/// var options = LookAroundSnapshotter.Options()
/// options.camera.pitchDegrees = 10
/// let snapshot = try await LookAroundSnapshotter(scene: scene, options: options).snapshot
/// let png = try PNGCodec.encode(snapshot.image)
/// ```
///
/// The panorama is read from its tile file beside the catalog (``PanoramaTileFile``: only the tiles
/// of the level the view needs are decoded; the file is made on first use), or without a catalog
/// decoded at the level the view needs (``PanoramaDecoder``: libjpeg-turbo DCT scaling), and kept in
/// ``sharedCache``, so further views of the same panorama skip the decode; the
/// view is reprojected with ``ViewRenderer``.
public struct LookAroundSnapshotter: Sendable {
    /// Where the view looks. Conventions of DESIGN §3: heading clockwise from true north, pitch above
    /// the horizon (Street View), horizontal field of view edge to edge.
    public struct Camera: Sendable, Hashable, Codable {
        /// Viewing direction, degrees clockwise from north (any finite value, normalised to [0, 360));
        /// `nil` = the scene's default (see ``LookAroundSnapshotter/defaultHeadingDegrees(for:)``).
        public var headingDegrees: Double?
        /// Degrees above the horizon, −90…90 (default 0).
        public var pitchDegrees: Double
        /// Horizontal field of view, degrees, 10…120 (default 90).
        public var fieldOfViewDegrees: Double

        /// A camera; values are checked when the snapshot is taken.
        public init(headingDegrees: Double? = nil, pitchDegrees: Double = 0, fieldOfViewDegrees: Double = 90) {
            self.headingDegrees = headingDegrees
            self.pitchDegrees = pitchDegrees
            self.fieldOfViewDegrees = fieldOfViewDegrees
        }
    }

    /// What to render (MapKit: `MKLookAroundSnapshotter.Options`).
    public struct Options: Sendable, Hashable {
        /// Output size in pixels (default 1280×720); at most ``ViewCamera/defaultPixelBudget`` pixels.
        public var size: PixelSize
        /// Where the view looks.
        public var camera: Camera
        /// Which points of interest get labels (default all).
        public var pointOfInterestFilter: PointOfInterestFilter
        /// Whether street names are drawn (default true).
        public var showsRoadLabels: Bool
        /// Language of label names (OSM code such as "sv"), falling back to the local name; nil = local.
        public var language: String?
        /// Pixels per point of the place labels (their text, halo, gap and dot), 1…4: 2 or 3 for a
        /// high-density screen, where a label 1 pixel per point would be a third of its size. Street
        /// names on the ground are sized by the street, not by this.
        public var labelScale: Double

        /// The default options: 1280×720, the scene's default heading, level, 90°, every label.
        public init(size: PixelSize = PixelSize(width: 1280, height: 720), camera: Camera = Camera(),
                    pointOfInterestFilter: PointOfInterestFilter = .includingAll, showsRoadLabels: Bool = true,
                    language: String? = nil, labelScale: Double = 1) {
            self.size = size
            self.camera = camera
            self.pointOfInterestFilter = pointOfInterestFilter
            self.showsRoadLabels = showsRoadLabels
            self.language = language
            self.labelScale = labelScale
        }
    }

    /// A rendered view and what it shows.
    public struct Snapshot: Sendable {
        /// The view, sRGB.
        public var image: RGB8Image
        /// The panorama it was rendered from.
        public var panoramaID: String
        /// Distance from the scene's request point to the panorama, metres.
        public var distanceMeters: Double
        /// The camera actually used (heading resolved and normalised, size).
        public var camera: ViewCamera
        /// The pyramid level sampled (0 = full size, k = 2^k smaller per side).
        public var panoramaLevel: Int
        /// The place labels drawn, nearest first (empty without a catalog or depth map).
        public var labels: [LookAroundPlaceLabel] = []
        /// The street names painted on the ground, best placed first (empty when
        /// ``Options/showsRoadLabels`` is false, or without a catalog or depth map).
        public var roadLabels: [LookAroundRoadLabel] = []

        /// Viewing direction, degrees clockwise from north, [0, 360).
        public var headingDegrees: Double { camera.headingDegrees }
        /// Degrees above the horizon.
        public var pitchDegrees: Double { camera.pitchDegrees }
        /// Horizontal field of view, degrees.
        public var fieldOfViewDegrees: Double { camera.fieldOfViewDegrees }
    }

    /// Decoded panorama levels shared by every snapshotter of the process (256 MiB: about sixteen
    /// 2048×1024 panoramas at full size).
    public static let sharedCache = PanoramaCache(capacityBytes: 256 << 20)

    /// Beyond this distance from the request point the default view looks back at the requested
    /// coordinate (as Street View does); nearer, it looks along the capture heading. Metres.
    public static let lookAtRequestMinimumDistanceMeters = 1.0

    /// The scene.
    public let scene: LookAroundScene
    /// The options.
    public let options: Options
    let cache: PanoramaCache
    private let catalog: Catalog?
    /// What its views' labels need whatever the camera, read once (see ``LabelSources``).
    let labelSources: LabelSources

    /// A snapshotter of `scene`; `cache` nil uses ``sharedCache``. Place labels come from `catalog`
    /// (the one the scene came from); nil uses ``LookAroundCatalog/shared()`` when it holds the scene's
    /// panorama, and otherwise the snapshot has no labels.
    public init(scene: LookAroundScene, options: Options = Options(), cache: PanoramaCache? = nil, catalog: Catalog? = nil) {
        self.init(scene: scene, options: options, cache: cache ?? Self.sharedCache, catalog: catalog, labelSources: LabelSources())
    }

    private init(scene: LookAroundScene, options: Options, cache: PanoramaCache, catalog: Catalog?, labelSources: LabelSources) {
        self.scene = scene
        self.options = options
        self.cache = cache
        self.catalog = catalog
        self.labelSources = labelSources
    }

    /// A snapshotter of `scene` with `options` and `catalog` (as ``init(scene:options:cache:catalog:)``,
    /// with this one's cache) that shares what this one's labels have read (the places and streets
    /// near the panorama, the places' anchors: ``LabelSources``) when it is of the same panorama, with
    /// the same catalog and label language, and otherwise starts afresh. For one view after another
    /// of a panorama, as an interactive viewer's frames are: each new snapshotter would read them again.
    public func sharingLabels(scene: LookAroundScene, options: Options, catalog: Catalog?) -> LookAroundSnapshotter {
        let same = scene.panoramaID == self.scene.panoramaID && options.language == self.options.language && catalog === self.catalog
        return LookAroundSnapshotter(scene: scene, options: options, cache: cache, catalog: catalog,
                                     labelSources: same ? labelSources : LabelSources())
    }

    /// The catalog labels come from: the one given, else the shared one when it holds the scene's
    /// panorama (a scene from another catalog gets no labels rather than another catalog's places).
    func labelCatalog() -> Catalog? {
        if let catalog { return catalog }
        guard let shared = try? LookAroundCatalog.shared(), (try? shared.panorama(id: scene.match.panoramaID)) != nil else {
            return nil
        }
        return shared
    }

    /// The heading a view of `scene` takes when the camera gives none: towards the requested coordinate
    /// when the panorama is more than ``lookAtRequestMinimumDistanceMeters`` from it, else the capture
    /// heading. Degrees clockwise from north, [0, 360).
    public static func defaultHeadingDegrees(for scene: LookAroundScene) -> Double {
        let match = scene.match
        guard match.distanceMeters > lookAtRequestMinimumDistanceMeters, let bearing = match.bearingFromRequestDegrees else {
            return match.headingDegrees
        }
        // The bearing is from the request point to the panorama; over the few tens of metres of a scene
        // radius the reverse azimuth differs from it by 180° to well under 0.01°.
        return (bearing + 180).truncatingRemainder(dividingBy: 360)
    }

    /// The validated view camera the snapshot uses.
    /// - Throws: `ReprojectionError.invalidParameter` (naming the value and its range) or `.exceedsPixelBudget`.
    public func viewCamera() throws(ReprojectionError) -> ViewCamera {
        try ViewCamera(headingDegrees: options.camera.headingDegrees ?? Self.defaultHeadingDegrees(for: scene),
                       pitchDegrees: options.camera.pitchDegrees, fieldOfViewDegrees: options.camera.fieldOfViewDegrees,
                       width: options.size.width, height: options.size.height)
    }

    /// The panorama's pose (GPano heading, pitch, roll as catalogued).
    public var pose: PanoramaPose {
        PanoramaPose(headingDegrees: scene.match.headingDegrees, pitchDegrees: scene.match.pitchDegrees,
                     rollDegrees: scene.match.rollDegrees)
    }

    /// Renders the view.
    /// - Throws: `ReprojectionError` for a camera out of range or an unreadable panorama; `ImagingError`
    ///   when the panorama file cannot be read.
    public var snapshot: Snapshot {
        get async throws { try render() }
    }

    /// Renders the view on the calling thread (what ``snapshot`` does, for callers that are not async:
    /// a service's render worker must not wait for a thread of Swift's cooperative pool).
    /// - Throws: as ``snapshot``.
    /// - Parameter drawsLabels: false computes the labels (positions in the snapshot) without drawing
    ///   them, for a caller that draws them its own way (a terminal viewer writes them as text cells).
    public func render(drawsLabels: Bool = true) throws -> Snapshot {
        let camera = try viewCamera()
        let match = scene.match
        let catalog = labelCatalog()
        let (panorama, level) = try panoramaLevel(for: camera, catalog: catalog)
        var image = RGB8Image(unfilledWidth: camera.width, height: camera.height) // the renderer writes every pixel
        var renderer = try ViewRenderer()
        try renderer.render(panorama, camera: camera, pose: pose, into: &image)
        var labels: [LookAroundPlaceLabel] = []
        var roadLabels: [LookAroundRoadLabel] = []
        if options.pointOfInterestFilter != .excludingAll || options.showsRoadLabels, let catalog,
           let context = try labelContext(catalog: catalog) {
            labels = try placeLabels(for: camera, context: context)
            roadLabels = try self.roadLabels(for: camera, context: context, avoiding: labels)
            if drawsLabels { try Self.draw(placeLabels: labels, roadLabels: roadLabels, camera: camera, scale: options.labelScale, on: &image) }
        }
        return Snapshot(image: image, panoramaID: match.panoramaID, distanceMeters: match.distanceMeters,
                        camera: camera, panoramaLevel: level, labels: labels, roadLabels: roadLabels)
    }
}

extension LookAroundSnapshotter {
    /// The place labels of a view, nearest first, decluttered (no two overlap; the nearer wins), each
    /// anchored on the facade where the place's sign hangs and hidden when the depth map shows
    /// something nearer in front of it. Empty when the panorama has no depth map or the options
    /// exclude every place.
    /// - Parameters:
    ///   - camera: the view.
    ///   - catalog: where the places come from.
    ///   - reserved: parts of the view something else will cover (a map inset, a heads-up band): no
    ///     label is placed where its box would overlap one, so none is hidden and none that would be
    ///     hidden crowds out one that would show.
    /// - Throws: `CatalogError` when the catalog fails; `ImagingError` when the depth map is unreadable.
    public func placeLabels(for camera: ViewCamera, catalog: Catalog, avoiding reserved: [PixelRect] = []) throws -> [LookAroundPlaceLabel] {
        guard options.pointOfInterestFilter != .excludingAll, let context = try labelContext(catalog: catalog) else { return [] }
        return try placeLabels(for: camera, context: context, avoiding: reserved)
    }

    /// What both label passes need of the panorama, read once per snapshotter.
    struct LabelContext: Sendable {
        var catalog: Catalog
        var placer: LookAroundLabelPlacer
        var origin: GeoCoordinate
        var frame: LocalTangentFrame
    }

    /// The depth map, camera height and local frame of the scene's panorama; nil without a depth map.
    /// Read once per snapshotter and catalog (``LabelSources``).
    func labelContext(catalog: Catalog) throws -> LabelContext? {
        try labelSources.kept(\.context, catalog: catalog) { try loadLabelContext(catalog: catalog) }
    }

    private func loadLabelContext(catalog: Catalog) throws -> LabelContext? {
        let match = scene.match
        guard let depthPath = match.depthPath else { return nil }
        let record = try catalog.panorama(id: match.panoramaID)
        let placer = try LookAroundLabelPlacer.cached(depthPath: depthPath, pose: pose,
                                                      cameraHeightMeters: record.cameraHeightMeters
                                                          ?? LookAroundLabelPlacer.defaultCameraHeightMeters)
        let origin = try GeoCoordinate(latitude: match.latitude, longitude: match.longitude)
        return LabelContext(catalog: catalog, placer: placer, origin: origin, frame: try LocalTangentFrame(origin: origin))
    }

    func placeLabels(for camera: ViewCamera, context: LabelContext, avoiding reserved: [PixelRect] = []) throws -> [LookAroundPlaceLabel] {
        guard options.pointOfInterestFilter != .excludingAll else { return [] }
        let match = scene.match
        let projection = ViewProjection(camera: camera, pose: pose, panoramaWidth: match.imageWidth)
        var labels: [LookAroundPlaceLabel] = []
        // An anchor lies within the scan's bearing range of its place: places farther than that from
        // every bearing the view shows are skipped before the scan.
        let reach = Self.bearingHalfExtentDegrees(of: projection).map { $0 + LookAroundLabelPlacer.scanHalfWidthDegrees + 1 }
        for (index, candidate) in try labelPlaces(context: context).enumerated() {
            let place = candidate.place, position = candidate.position
            if !options.pointOfInterestFilter.includes(place.categoryGroup) { continue }
            if let reach {
                let bearing = position.heading.degrees
                var offset = (bearing - camera.headingDegrees).truncatingRemainder(dividingBy: 360)
                if offset > 180 { offset -= 360 } else if offset < -180 { offset += 360 }
                if abs(offset) > reach { continue }
            }
            guard let anchor = labelAnchor(of: index, candidate, context: context),
                  let pixel = projection.viewPixel(forDirection: anchor),
                  (0...Double(camera.width)).contains(pixel.x), (0...Double(camera.height)).contains(pixel.y) else { continue }
            let horizontal2: Double = anchor.east * anchor.east + anchor.north * anchor.north
            let distance: Double = (horizontal2 + anchor.up * anchor.up).squareRoot()
            labels.append(LookAroundPlaceLabel(name: place.name(in: options.language), category: place.category,
                                               categoryGroup: place.categoryGroup, anchor: PixelPoint(x: pixel.x, y: pixel.y),
                                               distanceMeters: distance))
        }
        labels.sort { $0.distanceMeters < $1.distanceMeters }
        // Declutter: a label's box (measured with its font, where it will be drawn) may not overlap a
        // nearer one's, nor a reserved part of the view.
        let renderer = TextRenderer(fonts: try Self.fonts.get())
        var kept: [LookAroundPlaceLabel] = []
        var taken = reserved
        for var label in labels {
            // A label whose dot already touches a taken box would overlap it whatever its text:
            // dropped without measuring (the box always holds the dot and the gap above it).
            let scale = options.labelScale
            let dot = PixelRect(minX: label.anchor.x - Self.dotHaloRadius * scale, minY: label.anchor.y - Self.nameGapPixels * scale,
                                maxX: label.anchor.x + Self.dotHaloRadius * scale, maxY: label.anchor.y + Self.dotHaloRadius * scale + 1)
            if taken.contains(where: { $0.overlaps(dot) }) { continue }
            label.box = try Self.layout(of: label, viewWidth: camera.width, renderer: renderer, scale: scale).box
            if taken.contains(where: { $0.overlaps(label.box) }) { continue }
            kept.append(label)
            taken.append(label.box)
        }
        return kept
    }

    /// The largest bearing, either side of the camera heading, that the view's border shows (degrees),
    /// or nil when the view reaches near the zenith or nadir (every bearing is then in view).
    static func bearingHalfExtentDegrees(of projection: ViewProjection) -> Double? {
        let camera = projection.camera
        let w = Double(camera.width), h = Double(camera.height)
        var widest = 0.0
        for k in 0...32 {
            let f = Double(k) / 32
            for (x, y) in [(f * w, 0.0), (f * w, h), (0.0, f * h), (w, f * h)] {
                let d = projection.direction(viewX: x, viewY: y)
                guard abs(d.up) < 0.95 else { return nil }
                var offset = (d.heading.degrees - camera.headingDegrees).truncatingRemainder(dividingBy: 360)
                if offset > 180 { offset -= 360 } else if offset < -180 { offset += 360 }
                widest = max(widest, abs(offset))
            }
        }
        return widest
    }

    /// Text size of a label `distanceMeters` away: 22 px near, shrinking to 11 px at 55 m and beyond.
    public static func labelPixelSize(distanceMeters: Double) -> Double {
        max(11, min(22, 22 - distanceMeters / 5))
    }
}
