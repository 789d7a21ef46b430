import Catalog
import Foundation
import Geodesy
import LookAround
import Synchronization

/// Directions over the street network of the OSM extract the service draws its maps from:
/// `GET /v1/directions` (native JSON, places or coordinates, step previews). OSRM's route is
/// ``OSRMRoutes``, over the same graph.
struct DirectionsRoutes: RouteFamily {
    let catalog: Catalog
    let graph: RoutingGraphSource
    let places: PlaceLookup

    var routes: [Route] {
        // Routing can take tens of milliseconds (and the first request builds the graph): a render worker's job.
        [Route(.get, PathPattern("/v1/directions"), label: "directions", parameters: ["from", "to", "mode", "alternatives", "language", "previews"],
               .worker { try directions($0) })]
    }

    /// `GET /v1/directions?from=&to=&mode=walking|cycling|driving&alternatives=&language=&previews=`.
    func directions(_ request: HTTPRequest) throws(ServiceError) -> HTTPResponse {
        let query = QueryParameters(request: request)
        let mode = TransportType(rawValue: try query.choice("mode", TransportType.allCases.map(\.rawValue)) ?? "walking") ?? .walking
        let alternatives = try query.choice("alternatives", ["true", "false", "1", "0"]).map { $0 == "true" || $0 == "1" } ?? false
        let previews = try query.choice("previews", ["true", "false", "1", "0"]).map { $0 == "true" || $0 == "1" } ?? false
        let language = query.string("language")
        let source = try places.place(query.string("from"), parameter: "from", language: language)
        let destination = try places.place(query.string("to"), parameter: "to", language: language)
        let graph = try self.graph.graph()
        let routes: [LookAround.Route]
        do {
            routes = try Directions(request: DirectionsRequest(source: source, destination: destination, transportType: mode,
                                                               requestsAlternateRoutes: alternatives, language: language, graph: graph)).calculateNow()
        } catch {
            // No route is an answer (404 with the reason as its code); a broken graph is the server's.
            throw QueryParameters.translate(error)
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
            writer.field("distance_meters", JSONWriter.tenths(route.distanceMeters))
            writer.field("expected_travel_time_seconds", JSONWriter.tenths(route.expectedTravelTimeSeconds))
            writer.field("name", route.name)
            writer.field("polyline", PolylineEncoding.encode(route.polyline))
            writer.key("steps")
            writer.beginArray()
            for (index, step) in route.steps.enumerated() {
                writer.beginObject()
                writer.field("bearing_after_degrees", JSONWriter.tenths(step.maneuver.bearingAfterDegrees))
                writer.field("bearing_before_degrees", JSONWriter.tenths(step.maneuver.bearingBeforeDegrees))
                writer.field("distance_meters", JSONWriter.tenths(step.distanceMeters))
                writer.field("expected_travel_time_seconds", JSONWriter.tenths(step.expectedTravelTimeSeconds))
                writer.field("instructions", step.instructions)
                writer.field("latitude", step.coordinate.latitude)
                writer.field("longitude", step.coordinate.longitude)
                writer.field("modifier", step.maneuver.modifier?.rawValue)
                if routeIndex == 0, stepPreviews.indices.contains(index), let preview = stepPreviews[index] {
                    writer.key("preview")
                    writer.beginObject()
                    writer.field("distance_to_maneuver_meters", JSONWriter.tenths(preview.distanceToManeuverMeters))
                    writer.field("heading_degrees", JSONWriter.tenths(preview.headingDegrees))
                    writer.field("panorama_id", preview.scene.panoramaID)
                    let id = preview.scene.panoramaID.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? preview.scene.panoramaID
                    writer.field("snapshot_url", "/v1/snapshot?scene=\(id)&heading_degrees=\(JSONWriter.tenths(preview.headingDegrees))&size=640x360")
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

}
