/// The kind of rail line, from `railway=*`.
public enum RailwayKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// `railway=tram`
    case tram
    /// `railway=rail`
    case rail
    /// `railway=light_rail`
    case lightRail = "light_rail"
    /// `railway=subway`
    case subway
}
