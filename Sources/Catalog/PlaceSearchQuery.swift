import Geodesy

/// A place search: text, and optionally a point to rank by distance, a category and a display language.
public struct PlaceSearchQuery: Sendable, Hashable {
    /// What to look for ("Stockmann", "paaposti", "tuomiokirkko").
    public var text: String
    /// Rank equally good matches nearest first from here.
    public var near: GeoCoordinate?
    /// Only places whose category name ("cafe") or group ("food") is this (case-insensitive).
    public var category: String?
    /// Show names in this language (OSM code such as "sv"), falling back to `name`.
    public var language: String?
    /// At most this many results, 1…1000.
    public var limit: Int

    /// A query; `limit` defaults to 10.
    public init(text: String, near: GeoCoordinate? = nil, category: String? = nil, language: String? = nil,
                limit: Int = 10) {
        self.text = text
        self.near = near
        self.category = category
        self.language = language
        self.limit = limit
    }
}
