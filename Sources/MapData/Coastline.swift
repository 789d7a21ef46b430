/// A piece of coastline (`natural=coastline` way). By OSM convention land is on the left and sea on the
/// right of the node order. In a city extract the pieces are clipped and rarely close; ``WaterModel``
/// joins them and closes them along the extract's bounds into the sea polygons.
public struct Coastline: Sendable, Hashable, Codable {
    /// The way.
    public var source: OSMElementReference
    /// The line in node order, at least 2 points.
    public var points: [OSMCoordinate]

    /// A coastline piece from its way and points.
    public init(source: OSMElementReference, points: [OSMCoordinate]) {
        self.source = source
        self.points = points
    }
}
