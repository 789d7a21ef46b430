import ArgumentParsing
import CommandOptions
import Diagnostics
import Foundation
import Geodesy
import Imaging
import MapData
import Simulator
import Storage

/// `lookaround simulate`: ray-traced street panoramas (or one pinhole view) from an OSM extract.
enum SimulateCommand: Command {
    static let defaultTime = "2026-06-15T09:00:00Z"

    static let spec = CommandSpec(
        name: "simulate",
        abstract: "Ray-trace street panoramas (JPEG + EXIF/GPano, depth, labels) along named streets of an OSM extract.",
        discussion: """
            Builds a 3D city from the extract (buildings with facades and roofs, streets with markings, sidewalks, \
            squares, parks, trees, shop signs with the POIs' names, street plates) and photographs it with a \
            simulated 360° camera every --spacing-meters along each street, one sequence per street. Each capture \
            writes ID.jpg (EXIF GPS, GPSImgDirection, DateTimeOriginal, GPano XMP), ID.depth.png (16-bit, \
            centimetres, 65535 = sky), ID.labels.png (8-bit classes) and ID.json. Existing captures are skipped \
            unless --force. With --view LAT,LON it renders one pinhole view to -o FILE instead.
            The sun follows --time (UTC) at each capture's place. Output is deterministic for the same inputs and --seed.
            Cost follows the cameras: the planned captures are grouped into --tile-meters squares, and each square's \
            captures are rendered from a city model of the square plus --horizon-meters around it, built when it \
            comes up and released after it (a square whose captures all exist is not built at all). Peak memory is \
            one such model's, whatever the size of the extract; geometry beyond the horizon is sky. --whole-model \
            builds everything at once instead (the region plus 250 m).
            --shard K/N renders the K-th (0…N-1) of N contiguous, nearly equal parts of the plan: N processes on N \
            machines writing to one shared folder make exactly the files one run makes, and 'lookaround index' \
            then reads them all. See README, 'Simulating a region'.
            """,
        options: [
            .value("osm", valueName: "FILE", help: "OpenStreetMap extract (.osm.pbf or .osm).", required: true),
            .value("out", valueName: "DIR", help: "Output folder for captures (created if missing), or s3://BUCKET/PREFIX "
                   + "(see README, 'Imagery on object storage')."),
            .value("streets", valueName: "NAMES", help: "Comma-separated street or square names (default: every named street in the area).",
                   repeatable: true),
            .value("bbox", valueName: "S,W,N,E", help: "Only this area: south,west,north,east in decimal degrees."),
            .value("spacing-meters", valueName: "METERS", help: "Distance between captures (1…1000).", defaultValue: "10"),
            .value("size", valueName: "WxH", help: "Panorama (2:1) or view size in pixels.", defaultValue: "4096x2048"),
            .value("depth-size", valueName: "WxH", help: "Depth and label map size, 2:1 (default: the panorama size)."),
            .value("samples", valueName: "N", help: "Samples per pixel for anti-aliasing (1…256).", defaultValue: "4"),
            .value("time", valueName: "ISO8601", help: "UTC time of the first capture (sets the sun).", defaultValue: defaultTime),
            .value("seed", valueName: "N", help: "Seed of the sample jitter (0…2^63).", defaultValue: "1"),
            .value("quality", valueName: "Q", help: "JPEG quality 1…100.", defaultValue: "85"),
            .value("camera-height-meters", valueName: "METERS", help: "Camera height above the ground (0.1…100).", defaultValue: "2.5"),
            .value("limit", valueName: "N", help: "Write at most N captures (for trying settings)."),
            .flag("force", help: "Re-render captures whose files exist."),
            .value("shard", valueName: "K/N", help: "Render only part K of N of the planned captures (K = 0…N-1), for job arrays."),
            .value("tile-meters", valueName: "METERS", help: "Side of the squares captures are grouped in (10…100000).",
                   defaultValue: "\(Int(CaptureTiling.defaultTileMeters))"),
            .value("horizon-meters", valueName: "METERS", help: "City built around each square (0…5000).",
                   defaultValue: "\(Int(CaptureTiling.defaultHorizonMeters))"),
            .flag("whole-model", help: "Build the whole region's city at once instead of square by square."),
            .flag("dry-run", help: "Print the planned captures (id, latitude, longitude, heading, time) without rendering."),
            .value("view", valueName: "LAT,LON", help: "Render one pinhole view from this point instead of captures."),
            .value("heading-degrees", valueName: "DEGREES", help: "View heading, clockwise from north (any finite value, taken modulo 360).", defaultValue: "0"),
            .value("pitch-degrees", valueName: "DEGREES", help: "View pitch, -90…90 (0 = horizon, +90 = up).", defaultValue: "0"),
            .value("fov-degrees", valueName: "DEGREES", help: "Horizontal field of view, 1…179.", defaultValue: "90"),
            .value("output", short: "o", valueName: "FILE", help: "Output of --view: .png or .jpg."),
            .flag("json", help: "Print the captures (planned with --dry-run, else written or skipped) as JSON; see README, 'JSON output'."),
            CommonOptions.quiet,
        ],
        examples: [
            (command: "lookaround simulate --osm Panoramas/sources/helsinki-centre.osm.pbf --out out/pano --streets Aleksanterinkatu --size 2048x1024",
             comment: "panoramas every 10 m along Aleksanterinkatu"),
            (command: "lookaround simulate --osm Panoramas/sources/helsinki-centre.osm.pbf --view 60.16875,24.95 --heading-degrees 270 --size 1280x720 -o view.png",
             comment: "one perspective view, looking west along Aleksanterinkatu"),
        ])

    static func parseSize(_ text: String, option: String, arguments: ParsedArguments) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), (1...16_384).contains(w), (1...16_384).contains(h) else {
            throw arguments.error("--\(option) '\(text)' is not WIDTHxHEIGHT with 1…16384 pixels per side, e.g. 2048x1024")
        }
        return (w, h)
    }

    static func parseTime(_ text: String, arguments: ParsedArguments) throws -> Date {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withFullDate]
        if let date = formatter.date(from: text) { return date }
        throw arguments.error("--time '\(text)' is not an ISO 8601 UTC time such as \(defaultTime)")
    }

    /// `K/N` with N ≥ 1 and 0 ≤ K < N.
    static func parseShard(_ text: String, arguments: ParsedArguments) throws -> (index: Int, count: Int) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]), (1...100_000).contains(n), (0..<n).contains(k) else {
            throw arguments.error("--shard '\(text)' is not K/N with N 1…100000 and K 0…N-1 (the first of four is 0/4; "
                                  + "for a Slurm array use --array=0-3 and --shard $SLURM_ARRAY_TASK_ID/4)")
        }
        return (k, n)
    }

    static func parseBox(_ text: String, arguments: ParsedArguments) throws -> OSMBoundingBox {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let s = parts[0], let w = parts[1], let n = parts[2], let e = parts[3],
              (-90...90).contains(s), (-90...90).contains(n), (-180...180).contains(w), (-180...180).contains(e), s < n, w < e else {
            throw arguments.error("--bbox '\(text)' is not SOUTH,WEST,NORTH,EAST in degrees with south < north and west < east, "
                                  + "e.g. 60.166,24.940,60.171,24.954")
        }
        return OSMBoundingBox(minLatitude: s, minLongitude: w, maxLatitude: n, maxLongitude: e)
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let osm = try arguments.requiredString("osm")
        guard FileManager.default.fileExists(atPath: osm) else {
            Console.error("error: --osm \(osm): no such file; pass an OpenStreetMap extract such as Panoramas/sources/helsinki-centre.osm.pbf")
            return .failed(.missingInput)
        }
        let (width, height) = try parseSize(arguments.string("size") ?? "4096x2048", option: "size", arguments: arguments)
        let samples = try arguments.int("samples", in: 1...256) ?? 4
        let seed = UInt64(try arguments.int("seed", in: 0...Int.max) ?? 1)
        let time = try parseTime(arguments.string("time") ?? defaultTime, arguments: arguments)
        let box = try arguments.string("bbox").map { try parseBox($0, arguments: arguments) }
        if let view = try arguments.coordinate("view") {
            guard let output = arguments.string("output") else { throw arguments.error("--view needs -o FILE (.png or .jpg)") }
            let heading = try arguments.heading("heading-degrees") ?? 0
            let pitch = try arguments.double("pitch-degrees", in: -90...90) ?? 0
            let fov = try arguments.double("fov-degrees", in: 1...179) ?? 90
            let cameraHeight = try arguments.double("camera-height-meters", in: 0.1...100) ?? 2.5
            let dataset = try MapDataset(contentsOfFile: osm)
            let region = box ?? OSMBoundingBox(minLatitude: view.latitude - 0.002, minLongitude: view.longitude - 0.004,
                                               maxLatitude: view.latitude + 0.002, maxLongitude: view.longitude + 0.004)
            let model = try CityModel(dataset: dataset, region: region)
            if !arguments.flag("quiet") { warnAboutViewpoint(view, model: model, dataset: dataset) }
            let camera = try PinholeCamera(position: model.position(of: view, heightMeters: cameraHeight), headingDegrees: heading,
                                           pitchDegrees: pitch, fieldOfViewDegrees: fov, width: width, height: height)
            let image = model.render(camera, settings: try RenderSettings(samplesPerPixel: samples, seed: seed,
                                                                           sun: SolarPosition(date: time, coordinate: view)))
            let bytes = output.lowercased().hasSuffix(".png") ? try PNGCodec.encode(image) : try JPEGCodec.encode(image, quality: 90)
            if StorageLocation.isObjectStorage(output) {
                try ObjectStorage.shared.write(bytes, to: output, contentType: output.lowercased().hasSuffix(".png") ? "image/png" : "image/jpeg")
            } else {
                try ImageFile.write(bytes, to: output)
            }
            if arguments.flag("json") {
                struct View: Encodable { var output: String; var width, height, samplesPerPixel: Int }
                try Console.json(View(output: output, width: width, height: height, samplesPerPixel: samples))
            } else if !arguments.flag("quiet") {
                Console.out("wrote \(output) (\(width)x\(height), \(samples) samples per pixel)")
            }
            return .ok
        }
        guard let out = arguments.string("out") else { throw arguments.error("missing --out DIR (or --view LAT,LON -o FILE)") }
        guard width == 2 * height, width % 2 == 0 else {
            throw arguments.error("--size \(width)x\(height): a panorama is twice as wide as it is high, e.g. 2048x1024")
        }
        var depthWidth = width
        if let text = arguments.string("depth-size") {
            let (w, h) = try parseSize(text, option: "depth-size", arguments: arguments)
            guard w == 2 * h else { throw arguments.error("--depth-size \(text): depth maps are 2:1 like the panorama, e.g. 1024x512") }
            depthWidth = w
        }
        let spacing = try arguments.double("spacing-meters", in: 1...1000) ?? 10
        let cameraHeight = try arguments.double("camera-height-meters", in: 0.1...100) ?? 2.5
        let quality = try arguments.int("quality", in: 1...100) ?? 85
        let limit = try arguments.int("limit", in: 1...1_000_000)
        let shard = try arguments.string("shard").map { try parseShard($0, arguments: arguments) }
        let tiling = try CaptureTiling(tileMeters: try arguments.double("tile-meters", in: 10...100_000) ?? CaptureTiling.defaultTileMeters,
                                       horizonMeters: try arguments.double("horizon-meters", in: 0...5_000) ?? CaptureTiling.defaultHorizonMeters)
        let wholeModel = arguments.flag("whole-model")
        if wholeModel && (arguments.has("tile-meters") || arguments.has("horizon-meters")) {
            throw arguments.error("--whole-model builds one model: leave out --tile-meters and --horizon-meters")
        }
        let streetNames = arguments.strings("streets").flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }

        let start = Date()
        let dataset = try MapDataset(contentsOfFile: osm)
        // The plan needs streets, squares and footprints only: without plants, furniture and signs
        // unless the whole model is built anyway. Same region, frame and ground as the whole build; with
        // tiles it is released once the plan is made.
        var captures: [CaptureMetadata] = [], whole: CityModel?, mappedArea = 0.0
        let frame: LocalTangentFrame, extent: SceneRect, builtUpShare: Double, isBuiltUp: Bool
        do {
            let planning = try CityModel(dataset: dataset, region: box, options: wholeModel ? CityModelOptions()
                : CityModelOptions(includeSigns: false, includeStreetPlates: false, includeTrees: false, includeFurniture: false))
            var planner = try CapturePlanner(spacingMeters: spacing, cameraHeightMeters: cameraHeight, startTime: time,
                                             imageWidth: width, depthWidth: depthWidth)
            if let box {
                let sw = planning.position(of: try GeoCoordinate(latitude: box.minLatitude, longitude: box.minLongitude))
                let ne = planning.position(of: try GeoCoordinate(latitude: box.maxLatitude, longitude: box.maxLongitude))
                planner.region = SceneRect(minEast: sw.east, minNorth: sw.north, maxEast: ne.east, maxNorth: ne.north)
            }
            // Captures stay inside the data; without --bbox also away from its edge by a quarter of the
            // horizon each model sees (a --bbox is where the user asked for them: only told when it comes near).
            if let data = planning.dataExtent {
                planner.dataBounds = data
                let margin = CapturePlanner.edgeMarginMeters(
                    horizonMeters: wholeModel ? CaptureTiling.defaultHorizonMeters : tiling.horizonMeters, dataBounds: data)
                if let region = planner.region {
                    let inner = SceneRect(minEast: data.minEast + margin, minNorth: data.minNorth + margin,
                                          maxEast: data.maxEast - margin, maxNorth: data.maxNorth - margin)
                    if !arguments.flag("quiet"), region.minEast < inner.minEast || region.maxEast > inner.maxEast
                        || region.minNorth < inner.minNorth || region.maxNorth > inner.maxNorth {
                        Console.error("simulate: note: --bbox reaches within \(Int(margin.rounded())) m of the extract's edge "
                                      + "(or past it); captures there see unmapped land beyond it")
                    }
                } else {
                    planner.edgeMarginMeters = margin
                }
            }
            let plan = try planner.planWithReport(model: planning, streetNames: streetNames)
            captures = plan.captures
            if !arguments.flag("quiet") { reportDropped(plan, margin: planner.edgeMarginMeters, bounds: dataset.declaredBounds != nil) }
            mappedArea = planning.mappedAreaSquareMeters
            (frame, extent, builtUpShare, isBuiltUp) = (planning.frame, planning.extent, planning.builtUpShare, planning.isBuiltUp)
            whole = wholeModel ? planning : nil
        }
        if let limit { captures = Array(captures.prefix(limit)) }
        let plannedCount = captures.count
        if let shard { captures = CaptureTiling.shard(captures, index: shard.index, count: shard.count) }
        let json = arguments.flag("json"), quiet = arguments.flag("quiet")
        if arguments.flag("dry-run") {
            if json {
                try Console.json(CapturesReport(directory: out, captures: captures.map { CapturesReport.Capture($0, directory: out, status: "planned") },
                                                seconds: Date().timeIntervalSince(start)))
                return .ok
            }
            let formatter = ISO8601DateFormatter()
            for c in captures {
                Console.out("\(c.id) \(fixed(c.latitude, 7)),\(fixed(c.longitude, 7)) heading \(fixed(c.headingDegrees, 1)) \(formatter.string(from: c.captureTime))")
            }
            return .ok
        }
        // In object storage the captures already there are listed once (a resumed run skips them), not
        // asked for one by one.
        var existingObjects: Set<String>?
        if StorageLocation.isObjectStorage(out) {
            existingObjects = Set(try ObjectStorage.shared.list(out).map(\.location))
        } else {
            do {
                try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
            } catch {
                let code = ((error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError).map { Int32($0.code) } ?? EACCES
                throw SimulatorError.cannotWrite(WriteFailure(path: out, code: code))
            }
        }
        func exists(_ capture: CaptureMetadata) -> Bool {
            guard let existingObjects else { return CaptureWriter.exists(capture, in: out) }
            return CaptureWriter.paths(for: capture, in: out).allSatisfy { existingObjects.contains($0) }
        }
        let force = arguments.flag("force")
        let tiles = wholeModel ? [CaptureTiling.Tile(extent: extent, captures: captures)] : tiling.tiles(for: captures, within: extent)
        if !quiet {
            let shardNote = shard.map { " (shard \($0.index)/\($0.count) of \(plannedCount) planned)" } ?? ""
            let sequences = Set(captures.map(\.sequenceID)).count
            let models = wholeModel ? "one model of the whole region"
                : "\(tiles.count) tiles of \(Int(tiling.tileMeters)) m with \(Int(tiling.horizonMeters)) m of horizon"
            let ground = isBuiltUp ? "paved" : "rough grass"
            Console.error("simulate: \(captures.count) captures\(shardNote) in \(sequences) sequences; \(models); buildings cover "
                          + "\(Int((builtUpShare * 100).rounded())) % of the \(fixed(mappedArea / 1e6, 2)) km² the data maps in the region: "
                          + "untagged ground \(ground)")
        }
        let progress = ProgressDisplay(label: "simulate", unit: "captures", quiet: quiet)
        var written = 0, skipped = 0, done = 0, largestModel = 0, modelsBuilt = 0
        var setupSeconds: Double?
        // The report lists the captures in plan order, whatever order the tiles render them in.
        let planOrder = Dictionary(uniqueKeysWithValues: captures.enumerated().map { ($0.element.id, $0.offset) })
        var reported = [CapturesReport.Capture?](repeating: nil, count: captures.count)
        for tile in tiles {
            // A tile whose captures all exist is not built; the previous tile's model is gone by now.
            var writer: CaptureWriter?
            if force || !tile.captures.allSatisfy({ exists($0) }) {
                let model = try whole ?? CityModel(dataset: dataset, frame: frame, extent: tile.extent, builtUpShare: builtUpShare)
                largestModel = max(largestModel, model.triangleCount)
                modelsBuilt += 1
                writer = try CaptureWriter(model: model, directory: out, samplesPerPixel: samples, seed: seed, jpegQuality: quality)
            }
            for capture in tile.captures {
                if let writer, force || !exists(capture) {
                    if setupSeconds == nil { setupSeconds = Date().timeIntervalSince(start) }
                    try writer.write(capture)
                    written += 1
                    reported[planOrder[capture.id] ?? done] = CapturesReport.Capture(capture, directory: out, status: "written")
                } else {
                    skipped += 1
                    reported[planOrder[capture.id] ?? done] = CapturesReport.Capture(capture, directory: out, status: "skipped")
                }
                done += 1
                progress.update(done: done, total: captures.count, item: capture.id)
            }
        }
        progress.finish()
        if json {
            try Console.json(CapturesReport(directory: out, captures: reported.compactMap { $0 }, seconds: Date().timeIntervalSince(start),
                                            tiles: tiles.count, modelsBuilt: modelsBuilt, largestModelTriangles: largestModel,
                                            setupSeconds: setupSeconds,
                                            peakResidentBytes: ProcessMemory.peakResidentBytes()))
        } else if !quiet {
            Console.out("wrote \(written) captures, skipped \(skipped) existing, in \(fixed(Date().timeIntervalSince(start), 1)) s → \(out)")
        }
        return .ok
    }
}

extension SimulateCommand {
    /// Warns on stderr when the --view point is on water, inside a building or outside the data, with
    /// the nearest street and how far it is.
    static func warnAboutViewpoint(_ view: GeoCoordinate, model: CityModel, dataset: MapDataset) {
        let p = model.position(of: view)
        let problems = model.viewpointProblems(east: p.east, north: p.north)
        guard !problems.isEmpty else { return }
        var message = "simulate: warning: --view \(fixed(view.latitude, 6)),\(fixed(view.longitude, 6)) "
            + problems.map(\.description).joined(separator: " and ")
        let here = OSMCoordinate(latitude: view.latitude, longitude: view.longitude)
        if let nearest = dataset.nearestStreet(to: here) {
            let name = nearest.street.name.map { "\($0) (\(nearest.street.highwayClass))" } ?? "an unnamed \(nearest.street.highwayClass) street"
            let bearing = Self.compassPoint(from: here, to: nearest.point)
            message += "; the nearest street is \(name), \(Int(nearest.distanceMeters.rounded())) m \(bearing) at "
                + "\(fixed(nearest.point.latitude, 6)),\(fixed(nearest.point.longitude, 6))"
        } else {
            message += "; no street lies within 5 km"
        }
        Console.error(message)
    }

    /// "north", "south-east"… from `a` towards `b` (8 points).
    static func compassPoint(from a: OSMCoordinate, to b: OSMCoordinate) -> String {
        let east = (b.longitude - a.longitude) * cos(a.latitude * .pi / 180), north = b.latitude - a.latitude
        let degrees = (atan2(east, north) * 180 / .pi + 360).truncatingRemainder(dividingBy: 360)
        let names = ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"]
        return names[Int((degrees / 45).rounded()) % 8]
    }

    /// Says on stderr how many streets the plan dropped and why (and how many positions of the kept ones).
    static func reportDropped(_ plan: CapturePlanner.Plan, margin: Double, bounds declared: Bool) {
        let kept = plan.streetCount - plan.droppedStreets.count
        var parts: [String] = []
        for reason in CapturePlanner.DropReason.allCases {
            let streets = plan.droppedStreets.filter { $0.reason == reason }.map(\.name)
            guard !streets.isEmpty else { continue }
            let shown = streets.prefix(4).joined(separator: ", ") + (streets.count > 4 ? ", …" : "")
            parts.append("\(streets.count) \(CapturePlanner.describe(reason, margin: margin)) (\(shown))")
        }
        let clipped = CapturePlanner.DropReason.allCases.filter { (plan.droppedPositionsOfKeptStreets[$0] ?? 0) > 0 }
            .map { "\(plan.droppedPositionsOfKeptStreets[$0]!) \(CapturePlanner.describe($0, margin: margin))" }
        guard !parts.isEmpty || !clipped.isEmpty else { return }
        var line = "simulate: captures on \(kept) of \(plan.streetCount) streets"
        if !parts.isEmpty { line += "; dropped \(plan.droppedStreets.count): " + parts.joined(separator: "; ") }
        if !clipped.isEmpty { line += "; positions dropped along the kept streets: " + clipped.joined(separator: ", ") }
        if !declared { line += " (the extract declares no bounds: the box round its nodes stands for them)" }
        Console.error(line)
    }
}

/// `simulate --json`: the captures, planned (--dry-run), written or skipped (their files existed).
struct CapturesReport: Encodable {
    struct Capture: Encodable {
        var id: String
        var status: String
        var latitude, longitude, headingDegrees, cameraHeightMeters: Double
        var captureTime: String
        var sequenceId: String
        var sequenceIndex: Int
        var streetName: String
        var imagePath, depthPath, labelsPath, sidecarPath: String

        init(_ capture: CaptureMetadata, directory: String, status: String) {
            func path(_ name: String) -> String { StorageLocation.joining(directory, name) }
            id = capture.id
            self.status = status
            latitude = capture.latitude
            longitude = capture.longitude
            headingDegrees = capture.headingDegrees
            cameraHeightMeters = capture.cameraHeightMeters
            captureTime = ISO8601DateFormatter().string(from: capture.captureTime)
            sequenceId = capture.sequenceID
            sequenceIndex = capture.sequenceOrder
            streetName = capture.streetName
            imagePath = path(capture.imageFileName)
            depthPath = path(capture.depthFileName)
            labelsPath = path(capture.labelFileName)
            sidecarPath = path(capture.sidecarFileName)
        }
    }

    var directory: String
    var captures: [Capture]
    var seconds: Double
    /// Tiles the captures fall in (1 with --whole-model).
    var tiles: Int?
    /// City models built: one per tile with captures to render (0 when every capture existed).
    var modelsBuilt: Int?
    /// Triangles the largest model built stores (each plant or furniture prototype's once, however
    /// many copies stand in it).
    var largestModelTriangles: Int?
    /// Seconds from the start (reading the extract) to the first capture's rendering; nil when none was.
    var setupSeconds: Double?
    /// The process's peak resident memory (VmHWM), bytes.
    var peakResidentBytes: Int?
}
