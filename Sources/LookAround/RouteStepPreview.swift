import Catalog
import Foundation
import Geodesy

/// A street-level preview of one step of a route: the Look Around scene nearest before the maneuver,
/// and the heading that looks from it along the street the step turns into. Render it with
/// ``LookAroundSnapshotter`` (``snapshotOptions(size:)`` gives the camera).
public struct RouteStepPreview: Sendable, Hashable, Codable {
    /// The step (index into ``Route/steps``).
    public var stepIndex: Int
    /// The panorama.
    public var scene: LookAroundScene
    /// Where the view looks, degrees clockwise from north: along the new street (the maneuver's bearing
    /// after) from a panorama within ``RouteStepPreview/alongStreetMeters`` of the maneuver; from one
    /// further off, towards the point ``RouteStepPreview/lookAheadMeters`` along the route after it.
    public var headingDegrees: Double
    /// From the panorama to the maneuver, metres.
    public var distanceToManeuverMeters: Double

    /// How far before the maneuver the panorama is looked for, metres along the route.
    public static let leadMeters = 12.0
    /// How far after the maneuver the view aims, metres along the route.
    public static let lookAheadMeters = 60.0
    /// Nearer the maneuver than this (metres), a preview looks exactly along the new street.
    public static let alongStreetMeters = 20.0

    /// Snapshot options with this preview's camera (pitch 0, 90° field of view) at `size`.
    public func snapshotOptions(size: PixelSize = PixelSize(width: 640, height: 360), language: String? = nil) -> LookAroundSnapshotter.Options {
        var options = LookAroundSnapshotter.Options(size: size, camera: LookAroundSnapshotter.Camera(headingDegrees: headingDegrees))
        options.language = language
        return options
    }
}

extension Route {
    /// The preview of every step but the last (depart and each maneuver; the arrival's looks at the
    /// destination), nil where no panorama lies within `radiusMeters` of the point
    /// ``RouteStepPreview/leadMeters`` before the maneuver.
    /// - Throws: `CatalogError` when the catalog cannot be read.
    public func stepPreviews(catalog: Catalog? = nil, radiusMeters: Double = 40) async throws -> [RouteStepPreview?] {
        try stepPreviewsNow(catalog: catalog, radiusMeters: radiusMeters)
    }

    /// ``stepPreviews(catalog:radiusMeters:)`` on the calling thread.
    public func stepPreviewsNow(catalog: Catalog? = nil, radiusMeters: Double = 40) throws -> [RouteStepPreview?] {
        let catalog = try catalog ?? LookAroundCatalog.shared()
        guard catalog.panoramaCount > 0 else { return steps.map { _ in nil } }
        return try steps.indices.map { index throws -> RouteStepPreview? in
            let step = steps[index]
            let j = step.maneuver.coordinateRange.lowerBound
            let isArrival = step.maneuver.kind == .arrive
            let before = isArrival ? polyline[j] : Self.point(along: polyline, from: j, meters: -RouteStepPreview.leadMeters)
            let ahead = isArrival ? polyline[j] : Self.point(along: polyline, from: j, meters: RouteStepPreview.lookAheadMeters)
            let answer = try catalog.scene(for: SceneRequest(coordinate: before, radiusMeters: radiusMeters))
            guard let match = answer.scene else { return nil }
            let panorama = try GeoCoordinate(latitude: match.latitude, longitude: match.longitude)
            let toManeuver = panorama.distanceMeters(to: step.coordinate)
            var heading = step.maneuver.bearingAfterDegrees
            if isArrival {
                heading = panorama.distanceMeters(to: ahead) > 3 ? panorama.initialAzimuth(to: ahead).degrees : step.maneuver.bearingBeforeDegrees
            } else if toManeuver > RouteStepPreview.alongStreetMeters, panorama.distanceMeters(to: ahead) > 5 {
                heading = panorama.initialAzimuth(to: ahead).degrees
            }
            heading = (heading.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360)
            return RouteStepPreview(stepIndex: index, scene: LookAroundScene(match: match), headingDegrees: heading,
                                    distanceToManeuverMeters: toManeuver)
        }
    }

    /// The point `meters` along the line from coordinate `index` (negative: backwards), clamped to its ends.
    static func point(along line: [GeoCoordinate], from index: Int, meters: Double) -> GeoCoordinate {
        var remaining = abs(meters)
        var i = index
        let step = meters < 0 ? -1 : 1
        while remaining > 0, line.indices.contains(i + step) {
            let a = line[i], b = line[i + step]
            let d = a.distanceMeters(to: b)
            if d >= remaining, d > 0 {
                let t = remaining / d
                return (try? GeoCoordinate(latitude: a.latitude + t * (b.latitude - a.latitude),
                                           normalizingLongitude: a.longitude + t * (b.longitude - a.longitude))) ?? b
            }
            remaining -= d
            i += step
        }
        return line[i]
    }
}
