/// Which of OpenStreetMap's three element types something came from.
public enum OSMElementKind: String, Sendable, Hashable, Codable {
    /// A node (a point).
    case node
    /// A way (an ordered list of nodes: a line, or a ring when closed).
    case way
    /// A relation (here: a multipolygon).
    case relation
}
