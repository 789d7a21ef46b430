/// Where a panorama comes from.
public enum PanoramaSource: String, Sendable, Hashable, Codable, CaseIterable {
    /// Ray-traced by the lookaround simulator (GPano `CaptureSoftware` or EXIF `Make` starting with
    /// "lookaround", or `"source": "simulated"` in a sidecar).
    case simulated
    /// A real 360° photo from a camera.
    case photo
}
