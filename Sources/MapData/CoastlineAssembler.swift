import Foundation
import Geodesy

/// Builds the sea polygons of ``WaterModel`` from coastline pieces and the extract's bounds (see there
/// for the rules). Internal: ``WaterModel/init(coastlines:areas:bounds:)`` is the API.
enum CoastlineAssembler {
    /// Coastline ways joined end to end, in coastline direction (land on the left).
    struct Chain {
        var points: [OSMCoordinate]
        var ways: [Int64]
        var isClosed: Bool { points.count >= 4 && points.first == points.last }
        var wayList: String { ways.map(String.init).joined(separator: ", ") }
    }

    static func sea(from coastlines: [Coastline], bounds: OSMBoundingBox,
                    diagnostics: inout [MapDataDiagnostic]) -> [OSMPolygon] {
        guard !coastlines.isEmpty else { return [] }
        let firstWay = OSMElementReference(.way, coastlines[0].source.id)
        var chains = coastlines.map { Chain(points: $0.points, ways: [$0.source.id]) }
        chains = join(chains)
        chains = repairReversed(chains, diagnostics: &diagnostics)
        chains = bridgeGaps(chains, bounds: bounds, diagnostics: &diagnostics)

        var islands: [[OSMCoordinate]] = [], seaRings: [[OSMCoordinate]] = []
        var open: [Chain] = []
        for chain in chains {
            if chain.isClosed {
                // Land on the left: a counter-clockwise ring encloses land, a clockwise one water.
                if OSMPolygon.doubleSignedArea(chain.points) > 0 { islands.append(chain.points) } else { seaRings.append(chain.points) }
            } else if chain.points.count >= 2 {
                open.append(chain)
            }
        }
        seaRings += closeAlongBounds(open, bounds: bounds, diagnostics: &diagnostics)
        if seaRings.isEmpty && !islands.isEmpty {
            // Only islands: everything else in the extract is sea.
            seaRings = [rectangle(bounds)]
        }
        var polygons = seaRings.map { OSMPolygon(outer: $0) }
        for island in islands {
            if let index = polygons.firstIndex(where: { OSMPolygon.ring($0.outer, contains: island[0]) }) {
                polygons[index].inners.append(OSMPolygon.oriented(island, counterClockwise: false))
            } else {
                diagnostics.append(MapDataDiagnostic(.brokenCoastline, firstWay,
                    "an island ring of \(island.count) points lies in no sea polygon; dropped"))
            }
        }
        return polygons
    }

    /// Joins chains whose end is another chain's start (the same coordinate), keeping direction.
    static func join(_ input: [Chain]) -> [Chain] {
        var chains = input
        var alive = [Bool](repeating: true, count: chains.count)
        var byStart: [OSMCoordinate: Int] = [:]
        for (i, chain) in chains.enumerated() where !chain.isClosed {
            if let first = chain.points.first, byStart[first] == nil { byStart[first] = i }
        }
        for i in chains.indices where alive[i] {
            while !chains[i].isClosed, let last = chains[i].points.last, let j = byStart[last], j != i, alive[j] {
                chains[i].points += chains[j].points.dropFirst()
                chains[i].ways += chains[j].ways
                alive[j] = false
                byStart[last] = nil
            }
        }
        return chains.indices.filter { alive[$0] }.map { chains[$0] }
    }

    /// A chain whose end meets another chain's end (rather than its start) runs against the coastline
    /// direction: it is reversed, reported, and the chains are joined again.
    static func repairReversed(_ input: [Chain], diagnostics: inout [MapDataDiagnostic]) -> [Chain] {
        var chains = input
        var starts = Set(chains.filter { !$0.isClosed }.compactMap(\.points.first))
        var reversedAny = false
        var endOwner: [OSMCoordinate: Int] = [:]
        for (i, chain) in chains.enumerated() where !chain.isClosed {
            guard let end = chain.points.last else { continue }
            if let other = endOwner[end], !starts.contains(end) {
                // Two chains end at one point: reverse the one with fewer points (the later one on a tie).
                let victim = chains[other].points.count < chain.points.count ? other : i
                diagnostics.append(MapDataDiagnostic(.brokenCoastline, OSMElementReference(.way, chains[victim].ways[0]),
                    "coastline way(s) \(chains[victim].wayList) run against the coastline direction (land on the left); reversed"))
                chains[victim].points.reverse()
                chains[victim].ways.reverse()
                if let s = chains[victim].points.first { starts.insert(s) }
                reversedAny = true
            } else {
                endOwner[end] = i
            }
        }
        return reversedAny ? join(chains) : chains
    }

    /// Metres between two coordinates (local equirectangular approximation: city distances).
    static func meters(_ a: OSMCoordinate, _ b: OSMCoordinate) -> Double {
        let metersPerDegree = WGS84.metersPerDegreeOfArc
        let dy = (a.latitude - b.latitude) * metersPerDegree
        let dx = (a.longitude - b.longitude) * metersPerDegree * cos((a.latitude + b.latitude) / 2 * .pi / 180)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// Joins the end of a chain that stops inside the extract to the nearest start that does too,
    /// when they are at most ``WaterModel/maximumBridgedGapMeters`` apart.
    static func bridgeGaps(_ input: [Chain], bounds: OSMBoundingBox, diagnostics: inout [MapDataDiagnostic]) -> [Chain] {
        var chains = input
        func inside(_ p: OSMCoordinate) -> Bool { project(p, bounds).distanceMeters > WaterModel.edgeToleranceMeters }
        var bridged = true
        while bridged {
            bridged = false
            outer: for i in chains.indices where !chains[i].isClosed {
                guard let end = chains[i].points.last, inside(end) else { continue }
                var best = -1, bestMeters = WaterModel.maximumBridgedGapMeters
                for j in chains.indices where !chains[j].isClosed {
                    guard let start = chains[j].points.first, inside(start) else { continue }
                    let d = meters(end, start)
                    if d <= bestMeters { best = j; bestMeters = d }
                }
                guard best >= 0 else { continue }
                diagnostics.append(MapDataDiagnostic(.brokenCoastline, OSMElementReference(.way, chains[i].ways.last ?? 0),
                    String(format: "gap of %.0f m between coastline way(s) %@ and %@; bridged with a straight line",
                           bestMeters, chains[i].wayList, chains[best].wayList)))
                if best == i {
                    chains[i].points.append(chains[i].points[0])
                } else {
                    chains[i].points += chains[best].points
                    chains[i].ways += chains[best].ways
                    chains.remove(at: best)
                }
                bridged = true
                break outer
            }
        }
        return chains
    }

    /// The nearest point on the bounds, its clockwise perimeter position (degrees from the north-west
    /// corner: east along the north edge, south along the east edge, west along the south edge, north
    /// along the west edge) and its distance in metres.
    static func project(_ p: OSMCoordinate, _ b: OSMBoundingBox) -> (point: OSMCoordinate, position: Double, distanceMeters: Double) {
        let w = b.maxLongitude - b.minLongitude, h = b.maxLatitude - b.minLatitude
        let lat = min(max(p.latitude, b.minLatitude), b.maxLatitude), lon = min(max(p.longitude, b.minLongitude), b.maxLongitude)
        let metersPerDegreeLatitude = WGS84.metersPerDegreeOfArc, metersPerDegreeLongitude = WGS84.metersPerDegreeOfArc * cos(lat * .pi / 180)
        let north = (b.maxLatitude - lat) * metersPerDegreeLatitude, south = (lat - b.minLatitude) * metersPerDegreeLatitude
        let east = (b.maxLongitude - lon) * metersPerDegreeLongitude, west = (lon - b.minLongitude) * metersPerDegreeLongitude
        let nearest = min(north, south, east, west)
        if nearest == north { return (OSMCoordinate(latitude: b.maxLatitude, longitude: lon), lon - b.minLongitude, north) }
        if nearest == east { return (OSMCoordinate(latitude: lat, longitude: b.maxLongitude), w + (b.maxLatitude - lat), east) }
        if nearest == south { return (OSMCoordinate(latitude: b.minLatitude, longitude: lon), w + h + (b.maxLongitude - lon), south) }
        return (OSMCoordinate(latitude: lat, longitude: b.minLongitude), 2 * w + h + (lat - b.minLatitude), west)
    }

    static func rectangle(_ b: OSMBoundingBox) -> [OSMCoordinate] {
        [OSMCoordinate(latitude: b.maxLatitude, longitude: b.minLongitude), OSMCoordinate(latitude: b.maxLatitude, longitude: b.maxLongitude),
         OSMCoordinate(latitude: b.minLatitude, longitude: b.maxLongitude), OSMCoordinate(latitude: b.minLatitude, longitude: b.minLongitude),
         OSMCoordinate(latitude: b.maxLatitude, longitude: b.minLongitude)]
    }

    /// Closes open chains into sea rings: from each chain's end, clockwise along the bounds (the sea
    /// stays on the right) to the next chain's start, until the ring is back at its first chain.
    static func closeAlongBounds(_ chains: [Chain], bounds b: OSMBoundingBox,
                                 diagnostics: inout [MapDataDiagnostic]) -> [[OSMCoordinate]] {
        guard !chains.isEmpty else { return [] }
        let w = b.maxLongitude - b.minLongitude, h = b.maxLatitude - b.minLatitude, perimeter = 2 * (w + h)
        guard perimeter > 0 else { return [] }
        let corners: [(position: Double, point: OSMCoordinate)] = [
            (0, OSMCoordinate(latitude: b.maxLatitude, longitude: b.minLongitude)),
            (w, OSMCoordinate(latitude: b.maxLatitude, longitude: b.maxLongitude)),
            (w + h, OSMCoordinate(latitude: b.minLatitude, longitude: b.maxLongitude)),
            (2 * w + h, OSMCoordinate(latitude: b.minLatitude, longitude: b.minLongitude))]
        func forward(_ from: Double, _ to: Double) -> Double {
            let d = (to - from).truncatingRemainder(dividingBy: perimeter)
            return d < 0 ? d + perimeter : d
        }
        let starts = chains.map { project($0.points[0], b) }
        let ends = chains.map { project($0.points[$0.points.count - 1], b) }
        for (i, chain) in chains.enumerated() {
            for (which, p) in [("starts", starts[i]), ("ends", ends[i])] where p.distanceMeters > WaterModel.edgeToleranceMeters {
                diagnostics.append(MapDataDiagnostic(.brokenCoastline, OSMElementReference(.way, chain.ways[0]),
                    String(format: "coastline of way(s) %@ %@ %.0f m inside the extract's bounds; closed along the bounds",
                           chain.wayList, which, p.distanceMeters)))
            }
        }
        var used = [Bool](repeating: false, count: chains.count)
        var rings: [[OSMCoordinate]] = []
        func append(_ p: OSMCoordinate, to ring: inout [OSMCoordinate]) { if ring.last != p { ring.append(p) } }
        for first in chains.indices where !used[first] {
            used[first] = true
            var ring: [OSMCoordinate] = []
            var current = first
            while true {
                append(starts[current].point, to: &ring)
                for p in chains[current].points { append(p, to: &ring) }
                append(ends[current].point, to: &ring)
                let from = ends[current].position
                var next = first, nextDistance = forward(from, starts[first].position)
                for k in chains.indices where !used[k] {
                    let d = forward(from, starts[k].position)
                    if d < nextDistance { next = k; nextDistance = d }
                }
                for corner in corners.sorted(by: { forward(from, $0.position) < forward(from, $1.position) }) {
                    let d = forward(from, corner.position)
                    if d > 0 && d < nextDistance { append(corner.point, to: &ring) }
                }
                if next == first { break }
                used[next] = true
                current = next
            }
            append(ring[0], to: &ring)
            if ring.count >= 4 { rings.append(ring) }
        }
        return rings
    }
}
