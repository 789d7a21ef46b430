import Foundation
import Geodesy

/// The coverage layer's clusters at low zoom (as MapKit clusters annotations and Street View shows blue
/// dots): below ``maximumZoom`` the panoramas of each cell of a fixed grid become one counted circle, so a
/// country-wide view shows where imagery is and how much, and every circle is big enough to click.
///
/// The grid is the world's, not the picture's: at zoom z, cells ``cellPoints`` wide (a quarter of a
/// 256-point tile) in Web Mercator, so every tile, every map snapshot and the `/v1/coverage/clusters`
/// route agree on the clusters, whatever the picture's edges. A cluster sits at the mean position of its
/// panoramas (inside its cell) and counts them; a cell of one panorama is a lone dot.
public struct CoverageCluster: Sendable, Hashable {
    /// The mean position of the members.
    public var center: GeoCoordinate
    /// Panoramas in the cluster.
    public var count: Int
    /// The box around the members, degrees.
    public var south: Double, north: Double, west: Double, east: Double
    /// Indices of the members in the list clustered, in its order.
    public var members: [Int]

    /// The whole web-map zoom that shows the members apart (the box filling at most half of a 512-point
    /// view, and at least one level deeper than `zoom`, so a click always zooms in), at most 18.
    public func zoomToShowMembers(from zoom: Int) -> Int {
        let bounds = CoverageBoxFit(south: south, north: north, west: west, east: east)
        return max(min(zoom + 1, 18), min(18, bounds.fittingZoom(points: 256)))
    }
}

/// Clustering of coverage positions on the world grid (see ``CoverageCluster``).
public enum CoverageClustering {
    /// Clusters are drawn below this zoom; from it on, lines along the sequences and dots.
    public static let maximumZoom = 14
    /// A grid cell's side, points at the zoom drawn (256-point tiles hold 4 × 4 cells).
    public static let cellPoints = 64.0

    /// The side of a cell at `zoom`, map points.
    public static func cellMapPoints(zoom: Int) -> Double {
        MapSize.world.width / (256 / cellPoints) / pow(2, Double(zoom))
    }

    /// The map rect made of whole cells at `zoom` that covers `rect`: what to ask the coverage for, so
    /// each cell's cluster is made of all its panoramas wherever the picture's edge falls.
    public static func cellAligned(_ rect: MapRect, zoom: Int) -> MapRect {
        let cell = cellMapPoints(zoom: zoom)
        let minX = (rect.origin.x / cell).rounded(.down) * cell, minY = (rect.origin.y / cell).rounded(.down) * cell
        let maxX = ((rect.origin.x + rect.size.width) / cell).rounded(.up) * cell
        let maxY = ((rect.origin.y + rect.size.height) / cell).rounded(.up) * cell
        return MapRect(x: minX, y: max(0, minY), width: maxX - minX, height: min(MapSize.world.height, maxY) - max(0, minY))
    }

    /// The clusters of `coordinates` at `zoom` (a whole level: the grid of that level), ordered by cell
    /// (north to south, then west to east). O(n).
    public static func clusters(_ coordinates: [GeoCoordinate], zoom: Int) -> [CoverageCluster] {
        let cell = cellMapPoints(zoom: zoom)
        struct Sum { var x = 0.0, y = 0.0, south = 90.0, north = -90.0, west = 180.0, east = -180.0, members: [Int] = [] }
        var cells: [SIMD2<Int64>: Sum] = [:]
        for (i, c) in coordinates.enumerated() {
            let p = MapPoint(c)
            let key = SIMD2(Int64((p.x / cell).rounded(.down)), Int64((p.y / cell).rounded(.down)))
            var sum = cells[key] ?? Sum()
            sum.x += p.x
            sum.y += p.y
            sum.south = min(sum.south, c.latitude)
            sum.north = max(sum.north, c.latitude)
            sum.west = min(sum.west, c.longitude)
            sum.east = max(sum.east, c.longitude)
            sum.members.append(i)
            cells[key] = sum
        }
        return cells.sorted { ($0.key.y, $0.key.x) < ($1.key.y, $1.key.x) }.compactMap { _, sum in
            let n = Double(sum.members.count)
            guard let center = try? MapPoint(x: sum.x / n, y: sum.y / n).coordinate else { return nil }
            return CoverageCluster(center: center, count: sum.members.count, south: sum.south, north: sum.north, west: sum.west,
                                   east: sum.east, members: sum.members)
        }
    }

    /// The radius a cluster of `count` panoramas is drawn with, points: a lone panorama's dot is 4; a
    /// counted circle grows with the digits, from 11.
    public static func radiusPoints(count: Int) -> Double {
        count <= 1 ? 4 : 11 + 2.5 * log10(Double(count))
    }
}

/// The zoom at which a box fills a view (the box-fitting half of ``CoverageCluster/zoomToShowMembers(from:)``).
struct CoverageBoxFit {
    var south: Double, north: Double, west: Double, east: Double

    /// The largest zoom up to 18 at which the box fits `points` × `points`.
    func fittingZoom(points: Double) -> Int {
        let a = MapPoint(GeoCoordinate(clampedLatitude: north, longitude: west))
        let b = MapPoint(GeoCoordinate(clampedLatitude: south, longitude: east))
        let spanX = abs(b.x - a.x) / MapSize.world.width, spanY = abs(b.y - a.y) / MapSize.world.height
        var zoom = 18
        while zoom > 0 && max(spanX, spanY) * 256 * pow(2, Double(zoom)) > points { zoom -= 1 }
        return zoom
    }
}

private extension GeoCoordinate {
    /// A coordinate from values already known to be in range (a cluster's box corners).
    init(clampedLatitude latitude: Double, longitude: Double) {
        do { self = try GeoCoordinate(latitude: min(90, max(-90, latitude)), normalizingLongitude: longitude) } catch {
            preconditionFailure("\(latitude), \(longitude): \(error)")
        }
    }
}
