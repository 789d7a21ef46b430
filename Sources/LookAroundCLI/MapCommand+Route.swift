import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import Geodesy
import Imaging
import LookAround
import MapSnapshot

/// `lookaround map --route-from A --route-to B`: the street route drawn over the map with start and end pins.
extension MapCommand {
    static let routeOptions: [OptionSpec] = [
        .value("route-from", valueName: "PLACE|LAT,LON", help: "Draw the street route from here (with --route-to): a place, an address or LAT,LON."),
        .value("route-to", valueName: "PLACE|LAT,LON", help: "Where the drawn route ends."),
        .value("route-mode", valueName: "MODE", help: "How the drawn route travels.", defaultValue: "walking",
               allowedValues: TransportType.allCases.map(\.rawValue)),
    ]

    /// The route's overlay, its start (green) and end (red) pins, and the region that frames it; nil without --route-from.
    /// The route follows the catalog's stored graph unless --osm is given (or the catalog has none).
    static func routeDrawing(_ arguments: ParsedArguments, osm: String)
        throws -> (overlay: MapOverlay, pins: [MapAnnotation], region: CoordinateRegion, route: Route)? {
        guard arguments.has("route-from") || arguments.has("route-to") else { return nil }
        guard let fromText = arguments.string("route-from"), let toText = arguments.string("route-to") else {
            throw arguments.error("--route-from and --route-to go together")
        }
        let mode = TransportType(rawValue: arguments.string("route-mode") ?? "walking") ?? .walking
        let language = arguments.string("language")
        var catalog: Catalog?
        let open = { () throws -> Catalog in
            if let catalog { return catalog }
            let opened = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
            catalog = opened
            return opened
        }
        let from = try DirectionsCommand.resolvePlace(fromText, option: "route-from", arguments: arguments, language: language, catalog: open)
        let to = try DirectionsCommand.resolvePlace(toText, option: "route-to", arguments: arguments, language: language, catalog: open)
        let request = DirectionsRequest(source: MapItem(coordinate: from.coordinate, name: from.name),
                                        destination: MapItem(coordinate: to.coordinate, name: to.name), transportType: mode,
                                        language: language,
                                        graph: try (arguments.has("osm") ? nil : DirectionsCommand.storedGraph(open))
                                            ?? DirectionsNetwork.shared(osmPath: osm))
        let route = try Directions(request: request).calculateNow()[0]
        let line = [from.coordinate] + route.polyline + [to.coordinate]
        let overlay = MapOverlay(geometry: .polyline(line, geodesic: false), strokeColor: RGBAColor(red: 0, green: 122, blue: 255),
                                 lineWidthPoints: 6, alpha: 0.9)
        let pins = [MapAnnotation(coordinate: from.coordinate, title: from.name.isEmpty ? "Start" : from.name,
                                  appearance: .pin(color: RGBAColor(red: 52, green: 199, blue: 89))),
                    MapAnnotation(coordinate: to.coordinate, title: to.name.isEmpty ? "End" : to.name,
                                  appearance: .pin(color: RGBAColor(red: 234, green: 67, blue: 53)))]
        let latitudes = line.map(\.latitude), longitudes = line.map(\.longitude)
        let padLatitude = max((latitudes.max()! - latitudes.min()!) * 0.2, 0.0008)
        let padLongitude = max((longitudes.max()! - longitudes.min()!) * 0.2, 0.0016)
        let region = try CoordinateRegion(north: latitudes.max()! + padLatitude * 1.5, south: latitudes.min()! - padLatitude,
                                          west: longitudes.min()! - padLongitude, east: longitudes.max()! + padLongitude)
        return (overlay, pins, region, route)
    }
}
