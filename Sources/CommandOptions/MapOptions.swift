import ArgumentParsing
import Foundation
import Geodesy
import Imaging
import MapData
import MapSnapshot

/// The options of a map snapshot that name no file on the machine: framing (`--center` with `--span`
/// or `--span-meters`, or `--camera`), size, scale, type, pins, place labels, buildings, coverage. One
/// set for `lookaround map` (which adds files: the OSM data, overlays, routes, camera files, flights)
/// and the service's `/v1/map`.
public struct MapOptions: Sendable {
    /// The option specs.
    public static let options: [OptionSpec] = [
        .value("center", valueName: "LAT,LON", help: "Centre of the view, decimal degrees."),
        .value("span", valueName: "DLAT,DLON", help: "Region size with --center: latitude and longitude deltas, degrees (0…180, 0…360)."),
        .value("span-meters", valueName: "METERS", help: "Region size with --center: north-south and east-west extent, metres (1…20,000,000)."),
        .value("camera", valueName: "CAMERA", help: "LAT,LON,DISTANCE_METERS[,HEADING_DEGREES[,PITCH_DEGREES]] or a camera JSON file."),
        .value("size", valueName: "WxH", help: "Image size in points (1…8192 each side).", defaultValue: "1024x768"),
        .value("scale", valueName: "N", help: "Pixels per point, 1…4.", defaultValue: "1"),
        .value("type", valueName: "TYPE", help: "Map type.", defaultValue: "standard",
               allowedValues: MapType.allCases.map(\.rawValue)),
        .value("pin", valueName: "LAT,LON[,TITLE]", help: "A pin with its tip on the coordinate (repeatable).", repeatable: true),
        .flag("coverage", help: "Draw where street imagery exists, from the catalog (see --catalog)."),
        .flag("no-buildings", help: "Leave buildings out."),
        .value("poi-include", valueName: "GROUPS", help: "Only label these place groups (comma-separated: "
               + PlaceGroup.allCases.map(\.rawValue).joined(separator: ", ") + ", or none)."),
        .value("poi-exclude", valueName: "GROUPS", help: "Label every place group except these."),
        .value("language", valueName: "CODE", help: "Label language (OSM code such as sv or en); default the local name."),
    ]

    /// The framing asked for; nil = the caller's default (the data's extent, or a flight).
    public var framing: MapSnapshotOptions.Framing?
    /// Size in points.
    public var size: PointSize
    /// Pixels per point.
    public var scale: Double
    /// The map type.
    public var type: MapType
    /// Pins from `--pin`.
    public var pins: [MapAnnotation]
    /// Which places are labelled.
    public var pointOfInterestFilter: PointOfInterestFilter
    /// `--no-buildings` turns them off.
    public var showsBuildings: Bool
    /// `--coverage`.
    public var showsCoverage: Bool
    /// `--language`.
    public var language: String?

    /// Validates the options. `allowCameraFiles` lets `--camera` name a JSON file (the CLI; never the service).
    /// - Throws: `UsageError` naming the value and what is allowed; `MapSnapshotError` for a camera file.
    public init(_ arguments: ParsedArguments, allowCameraFiles: Bool) throws {
        do { size = try PointSize(parsing: try arguments.requiredString("size"), maximumSide: MapSnapshotOptions.maximumSidePoints) } catch let error as ImagingError {
            throw arguments.error("--size: \(error)", option: "size")
        }
        scale = try arguments.double("scale", in: 1...4) ?? 1
        let typeName = try arguments.requiredString("type")
        guard let type = MapType(rawValue: typeName) else { throw arguments.error("--type '\(typeName)' is unknown", option: "type") }
        self.type = type
        if let cameraText = arguments.string("camera") {
            if arguments.has("center") || arguments.has("span") || arguments.has("span-meters") {
                throw arguments.error("give either --camera or --center with --span, not both", option: "camera")
            }
            framing = .camera(try Self.parseCamera(cameraText, arguments: arguments, allowFiles: allowCameraFiles))
        } else if let center = try arguments.coordinate("center") {
            if let spanText = arguments.string("span") {
                let parts = spanText.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                guard parts.count == 2 else { throw arguments.error("--span '\(spanText)' is not DLAT,DLON in degrees, e.g. 0.01,0.02", option: "span") }
                let dLat = try ParsedArguments.parseDouble(parts[0], what: "--span latitude delta", option: "span", in: 0...180, commandPath: arguments.commandName)
                let dLon = try ParsedArguments.parseDouble(parts[1], what: "--span longitude delta", option: "span", in: 0...360, commandPath: arguments.commandName)
                guard dLat > 0, dLon > 0 else { throw arguments.error("--span \(spanText): both deltas must be more than 0 degrees", option: "span") }
                do {
                    framing = .region(try CoordinateRegion(center: center, span: try CoordinateSpan(latitudeDelta: dLat, longitudeDelta: dLon)))
                } catch { throw arguments.error("--span \(spanText): \(error)", option: "span") }
            } else {
                let meters = try arguments.double("span-meters", in: 1...20_000_000) ?? 1_000
                do {
                    framing = .region(try CoordinateRegion(center: center, latitudinalMeters: meters, longitudinalMeters: meters))
                } catch { throw arguments.error("--span-meters \(meters): \(error)", option: "span-meters") }
            }
        } else if arguments.has("span") || arguments.has("span-meters") {
            throw arguments.error("--span needs --center LAT,LON", option: "span")
        }
        pins = []
        for text in arguments.strings("pin") {
            let parts = text.split(separator: ",", maxSplits: 2, omittingEmptySubsequences: false).map(String.init)
            guard parts.count >= 2 else { throw arguments.error("--pin '\(text)' is not LAT,LON[,TITLE]", option: "pin") }
            let c = try arguments.parseCoordinate("\(parts[0]),\(parts[1])", option: "pin")
            pins.append(MapAnnotation(coordinate: c, title: parts.count > 2 ? parts[2] : nil))
        }
        var filter = PointOfInterestFilter.includingAll
        if let include = arguments.string("poi-include") {
            let set = try Self.groups(include, option: "poi-include", arguments: arguments)
            filter = set.isEmpty ? .excludingAll : .including(set)
        }
        if let exclude = arguments.string("poi-exclude") {
            if arguments.has("poi-include") { throw arguments.error("give either --poi-include or --poi-exclude, not both", option: "poi-exclude") }
            filter = .excluding(try Self.groups(exclude, option: "poi-exclude", arguments: arguments))
        }
        pointOfInterestFilter = filter
        showsBuildings = !arguments.flag("no-buildings")
        showsCoverage = arguments.flag("coverage")
        language = arguments.string("language")
    }

    /// The snapshot options for `framing` (this one's when it has one), with `overlays`, extra pins,
    /// the coverage source and the orthophoto provider the caller loaded.
    public func snapshotOptions(defaultFraming: MapSnapshotOptions.Framing, overlays: [MapOverlay] = [],
                                annotations: [MapAnnotation] = [], coverage: (any PanoramaCoverage)? = nil,
                                orthophoto: (any OrthophotoProvider)? = nil) -> MapSnapshotOptions {
        var options = MapSnapshotOptions(framing: framing ?? defaultFraming, size: size, scale: scale, mapType: type)
        options.pointOfInterestFilter = pointOfInterestFilter
        options.showsBuildings = showsBuildings
        options.overlays = overlays
        options.annotations = pins + annotations
        options.coverage = coverage
        options.orthophotoProvider = orthophoto
        options.labelLanguage = language
        return options
    }

    /// Place groups from a comma-separated list ("none" = the empty set).
    public static func groups(_ text: String, option: String, arguments: ParsedArguments) throws -> Set<PlaceGroup> {
        if text == "none" { return [] }
        var out: Set<PlaceGroup> = []
        for name in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            guard let group = PlaceGroup(rawValue: name) else {
                throw arguments.error("--\(option): unknown place group '\(name)'; allowed "
                                      + PlaceGroup.allCases.map(\.rawValue).joined(separator: ", "), option: option)
            }
            out.insert(group)
        }
        return out
    }

    /// `LAT,LON,DISTANCE_METERS[,HEADING_DEGREES[,PITCH_DEGREES]]`, or (with `allowFiles`) a camera JSON file.
    public static func parseCamera(_ text: String, arguments: ParsedArguments, allowFiles: Bool) throws -> MapCamera {
        if text.lowercased().hasSuffix(".json") {
            guard allowFiles else {
                throw arguments.error("--camera '\(text)': camera files are not accepted here; give LAT,LON,DISTANCE_METERS[,HEADING_DEGREES[,PITCH_DEGREES]]",
                                      option: "camera")
            }
            guard let data = FileManager.default.contents(atPath: text) else {
                throw MapSnapshotError.missingInput(file: text, detail: "no such camera file; write one with --save-camera")
            }
            // snake_case as --save-camera writes it; camelCase (Swift's Codable keys) decodes too.
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            do { return try decoder.decode(MapCamera.self, from: data) } catch {
                throw MapSnapshotError.malformedGeoJSON(file: text, path: "", detail: "not a camera JSON file (\(error))")
            }
        }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        guard (3...5).contains(parts.count) else {
            throw arguments.error("--camera '\(text)' is not LAT,LON,DISTANCE_METERS[,HEADING_DEGREES[,PITCH_DEGREES]] or a .json file", option: "camera")
        }
        let center = try arguments.parseCoordinate("\(parts[0]),\(parts[1])", option: "camera")
        let distance = try ParsedArguments.parseDouble(parts[2], what: "--camera distance", option: "camera", in: MapCamera.distanceRangeMeters,
                                                       commandPath: arguments.commandName)
        let heading = parts.count > 3 ? try ParsedArguments.parseHeading(parts[3], what: "--camera heading", option: "camera",
                                                                         commandPath: arguments.commandName) : 0
        let pitch = parts.count > 4 ? try ParsedArguments.parseDouble(parts[4], what: "--camera pitch", option: "camera", in: MapCamera.pitchRangeDegrees,
                                                                      commandPath: arguments.commandName) : 0
        return try MapCamera(centerCoordinate: center, centerCoordinateDistanceMeters: distance, heading: .degrees(heading),
                             pitch: MapCameraPitch(degrees: pitch))
    }
}
