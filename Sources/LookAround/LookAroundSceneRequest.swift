import Catalog
import Foundation
import Geodesy

/// Asks whether Look Around imagery exists at a coordinate or map item, like MapKit's
/// `MKLookAroundSceneRequest`: `try await request.scene` is the scene, `nil` when there is no coverage,
/// and throws for errors (no catalog, bad parameters).
///
/// ```swift
/// let request = LookAroundSceneRequest(coordinate: try GeoCoordinate(latitude: 60.1699, longitude: 24.9523))
/// if let scene = try await request.scene { … }
/// ```
public struct LookAroundSceneRequest: Sendable {
    /// The coordinate asked about.
    public let coordinate: GeoCoordinate
    /// The map item asked about, when made with `init(mapItem:)`.
    public let mapItem: MapItem?
    /// Search radius, metres, 0…10,000 (default 50).
    public var radiusMeters: Double = SceneRequest.defaultRadiusMeters
    /// Nearest or best panorama within the radius (default nearest).
    public var preference: ScenePreference = .nearest
    /// Simulated, photo or any (default any).
    public var source: SourceFilter = .any
    /// The catalog to ask; `nil` opens ``LookAroundCatalog/shared`` (the default catalog path).
    public var catalog: Catalog?

    /// A request for the imagery nearest to `coordinate`.
    public init(coordinate: GeoCoordinate, catalog: Catalog? = nil) {
        self.coordinate = coordinate
        self.mapItem = nil
        self.catalog = catalog
    }

    /// A request for the imagery at a map item (a place from ``LocalSearch``).
    public init(mapItem: MapItem, catalog: Catalog? = nil) {
        self.coordinate = mapItem.coordinate
        self.mapItem = mapItem
        self.catalog = catalog
    }

    /// The full answer, with the no-coverage reason when there is no scene.
    public var answer: SceneAnswer {
        get async throws {
            let catalog = try self.catalog ?? LookAroundCatalog.shared()
            return try catalog.scene(for: SceneRequest(coordinate: coordinate, radiusMeters: radiusMeters,
                                                       preference: preference, source: source))
        }
    }

    /// The scene, or `nil` when there is no imagery within the radius.
    /// - Throws: `CatalogError` when the catalog is missing or damaged, or a parameter is out of range.
    public var scene: LookAroundScene? {
        get async throws { try await answer.scene.map(LookAroundScene.init(match:)) }
    }
}
