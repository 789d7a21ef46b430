import Foundation
import Geodesy

/// A question to the catalog: is there imagery near this coordinate?
public struct SceneRequest: Sendable, Hashable {
    /// The point asked about.
    public var coordinate: GeoCoordinate
    /// How far from `coordinate` a panorama may be, metres, in ``radiusRange``. Default 50.
    public var radiusMeters: Double
    /// Nearest or best within the radius (see ``ScenePreference``). Default nearest.
    public var preference: ScenePreference
    /// Which sources are accepted. Default any.
    public var source: SourceFilter
    /// Only panoramas captured at or after this time (to the minute).
    public var capturedAfter: Date?
    /// Only panoramas captured at or before this time (to the minute).
    public var capturedBefore: Date?

    /// The default radius, metres.
    public static let defaultRadiusMeters = 50.0
    /// Allowed radii, metres.
    public static let radiusRange: ClosedRange<Double> = 0...10_000
    /// How far a "no coverage" answer looks for the nearest panorama, metres.
    public static let nearestSearchLimitMeters = 10_000.0

    /// How far from a click on a web map its point may be from a panorama's, points (half a fingertip,
    /// as touch targets are sized): a click on the coverage line or dot, or beside it, finds it.
    public static let clickTolerancePoints = 22.0
    /// The smallest radius a click searches, metres (a consumer GPS fix's error).
    public static let minimumClickRadiusMeters = 15.0
    /// Web-map zooms a click may be made at (`zoom` of `/v1/scene` and `/v1/scenes`).
    public static let zoomRange: ClosedRange<Double> = 0...24

    /// The radius a click on a web map (256-point tiles) at `zoom` searches around `latitude`, metres:
    /// ``clickTolerancePoints`` of the map there, within ``minimumClickRadiusMeters``…10,000 m (17 m at
    /// zoom 17 and 49° N, 10 km below zoom 8; clusters cover the lower zooms: `/v1/coverage/clusters`).
    public static func clickRadiusMeters(zoom: Double, latitude: Double) -> Double {
        let metersPerPoint = 2 * .pi * WGS84.equatorialRadiusMeters * cos(min(89, abs(latitude)) * .pi / 180) / (256 * pow(2, zoom))
        return min(radiusRange.upperBound, max(minimumClickRadiusMeters, clickTolerancePoints * metersPerPoint))
    }

    /// A request with defaults: 50 m, nearest, any source, any date.
    public init(coordinate: GeoCoordinate, radiusMeters: Double = SceneRequest.defaultRadiusMeters,
                preference: ScenePreference = .nearest, source: SourceFilter = .any,
                capturedAfter: Date? = nil, capturedBefore: Date? = nil) {
        self.coordinate = coordinate
        self.radiusMeters = radiusMeters
        self.preference = preference
        self.source = source
        self.capturedAfter = capturedAfter
        self.capturedBefore = capturedBefore
    }

    /// Checks the radius and the date window.
    /// - Throws: `CatalogError.invalidParameter` naming the value and the allowed range.
    public func validate() throws(CatalogError) {
        guard radiusMeters.isFinite, Self.radiusRange.contains(radiusMeters) else {
            throw .invalidParameter(name: "radiusMeters", value: "\(radiusMeters)", allowed: "0…10000 metres")
        }
        if let after = capturedAfter, let before = capturedBefore, after > before {
            throw .invalidParameter(name: "capture date window", value: "\(after)…\(before)",
                                    allowed: "a start no later than the end")
        }
    }

    /// A capture-date bound as the CLI and the service take it: `YYYY-MM-DD` (the start of that UTC day,
    /// or with `endOfDay` its last second) or full ISO 8601; nil when `text` is neither.
    public static func captureDate(parsing text: String, endOfDay: Bool) -> Date? {
        // Checked before ICU sees it (its parser dies of SIGFPE on long digit runs; see PanoramaSidecar).
        guard text.utf8.count == 10 || PanoramaSidecar.isInternetDateTime(text) else { return nil }
        if let date = ISO8601DateFormatter().date(from: text) { return date }
        let day = ISO8601DateFormatter()
        day.formatOptions = [.withFullDate]
        guard text.count == 10, let date = day.date(from: text) else { return nil }
        return endOfDay ? date.addingTimeInterval(86_399) : date
    }

    /// The in-memory index query for this request.
    public var indexQuery: SceneQueryIndex.Query {
        SceneQueryIndex.Query(coordinate: coordinate, radiusMeters: radiusMeters, preference: preference, source: source,
                              capturedAfter: capturedAfter, capturedBefore: capturedBefore)
    }
}
