import Catalog
import Foundation
import Geodesy
import LookAround
import Synchronization

/// Directions over the street network of the OSM extract the service draws its maps from:
/// `GET /v1/directions` (native JSON, places or coordinates, step previews) and OSRM's
/// `GET /route/v1/{profile}/{lon,lat;lon,lat…}` (same parameters, codes and fields), so OSRM clients
/// (routingpy, Leaflet Routing Machine, OSRM's own frontend) work unchanged.
extension SceneService {
    static let directionsParameters = ["from", "to", "mode", "alternatives", "language", "previews"]
    /// OSRM's route parameters; the ones this router does not use (bearings, radiuses, hints…) are taken
    /// and have no effect.
    static let osrmRouteParameters = ["alternatives", "steps", "geometries", "overview", "annotations", "continue_straight",
                                      "radiuses", "bearings", "hints", "generate_hints", "approaches", "exclude", "snapping",
                                      "skip_waypoints", "waypoints"]

    /// The routing graph: with `--osm` that extract's, built on first use; else the one `lookaround index`
    /// stored in the catalog (read again when the catalog's revision changes); else the extract beside
    /// the catalog's.
    func routingGraph() throws(ServiceError) -> RoutingGraph {
        if configuration.osmPath == nil {
            do {
                if let stored = try DirectionsNetwork.shared(catalog: catalog) { return stored }
            } catch {
                throw .internalError(detail: "cannot read the catalog's routing graph: \(error)")
            }
        }
        guard let path = configuration.resolvedOSMPath else { throw .noStreetNetwork }
        do { return try DirectionsNetwork.shared(osmPath: path) } catch {
            throw .internalError(detail: "cannot build the routing graph of \(path): \(error)")
        }
    }

    /// A place name, an address or `lat,lon` given as `parameter` (directions' and walks' `from` and `to`).
    func requestedPlace(_ text: String?, parameter: String, language: String?) throws(ServiceError) -> MapItem {
        guard let text, !text.trimmingCharacters(in: .whitespaces).isEmpty else {
            throw .invalidParameter(parameter: parameter, message: "\(parameter) is missing; give lat,lon (e.g. 60.1699,24.9523), a place or an address")
        }
        if let pair = QueryParameters.numberPair(text) {
            return MapItem(coordinate: try QueryParameters.coordinate(pair, text: text, parameter: parameter))
        }
        do {
            let match = try catalog.locate(text, language: language)
            return MapItem(coordinate: match.coordinate, name: match.name)
        } catch {
            throw QueryParameters.translate(error)
        }
    }

    /// `GET /v1/directions?from=&to=&mode=walking|cycling|driving&alternatives=&language=&previews=`.
    func directions(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let query = QueryParameters(request: request)
        let mode = TransportType(rawValue: try query.choice("mode", TransportType.allCases.map(\.rawValue)) ?? "walking") ?? .walking
        let alternatives = try query.choice("alternatives", ["true", "false", "1", "0"]).map { $0 == "true" || $0 == "1" } ?? false
        let previews = try query.choice("previews", ["true", "false", "1", "0"]).map { $0 == "true" || $0 == "1" } ?? false
        let language = query.string("language")
        let source = try requestedPlace(query.string("from"), parameter: "from", language: language)
        let destination = try requestedPlace(query.string("to"), parameter: "to", language: language)
        let graph = try routingGraph()
        let routes: [LookAround.Route]
        do {
            routes = try Directions(request: DirectionsRequest(source: source, destination: destination, transportType: mode,
                                                               requestsAlternateRoutes: alternatives, language: language, graph: graph)).calculateNow()
        } catch let error as RoutingError {
            return Self.routingErrorAnswer(error)
        } catch {
            throw .internalError(detail: "\(error)")
        }
        var stepPreviews: [RouteStepPreview?] = []
        if previews {
            do { stepPreviews = try routes[0].stepPreviewsNow(catalog: catalog) } catch { throw QueryParameters.translate(error) }
        }
        var writer = JSONWriter(capacity: 4096)
        writer.beginObject()
        writer.field("attribution", MapDataset.attribution)
        for (key, item) in [("from", source), ("to", destination)] {
            writer.key(key)
            writer.beginObject()
            writer.field("latitude", item.coordinate.latitude)
            writer.field("longitude", item.coordinate.longitude)
            if !item.name.isEmpty { writer.field("name", item.name) }
            writer.endObject()
        }
        writer.field("mode", mode.rawValue)
        writer.key("routes")
        writer.beginArray()
        for (routeIndex, route) in routes.enumerated() {
            writer.beginObject()
            writer.key("advisory_notices")
            writer.beginArray()
            route.advisoryNotices.forEach { writer.value($0) }
            writer.endArray()
            writer.field("distance_meters", Self.rounded(route.distanceMeters))
            writer.field("expected_travel_time_seconds", Self.rounded(route.expectedTravelTimeSeconds))
            writer.field("name", route.name)
            writer.field("polyline", PolylineEncoding.encode(route.polyline))
            writer.key("steps")
            writer.beginArray()
            for (index, step) in route.steps.enumerated() {
                writer.beginObject()
                writer.field("bearing_after_degrees", Self.rounded(step.maneuver.bearingAfterDegrees))
                writer.field("bearing_before_degrees", Self.rounded(step.maneuver.bearingBeforeDegrees))
                writer.field("distance_meters", Self.rounded(step.distanceMeters))
                writer.field("expected_travel_time_seconds", Self.rounded(step.expectedTravelTimeSeconds))
                writer.field("instructions", step.instructions)
                writer.field("latitude", step.coordinate.latitude)
                writer.field("longitude", step.coordinate.longitude)
                writer.field("modifier", step.maneuver.modifier?.rawValue)
                if routeIndex == 0, stepPreviews.indices.contains(index), let preview = stepPreviews[index] {
                    writer.key("preview")
                    writer.beginObject()
                    writer.field("distance_to_maneuver_meters", Self.rounded(preview.distanceToManeuverMeters))
                    writer.field("heading_degrees", Self.rounded(preview.headingDegrees))
                    writer.field("panorama_id", preview.scene.panoramaID)
                    let id = preview.scene.panoramaID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? preview.scene.panoramaID
                    writer.field("snapshot_url", "/v1/snapshot?scene=\(id)&heading_degrees=\(Self.rounded(preview.headingDegrees))&size=640x360")
                    writer.endObject()
                }
                writer.field("street_name", step.maneuver.streetName)
                writer.field("type", step.maneuver.kind.rawValue)
                writer.endObject()
            }
            writer.endArray()
            writer.field("transport_type", route.transportType.rawValue)
            writer.endObject()
        }
        writer.endArray()
        writer.endObject()
        return .json(writer.bytes)
    }

    /// A routing error as the native error answer (404 for no route, 400 for a bad value).
    static func routingErrorAnswer(_ error: RoutingError) -> HTTPResponse {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.key("error")
        writer.beginObject()
        writer.field("code", error.code)
        writer.field("message", error.description)
        writer.key("parameter")
        writer.null()
        writer.endObject()
        writer.endObject()
        return .json(writer.bytes, status: error.category.httpStatus)
    }

    static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 }

    // MARK: OSRM

    /// OSRM's error answer: `{"code", "message"}` with its HTTP status (400 for request errors and NoRoute / NoSegment).
    static func osrmError(_ code: String, _ message: String, status: Int = 400) -> HTTPResponse {
        var writer = JSONWriter(capacity: 256)
        writer.beginObject()
        writer.field("code", code)
        writer.field("message", message)
        writer.endObject()
        return .json(writer.bytes, status: status)
    }

    /// `GET /route/v1/{profile}/{lon},{lat};{lon},{lat}[;…][.json]`.
    func osrmRoute(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false)
        // "", "route", "v1", profile, coordinates
        guard parts.count == 5 else {
            return Self.osrmError("InvalidUrl", "the URL is /route/v1/{profile}/{lon},{lat};{lon},{lat}")
        }
        guard let mode = TransportType(osrmProfile: String(parts[3])) else {
            return Self.osrmError("InvalidOptions", "profile \(parts[3]) is unknown (allowed: driving, car, walking, foot, cycling, bike)")
        }
        var coordinateText = String(parts[4])
        if coordinateText.hasSuffix(".json") { coordinateText.removeLast(5) }
        var waypoints: [GeoCoordinate] = []
        for pair in coordinateText.split(separator: ";", omittingEmptySubsequences: false) {
            let numbers = pair.split(separator: ",", omittingEmptySubsequences: false).map { Double($0) }
            guard numbers.count == 2, let lon = numbers[0], let lat = numbers[1],
                  let coordinate = try? GeoCoordinate(latitude: lat, longitude: lon) else {
                return Self.osrmError("InvalidValue", "coordinate \(pair) is not lon,lat in degrees (longitude -180…180, latitude -90…90)")
            }
            waypoints.append(coordinate)
        }
        guard waypoints.count >= 2, waypoints.count <= 25 else {
            return Self.osrmError("InvalidValue", "give 2…25 coordinates separated by ';' (\(waypoints.count) given)")
        }
        let query = QueryParameters(request: request)
        do { try query.refuseUnknown(Self.osrmRouteParameters) } catch {
            return Self.osrmError("InvalidQuery", error.description)
        }
        let steps = query.string("steps") == "true"
        let geometries = query.string("geometries") ?? "polyline"
        guard ["polyline", "polyline6", "geojson"].contains(geometries) else {
            return Self.osrmError("InvalidQuery", "geometries=\(geometries) is unknown (allowed: polyline, polyline6, geojson)")
        }
        let overview = query.string("overview") ?? "simplified"
        guard ["simplified", "full", "false"].contains(overview) else {
            return Self.osrmError("InvalidQuery", "overview=\(overview) is unknown (allowed: simplified, full, false)")
        }
        let alternativesText = query.string("alternatives") ?? "false"
        let alternatives: Int
        switch alternativesText {
        case "true": alternatives = 2
        case "false": alternatives = 0
        default:
            guard let count = Int(alternativesText), (0...5).contains(count) else {
                return Self.osrmError("InvalidQuery", "alternatives=\(alternativesText) is not true, false or a number 0…5")
            }
            alternatives = count
        }
        let graph: RoutingGraph
        do { graph = try routingGraph() } catch { return self.error(error, streetView: false) }
        // One search per leg; alternatives only between two waypoints (as OSRM).
        var legs: [[RoutePath]] = []
        do {
            for i in 0..<(waypoints.count - 1) {
                legs.append(try graph.routes(from: waypoints[i], to: waypoints[i + 1], mode: mode,
                                             alternatives: waypoints.count == 2 ? alternatives : 0))
            }
        } catch {
            switch error {
            case .noStreetNearSource, .noStreetNearDestination: return Self.osrmError("NoSegment", error.description)
            case .disconnected, .emptyNetwork: return Self.osrmError("NoRoute", error.description)
            default: return Self.osrmError("InvalidValue", error.description)
            }
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
            writer.field("distance", Self.rounded(distance))
            writer.field("duration", Self.rounded(duration))
            if overview != "false" {
                writer.key("geometry")
                Self.writeGeometry(overview == "simplified" ? Self.simplified(line) : line, format: geometries, into: &writer)
            }
            writer.key("legs")
            writer.beginArray()
            for (legIndex, path) in paths.enumerated() {
                writer.beginObject()
                writer.field("distance", Self.rounded(path.distanceMeters))
                writer.field("duration", Self.rounded(path.durationSeconds))
                writer.field("weight", Self.rounded(path.durationSeconds))
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
                        writer.field("distance", Self.rounded(maneuver.distanceMeters))
                        writer.field("duration", Self.rounded(maneuver.durationSeconds))
                        writer.field("weight", Self.rounded(maneuver.durationSeconds))
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
            writer.field("weight", Self.rounded(duration))
            writer.field("weight_name", mode == .walking ? "distance" : "duration")
            writer.endObject()
        }
        writer.endArray()
        writer.key("waypoints")
        writer.beginArray()
        let snapped = legs.map { $0[0].source } + [legs[legs.count - 1][0].destination]
        for point in snapped {
            writer.beginObject()
            writer.field("distance", Self.rounded(point.distanceMeters))
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
