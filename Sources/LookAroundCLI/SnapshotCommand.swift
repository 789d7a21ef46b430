import ArgumentParsing
import Catalog
import CommandOptions
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
        options: SceneSelection.sceneOptions + SceneSelection.cameraOptions + SnapshotOptions.options + [
            CommonOptions.catalog,
            CommonOptions.cacheDirectory,
            CommonOptions.cacheBytes,
            .value("output", short: "o", valueName: "FILE", help: "Output image ('-' = stdout).", required: true),
            .flag("json", help: "Print the report as JSON (on stderr with -o -); see README, 'JSON output'."),
            CommonOptions.quiet,
        ],
        examples: [
            (command: "lookaround snapshot --lat 60.1699 --lon 24.9523 -o senaatintori.png", comment: "a view of Senate Square"),
            (command: "lookaround snapshot --near Stockmann --fov-degrees 60 --pitch-degrees 10 -o stockmann.jpg",
             comment: "a place by name, as JPEG"),
            (command: "lookaround snapshot --scene aleksanterinkatu-030 --heading-degrees 90 -o - | display",
             comment: "one panorama, looking east, to stdout"),
            (command: "lookaround snapshot --scene aleksanterinkatu-030 --heading-degrees 60 --pitch-degrees -10 --labels roads -o street.png",
             comment: "only the street name, painted on the road"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        // Validate everything the user typed before touching the catalog, so bad input is always 64.
        let parsed = try SnapshotOptions(arguments)
        let selection = parsed.selection, options = parsed.snapshotter
        let output = try arguments.requiredString("output")
        let format: String
        if let given = parsed.format {
            format = given
        } else {
            let ext = (output as NSString).pathExtension.lowercased()
            format = ext == "jpg" || ext == "jpeg" ? "jpeg" : "png"
        }
        let quality = parsed.quality
        let toStandardError = output == "-"
        let json = arguments.flag("json")
        let quiet = arguments.flag("quiet") && !json
        let report = { (text: String) in
            if quiet { return }
            if toStandardError { Console.error(text) } else { Console.out(text) }
        }

        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        let resolution = try selection.resolve(arguments, catalog: catalog, language: arguments.string("language"))
        let placeName = resolution.placeName
        guard let scene = resolution.scene else {
            if json {
                report(try Console.jsonText(NoCoverageReport(requestedPlace: placeName, noCoverage: resolution.noCoverage)))
            } else {
                resolution.noCoverageLines.forEach(report)
            }
            return .failed(.noImagery)
        }
        let snapshot = try LookAroundSnapshotter(scene: scene, options: options, catalog: catalog).render()
        let bytes = format == "jpeg" ? try JPEGCodec.encode(snapshot.image, quality: quality)
                                     : try PNGCodec.encode(snapshot.image)
        if output == "-" {
            Console.outBytes(bytes)
        } else {
            try ImageFile.write(bytes, to: output)
        }
        if json {
            report(try Console.jsonText(SnapshotReport(snapshot, requestedPlace: placeName, output: output, format: format)))
            return .ok
        }
        if let placeName { report("place      \(placeName)") }
        report("panorama   \(snapshot.panoramaID)")
        if let position = try? GeoCoordinate(latitude: scene.match.latitude, longitude: scene.match.longitude),
           let here = try? catalog.reverseGeocode(position, language: arguments.string("language")), here.address != nil || here.street != nil {
            report("address    \(here.displayName) (the panorama's position)")
        }
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
}

/// `snapshot --json`: what was rendered (the names `inspect --json` uses for the same things).
struct SnapshotReport: Encodable {
    struct View: Encodable {
        var headingDegrees, pitchDegrees, fieldOfViewDegrees: Double
        var width, height: Int
    }
    struct Label: Encodable {
        var name, category: String
        var distanceMeters, x, y: Double
    }
    struct RoadLabel: Encodable {
        var name, highwayClass: String
        var distanceMeters: Double
    }
    struct ImageFile: Encodable {
        var path, format: String
        var width, height, panoramaLevel: Int
    }

    var found = true
    var requestedPlace: String?
    var panoramaId: String
    var distanceFromRequestMeters: Double
    var view: View
    var labels: [Label]
    var roadLabels: [RoadLabel]
    var image: ImageFile

    init(_ snapshot: LookAroundSnapshotter.Snapshot, requestedPlace: String?, output: String, format: String) {
        self.requestedPlace = requestedPlace
        panoramaId = snapshot.panoramaID
        distanceFromRequestMeters = snapshot.distanceMeters
        view = View(headingDegrees: snapshot.headingDegrees, pitchDegrees: snapshot.pitchDegrees,
                    fieldOfViewDegrees: snapshot.fieldOfViewDegrees, width: snapshot.image.width, height: snapshot.image.height)
        labels = snapshot.labels.map { Label(name: $0.name, category: $0.category, distanceMeters: $0.distanceMeters,
                                             x: $0.anchor.x, y: $0.anchor.y) }
        roadLabels = snapshot.roadLabels.map { RoadLabel(name: $0.name, highwayClass: $0.highwayClass.tagValue, distanceMeters: $0.distanceMeters) }
        image = ImageFile(path: output, format: format, width: snapshot.image.width, height: snapshot.image.height,
                          panoramaLevel: snapshot.panoramaLevel)
    }
}
