/// How a route is travelled (MapKit's `MKDirectionsTransportType`, with cycling): which ways are open,
/// in which direction, at what speed.
public enum TransportType: String, Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
    /// On foot: footways, steps, pedestrian streets and squares (walked across), and every street with
    /// no `foot=no`; both directions of one-way streets.
    case walking
    /// By bicycle: streets, cycleways and paths, footways only where `bicycle=yes|designated`; one-way
    /// streets one way unless `oneway:bicycle=no` or a contraflow cycleway.
    case cycling
    /// By car: motorway … service roads and living streets open to motor vehicles; one-way streets and
    /// turn restrictions obeyed.
    case driving

    /// The OSRM profile names that mean this mode (`/route/v1/{profile}/…`): OSRM's own `foot`, `bike`,
    /// `car`, and the names `driving`, `walking`, `cycling` clients also send.
    public init?(osrmProfile: String) {
        switch osrmProfile.lowercased() {
        case "foot", "walking", "walk", "pedestrian": self = .walking
        case "bike", "bicycle", "cycling": self = .cycling
        case "car", "driving", "drive", "automobile": self = .driving
        default: return nil
        }
    }

    /// Index 0…2, for per-mode tables.
    var index: Int {
        switch self {
        case .walking: 0
        case .cycling: 1
        case .driving: 2
        }
    }

    /// The mode's name ("walking").
    public var description: String { rawValue }

    /// The verb phrase for summaries ("walking", "cycling", "driving").
    public var gerund: String { rawValue }
}
