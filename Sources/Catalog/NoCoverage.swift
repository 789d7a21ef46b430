/// A "no imagery here" answer with its reason: a normal outcome, not an error.
public struct NoCoverage: Sendable, Hashable, Codable {
    /// Why.
    public var reason: NoCoverageReason
    /// One sentence for people.
    public var message: String
    /// The distance to the nearest panorama when one is within 10 km (any source, any date), metres.
    public var nearestDistanceMeters: Double?
    /// That panorama's id.
    public var nearestPanoramaID: String?
    /// Panoramas within the radius that the filters rejected (for `filteredOut`).
    public var filteredOutCount: Int
}
