import ArgumentParsing
import Foundation
import Catalog
import Geodesy
import Imaging
import LookAround
import Reprojection

/// How `snapshot` and `inspect` choose a scene (`--lat/--lon`, `--near`, `--scene`) and a view
/// (`--heading-degrees`, `--pitch-degrees`, `--fov-degrees`, `--size`): one set of options, defaults
/// and checks, so a pixel of a snapshot can be inspected with the same options.
public struct SceneSelection: Sendable {
    /// The options choosing the scene.
    public static let sceneOptions: [OptionSpec] = [
        .value("lat", valueName: "DEGREES", help: "Latitude, -90…90."),
        .value("lon", valueName: "DEGREES", help: "Longitude, -180…180."),
        .value("near", valueName: "NAME", help: "A place or an address instead of a point ('Senaatintori', 'Aleksanterinkatu 52, Helsinki'): the best answer of 'lookaround geocode'."),
        .value("scene", valueName: "ID", help: "A panorama id (as 'lookaround scene' prints it)."),
        .value("radius-meters", valueName: "METERS", help: "Search radius around the point, 0…10000.", defaultValue: "50"),
    ]

    /// The options of the view.
    /// The longest side of a snapshot, pixels: within what every image writer takes (JPEG stops at
    /// 65,500) and what the pixel budget allows with a useful other side.
    public static let maximumSidePixels = 16_384

    public static let cameraOptions: [OptionSpec] = [
        .value("heading-degrees", valueName: "DEGREES", help: "View direction, clockwise from north; any finite value, taken modulo 360 (default: see above)."),
        .value("pitch-degrees", valueName: "DEGREES", help: "Degrees above the horizon, -90…90.", defaultValue: "0"),
        .value("fov-degrees", valueName: "DEGREES", help: "Horizontal field of view, 10…120.", defaultValue: "90"),
        .value("size", valueName: "WxH", help: "Image size in pixels (each side 1…16384, at most 16 megapixels).", defaultValue: "1280x720"),
    ]

    /// The point given with `--lat/--lon` (nil for `--near` and `--scene` until resolved).
    public var point: GeoCoordinate?
    /// `--radius-meters`.
    public var radiusMeters: Double
    /// `--size`.
    public var size: PixelSize
    /// `--heading-degrees`, `--pitch-degrees`, `--fov-degrees`.
    public var camera: LookAroundSnapshotter.Camera

    /// Validates everything the user typed, before any catalog is opened, so bad input is always a
    /// usage error (64) naming the value and the allowed range.
    public init(_ arguments: ParsedArguments) throws {
        let modes = ["lat", "near", "scene"].filter { arguments.has($0) }
        guard modes.count == 1 || (modes.isEmpty && arguments.has("lon")) else {
            throw arguments.error(modes.isEmpty ? "give --lat and --lon, --near NAME or --scene ID"
                                  : "give only one of " + modes.map { "--\($0)" }.joined(separator: ", "), option: modes.first ?? "lat")
        }
        if arguments.has("lat") || arguments.has("lon") {
            guard arguments.has("lat"), arguments.has("lon") else { throw arguments.error("give both --lat and --lon", option: arguments.has("lat") ? "lon" : "lat") }
            let latitude = try arguments.double("lat", in: -90...90) ?? 0
            let longitude = try arguments.double("lon", in: -180...180) ?? 0
            point = try GeoCoordinate(latitude: latitude, normalizingLongitude: longitude)
        }
        radiusMeters = try arguments.double("radius-meters", in: SceneRequest.radiusRange) ?? SceneRequest.defaultRadiusMeters
        do { size = try PixelSize(parsing: arguments.string("size") ?? "1280x720", maximumSide: Self.maximumSidePixels) } catch let error as ImagingError {
            throw arguments.error("--size: \(error)", option: "size")
        }
        camera = LookAroundSnapshotter.Camera()
        camera.headingDegrees = try arguments.heading("heading-degrees")
        camera.pitchDegrees = try arguments.double("pitch-degrees", in: ViewCamera.pitchRangeDegrees) ?? 0
        camera.fieldOfViewDegrees = try arguments.double("fov-degrees", in: ViewCamera.fieldOfViewRangeDegrees) ?? 90
        do {
            _ = try ViewCamera(headingDegrees: 0, pitchDegrees: camera.pitchDegrees,
                               fieldOfViewDegrees: camera.fieldOfViewDegrees, width: size.width, height: size.height)
        } catch {
            throw arguments.error("--size: \(error)", option: "size")
        }
    }

    /// What the catalog answered for the selection.
    public struct Resolution: Sendable {
        /// The scene, nil when there is no coverage.
        public var scene: LookAroundScene?
        /// The place `--near` found, as displayed.
        public var placeName: String?
        /// The point looked up (the place's coordinate for `--near`; nil for `--scene`).
        public var point: GeoCoordinate?
        /// Why there is no scene, when there is none.
        public var noCoverage: NoCoverage?

        /// The lines reporting no coverage (exit code 1).
        public var noCoverageLines: [String] {
            var lines: [String] = []
            if let placeName, let point {
                lines.append("place      \(placeName) (\(String(format: "%.7f", point.latitude)), \(String(format: "%.7f", point.longitude)))")
            }
            lines.append("no coverage: \(noCoverage?.message ?? "no panorama")")
            lines.append("reason      \(noCoverage?.reason.rawValue ?? "")")
            return lines
        }
    }

    /// Finds the scene in `catalog`: the panorama of `--scene`, or the nearest one within the radius
    /// of the point or of the `--near` place (its name searched in `language` first).
    /// - Throws: `CatalogError.unknownPanorama` or `.placeNotFound` (exit 1), catalog failures.
    /// - Parameter detailCache: kept between requests by a service (see `Catalog.scene(for:requestID:detailCache:)`).
    public func resolve(_ arguments: ParsedArguments, catalog: Catalog, language: String?,
                        detailCache: SceneDetailCache? = nil) throws -> Resolution {
        if let id = arguments.string("scene") {
            return Resolution(scene: try LookAroundScene(panoramaID: id, catalog: catalog))
        }
        var point = self.point, placeName: String?
        if let name = arguments.string("near") {
            let place = try catalog.locate(name, language: language)
            point = place.coordinate
            placeName = place.name
        }
        guard let point else { throw arguments.error("give --lat and --lon", option: "lat") }
        let answer = try catalog.scene(for: SceneRequest(coordinate: point, radiusMeters: radiusMeters), detailCache: detailCache)
        return Resolution(scene: answer.scene.map(LookAroundScene.init(match:)), placeName: placeName, point: point,
                          noCoverage: answer.noCoverage)
    }
}
