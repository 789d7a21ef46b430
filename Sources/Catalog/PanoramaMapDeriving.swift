import Foundation
import MapData

/// Derives depth and label maps, and a refined pose, for panoramas that have no maps: `lookaround index`
/// with an OpenStreetMap extract renders the city model at each photo's pose. The implementation is
/// above Catalog (it needs the ray tracer), so that Catalog's clients do not link it.
public protocol PanoramaMapDeriving: Sendable {
    /// Derives maps for those of `records` that `datasets` cover, writing them into `directory`.
    ///
    /// - Returns: per record id, the outcome; records the data does not cover are left out.
    /// - Parameter progress: called with (done, total) as records are finished.
    func deriveMaps(for records: [PanoramaRecord], datasets: [MapDataset], directory: String,
                    progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?) -> [String: DerivedMapsOutcome]
}

/// What deriving a panorama's maps gave.
public enum DerivedMapsOutcome: Sendable {
    /// The record with its derived maps (``PanoramaRecord/mapsSource`` `.derived`), its alignment and,
    /// when the alignment was confident, its refined heading and position.
    case derived(PanoramaRecord)
    /// Why no maps could be made (the reason is shown as an index warning; the panorama is indexed
    /// without maps).
    case failed(String)
}
