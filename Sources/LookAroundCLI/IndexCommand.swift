import ArgumentParsing
import Catalog
import DerivedMaps
import Foundation
import Imaging
import LookAround
import Privacy
import Reprojection
import Video

/// `lookaround index [DIR …]`: builds or updates the catalog.
enum IndexCommand: Command {
    static let spec = CommandSpec(
        name: "index",
        abstract: "Build or update the panorama catalog from folders of 360° JPEGs and an OSM extract.",
        discussion: """
            Reads each JPEG's metadata (EXIF GPS, GPano XMP; a NAME.json sidecar when a camera wrote \
            neither) and checks its image data (decoded at 1/8 scale: a file cut short or corrupt is listed as \
            damaged), finds NAME.depth.png and NAME.labels.png beside it (their chunks' CRCs checked), and the places and streets of the \
            OSM files, and the routing graph of their streets that 'directions', 'map --route-from', 'walk --from --to' \
            and 'serve' route over without --osm (kept while the OSM files are unchanged; --full builds it again). \
            Files unchanged since the last build are not read again. The new catalog replaces \
            the old one atomically. A bad file is listed with its reason and the rest are indexed; the exit \
            code is then 65.
            Sequences: a sidecar's sequence_id, else one per folder and camera, FOLDER/MODEL; when a folder holds \
            several cameras of one model, told apart by EXIF BodySerialNumber, each is FOLDER/MODEL (SERIAL). A pause \
            over 10 minutes starts the next part, FOLDER/MODEL #2, #3 and so on. A capture closer than 0.5 m to the one kept before \
            it in its sequence and facing within 5° of it (a camera standing at a traffic light; mapillary_tools' rule, \
            --duplicate-meters and --duplicate-degrees) is left out and listed, unless its sidecar numbers it \
            (sequence_index); a walking timelapse (0.5 s, 0.6 m apart) keeps every frame.
            Headings: GPano PoseHeadingDegrees, else EXIF GPSImgDirection, else a sidecar's, else the direction of \
            travel in the sequence. Where most of a sequence's photos point more than 90° away from the way the \
            sequence goes (captures at most 30 s apart), it is listed with both directions: a camera mounted \
            backwards, or a field written as the vehicle's direction rather than the picture's centre. \
            --heading-from travel then faces every photo with a direction of travel along it (heading source \
            'travel' in 'scene --json'); photos minutes apart or alone keep their metadata's.
            With --tiles, then makes each panorama's tile file: the panorama and its halvings cut into \
            256-pixel JPEG tiles, so a view decodes only the tiles it needs at the level it needs (a \
            640x480 view of an 8192x4096 panorama reads about six tiles) instead of the whole JPEG. Level 0 \
            is the JPEG's own coefficients cut losslessly (no second encoding), the halved levels come from \
            its half-scale decode at quality 85: about 1.3 times the photo's bytes. Without tile files a \
            first view decodes only the region of the JPEG it shows, and 'serve' makes the file in the \
            background. They go in a folder beside the catalog \
            named like it (Panoramas/catalog.sqlite -> Panoramas/catalog.tiles/ID.lktiles). Tile files still \
            current (same JPEG size and modification time) are kept, stale ones remade, those of panoramas \
            no longer in the catalog deleted. A JPEG that does not decode cleanly gets no tile file and is \
            listed with its reason (exit code 65); views of it decode the JPEG directly.
            Photos without depth and label maps that an OSM file covers get maps derived from it: the city \
            model is rendered at the photo's pose, so the photo gets place and road labels with occlusion, \
            click-to-go on the ground and depth-warped moves. The pose is first aligned with the model (the \
            photo's skyline against the model's, every heading, positions within 8 m); a confident \
            correction replaces the metadata heading and position (heading source 'aligned'), and each \
            photo's warnings say what was found. Derived maps go beside the catalog (photos.sqlite -> \
            photos.derived/ID.depth.png) and are marked derived in the catalog and the JSON (maps_source). \
            They are kept while the photo is unchanged; --full derives them again.
            Videos in the folders (.mp4, .mov, .360, .insv) become frames, one every --video-every-meters along their GPS \
            track, written as geotagged equirectangular JPEGs beside the catalog (photos.sqlite -> photos.frames/FOLDER/VIDEO/), \
            never beside the videos, and indexed like photos: one sequence per recording (GoPro chapters GS01…, GS02… are one). \
            A video unchanged since the last run is not decoded again. A GoPro MAX .360 is rebuilt from its two cubemap streams; \
            an Insta360 .insv needs its equirectangular export from Insta360 Studio beside it (NAME.mp4; the .insv gives its GPS); \
            a flat video is listed as a warning and left out. See 'lookaround video info' for what a video holds.
            Videos in a bucket are copied one at a time to a temporary file to be decoded (the disk must hold the video and \
            1 GiB more), and their frames are written into the bucket beside the folder, s3://BUCKET/PREFIX.frames/ (or \
            into $LOOKAROUND_FRAMES_DIR when that is s3:// too), with their manifest last; a video whose size and ETag are \
            unchanged is not copied or decoded again.
            A folder may be in object storage, s3://BUCKET/PREFIX (see README, 'Imagery on object storage'): it is \
            listed once (continuation tokens followed), each JPEG's headers are read by ranged GETs several at a time (never \
            the whole object; damage past the headers shows at the first view or with --tiles), sidecars are read, maps are \
            found in the listing, and an object whose size and ETag are unchanged is not read again. The catalog then names \
            s3:// locations, and every command reads them from there. --derived-maps and $LOOKAROUND_TILE_DIR may be \
            s3:// locations too (an s3:// $LOOKAROUND_TILE_DIR holds the tile files of an SQLite catalog as well), and \
            so may $LOOKAROUND_UPLOAD_DIR, where 'lookaround serve' keeps uploads: the panoramas uploaded there are kept as \
            they are, never read by index.
            With --blur, every real photo not yet blurred is first blurred in place, before it is read: faces and \
            licence plates, by JPEG blocks, as 'lookaround blur' does (see its help); its XMP then records it, so a \
            photo is blurred once and 'lookaround serve' serves it. Simulated panoramas are left alone; the frames \
            of videos are blurred as they are written (the video is their original). \
            --keep-originals DIR keeps each photo as it was, in DIR outside the indexed folders (needed to \
            remove a wrong blur later with 'lookaround blur --remove ID --originals DIR'); without it the \
            originals are not kept.
            Default folder: Panoramas. Default OSM files: the .osm.pbf/.osm files in 'sources/' beside the catalog \
            (beside the first folder for a PostGIS catalog). \
            With --catalog postgres://USER@HOST/DATABASE the catalog is written into PostgreSQL + PostGIS instead: one \
            transaction (bulk COPY, then the new tables swapped in), so its readers, many 'lookaround serve' processes on \
            many machines, see the old catalog or the new one, never half; its tile files go to $LOOKAROUND_TILE_DIR.
            """,
        options: [
            CommonOptions.catalog,
            .value("osm", valueName: "FILE", help: "An OSM extract (.osm.pbf or .osm) for places, streets and the routing graph.",
                   repeatable: true),
            .flag("no-osm", help: "Index no places or streets."),
            .value("depth-suffix", valueName: "SUFFIX", help: "Depth map name after NAME.", defaultValue: ".depth.png"),
            .value("labels-suffix", valueName: "SUFFIX", help: "Label map name after NAME.", defaultValue: ".labels.png"),
            .value("sidecar-suffix", valueName: "SUFFIX", help: "Sidecar name after NAME.", defaultValue: ".json"),
            .value("link-meters", valueName: "METERS", help: "Link panoramas closer than this (0…1000; 0 = sequence links only).",
                   defaultValue: "30"),
            .flag("full", help: "Re-read every file, even unchanged ones, derive maps and build the routing graph again."),
            .flag("no-derived-maps", help: "Derive no depth and label maps from the OSM files."),
            .flag("no-align", help: "Derive maps at the metadata pose, without aligning it with the city model."),
            .value("derived-maps", valueName: "DIR", help: "Where derived maps go (default: beside the catalog, "
                   + "CATALOG.derived/; for PostGIS $LOOKAROUND_DERIVED_DIR, else Panoramas/catalog.derived)."),
            .value("heading-from", valueName: "SOURCE", help: "Where headings come from in sequences: the photos' metadata, or "
                   + "their direction of travel (see above).", defaultValue: "metadata", allowedValues: HeadingChoice.allCases.map(\.rawValue)),
            .value("duplicate-meters", valueName: "METERS", help: "A capture closer than this to the one kept before it "
                   + "(and facing within --duplicate-degrees) is a near-duplicate, 0…100 (0: none left out).",
                   defaultValue: "\(CatalogBuilder.defaultNearDuplicateMeters)"),
            .value("duplicate-degrees", valueName: "DEGREES", help: "See --duplicate-meters: the largest heading difference, 0…180.",
                   defaultValue: "\(Int(CatalogBuilder.defaultNearDuplicateDegrees))"),
            .flag("tiles", help: "Also make the tile files views read (see above); only missing or stale ones."),
            VideoCommands.everyMeters,
            .value("video-time-offset-seconds", valueName: "SECONDS", help: "Seconds added to the cameras' clocks to get UTC when a video's "
                   + "GPS log (NAME.gpx, NAME.nmea, an .insv) is matched to it (-86400…86400).", defaultValue: "0"),
            .flag("no-videos", help: "Read no videos (their frames from earlier runs are left out too)."),
            .flag("blur", help: "First blur faces and licence plates in every real photo not yet blurred, in place (see above)."),
            .value("keep-originals", valueName: "DIR", help: "With --blur: keep each photo as it was in DIR (outside the indexed "
                   + "folders; keep it private: it holds the faces)."),
            .value("memory-mb", valueName: "MIB", help: "With --tiles: the most memory the tile files being made may hold at once, "
                   + "64…1048576 MiB; large panoramas are then made fewer at a time, and one that alone needs more is "
                   + "listed, not decoded (default: half the machine's memory, \(defaultMemoryMegabytes) MiB here)."),
            CommonOptions.quiet,
            .flag("json", help: "Print the report as JSON; see README, 'JSON output'."),
        ],
        positionals: [PositionalSpec("DIR", help: "Folders (or s3://BUCKET/PREFIX) searched recursively for panoramas.", optional: true,
                                     variadic: true)],
        examples: [
            (command: "lookaround index", comment: "index Panoramas/ into Panoramas/catalog.sqlite"),
            (command: "lookaround index --tiles", comment: "the same, plus Panoramas/catalog.tiles/ for fast first views"),
            (command: "lookaround index ~/theta --catalog photos.sqlite --osm city.osm.pbf", comment: "your own photos"),
            (command: "lookaround index s3://imagery/helsinki --catalog imagery.sqlite", comment: "panoramas in a bucket"),
            (command: "lookaround index ~/theta --catalog photos.sqlite --blur --keep-originals ~/private/theta",
             comment: "blur faces and plates first, keeping the originals privately"),
        ])

    /// Half the machine's physical memory, MiB (at least 256).
    static var defaultMemoryMegabytes: Int {
        let bytes = Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
        return max(256, (bytes / 2) >> 20)
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        if arguments.has("memory-mb") && !arguments.flag("tiles") { throw arguments.error("--memory-mb needs --tiles") }
        let catalogPath = arguments.string("catalog") ?? Catalog.defaultPath
        let location = try CatalogLocation(parsing: catalogPath)
        let directories = arguments.positionals.isEmpty ? ["Panoramas"] : arguments.positionals
        var osmFiles = arguments.strings("osm")
        if arguments.flag("no-osm") {
            if !osmFiles.isEmpty { throw arguments.error("give either --osm or --no-osm, not both") }
        } else if osmFiles.isEmpty {
            // Beside an SQLite catalog; beside the first folder for a PostGIS one.
            let sources = location.filePath.map { FilePath.joining(FilePath.directory(of: $0), "sources") }
                ?? (directories[0] as NSString).appendingPathComponent("sources")
            let names = (try? FileManager.default.contentsOfDirectory(atPath: sources)) ?? []
            osmFiles = names.filter { $0.hasSuffix(".osm.pbf") || $0.hasSuffix(".osm") }.sorted()
                .map { (sources as NSString).appendingPathComponent($0) }
        }
        let naming = CatalogNamingConvention(depthSuffix: try arguments.requiredString("depth-suffix"),
                                             labelsSuffix: try arguments.requiredString("labels-suffix"),
                                             sidecarSuffix: try arguments.requiredString("sidecar-suffix"))
        if arguments.flag("no-derived-maps") && (arguments.has("derived-maps") || arguments.flag("no-align")) {
            throw arguments.error("--no-derived-maps derives nothing: leave out --derived-maps and --no-align")
        }
        let quiet = arguments.flag("quiet")
        if arguments.has("keep-originals") && !arguments.flag("blur") { throw arguments.error("--keep-originals needs --blur") }
        var blurReport: IndexBlur.Report?
        if arguments.flag("blur") {
            blurReport = try IndexBlur.run(directories: directories, naming: naming, keepOriginals: arguments.string("keep-originals"),
                                           quiet: quiet || arguments.flag("json"), arguments: arguments)
        }
        func progress(_ label: String, _ unit: String) -> (@Sendable (Int, Int) -> Void)? {
            guard !quiet else { return nil }
            let display = ProgressDisplay(label: label, unit: unit, quiet: quiet)
            return { done, total in display.update(done: done, total: total) }
        }
        var options = CatalogBuildOptions(directories: directories, catalogPath: catalogPath, osmFiles: osmFiles,
                                          naming: naming, proximityLinkMeters: try arguments.double("link-meters", in: 0...1000) ?? 30,
                                          forceFullRebuild: arguments.flag("full"))
        options.headingFrom = HeadingChoice(rawValue: try arguments.requiredString("heading-from")) ?? .metadata
        options.nearDuplicateMeters = try arguments.double("duplicate-meters", in: 0...100) ?? CatalogBuilder.defaultNearDuplicateMeters
        options.nearDuplicateDegrees = try arguments.double("duplicate-degrees", in: 0...180) ?? CatalogBuilder.defaultNearDuplicateDegrees
        if !arguments.flag("no-derived-maps") {
            options.mapDeriver = CityMapDeriver(alignsPose: !arguments.flag("no-align"))
            options.derivedMapsDirectory = arguments.string("derived-maps") ?? location.derivedMapsDirectory
            options.derivationProgress = progress("index: depth and labels from OSM", "photos")
        }
        options.streetGraphBuilder = StreetGraphBuilder()
        let frameBlurring = blurReport == nil ? nil : FrameBlurring()
        if !arguments.flag("no-videos") {
            options.videoSampler = VideoIndexing(settings: VideoFrameStore.Settings(
                everyMeters: try arguments.double("video-every-meters", in: 0.5...1000) ?? 3,
                timeOffsetSeconds: try arguments.double("video-time-offset-seconds", in: -86_400...86_400) ?? 0),
                blurring: frameBlurring)
            options.videoProgress = progress("index: videos", "video frames")
        } else if arguments.has("video-every-meters") || arguments.has("video-time-offset-seconds") {
            throw arguments.error("--no-videos reads no videos: leave out --video-every-meters and --video-time-offset-seconds")
        }
        let report = try CatalogBuilder.build(options, progress: progress("index", "files"))
        if let frameBlurring, let before = blurReport { blurReport = frameBlurring.adding(to: before) }
        var tiles: PanoramaTileReport?
        if arguments.flag("tiles") {
            let catalog = try Catalog(path: report.catalogPath)
            // Partial panoramas are cut into tiles embedded in their full sphere; a crop that is not
            // 2:1 is left out here and reported when its tile file cannot be made.
            let crops = try catalog.partialPanoramaCrops().compactMapValues { crop in
                try? PanoramaCrop(fullWidth: crop.fullWidth, fullHeight: crop.fullHeight, left: crop.croppedLeft, top: crop.croppedTop)
            }
            let memoryMegabytes = try arguments.int("memory-mb", in: 64...1_048_576) ?? defaultMemoryMegabytes
            tiles = PanoramaTileStore(directory: location.tileDirectory)
                .update(try catalog.imagePaths(), crops: crops, memoryBudgetBytes: memoryMegabytes << 20,
                        progress: progress("index --tiles", "tile files"))
        }
        if arguments.flag("json") {
            try Console.json(Report(index: report, tiles: tiles, blur: blurReport))
        } else {
            if let blurReport { Console.out(blurReport.line) }
            Console.out("catalog     \(location)")
            let left = report.nearDuplicates.count
            let skipped = left == 0 ? "" : ", \(left) near-duplicate\(left == 1 ? "" : "s") left out"
            Console.out("panoramas   \(report.panoramaCount) (\(report.filesFound) files: \(report.filesRead) read, "
                        + "\(report.filesUnchanged) unchanged, \(report.failures.count) failed\(skipped))")
            Console.out("sequences   \(report.sequenceCount), links \(report.linkCount)")
            Console.out("places      \(report.placeCount), streets \(report.streetCount)")
            if report.videosFound > 0 {
                let folders = report.videoFramesDirectories.isEmpty ? [location.videoFramesDirectory] : report.videoFramesDirectories
                Console.out("videos      \(report.videosFound) file\(report.videosFound == 1 ? "" : "s"), \(report.videoFrames) frames in "
                            + folders.joined(separator: ", "))
            }
            if let graph = report.streetGraph {
                Console.out("routing     graph of \(graph.bytes) bytes, " + (graph.reused ? "kept (the OSM files are unchanged)"
                                                                               : String(format: "built in %.2f s", graph.buildSeconds)))
            }
            if report.derivedMapsCount > 0, let folder = options.derivedMapsDirectory {
                Console.out("derived     depth and labels of \(report.derivedMapsCount) photos from OpenStreetMap, in \(folder)")
            }
            Console.out("time        \(String(format: "%.2f", report.seconds)) s")
            for disagreement in report.headingDisagreements { Console.out("warning     \(disagreement.message)") }
            for warning in report.warnings { Console.out("warning     \(warning.path): \(warning.message)") }
            for duplicate in report.nearDuplicates {
                let turn = duplicate.headingDifferenceDegrees.map { String(format: ", turned %.1f°", $0) } ?? ""
                Console.out("left out    \(duplicate.path): a near-duplicate of \(duplicate.keptPath), "
                            + String(format: "%.2f m away", duplicate.distanceMeters) + turn + " in sequence " + duplicate.sequenceName
                            + String(format: " (closer than %g m and within %g° of the capture kept before it: the camera stood still)",
                                     options.nearDuplicateMeters, options.nearDuplicateDegrees))
            }
            for failure in report.failures { Console.out("failed      \(failure.path): \(failure.message)") }
            if let tiles {
                Console.out("tiles       \(tiles.directory)")
                Console.out("tile files  \(tiles.panoramaCount) panoramas: \(tiles.made) made, \(tiles.upToDate) up to date, "
                            + "\(tiles.failures.count) failed; \(tiles.removed) removed (panoramas no longer in the catalog)")
                Console.out("tile bytes  \(tiles.totalBytes) (\(tiles.bytesWritten) written), "
                            + "\(String(format: "%.2f", tiles.seconds)) s")
                for failure in tiles.failures { Console.out("no tiles    \(failure.panoramaID): \(failure.message)") }
            }
        }
        var failed = false
        if let blurReport, !blurReport.failures.isEmpty {
            for failure in blurReport.failures { Console.out("not blurred \(failure.path): \(failure.message)") }
            Console.error("error: \(blurReport.failures.count) photos could not be blurred (listed above); they are in the catalog "
                          + "unblurred, and 'lookaround serve' refuses to serve them until they are")
            failed = true
        }
        if !report.failures.isEmpty {
            let found = report.filesFound + report.videosFound
            let rest = report.failures.count == found ? "the catalog holds no panoramas from these folders"
                : "the others are in the catalog"
            Console.error("error: \(report.failures.count) of \(found) files could not be indexed (listed above); \(rest)")
            failed = true
        }
        if let tiles, !tiles.failures.isEmpty {
            Console.error("error: \(tiles.failures.count) of \(tiles.panoramaCount) panoramas have no tile file (listed above); "
                          + "views of them decode the JPEG directly")
            // A tile file that could not be written (the disk full, no permission) is the outcome that
            // matters more than a damaged panorama: 73 or 74, as for any output.
            if let written = tiles.failures.first(where: { $0.writeErrno != nil }), let code = written.writeErrno {
                return exitCode(for: WriteFailure(path: tiles.directory, code: code))
            }
            failed = true
        }
        return failed ? .failed(.badData) : .ok
    }

    /// The JSON report: the index report's fields, plus `tiles` with --tiles.
    struct Report: Encodable {
        var index: IndexReport
        var tiles: PanoramaTileReport?
        var blur: IndexBlur.Report?

        enum CodingKeys: String, CodingKey { case tiles, blur }

        func encode(to encoder: any Encoder) throws {
            try index.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(tiles, forKey: .tiles)
            try container.encodeIfPresent(blur, forKey: .blur)
        }
    }
}
