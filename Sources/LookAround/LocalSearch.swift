import Catalog
import Geodesy

/// Searches places by name, like MapKit's `MKLocalSearch`: make a ``Request``, `start()` it, read
/// ``Response/mapItems`` (ranked: exact, prefix, word prefix, substring, typo; nearer first within a rank
/// when the request has a region).
public struct LocalSearch: Sendable {
    /// What to search for (MapKit: `MKLocalSearch.Request`).
    public struct Request: Sendable {
        /// The text ("Stockmann", "paaposti").
        public var naturalLanguageQuery: String
        /// Rank equally good matches nearest to this region's centre first.
        public var region: CoordinateRegion?
        /// Only this category ("cafe") or group ("food").
        public var category: String?
        /// Names in this language (OSM code, "sv"), falling back to the local name.
        public var language: String?
        /// At most this many items, 1…1000 (default 10).
        public var resultLimit: Int = 10

        /// A request for `naturalLanguageQuery`.
        public init(naturalLanguageQuery: String, region: CoordinateRegion? = nil) {
            self.naturalLanguageQuery = naturalLanguageQuery
            self.region = region
        }
    }

    /// What a search found (MapKit: `MKLocalSearch.Response`).
    public struct Response: Sendable {
        /// The places, best first.
        public var mapItems: [MapItem]
    }

    /// The request.
    public let request: Request
    private let catalog: Catalog?

    /// A search; `catalog` nil uses ``LookAroundCatalog/shared()``.
    public init(request: Request, catalog: Catalog? = nil) {
        self.request = request
        self.catalog = catalog
    }

    /// Runs the search.
    /// - Throws: `CatalogError` when there is no catalog or the limit is out of range.
    public func start() async throws -> Response {
        let catalog = try self.catalog ?? LookAroundCatalog.shared()
        let matches = try catalog.searchPlaces(PlaceSearchQuery(
            text: request.naturalLanguageQuery, near: request.region?.center, category: request.category,
            language: request.language, limit: request.resultLimit))
        return Response(mapItems: matches.map { MapItem(place: $0.place, language: request.language) })
    }
}
