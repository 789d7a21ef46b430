import Foundation
import Imaging

/// How a recording is read: overrides for what the files do not say.
public struct VideoReadOptions: Sendable, Hashable {
    /// The projection to use instead of the one detected (`--projection`).
    public var projection: VideoProjection?
    /// Seconds added to the camera's clock (the container's creation time) to get UTC, when a GPS log
    /// (GPX, NMEA, an Insta360 trailer) is matched to the video or the capture time comes from that clock:
    /// a camera set to UTC+2 that wrote 12:00 for 10:00 UTC needs −7200.
    public var timeOffsetSeconds: Double
    /// A GPS log (GPX or NMEA) to use instead of the telemetry in the file and the logs beside it.
    public var gpsLogPath: String?

    public init(projection: VideoProjection? = nil, timeOffsetSeconds: Double = 0, gpsLogPath: String? = nil) {
        self.projection = projection
        self.timeOffsetSeconds = timeOffsetSeconds
        self.gpsLogPath = gpsLogPath
    }
}

/// One recording: its file (and the chapter files a camera split it into), its streams, what its
/// pictures are, and its telemetry on the video's clock. Reading it reads headers and telemetry only.
public struct VideoRecording: Sendable {
    /// One file of the recording.
    public struct Chapter: Sendable {
        public var path: String
        public var movie: MP4Movie
        /// Where the chapter starts on the recording's clock, seconds.
        public var startSeconds: Double
        /// Its duration, seconds.
        public var durationSeconds: Double
    }

    /// The recording's first file.
    public var path: String
    /// Its files in order (GoPro chapters GX01…, GX02…; one for most videos).
    public var chapters: [Chapter]
    /// The first file's streams as FFmpeg numbers them.
    public var streams: [VideoStreamInfo]
    /// What the pictures are.
    public var projection: VideoProjection
    /// How the projection was decided (`sv3d`, `two 4096x1344 HEVC streams`, `assumed: 2:1 …`, `--projection`).
    public var projectionReason: String
    /// The GoPro MAX strip layout, for `gopro-max-eac`.
    public var layout: GoProMaxLayout?
    /// The video streams decoded (FFmpeg's numbers): one, or the MAX's two.
    public var decodedStreams: [Int]
    /// One decoded picture's size, pixels.
    public var width: Int, height: Int
    /// Frames per second of the (first) decoded stream.
    public var framesPerSecond: Double
    /// The whole recording's duration, seconds.
    public var durationSeconds: Double
    /// Positions and orientation, nil when none was found (``telemetryProblem`` says why).
    public var telemetry: Telemetry?
    /// Why there is no telemetry.
    public var telemetryProblem: String?
    /// The camera as the files name it.
    public var cameraMake: String?, cameraModel: String?, cameraSerial: String?, firmware: String?
    /// UTC of the recording's time 0, and what it came from (`GPS` or `camera clock`).
    public var captureStartUTC: Date?
    public var captureStartSource: String
    /// Notes for the user (assumptions, skipped data).
    public var notes: [String]

    /// Video file extensions `lookaround index` reads, lowercase.
    public static let extensions = ["mp4", "mov", "360", "insv"]

    /// Reads `path` (and the chapters that follow it, and a GPS log beside it when it has no telemetry).
    /// - Throws: `VideoError` for a file that is missing, unreadable or not an MP4/QuickTime video.
    public init(path: String, options: VideoReadOptions = VideoReadOptions()) throws(VideoError) {
        let paths = Self.chapterPaths(of: path)
        self.path = paths[0]
        chapters = []
        var start = 0.0
        var readers: [VideoFileReader] = []
        for chapterPath in paths {
            let reader = try VideoFileReader(path: chapterPath)
            let movie = try MP4Movie(reader: reader)
            let duration = movie.videoTracks.first.map { $0.durationSeconds > 0 ? $0.durationSeconds : movie.durationSeconds } ?? movie.durationSeconds
            chapters.append(Chapter(path: chapterPath, movie: movie, startSeconds: start, durationSeconds: duration))
            readers.append(reader)
            start += duration
        }
        durationSeconds = start
        notes = []
        if chapters.count > 1 {
            notes.append("\(chapters.count) chapter files read as one recording: " + chapters.map { FilePath.name(of: $0.path) }.joined(separator: ", "))
        }
        streams = try VideoDecoder.streams(of: self.path)
        let first = chapters[0].movie
        firmware = first.firmware
        cameraSerial = first.cameraSerial
        cameraModel = first.cameraModel
        if first.cameraModel != nil || first.firmware?.hasPrefix("H") == true && first.tracks.contains(where: { $0.format == "gpmd" }) {
            cameraMake = "GoPro"
        }

        // What the pictures are.
        let video = streams.filter { $0.type == "video" && $0.width > 0 }
        guard let main = video.max(by: { $0.width * $0.height < $1.width * $1.height }) else {
            throw .notPanoramic(path: self.path, reason: "it has no video stream")
        }
        width = main.width
        height = main.height
        framesPerSecond = main.framesPerSecond
        decodedStreams = [main.index]
        let pairs = video.filter { $0.width == main.width && $0.height == main.height && $0.codec == main.codec }
        let spherical = chapters[0].movie.tracks.compactMap(\.spherical).first ?? chapters[0].movie.movieSpherical
        let bitDepth = (main.pixelFormat ?? "").contains("10") ? 10 : 8
        let maxLayout = pairs.count == 2 ? GoProMaxLayout.detect(width: main.width, height: main.height, bitDepth: bitDepth) : nil
        let ext = (self.path as NSString).pathExtension.lowercased()
        let insta360: Insta360Trailer.Contents?
        do { insta360 = try Insta360Trailer.read(readers[0]) } catch {
            insta360 = nil
            notes.append("its Insta360 trailer is damaged (\(error)); its GPS was not read")
        }
        if let model = insta360?.model { cameraMake = "Insta360"; cameraModel = model }
        if let serial = insta360?.serial { cameraSerial = serial }

        var projection: VideoProjection
        var reason: String
        if ext == "insv" {
            (projection, reason) = (.dualFisheye, "an Insta360 .insv file (two fisheye circles)")
        } else if let maxLayout {
            (projection, reason) = (.goproMaxEAC, "two \(main.width)x\(main.height) \(main.codec.uppercased()) streams of a GoPro MAX cubemap "
                                    + "(streams \(pairs.map { "0:\($0.index)" }.joined(separator: " and ")), \(maxLayout.overlap) px overlap bands)")
            layout = maxLayout
            decodedStreams = pairs.map(\.index)
        } else if let spherical, spherical.projection != .unspecified {
            switch spherical.projection {
            case .equirectangular where spherical.isFullMonoEquirectangular:
                (projection, reason) = (.equirectangular, "spherical metadata (\(spherical.source))")
            case .equirectangular:
                (projection, reason) = (.flat, "spherical metadata (\(spherical.source)) of a "
                                        + ((spherical.stereoMode ?? 0) != 0 ? "stereo" : "cropped") + " equirectangular video, which is not read")
            default:
                (projection, reason) = (.flat, "spherical metadata (\(spherical.source)) naming a \(spherical.projection.rawValue) projection, which is not read")
            }
        } else if main.width == 2 * main.height {
            // Decided once the telemetry is known: with GPS it is taken as equirectangular.
            (projection, reason) = (.equirectangular, "assumed: \(main.width)x\(main.height) is 2:1 and it has no spherical metadata")
        } else {
            (projection, reason) = (.flat, "\(main.width)x\(main.height), no spherical metadata")
        }
        if let forced = options.projection {
            if forced == .goproMaxEAC && maxLayout == nil {
                guard pairs.count == 2, let scaled = try? GoProMaxLayout(stripWidth: main.width, stripHeight: main.height, overlap: 64) else {
                    throw .invalidParameter(name: "--projection", value: forced.rawValue,
                                            allowed: "gopro-max-eac only for a file with two video streams of a GoPro MAX strip size "
                                            + "(width = height + two side faces); this one has \(pairs.count) of \(main.width)x\(main.height)")
                }
                layout = scaled
                decodedStreams = pairs.map(\.index)
            }
            if forced == .equirectangular && main.width != 2 * main.height {
                // Its frames would be written as full spheres squeezed into the wrong shape.
                throw .invalidParameter(name: "--projection", value: forced.rawValue,
                                        allowed: "equirectangular only for a video twice as wide as high (a full sphere); "
                                        + "this one's picture is \(main.width)x\(main.height)")
            }
            if forced != .goproMaxEAC { layout = nil; decodedStreams = [main.index] }
            (projection, reason) = (forced, "--projection \(forced.rawValue) (detected: \(projection.rawValue), \(reason))")
        }
        self.projection = projection
        projectionReason = reason

        // Telemetry: an explicit log, the file's own (GPMF, CAMM, Insta360 trailer), else a log beside it.
        captureStartSource = "none"
        telemetryProblem = nil
        var found: Telemetry?
        let cameraClock = first.creationTime.map { $0.addingTimeInterval(options.timeOffsetSeconds) }
        do {
            if let log = options.gpsLogPath {
                found = try Self.align(GPSLog(contentsOf: log, defaultDate: cameraClock), cameraClock: cameraClock, duration: durationSeconds,
                                       path: log)
            } else {
                found = try Self.ownTelemetry(chapters: chapters, readers: readers, insta360: insta360, cameraClock: cameraClock)
                if found == nil || found!.gps.isEmpty, let beside = Self.logBeside(self.path) {
                    let own = found
                    if beside.hasSuffix(".insv") || beside.hasSuffix(".INSV") {
                        let reader = try VideoFileReader(path: beside)
                        if let contents = try Insta360Trailer.read(reader), !contents.fixes.isEmpty {
                            let movie = try? MP4Movie(reader: reader)
                            let clock = (movie?.creationTime ?? cameraClock ?? contents.fixes[0].utc!).addingTimeInterval(movie?.creationTime == nil ? 0 : options.timeOffsetSeconds)
                            found = Insta360Trailer.telemetry(contents, startUTC: clock)
                            found!.source = "Insta360 trailer of \(FilePath.name(of: beside))"
                            try Self.checkOverlap(found!, duration: durationSeconds, path: beside, cameraClock: clock)
                        }
                    } else {
                        found = try Self.align(GPSLog(contentsOf: beside, defaultDate: cameraClock), cameraClock: cameraClock,
                                               duration: durationSeconds, path: beside)
                    }
                    if let own, !own.orientation.isEmpty { found?.orientation = own.orientation; found?.gravity = own.gravity
                        found?.orientationSource = own.orientationSource; found?.imageOrientation = own.imageOrientation }
                }
            }
        } catch {
            telemetryProblem = error.description
            found = nil
        }
        if let t = found, t.gps.isEmpty, telemetryProblem == nil {
            telemetryProblem = t.gpsRead > 0 ? "all \(t.gpsRead) positions of its \(t.source) were dropped (\(t.droppedNoFix) without a fix, "
                + "\(t.droppedImprecise) with a dilution of precision over 5)" : "its \(t.source) telemetry holds no positions"
        }
        if found == nil && telemetryProblem == nil {
            telemetryProblem = "no telemetry track (GoPro GPMF, CAMM), no Insta360 trailer, and no GPS log beside it ("
                + Self.logCandidates(self.path).map { FilePath.name(of: $0) }.prefix(3).joined(separator: ", ") + ")"
        }
        telemetry = found
        if let name = found?.deviceName, cameraModel == nil { cameraModel = name }
        if cameraMake == nil, let model = cameraModel, model.lowercased().contains("gopro") || model.lowercased().hasPrefix("hero") { cameraMake = "GoPro" }
        if cameraSerial == nil { cameraSerial = found?.serialNumber }
        if let utc = found?.startUTC {
            captureStartUTC = utc
            captureStartSource = found!.source.hasPrefix("GPMF") || found!.source == "CAMM" ? "GPS" : "GPS log"
        } else if let cameraClock {
            captureStartUTC = cameraClock
            captureStartSource = "camera clock"
            notes.append("capture time from the camera's clock (the file's creation time\(options.timeOffsetSeconds == 0 ? ", taken as UTC" : String(format: " %+.0f s", options.timeOffsetSeconds))): no GPS time in it")
        }
        if let t = found { notes += t.notes }
        if options.projection == nil, self.projection == .equirectangular, projectionReason.hasPrefix("assumed"), telemetry?.gps.isEmpty ?? true {
            self.projection = .flat
            projectionReason = "\(width)x\(height) is 2:1 but it has no spherical metadata and no GPS: taken as flat "
                + "(--projection equirectangular if it is a 360° video)"
        }
    }

    /// Telemetry inside the chapters: GPMF, else CAMM, else an Insta360 trailer; on the recording's clock.
    static func ownTelemetry(chapters: [Chapter], readers: [VideoFileReader], insta360: Insta360Trailer.Contents?,
                             cameraClock: Date?) throws(VideoError) -> Telemetry? {
        var combined: Telemetry?
        for (k, chapter) in chapters.enumerated() {
            var part: Telemetry?
            if let track = chapter.movie.tracks.first(where: { $0.format == "gpmd" }) {
                part = try GPMFTelemetry.read(track: track, reader: readers[k])
            } else if let track = chapter.movie.tracks.first(where: { $0.format == "camm" || $0.handlerType == "camm" }) {
                part = try CAMMTelemetry.read(track: track, reader: readers[k], creationTime: chapter.movie.creationTime)
            } else if k == 0, let insta360, !insta360.fixes.isEmpty {
                let clock = cameraClock ?? insta360.fixes[0].utc!
                part = Insta360Trailer.telemetry(insta360, startUTC: clock)
            }
            guard var p = part else { continue }
            p.shift(by: chapter.startSeconds)
            if combined == nil { combined = p } else { combined!.append(p) }
        }
        return combined
    }

    /// A log on the camera's clock, checked to overlap the video.
    static func align(_ log: GPSLog, cameraClock: Date?, duration: Double, path: String) throws(VideoError) -> Telemetry {
        guard let clock = cameraClock ?? log.fixes.first?.utc else { throw .noGPS(path: path, detail: "the log has no times") }
        let telemetry = log.telemetry(startUTC: clock)
        try checkOverlap(telemetry, duration: duration, path: path, cameraClock: clock)
        return telemetry
    }

    /// Refuses a log whose times miss the video altogether, saying by how much and what offset would fit.
    static func checkOverlap(_ telemetry: Telemetry, duration: Double, path: String, cameraClock: Date) throws(VideoError) {
        guard let first = telemetry.gps.first, let last = telemetry.gps.last else { return }
        if last.timeSeconds < 0 || first.timeSeconds > duration {
            let formatter = ISO8601DateFormatter()
            let suggestion = first.timeSeconds.rounded()
            throw .noGPS(path: path, detail: "its fixes run \(formatter.string(from: first.utc ?? cameraClock)) to "
                         + "\(formatter.string(from: last.utc ?? cameraClock)), but the video (\(String(format: "%.1f", duration)) s from "
                         + "\(formatter.string(from: cameraClock)) by the camera's clock) lies outside them; if the camera's clock was off, "
                         + "give --time-offset-seconds (about \(Int(suggestion)) would put the video at the log's start)")
        }
    }

    /// A GPS log beside the video: `NAME.gpx`, `NAME.nmea` (any case), or the Insta360 original `NAME.insv`
    /// of an exported `NAME.mp4`.
    static func logBeside(_ path: String) -> String? {
        logCandidates(path).first { FileManager.default.fileExists(atPath: $0) && $0 != path }
    }

    static func logCandidates(_ path: String) -> [String] {
        // By hand rather than NSString's path methods, which would fold the `//` of an `s3://` location.
        let name = FilePath.name(of: path)
        let stem = name.lastIndex(of: ".").map { String(path.dropLast(name.distance(from: $0, to: name.endIndex))) } ?? path
        var names: [String] = []
        for ext in GPSLog.extensions + ["insv"] { names += [stem + "." + ext, stem + "." + ext.uppercased()] }
        return names
    }

    // MARK: Chapters

    /// A GoPro file name's parts: the family (`GX`, `GH`, `GS`, `GP`…), the chapter (0 for `GOPRnnnn`) and
    /// the recording's number; nil for other names.
    public static func goProChapter(of name: String) -> (family: String, chapter: Int, recording: String, ext: String)? {
        let upper = name.uppercased()
        let chars = Array(upper)
        guard let dot = upper.lastIndex(of: ".") else { return nil }
        let base = String(upper[..<dot]), ext = String(upper[upper.index(after: dot)...])
        guard ["MP4", "360", "LRV", "MOV"].contains(ext), base.count == 8, chars[0] == "G" else { return nil }
        if base.hasPrefix("GOPR"), Int(base.dropFirst(4)) != nil { return ("GP", 0, String(base.dropFirst(4)), ext) }
        let family = String(base.prefix(2))
        guard family.last!.isLetter, let chapter = Int(base.dropFirst(2).prefix(2)), Int(base.suffix(4)) != nil else { return nil }
        return (family, chapter, String(base.suffix(4)), ext)
    }

    /// The chapter files of the recording `path` belongs to, in order (just `path` for other files). A file
    /// that is itself a later chapter starts from the first one present.
    public static func chapterPaths(of path: String) -> [String] {
        let name = FilePath.name(of: path), folder = FilePath.directory(of: path)
        guard let mine = goProChapter(of: name) else { return [path] }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? [name]
        let siblings = names.compactMap { n -> (Int, String)? in
            guard let c = goProChapter(of: n), c.family == mine.family || (c.family == "GP" && mine.family == "GP"),
                  c.recording == mine.recording, c.ext == mine.ext else { return nil }
            return (c.chapter, folder.isEmpty ? n : FilePath.joining(folder, n))
        }.sorted { $0.0 < $1.0 }
        // Chapters follow each other: stop at the first gap.
        var result: [String] = []
        var expected = siblings.first?.0 ?? mine.chapter
        for (chapter, p) in siblings {
            if chapter != expected && !(expected == 0 && chapter == 1) { break }
            result.append(p)
            expected = chapter + 1
        }
        return result.isEmpty ? [path] : result
    }

    /// The recording's length along its GPS track, metres (0 without GPS).
    public var trackMeters: Double {
        guard let gps = telemetry?.gps, gps.count > 1 else { return 0 }
        return zip(gps, gps.dropFirst()).reduce(0) { $0 + TrackGeometry.distanceMeters($1.0, $1.1) }
    }
}

extension Telemetry {
    /// Moves every time by `seconds` (a later chapter onto the recording's clock).
    mutating func shift(by seconds: Double) {
        guard seconds != 0 else { return }
        for k in gps.indices { gps[k].timeSeconds += seconds }
        for k in orientation.indices { orientation[k].timeSeconds += seconds }
        for k in gravity.indices { gravity[k].timeSeconds += seconds }
        for k in imageOrientation.indices { imageOrientation[k].timeSeconds += seconds }
        if let start = startUTC { startUTC = start.addingTimeInterval(-seconds) }
    }

    /// Appends a later chapter's telemetry (already shifted).
    mutating func append(_ other: Telemetry) {
        gps += other.gps
        gpsRead += other.gpsRead
        droppedNoFix += other.droppedNoFix
        droppedImprecise += other.droppedImprecise
        droppedOutliers += other.droppedOutliers
        orientation += other.orientation
        gravity += other.gravity
        imageOrientation += other.imageOrientation
        if startUTC == nil { startUTC = other.startUTC }
        notes += other.notes
        if orientationSource == nil { orientationSource = other.orientationSource }
    }
}
