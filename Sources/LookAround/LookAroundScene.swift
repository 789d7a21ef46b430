import Catalog
import Foundation
import Geodesy

/// A panorama that a ``LookAroundSceneRequest`` found: opaque, like MapKit's `MKLookAroundScene`. Hand
/// it to a snapshotter or viewer; it is `Codable` so it can be saved and restored.
///
/// Its contents are visible inside this package (`package` access) for the renderers; apps only pass it on.
public struct LookAroundScene: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What the catalog answered.
    package let match: SceneMatch

    package init(match: SceneMatch) { self.match = match }

    /// The panorama id and position, for logs.
    public var description: String {
        "LookAroundScene(\(match.panoramaID) at \(match.latitude), \(match.longitude))"
    }
}

extension LookAroundScene {
    /// The scene of one panorama by its catalog id (as `lookaround scene --id` shows it), seen from the
    /// panorama itself: a snapshot's default heading is then the capture heading.
    /// - Throws: `CatalogError.unknownPanorama` when the id is not in the catalog.
    public init(panoramaID: String, catalog: Catalog? = nil) throws {
        let catalog = try catalog ?? LookAroundCatalog.shared()
        self.init(match: SceneMatch(record: try catalog.panorama(id: panoramaID),
                                    links: try catalog.links(ofPanoramaID: panoramaID)))
    }

    /// The panorama's id.
    public var panoramaID: String { match.panoramaID }
    /// Distance from the request point to the panorama, metres (0 for a scene made from an id).
    public var distanceMeters: Double { match.distanceMeters }
}
