import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import Geodesy
import Imaging
import Playback

/// `lookaround walk`: plan a walkthrough over the panorama links and render it as a preview.
enum WalkCommand: Command {
    static let spec = CommandSpec(
        name: "walk",
        abstract: "Plan a walk over the panorama links and render it as a preview (PNG frames, GIF, WebP, MP4/WebM).",
        discussion: """
            Choose the walk with --from and --to (a place name or LAT,LON; the shortest path over the panorama \
            links), with --waypoints FILE (a GeoJSON LineString or MultiPoint, or a GPX track or route, followed \
            through the panoramas nearest the line) or with --sequence ID (one capture sequence, --reverse to walk \
            it backwards). --dry-run prints the plan (panoramas, length, streets, duration) without rendering. \
            No path is exit code 1 naming where the graph breaks; a bad waypoint file is exit code 65 naming the \
            line or JSON path. The output format follows the -o extension: a folder (PNG frames and frames.json), \
            .gif, .webp, .mp4 or .webm (through ffmpeg). Between panoramas the view moves through the street, \
            re-projected through the depth maps (a crossfade where a panorama has none). Every frame carries \
            "© OpenStreetMap contributors".
            """,
        options: [
            .value("catalog", valueName: "PATH", help: "The catalog (default $LOOKAROUND_CATALOG, else Panoramas/catalog.sqlite)."),
            .value("from", valueName: "PLACE|LAT,LON", help: "Start: a place name or a coordinate."),
            .value("to", valueName: "PLACE|LAT,LON", help: "End: a place name or a coordinate."),
            .value("waypoints", valueName: "FILE", help: "A GeoJSON LineString/MultiPoint or a GPX track/route to follow."),
            .value("sequence", valueName: "ID", help: "Walk one capture sequence in order."),
            .flag("reverse", help: "With --sequence: walk it backwards."),
            .value("speed-mps", valueName: "M/S", help: "Walking speed, metres per second (0.1…50).", defaultValue: "1.4"),
            .value("fps", valueName: "N", help: "Frames per second (1…120; default 12 for GIF and frames, 30 for video)."),
            .value("pause-seconds", valueName: "SECONDS", help: "Pause at each waypoint and at the ends (0…60).", defaultValue: "1"),
            .value("look-at", valueName: "PLACE|LAT,LON", help: "Keep this place in view while passing it."),
            .value("pitch-degrees", valueName: "DEGREES", help: "View pitch above the horizon (-90…90).", defaultValue: "0"),
            .value("fov-degrees", valueName: "DEGREES", help: "Horizontal field of view (10…120).", defaultValue: "90"),
            .value("language", valueName: "CODE", help: "Language of place names (name:CODE tags), e.g. sv."),
            .flag("dry-run", help: "Print the plan; render nothing."),
            .flag("json", help: "Print the plan (or the render report) as JSON."),
            CommonOptions.quiet,
        ],
        examples: [
            (command: "lookaround walk --from Senaatintori --to Stockmann --dry-run", comment: "the plan of a walk across the centre"),
            (command: "lookaround walk --sequence pohjoisesplanadi --reverse --dry-run --json", comment: "a sequence backwards, as JSON"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let timelineOptions = try timelineOptions(arguments, video: false)
        let json = arguments.flag("json")
        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        let language = arguments.string("language")
        var options = timelineOptions
        if let lookAt = arguments.string("look-at") {
            options.lookAt = try resolve(lookAt, option: "look-at", arguments: arguments, catalog: catalog, language: language).coordinate
        }
        let planner = try RoutePlanner(catalog: catalog)
        let route: WalkRoute
        do {
            route = try plan(arguments, planner: planner, catalog: catalog, language: language)
        } catch let error as PlaybackError {
            Console.error("error: \(error)")
            return exitCode(for: error)
        }
        let timeline = try WalkTimeline(route: route, options: options)
        if arguments.flag("dry-run") {
            let report = WalkPlanReport(route: route, timeline: timeline)
            if json { try Console.json(report) } else { report.lines.forEach(Console.out) }
            return .ok
        }
        throw arguments.error("rendering a walk needs -o; give --dry-run to print the plan")
    }

    /// The exit code of a playback error (DESIGN §3).
    static func exitCode(for error: PlaybackError) -> ExitCode {
        switch error {
        case .noPath, .noPanoramaNear, .unknownSequence: return .noImagery
        case .malformedWaypoints: return .dataError
        case .missingInput: return .noInput
        case .cannotCreate: return .cannotCreate
        case .invalidParameter: return .usage
        case .toolMissing: return .unavailable
        case .encodingFailed, .cancelled: return .internalError
        }
    }

    static func timelineOptions(_ arguments: ParsedArguments, video: Bool) throws -> WalkTimeline.Options {
        var options = WalkTimeline.Options()
        options.speedMetersPerSecond = try arguments.double("speed-mps", in: WalkTimeline.Options.speedRangeMetersPerSecond) ?? 1.4
        options.framesPerSecond = try arguments.double("fps", in: WalkTimeline.Options.framesPerSecondRange) ?? (video ? 30 : 12)
        options.pauseSeconds = try arguments.double("pause-seconds", in: WalkTimeline.Options.pauseRangeSeconds) ?? 1
        options.pitchDegrees = try arguments.double("pitch-degrees", in: -90...90) ?? 0
        options.fieldOfViewDegrees = try arguments.double("fov-degrees", in: 10...120) ?? 90
        return options
    }

    /// A place name or LAT,LON.
    static func resolve(_ text: String, option: String, arguments: ParsedArguments, catalog: Catalog,
                        language: String?) throws -> (coordinate: GeoCoordinate, name: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        if parts.count == 2, Double(parts[0].trimmingCharacters(in: .whitespaces)) != nil,
           Double(parts[1].trimmingCharacters(in: .whitespaces)) != nil {
            return (try arguments.parseCoordinate(text.replacingOccurrences(of: " ", with: ""), option: option), text)
        }
        let match = try catalog.place(named: text, language: language)
        return (match.place.coordinate, match.displayName)
    }

    static func plan(_ arguments: ParsedArguments, planner: RoutePlanner, catalog: Catalog, language: String?) throws -> WalkRoute {
        let given = ["from", "waypoints", "sequence"].filter { arguments.has($0) }
        guard given.count == 1 else {
            throw arguments.error(given.isEmpty ? "say which walk: --from/--to, --waypoints FILE or --sequence ID"
                                                : "give one of --from/--to, --waypoints and --sequence, not \(given.map { "--\($0)" }.joined(separator: " and "))")
        }
        if arguments.has("reverse"), !arguments.has("sequence") { throw arguments.error("--reverse goes with --sequence") }
        if arguments.has("from") != arguments.has("to") { throw arguments.error("--from and --to go together") }
        if let from = arguments.string("from"), let to = arguments.string("to") {
            let a = try resolve(from, option: "from", arguments: arguments, catalog: catalog, language: language)
            let b = try resolve(to, option: "to", arguments: arguments, catalog: catalog, language: language)
            return try planner.route(from: a.coordinate, to: b.coordinate, fromName: a.name, toName: b.name)
        }
        if let file = arguments.string("waypoints") {
            let line = try WaypointReader.read(file: file)
            return try planner.route(alongLine: line.points, pausingAtVertices: line.pausesAtVertices)
        }
        return try planner.route(sequence: try arguments.requiredString("sequence"), reversed: arguments.flag("reverse"))
    }
}

/// `walk --dry-run [--json]`: the plan.
struct WalkPlanReport: Encodable {
    struct Panorama: Encodable {
        var id: String
        var latitude, longitude, distanceMeters: Double
        var street: String?
        var waypoint: Bool
        var captureTime: Date
    }
    var panoramas: [Panorama]
    var lengthMeters: Double
    var streets: [String]
    var speedMetersPerSecond, pauseSeconds, durationSeconds, framesPerSecond: Double
    var frameCount: Int

    init(route: WalkRoute, timeline: WalkTimeline) {
        panoramas = route.stops.map {
            Panorama(id: $0.panoramaID, latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude,
                     distanceMeters: ($0.distanceMeters * 100).rounded() / 100, street: $0.streetName, waypoint: $0.isWaypoint,
                     captureTime: $0.captureTime)
        }
        lengthMeters = (route.lengthMeters * 100).rounded() / 100
        streets = route.streets
        speedMetersPerSecond = timeline.options.speedMetersPerSecond
        pauseSeconds = timeline.options.pauseSeconds
        durationSeconds = (timeline.durationSeconds * 100).rounded() / 100
        framesPerSecond = timeline.options.framesPerSecond
        frameCount = timeline.frames.count
    }

    var lines: [String] {
        var lines = ["walk       \(panoramas.count) panoramas, \(fixed(lengthMeters, 1)) m",
                     "streets    \(streets.isEmpty ? "(unnamed)" : streets.joined(separator: " → "))",
                     "duration   \(fixed(durationSeconds, 1)) s at \(fixed(speedMetersPerSecond, 2)) m/s with \(fixed(pauseSeconds, 1)) s pauses "
                        + "(\(frameCount) frames at \(fixed(framesPerSecond, 0)) fps)"]
        for p in panoramas {
            let distance = fixed(p.distanceMeters, 1)
            lines.append(String(repeating: " ", count: max(0, 8 - distance.count)) + "  \(distance) m  \(p.id)"
                         + (p.street.map { "  \($0)" } ?? "") + (p.waypoint ? "  (pause)" : ""))
        }
        return lines
    }
}
