import ArgumentParsing
import Foundation
import LookAround
import MapData
import MapSnapshot

/// The options of a street-level snapshot beyond the scene and camera (``SceneSelection``): labels,
/// language, image format. One set for `lookaround snapshot` and the service's `/v1/snapshot`.
public struct SnapshotOptions: Sendable {
    /// `--labels`, `--road-labels`, `--exclude-categories`, `--language`, `--label-scale`, `--format`, `--quality`.
    public static let options: [OptionSpec] = [
        .value("labels", valueName: "KIND", help: "Which labels to draw (places: on their signs; roads: "
               + "street names on the ground).", defaultValue: "all",
               allowedValues: ["all", "places", "roads", "none"]),
        .value("road-labels", valueName: "on|off", help: "Street names painted on the ground (--labels places "
               + "or none turns them off too).", defaultValue: "on", allowedValues: ["on", "off"]),
        .value("exclude-categories", valueName: "GROUPS", help: "Place groups not to label (comma-separated: "
               + PlaceGroup.allCases.map(\.rawValue).joined(separator: ", ") + ")."),
        .value("language", valueName: "CODE", help: "Label language (OSM code such as sv); default the local name."),
        .value("label-scale", valueName: "N", help: "Place labels' pixels per point, 1…4: 2 or 3 for a high-density "
               + "screen (the web viewer sends its device pixel ratio).", defaultValue: "1"),
        .value("format", valueName: "FORMAT", help: "Image format (default: from the file extension, else png).",
               allowedValues: ["png", "jpeg"]),
        .value("quality", valueName: "N", help: "JPEG quality, 1…100.", defaultValue: "90"),
    ]

    /// The scene and the camera.
    public var selection: SceneSelection
    /// What the snapshotter renders.
    public var snapshotter: LookAroundSnapshotter.Options
    /// `--format` when given (`png` or `jpeg`), else nil (the caller decides, e.g. from a file name).
    public var format: String?
    /// JPEG quality, 1…100.
    public var quality: Int
    /// `--language`.
    public var language: String?

    /// Validates every option (usage errors naming the value and the allowed range).
    public init(_ arguments: ParsedArguments) throws {
        selection = try SceneSelection(arguments)
        let labels = try arguments.requiredString("labels")
        let roadLabels = try arguments.requiredString("road-labels") == "on" && (labels == "all" || labels == "roads")
        var filter = PointOfInterestFilter.includingAll
        if labels == "roads" || labels == "none" {
            filter = .excludingAll
        } else if let exclude = arguments.string("exclude-categories") {
            filter = .excluding(try MapOptions.groups(exclude, option: "exclude-categories", arguments: arguments))
        }
        format = arguments.string("format")
        quality = try arguments.int("quality", in: 1...100) ?? 90
        language = arguments.string("language")
        snapshotter = LookAroundSnapshotter.Options(size: selection.size, camera: selection.camera, pointOfInterestFilter: filter,
                                                    showsRoadLabels: roadLabels, language: language,
                                                    labelScale: try arguments.double("label-scale", in: 1...4) ?? 1)
    }
}
