import Diagnostics
import Geodesy

/// Why no route was found, or a request was refused: one error type for the module, each case with
/// the data its message names.
public enum RoutingError: Error, Sendable, Equatable, CategorizedError {
    /// No way open to the mode within `radiusMeters` of the start.
    case noStreetNearSource(coordinate: GeoCoordinate, mode: TransportType, radiusMeters: Double)
    /// No way open to the mode within `radiusMeters` of the destination.
    case noStreetNearDestination(coordinate: GeoCoordinate, mode: TransportType, radiusMeters: Double)
    /// Both ends lie on the network, but no path joins them for this mode (one-way streets, turn
    /// restrictions, or parts of the network the extract does not join).
    case disconnected(source: GeoCoordinate, destination: GeoCoordinate, mode: TransportType, sourceStreet: String?,
                      destinationStreet: String?)
    /// The network has no way open to the mode at all.
    case emptyNetwork(mode: TransportType, source: String)
    /// A parameter out of range.
    case invalidParameter(name: String, value: String, allowed: String)
    /// A stored graph could not be read.
    case corruptGraph(detail: String)

    public var category: ErrorCategory {
        switch self {
        case .noStreetNearSource, .noStreetNearDestination, .disconnected: .noImagery
        case .emptyNetwork, .corruptGraph: .badData
        case .invalidParameter: .usage
        }
    }

    public var invalidValue: InvalidValue? {
        if case .invalidParameter(let name, let value, let allowed) = self { return InvalidValue(parameter: name, value: value, allowed: allowed) }
        return nil
    }

    /// A short machine-readable code ("no_street_near_source"), for JSON answers.
    public var code: String {
        switch self {
        case .noStreetNearSource: "no_street_near_source"
        case .noStreetNearDestination: "no_street_near_destination"
        case .disconnected: "disconnected"
        case .emptyNetwork: "empty_network"
        case .invalidParameter: "invalid_parameter"
        case .corruptGraph: "corrupt_graph"
        }
    }

    public var description: String {
        switch self {
        case .noStreetNearSource(let coordinate, let mode, let radius):
            return "no street open to \(mode) within \(Int(radius)) m of the start \(Self.point(coordinate)); start nearer a street "
                + "or the extract's area, or try another --mode"
        case .noStreetNearDestination(let coordinate, let mode, let radius):
            return "no street open to \(mode) within \(Int(radius)) m of the destination \(Self.point(coordinate)); end nearer a street "
                + "or the extract's area, or try another --mode"
        case .disconnected(let source, let destination, let mode, let sourceStreet, let destinationStreet):
            let from = sourceStreet.map { " (\($0))" } ?? "", to = destinationStreet.map { " (\($0))" } ?? ""
            return "no \(mode) route from \(Self.point(source))\(from) to \(Self.point(destination))\(to): the streets there are not "
                + "joined for \(mode) (one-way streets, turn restrictions, access tags or the extract's edge); try another --mode "
                + "or nearby points"
        case .emptyNetwork(let mode, let source):
            return "\(source) has no way open to \(mode); give an OSM extract with streets (highway=*)"
        case .invalidParameter(let name, let value, let allowed):
            return "\(name) \(value) is not allowed (allowed: \(allowed))"
        case .corruptGraph(let detail):
            return "the stored routing graph cannot be read: \(detail); rebuild it with 'lookaround index'"
        }
    }

    private static func point(_ coordinate: GeoCoordinate) -> String {
        func fixed(_ value: Double) -> String {
            let scaled = (value * 100_000).rounded() / 100_000
            return "\(scaled)"
        }
        return "\(fixed(coordinate.latitude)),\(fixed(coordinate.longitude))"
    }
}
