import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot
import Playback
import Synchronization
import Terminal
import Viewer

/// `lookaround walk`: plan a walkthrough over the panorama links and render it as a preview.
enum WalkCommand: Command {
    static let spec = CommandSpec(
        name: "walk",
        abstract: "Plan a walk over the panorama links and render it as a preview (PNG frames, GIF, WebP, MP4/WebM).",
        discussion: """
            Choose the walk with --from and --to (a place name or LAT,LON; the walking route over the streets of \
            --osm, through the panoramas along it, else the shortest path over the panorama links), with --waypoints FILE (a GeoJSON LineString or MultiPoint, or a GPX track or route, followed \
            through the panoramas nearest the line) or with --sequence ID (one capture sequence, --reverse to walk \
            it backwards). --dry-run prints the plan (panoramas, length, streets, duration) without rendering. \
            No path is exit code 1 naming where the graph breaks; a bad waypoint file is exit code 65 naming the \
            line or JSON path. The output format follows the -o extension: a folder (PNG frames and frames.json), \
            .gif, .webp, .mp4 or .webm (through ffmpeg). Between panoramas the view moves through the street, \
            re-projected through the depth maps (a crossfade where a panorama has none). Every frame carries \
            "© OpenStreetMap contributors".
            """,
        options: [
            CommonOptions.catalog,
            CommonOptions.cacheDirectory,
            CommonOptions.cacheBytes,
            .value("from", valueName: "PLACE|LAT,LON", help: "Start: a place, an address or a coordinate."),
            .value("to", valueName: "PLACE|LAT,LON", help: "End: a place, an address or a coordinate."),
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
            .value("output", short: "o", valueName: "PATH", help: "Output: a folder (PNG frames + frames.json), .gif, .webp, .mp4 or .webm."),
            .value("size", valueName: "WxH", help: "Frame size in pixels (64…3840 each side; even for video).", defaultValue: "640x360"),
            .value("layout", valueName: "LAYOUT", help: "Map as an inset in a corner, or side by side with the view.",
                   defaultValue: "inset", allowedValues: WalkRenderOptions.Layout.allCases.map(\.rawValue)),
            .value("inset-corner", valueName: "CORNER", help: "Corner of the map inset.", defaultValue: "top-right",
                   allowedValues: WalkRenderOptions.Corner.allCases.map(\.rawValue)),
            .value("inset-size", valueName: "PIXELS", help: "Side of the square map inset (48…1024; default 40 % of the frame height)."),
            .value("map-type", valueName: "TYPE", help: "Map type of the inset.", defaultValue: "standard",
                   allowedValues: MapType.allCases.map(\.rawValue)),
            .value("map-width-meters", valueName: "METERS", help: "Ground the map shows across (50…2000).", defaultValue: "180"),
            .value("osm", valueName: "FILE", help: "OSM extract for the map inset ('none': no map).", defaultValue: MapCommand.defaultData),
            .value("title", valueName: "TEXT", help: "A title card over the first 2.5 seconds."),
            .value("labels", valueName: "ON|OFF", help: "Place and street labels on the view.", defaultValue: "on", allowedValues: ["on", "off"]),
            .value("quality", valueName: "0-100", help: "Lossy quality of WebP and video.", defaultValue: "80"),
            .flag("lossless", help: "WebP: lossless frames."),
            .value("gif-palette", valueName: "MODE", help: "GIF palettes: one per frame, or one global palette from the first frame.",
                   defaultValue: "per-frame", allowedValues: GIFAnimationEncoder.Palette.allCases.map(\.rawValue)),
            .value("dither", valueName: "ON|OFF", help: "GIF: Floyd–Steinberg error diffusion (smoother gradients, larger files).", defaultValue: "off", allowedValues: ["on", "off"]),
            .value("first-seconds", valueName: "SECONDS", help: "Render only the first SECONDS of the walk (0.1…86400)."),
            .flag("play", help: "Play the walk in the terminal instead of writing a file (space pauses, ← → seek 5 s, +/- speed, "
                  + "r reverses, m map, q quits)."),
            .value("protocol", valueName: "NAME", help: "With --play: how to draw (auto, kitty, sixel, truecolor, 256).", defaultValue: "auto",
                   allowedValues: OutputProtocolChoice.allCases.map(\.rawValue)),
            .flag("dry-run", help: "Print the plan; render nothing."),
            .flag("json", help: "Print the plan (or the render report) as JSON."),
            CommonOptions.quiet,
        ],
        examples: [
            (command: "lookaround walk --from Senaatintori --to Stockmann --dry-run", comment: "the plan of a walk across the centre"),
            (command: "lookaround walk --sequence pohjoisesplanadi --reverse --dry-run --json", comment: "a sequence backwards, as JSON"),
            (command: "lookaround walk --from Senaatintori --to Stockmann --title 'Senaatintori → Stockmann' -o walk.gif",
             comment: "an animated GIF with a map inset"),
            (command: "lookaround walk --waypoints route.gpx --size 1280x720 -o walk.mp4", comment: "a GPX track as MP4 (needs ffmpeg)"),
            (command: "lookaround walk --from Senaatintori --to Stockmann --speed-mps 4 --play", comment: "watch it in the terminal"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        // Everything the user typed is checked before any file is read.
        let output = arguments.string("output")
        let format = try output.map { path throws -> PreviewFormat in try PreviewFormat(path: path) }
        let play = arguments.flag("play")
        if play, output != nil { throw arguments.error("give -o PATH or --play, not both") }
        if output == nil, !arguments.flag("dry-run"), !play {
            throw arguments.error("say where the walk goes with -o PATH (a folder, .gif, .webp, .mp4 or .webm), --play it in the "
                                  + "terminal, or give --dry-run")
        }
        let protocolChoice: OutputProtocolChoice
        do { protocolChoice = try OutputProtocolChoice(parsing: arguments.string("protocol") ?? "auto") } catch let error as TerminalError {
            throw arguments.error("--protocol: \(error)")
        }
        let timelineOptions = try timelineOptions(arguments, video: format?.isVideo ?? false)
        let renderOptions = try self.renderOptions(arguments)
        let quality = try arguments.int("quality", in: 0...100) ?? 80
        let firstSeconds = try arguments.double("first-seconds", in: 0.1...86_400)
        let json = arguments.flag("json")
        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        let language = arguments.string("language")
        var options = timelineOptions
        if let lookAt = arguments.string("look-at") {
            options.lookAt = try resolve(lookAt, option: "look-at", arguments: arguments, catalog: catalog, language: language).coordinate
        }
        let planner = try RoutePlanner(catalog: catalog, language: language)
        let route: WalkRoute
        do {
            route = try plan(arguments, planner: planner, catalog: catalog, language: language)
        } catch let error as PlaybackError {
            Console.error("error: \(error)")
            return .failed(error.category)
        }
        let timeline = try WalkTimeline(route: route, options: options)
        if arguments.flag("dry-run") {
            let report = WalkPlanReport(route: route, timeline: timeline)
            if json { try Console.json(report) } else { report.lines.forEach(Console.out) }
            return .ok
        }
        if play {
            guard isatty(STDOUT_FILENO) == 1, isatty(STDIN_FILENO) == 1 else {
                Console.error("error: walk --play needs a terminal on standard input and output; write a file with -o walk.gif instead")
                return .failed(.usage)
            }
            var snapshotter: MapSnapshotter?
            if case .failed(let code) = try mapSnapshotter(arguments, into: &snapshotter) { return code }
            let player = WalkPlayer(timeline: timeline, catalog: catalog, mapSnapshotter: snapshotter, options: renderOptions,
                                    protocolChoice: protocolChoice, maximumSeconds: firstSeconds)
            let outcome = try player.run()
            if !arguments.flag("quiet") {
                Console.error("walk: \(outcome.finished ? "played to the end" : "stopped") (\(outcome.framesDrawn) of "
                              + "\(outcome.frameCount) frames drawn, \(outcome.framesDropped) dropped to keep to real time, "
                              + "\(outcome.outputProtocol.rawValue))")
            }
            return .ok
        }
        guard let output, let format else { return .ok }
        var settings = PreviewSettings(framesPerSecond: options.framesPerSecond)
        settings.quality = quality
        settings.lossless = arguments.flag("lossless")
        settings.gifPalette = GIFAnimationEncoder.Palette(rawValue: arguments.string("gif-palette") ?? "per-frame") ?? .perFrame
        settings.gifDithering = arguments.string("dither") == "on"
        return try render(timeline: timeline, catalog: catalog, output: output, format: format, settings: settings,
                          options: renderOptions, firstSeconds: firstSeconds, arguments: arguments)
    }

    static func renderOptions(_ arguments: ParsedArguments) throws -> WalkRenderOptions {
        var options = WalkRenderOptions()
        let sizeText = arguments.string("size") ?? "640x360"
        do { options.size = try PixelSize(parsing: sizeText, maximumSide: WalkRenderOptions.sideRangePixels.upperBound) } catch let error as ImagingError {
            throw arguments.error("--size: \(error)")
        }
        options.layout = WalkRenderOptions.Layout(rawValue: arguments.string("layout") ?? "inset") ?? .inset
        options.insetCorner = WalkRenderOptions.Corner(rawValue: arguments.string("inset-corner") ?? "top-right") ?? .topRight
        options.insetSizePixels = try arguments.int("inset-size", in: WalkRenderOptions.insetRangePixels)
        options.mapType = MapType(rawValue: arguments.string("map-type") ?? "standard") ?? .standard
        options.mapWidthMeters = try arguments.double("map-width-meters", in: 50...2000) ?? 180
        options.title = arguments.string("title")
        options.showsLabels = arguments.string("labels") != "off"
        options.language = arguments.string("language")
        return try options.validated()
    }

    enum MapLoad { case loaded, failed(CommandOutcome) }

    /// The map renderer of `--osm` (nil for `--osm none`, or a missing default extract, with a warning).
    static func mapSnapshotter(_ arguments: ParsedArguments, into snapshotter: inout MapSnapshotter?) throws -> MapLoad {
        guard let osm = arguments.string("osm"), osm != "none" else { return .loaded }
        if FileManager.default.fileExists(atPath: osm) {
            snapshotter = try MapSnapshotter(dataset: try MapDataset(contentsOfFile: osm))
        } else if arguments.has("osm") {
            Console.error("error: --osm \(osm): no such file; pass an OSM extract, or --osm none for frames without a map")
            return .failed(.failed(.missingInput))
        } else if !arguments.flag("quiet") {
            Console.error("warning: no map inset: \(osm) is not here (pass --osm FILE)")
        }
        return .loaded
    }

    /// Renders and writes the frames, with progress on stderr; Ctrl-C removes the partial output.
    static func render(timeline: WalkTimeline, catalog: Catalog, output: String, format: PreviewFormat, settings: PreviewSettings,
                       options: WalkRenderOptions, firstSeconds: Double?, arguments: ParsedArguments) throws -> CommandOutcome {
        let quiet = arguments.flag("quiet")
        var snapshotter: MapSnapshotter?
        if case .failed(let code) = try mapSnapshotter(arguments, into: &snapshotter) { return code }
        if options.mapType.needsOrthophoto { throw arguments.error("--map-type \(options.mapType.rawValue) needs imagery; use standard or muted for the walk's map") }
        let renderer = try WalkRenderer(timeline: timeline, catalog: catalog, mapSnapshotter: snapshotter, options: options)
        let count = firstSeconds.map { min(renderer.frameCount, Int(($0 * settings.framesPerSecond).rounded(.up))) } ?? renderer.frameCount
        let writer = try format.writer(path: output, width: options.size.width, height: options.size.height, settings: settings)
        let stop = StopFlag()
        signal(SIGINT, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler { stop.set() }
        source.resume()
        defer { source.cancel(); signal(SIGINT, SIG_DFL) }
        let progress = ProgressDisplay(label: "walk", unit: "frames", quiet: quiet || arguments.flag("json"))
        let start = Date()
        var written = 0
        do {
            for index in 0..<count {
                if stop.isSet { throw PlaybackError.cancelled }
                try writer.add(try renderer.render(frameAt: index))
                written += 1
                progress.update(done: index + 1, total: count)
            }
            if stop.isSet { throw PlaybackError.cancelled }
            try writer.finish()
        } catch {
            writer.cancel()
            progress.finish()
            if case PlaybackError.cancelled = error {
                Console.error("walk: cancelled after \(written) of \(count) frames; \(output) was not written")
                return .interrupted
            }
            throw error
        }
        let seconds = Date().timeIntervalSince(start)
        let bytes = Self.size(of: output)
        let report = WalkRenderReport(output: output, format: format.rawValue, frames: count, width: options.size.width,
                                      height: options.size.height, framesPerSecond: settings.framesPerSecond,
                                      durationSeconds: Double(count) / settings.framesPerSecond, bytes: bytes,
                                      renderSeconds: (seconds * 100).rounded() / 100, lengthMeters: timeline.route.lengthMeters,
                                      panoramas: timeline.route.stops.count, depthWarpedMoves: renderer.depthWarpedMoves,
                                      crossfadedMoves: renderer.crossfadedMoves)
        if arguments.flag("json") {
            try Console.json(report)
        } else if !quiet {
            Console.out("wrote      \(output) (\(format.rawValue), \(count) frames \(options.size.width)x\(options.size.height) at "
                        + "\(fixed(settings.framesPerSecond, 0)) fps, \(fixed(report.durationSeconds, 1)) s, \(bytes) bytes)")
            Console.out("walk       \(timeline.route.stops.count) panoramas, \(fixed(timeline.route.lengthMeters, 1)) m; rendered in \(fixed(seconds, 1)) s")
            Console.out("moves      \(renderer.depthWarpedMoves) through the depth maps, \(renderer.crossfadedMoves) crossfaded (an end without depth)")
        }
        return .ok
    }

    static func size(of path: String) -> Int {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: trimmed, isDirectory: &isDirectory) else { return 0 }
        if !isDirectory.boolValue { return ((try? FileManager.default.attributesOfItem(atPath: trimmed)[.size]) as? Int) ?? 0 }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: trimmed)) ?? []
        return names.reduce(0) { $0 + (((try? FileManager.default.attributesOfItem(atPath: "\(trimmed)/\($1)")[.size]) as? Int) ?? 0) }
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
        let match = try catalog.locate(text, language: language)
        return (match.coordinate, match.name)
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
            // The walking route over the streets, through the panoramas along it; where those panoramas
            // are not linked into one walk (a gap between sequences), the shortest walk over the links.
            if let line = streetLine(from: a.coordinate, to: b.coordinate, arguments: arguments, catalog: catalog),
               let route = try? planner.route(alongLine: line) {
                return route
            }
            return try planner.route(from: a.coordinate, to: b.coordinate, fromName: a.name, toName: b.name)
        }
        if let file = arguments.string("waypoints") {
            let line = try WaypointReader.read(file: file)
            return try planner.route(alongLine: line.points, pausingAtVertices: line.pausesAtVertices)
        }
        return try planner.route(sequence: try arguments.requiredString("sequence"), reversed: arguments.flag("reverse"))
    }
}

/// Set from the SIGINT handler, read between frames.
final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .relaxed) }
    var isSet: Bool { value.load(ordering: .relaxed) }
}

/// `walk -o … --json`: what was written.
struct WalkRenderReport: Encodable {
    var output, format: String
    var frames, width, height: Int
    var framesPerSecond, durationSeconds: Double
    var bytes: Int
    var renderSeconds, lengthMeters: Double
    var panoramas: Int
    /// Moves rendered through both ends' depth maps, and as crossfades.
    var depthWarpedMoves, crossfadedMoves: Int
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
