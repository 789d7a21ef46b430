import Catalog
import Foundation
import Geodesy
import MapData
@_exported import Routing
import Synchronization

/// A request for directions from one map item to another, like MapKit's `MKDirections.Request`.
///
/// ```swift
/// var request = DirectionsRequest(source: MapItem(coordinate: senaatintori, name: "Senaatintori"),
///                                 destination: MapItem(coordinate: stockmann, name: "Stockmann"),
///                                 transportType: .walking)
/// let routes = try await Directions(request: request).calculate()
/// ```
public struct DirectionsRequest: Sendable {
    /// Where the route starts.
    public var source: MapItem
    /// Where it ends.
    public var destination: MapItem
    /// Walking, cycling or driving (default walking).
    public var transportType: TransportType
    /// Whether to look for other routes besides the fastest (up to two, MapKit's "alternate routes").
    public var requestsAlternateRoutes: Bool
    /// The language street names are given in (`name:xx`), nil for the local names.
    public var language: String?
    /// How far from a street the source and destination may lie, metres (1…5,000, default 250).
    public var snapRadiusMeters: Double = RoutingGraph.defaultSnapRadiusMeters
    /// The street network to route over; nil uses ``DirectionsNetwork/shared(osmPath:)``: the graph the
    /// default catalog stores, else the OSM extract beside it (`Panoramas/sources/*.osm.pbf`).
    public var graph: RoutingGraph?

    /// A request from `source` to `destination`.
    public init(source: MapItem, destination: MapItem, transportType: TransportType = .walking,
                requestsAlternateRoutes: Bool = false, language: String? = nil, graph: RoutingGraph? = nil) {
        self.source = source
        self.destination = destination
        self.transportType = transportType
        self.requestsAlternateRoutes = requestsAlternateRoutes
        self.language = language
        self.graph = graph
    }
}

/// One step of a route (MapKit's `MKRoute.Step`): the instruction, how far it goes, where the
/// maneuver is and which way the street leads.
public struct RouteStep: Sendable, Hashable, Codable {
    /// "Turn left onto Aleksanterinkatu" (street names in the request's language).
    public var instructions: String
    /// Metres from this maneuver to the next.
    public var distanceMeters: Double
    /// Seconds from this maneuver to the next.
    public var expectedTravelTimeSeconds: Double
    /// The maneuver: kind, modifier, place, bearings (OSRM's vocabulary).
    public var maneuver: RouteManeuver
    /// The line this step follows.
    public var polyline: [GeoCoordinate]

    /// Where the maneuver is.
    public var coordinate: GeoCoordinate { maneuver.coordinate }
    /// Which way the route goes after the maneuver, degrees clockwise from north.
    public var bearingDegrees: Double { maneuver.bearingAfterDegrees }
}

/// A route (MapKit's `MKRoute`): its line, length, expected time, steps and notices.
public struct Route: Sendable, Codable {
    /// The main streets it follows ("Aleksanterinkatu, Mikonkatu"), like `MKRoute.name`.
    public var name: String
    /// Walking, cycling or driving.
    public var transportType: TransportType
    /// Length, metres.
    public var distanceMeters: Double
    /// Expected travel time, seconds (walking 5 km/h, cycling 15 km/h, driving 80 % of `maxspeed` or
    /// the class's usual speed).
    public var expectedTravelTimeSeconds: Double
    /// The line from the source's nearest street point to the destination's.
    public var polyline: [GeoCoordinate]
    /// Depart, the maneuvers, arrive.
    public var steps: [RouteStep]
    /// What the traveller should know: a start or end far from the street, steps on the way, roads
    /// shared with cars, private access.
    public var advisoryNotices: [String]
    /// The OSM ways followed, in order (one per stretch of the route).
    public var wayIDs: [Int64]
}

/// Calculates routes for a ``DirectionsRequest``, like MapKit's `MKDirections`.
public final class Directions: Sendable {
    /// The request.
    public let request: DirectionsRequest

    /// Directions for `request`.
    public init(request: DirectionsRequest) { self.request = request }

    /// The fastest route first (for walking, the shortest), then alternatives when asked for.
    /// - Throws: `RoutingError.noStreetNearSource` / `.noStreetNearDestination` / `.disconnected`
    ///   (why there is no route), `.invalidParameter`; `MapDataError` or `CatalogError` when the
    ///   street network cannot be loaded.
    public func calculate() async throws -> [Route] { try calculateNow() }

    /// ``calculate()`` on the calling thread (for callers that are not async: a service's threads).
    public func calculateNow() throws -> [Route] {
        let graph = try request.graph ?? DirectionsNetwork.shared(osmPath: nil)
        let paths = try graph.routes(from: request.source.coordinate, to: request.destination.coordinate, mode: request.transportType,
                                     alternatives: request.requestsAlternateRoutes ? 2 : 0, snapRadiusMeters: request.snapRadiusMeters)
        return paths.map { Self.route($0, graph: graph, request: request) }
    }

    static func route(_ path: RoutePath, graph: RoutingGraph, request: DirectionsRequest) -> Route {
        let destinationName = request.destination.name.isEmpty ? nil : request.destination.name
        let maneuvers = path.maneuvers(graph: graph, language: request.language, destinationName: destinationName)
        let steps = maneuvers.map { maneuver in
            RouteStep(instructions: maneuver.instruction, distanceMeters: maneuver.distanceMeters,
                      expectedTravelTimeSeconds: maneuver.durationSeconds, maneuver: maneuver,
                      polyline: Array(path.coordinates[maneuver.coordinateRange]))
        }
        var notices: [String] = []
        if path.source.distanceMeters > 30 {
            notices.append("The route starts \(Int(path.source.distanceMeters.rounded())) m from the start point, at the nearest street open to \(path.mode).")
        }
        if path.destination.distanceMeters > 30 {
            notices.append("The route ends \(Int(path.destination.distanceMeters.rounded())) m from the destination, at the nearest street open to \(path.mode).")
        }
        let highways = Set(path.pieces.map { graph.way(ofEdge: $0.edge).highway })
        if path.mode != .driving, highways.contains("steps") { notices.append("The route has steps.") }
        if path.mode == .walking, !highways.isDisjoint(with: ["primary", "secondary", "tertiary", "trunk"]) {
            notices.append("Parts of the route follow main roads; use their sidewalks.")
        }
        return Route(name: path.summary(graph: graph, language: request.language).joined(separator: ", "), transportType: path.mode,
                     distanceMeters: path.distanceMeters, expectedTravelTimeSeconds: path.durationSeconds, polyline: path.coordinates,
                     steps: steps, advisoryNotices: notices, wayIDs: path.wayIDs(graph: graph))
    }
}

/// Routing graphs, kept per source: an OSM extract's is built on its first request (about 0.1 s for a
/// city centre), a catalog's (``shared(catalog:)``, stored by `lookaround index --osm`) read on its
/// first; later requests reuse them.
public enum DirectionsNetwork {
    private static let graphs = Mutex<[String: RoutingGraph]>([:])

    /// The graph of `osmPath`; nil takes the one the default catalog stores, else builds the extract's
    /// beside it (`sources/*.osm.pbf` next to it, where `lookaround index` reads it).
    /// - Throws: `MapDataError` when the file cannot be read; `RoutingError.emptyNetwork` when no
    ///   extract is found, `.corruptGraph` for a stored graph that cannot be read.
    public static func shared(osmPath: String?) throws -> RoutingGraph {
        // The default catalog opened once per process (LookAroundCatalog), not on every request.
        if osmPath == nil, let catalog = try? LookAroundCatalog.shared(), let stored = try shared(catalog: catalog) {
            return stored
        }
        guard let path = osmPath ?? defaultOSMPath(catalogPath: Catalog.defaultPath) else {
            throw RoutingError.emptyNetwork(mode: .walking, source: "no OSM extract beside the catalog (sources/*.osm.pbf)")
        }
        if let graph = graphs.withLock({ $0[path] }) { return graph }
        let graph = try RoutingGraph(contentsOfFile: path)
        graphs.withLock { $0[path] = graph }
        return graph
    }

    /// The graph `lookaround index --osm` stored in `catalog` (read once per catalog and revision), nil
    /// when the catalog holds none.
    /// - Throws: `CatalogError` when it cannot be read, `RoutingError.corruptGraph` when its bytes are
    ///   of another format version or damaged (the remedy: index again).
    public static func shared(catalog: Catalog) throws -> RoutingGraph? {
        let key = "catalog \(catalog.location) revision \(catalog.revision)"
        if let graph = graphs.withLock({ $0[key] }) { return graph }
        guard let stored = try catalog.streetGraph() else { return nil }
        guard stored.formatVersion == RoutingGraph.serializationFormatVersion else {
            throw RoutingError.corruptGraph(detail: "the catalog \(catalog.location) stores a routing graph of format version "
                                            + "\(stored.formatVersion), this lookaround reads \(RoutingGraph.serializationFormatVersion)")
        }
        let graph = try RoutingGraph(serialized: stored.data, sourceDescription: "the catalog \(catalog.location)")
        graphs.withLock { $0[key] = graph }
        return graph
    }

    /// The OSM extract in `sources/` beside an SQLite catalog, if any.
    public static func defaultOSMPath(catalogPath: String) -> String? {
        guard let file = (try? CatalogLocation(parsing: catalogPath))?.filePath else { return nil }
        let sources = ((file as NSString).deletingLastPathComponent as NSString).appendingPathComponent("sources")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []).sorted()
        return names.first { $0.hasSuffix(".osm.pbf") || $0.hasSuffix(".osm") }.map { (sources as NSString).appendingPathComponent($0) }
    }
}

/// What `lookaround index` stores with the catalog so that directions need no extract: the routing
/// graph of the OSM files, as ``RoutingGraph/serialized()`` bytes.
public struct StreetGraphBuilder: StreetGraphBuilding {
    public init() {}

    public var formatVersion: Int { RoutingGraph.serializationFormatVersion }

    /// The graph of the street networks of `osmFiles` together (ways and nodes in several files are
    /// taken once).
    /// - Throws: `MapDataError` when a file cannot be read.
    public func graphData(osmFiles: [String]) throws -> [UInt8] {
        let networks = try osmFiles.map { try StreetNetwork(contentsOfFile: $0) }
        guard networks.count > 1 else { return RoutingGraph(network: networks[0]).serialized() }
        var seenWays = Set<Int64>(), seenRestrictions = Set<Int64>()
        var ways: [StreetNetwork.Way] = [], restrictions: [StreetNetwork.TurnRestriction] = []
        var coordinates: [Int64: OSMCoordinate] = [:]
        var box: OSMBoundingBox?
        for network in networks {
            for way in network.ways where seenWays.insert(way.id).inserted { ways.append(way) }
            for restriction in network.restrictions where seenRestrictions.insert(restriction.id).inserted { restrictions.append(restriction) }
            coordinates.merge(network.coordinates) { first, _ in first }
            if let b = network.boundingBox {
                box = box.map { OSMBoundingBox(minLatitude: min($0.minLatitude, b.minLatitude), minLongitude: min($0.minLongitude, b.minLongitude),
                                               maxLatitude: max($0.maxLatitude, b.maxLatitude), maxLongitude: max($0.maxLongitude, b.maxLongitude)) } ?? b
            }
        }
        let merged = StreetNetwork(sourcePath: osmFiles.joined(separator: ", "), ways: ways, coordinates: coordinates,
                                   restrictions: restrictions, boundingBox: box)
        return RoutingGraph(network: merged).serialized()
    }
}

extension MapItem {
    /// A map item for a bare coordinate (or a place without catalog details), like
    /// `MKMapItem(placemark: MKPlacemark(coordinate:))`.
    public init(coordinate: GeoCoordinate, name: String = "") {
        self.init(name: name, category: "", categoryGroup: .service, coordinate: coordinate,
                  identifier: "coordinate/\(coordinate.latitude),\(coordinate.longitude)")
    }
}
