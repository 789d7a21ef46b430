/// How a building's height was decided.
public enum BuildingHeightSource: String, Sendable, Hashable, Codable {
    /// From the `height` tag.
    case heightTag
    /// From `building:levels` (+ `roof:levels` or `roof:height`) × `BuildingHeightRules.levelHeightMeters`.
    case levels
    /// No usable tag: the default for the `building` type, `BuildingHeightRules.defaultHeightMeters(forType:)`.
    case defaultForType
}
