import Geodesy
import Imaging

/// What to draw and how, as MapKit's `MKMapSnapshotter.Options`.
public struct MapSnapshotOptions: Sendable {
    /// What the view is framed on.
    public enum Framing: Sendable, Hashable {
        /// A camera (centre, distance, heading, pitch).
        case camera(MapCamera)
        /// A region (centre + span), shown whole, top-down (may cross the 180th meridian).
        case region(CoordinateRegion)
        /// A Web Mercator rectangle, shown whole, top-down (may extend past the 180th meridian).
        case mapRect(MapRect)
    }

    /// The largest side, points.
    public static let maximumSidePoints = 8_192
    /// The most pixels in an image (size × scale²).
    public static let maximumPixelCount = 64 * 1_048_576

    /// The view: camera, region or map rect.
    public var framing: Framing
    /// Image size in points (the image has size × ``scale`` pixels).
    public var size: PointSize
    /// Pixels per point, 1…4: line widths, text and markers scale with it.
    public var scale: Double
    /// Standard, muted, imagery or hybrid.
    public var mapType: MapType
    /// Which points of interest get labels.
    public var pointOfInterestFilter: PointOfInterestFilter
    /// Whether buildings are drawn (footprints top-down, extruded when pitched).
    public var showsBuildings: Bool
    /// Whether street, place and point-of-interest labels are drawn (annotation titles and the
    /// attribution always are).
    public var showsLabels: Bool
    /// Overlays, drawn in insertion order within their level.
    public var overlays: [MapOverlay]
    /// Annotations (pins, images), grouped when dense.
    public var annotations: [MapAnnotation]
    /// Annotations with a clustering identifier closer than this (points) form a group (50 by default:
    /// a group marker is at most 46 points wide, so groups never overlap).
    public var groupingDistancePoints: Double
    /// Where street imagery exists, drawn as the coverage layer; nil for none.
    public var coverage: (any PanoramaCoverage)?
    /// The orthophoto source for `imagery` and `hybrid`.
    public var orthophotoProvider: (any OrthophotoProvider)?
    /// Label language (an OSM code such as "sv" or "en"); nil for the local `name`.
    public var labelLanguage: String?
    /// Cores used by the per-pixel parts (imagery); nil = all, 1 for single-core measurements.
    public var maximumThreads: Int?
    /// Whether the attribution is painted in the corner (true by default). Map tiles leave it out: a
    /// tile client shows it once for the whole map, from the TileJSON.
    public var showsAttribution: Bool
    /// Areas of the image (pixels) no label may touch. Map tiles reserve the lines of the tile's edges
    /// in the larger picture they are cut from, so that no label is cut: a label that would cross an
    /// edge is left out on both sides of it.
    public var labelExclusions: [PixelRect]
    /// The part of the picture to draw, pixels (`x`, `y` its top-left corner; nil, the default: all of it).
    /// The snapshot's image is then only that part, the same pixels as the whole picture cut to it, at a
    /// fraction of the cost: everything is placed (labels above all) as over the whole picture, and only
    /// the window's pixels are rasterised. Map tiles draw a margin this way, for the labels alone.
    public var window: (x: Int, y: Int, width: Int, height: Int)?
    /// Whether the map itself is drawn (true by default). False draws only the ``coverage`` layer and
    /// the overlays on a transparent picture: the coverage overlay tiles a web map lays over its base.
    public var showsBaseMap: Bool
    /// Whether a country whose label point is out of the picture, but whose land is in it, is named at a
    /// point of its land in view (true by default: a snapshot of part of a country names it). Map tiles
    /// turn it off: every tile would name the country at a point of its own, and a map of tiles would
    /// show the name once per tile; the label point's tile names it.
    public var namesCountriesOutOfView: Bool

    /// Options for a view; 512×512 points at scale 1, standard map, everything shown.
    public init(framing: Framing, size: PointSize = PointSize(width: 512, height: 512), scale: Double = 1,
                mapType: MapType = .standard) {
        self.framing = framing
        self.size = size
        self.scale = scale
        self.mapType = mapType
        pointOfInterestFilter = .includingAll
        showsBuildings = true
        showsLabels = true
        overlays = []
        annotations = []
        groupingDistancePoints = 50
        coverage = nil
        orthophotoProvider = nil
        labelLanguage = nil
        maximumThreads = nil
        showsAttribution = true
        labelExclusions = []
        showsBaseMap = true
        namesCountriesOutOfView = true
    }

    /// Options framed on a camera.
    public init(camera: MapCamera, size: PointSize = PointSize(width: 512, height: 512), scale: Double = 1,
                mapType: MapType = .standard) {
        self.init(framing: .camera(camera), size: size, scale: scale, mapType: mapType)
    }

    /// Options framed on a region.
    public init(region: CoordinateRegion, size: PointSize = PointSize(width: 512, height: 512), scale: Double = 1,
                mapType: MapType = .standard) {
        self.init(framing: .region(region), size: size, scale: scale, mapType: mapType)
    }

    /// The image size in pixels.
    public var pixelSize: PixelSize {
        size.pixels(scale: scale)
    }

    /// The camera the framing resolves to for this size.
    /// - Throws: ``MapSnapshotError`` for a bad size or an empty region or rect.
    public func resolvedCamera() throws(MapSnapshotError) -> MapCamera {
        try validateSize()
        switch framing {
        case .camera(let camera): return camera
        case .region(let region):
            return try MapCamera(fitting: region, viewWidthPoints: size.width, viewHeightPoints: size.height)
        case .mapRect(let rect):
            return try MapCamera(fitting: rect, viewWidthPoints: size.width, viewHeightPoints: size.height)
        }
    }

    func validateSize() throws(MapSnapshotError) {
        let pixels = pixelSize
        guard (1...Self.maximumSidePoints).contains(size.width), (1...Self.maximumSidePoints).contains(size.height),
              scale.isFinite, (1...4).contains(scale), pixels.width >= 1, pixels.height >= 1,
              pixels.width * pixels.height <= Self.maximumPixelCount else {
            throw .invalidSize(width: size.width, height: size.height, scale: scale)
        }
    }
}
