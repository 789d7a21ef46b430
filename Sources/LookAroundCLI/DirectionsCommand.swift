import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData

/// `lookaround directions`: a route over the OSM street network with steps, as text, JSON or GeoJSON,
/// and street-level previews of its turns.
enum DirectionsCommand: Command {
    static let spec = CommandSpec(
        name: "directions",
        abstract: "Directions over the street network (walking, cycling, driving) with steps and street-level previews of the turns.",
        discussion: """
            --from and --to take a place name ("Senaatintori"), an address ("Aleksanterinkatu 52") or LAT,LON; \
            names and addresses are looked up in the catalog, as --near does. The route follows the streets of the \
            routing graph 'lookaround index --osm' stored in the catalog; with --osm FILE (or when the catalog \
            holds no graph) it is built from that OSM extract on demand (default the shipped Helsinki extract, \
            about 0.1 s). Walking uses footways, steps, pedestrian streets \
            and crosses squares, and walks one-way streets both ways; cycling keeps off steps and footways not open \
            to bicycles; driving obeys one-way streets, access tags and turn restrictions. Walking routes are the \
            shortest, the others the fastest (cycling 15 km/h; driving 80 % of maxspeed, else the road class's \
            usual speed). Each step says what to do at a junction ("Turn left onto Aleksanterinkatu", street names \
            in --language), how far to go, and which way the street leads.
            --previews DIR writes, for each step of the first route, the street-level view from the panorama \
            nearest before the turn, looking along the new street (step-01.jpg …); steps without a panorama \
            within 40 m get none. --geojson prints the routes as GeoJSON (LineStrings, and a Point per step) that \
            'lookaround map --route FILE' draws. No route is exit code 1 naming why (no street near an end, or \
            the two are not joined for the mode).
            """,
        options: [
            .value("from", valueName: "PLACE|ADDRESS|LAT,LON", help: "Where the route starts.", required: true),
            .value("to", valueName: "PLACE|ADDRESS|LAT,LON", help: "Where it ends.", required: true),
            .value("mode", valueName: "MODE", help: "How to travel.", defaultValue: "walking",
                   allowedValues: TransportType.allCases.map(\.rawValue)),
            .flag("alternatives", help: "Also give up to two other routes (different streets, at most 50 % longer)."),
            .value("language", valueName: "CODE", help: "Language of street and place names (name:CODE tags), e.g. sv."),
            .value("osm", valueName: "FILE", help: "Route over this OSM extract's streets (built on demand) instead of the catalog's graph.",
                   defaultValue: MapCommand.defaultData),
            CommonOptions.catalog,
            .value("snap-radius-meters", valueName: "METERS", help: "How far from a street the ends may lie (1…5000).", defaultValue: "250"),
            .value("previews", valueName: "DIR", help: "Write a street-level JPEG per step of the first route into DIR."),
            .value("preview-size", valueName: "WxH", help: "Size of the previews in pixels (64…1920 each side).", defaultValue: "640x360"),
            .flag("json", help: "Print the routes as JSON (distance_meters, expected_travel_time_seconds, polyline, steps, advisory_notices)."),
            .flag("geojson", help: "Print the routes as a GeoJSON FeatureCollection (for 'lookaround map --route FILE')."),
            CommonOptions.quiet,
        ],
        examples: [
            (command: "lookaround directions --from Senaatintori --to Stockmann", comment: "walking directions across the centre"),
            (command: "lookaround directions --from 60.1699,24.9523 --to 60.1686,24.9417 --mode driving --alternatives --json",
             comment: "driving routes between two coordinates, as JSON"),
            (command: "lookaround directions --from Senaatintori --to 'Aleksanterinkatu 52' --previews steps/",
             comment: "a street-level picture of every turn"),
            (command: "lookaround directions --from Senaatintori --to Stockmann --geojson > route.geojson",
             comment: "the route as GeoJSON, for 'lookaround map --route route.geojson'"),
        ])

    /// The routing graph the catalog stores (`lookaround index --osm`), nil when the catalog cannot be
    /// opened or holds none (the caller then builds the `--osm` extract's). A stored graph that cannot
    /// be read is an error, with the remedy.
    static func storedGraph(_ catalog: () throws -> Catalog) throws -> RoutingGraph? {
        guard let opened = try? catalog() else { return nil }
        return try DirectionsNetwork.shared(catalog: opened)
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        // Everything typed is checked before any file is read.
        let mode = TransportType(rawValue: arguments.string("mode") ?? "walking") ?? .walking
        let snapRadius = try arguments.double("snap-radius-meters", in: 1...5_000) ?? RoutingGraph.defaultSnapRadiusMeters
        if arguments.flag("json"), arguments.flag("geojson") { throw arguments.error("give --json or --geojson, not both") }
        var previewSize = PixelSize(width: 640, height: 360)
        if let text = arguments.string("preview-size") {
            do { previewSize = try PixelSize(parsing: text, maximumSide: 1920) } catch {
                throw arguments.error("--preview-size: \(error)")
            }
            guard previewSize.width >= 64, previewSize.height >= 64 else {
                throw arguments.error("--preview-size \(text): each side must be 64…1920 pixels")
            }
        }
        let language = arguments.string("language")
        let catalogPath = arguments.string("catalog") ?? Catalog.defaultPath
        var catalog: Catalog?
        func openCatalog() throws -> Catalog {
            if let catalog { return catalog }
            let opened = try Catalog(path: catalogPath)
            catalog = opened
            return opened
        }
        let from = try resolvePlace(try arguments.requiredString("from"), option: "from", arguments: arguments, language: language, catalog: openCatalog)
        let to = try resolvePlace(try arguments.requiredString("to"), option: "to", arguments: arguments, language: language, catalog: openCatalog)
        let graph: RoutingGraph
        if !arguments.has("osm"), let stored = try storedGraph(openCatalog) {
            graph = stored
        } else {
            let osm = try arguments.requiredString("osm")
            guard FileManager.default.fileExists(atPath: osm) else {
                Console.error("error: --osm \(osm): no such file; pass the OSM extract (.osm.pbf) whose streets to route over, "
                              + "or run 'lookaround index --osm FILE' to store its graph in the catalog")
                return .failed(.missingInput)
            }
            graph = try DirectionsNetwork.shared(osmPath: osm)
        }
        var request = DirectionsRequest(source: MapItem(coordinate: from.coordinate, name: from.name),
                                        destination: MapItem(coordinate: to.coordinate, name: to.name),
                                        transportType: mode, requestsAlternateRoutes: arguments.flag("alternatives"),
                                        language: language, graph: graph)
        request.snapRadiusMeters = snapRadius
        let routes: [Route]
        do { routes = try Directions(request: request).calculateNow() } catch let error as RoutingError {
            Console.error("error: \(error)")
            return .failed(error.category)
        }
        var previews: [RouteStepPreview?] = []
        var previewPaths: [Int: String] = [:]
        if let directory = arguments.string("previews") {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let catalog = try openCatalog()
            previews = try routes[0].stepPreviewsNow(catalog: catalog)
            for case let preview? in previews {
                let snapshotter = LookAroundSnapshotter(scene: preview.scene, options: preview.snapshotOptions(size: previewSize, language: language),
                                                        catalog: catalog)
                let snapshot = try snapshotter.render()
                let path = (directory as NSString).appendingPathComponent(String(format: "step-%02d.jpg", preview.stepIndex + 1))
                try ImageFile.write(try JPEGCodec.encode(snapshot.image, quality: 88), to: path)
                previewPaths[preview.stepIndex] = path
            }
        }
        let report = DirectionsReport(from: from, to: to, mode: mode, routes: routes, previews: previews, previewPaths: previewPaths)
        if arguments.flag("json") {
            try Console.json(report)
        } else if arguments.flag("geojson") {
            Console.out(report.geoJSON())
        } else {
            report.lines.forEach(Console.out)
        }
        return .ok
    }

    /// A place name, an address, or LAT,LON: coordinates are taken as they are (no catalog needed);
    /// anything else is looked up in the catalog as `--near` does.
    static func resolvePlace(_ text: String, option: String, arguments: ParsedArguments, language: String?,
                             catalog: () throws -> Catalog) throws -> (coordinate: GeoCoordinate, name: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, Double(parts[0].trimmingCharacters(in: .whitespaces)) != nil,
           Double(parts[1].trimmingCharacters(in: .whitespaces)) != nil {
            return (try arguments.parseCoordinate(text.replacingOccurrences(of: " ", with: ""), option: option), "")
        }
        return try WalkCommand.resolve(text, option: option, arguments: arguments, catalog: try catalog(), language: language)
    }
}

/// What `directions` prints: the ends, the routes with their steps, previews written.
struct DirectionsReport: Encodable {
    struct Place: Encodable {
        var name: String?
        var latitude, longitude: Double
    }
    struct Maneuver: Encodable {
        var type: String
        var modifier: String?
        var latitude, longitude: Double
        var bearingBeforeDegrees, bearingAfterDegrees: Double
        var streetName: String?
        var highway: String
    }
    struct Preview: Encodable {
        var panoramaId: String
        var headingDegrees: Double
        var distanceToManeuverMeters: Double
        var path: String?
    }
    struct Step: Encodable {
        var instructions: String
        var distanceMeters, expectedTravelTimeSeconds: Double
        var maneuver: Maneuver
        var preview: Preview?
    }
    struct RouteEntry: Encodable {
        var name: String
        var transportType: String
        var distanceMeters, expectedTravelTimeSeconds: Double
        var polyline: [[Double]]
        var steps: [Step]
        var advisoryNotices: [String]
        var wayIds: [Int64]
    }

    var from, to: Place
    var mode: String
    var routes: [RouteEntry]
    var attribution = MapDataset.attribution

    init(from: (coordinate: GeoCoordinate, name: String), to: (coordinate: GeoCoordinate, name: String), mode: TransportType,
         routes: [Route], previews: [RouteStepPreview?], previewPaths: [Int: String]) {
        func round(_ value: Double, _ digits: Double) -> Double { (value * digits).rounded() / digits }
        self.from = Place(name: from.name.isEmpty ? nil : from.name, latitude: from.coordinate.latitude, longitude: from.coordinate.longitude)
        self.to = Place(name: to.name.isEmpty ? nil : to.name, latitude: to.coordinate.latitude, longitude: to.coordinate.longitude)
        self.mode = mode.rawValue
        self.routes = routes.enumerated().map { routeIndex, route in
            RouteEntry(name: route.name, transportType: route.transportType.rawValue, distanceMeters: round(route.distanceMeters, 10),
                       expectedTravelTimeSeconds: round(route.expectedTravelTimeSeconds, 10),
                       polyline: route.polyline.map { [round($0.latitude, 1e6), round($0.longitude, 1e6)] },
                       steps: route.steps.enumerated().map { index, step in
                           let m = step.maneuver
                           let preview = routeIndex == 0 && previews.indices.contains(index) ? previews[index] : nil
                           return Step(instructions: step.instructions, distanceMeters: round(step.distanceMeters, 10),
                                       expectedTravelTimeSeconds: round(step.expectedTravelTimeSeconds, 10),
                                       maneuver: Maneuver(type: m.kind.rawValue, modifier: m.modifier?.rawValue,
                                                          latitude: round(m.coordinate.latitude, 1e6), longitude: round(m.coordinate.longitude, 1e6),
                                                          bearingBeforeDegrees: round(m.bearingBeforeDegrees, 10),
                                                          bearingAfterDegrees: round(m.bearingAfterDegrees, 10), streetName: m.streetName,
                                                          highway: m.highway),
                                       preview: preview.map {
                                           Preview(panoramaId: $0.scene.panoramaID, headingDegrees: round($0.headingDegrees, 10),
                                                   distanceToManeuverMeters: round($0.distanceToManeuverMeters, 10), path: previewPaths[index])
                                       })
                       },
                       advisoryNotices: route.advisoryNotices, wayIds: route.wayIDs)
        }
    }

    static func distance(_ meters: Double) -> String {
        meters >= 1000 ? "\(fixed(meters / 1000, 2)) km" : "\(Int(meters.rounded())) m"
    }

    static func duration(_ seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        if seconds < 60 { return "\(Int(seconds.rounded())) s" }
        return minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min"
    }

    var lines: [String] {
        func place(_ p: Place) -> String {
            let point = "\(fixed(p.latitude, 5)),\(fixed(p.longitude, 5))"
            return p.name.map { "\($0) (\(point))" } ?? point
        }
        var lines = ["from       \(place(from))", "to         \(place(to))"]
        for (i, route) in routes.enumerated() {
            lines.append("route \(i + 1)    \(Self.distance(route.distanceMeters)), \(Self.duration(route.expectedTravelTimeSeconds)) \(mode)"
                         + (route.name.isEmpty ? "" : " via \(route.name)"))
            for (n, step) in route.steps.enumerated() {
                let number = "\(n + 1).".padding(toLength: 4, withPad: " ", startingAt: 0)
                let distance = step.distanceMeters > 0 ? Self.distance(step.distanceMeters) : ""
                lines.append("  \(number)\(step.instructions.padding(toLength: max(step.instructions.count, 48), withPad: " ", startingAt: 0))  \(distance)")
                if let preview = step.preview, let path = preview.path {
                    lines.append("      preview \(path) (panorama \(preview.panoramaId), heading \(fixed(preview.headingDegrees, 0))°)")
                }
            }
            for notice in route.advisoryNotices { lines.append("  notice  \(notice)") }
        }
        lines.append(attribution)
        return lines
    }

    /// The routes as a GeoJSON FeatureCollection: a LineString per route (route blue for the first,
    /// grey for alternatives), a Point per step with its instruction.
    func geoJSON() -> String {
        var features: [[String: Any]] = []
        for (i, route) in routes.enumerated() {
            features.append(["type": "Feature",
                             "geometry": ["type": "LineString", "coordinates": route.polyline.map { [$0[1], $0[0]] }],
                             "properties": ["route": i + 1, "name": route.name, "mode": mode, "distance_meters": route.distanceMeters,
                                            "expected_travel_time_seconds": route.expectedTravelTimeSeconds,
                                            "stroke": i == 0 ? "#007aff" : "#8e8e93", "stroke-width": i == 0 ? 6 : 4] as [String: Any]])
            guard i == 0 else { continue }
            for (n, step) in route.steps.enumerated() {
                features.append(["type": "Feature",
                                 "geometry": ["type": "Point", "coordinates": [step.maneuver.longitude, step.maneuver.latitude]],
                                 "properties": ["route": 1, "step": n + 1, "instructions": step.instructions,
                                                "distance_meters": step.distanceMeters, "type": step.maneuver.type,
                                                "modifier": step.maneuver.modifier ?? NSNull(),
                                                "bearing_after_degrees": step.maneuver.bearingAfterDegrees] as [String: Any]])
            }
        }
        let collection: [String: Any] = ["type": "FeatureCollection", "attribution": attribution, "features": features]
        let data = (try? JSONSerialization.data(withJSONObject: collection, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
