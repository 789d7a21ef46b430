import ArgumentParsing
import Foundation
import Imaging
import Storage
import Video

/// `lookaround video …`: 360° video in.
enum VideoCommands: CommandGroup {
    static let name = "video"
    static let abstract = "360° videos (GoPro MAX .360, Insta360, equirectangular MP4): what a recording holds, its frames as panoramas."
    static var commands: [any Command.Type] { [VideoInfoCommand.self, VideoFramesCommand.self] }

    /// Options both subcommands and `index` take.
    static let everyMeters = OptionSpec.value("video-every-meters", valueName: "METERS",
                                              help: "Take a frame every METERS along the GPS track (0.5…1000; mapillary_tools' default).",
                                              defaultValue: "3")
    static let projection = OptionSpec.value("projection", valueName: "PROJECTION",
                                             help: "What the pictures are, instead of what the file says (a 2:1 video without spherical metadata: equirectangular).",
                                             allowedValues: VideoProjection.allCases.map(\.rawValue))
    static let timeOffset = OptionSpec.value("time-offset-seconds", valueName: "SECONDS",
                                             help: "Seconds added to the camera's clock to get UTC when a GPS log (GPX, NMEA, an .insv) is matched "
                                                + "to the video: a camera set to UTC+2 needs -7200 (-86400…86400).", defaultValue: "0")
    static let gpx = OptionSpec.value("gpx", valueName: "FILE", help: "A GPX or NMEA log to take the positions from, instead of the file's "
                                      + "own telemetry or NAME.gpx/NAME.nmea beside it.")

    static func readOptions(_ arguments: ParsedArguments) throws -> VideoReadOptions {
        VideoReadOptions(projection: try arguments.string("projection").map { text throws -> VideoProjection in
                            guard let p = VideoProjection(rawValue: text) else { throw arguments.error("unknown --projection \(text)") }
                            return p
                         },
                         timeOffsetSeconds: try arguments.double("time-offset-seconds", in: -86_400...86_400) ?? 0,
                         gpsLogPath: arguments.string("gpx"))
    }

    /// `mkdir -p`, with the system's reason when it fails.
    static func makeDirectory(_ path: String) throws {
        var partial = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            partial += "/" + component
            if mkdir(partial, 0o755) != 0 && errno != EEXIST { throw VideoError.cannotWrite(WriteFailure(path: partial, code: errno)) }
        }
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else { throw VideoError.cannotWrite(WriteFailure(path: path, code: ENOTDIR)) }
    }

    static func recording(_ arguments: ParsedArguments) throws -> VideoRecording {
        guard let path = arguments.positionals.first else { throw arguments.error("give the video file") }
        return try VideoRecording(path: path, options: try readOptions(arguments))
    }
}

/// What `video info` prints (`--json`: this, snake_case).
struct VideoInfoReport: Encodable {
    struct Camera: Encodable { var make, model, serial, firmware: String? }
    struct Point: Encodable { var latitude, longitude: Double }
    struct Dropped: Encodable { var noFix, imprecise, outliers: Int }
    struct Index: Encodable {
        /// `frames` or `refused`.
        var action: String
        var reason: String?
        var frames: Int?
        var everyMeters: Double
        var frameWidth, frameHeight: Int?
        var stops: Int?
        var secondsWithoutGps: Double?
        var videoFramesWithoutGps: Int?
        var headingNote: String?
    }
    var file: String
    var chapters: [String]
    var sizeBytes: Int64
    var camera: Camera
    var streams: [VideoStreamInfo]
    var projection: String
    var projectionReason: String
    var durationSeconds: Double
    var framesPerSecond: Double
    var frameCount: Int
    var gpsSource: String?
    var gpsProblem: String?
    var gpsSamples: Int
    var gpsRead: Int
    var gpsDropped: Dropped?
    var gpsRateHz: Double?
    var timeStart: Date?
    var timeEnd: Date?
    var timeSource: String
    var trackMeters: Double
    var trackStart: Point?
    var trackEnd: Point?
    var orientationSource: String?
    var index: Index
    var notes: [String]

    init(_ r: VideoRecording, everyMeters: Double) {
        file = r.path
        chapters = r.chapters.map(\.path)
        sizeBytes = r.chapters.reduce(0) { $0 + $1.movie.fileSize }
        camera = Camera(make: r.cameraMake, model: r.cameraModel, serial: r.cameraSerial, firmware: r.firmware)
        streams = r.streams
        projection = r.projection.rawValue
        projectionReason = r.projectionReason
        durationSeconds = (r.durationSeconds * 1000).rounded() / 1000
        framesPerSecond = (r.framesPerSecond * 1000).rounded() / 1000
        frameCount = Int((r.durationSeconds * r.framesPerSecond).rounded())
        let t = r.telemetry
        gpsSource = t?.source
        gpsProblem = r.telemetryProblem
        gpsSamples = t?.gps.count ?? 0
        gpsRead = t?.gpsRead ?? 0
        gpsDropped = t.map { Dropped(noFix: $0.droppedNoFix, imprecise: $0.droppedImprecise, outliers: $0.droppedOutliers) }
        if let gps = t?.gps, gps.count > 1, let first = gps.first, let last = gps.last, last.timeSeconds > first.timeSeconds {
            gpsRateHz = (Double(gps.count - 1) / (last.timeSeconds - first.timeSeconds) * 10).rounded() / 10
        }
        timeStart = r.captureStartUTC
        timeEnd = r.captureStartUTC.map { $0.addingTimeInterval(r.durationSeconds) }
        timeSource = r.captureStartSource
        trackMeters = (r.trackMeters * 10).rounded() / 10
        trackStart = t?.gps.first.map { Point(latitude: $0.latitude, longitude: $0.longitude) }
        trackEnd = t?.gps.last.map { Point(latitude: $0.latitude, longitude: $0.longitude) }
        orientationSource = t?.orientationSource
        notes = r.notes
        if !r.projection.makesPanoramas {
            index = Index(action: "refused", reason: FrameExtractor.refusal(r), everyMeters: everyMeters)
        } else {
            do {
                let plan = try TrackSampler.plan(r, everyMeters: everyMeters)
                let width = r.layout.map { 4 * $0.faceSize } ?? r.width
                index = Index(action: "frames", frames: plan.frames.count, everyMeters: everyMeters, frameWidth: width,
                              frameHeight: r.layout == nil ? r.height : width / 2, stops: plan.stops,
                              secondsWithoutGps: (plan.secondsWithoutGPS * 10).rounded() / 10, videoFramesWithoutGps: plan.videoFramesWithoutGPS,
                              headingNote: plan.headingNote)
            } catch {
                index = Index(action: "refused", reason: "\(error)", everyMeters: everyMeters)
            }
        }
    }

    var lines: [String] {
        var lines: [String] = []
        let extra = chapters.count > 1 ? " + " + chapters.dropFirst().map { FilePath.name(of: $0) }.joined(separator: ", ") + " (one recording)" : ""
        lines.append("file          \(file)\(extra), \(String(format: "%.1f", Double(sizeBytes) / 1_048_576)) MB")
        let cameraText = [camera.model ?? camera.make, camera.serial.map { "serial \($0)" }, camera.firmware.map { "firmware \($0)" }]
            .compactMap { $0 }.joined(separator: ", ")
        if !cameraText.isEmpty { lines.append("camera        \(cameraText)") }
        lines.append("streams       " + streams.map { s in
            "0:\(s.index) \(s.type) \(s.codec)" + (s.type == "video" ? " \(s.width)x\(s.height) \(fixed(s.framesPerSecond, 2)) fps \(s.pixelFormat ?? "")" : "")
        }.joined(separator: "; "))
        lines.append("projection    \(projection): \(projectionReason)")
        lines.append("duration      \(fixed(durationSeconds, 2)) s, \(frameCount) frames at \(fixed(framesPerSecond, 2)) fps")
        if let source = gpsSource, gpsSamples > 0 {
            var gps = "gps           \(gpsSamples) samples from \(source)"
            if let rate = gpsRateHz { gps += ", \(fixed(rate, 1)) Hz" }
            if let d = gpsDropped, d.noFix + d.imprecise + d.outliers > 0 {
                gps += "; \(d.noFix + d.imprecise + d.outliers) of \(gpsRead) dropped (\(d.noFix) without a fix, \(d.imprecise) with a "
                    + "dilution of precision over 5, \(d.outliers) jumps)"
            }
            lines.append(gps)
        } else {
            lines.append("gps           none: \(gpsProblem ?? "no positions")")
        }
        let formatter = ISO8601DateFormatter()
        if let start = timeStart, let end = timeEnd {
            lines.append("time          \(formatter.string(from: start)) to \(formatter.string(from: end)) (\(timeSource))")
        }
        if let a = trackStart, let b = trackEnd {
            lines.append("track         \(fixed(trackMeters, 1)) m from \(fixed(a.latitude, 6)), \(fixed(a.longitude, 6)) to \(fixed(b.latitude, 6)), \(fixed(b.longitude, 6))")
        }
        if let orientation = orientationSource { lines.append("orientation   \(orientation)") }
        if index.action == "frames" {
            var text = "index         would write \(index.frames ?? 0) frames of \(index.frameWidth ?? 0)x\(index.frameHeight ?? 0), one every "
                + "\(fixed(index.everyMeters, 1)) m, as one sequence"
            if let stops = index.stops, stops > 0 { text += "; \(stops) stop\(stops == 1 ? "" : "s") (a frame each)" }
            if let skipped = index.videoFramesWithoutGps, skipped > 0, let seconds = index.secondsWithoutGps {
                text += "; \(skipped) video frames (\(fixed(seconds, 1)) s) without GPS skipped"
            }
            lines.append(text)
            if let heading = index.headingNote { lines.append("heading       \(heading)") }
        } else {
            lines.append("index         refused: \(index.reason ?? "")")
        }
        for note in notes { lines.append("note          \(note)") }
        return lines
    }
}

enum VideoInfoCommand: Command {
    static let spec = CommandSpec(
        name: "info",
        abstract: "What a video holds: streams, projection, duration, GPS track, and what 'index' would do with it.",
        discussion: """
            Reads the file's boxes and telemetry, decodes no picture. GPS from the file itself (GoPro GPMF: GPS5 or GPS9, \
            points without a fix or with a dilution of precision over 5 dropped as mapillary_tools drops them; Google CAMM; \
            the Insta360 .insv trailer), else from NAME.gpx or NAME.nmea beside it, or the .insv original beside an \
            Insta360 Studio export. GoPro chapters (GS01xxxx, GS02xxxx…) are read as one recording. \
            Projections: equirectangular (spherical metadata, or a 2:1 video assumed so), gopro-max-eac (a .360's two \
            cubemap streams), dual-fisheye (.insv: refused for frames, its GPS still read), flat (an ordinary video: \
            refused for frames, its track still read).
            """,
        options: [VideoCommands.everyMeters, VideoCommands.projection, VideoCommands.timeOffset, VideoCommands.gpx,
                  .flag("json", help: "Print the report as JSON (keys: projection, duration_seconds, gps_samples, track_meters, index, …).")],
        positionals: [PositionalSpec("FILE", help: "A video: .360, .mp4, .mov or .insv.", completion: .file)],
        examples: [(command: "lookaround video info GS010042.360", comment: "a GoPro MAX recording: its track and what index would make"),
                   (command: "lookaround video info VID_20240512_101530_00_001.mp4 --json", comment: "an Insta360 export as JSON")])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let everyMeters = try arguments.double("video-every-meters", in: 0.5...1000) ?? 3
        let report = VideoInfoReport(try VideoCommands.recording(arguments), everyMeters: everyMeters)
        if arguments.flag("json") { try Console.json(report) } else { report.lines.forEach(Console.out) }
        return .ok
    }
}

enum VideoFramesCommand: Command {
    static let spec = CommandSpec(
        name: "frames",
        abstract: "Write a video's frames as geotagged equirectangular JPEGs (EXIF GPS, time, direction; GPano), for any tool.",
        discussion: """
            Takes a frame every --video-every-meters along the GPS track, at the video frame nearest that point, its \
            position interpolated in time between the GPS samples around it; a stop gives one frame; video without GPS \
            is skipped and counted. Heading: the camera's orientation track (GoPro CORI, with IORI where the camera \
            stabilised the picture) turned onto the direction of travel, else the direction of travel; the pitch from \
            the gravity it measured (GoPro GRAV). A GoPro MAX .360's two streams are rebuilt into its cubemap (the \
            overlap bands blended) and reprojected to equirectangular (--frame-width, default the camera's 5376). \
            Frames are NAME-000000.jpg… in DIR, with DIR/frames.json listing each frame's time, position, heading and pitch. \
            DIR may be s3://BUCKET/PREFIX (endpoint and credentials as for every s3:// location): each frame is one \
            object, written whole or not at all; the bucket is checked before any frame is decoded. \
            Progress on stderr shows video frames decoded per second and the time left.
            """,
        options: [.value("output", short: "o", valueName: "DIR", help: "The folder for the frames (made if missing), or s3://BUCKET/PREFIX.",
                         required: true),
                  VideoCommands.everyMeters,
                  .value("frame-width", valueName: "PIXELS", help: "Width of frames reprojected from a GoPro MAX (256…16384, a multiple of 4; "
                         + "the height is half). Default: 4 × the cube's face, 5376 at 5.6K."),
                  .value("quality", valueName: "1-100", help: "JPEG quality.", defaultValue: "90"),
                  VideoCommands.projection, VideoCommands.timeOffset, VideoCommands.gpx, CommonOptions.quiet,
                  .flag("json", help: "Print the frames written as JSON.")],
        positionals: [PositionalSpec("FILE", help: "A video: .360, .mp4 or .mov.", completion: .file)],
        examples: [(command: "lookaround video frames GS010042.360 -o frames", comment: "a GoPro MAX recording, a frame every 3 m"),
                   (command: "lookaround video frames ride.mp4 --gpx ride.gpx --time-offset-seconds -7200 -o frames --video-every-meters 5",
                    comment: "an equirectangular MP4 with a GPX log from a phone"),
                   (command: "lookaround video frames GS010042.360 -o s3://imagery/frames/GS010042",
                    comment: "the frames into a bucket (then 'lookaround index s3://imagery/frames')")])

    struct Frame: Encodable {
        var file: String
        var timeSeconds, latitude, longitude: Double
        var altitudeMeters: Double?
        var headingDegrees: Double?
        var headingSource: String
        var pitchDegrees: Double?
        var distanceMeters: Double
        var captureTime: Date?
    }

    struct Report: Encodable {
        var file: String
        var output: String
        var frames: [Frame]
        var everyMeters: Double
        var width, height: Int
        var videoFramesDecoded: Int
        var seconds: Double
        var framesPerSecond: Double
        var videoFramesWithoutGps: Int
        var stops: Int
        var headingNote: String
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let output = try arguments.requiredString("output")
        let everyMeters = try arguments.double("video-every-meters", in: 0.5...1000) ?? 3
        let quality = try arguments.int("quality", in: 1...100) ?? 90
        let width = try arguments.int("frame-width", in: FrameExtractor.frameWidthRange)
        if let width, width % 4 != 0 { throw arguments.error("--frame-width \(width) is not a multiple of 4") }
        let recording = try VideoCommands.recording(arguments)
        guard recording.projection.makesPanoramas else {
            throw VideoError.notPanoramic(path: recording.path, reason: FrameExtractor.refusal(recording))
        }
        if width != nil && recording.layout == nil {
            throw arguments.error("--frame-width applies to GoPro MAX recordings; this \(recording.projection.rawValue) video keeps its "
                                  + "\(recording.width)x\(recording.height)")
        }
        let plan = try TrackSampler.plan(recording, everyMeters: everyMeters)
        if StorageLocation.isObjectStorage(output) {
            // The bucket answers and these credentials may use it, before minutes of decoding.
            if case .s3(let bucket, _) = try StorageLocation(parsing: output), let problem = ObjectStorage.shared.problem(withBucket: bucket) {
                throw problem
            }
        } else {
            try VideoCommands.makeDirectory(output)
        }
        let name = FilePath.name(of: (recording.path as NSString).deletingPathExtension)
        let quiet = arguments.flag("quiet")
        let display = ProgressDisplay(label: "video frames \(FilePath.name(of: recording.path))", unit: "video frames", quiet: quiet)
        let start = Date()
        let written = try FrameExtractor.extract(recording, plan: plan, options: .init(frameWidth: width, quality: quality),
                                                 path: { StorageLocation.joining(output, String(format: "%@-%06d.jpg", name, $0)) },
                                                 progress: { display.update(done: $0.decoded, total: $0.toDecode) })
        display.finish()
        let seconds = Date().timeIntervalSince(start)
        let decoded = Int(((plan.frames.last?.timeSeconds ?? 0) * recording.framesPerSecond).rounded()) + 1
        let frameWidth = width ?? recording.layout.map { 4 * $0.faceSize } ?? recording.width
        let report = Report(file: recording.path, output: output,
                            frames: written.map { w in
                                Frame(file: FilePath.name(of: w.path), timeSeconds: (w.frame.timeSeconds * 1000).rounded() / 1000,
                                      latitude: w.frame.latitude, longitude: w.frame.longitude, altitudeMeters: w.frame.altitudeMeters,
                                      headingDegrees: w.frame.headingDegrees.map { ($0 * 100).rounded() / 100 }, headingSource: w.frame.headingSource,
                                      pitchDegrees: w.frame.pitchDegrees.map { ($0 * 100).rounded() / 100 },
                                      distanceMeters: (w.frame.distanceMeters * 100).rounded() / 100, captureTime: w.frame.captureTime)
                            },
                            everyMeters: everyMeters, width: frameWidth, height: recording.layout == nil ? recording.height : frameWidth / 2,
                            videoFramesDecoded: decoded, seconds: (seconds * 100).rounded() / 100,
                            framesPerSecond: (Double(decoded) / max(seconds, 1e-3) * 10).rounded() / 10,
                            videoFramesWithoutGps: plan.videoFramesWithoutGPS, stops: plan.stops, headingNote: plan.headingNote)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        let list = StorageLocation.joining(output, "frames.json")
        if StorageLocation.isObjectStorage(list) {
            try ObjectStorage.shared.write([UInt8](try encoder.encode(report.frames)), to: list, contentType: "application/json")
        } else {
            do { try WriteFailure.writeAtomically(try encoder.encode(report.frames), to: list) } catch let failure as WriteFailure {
                throw VideoError.cannotWrite(failure)
            }
        }
        if arguments.flag("json") { try Console.json(report); return .ok }
        Console.out("frames      \(written.count) of \(report.width)x\(report.height) in \(output) (\(name)-000000.jpg…, frames.json), "
                    + "one every \(fixed(everyMeters, 1)) m")
        Console.out("decoded     \(decoded) video frames in \(fixed(seconds, 2)) s (\(fixed(report.framesPerSecond, 1)) fps)")
        if plan.videoFramesWithoutGPS > 0 {
            Console.out("skipped     \(plan.videoFramesWithoutGPS) video frames (\(fixed(plan.secondsWithoutGPS, 1)) s) without GPS")
        }
        if plan.stops > 0 { Console.out("stops       \(plan.stops), a frame each") }
        Console.out("heading     \(plan.headingNote)")
        return .ok
    }
}
