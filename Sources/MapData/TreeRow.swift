/// A row of trees (`natural=tree_row` way): trees stand along the line.
public struct TreeRow: Sendable, Hashable, Codable {
    /// The way.
    public var source: OSMElementReference
    /// The line, at least 2 points.
    public var points: [OSMCoordinate]

    /// A tree row from its way and points.
    public init(source: OSMElementReference, points: [OSMCoordinate]) {
        self.source = source
        self.points = points
    }
}
