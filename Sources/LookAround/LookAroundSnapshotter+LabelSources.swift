import Catalog
import Geodesy
import Synchronization

extension LookAroundSnapshotter {
    /// What the labels of a snapshotter's views need whatever the camera, read once and kept: the
    /// panorama's label context, the places near it with their local positions and (as views reach
    /// them) their anchors, and the named streets near it. A walk or the viewer asks for the labels of
    /// every frame of one panorama; without this each frame queried the catalog for the same places and
    /// streets and scanned the depth map for the same anchors. Kept for one catalog (another catalog
    /// starts afresh); copies of a snapshotter share it, and so does one made by
    /// ``LookAroundSnapshotter/sharingLabels(scene:options:catalog:)`` (the viewer's next frame).
    final class LabelSources: Sendable {
        struct Place: Sendable {
            var place: CatalogPlace
            var position: EastNorthUp
        }

        struct State: Sendable {
            var catalog: ObjectIdentifier?
            /// The context once read (inside, nil: the panorama has no depth map).
            var context: LabelContext??
            var places: [Place]?
            /// Per place (its index in `places`), the anchor once worked out (inside, nil: none).
            var anchors: [Int: EastNorthUp?] = [:]
            /// Per search radius, metres.
            var streets: [Double: [LookAroundRoadLabelPlacer.Street]] = [:]
        }

        private let state = Mutex(State())

        /// The value at `key` of the state kept for `catalog` (emptied first when it was kept for
        /// another one), made by `make` and kept when there is none yet. `make` runs outside the lock.
        func kept<T: Sendable>(_ key: WritableKeyPath<State, T?>, catalog: Catalog, _ make: () throws -> T) rethrows -> T {
            let id = ObjectIdentifier(catalog)
            func current(_ state: inout State) {
                if state.catalog != id { state = State(catalog: id) }
            }
            if let value = state.withLock({ state -> T? in current(&state); return state[keyPath: key] }) { return value }
            let value = try make()
            state.withLock { state in current(&state); state[keyPath: key] = value }
            return value
        }

        /// ``kept(_:catalog:_:)`` for the anchor of place `index`, without a key path: it is asked for
        /// every place a view may show, and a key path through the dictionary costs more than the lookup.
        func anchor(_ index: Int, catalog: Catalog, _ make: () -> EastNorthUp?) -> EastNorthUp? {
            let id = ObjectIdentifier(catalog)
            if let value = state.withLock({ $0.catalog == id ? $0.anchors[index] : nil }) { return value }
            let value = make()
            state.withLock { state in
                if state.catalog != id { state = State(catalog: id) }
                state.anchors[index] = value
            }
            return value
        }

        /// Whether the state is kept for `catalog` and holds its places (for tests).
        func holdsPlaces(of catalog: Catalog) -> Bool {
            state.withLock { $0.catalog == ObjectIdentifier(catalog) && $0.places != nil }
        }
    }

    /// The places within ``LookAroundLabelPlacer/searchRadiusMeters`` of the context's origin, with
    /// their positions in its local frame (read from the catalog once).
    func labelPlaces(context: LabelContext) throws -> [LabelSources.Place] {
        try labelSources.kept(\.places, catalog: context.catalog) {
            try context.catalog.places(near: context.origin, radiusMeters: LookAroundLabelPlacer.searchRadiusMeters).map { place, _ in
                LabelSources.Place(place: place, position: try context.frame.enu(from: place.coordinate))
            }
        }
    }

    /// The anchor of place `index` of ``labelPlaces(context:)`` (worked out once).
    func labelAnchor(of index: Int, _ place: LabelSources.Place, context: LabelContext) -> EastNorthUp? {
        labelSources.anchor(index, catalog: context.catalog) { context.placer.anchor(forPlaceAt: place.position) }
    }
}
