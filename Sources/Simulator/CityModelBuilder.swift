import Foundation
import Geodesy
import Imaging
import MapData

/// Turns a `MapDataset` into triangles: buildings, ground surfaces, streets with markings, sidewalks,
/// trees, shop signs and street plates. Deterministic: every choice comes from OSM ids and positions.
struct CityModelBuilder {
    typealias Point = (x: Double, y: Double)

    let frame: LocalTangentFrame
    /// The scene rectangle in metres (geometry outside is dropped).
    let minX: Double, minY: Double, maxX: Double, maxY: Double
    var scene = SceneBuilder()
    var footprints = FootprintIndex()
    var atlas = SignAtlas()
    var signs: [SignPlacement] = []
    /// For each sign/plate atlas entry, nothing else: records point at entries by index.
    /// Named streets in scene metres; one-way ways point in their direction of travel.
    var streets: [(name: String, highwayClass: HighwayClass, isOneway: Bool, widthMeters: Double, points: [Point])] = []
    /// Named squares (outer rings), for capture planning across them.
    var squares: [(name: String, ring: [Point])] = []
    /// The ground plane's surface, when the scene has one.
    var ground: SurfaceRecord?

    // Heights of the layered ground surfaces (metres); each sits above the one before so that
    // overlapping polygons never fight.
    static let pavingZ: Float = 0.004, grassZ: Float = 0.008, waterZ: Float = 0.012, roadZ: Float = 0.016
    static let cyclewayZ: Float = 0.022, markingZ: Float = 0.03, sidewalkZ: Float = 0.12

    init(frame: LocalTangentFrame, minX: Double, minY: Double, maxX: Double, maxY: Double) {
        self.frame = frame
        self.minX = minX; self.minY = minY; self.maxX = maxX; self.maxY = maxY
    }

    /// Scene metres (east, north) of an OSM coordinate. The ground is flat: the tangent plane's
    /// height drop (under 0.1 m within 1 km) is ignored.
    func project(_ c: OSMCoordinate) -> Point {
        guard let g = try? GeoCoordinate(latitude: c.latitude, normalizingLongitude: c.longitude),
              let v = try? frame.enu(from: g) else { return (0, 0) }
        return (v.east, v.north)
    }

    func ring(_ coordinates: [OSMCoordinate]) -> [Point] {
        var points = coordinates.map(project)
        if points.count > 1, let f = points.first, let l = points.last, abs(f.x - l.x) < 1e-6 && abs(f.y - l.y) < 1e-6 {
            points.removeLast()
        }
        // Drop repeated points.
        var out: [Point] = []
        for p in points where out.last.map({ abs($0.x - p.x) > 1e-4 || abs($0.y - p.y) > 1e-4 }) ?? true { out.append(p) }
        return out
    }

    func inside(_ p: Point) -> Bool { p.x >= minX && p.x <= maxX && p.y >= minY && p.y <= maxY }
    func anyInside(_ ps: [Point]) -> Bool { ps.contains(where: inside) }

    static func seed(_ reference: OSMElementReference) -> UInt32 {
        PatternNoise.hash(Int32(truncatingIfNeeded: reference.id), Int32(truncatingIfNeeded: reference.id >> 32), 0x9E37)
    }

    // MARK: Ground

    /// The infinite ground plane up = 0 (traced analytically, not as triangles).
    mutating func addGround() {
        ground = SurfaceRecord(normal: Vec3(0, 0, 1), material: .ground, albedo: ColorPalette.linear(120, 116, 108))
    }

    mutating func addAreas(_ areas: [AreaFeature]) {
        for area in areas {
            let material: MaterialKind, z: Float, albedo: Vec3
            switch area.kind {
            case .square, .pavedArea: material = .paving; z = Self.pavingZ; albedo = ColorPalette.linear(150, 146, 138)
            case .water: material = .water; z = Self.waterZ; albedo = ColorPalette.linear(30, 60, 80)
            case .park, .grass, .wood, .scrub: material = .grass; z = Self.grassZ; albedo = ColorPalette.linear(88, 128, 56)
            }
            for polygon in area.polygons {
                let outer = ring(polygon.outer)
                guard outer.count >= 3, anyInside(outer) else { continue }
                let holes = polygon.inners.map(ring).filter { $0.count >= 3 }
                if area.kind == .square, let name = area.name { squares.append((name, outer)) }
                scene.addPolygon(outer: outer, holes: holes, z: z,
                                 SurfaceRecord(normal: Vec3(0, 0, 1), material: material, albedo: albedo))
            }
        }
    }

    // MARK: Buildings

    mutating func addBuildings(_ buildings: [Building]) {
        // Outlines that have building:part pieces inside are drawn by their parts (OSM's Simple 3D
        // Buildings rule), so the outline itself is skipped.
        let parts = buildings.filter(\.isPart)
        let partCentroids = parts.compactMap { part in part.footprint.first.map { (project($0.centroid), part.minHeightMeters) } }
        for building in buildings {
            guard let first = building.footprint.first else { continue }
            let outer0 = ring(first.outer)
            guard outer0.count >= 3, anyInside(outer0) else { continue }
            if !building.isPart {
                let xs = outer0.map(\.x), ys = outer0.map(\.y)
                let (lx, hx, ly, hy) = (xs.min()!, xs.max()!, ys.min()!, ys.max()!)
                let bottoms = partCentroids.filter { c, _ in
                    c.x >= lx && c.x <= hx && c.y >= ly && c.y <= hy && FootprintIndex.ringContains(outer0, c)
                }.map(\.1)
                if let lowest = bottoms.min() {
                    // The outline still counts for planning (nobody stands inside it). When every part
                    // starts above the ground (parts mapped for the upper floors only), the outline fills
                    // the gap below them instead of leaving the parts floating.
                    if lowest > 0.5 {
                        var base = building
                        base.heightMeters = lowest
                        addBuilding(base)
                    } else {
                        footprints.add(outer: PolygonTriangulator.ccw(outer0), holes: first.inners.map(ring), heightMeters: building.heightMeters)
                    }
                    continue
                }
            }
            addBuilding(building)
        }
    }

    mutating func addBuilding(_ building: Building) {
        // The top two bits of the style are flags (bit 31: no shop fronts, bit 30: plain wall).
        let seed = Self.seed(building.source) & 0x3FFF_FFFF
        let isChurch = ["church", "cathedral", "chapel", "mosque", "temple", "synagogue"].contains(building.buildingType)
        let facade = ColorPalette.parse(building.colour)
            ?? (isChurch ? ColorPalette.linear(236, 234, 226) : ColorPalette.facades[Int(seed % UInt32(ColorPalette.facades.count))])
        let trimBase = facade.x + facade.y + facade.z > 1.6 ? Vec3(0.35, 0.34, 0.32) : Vec3(0.85, 0.84, 0.80)
        let roofColour = ColorPalette.parse(building.roofColour)
            ?? ColorPalette.roofs[Int((seed >> 8) % UInt32(ColorPalette.roofs.count))]
        let bottom = Float(building.minHeightMeters), top = Float(max(building.heightMeters, building.minHeightMeters + 0.5))
        let plain = building.isPart && building.minHeightMeters > 2   // upper parts (towers, domes): no shop fronts
        let facadeRecord = SurfaceRecord(normal: .zero, material: .facade, albedo: facade, accent: trimBase,
                                         extentV: top, style: seed | (plain ? 1 << 31 : 0) | (isChurch ? 1 << 30 : 0))
        for polygon in building.footprint {
            let outer = PolygonTriangulator.ccw(ring(polygon.outer))
            guard outer.count >= 3 else { continue }
            let holes = polygon.inners.map { PolygonTriangulator.cw(ring($0)) }.filter { $0.count >= 3 }
            if !building.isPart || building.minHeightMeters < 0.5 {
                footprints.add(outer: outer, holes: holes, heightMeters: building.heightMeters)
            }
            for r in [outer] + holes {
                for k in 0..<r.count {
                    scene.addWall(from: r[k], to: r[(k + 1) % r.count], bottom: bottom, top: top, mappingBase: 0, facadeRecord)
                }
            }
            let roofRecord = SurfaceRecord(normal: Vec3(0, 0, 1), material: .roof, albedo: roofColour, style: seed)
            let shape = building.roofShape ?? "flat"
            let pointed = ["pyramidal", "hipped", "dome", "onion", "gabled", "cone", "round"].contains(shape)
            if pointed && holes.isEmpty && isConvex(outer) && outer.count <= 64 {
                let cx = outer.map(\.x).reduce(0, +) / Double(outer.count), cy = outer.map(\.y).reduce(0, +) / Double(outer.count)
                var radius = Double.infinity
                for q in outer { radius = min(radius, hypot(q.x - cx, q.y - cy)) }
                let rise = Float(min(radius * (shape == "dome" || shape == "onion" ? 1.0 : 0.6), 12))
                let apex = Vec3(Float(cx), Float(cy), top + rise)
                for k in 0..<outer.count {
                    let a = outer[k], b = outer[(k + 1) % outer.count]
                    scene.addTriangle(Vec3(Float(a.x), Float(a.y), top), Vec3(Float(b.x), Float(b.y), top), apex, roofRecord)
                }
            } else {
                scene.addPolygon(outer: outer, holes: holes, z: top, roofRecord)
            }
            if bottom > 0.3 {
                scene.addPolygon(outer: outer, holes: holes, z: bottom, facingDown: true,
                                 SurfaceRecord(normal: Vec3(0, 0, -1), material: .roof, albedo: facade * 0.6))
            }
        }
    }

    func isConvex(_ r: [Point]) -> Bool {
        for k in 0..<r.count where PolygonTriangulator.cross(r[k], r[(k + 1) % r.count], r[(k + 2) % r.count]) < -1e-6 {
            return false
        }
        return true
    }

    // MARK: Streets

    static func roadWidth(_ street: Street) -> Double {
        if let w = street.widthMeters, w > 1, w < 60 { return w }
        if let lanes = street.lanes, lanes > 0 { return Double(lanes) * 3.2 + 1 }
        switch street.highwayClass {
        case .motorway, .trunk: return 14
        case .primary: return 12
        case .secondary: return 10
        case .tertiary: return 9
        case .residential, .unclassified: return 7.5
        case .livingStreet: return 6
        case .service: return 4.5
        case .pedestrian: return 8
        case .cycleway: return 2
        case .footway, .path, .steps, .platform, .bridleway, .track, .corridor: return 2.5
        default: return 3
        }
    }

    mutating func addStreets(_ all: [Street]) {
        let asphalt = SurfaceRecord(normal: Vec3(0, 0, 1), material: .asphalt, albedo: ColorPalette.linear(72, 72, 74))
        let cycle = SurfaceRecord(normal: Vec3(0, 0, 1), material: .asphalt, albedo: ColorPalette.linear(120, 76, 66))
        let paving = SurfaceRecord(normal: Vec3(0, 0, 1), material: .paving, albedo: ColorPalette.linear(160, 152, 140))
        let sidewalkTop = SurfaceRecord(normal: Vec3(0, 0, 1), material: .sidewalk, albedo: ColorPalette.linear(150, 148, 144))
        let curb = SurfaceRecord(normal: Vec3(0, 0, 1), material: .curb, albedo: ColorPalette.linear(130, 128, 126))
        let marking = SurfaceRecord(normal: Vec3(0, 0, 1), material: .marking, albedo: ColorPalette.linear(225, 225, 218))
        for street in all where !street.isTunnel {
            let line = street.points.map(project)
            guard line.count >= 2, anyInside(line) else { continue }
            let width = Self.roadWidth(street)
            if let name = street.name {
                let isOneway = street.oneway == .forward || street.oneway == .backward
                streets.append((name, street.highwayClass, isOneway, width, street.oneway == .backward ? line.reversed() : line))
            }
            switch street.highwayClass {
            case .motorway, .trunk, .primary, .secondary, .tertiary, .unclassified, .residential, .livingStreet, .service:
                scene.addStrip(line, width: width, z: Self.roadZ, joints: true, asphalt)
                addMarkings(street, line: line, width: width, marking)
            case .pedestrian:
                scene.addStrip(line, width: width, z: Self.pavingZ, joints: true, paving)
            case .cycleway:
                scene.addStrip(line, width: width, z: Self.cyclewayZ, joints: true, cycle)
            case .footway where street.footwayType == "sidewalk":
                addRaisedStrip(line, width: width, top: sidewalkTop, side: curb)
            case .footway where street.footwayType == "crossing":
                addCrosswalk(line, marking)
            case .footway, .path, .steps, .platform:
                scene.addStrip(line, width: min(width, 3), z: Self.pavingZ, joints: true, paving)
            default:
                continue
            }
        }
    }

    /// A sidewalk: a strip 12 cm high with curb faces on both sides.
    mutating func addRaisedStrip(_ line: [Point], width: Double, top: SurfaceRecord, side: SurfaceRecord) {
        scene.addStrip(line, width: width, z: Self.sidewalkZ, joints: true, top)
        let h = width / 2
        SceneBuilder.forEachSegment(of: line) { p, q, dx, dy, l in
            let nx = -dy / l * h, ny = dx / l * h
            // Right side faces right of travel; left side faces left (reversed direction).
            scene.addWall(from: (p.x - nx, p.y - ny), to: (q.x - nx, q.y - ny), bottom: 0, top: Self.sidewalkZ, mappingBase: 0, side)
            scene.addWall(from: (q.x + nx, q.y + ny), to: (p.x + nx, p.y + ny), bottom: 0, top: Self.sidewalkZ, mappingBase: 0, side)
        }
    }

    /// Centre lines (dashed on two-way roads) and solid edge lines on main roads.
    mutating func addMarkings(_ street: Street, line: [Point], width: Double, _ record: SurfaceRecord) {
        switch street.highwayClass {
        case .primary, .secondary, .tertiary, .unclassified, .residential, .trunk, .motorway: break
        default: return
        }
        if street.oneway == .both || (street.lanes ?? 2) >= 2 {
            dashed(line, offset: 0, dash: 3, gap: 3, width: 0.12, record)
        }
        if width >= 9 {
            dashed(line, offset: width / 2 - 0.4, dash: 1e9, gap: 0, width: 0.12, record)
            dashed(line, offset: -(width / 2 - 0.4), dash: 1e9, gap: 0, width: 0.12, record)
        }
    }

    /// Stripes along a polyline offset sideways (left positive), `dash` metres on, `gap` off.
    mutating func dashed(_ line: [Point], offset: Double, dash: Double, gap: Double, width: Double, _ record: SurfaceRecord) {
        var phase = 0.0
        SceneBuilder.forEachSegment(of: line) { p, q, dx, dy, l in
            let ux = dx / l, uy = dy / l, ox = -uy * offset, oy = ux * offset
            var s = 0.0
            while s < l {
                let period = dash + gap
                let inPeriod = phase.truncatingRemainder(dividingBy: period)
                if inPeriod < dash {
                    let e = min(l, s + (dash - inPeriod))
                    // Stop short of the ends where roads meet, so lines do not cross in intersections.
                    scene.addStrip([(p.x + ux * s + ox, p.y + uy * s + oy), (p.x + ux * e + ox, p.y + uy * e + oy)],
                                   width: width, z: Self.markingZ, joints: false, record)
                    phase += e - s; s = e
                } else {
                    let e = min(l, s + (period - inPeriod))
                    phase += e - s; s = e
                }
            }
        }
    }

    /// Zebra stripes along a crossing way: 0.5 m bars every metre, 3 m long across the walking line.
    mutating func addCrosswalk(_ line: [Point], _ record: SurfaceRecord) {
        for i in 0..<(line.count - 1) {
            let p = line[i], q = line[i + 1]
            let dx = q.x - p.x, dy = q.y - p.y, l = (dx * dx + dy * dy).squareRoot()
            if l < 1 || l > 60 { continue }
            let ux = dx / l, uy = dy / l
            var s = 0.5
            while s + 0.5 <= l - 0.25 {
                scene.addStrip([(p.x - uy * 1.5 + ux * (s + 0.25), p.y + ux * 1.5 + uy * (s + 0.25)),
                                (p.x + uy * 1.5 + ux * (s + 0.25), p.y - ux * 1.5 + uy * (s + 0.25))],
                               width: 0.5, z: Self.markingZ, joints: false, record)
                s += 1
            }
        }
    }

    // MARK: Trees

    mutating func addTrees(_ trees: [Tree], rows: [TreeRow]) {
        var positions: [(Point, Double?, UInt32)] = trees.map { (project($0.position), $0.heightMeters, Self.seed($0.source)) }
        for row in rows {
            let line = row.points.map(project)
            for (k, p) in line.enumerated() { positions.append((p, nil, Self.seed(row.source) &+ UInt32(k))) }
            // Rows are often mapped by their end points only: fill in a tree every 8 m.
            for i in 0..<max(0, line.count - 1) {
                let p = line[i], q = line[i + 1]
                let l = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                let n = Int(l / 8)
                if n >= 2 {
                    for j in 1..<n {
                        let t = Double(j) / Double(n)
                        positions.append(((p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)), nil, Self.seed(row.source) &+ UInt32(1000 + 97 * i + j)))
                    }
                }
            }
        }
        let bark = SurfaceRecord(normal: .zero, material: .bark, albedo: ColorPalette.linear(86, 66, 50))
        for (p, tagged, seed) in positions where inside(p) {
            if footprints.isInside(p) { continue }
            let variation = Double(seed % 1000) / 1000
            let h = min(max(tagged ?? (9 + 5 * variation), 4), 25)
            scene.addCylinder(center: p, radius: 0.18 + 0.1 * variation, bottom: 0, top: Float(h * 0.45), sides: 7, bark)
            let green = ColorPalette.linear(58 + Int(seed >> 10 & 15), 92 + Int(seed >> 14 & 31), 40)
            let crown = SurfaceRecord(normal: .zero, material: .foliage, albedo: green, style: seed)
            let rx = Float(h * (0.28 + 0.08 * variation))
            scene.addEllipsoid(center: Vec3(Float(p.x), Float(p.y), Float(h * 0.64)), radiusX: rx, radiusY: rx * 0.95,
                               radiusZ: Float(h * 0.36), rings: 6, segments: 10, crown)
        }
    }
}
