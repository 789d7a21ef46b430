import ArgumentParsing
import Catalog
import Foundation
import Geodesy
import LookAround

/// `walk --from --to` follows the street route (walking, over the catalog's stored graph, or the `--osm`
/// extract when given or when the catalog has none) and uses the
/// panoramas along it: the route is sampled every few metres and the samples with a panorama within
/// ``panoramaRadiusMeters`` become the line the walk follows.
extension WalkCommand {
    static let panoramaRadiusMeters = 25.0
    static let sampleSpacingMeters = 8.0

    /// The part of the street route that has panoramas, or nil when there is no extract to route over
    /// (or no street route, or fewer than two samples with a panorama): the walk then takes the
    /// shortest path over the panorama links, as before.
    static func streetLine(from: GeoCoordinate, to: GeoCoordinate, arguments: ParsedArguments, catalog: Catalog) -> [GeoCoordinate]? {
        let stored = arguments.has("osm") ? nil : try? DirectionsNetwork.shared(catalog: catalog)
        guard let graph = stored ?? {
                  guard let osm = arguments.string("osm"), osm != "none", FileManager.default.fileExists(atPath: osm) else { return nil }
                  return try? DirectionsNetwork.shared(osmPath: osm)
              }(),
              let route = try? graph.route(from: from, to: to, mode: .walking) else { return nil }
        var samples: [GeoCoordinate] = []
        let line = route.coordinates
        for i in 0..<(line.count - 1) {
            let length = line[i].distanceMeters(to: line[i + 1])
            let count = max(1, Int((length / sampleSpacingMeters).rounded(.up)))
            for k in 0..<count {
                let t = Double(k) / Double(count)
                if let point = try? GeoCoordinate(latitude: line[i].latitude + t * (line[i + 1].latitude - line[i].latitude),
                                                  normalizingLongitude: line[i].longitude + t * (line[i + 1].longitude - line[i].longitude)) {
                    samples.append(point)
                }
            }
        }
        samples.append(line[line.count - 1])
        let covered = samples.filter {
            (try? catalog.scene(for: SceneRequest(coordinate: $0, radiusMeters: panoramaRadiusMeters)).found) == true
        }
        return covered.count >= 2 ? covered : nil
    }
}
