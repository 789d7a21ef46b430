/// Why a scene request has no answer.
public enum NoCoverageReason: String, Sendable, Hashable, Codable {
    /// No panorama within the radius (see ``NoCoverage/nearestDistanceMeters``).
    case nothingWithinRadius = "nothing_within_radius"
    /// Panoramas are within the radius, but the source or date filters rejected all of them.
    case filteredOut = "filtered_out"
    /// The catalog holds no panoramas.
    case catalogEmpty = "catalog_empty"
}
