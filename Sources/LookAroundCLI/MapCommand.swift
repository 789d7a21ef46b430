import ArgumentParsing
import Catalog
import CommandOptions
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import MapSnapshot
import Orthophoto

/// `lookaround map`: a map snapshot (or the frames of a camera flight) of the OSM data as PNG.
enum MapCommand: Command {
    static let defaultData = "Panoramas/sources/helsinki-centre.osm.pbf"

    static let spec = CommandSpec(
        name: "map",
        abstract: "Render a map snapshot (MapKit-style camera, map types, pins, GeoJSON overlays) or a camera flight as PNG.",
        discussion: """
            Frame the view with --center and --span (or --span-meters), or with --camera; with neither, the \
            catalog's coverage is shown with --coverage, else the whole data extent. --camera takes LAT,LON,DISTANCE_METERS[,HEADING_DEGREES[,PITCH_DEGREES]] \
            (pitch in degrees from straight down, clamped to 80° up to 1 km distance and less higher up) or a \
            JSON file written by --save-camera.
            GeoJSON styling properties (simplestyle): stroke, stroke-width (points), stroke-opacity, fill, \
            fill-opacity, opacity, blend-mode (normal, multiply, screen, overlay, darken, lighten, color-burn, \
            hard-light, hue, saturation, color, luminosity), level (above-roads, above-labels), geodesic, \
            radius-meters (points become circles), title and marker-color (points become pins), cluster.
            Flights: --fly-from and --fly-to plan a transition (direct under 2.5 km, an arc up to 50 km, \
            rise-pan-descend beyond) and write --frames PNGs into the directory given by -o.
            Around and below the extract lies the Natural Earth world layer (land, sea, borders, country names \
            in --language): alone below zoom 8, outside the extract's box above it.
            Without an extract (--osm none, or the shipped one not in this folder) the map is the world layer with the coverage: \
            'lookaround map --coverage --catalog photos.sqlite -o map.png' shows where a catalog of one's own photos is.
            Every image drawn from OSM data carries "© OpenStreetMap contributors" (and "Made with Natural Earth" where the world layer shows).
            """,
        options: [
            .value("osm", valueName: "FILE", help: "OSM extract (.osm.pbf or .osm); 'none' for the world layer alone (the default when the "
                   + "shipped extract is not here).", defaultValue: defaultData),
        ] + MapOptions.options + [
            .value("save-camera", valueName: "FILE", help: "Write the camera used as JSON (restores the view exactly with --camera FILE)."),
            .value("route", valueName: "FILE", help: "A route as GeoJSON lines, drawn in route blue."),
        ] + routeOptions + [
            .value("overlay", valueName: "FILE", help: "GeoJSON overlays and pins with styling properties (repeatable).", repeatable: true),
            .value("catalog", valueName: "PATH|URL", help: "The catalog for --coverage (built by 'lookaround index'): a file or a postgres:// URL. Without an extract and a view, naming it draws its coverage.",
                   defaultValue: Catalog.defaultPath),
            .value("coverage-file", valueName: "FILE", help: "Draw the coverage layer from panorama positions given as GeoJSON points instead."),
            .value("fly-from", valueName: "LAT,LON", help: "Start of a camera flight."),
            .value("fly-to", valueName: "LAT,LON", help: "End of a camera flight."),
            .value("fly-distance-meters", valueName: "METERS", help: "Camera distance at both ends of a flight (1…200,000,000).", defaultValue: "1500"),
            .value("frames", valueName: "N", help: "Frames of a flight (2…10000).", defaultValue: "30"),
            .value("output", short: "o", valueName: "PATH", help: "Output PNG (a directory for a flight).", required: true),
            .flag("json", help: "Print the camera used (and a flight's frames) as JSON; see README, 'JSON output'."),
            CommonOptions.quiet,
        ],
        examples: [
            (command: "lookaround map --center 60.1699,24.9523 --span-meters 800 --pin 60.1699,24.9523,Senaatintori -o map.png",
             comment: "Senate Square with a pin"),
            (command: "lookaround map --camera 60.1699,24.9523,900,30,60 --size 800x600 -o pitched.png",
             comment: "a pitched 3D view looking north-north-east"),
            (command: "lookaround map --route-from Senaatintori --route-to Stockmann -o route.png",
             comment: "the walking route between two places, with start and end pins"),
            (command: "lookaround map --fly-from 60.1699,24.9523 --fly-to 60.1630,24.9400 --frames 24 -o flight/",
             comment: "the frames of a camera flight"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        try runChecked(arguments)
    }

    static func runChecked(_ arguments: ParsedArguments) throws -> CommandOutcome {
        // Validate everything the user typed before reading any file.
        let map = try MapOptions(arguments, allowCameraFiles: true)
        let type = map.type, size = map.size
        var framing = map.framing
        let output = try arguments.requiredString("output")
        let flying = arguments.has("fly-from") || arguments.has("fly-to")
        let frames = try arguments.int("frames", in: MapCameraFlight.frameCountRange) ?? 30
        let flyDistance = try arguments.double("fly-distance-meters", in: MapCamera.distanceRangeMeters) ?? 1_500
        var flight: MapCameraFlight?
        if flying {
            guard let from = try arguments.coordinate("fly-from"), let to = try arguments.coordinate("fly-to") else {
                throw arguments.error("a flight needs both --fly-from LAT,LON and --fly-to LAT,LON")
            }
            if framing != nil { throw arguments.error("a flight is framed by --fly-from/--fly-to; leave out --camera, --center and --span") }
            flight = MapCameraFlight(from: try MapCamera(centerCoordinate: from, centerCoordinateDistanceMeters: flyDistance),
                                     to: try MapCamera(centerCoordinate: to, centerCoordinateDistanceMeters: flyDistance))
        }

        // Files: GeoJSON first (fast to fail), then the OSM data.
        var overlays: [MapOverlay] = []
        var pins: [MapAnnotation] = []
        if let route = arguments.string("route") {
            let style = MapOverlay(geometry: .polyline([], geodesic: true), strokeColor: RGBAColor(red: 0, green: 122, blue: 255),
                                   lineWidthPoints: 6)
            let content = try GeoJSONReader.read(file: route, defaults: style)
            overlays += content.overlays
            pins += content.annotations
        }
        for file in arguments.strings("overlay") {
            let content = try GeoJSONReader.read(file: file)
            overlays += content.overlays
            pins += content.annotations
        }
        var coverage: (any PanoramaCoverage)?
        if let file = arguments.string("coverage-file") {
            if arguments.flag("coverage") { throw arguments.error("give either --coverage (from the catalog) or --coverage-file, not both") }
            let content = try GeoJSONReader.read(file: file)
            guard !content.points.isEmpty else {
                throw MapSnapshotError.malformedGeoJSON(file: file, path: "", detail: "no Point features: coverage files list panorama positions as points")
            }
            coverage = PanoramaLocations(content.points)
        } else if arguments.flag("coverage") {
            coverage = CatalogCoverage(catalog: try Catalog(path: try arguments.requiredString("catalog")))
        }
        let dataPath = try arguments.requiredString("osm")
        // No extract: the world layer alone (asked for with 'none', or the shipped one missing when none was named).
        let worldOnly = dataPath == "none" || (!arguments.has("osm") && !FileManager.default.fileExists(atPath: dataPath))
        if let drawing = try routeDrawing(arguments, osm: dataPath) {
            overlays.append(drawing.overlay)
            pins += drawing.pins
            if framing == nil, flight == nil { framing = .region(drawing.region) }
        }
        // No extract, no view named, no route: a catalog named on its own is there to be seen (its coverage).
        if coverage == nil, worldOnly, framing == nil, flight == nil, arguments.has("catalog") {
            coverage = CatalogCoverage(catalog: try Catalog(path: try arguments.requiredString("catalog")))
        }
        // No view named and the coverage drawn from a catalog: the coverage is what to show.
        if framing == nil, flight == nil, let catalogCoverage = coverage as? CatalogCoverage,
           let bounds = try catalogCoverage.catalog.coverageBounds() {
            framing = .region(bounds.region())
        }
        let dataset = worldOnly ? MapDataset.empty() : try MapDataset(contentsOfFile: dataPath)
        let snapshotter = try MapSnapshotter(dataset: dataset)
        // Imagery is the simulator's city photographed from straight above: built only when asked for.
        if worldOnly && type.needsOrthophoto {
            throw arguments.error("--type \(type.rawValue) draws the simulator's city, which needs an OSM extract; give --osm FILE or --type standard")
        }
        let orthophoto: SimulatedOrthophoto? = type.needsOrthophoto ? try SimulatedOrthophoto(dataset: dataset) : nil
        if framing == nil, flight == nil {
            guard let box = dataset.boundingBox else {
                throw arguments.error(worldOnly ? "without an OSM extract there is no area to show; give --center or --camera, or --catalog FILE to show where its imagery is"
                                      : "\(dataPath) has no nodes; give --center or --camera")
            }
            framing = .region(try CoordinateRegion(north: box.maxLatitude, south: box.minLatitude,
                                                   west: box.minLongitude, east: box.maxLongitude))
        }
        var options = map.snapshotOptions(defaultFraming: framing ?? .mapRect(.world), overlays: overlays, annotations: pins,
                                          coverage: coverage, orthophoto: orthophoto)

        let json = arguments.flag("json"), quiet = arguments.flag("quiet")
        if let flight {
            try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            let cameras = try flight.cameras(frameCount: frames)
            let progress = ProgressDisplay(label: "map", unit: "frames", quiet: quiet || json)
            var written: [FlightReport.Frame] = []
            for (i, camera) in cameras.enumerated() {
                options.framing = .camera(camera)
                let snapshot = try snapshotter.snapshot(options)
                let path = (output as NSString).appendingPathComponent(String(format: "frame-%04d.png", i))
                try ImageFile.write(PNGCodec.encode(snapshot.image), to: path)
                written.append(FlightReport.Frame(path: path, camera: snapshot.camera))
                progress.update(done: i + 1, total: cameras.count)
            }
            progress.finish()
            if json {
                try Console.json(FlightReport(kind: flight.kind.rawValue, groundDistanceMeters: flight.groundDistanceMeters,
                                              peakDistanceMeters: flight.peakDistanceMeters, directory: output, frames: written))
            } else if !quiet {
                Console.out("\(flight.kind.rawValue) flight, \(fixed(flight.groundDistanceMeters / 1000, 2)) km, peak distance "
                            + "\(fixed(flight.peakDistanceMeters / 1000, 2)) km: \(cameras.count) frames in \(output)")
            }
            return .ok
        }
        let snapshot = try snapshotter.snapshot(options)
        try ImageFile.write(PNGCodec.encode(snapshot.image), to: output)
        if let cameraFile = arguments.string("save-camera") {
            try ImageFile.write([UInt8]((try Console.jsonText(snapshot.camera) + "\n").utf8), to: cameraFile)
        }
        let zoom = snapshot.camera.zoomLevel(viewHeightPoints: Double(size.height))
        if json {
            try Console.json(MapReport(output: output, width: snapshot.image.width, height: snapshot.image.height, scale: map.scale,
                                       mapType: type.rawValue, zoomLevel: zoom, camera: snapshot.camera))
        } else if !quiet {
            Console.out("wrote \(output) (\(snapshot.image.width)x\(snapshot.image.height) pixels, \(type.rawValue), "
                        + "zoom \(fixed(zoom, 2)))")
        }
        return .ok
    }
}

/// `map --json`: the image written and the camera that framed it (the keys --save-camera writes).
struct MapReport: Encodable {
    var output: String
    var width, height: Int
    var scale: Double
    var mapType: String
    var zoomLevel: Double
    var camera: MapCamera
}

/// `map --json` for a flight: its kind and extent, and each frame with its camera.
struct FlightReport: Encodable {
    struct Frame: Encodable {
        var path: String
        var camera: MapCamera
    }

    var kind: String
    var groundDistanceMeters, peakDistanceMeters: Double
    var directory: String
    var frames: [Frame]
}
