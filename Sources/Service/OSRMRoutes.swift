import Foundation
import Geodesy
import LookAround

/// OSRM's route, `GET /route/v1/{profile}/{lon,lat;lon,lat…}` (same parameters, codes and fields), over
/// the graph `/v1/directions` routes on, so OSRM clients (routingpy, Leaflet Routing Machine, OSRM's
/// own frontend) work unchanged. Its errors take OSRM's shape (`ServiceError.osrmCode`).
struct OSRMRoutes: RouteFamily {
    let graph: RoutingGraphSource

    /// OSRM's route parameters; the ones this router does not use (bearings, radiuses, hints…) are taken
    /// and have no effect.
    static let parameters = ["alternatives", "steps", "geometries", "overview", "annotations", "continue_straight",
                             "radiuses", "bearings", "hints", "generate_hints", "approaches", "exclude", "snapping",
                             "skip_waypoints", "waypoints"]

    var routes: [Route] {
        // The path is checked before the query (as OSRM): the work checks the parameters.
        [Route(.get, PathPattern("/route/v1/{profile}/{coordinates}"), label: "osrm_route", errors: .osrm, parameters: nil,
               .worker { try route($0) })]
    }


    /// `GET /route/v1/{profile}/{lon},{lat};{lon},{lat}[;…][.json]`.
    func route(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "route", "v1", profile, coordinates
        guard parts.count == 5 else {
            throw .invalidParameter(parameter: "path", message: "the URL is /route/v1/{profile}/{lon},{lat};{lon},{lat}")
        }
        guard let mode = TransportType(osrmProfile: String(parts[3])) else {
            throw .invalidParameter(parameter: "profile", message: "profile \(parts[3]) is unknown (allowed: driving, car, walking, foot, cycling, bike)")
        }
        var coordinateText = String(parts[4])
        if coordinateText.hasSuffix(".json") { coordinateText.removeLast(5) }
        var waypoints: [GeoCoordinate] = []
        for pair in coordinateText.split(separator: ";", omittingEmptySubsequences: false) {
            let numbers = pair.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard numbers.count == 2, let lon = numbers[0], let lat = numbers[1],
                  let coordinate = try? GeoCoordinate(latitude: lat, longitude: lon) else {
                throw .invalidParameter(parameter: "coordinates",
                                        message: "coordinate \(pair) is not lon,lat in degrees (longitude -180…180, latitude -90…90)")
            }
            waypoints.append(coordinate)
        }
        guard waypoints.count >= 2, waypoints.count <= 25 else {
            throw .invalidParameter(parameter: "coordinates", message: "give 2…25 coordinates separated by ';' (\(waypoints.count) given)")
        }
        let query = QueryParameters(request: request)
        try query.refuseUnknown(Self.parameters)
        let steps = query.string("steps") == "true"
        let geometries = query.string("geometries") ?? "polyline"
        guard ["polyline", "polyline6", "geojson"].contains(geometries) else {
            throw .invalidParameter(parameter: "geometries", message: "geometries=\(geometries) is unknown (allowed: polyline, polyline6, geojson)")
        }
        let overview = query.string("overview") ?? "simplified"
        guard ["simplified", "full", "false"].contains(overview) else {
            throw .invalidParameter(parameter: "overview", message: "overview=\(overview) is unknown (allowed: simplified, full, false)")
        }
        let alternativesText = query.string("alternatives") ?? "false"
        let alternatives: Int
        switch alternativesText {
        case "true": alternatives = 2
        case "false": alternatives = 0
        default:
            guard let count = Int(alternativesText), (0...5).contains(count) else {
                throw .invalidParameter(parameter: "alternatives", message: "alternatives=\(alternativesText) is not true, false or a number 0…5")
            }
            alternatives = count
        }
        let graph = try self.graph.graph()
        // One search per leg; alternatives only between two waypoints (as OSRM).
        var legs: [[RoutePath]] = []
        do {
            for i in 0..<(waypoints.count - 1) {
                legs.append(try graph.routes(from: waypoints[i], to: waypoints[i + 1], mode: mode,
                                             alternatives: waypoints.count == 2 ? alternatives : 0))
            }
        } catch {
            // NoSegment, NoRoute (ServiceError.osrmCode); a broken graph is the server's, its details logged.
            throw QueryParameters.translate(error)
        }
        let routeCount = legs[0].count
        var writer = JSONWriter(capacity: 8192)
        writer.beginObject()
        writer.field("code", "Ok")
        writer.key("routes")
        writer.beginArray()
        for r in 0..<routeCount {
            let paths = legs.map { $0[min(r, $0.count - 1)] }
            var line: [GeoCoordinate] = []
            for path in paths { line += line.isEmpty ? path.coordinates : Array(path.coordinates.dropFirst()) }
            let distance = paths.reduce(0) { $0 + $1.distanceMeters }, duration = paths.reduce(0) { $0 + $1.durationSeconds }
            writer.beginObject()
            writer.field("distance", JSONWriter.tenths(distance))
            writer.field("duration", JSONWriter.tenths(duration))
            if overview != "false" {
                writer.key("geometry")
                Self.writeGeometry(overview == "simplified" ? Self.simplified(line) : line, format: geometries, into: &writer)
            }
            writer.key("legs")
            writer.beginArray()
            for (legIndex, path) in paths.enumerated() {
                writer.beginObject()
                writer.field("distance", JSONWriter.tenths(path.distanceMeters))
                writer.field("duration", JSONWriter.tenths(path.durationSeconds))
                writer.field("weight", JSONWriter.tenths(path.durationSeconds))
                writer.field("summary", path.summary(graph: graph).joined(separator: ", "))
                writer.key("steps")
                writer.beginArray()
                if steps {
                    let maneuvers = path.maneuvers(graph: graph)
                    for (index, maneuver) in maneuvers.enumerated() {
                        var kind = maneuver.kind
                        // OSRM names the arrival at an intermediate waypoint "arrive" too; the final depart of a later leg "depart".
                        if legIndex > 0, index == 0 { kind = .depart }
                        writer.beginObject()
                        writer.field("distance", JSONWriter.tenths(maneuver.distanceMeters))
                        writer.field("duration", JSONWriter.tenths(maneuver.durationSeconds))
                        writer.field("weight", JSONWriter.tenths(maneuver.durationSeconds))
                        writer.field("name", maneuver.streetName ?? "")
                        writer.field("mode", mode == .driving ? "driving" : mode.rawValue)
                        writer.field("driving_side", "right")
                        writer.key("geometry")
                        Self.writeGeometry(Array(path.coordinates[maneuver.coordinateRange]), format: geometries, into: &writer)
                        writer.key("maneuver")
                        writer.beginObject()
                        writer.field("bearing_after", Int(maneuver.bearingAfterDegrees.rounded()) % 360)
                        writer.field("bearing_before", Int(maneuver.bearingBeforeDegrees.rounded()) % 360)
                        writer.key("location")
                        Self.writeLonLat(maneuver.coordinate, into: &writer)
                        if let modifier = maneuver.modifier { writer.field("modifier", modifier.rawValue) }
                        writer.field("type", kind.rawValue)
                        writer.field("instruction", maneuver.instruction)
                        writer.endObject()
                        writer.key("intersections")
                        writer.beginArray()
                        writer.beginObject()
                        writer.key("location")
                        Self.writeLonLat(maneuver.coordinate, into: &writer)
                        writer.endObject()
                        writer.endArray()
                        writer.endObject()
                    }
                }
                writer.endArray()
                writer.endObject()
            }
            writer.endArray()
            writer.field("weight", JSONWriter.tenths(duration))
            writer.field("weight_name", mode == .walking ? "distance" : "duration")
            writer.endObject()
        }
        writer.endArray()
        writer.key("waypoints")
        writer.beginArray()
        let snapped = legs.map { $0[0].source } + [legs[legs.count - 1][0].destination]
        for point in snapped {
            writer.beginObject()
            writer.field("distance", JSONWriter.tenths(point.distanceMeters))
            writer.field("hint", "")
            writer.key("location")
            Self.writeLonLat(point.coordinate, into: &writer)
            writer.field("name", graph.way(ofEdge: point.edge).name ?? "")
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return .json(writer.bytes)
    }

    static func writeLonLat(_ coordinate: GeoCoordinate, into writer: inout JSONWriter) {
        writer.beginArray()
        writer.value((coordinate.longitude * 1e6).rounded() / 1e6)
        writer.value((coordinate.latitude * 1e6).rounded() / 1e6)
        writer.endArray()
    }

    static func writeGeometry(_ line: [GeoCoordinate], format: String, into writer: inout JSONWriter) {
        switch format {
        case "geojson":
            writer.beginObject()
            writer.key("coordinates")
            writer.beginArray()
            for point in line { writeLonLat(point, into: &writer) }
            writer.endArray()
            writer.field("type", "LineString")
            writer.endObject()
        case "polyline6": writer.value(PolylineEncoding.encode(line, precision: 6))
        default: writer.value(PolylineEncoding.encode(line, precision: 5))
        }
    }

    /// OSRM's `overview=simplified`: the line without points closer than 1 m to the one kept before.
    static func simplified(_ line: [GeoCoordinate]) -> [GeoCoordinate] {
        guard line.count > 2 else { return line }
        var kept = [line[0]]
        for point in line.dropFirst().dropLast() where kept.last!.distanceMeters(to: point) >= 1 { kept.append(point) }
        kept.append(line[line.count - 1])
        return kept
    }
}
