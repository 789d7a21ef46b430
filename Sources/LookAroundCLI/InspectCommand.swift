import ArgumentParsing
import CommandOptions
import Catalog
import Foundation
import Geodesy
import LookAround
import Reprojection

/// `lookaround inspect`: what lies under one pixel of a view `snapshot` would render with the same options.
enum InspectCommand: Command {
    static let spec = CommandSpec(
        name: "inspect",
        abstract: "Tell what is under a pixel of a view: its coordinate (from depth) or sky, and the place or street there.",
        discussion: """
            The scene and view options are those of 'lookaround snapshot', with the same defaults (without \
            --heading-degrees the view looks at the requested point), so a pixel of an image 'snapshot' \
            made can be inspected by giving the same options. --x and --y are \
            continuous view pixels: 0…width and 0…height, pixel centres at i + 0.5 (--x 640.5 is the \
            centre of column 640). The distance is along the ray from the camera, from the panorama's \
            depth map; the coordinate has a height above the ground under the camera. A place is named \
            when the point is within 3 m of where its label is pinned on the facade, a street when a \
            ground point is on it (half its width plus 2.5 m from the centreline). No coverage is exit \
            code 1 with the reason.
            """,
        options: SceneSelection.sceneOptions + SceneSelection.cameraOptions + [
            .value("x", valueName: "PX", help: "Column, 0…width (continuous; pixel centres at i + 0.5).", required: true),
            .value("y", valueName: "PX", help: "Row, 0…height (continuous; pixel centres at i + 0.5).", required: true),
            .value("language", valueName: "CODE", help: "Name language (OSM code such as sv); default the local name."),
            .flag("json", help: "Print JSON (snake_case keys) instead of text."),
            CommonOptions.catalog,
            CommonOptions.cacheDirectory,
            CommonOptions.cacheBytes,
        ],
        examples: [
            (command: "lookaround inspect --lat 60.1699 --lon 24.9523 --x 640.5 --y 500.5",
             comment: "what is below the centre of the default 1280x720 view of Senate Square"),
            (command: "lookaround inspect --scene senaatintori-005 --heading-degrees 90 --size 320x180 --x 100 --y 90 --json",
             comment: "one pixel of a smaller view, as JSON"),
            (command: "lookaround snapshot --near Stockmann -o s.png && lookaround inspect --near Stockmann --x 400 --y 300",
             comment: "inspect a pixel of a snapshot made with the same options"),
        ])

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let selection = try SceneSelection(arguments)
        let x = try arguments.double("x", in: 0...Double(selection.size.width)) ?? 0
        let y = try arguments.double("y", in: 0...Double(selection.size.height)) ?? 0
        let language = arguments.string("language")
        let json = arguments.flag("json")
        let catalog = try Catalog(path: arguments.string("catalog") ?? Catalog.defaultPath)
        let resolution = try selection.resolve(arguments, catalog: catalog, language: language)
        guard let scene = resolution.scene else {
            if json {
                try Console.json(NoCoverageReport(requestedPlace: resolution.placeName, noCoverage: resolution.noCoverage))
            } else {
                resolution.noCoverageLines.forEach(Console.out)
            }
            return .failed(.noImagery)
        }
        let options = LookAroundSnapshotter.Options(size: selection.size, camera: selection.camera, language: language)
        let snapshotter = LookAroundSnapshotter(scene: scene, options: options, catalog: catalog)
        let camera = try snapshotter.viewCamera()
        let hit = try snapshotter.hitTest(x: x, y: y)
        if json {
            try Console.json(InspectReport(hit: hit, camera: camera, scene: scene, place: resolution.placeName))
            return .ok
        }
        if let placeName = resolution.placeName { Console.out("place      \(placeName) (requested)") }
        Console.out("panorama   \(hit.panoramaID) (\(fixed(scene.distanceMeters, 2)) m from the requested point)")
        Console.out("view       heading \(fixed(camera.headingDegrees, 1))°, pitch \(fixed(camera.pitchDegrees, 1))°, "
                    + "field of view \(fixed(camera.fieldOfViewDegrees, 1))°, \(camera.width)x\(camera.height)")
        Console.out("pixel      \(fixed(x, 2)), \(fixed(y, 2))")
        Console.out("direction  heading \(fixed(hit.headingDegrees, 2))°, elevation \(fixed(hit.elevationDegrees, 2))°")
        switch hit.surface {
        case .sky:
            Console.out("sky        no surface along this ray (or none within 655 m)")
        case .unknown:
            Console.out("unknown    the panorama has no depth map, so only the direction is known")
        case .ground, .raised:
            if let point = hit.point {
                Console.out("distance   \(fixed(point.distanceMeters, 2)) m")
                // No "-0.00 m" for ground a millimetre below the camera's.
                let height = abs(point.heightAboveGroundMeters) < 0.005 ? 0 : point.heightAboveGroundMeters
                Console.out("coordinate \(fixed(point.coordinate.latitude, 6)), \(fixed(point.coordinate.longitude, 6)), "
                            + "\(fixed(height, 2)) m above the ground")
            }
            Console.out("surface    \(hit.surface.rawValue)")
            if let place = hit.place {
                Console.out("place      \(place.name) (\(place.category), \(fixed(place.distanceMeters, 1)) m from its sign)")
            }
            if let address = hit.address {
                Console.out("address    \(address.displayName) (\(fixed(address.distanceMeters, 1)) m from the address point)")
            }
            if let street = hit.street {
                Console.out("street     \(street.name) (\(street.highwayClass), \(fixed(street.distanceMeters, 1)) m from its centreline)")
            }
        }
        return .ok
    }
}

/// `inspect --json`: the hit, with the view it was asked of.
private struct InspectReport: Encodable {
    struct Direction: Encodable {
        var headingDegrees, elevationDegrees, east, north, up: Double
    }
    struct Point: Encodable {
        var latitude, longitude, distanceMeters, heightAboveGroundMeters, eastMeters, northMeters, upMeters: Double
    }

    var found = true
    var requestedPlace: String?
    var panoramaId: String
    var distanceFromRequestMeters: Double
    /// The camera itself: its keys are `snapshot --json`'s `view` (heading_degrees … height).
    var view: ViewCamera
    var x, y: Double
    var direction: Direction
    var surface: String
    var point: Point?
    var place: LookAroundHit.Place?
    var street: LookAroundHit.Street?
    var address: LookAroundHit.Address?

    init(hit: LookAroundHit, camera: ViewCamera, scene: LookAroundScene, place: String?) {
        requestedPlace = place
        panoramaId = hit.panoramaID
        distanceFromRequestMeters = scene.distanceMeters
        view = camera
        x = hit.x
        y = hit.y
        direction = Direction(headingDegrees: hit.headingDegrees, elevationDegrees: hit.elevationDegrees,
                              east: hit.direction.east, north: hit.direction.north, up: hit.direction.up)
        surface = hit.surface.rawValue
        point = hit.point.map {
            Point(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude, distanceMeters: $0.distanceMeters,
                  heightAboveGroundMeters: $0.heightAboveGroundMeters, eastMeters: $0.offset.east,
                  northMeters: $0.offset.north, upMeters: $0.offset.up)
        }
        self.place = hit.place
        street = hit.street
        address = hit.address
    }
}

