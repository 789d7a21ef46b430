/// A link from one panorama to a neighbour, as a viewer's navigation arrow uses it.
public struct PanoramaLink: Sendable, Hashable, Codable {
    /// Why the two are linked.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Consecutive captures of the same sequence.
        case sequence
        /// Close to each other (within ``CatalogBuildOptions/proximityLinkMeters``), any sequence.
        case proximity
    }

    /// The neighbour's panorama id.
    public var panoramaID: String
    /// Geodesic initial bearing from this panorama to the neighbour, degrees clockwise from true north, 0…<360.
    public var headingDegrees: Double
    /// Geodesic distance to the neighbour, metres.
    public var distanceMeters: Double
    /// Sequence order or proximity.
    public var kind: Kind

    /// A link from its parts.
    public init(panoramaID: String, headingDegrees: Double, distanceMeters: Double, kind: Kind) {
        self.panoramaID = panoramaID
        self.headingDegrees = headingDegrees
        self.distanceMeters = distanceMeters
        self.kind = kind
    }
}
