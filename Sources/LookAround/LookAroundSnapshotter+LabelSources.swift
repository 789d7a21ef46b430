import Catalog
import Geodesy
import Synchronization

extension LookAroundSnapshotter {
    /// What the labels of a snapshotter's views need whatever the camera, read once and kept: the
    /// panorama's label context, the places near it with their local positions and (as views reach
    /// them) their anchors, and the named streets near it. A walk or the viewer asks for the labels of
    /// every frame of one panorama; without this each frame queried the catalog for the same places and
    /// streets and scanned the depth map for the same anchors. Kept for one catalog (another catalog
    /// starts afresh); copies of a snapshotter share it.
    final class LabelSources: Sendable {
        struct Place: Sendable {
            var place: CatalogPlace
            var position: EastNorthUp
        }

        struct State: Sendable {
            var catalog: ObjectIdentifier?
            /// The context, or nil when the panorama has no depth map (`loaded` tells the two apart).
            var context: LabelContext?
            var loaded = false
            var places: [Place]?
            /// Per place (its index in `places`), the anchor once worked out (nil inside: none).
            var anchors: [Int: EastNorthUp?] = [:]
            var streets: (radiusMeters: Double, streets: [LookAroundRoadLabelPlacer.Street])?
        }

        let state = Mutex(State())

        /// The state for `catalog`, emptied first when it was kept for another one.
        func with<T>(catalog: Catalog, _ body: (inout State) throws -> T) rethrows -> T {
            try state.withLock { state in
                let id = ObjectIdentifier(catalog)
                if state.catalog != id { state = State(catalog: id) }
                return try body(&state)
            }
        }
    }

    /// The places within ``LookAroundLabelPlacer/searchRadiusMeters`` of the context's origin, with
    /// their positions in its local frame (read from the catalog once).
    func labelPlaces(context: LabelContext) throws -> [LabelSources.Place] {
        if let kept = labelSources.with(catalog: context.catalog, { $0.places }) { return kept }
        var places: [LabelSources.Place] = []
        for (place, _) in try context.catalog.places(near: context.origin, radiusMeters: LookAroundLabelPlacer.searchRadiusMeters) {
            places.append(.init(place: place, position: try context.frame.enu(from: place.coordinate)))
        }
        labelSources.with(catalog: context.catalog) { $0.places = places }
        return places
    }

    /// The anchor of place `index` of ``labelPlaces(context:)`` (worked out once).
    func labelAnchor(of index: Int, _ place: LabelSources.Place, context: LabelContext) -> EastNorthUp? {
        if let kept = labelSources.with(catalog: context.catalog, { $0.anchors[index] }) { return kept }
        let anchor = context.placer.anchor(forPlaceAt: place.position)
        labelSources.with(catalog: context.catalog) { $0.anchors[index] = anchor }
        return anchor
    }
}
