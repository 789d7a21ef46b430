/// The OSM element a feature was made from, e.g. `way/419479428`.
public struct OSMElementReference: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The element type.
    public var kind: OSMElementKind
    /// The element id (unique within its type).
    public var id: Int64

    /// A reference to element `id` of type `kind`.
    public init(_ kind: OSMElementKind, _ id: Int64) {
        self.kind = kind
        self.id = id
    }

    /// The reference `node/123`, `way/456` or `relation/789` names (``description`` read back), or nil.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let kind = OSMElementKind(rawValue: String(parts[0])), let id = Int64(parts[1]) else { return nil }
        self.init(kind, id)
    }

    /// `node/123`, `way/456` or `relation/789`, as on openstreetmap.org.
    public var description: String { "\(kind.rawValue)/\(id)" }
}
