import Foundation
import Geodesy
import MapData

/// A uniform grid over the graph's geometry segments (cells of ``cellMeters``), in a local
/// equirectangular frame around the network's centre: what snapping a coordinate onto the nearest
/// street looks through.
struct SnappingGrid: Sendable {
    /// Cell side, metres.
    static let cellMeters = 50.0

    let originLatitude: Double
    let originLongitude: Double
    let metersPerDegreeLongitude: Double
    let metersPerDegreeLatitude = 110_574.0
    let minX: Int, minY: Int, columns: Int, rows: Int
    /// Segment start-point indexes per cell (CSR).
    let cellStart: [Int32]
    let cellSegments: [Int32]
    /// The edge of each geometry point (as a segment's start), -1 for an edge's last point.
    let segmentEdge: [Int32]

    var memoryBytes: Int { (cellStart.count + cellSegments.count + segmentEdge.count) * 4 }

    /// A grid read back from its parts (``RoutingGraph/serialized()``).
    init(originLatitude: Double, originLongitude: Double, metersPerDegreeLongitude: Double, minX: Int, minY: Int, columns: Int, rows: Int,
         cellStart: [Int32], cellSegments: [Int32], segmentEdge: [Int32]) {
        self.originLatitude = originLatitude
        self.originLongitude = originLongitude
        self.metersPerDegreeLongitude = metersPerDegreeLongitude
        (self.minX, self.minY, self.columns, self.rows) = (minX, minY, columns, rows)
        self.cellStart = cellStart
        self.cellSegments = cellSegments
        self.segmentEdge = segmentEdge
    }

    init(pointLatitude: [Double], pointLongitude: [Double], edgeGeometryStart: [Int32], boundingBox: OSMBoundingBox?) {
        let lat0 = boundingBox.map { ($0.minLatitude + $0.maxLatitude) / 2 } ?? (pointLatitude.first ?? 0)
        let lon0 = boundingBox.map { ($0.minLongitude + $0.maxLongitude) / 2 } ?? (pointLongitude.first ?? 0)
        originLatitude = lat0
        originLongitude = lon0
        metersPerDegreeLongitude = 111_320 * cos(lat0 * .pi / 180)
        var segmentEdge = [Int32](repeating: -1, count: pointLatitude.count)
        let edgeCount = edgeGeometryStart.count - 1
        for e in 0..<max(edgeCount, 0) {
            for i in Int(edgeGeometryStart[e])..<(Int(edgeGeometryStart[e + 1]) - 1) { segmentEdge[i] = Int32(e) }
        }
        self.segmentEdge = segmentEdge
        // Cell ranges of each segment.
        let kx = metersPerDegreeLongitude, ky = metersPerDegreeLatitude, cell = Self.cellMeters
        func cellX(_ lon: Double) -> Int { Int(((lon - lon0) * kx / cell).rounded(.down)) }
        func cellY(_ lat: Double) -> Int { Int(((lat - lat0) * ky / cell).rounded(.down)) }
        var minX = Int.max, minY = Int.max, maxX = Int.min, maxY = Int.min
        for i in 0..<pointLatitude.count {
            minX = min(minX, cellX(pointLongitude[i])); maxX = max(maxX, cellX(pointLongitude[i]))
            minY = min(minY, cellY(pointLatitude[i])); maxY = max(maxY, cellY(pointLatitude[i]))
        }
        if minX > maxX { minX = 0; maxX = 0; minY = 0; maxY = 0 }
        let columns = maxX - minX + 1, rows = maxY - minY + 1
        self.minX = minX
        self.minY = minY
        self.columns = columns
        self.rows = rows
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        let gridMinX = minX, gridMinY = minY
        func cells(_ i: Int, _ body: (Int) -> Void) {
            let x0 = cellX(pointLongitude[i]), x1 = cellX(pointLongitude[i + 1])
            let y0 = cellY(pointLatitude[i]), y1 = cellY(pointLatitude[i + 1])
            for y in min(y0, y1)...max(y0, y1) {
                for x in min(x0, x1)...max(x0, x1) { body((y - gridMinY) * columns + (x - gridMinX)) }
            }
        }
        for i in 0..<segmentEdge.count where segmentEdge[i] >= 0 { cells(i) { counts[$0 + 1] += 1 } }
        for c in 0..<(columns * rows) { counts[c + 1] += counts[c] }
        var fill = counts
        var cellSegments = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for i in 0..<segmentEdge.count where segmentEdge[i] >= 0 {
            cells(i) { cellSegments[Int(fill[$0])] = Int32(i); fill[$0] += 1 }
        }
        cellStart = counts
        self.cellSegments = cellSegments
    }

    /// Local metres of a coordinate.
    @inline(__always) func xy(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        ((longitude - originLongitude) * metersPerDegreeLongitude, (latitude - originLatitude) * metersPerDegreeLatitude)
    }

    /// Segment start indexes in the cells within `radiusMeters` of the point (a superset).
    func segments(near latitude: Double, _ longitude: Double, radiusMeters: Double) -> [Int32] {
        let p = xy(latitude: latitude, longitude: longitude)
        let x0 = Int(((p.x - radiusMeters) / Self.cellMeters).rounded(.down)), x1 = Int(((p.x + radiusMeters) / Self.cellMeters).rounded(.down))
        let y0 = Int(((p.y - radiusMeters) / Self.cellMeters).rounded(.down)), y1 = Int(((p.y + radiusMeters) / Self.cellMeters).rounded(.down))
        let xa = max(x0, minX), xb = min(x1, minX + columns - 1)
        let ya = max(y0, minY), yb = min(y1, minY + rows - 1)
        guard xa <= xb, ya <= yb else { return [] }
        var found: [Int32] = []
        for y in ya...yb {
            for x in xa...xb {
                let c = (y - minY) * columns + (x - minX)
                for i in Int(cellStart[c])..<Int(cellStart[c + 1]) { found.append(cellSegments[i]) }
            }
        }
        return found
    }
}

/// Where a coordinate lands on the graph: an edge and a distance along it.
public struct SnappedPoint: Sendable, Hashable {
    /// The edge (index into the graph).
    public var edge: Int
    /// Metres from the edge's source along its geometry.
    public var offsetMeters: Double
    /// The point on the edge.
    public var coordinate: GeoCoordinate
    /// From the asked coordinate to ``coordinate``, metres.
    public var distanceMeters: Double
}

extension RoutingGraph {
    /// How far from a street a route may start or end by default, metres.
    public static let defaultSnapRadiusMeters = 250.0

    /// The nearest point on an edge open to `mode` within `radiusMeters`, preferring the mode's main
    /// network: an edge in a small piece the rest cannot reach is taken only when no edge of the largest
    /// piece lies within twice its distance plus 30 m.
    public func snap(_ coordinate: GeoCoordinate, mode: TransportType, radiusMeters: Double = RoutingGraph.defaultSnapRadiusMeters) -> SnappedPoint? {
        let p = grid.xy(latitude: coordinate.latitude, longitude: coordinate.longitude)
        var best: (edge: Int, segment: Int, t: Double, distance: Double)?
        var bestMain: (edge: Int, segment: Int, t: Double, distance: Double)?
        let components = edgeComponent[mode.index], sizes = componentEdgeCount[mode.index]
        let largest = sizes.indices.max { sizes[$0] < sizes[$1] }.map(Int32.init) ?? -1
        // Near first (most points lie on or beside a street); the whole radius only when that finds no
        // edge of the main network close enough. A segment in several cells is measured more than once;
        // the minimum does not mind.
        for searchRadius in radiusMeters > 60 ? [60, radiusMeters] : [radiusMeters] {
        if let found = best, let main = bestMain, main.distance <= 2 * found.distance + 30 { break }
        for segment in grid.segments(near: coordinate.latitude, coordinate.longitude, radiusMeters: searchRadius) {
            let i = Int(segment), e = Int(grid.segmentEdge[i])
            guard e >= 0, allows(edge: e, mode: mode) else { continue }
            let a = grid.xy(latitude: pointLatitude[i], longitude: pointLongitude[i])
            let b = grid.xy(latitude: pointLatitude[i + 1], longitude: pointLongitude[i + 1])
            let dx = b.x - a.x, dy = b.y - a.y
            let lengthSquared = dx * dx + dy * dy
            let t = lengthSquared > 0 ? min(max(((p.x - a.x) * dx + (p.y - a.y) * dy) / lengthSquared, 0), 1) : 0
            let qx = a.x + t * dx - p.x, qy = a.y + t * dy - p.y
            let measured = (qx * qx + qy * qy).squareRoot()
            guard measured <= radiusMeters else { continue }
            // A street underground counts 40 m further: a point on a square is on the square, not in the tunnel below it.
            let distance = measured + (ways[Int(edgeWay[e])].isUnderground ? 40 : 0)
            if best == nil || distance < best!.distance { best = (e, i, t, distance) }
            if components[e] == largest, bestMain == nil || distance < bestMain!.distance { bestMain = (e, i, t, distance) }
        }
        }
        guard var chosen = best else { return nil }
        if let main = bestMain, main.distance <= 2 * chosen.distance + 30 { chosen = main }
        let i = chosen.segment
        let offset = pointOffsetMeters[i] + chosen.t * (pointOffsetMeters[i + 1] - pointOffsetMeters[i])
        let point = (try? GeoCoordinate(latitude: pointLatitude[i] + chosen.t * (pointLatitude[i + 1] - pointLatitude[i]),
                                        normalizingLongitude: pointLongitude[i] + chosen.t * (pointLongitude[i + 1] - pointLongitude[i])))
            ?? coordinate
        return SnappedPoint(edge: chosen.edge, offsetMeters: offset, coordinate: point,
                            distanceMeters: chosen.distance - (way(ofEdge: chosen.edge).isUnderground ? 40 : 0))
    }
}
