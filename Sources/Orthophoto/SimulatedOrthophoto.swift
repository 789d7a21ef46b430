import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Simulator

/// The `imagery` and `hybrid` map types' source: the simulator's 3D city (built from the same OSM data)
/// ray-traced straight down, north up.
///
/// Mercator is treated as linear inside the rendered rectangle; over the few kilometres of a city the
/// error is far below a pixel (0.1 px at the edge of a 2 km wide 1024 px image at 60° N).
public struct SimulatedOrthophoto: OrthophotoProvider {
    /// The city being photographed.
    public let model: CityModel
    /// Samples, seed and sun of the render.
    public let settings: RenderSettings

    /// An orthophoto provider rendering `model` with `settings`.
    public init(model: CityModel, settings: RenderSettings) {
        self.model = model
        self.settings = settings
    }

    /// A provider for `dataset`'s city lit by the sun at local solar noon on 21 June (short shadows,
    /// as aerial photographs are taken), 4 samples per pixel.
    /// - Throws: `SimulatorError` when the dataset has nothing to build.
    public init(dataset: MapDataset) throws {
        let model = try CityModel(dataset: dataset)
        let box = dataset.boundingBox
        let latitude = box.map { ($0.minLatitude + $0.maxLatitude) / 2 } ?? 0
        let longitude = box.map { ($0.minLongitude + $0.maxLongitude) / 2 } ?? 0
        let centre = try GeoCoordinate(latitude: latitude, longitude: longitude)
        // 12:00 UTC shifted by the longitude (15° per hour) is local solar noon.
        let noon = Date(timeIntervalSince1970: 1_782_043_200 - longitude / 15 * 3600)   // 2026-06-21T12:00:00Z
        self.init(model: model, settings: try RenderSettings(samplesPerPixel: 4, seed: 1,
                                                         sun: SolarPosition(date: noon, coordinate: centre)))
    }

    /// Renders `rect` top-down into an image of `size` pixels.
    public func orthophoto(of rect: MapRect, size: PixelSize) throws -> RGB8Image {
        let region = try CoordinateRegion(rect)
        let box = OSMBoundingBox(minLatitude: region.southLatitude, minLongitude: region.westLongitude,
                                 maxLatitude: region.northLatitude, maxLongitude: region.westLongitude + region.span.longitudeDelta)
        return try model.renderTopDown(region: box, width: size.width, height: size.height, settings: settings)
    }
}
