import Geodesy
import Imaging
import MapData

extension CityModel {
    /// A top-down (orthographic, north-up) rendering of a geographic rectangle, for the map's imagery
    /// layer: `width × height` pixels, the sun from `settings`. The rectangle's corners are placed in the
    /// scene's local frame; over the few kilometres of a city the result is within centimetres of a
    /// local map projection.
    /// - Throws: `SimulatorError.invalidParameter` for an empty rectangle or a size outside 1…16,384.
    public func renderTopDown(region: OSMBoundingBox, width: Int, height: Int, settings: RenderSettings) throws -> RGB8Image {
        guard region.maxLatitude > region.minLatitude, region.maxLongitude > region.minLongitude else {
            throw SimulatorError.invalidParameter(name: "region",
                                                  value: "\(region.minLatitude),\(region.minLongitude) – \(region.maxLatitude),\(region.maxLongitude)",
                                                  allowed: "south < north and west < east")
        }
        let sw = position(of: try GeoCoordinate(latitude: region.minLatitude, normalizingLongitude: region.minLongitude))
        let ne = position(of: try GeoCoordinate(latitude: region.maxLatitude, normalizingLongitude: region.maxLongitude))
        let camera = try OrthographicCamera(minEast: sw.east, minNorth: sw.north, maxEast: ne.east, maxNorth: ne.north,
                                            width: width, height: height)
        return render(camera, settings: settings)
    }
}
