import ArgumentParsing
import Catalog
import Foundation
import Geodesy

/// `lookaround scene`: is there street imagery here?
enum SceneCommand: Command {
    static let spec = CommandSpec(
        name: "scene",
        abstract: "Is there street imagery here? The nearest (or best) panorama within a radius, or why not.",
        discussion: """
            Give a point (--lat/--lon), a place name (--near), a panorama id (--id), a coverage tile \
            (--tile Z/X/Y: every panorama in it), or a batch (--batch FILE, '-' for stdin: CSV \
            'lat,lon[,radius_meters[,id]]' or JSON Lines in, JSON Lines out).
            'nearest' picks the smallest geodesic distance; 'best' prefers full 360° panoramas, then ones \
            with depth, then the newest capture day, then the nearest. Distances and bearings are geodesic \
            (WGS84, Karney). No coverage is exit code 1 with the reason on stdout (nothing within the \
            radius, with the nearest panorama within 10 km; filtered out; or an empty catalog). A batch \
            exits 0 even when some points have no coverage (each line says so), 65 when a line is bad.
            """,
        options: [
            .value("lat", valueName: "DEGREES", help: "Latitude, -90…90."),
            .value("lon", valueName: "DEGREES", help: "Longitude, -180…180."),
            .value("near", valueName: "NAME", help: "A place or an address instead of a point ('Senaatintori', 'Aleksanterinkatu 52, Helsinki'): the best answer of 'lookaround geocode'."),
            .value("id", valueName: "ID", help: "Describe this panorama."),
            .value("tile", valueName: "Z/X/Y", help: "List the panoramas in this slippy-map tile (zoom 0…30)."),
            .value("batch", valueName: "FILE", help: "Answer every line of FILE ('-' = stdin) as JSON Lines."),
            .value("radius-meters", valueName: "METERS", help: "Search radius, 0…10000.", defaultValue: "50"),
            .value("preference", valueName: "KIND", help: "Which panorama within the radius.", defaultValue: "nearest",
                   allowedValues: ScenePreference.allCases.map(\.rawValue)),
            .value("source", valueName: "SOURCE", help: "Accepted sources.", defaultValue: "any",
                   allowedValues: SourceFilter.allCases.map(\.rawValue)),
            .value("after", valueName: "DATE", help: "Captured on or after (YYYY-MM-DD or ISO 8601, UTC)."),
            .value("before", valueName: "DATE", help: "Captured on or before (YYYY-MM-DD: through that day, UTC)."),
            .value("language", valueName: "CODE", help: "Language for --near names (e.g. sv)."),
            CommonOptions.catalog,
            .flag("json", help: "Print JSON (snake_case): found, scene or no_coverage with reason."),
        ],
        examples: [
            (command: "lookaround scene --lat 60.1699 --lon 24.9523", comment: "imagery at Senaatintori?"),
            (command: "lookaround scene --near Senaatintori --radius-meters 100 --json", comment: "by place name, as JSON"),
            (command: "lookaround scene --batch points.csv > answers.jsonl", comment: "many points at once"),
            (command: "lookaround scene --tile 17/74621/37940", comment: "coverage of one tile"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let modes = ["lat", "near", "id", "tile", "batch"].filter { arguments.has($0) }
        guard modes.count == 1 || (modes.isEmpty && arguments.has("lon")) else {
            throw arguments.error(modes.isEmpty ? "give --lat and --lon, --near NAME, --id ID, --tile Z/X/Y or --batch FILE"
                                  : "give only one of " + modes.map { "--\($0)" }.joined(separator: ", "))
        }
        var defaults = SceneRequest(coordinate: try GeoCoordinate(latitude: 0, longitude: 0))
        defaults.radiusMeters = try arguments.double("radius-meters", in: SceneRequest.radiusRange) ?? 50
        defaults.preference = ScenePreference(rawValue: try arguments.requiredString("preference")) ?? .nearest
        defaults.source = SourceFilter(rawValue: try arguments.requiredString("source")) ?? .any
        defaults.capturedAfter = try date(arguments, "after", endOfDay: false)
        defaults.capturedBefore = try date(arguments, "before", endOfDay: true)
        if let after = defaults.capturedAfter, let before = defaults.capturedBefore, after > before {
            throw arguments.error("--after is later than --before; give a window whose start is not after its end")
        }
        let json = arguments.flag("json")

        // Validate the point before touching the catalog, so bad input is always 64.
        var point: GeoCoordinate?
        if arguments.has("lat") || arguments.has("lon") {
            guard arguments.has("lat"), arguments.has("lon") else { throw arguments.error("give both --lat and --lon") }
            let latitude = try arguments.double("lat", in: -90...90) ?? 0
            let longitude = try arguments.double("lon", in: -180...180) ?? 0
            point = try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
        }
        var tile: SlippyTile?
        if let text = arguments.string("tile") {
            let parts = text.split(separator: "/").map { Int($0) }
            guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
                throw arguments.error("--tile '\(text)' is not Z/X/Y; write whole numbers such as 17/74621/37940")
            }
            do { tile = try SlippyTile(x: x, y: y, zoom: z) } catch { throw arguments.error("--tile: \(error)") }
        }

        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        if let tile { return try printTile(tile, catalog: catalog, json: json) }
        if let id = arguments.string("id") { return try printPanorama(id, catalog: catalog, json: json) }
        if let batch = arguments.string("batch") { return try runBatch(batch, defaults: defaults, catalog: catalog) }
        var requestID: String?
        var located: GeocodeResult?
        if let name = arguments.string("near") {
            let place = try catalog.locate(name, language: arguments.string("language"))
            point = place.coordinate
            requestID = place.name
            located = place
        }
        guard let point else { throw arguments.error("give --lat and --lon") }
        var request = defaults
        request.coordinate = point
        let answer = try catalog.scene(for: request, requestID: requestID)
        // The address of the panorama's own position (reverse geocoding), and what --near matched.
        let address = try answer.scene.flatMap { scene in
            try GeoCoordinate(latitude: scene.latitude, longitude: scene.longitude)
        }.map { try catalog.reverseGeocode($0, language: arguments.string("language")) }
        if json {
            try Console.json(SceneReport(answer: answer, located: located, address: address))
        } else {
            printHuman(answer)
            if let located {
                Console.out("matched    \(located.displayName) (\(located.precision.rawValue); \(located.matched.joined(separator: ", ")))")
            }
            if let address, address.address != nil || address.street != nil { Console.out("address    \(address.displayName)") }
        }
        return answer.found ? .ok : .failed(.noImagery)
    }

    /// `YYYY-MM-DD` (start or end of that UTC day) or full ISO 8601.
    static func date(_ arguments: ParsedArguments, _ name: String, endOfDay: Bool) throws -> Date? {
        guard let text = arguments.string(name) else { return nil }
        if let date = SceneRequest.captureDate(parsing: text, endOfDay: endOfDay) { return date }
        throw arguments.error("--\(name) '\(text)' is not a date; write YYYY-MM-DD or ISO 8601 such as 2024-05-12T10:15:30Z")
    }

    static func printHuman(_ answer: SceneAnswer) {
        if let request = answer.requestID { Console.out("place      \(request) (\(fixed(answer.latitude, 7)), \(fixed(answer.longitude, 7)))") }
        guard let scene = answer.scene else {
            Console.out("no coverage: \(answer.noCoverage?.message ?? "no panorama")")
            Console.out("reason      \(answer.noCoverage?.reason.rawValue ?? "")")
            return
        }
        Console.out("panorama   \(scene.panoramaID)")
        Console.out("position   \(fixed(scene.latitude, 7)), \(fixed(scene.longitude, 7))")
        // At (almost) the panorama's own position there is no direction to give.
        Console.out("distance   \(fixed(scene.distanceMeters, 2)) m"
                    + (scene.bearingFromRequestDegrees.map { ", bearing \(fixed($0, 1))° from the request point" } ?? ""))
        Console.out("heading    \(fixed(scene.headingDegrees, 1))°")
        Console.out("captured   \(scene.captureTime) (\(scene.source.rawValue))")
        Console.out("image      \(scene.imagePath) (\(scene.imageWidth)×\(scene.imageHeight), "
                    + "\(fixed(scene.horizontalCoverageDegrees, 0))°)")
        if let depth = scene.depthPath { Console.out("depth      \(depth)") }
        if let labels = scene.labelsPath { Console.out("labels     \(labels)") }
        Console.out("sequence   \(scene.sequence) #\(scene.sequenceIndex)")
        Console.out("links      " + (scene.links.isEmpty ? "none" : scene.links.map {
            "\($0.panoramaID) (\(fixed($0.headingDegrees, 1))°, \(fixed($0.distanceMeters, 1)) m, \($0.kind.rawValue))"
        }.joined(separator: "\n           ")))
    }

    static func printTile(_ tile: SlippyTile, catalog: Catalog, json: Bool) throws -> CommandOutcome {
        let entries = try catalog.coverage(tile: tile)
        if json {
            struct Tile: Encodable { var tile: String; var panoramas: [CoverageEntry] }
            try Console.json(Tile(tile: tile.description, panoramas: entries))
        } else {
            Console.out("tile \(tile): \(entries.count) panorama\(entries.count == 1 ? "" : "s")")
            for entry in entries {
                Console.out("\(entry.panoramaID)  \(fixed(entry.latitude, 7)), \(fixed(entry.longitude, 7))  "
                            + "heading \(fixed(entry.headingDegrees, 1))°  \(entry.captureTime)  \(entry.source.rawValue)")
            }
        }
        return entries.isEmpty ? .failed(.noImagery) : .ok
    }

    static func printPanorama(_ id: String, catalog: Catalog, json: Bool) throws -> CommandOutcome {
        let record = try catalog.panorama(id: id)
        let links = try catalog.links(ofPanoramaID: id)
        if json {
            struct Described: Encodable { var panorama: PanoramaRecord; var captureTime: String; var links: [PanoramaLink] }
            try Console.json(Described(panorama: record, captureTime: Catalog.iso8601String(record.captureTime), links: links))
        } else {
            Console.out("panorama   \(record.id)")
            Console.out("position   \(fixed(record.coordinate.latitude, 7)), \(fixed(record.coordinate.longitude, 7))")
            Console.out("heading    \(fixed(record.headingDegrees, 1))° (\(record.headingSource))")
            Console.out("captured   \(Catalog.iso8601String(record.captureTime)) (\(record.captureTimeSource), \(record.source.rawValue))")
            Console.out("image      \(record.imagePath) (\(record.imageWidth)×\(record.imageHeight) of "
                        + "\(record.fullWidth)×\(record.fullHeight))")
            Console.out("links      \(links.map(\.panoramaID).joined(separator: ", "))")
        }
        return .ok
    }

    static func runBatch(_ source: String, defaults: SceneRequest, catalog: Catalog) throws -> CommandOutcome {
        let data: Data
        if source == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: source) else {
                guard FileManager.default.fileExists(atPath: source) else {
                    throw CatalogError.fileNotFound(path: source, remedy: "pass a CSV or JSON Lines file, or - for stdin")
                }
                throw CatalogError.io(path: source, detail: "cannot be read")
            }
            data = contents
        }
        let parser = SceneBatchParser(defaults: defaults)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        var output = Data()
        var badLines = 0
        for (offset, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            do {
                guard let (request, id) = try parser.parse(String(line), number: offset + 1) else { continue }
                output.append(try encoder.encode(try catalog.scene(for: request, requestID: id)))
            } catch let error as CatalogError {
                badLines += 1
                struct BadLine: Encodable { var line: Int; var error: String }
                output.append(try encoder.encode(BadLine(line: offset + 1, error: error.description)))
                Console.error("error: \(error.description)")
            }
            output.append(0x0A)
            if output.count > 1 << 16 { Console.outBytes([UInt8](output)); output.removeAll(keepingCapacity: true) }
        }
        Console.outBytes([UInt8](output))
        return badLines > 0 ? .failed(.badData) : .ok
    }
}

/// `scene --json`: the answer, with what `--near` matched and the address of the panorama's position.
private struct SceneReport: Encodable {
    struct Matched: Encodable {
        var name, displayName, precision: String
        var matched: [String]
        var latitude, longitude: Double
    }
    struct Address: Encodable {
        var displayName: String
        var houseNumber, street, postcode, city, neighbourhood: String?
        var distanceMeters: Double?
    }

    var answer: SceneAnswer
    var located: GeocodeResult?
    var address: ReverseGeocode?

    enum Keys: String, CodingKey { case matched, address }

    func encode(to encoder: any Encoder) throws {
        try answer.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        if let located {
            try container.encode(Matched(name: located.name, displayName: located.displayName, precision: located.precision.rawValue,
                                         matched: located.matched, latitude: located.coordinate.latitude,
                                         longitude: located.coordinate.longitude), forKey: .matched)
        }
        if let address, address.address != nil || address.street != nil {
            try container.encode(Address(displayName: address.displayName, houseNumber: address.address?.houseNumber,
                                         street: address.address?.street ?? address.street, postcode: address.postcode,
                                         city: address.city, neighbourhood: address.neighbourhood,
                                         distanceMeters: address.addressDistanceMeters ?? address.streetDistanceMeters),
                                 forKey: .address)
        }
    }
}
