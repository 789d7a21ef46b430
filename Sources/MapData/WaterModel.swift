/// The water of an extract: the sea, assembled from its `natural=coastline` ways, and the inland water
/// areas (`natural=water`, `waterway=riverbank`, `landuse=basin|reservoir|pond`, `water=*`).
///
/// This is the one water model of the system: `MapSnapshot` draws it, and the simulator builds its
/// water surfaces from it, so both agree on where the sea is. Build it with
/// ``init(coastlines:areas:bounds:)`` (``MapDataset/water`` holds the one for a loaded extract) and ask
/// ``isWater(_:)``, ``isSea(_:)`` or ``isInlandWater(_:)``.
///
/// The sea is assembled the way coastline tools (osmcoastline) do it: land lies on the left of a
/// coastline way's direction and the sea on its right; ways are joined end to end into chains; a chain
/// that closes is an island (counter-clockwise) or an enclosed sea (clockwise); an open chain is closed
/// along the extract's bounds, walking clockwise with the sea on the right to the start of the next
/// chain. Broken coastlines (a gap between two ways, a chain that stops inside the extract, a way that
/// runs the wrong way) are repaired where the repair is unambiguous and always reported in
/// ``diagnostics`` as `.brokenCoastline`.
public struct WaterModel: Sendable, Hashable, Codable {
    /// The box the sea was closed along (the extract's bounds), nil when there was none.
    public var bounds: OSMBoundingBox?
    /// The sea: polygons with the islands as holes, each inside ``bounds``. Empty for an extract
    /// without coastline.
    public var sea: [OSMPolygon]
    /// Lakes, ponds, basins, riverbanks: the polygons of the extract's water areas.
    public var inlandWater: [OSMPolygon]
    /// What was repaired or dropped while assembling the sea (`.brokenCoastline`).
    public var diagnostics: [MapDataDiagnostic]

    /// Gaps between coastline ways up to this length are bridged with a straight segment, metres.
    public static let maximumBridgedGapMeters = 200.0
    /// A chain ending farther than this from the bounds is reported before it is closed along them, metres.
    public static let edgeToleranceMeters = 50.0

    /// A model from its parts (for tests and tools).
    public init(bounds: OSMBoundingBox?, sea: [OSMPolygon], inlandWater: [OSMPolygon], diagnostics: [MapDataDiagnostic] = []) {
        self.bounds = bounds
        self.sea = sea
        self.inlandWater = inlandWater
        self.diagnostics = diagnostics
    }

    /// Assembles the sea from `coastlines` closed along `bounds` and collects the water `areas`.
    /// Linear in the number of coastline points, plus one point-in-polygon test per island.
    public init(coastlines: [Coastline], areas: [AreaFeature], bounds: OSMBoundingBox?) {
        var diagnostics: [MapDataDiagnostic] = []
        sea = bounds.map { CoastlineAssembler.sea(from: coastlines, bounds: $0, diagnostics: &diagnostics) } ?? []
        inlandWater = areas.filter { $0.kind == .water }.flatMap(\.polygons)
        self.bounds = bounds
        self.diagnostics = diagnostics
    }

    /// Whether `point` is in the sea (inside a sea polygon and outside its islands).
    public func isSea(_ point: OSMCoordinate) -> Bool { sea.contains { $0.contains(point) } }

    /// Whether `point` is in a lake, pond, basin or river area.
    public func isInlandWater(_ point: OSMCoordinate) -> Bool { inlandWater.contains { $0.contains(point) } }

    /// Whether `point` is water of either kind. Linear in the number of water vertices.
    public func isWater(_ point: OSMCoordinate) -> Bool { isSea(point) || isInlandWater(point) }
}
