/// One panorama in a coverage tile.
public struct CoverageEntry: Sendable, Hashable, Codable {
    /// The panorama's id.
    public var panoramaID: String
    /// Latitude, degrees.
    public var latitude: Double
    /// Longitude, degrees.
    public var longitude: Double
    /// Capture heading, degrees clockwise from north.
    public var headingDegrees: Double
    /// Capture time, ISO 8601 UTC.
    public var captureTime: String
    /// Simulated or photo.
    public var source: PanoramaSource
}
