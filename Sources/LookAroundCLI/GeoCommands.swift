import ArgumentParsing
import CommandOptions
import Foundation
import Geodesy

enum GeoCommands: CommandGroup {
    static let name = "geo"
    static let abstract = "Geodesy on the WGS84 ellipsoid: distances, destinations, map tiles."
    static var commands: [any Command.Type] { [GeoDistanceCommand.self, GeoDestinationCommand.self, GeoTileCommand.self] }
}

/// Formats a number with a fixed count of decimals.
func fixed(_ value: Double, _ decimals: Int) -> String { String(format: "%.\(decimals)f", value) }

enum GeoDistanceCommand: Command {
    static let spec = CommandSpec(
        name: "distance",
        abstract: "The geodesic distance and bearings between two points (Karney's algorithm, WGS84).",
        discussion: "Accurate to well under a millimetre everywhere on the ellipsoid, including nearly "
            + "antipodal points and lines across the 180th meridian. --spherical uses the haversine "
            + "formula instead (up to 0.56 % off, for comparison).",
        options: [
            .value("from", valueName: "LAT,LON", help: "Start point, decimal degrees.", required: true),
            .value("to", valueName: "LAT,LON", help: "End point, decimal degrees.", required: true),
            .flag("spherical", help: "Use a sphere of mean radius 6,371,008.8 m instead of the ellipsoid."),
            .flag("json", help: "Print JSON (distance_meters, initial_bearing_degrees, final_bearing_degrees)."),
        ],
        examples: [(command: "lookaround geo distance --from 60.1699,24.9523 --to 60.1686,24.9417",
                    comment: "Senaatintori to the railway station")])

    struct Result: Encodable {
        var distanceMeters: Double
        var initialBearingDegrees: Double
        var finalBearingDegrees: Double?
        var model: String
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let from = try arguments.requiredCoordinate("from"), to = try arguments.requiredCoordinate("to")
        let result: Result
        if arguments.flag("spherical") {
            result = Result(distanceMeters: SphericalEarth.distanceMeters(from: from, to: to),
                            initialBearingDegrees: SphericalEarth.initialBearing(from: from, to: to).normalizedHeading.degrees,
                            finalBearingDegrees: nil, model: "sphere")
        } else {
            let inverse = Geodesic.wgs84.inverse(from: from, to: to)
            result = Result(distanceMeters: inverse.distanceMeters,
                            initialBearingDegrees: inverse.initialAzimuth.normalizedHeading.degrees,
                            finalBearingDegrees: inverse.finalAzimuth.normalizedHeading.degrees, model: "WGS84")
        }
        if arguments.flag("json") {
            try Console.json(result)
        } else {
            Console.out("distance        \(fixed(result.distanceMeters, 3)) m")
            Console.out("initial bearing \(fixed(result.initialBearingDegrees, 6))°")
            if let final = result.finalBearingDegrees { Console.out("final bearing   \(fixed(final, 6))°") }
        }
        return .ok
    }
}

enum GeoDestinationCommand: Command {
    static let spec = CommandSpec(
        name: "destination",
        abstract: "Where you arrive going a distance along a geodesic from a point at an initial bearing.",
        options: [
            .value("from", valueName: "LAT,LON", help: "Start point, decimal degrees.", required: true),
            .value("bearing-degrees", valueName: "DEGREES",
                   help: "Initial bearing, degrees clockwise from true north (-360…360).", required: true),
            .value("distance-meters", valueName: "METERS",
                   help: "Distance along the geodesic (0…40,000,000; negative goes backwards).", required: true),
            .flag("json", help: "Print JSON (latitude, longitude, final_bearing_degrees)."),
        ],
        examples: [(command: "lookaround geo destination --from 60.1699,24.9523 --bearing-degrees 270 --distance-meters 500",
                    comment: "500 m due west of Senaatintori")])

    struct Result: Encodable {
        var latitude: Double
        var longitude: Double
        var finalBearingDegrees: Double
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let from = try arguments.requiredCoordinate("from")
        let bearing = try arguments.heading("bearing-degrees") ?? 0
        let distance = try arguments.double("distance-meters", in: -40_000_000...40_000_000) ?? 0
        let direct = try Geodesic.wgs84.direct(from: from, azimuth: Angle(degrees: bearing), distanceMeters: distance)
        let result = Result(latitude: direct.destination.latitude, longitude: direct.destination.longitude,
                            finalBearingDegrees: direct.finalAzimuth.normalizedHeading.degrees)
        if arguments.flag("json") {
            try Console.json(result)
        } else {
            Console.out("destination   \(fixed(result.latitude, 9)),\(fixed(result.longitude, 9))")
            Console.out("final bearing \(fixed(result.finalBearingDegrees, 6))°")
        }
        return .ok
    }
}

enum GeoTileCommand: Command {
    static let spec = CommandSpec(
        name: "tile",
        abstract: "The slippy-map tile (z/x/y) and Bing quadkey of a point, or the bounds of a tile.",
        options: [
            .value("at", valueName: "LAT,LON", help: "The point to find the tile of."),
            .value("zoom", valueName: "LEVEL", help: "Zoom level 0…30.", defaultValue: "17"),
            .value("quadkey", valueName: "DIGITS", help: "Describe this quadkey's tile instead (digits 0-3)."),
            .flag("json", help: "Print JSON."),
        ],
        examples: [
            (command: "lookaround geo tile --at 60.1699,24.9523 --zoom 15", comment: "the tile holding Senaatintori"),
            (command: "lookaround geo tile --quadkey 120210233", comment: "bounds of a Bing quadkey"),
        ])

    struct Result: Encodable {
        var tile: String
        var zoom: Int
        var x: Int
        var y: Int
        var quadkey: String
        var north: Double
        var south: Double
        var west: Double
        var east: Double
    }

    static func run(_ arguments: ParsedArguments) throws -> CommandOutcome {
        let tile: SlippyTile
        if let quadkey = arguments.string("quadkey") {
            if arguments.has("at") { throw arguments.error("give either --at or --quadkey, not both") }
            do { tile = try SlippyTile(quadkey: quadkey) } catch { throw arguments.error("--quadkey: \(error)") }
        } else {
            guard let at = try arguments.coordinate("at") else { throw arguments.error("give --at LAT,LON or --quadkey DIGITS") }
            let zoom = try arguments.int("zoom", in: SlippyTile.zoomRange) ?? 17
            tile = try SlippyTile(containing: at, zoom: zoom)
        }
        let result = Result(tile: tile.description, zoom: tile.zoom, x: tile.x, y: tile.y, quadkey: tile.quadkey,
                            north: tile.northWest.latitude, south: tile.southEast.latitude,
                            west: tile.northWest.longitude, east: tile.southEast.longitude)
        if arguments.flag("json") {
            try Console.json(result)
        } else {
            Console.out("tile    \(result.tile)")
            Console.out("quadkey \(result.quadkey)")
            Console.out("bounds  north \(fixed(result.north, 7)), south \(fixed(result.south, 7)), "
                        + "west \(fixed(result.west, 7)), east \(fixed(result.east, 7))")
        }
        return .ok
    }
}
