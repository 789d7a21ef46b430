import ArgumentParsing
import Catalog
import Dispatch
import Foundation
import Geodesy
import Imaging
import LookAround
import MapData
import MapSnapshot
import Reprojection

/// `lookaround snapshot`: a street-level picture of a place, reprojected from the nearest panorama.
enum SnapshotCommand: Command {
    static let spec = CommandSpec(
        name: "snapshot",
        abstract: "Render a perspective view (PNG or JPEG) from the street imagery at a point, place or panorama.",
        discussion: """
            Give a point (--lat/--lon), a place name (--near) or a panorama id (--scene). Without \
            --heading-degrees the view looks at the requested point from the panorama that covers it (as \
            Street View does), or along the capture heading when the point is the panorama's own position \
            or --scene is given. Pitch is degrees above the horizon (-90…90), the field of view is \
            horizontal (10…120). Places are labelled on their signs; street names are painted on the \
            ground along their streets, in perspective (--labels picks which, --road-labels off drops the \
            street names). What was rendered (panorama, distance, heading, pitch, field of view, labels) \
            is printed on stdout, or on stderr when the image goes to stdout (-o -). No coverage is exit \
            code 1 with the reason.
            """,
        options: [
            .value("lat", valueName: "DEGREES", help: "Latitude, -90…90."),
            .value("lon", valueName: "DEGREES", help: "Longitude, -180…180."),
            .value("near", valueName: "NAME", help: "A place name instead of a point (best match of 'lookaround search')."),
            .value("scene", valueName: "ID", help: "A panorama id (as 'lookaround scene' prints it)."),
            .value("radius-meters", valueName: "METERS", help: "Search radius around the point, 0…10000.", defaultValue: "50"),
            .value("heading-degrees", valueName: "DEGREES", help: "View direction, clockwise from north (default: see above)."),
            .value("pitch-degrees", valueName: "DEGREES", help: "Degrees above the horizon, -90…90.", defaultValue: "0"),
            .value("fov-degrees", valueName: "DEGREES", help: "Horizontal field of view, 10…120.", defaultValue: "90"),
            .value("size", valueName: "WxH", help: "Image size in pixels (at most 16 megapixels).", defaultValue: "1280x720"),
            .value("labels", valueName: "KIND", help: "Which labels to draw (places: on their signs; roads: "
                   + "street names on the ground).", defaultValue: "all",
                   allowedValues: ["all", "places", "roads", "none"]),
            .value("road-labels", valueName: "on|off", help: "Street names painted on the ground (--labels places "
                   + "or none turns them off too).", defaultValue: "on", allowedValues: ["on", "off"]),
            .value("exclude-categories", valueName: "GROUPS", help: "Place groups not to label (comma-separated: "
                   + PlaceGroup.allCases.map(\.rawValue).joined(separator: ", ") + ")."),
            .value("language", valueName: "CODE", help: "Label language (OSM code such as sv); default the local name."),
            .value("format", valueName: "FORMAT", help: "Image format (default: from the file extension, else png).",
                   allowedValues: ["png", "jpeg"]),
            .value("quality", valueName: "N", help: "JPEG quality, 1…100.", defaultValue: "90"),
            .value("catalog", valueName: "PATH", help: "The catalog (default $LOOKAROUND_CATALOG, else Panoramas/catalog.sqlite)."),
            .value("output", short: "o", valueName: "FILE", help: "Output image ('-' = stdout).", required: true),
        ],
        examples: [
            (command: "lookaround snapshot --lat 60.1699 --lon 24.9523 -o senaatintori.png", comment: "a view of Senate Square"),
            (command: "lookaround snapshot --near Stockmann --fov-degrees 60 --pitch-degrees 10 -o stockmann.jpg",
             comment: "a place by name, as JPEG"),
            (command: "lookaround snapshot --scene helsinki/aleksanterinkatu-0003 --heading-degrees 90 -o - | display",
             comment: "one panorama, looking east, to stdout"),
            (command: "lookaround snapshot --scene aleksanterinkatu-030 --heading-degrees 60 --pitch-degrees -10 --labels roads -o street.png",
             comment: "only the street name, painted on the road"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> ExitCode {
        let modes = ["lat", "near", "scene"].filter { arguments.has($0) }
        guard modes.count == 1 || (modes.isEmpty && arguments.has("lon")) else {
            throw arguments.error(modes.isEmpty ? "give --lat and --lon, --near NAME or --scene ID"
                                  : "give only one of " + modes.map { "--\($0)" }.joined(separator: ", "))
        }
        // Validate everything the user typed before touching the catalog, so bad input is always 64.
        var point: GeoCoordinate?
        if arguments.has("lat") || arguments.has("lon") {
            guard arguments.has("lat"), arguments.has("lon") else { throw arguments.error("give both --lat and --lon") }
            let latitude = try arguments.double("lat", in: -90...90) ?? 0
            let longitude = try arguments.double("lon", in: -180...180) ?? 0
            point = try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
        }
        let radius = try arguments.double("radius-meters", in: SceneRequest.radiusRange) ?? SceneRequest.defaultRadiusMeters
        let size: PixelSize
        do { size = try PixelSize(parsing: try arguments.requiredString("size")) } catch let error as ImagingError {
            throw arguments.error("--size: \(error)")
        }
        var camera = LookAroundSnapshotter.Camera()
        camera.headingDegrees = try arguments.double("heading-degrees", in: -1e9...1e9)
        camera.pitchDegrees = try arguments.double("pitch-degrees", in: ViewCamera.pitchRangeDegrees) ?? 0
        camera.fieldOfViewDegrees = try arguments.double("fov-degrees", in: ViewCamera.fieldOfViewRangeDegrees) ?? 90
        do {
            _ = try ViewCamera(headingDegrees: 0, pitchDegrees: camera.pitchDegrees,
                               fieldOfViewDegrees: camera.fieldOfViewDegrees, width: size.width, height: size.height)
        } catch {
            throw arguments.error("--size: \(error)")
        }
        let labels = try arguments.requiredString("labels")
        let roadLabels = try arguments.requiredString("road-labels") == "on" && (labels == "all" || labels == "roads")
        var filter = PointOfInterestFilter.includingAll
        if labels == "roads" || labels == "none" {
            filter = .excludingAll
        } else if let exclude = arguments.string("exclude-categories") {
            filter = .excluding(try MapCommand.groups(exclude, option: "exclude-categories", arguments: arguments))
        }
        let output = try arguments.requiredString("output")
        let format: String
        if let given = arguments.string("format") {
            format = given
        } else {
            let ext = (output as NSString).pathExtension.lowercased()
            format = ext == "jpg" || ext == "jpeg" ? "jpeg" : "png"
        }
        let quality = try arguments.int("quality", in: 1...100) ?? 90
        let options = LookAroundSnapshotter.Options(size: size, camera: camera, pointOfInterestFilter: filter,
                                                    showsRoadLabels: roadLabels,
                                                    language: arguments.string("language"))
        let toStandardError = output == "-"
        let report = { (text: String) in if toStandardError { Console.error(text) } else { Console.out(text) } }

        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        let scene: LookAroundScene
        var placeName: String?
        if let id = arguments.string("scene") {
            scene = try LookAroundScene(panoramaID: id, catalog: catalog)
        } else {
            if let name = arguments.string("near") {
                let place = try catalog.place(named: name, language: arguments.string("language"))
                point = place.place.coordinate
                placeName = place.displayName
            }
            guard let point else { throw arguments.error("give --lat and --lon") }
            var request = LookAroundSceneRequest(coordinate: point, catalog: catalog)
            request.radiusMeters = radius
            let sent = request
            let answer = try blocking { try await sent.answer }
            guard let match = answer.scene.map(LookAroundScene.init(match:)) else {
                if let placeName { report("place      \(placeName) (\(fixed(point.latitude, 7)), \(fixed(point.longitude, 7)))") }
                report("no coverage: \(answer.noCoverage?.message ?? "no panorama")")
                report("reason      \(answer.noCoverage?.reason.rawValue ?? "")")
                return .noImagery
            }
            scene = match
        }
        let snapshot = try blocking { try await LookAroundSnapshotter(scene: scene, options: options, catalog: catalog).snapshot }
        let bytes = format == "jpeg" ? try JPEGCodec.encode(snapshot.image, quality: quality)
                                     : try PNGCodec.encode(snapshot.image)
        if output == "-" {
            Console.outBytes(bytes)
        } else {
            try ImageFile.write(bytes, to: output)
        }
        if let placeName { report("place      \(placeName)") }
        report("panorama   \(snapshot.panoramaID)")
        report("distance   \(fixed(snapshot.distanceMeters, 2)) m from the requested point")
        report("heading    \(fixed(snapshot.headingDegrees, 1))°, pitch \(fixed(snapshot.pitchDegrees, 1))°, "
               + "field of view \(fixed(snapshot.fieldOfViewDegrees, 1))°")
        if !snapshot.labels.isEmpty {
            report("labels     " + snapshot.labels.map { "\($0.name) (\(fixed($0.distanceMeters, 0)) m)" }.joined(separator: ", "))
        }
        if !snapshot.roadLabels.isEmpty {
            report("streets    " + snapshot.roadLabels.map { "\($0.name) (\(fixed($0.distanceMeters, 0)) m)" }.joined(separator: ", "))
        }
        report("image      \(output == "-" ? "stdout" : output) (\(snapshot.image.width)x\(snapshot.image.height), "
               + "\(format), panorama level \(snapshot.panoramaLevel))")
        return .ok
    }

    /// Runs async library work from the synchronous command.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
        let box = BlockingResult<T>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do { box.result = .success(try await work()) } catch { box.result = .failure(error) }
            done.signal()
        }
        done.wait()
        guard let result = box.result else { preconditionFailure("the task signalled without a result") }
        return try result.get()
    }
}

/// The result a blocking wait hands from the task to the waiting thread; the semaphore orders the
/// write before the read.
private final class BlockingResult<T: Sendable>: @unchecked Sendable {
    var result: Result<T, any Error>?
}
