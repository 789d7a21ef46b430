/// A tram, rail, light-rail or subway track.
public struct RailwayLine: Sendable, Hashable, Codable {
    /// The way it was made from (several lines share it when the way was clipped in several places).
    public var source: OSMElementReference
    /// The kind of line.
    public var kind: RailwayKind
    /// `name`, when tagged.
    public var name: String?
    /// `service` ("yard", "siding", "spur"…), when tagged.
    public var service: String?
    /// `layer` (0 when untagged).
    public var layer: Int
    /// `bridge=*` other than `no`.
    public var isBridge: Bool
    /// `tunnel=*` other than `no` (most subway track).
    public var isTunnel: Bool
    /// The track, in node order, at least 2 points.
    public var points: [OSMCoordinate]

    /// A line from its parts.
    public init(source: OSMElementReference, kind: RailwayKind, name: String? = nil, service: String? = nil,
                layer: Int = 0, isBridge: Bool = false, isTunnel: Bool = false, points: [OSMCoordinate]) {
        self.source = source
        self.kind = kind
        self.name = name
        self.service = service
        self.layer = layer
        self.isBridge = isBridge
        self.isTunnel = isTunnel
        self.points = points
    }
}
