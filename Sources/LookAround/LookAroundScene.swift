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
