import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Simulator
import Synchronization

/// The `imagery` and `hybrid` map types' source: the simulator's 3D city (built from the same OSM data)
/// ray-traced straight down, north up.
///
/// The cost follows the map: only what a map shows is built, at the detail its scale can show.
/// - A map's city model covers its rectangle plus ``shadowMarginMeters`` (what casts shadows into it),
///   snapped outwards to a ``gridMeters`` grid so that maps of one neighbourhood share a model; the
///   last ``cachedModels`` models are kept.
/// - Plants (mapped trees, greenery scattered over woods and parks, hedges) are built only when a map
///   pixel covers at most ``plantMetersPerPixel``; coarser, woods and parks keep their land-cover colour
///   (a crown is a pixel or two there, and a suburb's woods are tens of millions of triangles). Street
///   furniture and signs only at ``detailMetersPerPixel`` or finer.
/// - Every model shares one frame (the extract's centre) and the extract's built-up share, so the ground
///   is the same colour at every scale.
///
/// Mercator is treated as linear inside the rendered rectangle; over the few kilometres of a city the
/// error is far below a pixel (0.1 px at the edge of a 2 km wide 1024 px image at 60° N).
public struct SimulatedOrthophoto: OrthophotoProvider {
    /// The data the city is built from.
    public let dataset: MapDataset
    /// Samples, seed and sun of the render.
    public let settings: RenderSettings
    /// Plants are built for maps whose pixels cover at most this many metres.
    public static let plantMetersPerPixel = 4.0
    /// Street furniture and signs are built for maps whose pixels cover at most this many metres.
    public static let detailMetersPerPixel = 0.5
    /// Geometry kept around a map's rectangle, metres (a 40 m building's shadow at noon in June).
    public static let shadowMarginMeters = 60.0
    /// Model extents snap outwards to this grid, metres.
    public static let gridMeters = 250.0
    /// Models kept for later maps.
    public static let cachedModels = 4

    let frame: LocalTangentFrame
    let builtUpShare: Double
    let cache = ModelCache()

    /// A provider for `dataset`'s city lit by the sun at local solar noon on 21 June (short shadows,
    /// as aerial photographs are taken), 4 samples per pixel.
    /// - Throws: `SimulatorError.emptyScene` when the dataset has no nodes.
    public init(dataset: MapDataset) throws {
        guard let box = dataset.boundingBox else {
            throw SimulatorError.emptyScene(detail: "the data set \(dataset.sourcePath) has no bounding box (no nodes)")
        }
        let centre = try GeoCoordinate(latitude: (box.minLatitude + box.maxLatitude) / 2,
                                       normalizingLongitude: (box.minLongitude + box.maxLongitude) / 2)
        // 12:00 UTC shifted by the longitude (15° per hour) is local solar noon.
        let noon = Date(timeIntervalSince1970: 1_782_043_200 - centre.longitude / 15 * 3600)   // 2026-06-21T12:00:00Z
        self.dataset = dataset
        self.settings = try RenderSettings(samplesPerPixel: 4, seed: 1, sun: SolarPosition(date: noon, coordinate: centre))
        self.frame = try LocalTangentFrame(origin: centre)
        self.builtUpShare = CityModel.builtUpShare(of: dataset, within: box, marginMeters: CityModelOptions().marginMeters)
    }

    /// Renders `rect` top-down into an image of `size` pixels.
    public func orthophoto(of rect: MapRect, size: PixelSize) throws -> RGB8Image {
        let region = try CoordinateRegion(rect)
        let box = OSMBoundingBox(minLatitude: region.southLatitude, minLongitude: region.westLongitude,
                                 maxLatitude: region.northLatitude, maxLongitude: region.westLongitude + region.span.longitudeDelta)
        let sw = try frame.enu(from: GeoCoordinate(latitude: box.minLatitude, normalizingLongitude: box.minLongitude))
        let ne = try frame.enu(from: GeoCoordinate(latitude: box.maxLatitude, normalizingLongitude: box.maxLongitude))
        let metersPerPixel = max(abs(ne.east - sw.east) / Double(max(1, size.width)), abs(ne.north - sw.north) / Double(max(1, size.height)))
        let options = CityModelOptions(includeSigns: metersPerPixel <= Self.detailMetersPerPixel,
                                       includeStreetPlates: metersPerPixel <= Self.detailMetersPerPixel,
                                       includeTrees: metersPerPixel <= Self.plantMetersPerPixel,
                                       includeFurniture: metersPerPixel <= Self.detailMetersPerPixel)
        func snap(_ value: Double, _ rule: FloatingPointRoundingRule) -> Double { (value / Self.gridMeters).rounded(rule) * Self.gridMeters }
        let margin = Self.shadowMarginMeters
        let extent = SceneRect(minEast: snap(min(sw.east, ne.east) - margin, .down), minNorth: snap(min(sw.north, ne.north) - margin, .down),
                               maxEast: snap(max(sw.east, ne.east) + margin, .up), maxNorth: snap(max(sw.north, ne.north) + margin, .up))
        let model = try cache.model(for: ModelKey(extent: extent, options: options)) {
            try CityModel(dataset: dataset, frame: frame, extent: extent, builtUpShare: builtUpShare, options: options)
        }
        return try model.renderTopDown(region: box, width: size.width, height: size.height, settings: settings)
    }

    struct ModelKey: Hashable {
        var extent: SceneRect
        var options: CityModelOptions
    }

    /// The last few models, most recent last; shared by copies of the provider (a class).
    final class ModelCache: Sendable {
        private let models = Mutex<[(key: ModelKey, model: CityModel)]>([])

        /// The model for `key`, built by `make` on a miss (outside the lock: two maps of a new place
        /// at once may both build it; the second replaces the first).
        func model(for key: ModelKey, make: () throws -> CityModel) rethrows -> CityModel {
            if let hit = models.withLock({ list in list.first { $0.key == key }?.model }) { return hit }
            let made = try make()
            models.withLock { list in
                list.removeAll { $0.key == key }
                list.append((key, made))
                if list.count > SimulatedOrthophoto.cachedModels { list.removeFirst(list.count - SimulatedOrthophoto.cachedModels) }
            }
            return made
        }
    }
}
