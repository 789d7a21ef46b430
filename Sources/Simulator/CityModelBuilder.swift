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
    /// Every street strip drawn (for keeping greenery off paths and turning furniture to the street).
    var roadSegments = StreetStripGrid()
    /// Tram tracks above ground.
    var tramSegments = StreetStripGrid()
    /// Water surfaces: outer ring, holes, bounding box (west, south, east, north).
    var waterRings: [(outer: [Point], holes: [[Point]], box: (Double, Double, Double, Double))] = []
    /// Mapped single trees and tree-row trees, for keeping scattered ones away from them.
    var mappedTrees = StreetStripGrid()
    /// Street furniture mapped as nodes (benches, lamps…), for keeping scattered plants off them
    /// (``reserveFurniture(_:)``).
    var mappedFurniture = StreetStripGrid()
    /// Street furniture as placed.
    var furniture: [FurniturePlacement] = []
    /// Places that put a shop front on their building (see ``addShopPlaces(_:)``), by grid cell.
    var shopPlaces: [Int64: [Point]] = [:]
    /// The built-up share of a larger build this one is a tile of (its ground then matches); nil: this
    /// region's own ``builtUpShare``.
    var builtUpShareOverride: Double?

    // Heights of the layered ground surfaces (metres); each sits above the one before so that
    // overlapping polygons never fight. Two surfaces of different colours must never share a height:
    // a ray meets both at the same distance, and which one it shows then follows the order of the BVH,
    // which differs from build to build (a pedestrian street's strip on its pedestrian area, both at
    // one height, was a speckle of two pavings that changed between a tile's model and the whole's).
    static let landCoverZ: Float = 0.002, pavingZ: Float = 0.004, parkingZ: Float = 0.005, pathZ: Float = 0.006
    static let grassZ: Float = 0.008, meadowZ: Float = 0.010, waterZ: Float = 0.012, roadZ: Float = 0.016
    static let cyclewayZ: Float = 0.022, markingZ: Float = 0.03, railZ: Float = 0.036, sidewalkZ: Float = 0.12

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

    /// Whether segment p–q passes through the extent (Liang–Barsky clipping).
    func segmentCrossesExtent(_ p: Point, _ q: Point) -> Bool {
        var t0 = 0.0, t1 = 1.0
        let dx = q.x - p.x, dy = q.y - p.y
        for (direction, room) in [(-dx, p.x - minX), (dx, maxX - p.x), (-dy, p.y - minY), (dy, maxY - p.y)] {
            if direction == 0 {
                if room < 0 { return false }
                continue
            }
            let t = room / direction
            if direction < 0 { t0 = max(t0, t) } else { t1 = min(t1, t) }
            if t0 > t1 { return false }
        }
        return true
    }

    /// Whether a line passes through the extent: a street, hedge or track may cross it with no point
    /// inside (a long straight way, or a small region round a few captures).
    func crossesExtent(_ line: [Point]) -> Bool {
        anyInside(line) || zip(line, line.dropFirst()).contains { segmentCrossesExtent($0, $1) }
    }

    /// Whether an area overlaps the extent: a vertex inside, an edge through it, or the whole extent
    /// inside the area (the sea off a quay, a forest round a clearing).
    func overlapsExtent(_ ring: [Point]) -> Bool {
        guard let first = ring.first else { return false }
        return crossesExtent(ring + [first]) || FootprintIndex.ringContains(ring, (minX, minY))
    }

    static func seed(_ reference: OSMElementReference) -> UInt32 {
        PatternNoise.hash(Int32(truncatingIfNeeded: reference.id), Int32(truncatingIfNeeded: reference.id >> 32), 0x9E37)
    }

    // MARK: Ground

    /// The infinite ground plane up = 0 (traced analytically, not as triangles): land no area covers.
    /// Its default follows the region being built: where buildings cover more than
    /// ``builtUpCoverage`` of it (a town centre, whose untagged land is yards, verges and gaps between
    /// the road and its mapped sidewalks) grey paved ground; elsewhere rough grass, the usual cover of
    /// untagged land in the temperate regions the extracts come from. Sand only where it is tagged
    /// (``AreaKind/sand``). Call after ``addBuildings(_:)``.
    mutating func addGround() {
        let albedo = (builtUpShareOverride ?? builtUpShare) > Self.builtUpCoverage ? ColorPalette.linear(116, 114, 110) : ColorPalette.linear(104, 112, 80)
        ground = SurfaceRecord(normal: Vec3(0, 0, 1), material: .ground, albedo: albedo)
    }

    /// The share of the region buildings cover above which its untagged ground is paved (a Helsinki or
    /// Munich centre: 0.3–0.5; suburbs of detached houses: under 0.15; countryside: a few hundredths).
    static let builtUpCoverage = 0.2

    /// Where the data is complete (the extract's declared bounds, else the box round its nodes), scene
    /// metres; nil: everywhere. Land outside it is not unbuilt land but land the data does not show, so
    /// ``builtUpShare`` leaves it out.
    var dataExtent: SceneRect?

    /// The part of the region that the data covers: the extent, clipped to ``dataExtent``.
    var mappedExtent: SceneRect {
        let whole = SceneRect(minEast: minX, minNorth: minY, maxEast: maxX, maxNorth: maxY)
        return dataExtent.map { whole.clamped(to: $0) } ?? whole
    }

    /// The share of ``mappedExtent`` that building footprints cover, each square metre once however
    /// many outlines and parts stand on it (0 before ``addBuildings(_:)``): what `simulate` reports.
    var builtUpShare: Double {
        var raster = CoverageRaster(rect: mappedExtent)
        for footprint in footprints.footprints { raster.fill(outer: footprint.outer, holes: footprint.holes) }
        return raster.share
    }

    /// Each land cover's surface: material, height above the ground (overlapping areas: a park over
    /// residential land, a square over a park) and colour.
    static func landCover(_ kind: AreaKind) -> (material: MaterialKind, z: Float, albedo: Vec3)? {
        switch kind {
        case .square, .pavedArea: (.paving, pavingZ, ColorPalette.linear(150, 146, 138))
        case .parking: (.asphalt, parkingZ, ColorPalette.linear(92, 92, 94))
        case .water: nil   // drawn from the dataset's water model (addWater)
        case .park, .grass, .wood, .scrub: (.grass, grassZ, ColorPalette.linear(88, 128, 56))
        case .meadow: (.grass, meadowZ, ColorPalette.linear(118, 134, 62))
        // Land uses share one height, as before: there is no room for steps of a millimetre or more
        // between the ground and the paving 2 mm above. Nested land uses of two colours can still tie
        // (rare; none in the shipped Helsinki views).
        case .residential: (.grass, landCoverZ, ColorPalette.linear(80, 124, 58))
        case .orchard: (.grass, landCoverZ, ColorPalette.linear(96, 122, 52))
        case .farmland: (.field, landCoverZ, ColorPalette.linear(150, 134, 78))
        case .sand: (.sand, landCoverZ, ColorPalette.linear(196, 178, 136))
        case .industrial: (.sand, landCoverZ, ColorPalette.linear(132, 128, 120))
        }
    }

    mutating func addAreas(_ areas: [AreaFeature]) {
        for area in areas {
            guard let (material, z, albedo) = Self.landCover(area.kind) else { continue }
            for polygon in area.polygons {
                let outer = ring(polygon.outer)
                guard outer.count >= 3, overlapsExtent(outer) else { continue }
                let holes = polygon.inners.map(ring).filter { $0.count >= 3 }
                if area.kind == .square, let name = area.name { squares.append((name, outer)) }
                scene.addPolygon(outer: outer, holes: holes, z: z,
                                 SurfaceRecord(normal: Vec3(0, 0, 1), material: material, albedo: albedo, style: Self.seed(area.source)))
            }
        }
    }

    // MARK: Buildings

    /// Buildings by OSM's Simple 3D Buildings rules (wiki "Simple 3D Buildings", "Relation:building"):
    ///
    /// - A `building:part` belongs to an outline: in a `type=building` relation, to the relation's
    ///   `outline` member (the one under the part, else the first: a relation's parts may hang over the
    ///   footprint); otherwise to the smallest `building` outline its centre lies in that is not smaller
    ///   than the part (so a statue mapped as `building=yes` on a column is not the column's outline).
    /// - A relation's roles decide, not the tags: a `part` member tagged `building=yes` (the
    ///   Siegessäule's plinth) is a part, with its own `min_height` and `height`.
    /// - An outline with parts is not drawn: its parts are (its footprint still keeps captures out).
    ///   When every part starts above the outline's own bottom, the outline fills the gap below them
    ///   (a plinth or ground floor under a floating tower), up to the lowest part, with a flat top.
    /// - Parts tagged only `building:part=yes` take the outline's type, and parts take its colours and
    ///   materials where they have none of their own.
    /// - Elements tagged both `building` and `building:part` (a cathedral's dome) are drawn as parts.
    mutating func addBuildings(_ buildings: [Building]) {
        let outlines = buildings.indices.filter { !buildings[$0].isPart && !buildings[$0].isAlsoPart }
        var outlineRings: [Int: [Point]] = [:], outlineAreas: [Int: Double] = [:]
        var boxes: [Int: (Double, Double, Double, Double)] = [:]
        var relationOutlines: [Int64: [Int]] = [:]
        for i in outlines {
            guard let f = buildings[i].footprint.first else { continue }
            let r = ring(f.outer)
            outlineRings[i] = r
            outlineAreas[i] = buildings[i].footprint.reduce(0) { $0 + abs(PolygonTriangulator.signedArea(ring($1.outer))) }
            boxes[i] = Self.box(r)
            if let relation = buildings[i].buildingRelation { relationOutlines[relation, default: []].append(i) }
        }
        func contains(_ i: Int, _ c: Point) -> Bool {
            guard let r = outlineRings[i], r.count >= 3, let b = boxes[i] else { return false }
            return c.x >= b.0 && c.x <= b.2 && c.y >= b.1 && c.y <= b.3 && FootprintIndex.ringContains(r, c)
        }
        func outline(of part: Building) -> Int? {
            guard let first = part.footprint.first else { return nil }
            let centre = project(first.centroid)
            if let relation = part.buildingRelation, let members = relationOutlines[relation], !members.isEmpty {
                return members.first { contains($0, centre) } ?? members[0]
            }
            let area = part.footprint.reduce(0) { $0 + abs(PolygonTriangulator.signedArea(ring($1.outer))) }
            var best: Int?
            for i in outlines where (outlineAreas[i] ?? 0) >= 0.95 * area && contains(i, centre) {
                if best.map({ outlineAreas[i]! < outlineAreas[$0]! }) ?? true { best = i }
            }
            return best
        }
        var lowestPart: [Int: Double] = [:]
        var drawn: [Building] = []
        for building in buildings where building.isPart || building.isAlsoPart {
            var part = building
            if let o = outline(of: part) {
                let outline = buildings[o]
                lowestPart[o] = min(lowestPart[o] ?? .infinity, part.minHeightMeters)
                if part.buildingType == "yes" { part.buildingType = outline.buildingType }
                part.colour = part.colour ?? outline.colour
                part.roofColour = part.roofColour ?? outline.roofColour
                part.material = part.material ?? outline.material
                part.roofMaterial = part.roofMaterial ?? outline.roofMaterial
            }
            drawn.append(part)
        }
        for i in outlines {
            let building = buildings[i]
            guard let first = building.footprint.first, let outer0 = outlineRings[i], outer0.count >= 3, anyInside(outer0) else { continue }
            if let lowest = lowestPart[i] {
                // The outline still counts for planning (nobody stands inside it).
                if lowest > building.minHeightMeters + 0.5 {
                    var base = building
                    base.heightMeters = lowest
                    base.roofShape = nil
                    addBuilding(base)
                } else {
                    footprints.add(outer: PolygonTriangulator.ccw(outer0), holes: first.inners.map(ring), heightMeters: building.heightMeters)
                }
                continue
            }
            addBuilding(building)
        }
        for part in drawn {
            guard let first = part.footprint.first else { continue }
            let outer = ring(first.outer)
            guard outer.count >= 3, anyInside(outer) else { continue }
            addBuilding(part)
        }
    }

    /// `building` values whose walls get no window grid (worship, sheds, garages, kiosks, industry).
    static let plainWallTypes: Set<String> = [
        "church", "cathedral", "chapel", "mosque", "temple", "synagogue", "shrine", "religious", "bell_tower",
        "garage", "garages", "shed", "hut", "kiosk", "roof", "carport", "bunker", "industrial", "warehouse",
        "storage_tank", "silo", "transformer_tower", "service", "greenhouse", "glasshouse", "toilets", "ruins", "monument",
    ]
    /// `building` values with windows on every floor but no shop fronts.
    static let noShopFrontTypes: Set<String> = [
        "house", "detached", "semidetached_house", "bungalow", "cabin", "farm", "terrace", "dormitory",
        "school", "university", "college", "hospital", "tower", "government", "civic", "public", "museum",
    ]

    /// A roof's default height when no tag gives one, for ridged shapes: a 30° pitch over the run,
    /// at most one level (OSM Buildings draws a 3 m roof): a wide or irregular footprint (a courtyard
    /// block, an L) keeps a roof of a house's height instead of one that grows with its width.
    static let defaultRoofPitchDegrees = 30.0

    /// Where a building's walls stop and how tall its roof is, metres above the ground, by Simple 3D
    /// Buildings:
    ///
    /// - The roof is `roof:height`, else `roof:angle` over the shape's run, else `roof:levels` × 3.2 m,
    ///   else the shape's default (a dome a half-sphere, onions and cones 1.5 R, the others
    ///   ``defaultRoofPitchDegrees`` capped at one level).
    /// - A tagged `height` includes the roof: the walls are what remains, and never lower than
    ///   `building:levels` (or `min_height`) allow; the roof gives way instead.
    /// - Without `height` the walls are `building:levels` × 3.2 m (or the type's default height) and the
    ///   roof stands on them (``BuildingHeightRules`` already counted a tagged `roof:height` or
    ///   `roof:levels` in the top; an angle or a default is added here).
    static func roofSplit(_ building: Building, shape: RoofShape, frame: RoofFrame, radiusMeters: Double)
        -> (wallTopMeters: Double, roofHeightMeters: Double) {
        let top = building.heightMeters
        guard shape != .flat else { return (top, 0) }
        let level = BuildingHeightRules.levelHeightMeters
        let run = shape.isRadial ? radiusMeters : frame.halfWidth * shape.runFactor
        let roof: Double, withinTop: Bool
        if let tagged = building.roofHeightMeters {
            (roof, withinTop) = (tagged, true)
        } else if let angle = building.roofAngleDegrees {
            (roof, withinTop) = (tan(angle * .pi / 180) * run, building.heightSource == .heightTag)
        } else if let levels = building.roofLevels, levels > 0 {
            (roof, withinTop) = (levels * level, true)
        } else {
            switch shape {
            case .dome, .round: roof = run
            case .onion, .cone: roof = 1.5 * run
            default: roof = min(tan(defaultRoofPitchDegrees * .pi / 180) * run, level)
            }
            withinTop = building.heightSource == .heightTag
        }
        guard withinTop else { return (top, max(roof, 0)) }
        let lowestWallTop = max(building.minHeightMeters, (building.levels ?? 0) * level)
        let fitted = min(max(roof, 0), max(0, top - lowestWallTop))
        return (top - fitted, fitted)
    }

    mutating func addBuilding(_ building: Building) {
        // The top two bits of the style are flags (bit 31: no shop fronts, bit 30: plain wall).
        let seed = Self.seed(building.source) & 0x3FFF_FFFF
        let type = building.buildingType
        let isChurch = ["church", "cathedral", "chapel", "mosque", "temple", "synagogue"].contains(type)
        let facade = ColorPalette.parse(building.colour) ?? ColorPalette.wallMaterial(building.material)
            ?? (isChurch ? ColorPalette.linear(236, 234, 226) : ColorPalette.facades[Int(seed % UInt32(ColorPalette.facades.count))])
        let trimBase = facade.x + facade.y + facade.z > 1.6 ? Vec3(0.35, 0.34, 0.32) : Vec3(0.85, 0.84, 0.80)
        let roofColour = ColorPalette.parse(building.roofColour) ?? ColorPalette.roofMaterial(building.roofMaterial)
            ?? ColorPalette.roofs[Int((seed >> 8) % UInt32(ColorPalette.roofs.count))]
        let bottom = Float(building.minHeightMeters), top = Float(max(building.heightMeters, building.minHeightMeters + 0.5))
        let plainWall = Self.plainWallTypes.contains(type)
        let shape = RoofShape(tag: building.roofShape)
        for polygon in building.footprint {
            let outer = PolygonTriangulator.ccw(ring(polygon.outer))
            guard outer.count >= 3 else { continue }
            let holes = polygon.inners.map { PolygonTriangulator.cw(ring($0)) }.filter { $0.count >= 3 }
            // Shop fronts on the ground floor of shops (by type, or a shop, café or pharmacy mapped in or
            // at the building); upper parts (towers, domes) and every other building have windows and doors.
            let noShops = (building.isPart && building.minHeightMeters > 2) || Self.noShopFrontTypes.contains(type)
                || !(Self.shopFrontTypes.contains(type) || hasShopPlace(outer: outer, holes: holes))
            if !building.isPart || building.minHeightMeters < 0.5 {
                footprints.add(outer: outer, holes: holes, heightMeters: building.heightMeters)
            }
            let frame = RoofFrame.fitting(outer, directionDegrees: building.roofDirectionDegrees,
                                          across: building.roofOrientation == "across")
            var radius = 0.0
            for q in outer { radius = max(radius, hypot(q.x - frame.centerX, q.y - frame.centerY)) }
            var sized = building
            sized.heightMeters = Double(top); sized.minHeightMeters = Double(bottom)
            let split = Self.roofSplit(sized, shape: shape, frame: frame, radiusMeters: radius)
            let roof = RoofGeometry(shape: shape, frame: frame, heightMeters: split.roofHeightMeters, radiusMeters: radius)
            let wallTop = Float(split.wallTopMeters)
            let top = wallTop + Float(split.roofHeightMeters)
            let facadeRecord = SurfaceRecord(normal: .zero, material: .facade, albedo: facade, accent: trimBase,
                                             extentV: wallTop,
                                             style: seed | (noShops ? 1 << 31 : 0) | (plainWall ? 1 << 30 : 0))
            var gableRecord = facadeRecord
            gableRecord.style |= 1 << 30
            for r in [outer] + holes {
                for k in 0..<r.count {
                    let p = r[k], q = r[(k + 1) % r.count]
                    scene.addWall(from: p, to: q, bottom: bottom, top: wallTop, mappingBase: 0, facadeRecord)
                    if roof.heightMeters > 0.01 { addGableWall(from: p, to: q, base: wallTop, roof: roof, gableRecord) }
                }
            }
            let roofRecord = SurfaceRecord(normal: Vec3(0, 0, 1), material: .roof, albedo: roofColour, style: seed)
            if roof.heightMeters <= 0.01 {
                scene.addPolygon(outer: outer, holes: holes, z: top, roofRecord)
            } else {
                addRoof(outer: outer, holes: holes, base: wallTop, roof: roof, roofRecord)
            }
            if bottom > 0.3 {
                scene.addPolygon(outer: outer, holes: holes, z: bottom, facingDown: true,
                                 SurfaceRecord(normal: Vec3(0, 0, -1), material: .roof, albedo: facade * 0.6))
            }
        }
    }

    /// The roof over a footprint: each footprint triangle cut by each of the roof's planar facets,
    /// the pieces lifted to `base` plus the roof's height.
    mutating func addRoof(outer: [Point], holes: [[Point]], base: Float, roof: RoofGeometry, _ record: SurfaceRecord) {
        let (points, triangles) = PolygonTriangulator.triangulate(outer: outer, holes: holes)
        let facets = roof.facets()
        let boxes = facets.map { f -> (Double, Double, Double, Double) in
            (f.map(\.u).min()!, f.map(\.u).max()!, f.map(\.v).min()!, f.map(\.v).max()!)
        }
        for (i, j, k) in triangles {
            let tri = [points[i], points[j], points[k]].map { roof.frame.local($0.x, $0.y) }
            let lu = min(tri[0].u, tri[1].u, tri[2].u), hu = max(tri[0].u, tri[1].u, tri[2].u)
            let lv = min(tri[0].v, tri[1].v, tri[2].v), hv = max(tri[0].v, tri[1].v, tri[2].v)
            for (f, facet) in facets.enumerated() {
                let b = boxes[f]
                if b.1 < lu || b.0 > hu || b.3 < lv || b.2 > hv { continue }
                let piece = RoofGeometry.clip(tri.map { (u: $0.u, v: $0.v) }, by: facet)
                guard piece.count >= 3 else { continue }
                let corners = piece.map { c -> Vec3 in
                    let w = roof.frame.world(c.u, c.v)
                    return Vec3(Float(w.x), Float(w.y), base + Float(roof.height(x: w.x, y: w.y)))
                }
                for m in 1..<(corners.count - 1) { scene.addTriangle(corners[0], corners[m], corners[m + 1], record) }
            }
        }
    }

    /// The wall above the wall top along one footprint edge, up to where the roof meets it (gable
    /// ends; nothing where the roof starts at the eaves). Split where the roof's slope changes.
    mutating func addGableWall(from p: Point, to q: Point, base: Float, roof: RoofGeometry, _ record: SurfaceRecord) {
        let length = hypot(q.x - p.x, q.y - p.y)
        guard length > 1e-3 else { return }
        func at(_ t: Double) -> Point { (p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)) }
        var ts: [Double] = [0, 1]
        let planes = roof.planes
        if planes.isEmpty {
            var highest = 0.0
            for s in 0...8 { let c = at(Double(s) / 8); highest = max(highest, roof.height(x: c.x, y: c.y)) }
            if highest < 0.01 { return }
            let n = max(1, Int((length / 0.5).rounded(.up)))
            ts = (0...n).map { Double($0) / Double(n) }
        } else {
            let a = roof.frame.local(p.x, p.y), b = roof.frame.local(q.x, q.y)
            // Each plane is linear in t along the edge: f(t) = f0 + (f1 − f0) t; breaks where two meet or
            // where one crosses the clamps 0 and H.
            let lines = planes.map { pl in (pl.a * a.u + pl.b * a.v + pl.c, pl.a * b.u + pl.b * b.v + pl.c) }
            let levels = lines + [(0.0, 0.0), (roof.heightMeters, roof.heightMeters)]
            for x in 0..<levels.count {
                for y in (x + 1)..<levels.count {
                    let d0 = levels[x].0 - levels[y].0, d1 = levels[x].1 - levels[y].1
                    if (d0 < 0) != (d1 < 0), abs(d0 - d1) > 1e-12 {
                        let t = d0 / (d0 - d1)
                        if t > 1e-6 && t < 1 - 1e-6 { ts.append(t) }
                    }
                }
            }
            ts.sort()
        }
        var previous: (Point, Double)?
        for t in ts {
            let c = at(t), h = roof.height(x: c.x, y: c.y)
            if let (c0, h0) = previous, max(h0, h) > 1e-3, hypot(c.x - c0.x, c.y - c0.y) > 1e-4 {
                var r = record
                let dx = Float(c.x - c0.x), dy = Float(c.y - c0.y), l = (dx * dx + dy * dy).squareRoot()
                r.origin = Vec3(Float(c0.x), Float(c0.y), 0); r.axisX = dx / l; r.axisY = dy / l; r.extent = l
                scene.addQuad(Vec3(Float(c0.x), Float(c0.y), base), Vec3(Float(c.x), Float(c.y), base),
                              Vec3(Float(c.x), Float(c.y), base + Float(h)), Vec3(Float(c0.x), Float(c0.y), base + Float(h0)), r)
            }
            previous = (c, h)
        }
    }

    // MARK: Streets

    static func roadWidth(_ street: Street) -> Double {
        if let w = street.widthMeters, w > 1, w < 60 { return w }
        if let lanes = street.lanes, lanes > 0 { return Double(lanes) * 3.2 + 1 }
        return street.highwayClass.defaultWidthMeters
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
            guard line.count >= 2, crossesExtent(line) else { continue }
            let width = Self.roadWidth(street)
            switch street.highwayClass {
            case .motorway, .trunk, .primary, .secondary, .tertiary, .unclassified, .residential, .livingStreet, .service:
                roadSegments.add(line, halfWidthMeters: width / 2, carriesTraffic: true)
            case .pedestrian, .cycleway, .footway, .path, .steps, .platform:
                roadSegments.add(line, halfWidthMeters: min(width, 3) / 2, carriesTraffic: false)
            default: break
            }
            if let name = street.name {
                let isOneway = street.oneway == .forward || street.oneway == .backward
                streets.append((name, street.highwayClass, isOneway, width, street.oneway == .backward ? line.reversed() : line))
            }
            switch street.highwayClass {
            case .motorway, .trunk, .primary, .secondary, .tertiary, .unclassified, .residential, .livingStreet, .service:
                scene.addStrip(line, width: width, z: Self.roadZ, joints: true, asphalt)
                addMarkings(street, line: line, width: width, marking)
            case .pedestrian:
                scene.addStrip(line, width: width, z: Self.pathZ, joints: true, paving)
            case .cycleway:
                scene.addStrip(line, width: width, z: Self.cyclewayZ, joints: true, cycle)
            case .footway where street.footwayType == "sidewalk":
                addRaisedStrip(line, width: width, top: sidewalkTop, side: curb)
            case .footway where street.footwayType == "crossing":
                addCrosswalk(line, marking)
            case .footway, .path, .steps, .platform:
                scene.addStrip(line, width: min(width, 3), z: Self.pathZ, joints: true, paving)
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
        // A mapped tree is drawn as its tags say (``LeafType``); untagged street and park trees are the
        // planted broadleaves they usually are, whatever the latitude.
        var positions: [(Point, Double?, UInt32, LeafType?)] = trees.map {
            (project($0.position), $0.heightMeters, Self.seed($0.source), $0.leafType)
        }
        for row in rows {
            let line = row.points.map(project)
            for (k, p) in line.enumerated() { positions.append((p, nil, Self.seed(row.source) &+ UInt32(k), nil)) }
            // Rows are often mapped by their end points only: fill in a tree every 8 m.
            for i in 0..<max(0, line.count - 1) {
                let p = line[i], q = line[i + 1]
                let l = ((q.x - p.x) * (q.x - p.x) + (q.y - p.y) * (q.y - p.y)).squareRoot()
                let n = Int(l / 8)
                if n >= 2 {
                    for j in 1..<n {
                        let t = Double(j) / Double(n)
                        positions.append(((p.x + t * (q.x - p.x), p.y + t * (q.y - p.y)), nil,
                                          Self.seed(row.source) &+ UInt32(1000 + 97 * i + j), nil))
                    }
                }
            }
        }
        for (p, tagged, seed, leafType) in positions where inside(p) {
            if footprints.isInside(p) { continue }
            mappedTrees.add([p, (p.x + 1e-3, p.y)], halfWidthMeters: 0, carriesTraffic: false)
            addTree(at: p, heightMeters: tagged, seed: seed, conifer: Self.isConifer(seed: seed, coniferShare: Self.coniferShare(leafType) ?? 0))
        }
    }

    /// The share of conifers a tag's leaf type means: 1 needleleaved, 0.5 mixed, 0 broadleaved and
    /// leafless; nil when there is no tag.
    static func coniferShare(_ leafType: LeafType?) -> Double? {
        switch leafType {
        case .needleleaved: 1
        case .mixed: 0.5
        case .broadleaved, .leafless: 0
        case nil: nil
        }
    }

    /// Whether the tree of `seed` is a conifer, for a share of conifers (0…1): decided by bits of the
    /// seed the tree's size and colour do not use, so a mixed wood's trees keep their kind from build to build.
    static func isConifer(seed: UInt32, coniferShare: Double) -> Bool {
        coniferShare > 0 && Double(PatternNoise.hash(Int32(bitPattern: seed), 0x51, 0xC0_41F3) % 1000) < coniferShare * 1000
    }

    /// A conifer's crown (a spruce's or a pine's narrow cone, as mapped at 60° N) or a broadleaf's round one.
    mutating func addTree(at p: Point, heightMeters tagged: Double?, seed: UInt32, conifer: Bool) {
        if conifer { addConifer(at: p, heightMeters: tagged, seed: seed) } else { addTree(at: p, heightMeters: tagged, seed: seed) }
    }

    /// A conifer: a trunk and a cone-shaped crown from a fifth of its height to the top, `heightMeters`
    /// tall (12–20 m from the seed when untagged): copies of the unit trunk and of one unit cone.
    mutating func addConifer(at p: Point, heightMeters tagged: Double?, seed: UInt32) {
        let variation = Double(seed % 1000) / 1000
        let h = min(max(tagged ?? (12 + 8 * variation), 4), 35)
        addTrunk(at: p, radius: 0.16 + 0.08 * variation, heightMeters: h * 0.3)
        let cone = scene.prototype("conifer-crown") { scene in
            // A cone from z = 0 (radius 1) to the apex at z = 1, its base closed: 12 sides.
            let record = SurfaceRecord(normal: .zero, material: .foliage, albedo: .zero)
            let apex = Vec3(0, 0, 1), sides = 12
            for k in 0..<sides {
                let a0 = Float(k) / Float(sides) * 2 * .pi, a1 = Float(k + 1) / Float(sides) * 2 * .pi
                let p0 = Vec3(cos(a0), sin(a0), 0), p1 = Vec3(cos(a1), sin(a1), 0)
                scene.addTriangle(p0, p1, apex, record)
                scene.addTriangle(p1, p0, Vec3(0, 0, 0), record)
            }
        }
        let green = ColorPalette.linear(34 + Int(seed >> 10 & 15), 62 + Int(seed >> 14 & 15), 40 + Int(seed >> 18 & 7))
        let rx = h * (0.17 + 0.05 * variation)
        scene.addInstance(of: cone, InstanceTransform(scaleX: rx, scaleY: rx, scaleZ: h * 0.82, translation: (p.x, p.y, h * 0.18)),
                          tint: (green, seed))
    }

    /// A copy of the unit trunk (a 7-sided cylinder of bark) standing at `p`.
    mutating func addTrunk(at p: Point, radius: Double, heightMeters: Double) {
        let trunk = scene.prototype("trunk") { scene in
            let bark = SurfaceRecord(normal: .zero, material: .bark, albedo: ColorPalette.linear(86, 66, 50))
            scene.addCylinder(center: (0, 0), radius: 1, bottom: 0, top: 1, sides: 7, bark)
        }
        scene.addInstance(of: trunk, InstanceTransform(scaleX: radius, scaleY: radius, scaleZ: heightMeters, translation: (p.x, p.y, 0)))
    }

    /// A tree: a trunk and an ellipsoid crown, `heightMeters` tall (9–14 m from the seed when untagged):
    /// copies of one trunk (a unit cylinder) and one crown (a unit sphere) scaled to the tree, the
    /// crown tinted by the seed.
    mutating func addTree(at p: Point, heightMeters tagged: Double?, seed: UInt32) {
        let variation = Double(seed % 1000) / 1000
        let h = min(max(tagged ?? (9 + 5 * variation), 4), 25)
        addTrunk(at: p, radius: 0.18 + 0.1 * variation, heightMeters: h * 0.45)
        let crown = scene.prototype("crown") { scene in
            scene.addEllipsoid(center: .zero, radiusX: 1, radiusY: 1, radiusZ: 1, rings: 6, segments: 10,
                               SurfaceRecord(normal: .zero, material: .foliage, albedo: .zero))
        }
        let green = ColorPalette.linear(58 + Int(seed >> 10 & 15), 92 + Int(seed >> 14 & 31), 40)
        let rx = h * (0.28 + 0.08 * variation)
        scene.addInstance(of: crown, InstanceTransform(scaleX: rx, scaleY: rx * 0.95, scaleZ: h * 0.36, translation: (p.x, p.y, h * 0.64)),
                          tint: (green, seed))
    }
}
