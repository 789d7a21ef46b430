import ArgumentParsing
import Catalog
import DerivedMaps
import LookAround
import Foundation
import Parallelism
import Privacy
import Service
import Storage
import Synchronization

/// `lookaround serve`: the scene-request service over HTTP.
enum ServeCommand: Command {
    /// The HTTP engine's defaults, which the options' defaults are (one owner: HTTPServerConfiguration).
    private static let http = HTTPServerConfiguration()

    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve scene requests, panorama metadata, views, maps and tiles over HTTP (native JSON and Google Street View compatible).",
        discussion: """
            With no options it serves the catalog beside the shipped panoramas on http://127.0.0.1:8080, so \
            'lookaround index && lookaround serve' is the whole set-up: open http://127.0.0.1:8080/ in any \
            browser (no WebGL needed) for the map, Look Around previews, the full-window viewer, walks and \
            directions; a deep link such as /@60.1695,24.9525,3a,75y,90h,90t?pano=senaatintori-005 opens that \
            view, and /lookaround.js embeds views in other pages. Routes: /v1/scene, POST /v1/scenes, \
            /v1/search, /v1/panoramas/{id}, /v1/panoramas/{id}/tiles/{level}/{x}/{y}.jpg, /v1/coverage/{z}/{x}/{y} \
            (and /v1/coverage/clusters/{z}/{x}/{y}, the clusters the coverage tiles draw below zoom 14), \
            /v1/snapshot, /v1/move, /v1/walk, /v1/map, /v1/tiles/{type}/{z}/{x}/{y}.png and {type}.json \
            (TileJSON; types standard, muted, imagery, hybrid, coverage), /v1/directions, /v1/health, /metrics, \
            /v1/openapi.json; Google's /maps/api/streetview/metadata and /maps/api/streetview, Nominatim's \
            /search and /reverse, OSRM's /route/v1/{profile}/{coordinates}, and under /api a STAC API 1.0 \
            (collections per sequence, items, /api/search) with Panoramax's routes and vector coverage tiles \
            (/api/map/{z}/{x}/{y}.mvt, /api/map/style.json). \
            Cheap requests are answered on the network threads; images go to render workers through a \
            bounded queue (503 with Retry-After when it is full). SIGINT or SIGTERM stop gracefully: new \
            connections are refused at once, requests in flight finish (up to --drain-seconds), exit 0.
            Real photos must have been blurred (faces and licence plates: 'lookaround index --blur' or 'lookaround \
            blur'; their XMP says so) before they are served: serve checks every real photo of the catalog at start \
            (their header segments only, files and s3:// objects alike; exit 69 when the store cannot be read) \
            and refuses to start (exit 65) while one is not, naming them. --serve-unblurred serves them anyway (your \
            own photos on your own machine). Simulated panoramas need no blurring.
            Uploads (Panoramax's API, so 'panoramax_cli upload --api-url URL --token TOKEN DIR' works unchanged): with \
            --upload-key-file FILE (one token a line, sent as 'Authorization: Bearer TOKEN'; 401 without a valid one), \
            /api/upload_sets takes pictures: JPEG only (415 otherwise), at most --max-upload-bytes each (413), each \
            checked as 'lookaround index' checks it (400 naming the problem), blurred on arrival unless lookaround \
            blurred it already (with --serve-unblurred, a picture sent as already blurred is kept as sent), and kept \
            once (the same file again is 409). Pictures go into CATALOG.uploads/ (photos.sqlite -> photos.uploads/, one \
            folder per upload set), each written whole and renamed into place; what a killed server or a cut connection \
            left half-done is removed at the next start. With $LOOKAROUND_UPLOAD_DIR=s3://BUCKET/PREFIX (any catalog; \
            'lookaround index' reads the same variable) the pictures go into the bucket instead, PREFIX/SET/PICTURE.jpg \
            beside the set's upload_set.json: each is checked and blurred on the local disk first and written under its \
            final key only when complete. Completing a set indexes it in the background with the code of \
            'lookaround index' (the set's split_distance, split_time, duplicate_distance and duplicate_rotation; the \
            --osm extract, else sources/ beside the catalog, for places, streets and derived maps), keeping every other \
            panorama as it is; the catalog file is replaced atomically and this server reopens it, so the pictures are \
            in scenes, tiles, STAC and the web page without a restart. DELETE /api/collections/ID removes an uploaded \
            sequence. 'lookaround index' keeps uploaded panoramas and never reads CATALOG.uploads/ itself.
            """,
        options: [
            .value("listen", valueName: "HOST:PORT", help: "Address to listen on (port 0: any free port; IPv6 as [::1]:8080).",
                   defaultValue: "127.0.0.1:8080"),
            CommonOptions.catalog,
            CommonOptions.cacheDirectory,
            CommonOptions.cacheBytes,
            .value("osm", valueName: "FILE", help: "OSM extract for the maps and place names (default: sources/*.osm.pbf beside the "
                   + "catalog; with none, the maps are the Natural Earth world layer under the coverage)."),
            .value("api-key-file", valueName: "FILE", help: "Require one of the keys in FILE (one per line) as key=… or X-API-Key."),
            .value("threads", valueName: "N", help: "Network threads, 1…64 (default: one more than the cores; they also answer scene requests)."),
            .value("render-workers", valueName: "N", help: "Render workers for images and tiles, 1…64 (default: the number of cores)."),
            .value("max-queue", valueName: "N", help: "Render jobs that may wait for a worker before 503, 0…10000.", defaultValue: "\(http.maximumQueuedRenders)"),
            .value("max-image-pixels", valueName: "N", help: "Largest image a request may ask for, 1…16000000 pixels.", defaultValue: "4000000"),
            .value("max-batch", valueName: "N", help: "Requests in one POST /v1/scenes at most, 1…100000.", defaultValue: "1000"),
            .value("max-body-bytes", valueName: "N", help: "Largest request body, 1…1073741824 bytes (413 beyond).", defaultValue: "\(http.maximumBodyBytes)"),
            .value("timeout-seconds", valueName: "S", help: "Close idle or stalled connections (no byte read or written) after S seconds, 1…3600.",
                   defaultValue: "\(http.connectionTimeoutSeconds)"),
            .value("header-timeout-seconds", valueName: "S",
                   help: "A request's head must arrive whole within S seconds of its first byte (408 after), 1…3600.", defaultValue: "\(http.headerTimeoutSeconds)"),
            .value("body-timeout-seconds", valueName: "S",
                   help: "A request's body must arrive whole within S seconds of its head (408 after), 1…3600.", defaultValue: "\(http.bodyTimeoutSeconds)"),
            .value("max-connections-per-address", valueName: "N",
                   help: "Open connections one client address may hold, 1…65536 (503 and close beyond).", defaultValue: "\(http.connectionsPerAddress)"),
            .value("drain-seconds", valueName: "S", help: "On SIGTERM/SIGINT, wait at most S seconds for requests in flight, 0…600.",
                   defaultValue: "10"),
            .value("cache-mb", valueName: "N", help: "Memory for decoded tiles and cached answers, 16…65536 MiB.", defaultValue: "256"),
            .value("access-log", valueName: "FILE|-", help: "Write one line per request to FILE ('-' = stdout)."),
            .value("public-imagery-url", valueName: "URL",
                   help: "Where clients fetch originals, maps and tile files of imagery in object storage directly (a CDN, or the "
                       + "bucket's own URL): s3://BUCKET/KEY is URL/KEY ({bucket} in URL is replaced by the bucket). /v1/panoramas/{id} "
                       + "and /v1/scene then return image_url, depth_url, labels_url and tiles.file_url."),
            .value("catalog-connections", valueName: "N", help: "PostGIS catalog: connections this process keeps at most, 1…256.",
                   defaultValue: "8"),
            .value("catalog-poll-seconds", valueName: "S",
                   help: "PostGIS catalog: ask for its revision every S seconds and drop cached answers when an index run replaced it, 0…3600 (0 = never).",
                   defaultValue: "2"),
            .value("config", valueName: "FILE",
                   help: "Read options from FILE, one 'name = value' per line ('#' comments; a flag is 'name = true'); "
                       + "options on the command line win. The service unit reads /etc/lookaround/serve.conf."),
            .value("upload-key-file", valueName: "FILE", help: "Take uploads (Panoramax's /api/upload_sets) from clients with one "
                   + "of the tokens in FILE (one per line) as 'Authorization: Bearer TOKEN'; see above."),
            .value("max-upload-bytes", valueName: "N", help: "With --upload-key-file: the largest picture taken, 1…1073741824 "
                   + "bytes (413 beyond).", defaultValue: "\(UploadSettings.defaultMaximumUploadBytes)"),
            .flag("serve-unblurred", help: "Serve real photos that were never blurred (faces and plates visible); only for imagery "
                  + "nobody else sees."),
            .flag("print-config", help: "Print a configuration file with every option, its help and its default, and exit; "
                      + "the options given with it are written set, the others commented out."),
        ],
        examples: [
            (command: "lookaround index && lookaround serve", comment: "index the shipped panoramas and serve them"),
            (command: "curl 'http://127.0.0.1:8080/v1/scene?lat=60.1699&lon=24.9523'", comment: "is there imagery at Senaatintori?"),
            (command: "curl -o view.jpg 'http://127.0.0.1:8080/maps/api/streetview?size=640x400&location=60.1699,24.9523'",
             comment: "a Street View Static API image"),
            (command: "lookaround serve --listen 127.0.0.1:0 --api-key-file keys.txt --access-log -",
             comment: "any free port, keys required, access log on stdout"),
            (command: "lookaround serve --print-config > serve.conf && lookaround serve --config serve.conf",
             comment: "the options in a file, as the system service keeps them"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        if arguments.flag("print-config") {
            Console.out(configurationTemplate(setting: arguments))
            return .ok
        }
        let arguments = try arguments.string("config").map { try arguments.overConfigFile($0) } ?? arguments
        let cores = ProcessInfo.processInfo.activeProcessorCount
        var configuration = ServiceConfiguration()
        let listen = try arguments.requiredString("listen")
        let (host, port) = try parseListen(listen, arguments: arguments)
        configuration.http.host = host
        configuration.http.port = port
        // One more network thread than cores: on 2 cores shared with a load generator, 3 threads
        // answered about 15 % more scene requests than 2 (Benchmarks service).
        configuration.http.networkThreads = try arguments.int("threads", in: 1...64) ?? cores + 1
        configuration.http.renderWorkers = try arguments.int("render-workers", in: 1...64) ?? cores
        configuration.http.maximumQueuedRenders = try arguments.int("max-queue", in: 0...10_000) ?? http.maximumQueuedRenders
        configuration.http.maximumBodyBytes = try arguments.int("max-body-bytes", in: 1...(1 << 30)) ?? http.maximumBodyBytes
        configuration.http.connectionTimeoutSeconds = try arguments.int("timeout-seconds", in: 1...3600) ?? http.connectionTimeoutSeconds
        configuration.http.headerTimeoutSeconds = try arguments.int("header-timeout-seconds", in: 1...3600) ?? http.headerTimeoutSeconds
        configuration.http.bodyTimeoutSeconds = try arguments.int("body-timeout-seconds", in: 1...3600) ?? http.bodyTimeoutSeconds
        configuration.http.connectionsPerAddress = try arguments.int("max-connections-per-address", in: 1...65_536) ?? http.connectionsPerAddress
        configuration.maximumImagePixels = try arguments.int("max-image-pixels", in: 1...16_000_000) ?? 4_000_000
        configuration.maximumBatchCount = try arguments.int("max-batch", in: 1...100_000) ?? 1000
        configuration.cacheMegabytes = try arguments.int("cache-mb", in: 16...65_536) ?? 256
        let drainSeconds = try arguments.double("drain-seconds", in: 0...600) ?? 10
        configuration.catalogPath = arguments.string("catalog") ?? Catalog.defaultPath
        configuration.catalogConnections = try arguments.int("catalog-connections", in: 1...256) ?? 8
        configuration.catalogPollSeconds = try arguments.double("catalog-poll-seconds", in: 0...3600) ?? 2
        configuration.osmPath = arguments.string("osm")
        configuration.accessLogPath = arguments.string("access-log")
        if let url = arguments.string("public-imagery-url") {
            guard let base = PublicImageryURL(url) else {
                throw arguments.error("--public-imagery-url '\(url)' is not an http:// or https:// URL, e.g. https://cdn.example.com/imagery "
                                      + "or http://127.0.0.1:8333/{bucket}")
            }
            configuration.publicImagery = base
        }
        if let file = arguments.string("api-key-file") {
            do { configuration.apiKeys = try ServiceConfiguration.apiKeys(fromFile: file) } catch {
                Console.error("error: \(error)")
                return .failed(.missingInput)
            }
        }

        if let file = arguments.string("upload-key-file") {
            var uploads: UploadSettings
            do { uploads = UploadSettings(keys: try ServiceConfiguration.apiKeys(fromFile: file)) } catch {
                Console.error("error: \(error)")
                return .failed(.missingInput)
            }
            uploads.maximumUploadBytes = try arguments.int("max-upload-bytes", in: 1...(1 << 30)) ?? UploadSettings.defaultMaximumUploadBytes
            uploads.servesUnblurred = arguments.flag("serve-unblurred")
            do {
                uploads.blurring = try UploadBlur()
            } catch {
                // Uploads are blurred on arrival: without the detectors, only a server that serves unblurred photos takes them.
                guard uploads.servesUnblurred else {
                    Console.error("error: uploads are blurred on arrival (faces and licence plates), and the detectors cannot run: \(error)\n"
                                  + "install their models (scripts/fetch-models.sh), or start with --serve-unblurred to keep uploads as sent")
                    return .failed(.unavailable)
                }
            }
            if let osm = configuration.resolvedOSMPath {
                uploads.osmFiles = [osm]
                uploads.mapDeriver = CityMapDeriver(alignsPose: true)
                uploads.streetGraphBuilder = StreetGraphBuilder()
            }
            // A picture's body is held in memory while it arrives: room for two at once at least.
            configuration.http.bodyBudgetBytes = max(configuration.http.bodyBudgetBytes, 2 * (uploads.maximumUploadBytes + (1 << 20)))
            configuration.uploads = uploads
        } else if arguments.has("max-upload-bytes") {
            throw arguments.error("--max-upload-bytes needs --upload-key-file (uploads are off without it)")
        }

        // Block the stop signals before any thread starts, so every thread inherits the mask and
        // sigwait below receives them.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in [SIGINT, SIGTERM] { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        signal(SIGPIPE, SIG_IGN)

        let service = try SceneService(configuration: configuration)
        var checked: (photos: Int, bytesRead: Int) = (0, 0)
        // An upload rewrites the catalog with the places and streets of the OSM extract it finds: one the catalog
        // was indexed with must be found, or uploads would drop them.
        if let uploads = configuration.uploads, uploads.osmFiles.isEmpty, let places = try? service.catalog.placeCount(), places > 0 {
            Console.error("error: the catalog holds \(places) places from an OSM extract, and serve finds none (no --osm, no sources/ "
                          + "beside the catalog): an upload would index the catalog without them; give the extract with --osm FILE")
            service.close()
            return .failed(.usage)
        }
        if !arguments.flag("serve-unblurred") {
            let unblurred: [String]
            do { (unblurred, checked) = try unblurredPhotos(in: service.catalog) } catch let error as StorageError {
                Console.error("error: cannot tell whether the catalog's real photos were blurred: \(error)")
                service.close()
                return .failed(error.category)
            }
            if !unblurred.isEmpty {
                let shown = unblurred.prefix(5).map { "  \($0)" }.joined(separator: "\n")
                Console.error("error: \(unblurred.count) real photo\(unblurred.count == 1 ? " was" : "s were") never blurred "
                              + "(faces and licence plates); refusing to serve \(unblurred.count == 1 ? "it" : "them"):\n\(shown)"
                              + (unblurred.count > 5 ? "\n  … and \(unblurred.count - 5) more" : "")
                              + "\nblur \(unblurred.count == 1 ? "it" : "them") ('lookaround index --blur' on \(unblurred.count == 1 ? "its folder" : "their folders"), "
                              + "or 'lookaround blur --in-place'), or start with --serve-unblurred to serve \(unblurred.count == 1 ? "it" : "them") as they are")
                service.close()
                return .failed(.badData)
            }
        }
        let server: HTTPServer
        do { server = try service.start() } catch {
            Console.error("error: \(error)")
            return .failed(.internalError)
        }
        let shownHost = host.contains(":") ? "[\(host)]" : host
        let base = "http://\(shownHost):\(server.port)"
        Console.out("lookaround serve: \(service.catalog.panoramaCount) panoramas from \(service.catalog.location)")
        if checked.photos > 0 {
            Console.out("lookaround serve: \(checked.photos) real photo\(checked.photos == 1 ? "" : "s") checked, all blurred "
                        + "(\(checked.photos == 1 ? "its" : "their") headers only: \(fixed(Double(checked.bytesRead) / 1024, 1)) KiB read)")
        }
        Console.out("listening on \(base)")
        // A point of this catalog's (its first panorama's), not a fixed city's.
        let sample = (try? service.catalog.firstPanorama()).map { String(format: "lat=%.6f&lon=%.6f", $0.coordinate.latitude, $0.coordinate.longitude) }
            ?? "lat=60.1699&lon=24.9523"
        Console.out("try: curl '\(base)/v1/scene?\(sample)'"
                    + (configuration.apiKeys.isEmpty ? "" : " -H 'X-API-Key: …'"))
        Console.out("stop with Ctrl-C or SIGTERM")
        var received: Int32 = 0
        sigwait(&signals, &received)
        Console.out("lookaround serve: \(received == SIGINT ? "SIGINT" : "SIGTERM"), stopping (\(server.requestsInFlight) requests in flight)")
        server.stop(drainingForSeconds: drainSeconds)
        service.close()
        Console.out("lookaround serve: stopped")
        return .ok
    }

    /// The image paths (files or `s3://` objects) of the catalog's real photos whose XMP does not say
    /// they were blurred, and how many photos were checked with how many bytes read: their header
    /// segments only, by ranged reads through the Storage module (``PrivacyMarker/check(at:storage:)``),
    /// 16 at once for objects, one per core for files. Simulated panoramas are not looked at.
    /// - Throws: `StorageError` when a photo cannot be read now (object storage down, refusing the
    ///   credentials): whether it was blurred is not known, so nothing is served.
    static func unblurredPhotos(in catalog: Catalog) throws -> (unblurred: [String], checked: (photos: Int, bytesRead: Int)) {
        let photos = try catalog.imagePaths().filter { (try? catalog.panorama(id: $0.panoramaID).source) == .photo }.map(\.imagePath)
        let results = Mutex([Result<(blurred: Bool, bytesRead: Int), StorageError>?](repeating: nil, count: photos.count))
        let remote = photos.contains { StorageLocation.isObjectStorage($0) }
        ConcurrentRequests.forEach(photos.count, concurrency: remote ? ConcurrentRequests.defaultConcurrency : ProcessInfo.processInfo.activeProcessorCount) { i in
            let result = Result { () throws(StorageError) in try PrivacyMarker.check(at: photos[i]) }
            results.withLock { $0[i] = result }
        }
        var unblurred: [String] = [], bytesRead = 0
        for (photo, result) in zip(photos, results.withLock { $0 }) {
            guard let outcome = try result?.get() else { continue }
            bytesRead += outcome.bytesRead
            if !outcome.blurred { unblurred.append(photo) }
        }
        return (unblurred, (photos.count, bytesRead))
    }

    /// `HOST:PORT`, `[IPv6]:PORT` or `:PORT` (loopback).
    /// The configuration file `--print-config` writes: every option, documented, the ones given in
    /// `arguments` set (in the order of the spec).
    static func configurationTemplate(setting arguments: ParsedArguments) -> String {
        let set = spec.options.flatMap { option in (arguments.values[option.name] ?? []).map { (name: option.name, value: $0) } }
        return ConfigFile.template(for: spec, values: set, header: [
            "lookaround serve: its options, one 'name = value' per line. Read with 'lookaround serve --config FILE';",
            "options on the command line win over these. A line starting with '#' is a comment: each option below",
            "is commented out at its default unless set. Values are not quoted (double quotes keep spaces at",
            "either end). 'lookaround serve --help' and 'man lookaround-serve' say more.",
        ], excluding: ["print-config"])
    }

    static func parseListen(_ text: String, arguments: ParsedArguments) throws -> (host: String, port: UInt16) {
        var host: Substring, portText: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw arguments.error("--listen '\(text)' is not [IPV6]:PORT, e.g. [::1]:8080") }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        } else {
            throw arguments.error("--listen '\(text)' is not HOST:PORT, e.g. 127.0.0.1:8080")
        }
        if host.isEmpty { host = "127.0.0.1" }
        if host == "localhost" { host = "127.0.0.1" }
        guard let port = UInt16(portText) else {
            throw arguments.error("--listen '\(text)': port '\(portText)' is not a whole number in 0…65535")
        }
        return (String(host), port)
    }
}
