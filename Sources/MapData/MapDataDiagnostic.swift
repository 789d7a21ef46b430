/// A problem in the data that was worked around rather than thrown: a feature was dropped or
/// simplified, and this records which element and why.
public struct MapDataDiagnostic: Sendable, Hashable, Codable, CustomStringConvertible {
    /// What kind of problem it was.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Member ways of a multipolygon could not be joined into a closed ring; the ring was dropped.
        case unclosedRing
        /// A multipolygon member way is not in the extract.
        case missingMemberWay
        /// A way or ring references nodes that are not in the extract (clipped at its edge).
        case missingNodes
        /// A way tagged as an area (building, park…) is not closed; it was dropped.
        case openAreaWay
        /// An inner ring lies in no outer ring; it was dropped.
        case orphanInnerRing
        /// A tag value could not be parsed (e.g. `height=tall`); the next rule was used.
        case unparsableTag
        /// Tags that contradict each other (`height` below `min_height`); the detail says how they
        /// were read.
        case inconsistentTags
        /// A multipolygon relation had no usable outer ring; no feature was made from it.
        case emptyMultipolygon
        /// The coastline had a gap, a wrongly directed way, or a chain ending inside the extract; the
        /// detail says what was bridged, reversed or closed along the bounds (see ``WaterModel``).
        case brokenCoastline
        /// A building or part that lies below the ground (`location=underground`, or a negative `layer`
        /// or `level` with no height tagged); not drawn.
        case underground
    }

    /// The kind of problem.
    public var kind: Kind
    /// The element it concerns (for rings: the relation).
    public var element: OSMElementReference
    /// Details in words: the member ways, the tag value, how many nodes were missing.
    public var detail: String

    /// A diagnostic about `element`.
    public init(_ kind: Kind, _ element: OSMElementReference, _ detail: String) {
        self.kind = kind
        self.element = element
        self.detail = detail
    }

    /// `relation/123: unclosedRing: …`.
    public var description: String { "\(element): \(kind.rawValue): \(detail)" }
}
