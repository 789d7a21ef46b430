import Foundation
import MapData
import MapSnapshot
import Orthophoto

/// The OSM data and the map renderer `/v1/map` draws with, loaded on first use.
// @unchecked Sendable: the loaded data and the failure are read and written under `lock` only.
final class MapResources: @unchecked Sendable {
    /// The OSM extract (``ServiceConfiguration/resolvedOSMPath``); nil: the world layer alone.
    let osmPath: String?
    private var loaded: (snapshotter: MapSnapshotter, dataset: MapDataset)?
    private var orthophoto: SimulatedOrthophoto?
    private var failure: String?
    /// Guards the three above; held while loading, so concurrent first requests load once.
    private let lock = NSLock()

    init(osmPath: String?) { self.osmPath = osmPath }

    /// The renderer, its data and (when `imagery`) the simulated orthophoto. Without an extract (`osmPath`
    /// nil) the maps are the world layer alone (``MapDataset/empty(sourcePath:)``) under the coverage, and
    /// the imagery types draw it too (``WorldOnlyImagery``).
    func resources(imagery: Bool) throws(ServiceError)
        -> (snapshotter: MapSnapshotter, dataset: MapDataset, orthophoto: (any OrthophotoProvider)?) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw .internalError(detail: failure) }
        if loaded == nil {
            do {
                let dataset = try osmPath.map { try MapDataset(contentsOfFile: $0) } ?? .empty()
                loaded = (try MapSnapshotter(dataset: dataset), dataset)
            } catch {
                let reason = "cannot load the OSM extract \(osmPath ?? "") or the world layer: \(error)"
                failure = reason
                throw .internalError(detail: reason)
            }
        }
        guard let (snapshotter, dataset) = loaded else { throw .internalError(detail: "the map renderer did not load") }
        if imagery, dataset.isEmpty { return (snapshotter, dataset, WorldOnlyImagery()) }
        if imagery, orthophoto == nil {
            do { orthophoto = try SimulatedOrthophoto(dataset: dataset) } catch {
                throw .internalError(detail: "cannot build the simulated imagery: \(error)")
            }
        }
        return (snapshotter, dataset, orthophoto)
    }
}
