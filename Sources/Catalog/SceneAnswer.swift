/// The answer to a ``SceneRequest``: a scene, or no coverage with the reason. Encodes as
/// `{"found": true, "scene": {…}}` or `{"found": false, "no_coverage": {"reason": …}}` (snake_case).
public struct SceneAnswer: Sendable, Hashable, Codable {
    /// Whether a panorama was found.
    public var found: Bool
    /// The request's latitude, degrees.
    public var latitude: Double
    /// The request's longitude, degrees.
    public var longitude: Double
    /// The request's radius, metres.
    public var radiusMeters: Double
    /// The caller's id for this request (batch requests echo it).
    public var requestID: String?
    /// The panorama, when found.
    public var scene: SceneMatch?
    /// The reason, when not found.
    public var noCoverage: NoCoverage?
}
