import Catalog
import Foundation
import LookAround

/// The routing graph directions and OSRM's route share: with `--osm` that extract's, built on first use;
/// else the one `lookaround index` stored in the catalog (read again when the catalog's revision
/// changes); else the extract beside the catalog's.
struct RoutingGraphSource: Sendable {
    let catalog: Catalog
    /// `--osm`, when given.
    let osmPath: String?
    /// The extract maps are drawn from (``ServiceConfiguration/resolvedOSMPath``).
    let resolvedOSMPath: String?

    /// The graph.
    /// - Throws: `ServiceError.internalError` (the operator's details logged, the client told "internal error").
    func graph() throws(ServiceError) -> RoutingGraph {
        if osmPath == nil {
            do {
                if let stored = try DirectionsNetwork.shared(catalog: catalog) { return stored }
            } catch {
                throw .internalError(detail: "cannot read the catalog's routing graph: \(error)")
            }
        }
        guard let path = resolvedOSMPath else {
            throw .internalError(detail: "no OSM extract to route over; start the server with --osm FILE")
        }
        do { return try DirectionsNetwork.shared(osmPath: path) } catch {
            throw .internalError(detail: "cannot build the routing graph of \(path): \(error)")
        }
    }
}

/// The ends of a route or a walk as a client names them (`from`, `to`): `lat,lon`, a place or an address.
struct PlaceLookup: Sendable {
    let catalog: Catalog

    /// The place `text` names, given as `parameter`.
    func place(_ text: String?, parameter: String, language: String?) throws(ServiceError) -> MapItem {
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
}
