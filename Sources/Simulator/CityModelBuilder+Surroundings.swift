import Foundation
import Geodesy
import MapData

/// The city around the streets: the sea and inland water from MapData's one water model, greenery
/// scattered in green areas, hedges, tram rails and street furniture from OSM nodes.
extension CityModelBuilder {
    // MARK: Water

    /// The sea and the inland water of `water` (the model MapSnapshot draws too) as water surfaces.
    mutating func addWater(_ water: WaterModel) {
        let record = SurfaceRecord(normal: Vec3(0, 0, 1), material: .water, albedo: ColorPalette.linear(18, 40, 52))
        for (index, polygon) in (water.sea + water.inlandWater).enumerated() {
            var outer = ring(polygon.outer)
            if index < water.sea.count, let bounds = water.bounds { outer = extendingSea(polygon.outer, beyond: bounds) }
            // The sea round a quay has its vertices far off (along the coastline's ends and the extract's
            // bounds): it is kept where it overlaps the extent, not only where a vertex lies in it.
            guard outer.count >= 3, overlapsExtent(outer) else { continue }
            let holes = polygon.inners.map(ring).filter { $0.count >= 3 }
            waterRings.append((outer, holes, Self.box(outer)))
            scene.addPolygon(outer: outer, holes: holes, z: Self.waterZ, record)
        }
    }

    /// Where the sea was closed along the extract's bounds, it goes on beyond them: the extract does not
    /// say where the far shore is, and grey ground to the horizon reads as land. Vertices on a bound move
    /// ``seaReachMeters`` outwards (both ways at a corner); the rest of the ring keeps its shape.
    func extendingSea(_ coordinates: [OSMCoordinate], beyond bounds: OSMBoundingBox) -> [Point] {
        let tolerance = 1e-7
        var points: [Point] = []
        for c in coordinates {
            var p = project(c)
            if abs(c.longitude - bounds.minLongitude) < tolerance { p.x -= Self.seaReachMeters }
            if abs(c.longitude - bounds.maxLongitude) < tolerance { p.x += Self.seaReachMeters }
            if abs(c.latitude - bounds.minLatitude) < tolerance { p.y -= Self.seaReachMeters }
            if abs(c.latitude - bounds.maxLatitude) < tolerance { p.y += Self.seaReachMeters }
            if let last = points.last, abs(last.x - p.x) < 1e-4 && abs(last.y - p.y) < 1e-4 { continue }
            points.append(p)
        }
        if points.count > 1, let f = points.first, let l = points.last, abs(f.x - l.x) < 1e-6 && abs(f.y - l.y) < 1e-6 {
            points.removeLast()
        }
        return points
    }

    /// How far the sea reaches past the extract's bounds, metres (the horizon from 2.5 m is 5.6 km away;
    /// past 3 km the water and the haze below the horizon are one colour at panorama resolution).
    static let seaReachMeters = 3_000.0

    static func box(_ ring: [Point]) -> (Double, Double, Double, Double) {
        var lx = Double.infinity, hx = -Double.infinity, ly = Double.infinity, hy = -Double.infinity
        for p in ring { lx = min(lx, p.x); hx = max(hx, p.x); ly = min(ly, p.y); hy = max(hy, p.y) }
        return (lx, ly, hx, hy)
    }

    func ringContains(_ ring: [Point], _ p: Point) -> Bool { FootprintIndex.ringContains(ring, p) }

    func isWater(_ p: Point) -> Bool {
        for (outer, holes, b) in waterRings where p.x >= b.0 && p.x <= b.2 && p.y >= b.1 && p.y <= b.3 {
            if ringContains(outer, p) && !holes.contains(where: { ringContains($0, p) }) { return true }
        }
        return false
    }

    // MARK: Greenery

    /// Trees and shrubs scattered over parks, gardens, grass, meadows, woods, scrub, residential land and
    /// orchards (none on fields, sand, yards or car parks), on a jittered
    /// grid seeded by the area's OSM id: none on streets and paths, in buildings, in water, or within
    /// 9 m of a mapped tree (where trees are mapped one by one, the mapper's trees stand alone).
    ///
    /// Which trees are conifers (``coniferShare(of:)``): as the area's tags say (`leaf_type`, `wood`,
    /// `genus`, `species`: ``LeafType``); else, in a wood (`natural=wood`, `landuse=forest`), the share
    /// the latitude's forests most likely have (``LeafType/likelyConiferShare(latitude:)``: 0.8 at
    /// 60° N); in parks, gardens, grass, meadows and yards, whose trees are mostly planted broadleaves,
    /// a quarter of that; orchards none.
    mutating func addGreenery(_ areas: [AreaFeature]) {
        for area in areas {
            // (grid spacing m, share of cells with a tree, share with a shrub)
            let density: (spacing: Double, trees: Double, shrubs: Double)
            switch area.kind {
            case .park: density = (13, 0.45, 0.25)
            case .wood: density = (7, 0.8, 0.15)
            case .scrub: density = (4, 0.05, 0.7)
            case .grass: density = (15, 0.18, 0.22)
            case .meadow: density = (16, 0.03, 0.18)
            case .residential: density = (14, 0.22, 0.3)    // garden trees and shrubs between the houses
            case .orchard: density = (6, 0.7, 0.05)
            case .square, .pavedArea, .water, .farmland, .sand, .industrial, .parking: continue
            }
            let seed = Self.seed(area.source)
            let conifers = coniferShare(of: area)
            for polygon in area.polygons {
                let outer = ring(polygon.outer)
                guard outer.count >= 3, overlapsExtent(outer) else { continue }
                let holes = polygon.inners.map(ring).filter { $0.count >= 3 }
                let b = Self.box(outer)
                let s = density.spacing
                let i0 = Int((b.0 / s).rounded(.down)), i1 = Int((b.2 / s).rounded(.up))
                let j0 = Int((b.1 / s).rounded(.down)), j1 = Int((b.3 / s).rounded(.up))
                guard (i1 - i0) * (j1 - j0) < 400_000 else { continue }   // a whole-region forest: not around streets
                for i in i0...i1 {
                    for j in j0...j1 {
                        let h = PatternNoise.hash(Int32(truncatingIfNeeded: i), Int32(truncatingIfNeeded: j), seed)
                        let jx = Double(h & 0xFF) / 256, jy = Double((h >> 8) & 0xFF) / 256
                        let choice = Double((h >> 16) & 0xFFFF) / 65_536
                        let isTree = choice < density.trees
                        guard isTree || choice < density.trees + density.shrubs else { continue }
                        let p = ((Double(i) + 0.15 + 0.7 * jx) * s, (Double(j) + 0.15 + 0.7 * jy) * s)
                        guard inside(p), ringContains(outer, p), !holes.contains(where: { ringContains($0, p) }) else { continue }
                        let clearance = isTree ? 2.5 : 1.2
                        if footprints.isInside(p, clearance: clearance) || roadSegments.covers(p, clearanceMeters: clearance)
                            || isWater(p) || mappedTrees.nearest(to: p, radiusMeters: 9) != nil
                            || mappedFurniture.nearest(to: p, radiusMeters: isTree ? 1.5 : 2.5) != nil { continue }
                        if isTree {
                            addTree(at: p, heightMeters: nil, seed: h, conifer: Self.isConifer(seed: h, coniferShare: conifers))
                        } else {
                            addShrub(at: p, radius: 0.7 + 0.8 * Double((h >> 4) & 15) / 15, seed: h)
                        }
                    }
                }
            }
        }
    }

    /// Marks where mapped street furniture stands, so that no plant scattered over a park grows through
    /// a bench or a lamp post. Call before ``addGreenery(_:)``.
    mutating func reserveFurniture(_ furniture: [StreetFurniture]) {
        for item in furniture {
            let p = project(item.position)
            guard inside(p) else { continue }
            mappedFurniture.add([p, (p.x + 1e-3, p.y)], halfWidthMeters: 0, carriesTraffic: false)
        }
    }

    /// The share of conifers among the trees scattered over `area` (see ``addGreenery(_:)``).
    func coniferShare(of area: AreaFeature) -> Double {
        if let tagged = Self.coniferShare(area.leafType) { return tagged }
        let forest = LeafType.likelyConiferShare(latitude: frame.origin.coordinate.latitude)
        switch area.kind {
        case .wood: return forest
        case .orchard: return 0
        default: return forest / 4
        }
    }

    /// A shrub: a squat ellipsoid of foliage sitting on the ground (a copy of one unit sphere, scaled
    /// and tinted).
    mutating func addShrub(at p: Point, radius: Double, seed: UInt32) {
        let shrub = scene.prototype("shrub") { scene in
            scene.addEllipsoid(center: .zero, radiusX: 1, radiusY: 1, radiusZ: 1, rings: 4, segments: 8,
                               SurfaceRecord(normal: .zero, material: .shrub, albedo: .zero))
        }
        let green = ColorPalette.linear(52 + Int(seed >> 12 & 15), 84 + Int(seed >> 20 & 31), 36)
        scene.addInstance(of: shrub, InstanceTransform(scaleX: radius, scaleY: radius * 0.9, scaleZ: radius * 0.7,
                                                       translation: (p.x, p.y, radius * 0.55)), tint: (green, seed))
    }

    /// Hedges: a clipped box of foliage 0.9 m wide along each way, `height` or 1.3 m tall.
    mutating func addHedges(_ hedges: [Hedge]) {
        for hedge in hedges {
            let line = hedge.points.map(project)
            guard line.count >= 2, crossesExtent(line) else { continue }
            let height = Float(min(max(hedge.heightMeters ?? 1.3, 0.4), 4))
            let record = SurfaceRecord(normal: .zero, material: .shrub, albedo: ColorPalette.linear(50, 88, 38),
                                       style: Self.seed(hedge.source))
            SceneBuilder.forEachSegment(of: line) { p, q, dx, dy, l in
                // Overlap the joints by half the width so corners are closed.
                let ux = dx / l, uy = dy / l, w = 0.45
                let a = (p.x - ux * w, p.y - uy * w), b = (q.x + ux * w, q.y + uy * w)
                scene.addOrientedBox(from: a, to: b, halfWidth: w, bottom: 0, top: height, record)
            }
        }
    }

    // MARK: Tram tracks

    /// Two steel rails, metre gauge as Helsinki's trams, along every tram line above ground, just
    /// above the road surface and its markings.
    mutating func addTramTracks(_ railways: [RailwayLine]) {
        let rail = SurfaceRecord(normal: Vec3(0, 0, 1), material: .rail, albedo: ColorPalette.linear(150, 150, 154))
        let gauge = 1.0, railWidth = 0.07
        for line in railways where line.kind == .tram && !line.isTunnel {
            let points = line.points.map(project)
            guard points.count >= 2, crossesExtent(points) else { continue }
            tramSegments.add(points, halfWidthMeters: 1.3, carriesTraffic: true)
            for side in [-1.0, 1.0] {
                scene.addStrip(Self.offset(points, by: side * (gauge + railWidth) / 2), width: railWidth, z: Self.railZ,
                               joints: false, rail)
            }
        }
    }

    /// A polyline moved sideways by `distance` metres (left of travel positive), mitred at the joints.
    static func offset(_ line: [Point], by distance: Double) -> [Point] {
        var out: [Point] = []
        for k in 0..<line.count {
            let a = line[max(0, k - 1)], b = line[min(line.count - 1, k + 1)]
            let dx = b.x - a.x, dy = b.y - a.y, l = max(1e-9, (dx * dx + dy * dy).squareRoot())
            out.append((line[k].x - dy / l * distance, line[k].y + dx / l * distance))
        }
        return out
    }
}
