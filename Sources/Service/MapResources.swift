import Foundation
import MapData
import MapSnapshot
import Orthophoto

/// The OSM data and the map renderer `/v1/map` draws with, loaded on first use.
// @unchecked Sendable: the loaded data and the failure are read and written under `lock` only.
final class MapResources: @unchecked Sendable {
    /// The OSM extract (``ServiceConfiguration/resolvedOSMPath``); nil: maps cannot be drawn.
    let osmPath: String?
    private var loaded: (snapshotter: MapSnapshotter, dataset: MapDataset)?
    private var orthophoto: SimulatedOrthophoto?
    private var failure: String?
    /// Guards the three above; held while loading, so concurrent first requests load once.
    private let lock = NSLock()

    init(osmPath: String?) { self.osmPath = osmPath }

    /// The renderer, its data and (when `imagery`) the simulated orthophoto.
    func resources(imagery: Bool) throws(ServiceError)
        -> (snapshotter: MapSnapshotter, dataset: MapDataset, orthophoto: SimulatedOrthophoto?) {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw .internalError(detail: failure) }
        if loaded == nil {
            guard let osmPath else {
                throw .internalError(detail: "no OSM extract to draw maps from; start the server with --osm FILE")
            }
            do {
                let dataset = try MapDataset(contentsOfFile: osmPath)
                loaded = (try MapSnapshotter(dataset: dataset), dataset)
            } catch {
                let reason = "cannot load the OSM extract \(osmPath): \(error)"
                failure = reason
                throw .internalError(detail: reason)
            }
        }
        guard let (snapshotter, dataset) = loaded else { throw .internalError(detail: "the map renderer did not load") }
        if imagery, orthophoto == nil {
            do { orthophoto = try SimulatedOrthophoto(dataset: dataset) } catch {
                throw .internalError(detail: "cannot build the simulated imagery: \(error)")
            }
        }
        return (snapshotter, dataset, orthophoto)
    }
}
