/// How a scene request chooses among the panoramas within its radius.
///
/// - `nearest`: the smallest geodesic distance from the request point.
/// - `best`: the best imagery within the radius, ranked by, in order: (1) full 360° panoramas before
///   cropped ones, (2) panoramas with a depth map before those without, (3) the newest capture day
///   (UTC), (4) the smallest distance. This is what a viewer wants when "somewhere on this square"
///   is good enough.
public enum ScenePreference: String, Sendable, Hashable, Codable, CaseIterable {
    /// The nearest panorama.
    case nearest
    /// The best imagery within the radius (see the type's documentation).
    case best
}
