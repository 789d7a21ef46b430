import Foundation
import Geodesy

/// A walk: the panoramas visited in order, with the distance walked to each.
public struct WalkRoute: Sendable, Hashable {
    /// One panorama of the walk.
    public struct Stop: Sendable, Hashable, Codable {
        /// Panorama id.
        public var panoramaID: String
        /// Camera position (WGS84).
        public var coordinate: GeoCoordinate
        /// Distance walked from the first stop to this one along the route, metres.
        public var distanceMeters: Double
        /// Whether the walk pauses here (a waypoint of the request, or an end).
        public var isWaypoint: Bool
        /// The street the panorama is on, when the catalog knows streets.
        public var streetName: String?
        /// Capture time (UTC).
        public var captureTime: Date

        /// A stop from its parts.
        public init(panoramaID: String, coordinate: GeoCoordinate, distanceMeters: Double, isWaypoint: Bool,
                    streetName: String?, captureTime: Date) {
            self.panoramaID = panoramaID
            self.coordinate = coordinate
            self.distanceMeters = distanceMeters
            self.isWaypoint = isWaypoint
            self.streetName = streetName
            self.captureTime = captureTime
        }
    }

    /// The stops, in walking order (at least one).
    public var stops: [Stop]

    /// A route from its stops.
    public init(stops: [Stop]) {
        precondition(!stops.isEmpty, "a route has at least one stop")
        self.stops = stops
    }

    /// Length along the panoramas, metres.
    public var lengthMeters: Double { stops.last?.distanceMeters ?? 0 }

    /// The streets walked, in order, each once per stretch.
    public var streets: [String] {
        var names: [String] = []
        for name in stops.compactMap(\.streetName) where names.last != name { names.append(name) }
        return names
    }

    /// Pauses made: one at every waypoint, the two ends included (a preview then neither starts nor
    /// ends mid-stride).
    public var pauseCount: Int { stops.filter(\.isWaypoint).count }

    /// Seconds to walk the route at `speedMetersPerSecond`, with `pauseSeconds` at each waypoint.
    public func durationSeconds(speedMetersPerSecond: Double, pauseSeconds: Double) -> Double {
        lengthMeters / speedMetersPerSecond + Double(pauseCount) * pauseSeconds
    }
}
