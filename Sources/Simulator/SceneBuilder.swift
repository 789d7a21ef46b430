import Foundation

/// Collects triangles and their surface records before the BVH is built, and the placed copies of
/// repeated objects (trees, shrubs, street furniture): each object's triangles once, as a prototype
/// in its own coordinates, and every copy as a transform (see ``addInstance(of:_:tint:)``).
struct SceneBuilder {
    var vertices: [Vec3] = []
    var records: [SurfaceRecord] = []

    var triangleCount: Int { records.count }

    /// A repeated object's triangles in its own coordinates (vertex triples and one record each, the
    /// normal in the same coordinates).
    struct Prototype: Sendable {
        var vertices: [Vec3] = []
        var records: [SurfaceRecord] = []
    }
    /// The prototypes, each built once (see ``prototype(_:_:)``).
    var prototypes: [Prototype] = []
    private var prototypeIndex: [String: Int] = [:]
    /// The placed copies.
    var instances: [SceneInstance] = []
    /// Whether copies stay instances (the default) or are written out as triangles of the scene (the
    /// flat reference the tests compare instances with).
    var instancing = true

    /// Triangles a flat scene would hold: the scene's own plus every copy's.
    var instancedTriangleCount: Int { triangleCount + instances.reduce(0) { $0 + prototypes[$1.prototype].records.count } }

    /// The prototype known as `key`, built by `build` into an empty scene the first time.
    mutating func prototype(_ key: String, _ build: (inout SceneBuilder) -> Void) -> Int {
        if let index = prototypeIndex[key] { return index }
        var scene = SceneBuilder()
        build(&scene)
        precondition(scene.instances.isEmpty, "a prototype holds triangles only")
        prototypes.append(Prototype(vertices: scene.vertices, records: scene.records))
        prototypeIndex[key] = prototypes.count - 1
        return prototypes.count - 1
    }

    /// The index of the prototype known as `key`, nil when none was built (tests count copies by kind).
    func prototypeIndex(_ key: String) -> Int? { prototypeIndex[key] }

    /// A copy of `prototype` placed by `transform`; with `tint`, every record of the copy takes its
    /// albedo and style. Without ``instancing`` the copy's triangles go into the scene instead, each
    /// vertex transformed in `Double` and its normal recomputed from them.
    mutating func addInstance(of prototype: Int, _ transform: InstanceTransform, tint: (albedo: Vec3, style: UInt32)? = nil) {
        let source = prototypes[prototype]
        guard !source.records.isEmpty else { return }
        if instancing {
            instances.append(SceneInstance(prototype: prototype, transform: transform, tint: tint))
            return
        }
        for k in 0..<source.records.count {
            var r = source.records[k]
            if let tint { r.albedo = tint.albedo; r.style = tint.style }
            r.origin = transform.apply(r.origin)
            addTriangle(transform.apply(source.vertices[3 * k]), transform.apply(source.vertices[3 * k + 1]),
                        transform.apply(source.vertices[3 * k + 2]), r)
        }
    }

    /// One triangle; the record's normal is replaced by the triangle's own (a, b, c counter-clockwise
    /// seen from the front) unless the triangle is degenerate, in which case it is skipped.
    mutating func addTriangle(_ a: Vec3, _ b: Vec3, _ c: Vec3, _ record: SurfaceRecord) {
        let n = (b - a).cross(c - a)
        let l = n.length
        if !(l > 1e-9) { return }
        var r = record
        r.normal = n * (1 / l)
        split(a, b, c, r, depth: 0)
    }

    /// Longest edge allowed before a triangle is halved, metres. Long slivers (roof and park
    /// triangulations, wall quads along a whole block) make loose BVH boxes that many rays enter
    /// for nothing; halving them keeps boxes tight (measured: more rays per second, see Benchmarks).
    static let maximumEdgeMeters: Float = 20

    private mutating func split(_ a: Vec3, _ b: Vec3, _ c: Vec3, _ r: SurfaceRecord, depth: Int) {
        let ab = (b - a).length, bc = (c - b).length, ca = (a - c).length
        let longest = max(ab, max(bc, ca))
        if longest <= Self.maximumEdgeMeters || depth >= 8 {
            vertices.append(a); vertices.append(b); vertices.append(c)
            records.append(r)
            return
        }
        // Halve the longest edge, keeping the winding.
        if longest == ab {
            let m = (a + b) * 0.5
            split(a, m, c, r, depth: depth + 1); split(m, b, c, r, depth: depth + 1)
        } else if longest == bc {
            let m = (b + c) * 0.5
            split(a, b, m, r, depth: depth + 1); split(a, m, c, r, depth: depth + 1)
        } else {
            let m = (c + a) * 0.5
            split(a, b, m, r, depth: depth + 1); split(m, b, c, r, depth: depth + 1)
        }
    }

    /// A planar quad a-b-c-d (counter-clockwise seen from the front).
    mutating func addQuad(_ a: Vec3, _ b: Vec3, _ c: Vec3, _ d: Vec3, _ record: SurfaceRecord) {
        addTriangle(a, b, c, record)
        addTriangle(a, c, d, record)
    }

    /// A vertical wall from (x0, y0) to (x1, y1) between heights `bottom` and `top`, facing right of the
    /// direction of travel (outwards for a counter-clockwise ring). The record's texture mapping is set
    /// to the segment: u from the start point, v from `origin.z`.
    mutating func addWall(from p0: (Double, Double), to p1: (Double, Double), bottom: Float, top: Float,
                          mappingBase: Float, _ record: SurfaceRecord) {
        let a = Vec3(Float(p0.0), Float(p0.1), bottom), b = Vec3(Float(p1.0), Float(p1.1), bottom)
        let dx = Float(p1.0 - p0.0), dy = Float(p1.1 - p0.1)
        let length = (dx * dx + dy * dy).squareRoot()
        if length < 1e-3 || top <= bottom { return }
        var r = record
        r.origin = Vec3(a.x, a.y, mappingBase)
        r.axisX = dx / length; r.axisY = dy / length
        r.extent = length
        // Counter-clockwise seen from outside (the right side): a, then up at a, up at b, b would face
        // left; so go a → b → b-top → a-top, whose normal (b−a)×(up) points to the right.
        addQuad(a, b, Vec3(b.x, b.y, top), Vec3(a.x, a.y, top), r)
    }

    /// A horizontal polygon at height `z` facing up (or down with `facingDown`).
    mutating func addPolygon(outer: [(x: Double, y: Double)], holes: [[(x: Double, y: Double)]] = [], z: Float,
                             facingDown: Bool = false, _ record: SurfaceRecord) {
        guard outer.count >= 3 else { return }
        let (points, triangles) = PolygonTriangulator.triangulate(outer: outer, holes: holes)
        for (i, j, k) in triangles {
            let a = Vec3(Float(points[i].x), Float(points[i].y), z)
            let b = Vec3(Float(points[j].x), Float(points[j].y), z)
            let c = Vec3(Float(points[k].x), Float(points[k].y), z)
            if facingDown { addTriangle(a, c, b, record) } else { addTriangle(a, b, c, record) }
        }
    }

    /// Calls `body` with each segment of `line` (start, end, extent along x and y, length), skipping
    /// segments shorter than a micrometre (repeated points).
    static func forEachSegment(of line: [(x: Double, y: Double)],
                               _ body: (_ p: (x: Double, y: Double), _ q: (x: Double, y: Double),
                                        _ dx: Double, _ dy: Double, _ length: Double) -> Void) {
        for i in 0..<max(0, line.count - 1) {
            let p = line[i], q = line[i + 1]
            let dx = q.x - p.x, dy = q.y - p.y, l = (dx * dx + dy * dy).squareRoot()
            if l < 1e-6 { continue }
            body(p, q, dx, dy, l)
        }
    }

    /// A flat strip of `width` along a polyline at height `z` (roads, sidewalk tops, markings), with
    /// round-ish joints (an octagon at every inner vertex) so segments meet without gaps.
    mutating func addStrip(_ line: [(x: Double, y: Double)], width: Double, z: Float, joints: Bool, _ record: SurfaceRecord) {
        guard line.count >= 2 else { return }
        let h = width / 2
        Self.forEachSegment(of: line) { p, q, dx, dy, l in
            let nx = -dy / l * h, ny = dx / l * h
            var r = record
            r.origin = Vec3(Float(p.x), Float(p.y), z); r.axisX = Float(dx / l); r.axisY = Float(dy / l); r.extent = Float(l)
            addQuad(Vec3(Float(p.x - nx), Float(p.y - ny), z), Vec3(Float(q.x - nx), Float(q.y - ny), z),
                    Vec3(Float(q.x + nx), Float(q.y + ny), z), Vec3(Float(p.x + nx), Float(p.y + ny), z), r)
        }
        if joints && line.count > 2 {
            // A joint only where the line turns by more than 10°: straight joins have no gap to fill.
            for i in 1..<(line.count - 1) {
                let a = line[i - 1], p = line[i], b = line[i + 1]
                let ux = p.x - a.x, uy = p.y - a.y, vx = b.x - p.x, vy = b.y - p.y
                let lu = (ux * ux + uy * uy).squareRoot(), lv = (vx * vx + vy * vy).squareRoot()
                if lu < 1e-6 || lv < 1e-6 || (ux * vx + uy * vy) / (lu * lv) < 0.985 {
                    addDisc(center: p, radius: h, z: z, sides: 8, record)
                }
            }
        }
    }

    /// A horizontal regular polygon.
    mutating func addDisc(center: (x: Double, y: Double), radius: Double, z: Float, sides: Int, _ record: SurfaceRecord) {
        let c = Vec3(Float(center.x), Float(center.y), z)
        for k in 0..<sides {
            let a0 = Double(k) / Double(sides) * 2 * .pi, a1 = Double(k + 1) / Double(sides) * 2 * .pi
            addTriangle(c, Vec3(Float(center.x + radius * cos(a0)), Float(center.y + radius * sin(a0)), z),
                        Vec3(Float(center.x + radius * cos(a1)), Float(center.y + radius * sin(a1)), z), record)
        }
    }

    /// An upright cylinder without caps (tree trunks), facing outwards (or inwards: a basin's inner wall).
    mutating func addCylinder(center: (x: Double, y: Double), radius: Double, bottom: Float, top: Float, sides: Int,
                              inward: Bool = false, _ record: SurfaceRecord) {
        for k in 0..<sides {
            let a0 = Double(k) / Double(sides) * 2 * .pi, a1 = Double(k + 1) / Double(sides) * 2 * .pi
            let p0 = (center.x + radius * cos(a0), center.y + radius * sin(a0))
            let p1 = (center.x + radius * cos(a1), center.y + radius * sin(a1))
            // Counter-clockwise around the axis: outward is to the right of p0 → p1.
            if inward {
                addWall(from: p1, to: p0, bottom: bottom, top: top, mappingBase: bottom, record)
            } else {
                addWall(from: p0, to: p1, bottom: bottom, top: top, mappingBase: bottom, record)
            }
        }
    }

    /// An upright cylinder with its top (posts, bollards, a bowl): the walls, then a disc facing up.
    mutating func addCappedCylinder(center: (x: Double, y: Double), radius: Double, bottom: Float, top: Float, sides: Int,
                                    _ record: SurfaceRecord) {
        addCylinder(center: center, radius: radius, bottom: bottom, top: top, sides: sides, record)
        addDisc(center: center, radius: radius, z: top, sides: sides, record)
    }

    /// A flat annulus facing up (a basin's rim).
    mutating func addRing(center: (x: Double, y: Double), outerRadius: Double, innerRadius: Double, z: Float, sides: Int,
                          _ record: SurfaceRecord) {
        for k in 0..<sides {
            let a0 = Double(k) / Double(sides) * 2 * .pi, a1 = Double(k + 1) / Double(sides) * 2 * .pi
            func at(_ r: Double, _ a: Double) -> Vec3 { Vec3(Float(center.x + r * cos(a)), Float(center.y + r * sin(a)), z) }
            addQuad(at(innerRadius, a0), at(outerRadius, a0), at(outerRadius, a1), at(innerRadius, a1), record)
        }
    }

    /// A box standing upright, turned by `angle` (radians counter-clockwise from east): `halfLength`
    /// along that direction, `halfWidth` across it, from `bottom` to `top`.
    mutating func addOrientedBox(center: (x: Double, y: Double), angle: Double, halfLength: Double, halfWidth: Double,
                                 bottom: Float, top: Float, _ record: SurfaceRecord) {
        let ux = cos(angle), uy = sin(angle), vx = -uy, vy = ux
        let corners = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)].map { (s, t) in
            (center.x + s * halfLength * ux + t * halfWidth * vx, center.y + s * halfLength * uy + t * halfWidth * vy)
        }
        // The corners run counter-clockwise, so each wall faces outwards.
        for k in 0..<4 { addWall(from: corners[k], to: corners[(k + 1) % 4], bottom: bottom, top: top, mappingBase: bottom, record) }
        func v(_ c: (Double, Double), _ z: Float) -> Vec3 { Vec3(Float(c.0), Float(c.1), z) }
        addQuad(v(corners[0], top), v(corners[1], top), v(corners[2], top), v(corners[3], top), record)
        if bottom > 0.01 { addQuad(v(corners[0], bottom), v(corners[3], bottom), v(corners[2], bottom), v(corners[1], bottom), record) }
    }

    /// A box from `a` to `b` (its long axis), `halfWidth` to each side (hedges).
    mutating func addOrientedBox(from a: (Double, Double), to b: (Double, Double), halfWidth: Double, bottom: Float, top: Float,
                                 _ record: SurfaceRecord) {
        let dx = b.0 - a.0, dy = b.1 - a.1, l = (dx * dx + dy * dy).squareRoot()
        guard l > 1e-4 else { return }
        addOrientedBox(center: ((a.0 + b.0) / 2, (a.1 + b.1) / 2), angle: atan2(dy, dx), halfLength: l / 2, halfWidth: halfWidth,
                       bottom: bottom, top: top, record)
    }

    /// An ellipsoid (tree crowns) as a UV sphere scaled by the radii.
    mutating func addEllipsoid(center: Vec3, radiusX: Float, radiusY: Float, radiusZ: Float, rings: Int, segments: Int,
                               _ record: SurfaceRecord) {
        func point(_ i: Int, _ j: Int) -> Vec3 {
            let theta = Float(i) / Float(rings) * .pi, phi = Float(j) / Float(segments) * 2 * .pi
            return Vec3(center.x + radiusX * sin(theta) * cos(phi), center.y + radiusY * sin(theta) * sin(phi),
                        center.z + radiusZ * cos(theta))
        }
        for i in 0..<rings {
            for j in 0..<segments {
                let a = point(i, j), b = point(i + 1, j), c = point(i + 1, j + 1), d = point(i, j + 1)
                // At the poles one of the two is a point's width (sin π is not 0 in Float): left out.
                if i < rings - 1 { addTriangle(a, b, c, record) }
                if i > 0 { addTriangle(a, c, d, record) }
            }
        }
    }

    /// An axis-aligned box (all six faces, outward).
    mutating func addBox(minimum lo: Vec3, maximum hi: Vec3, _ record: SurfaceRecord) {
        let p = [(Double(lo.x), Double(lo.y)), (Double(hi.x), Double(lo.y)), (Double(hi.x), Double(hi.y)), (Double(lo.x), Double(hi.y))]
        for k in 0..<4 { addWall(from: p[k], to: p[(k + 1) % 4], bottom: lo.z, top: hi.z, mappingBase: lo.z, record) }
        addQuad(Vec3(lo.x, lo.y, hi.z), Vec3(hi.x, lo.y, hi.z), Vec3(hi.x, hi.y, hi.z), Vec3(lo.x, hi.y, hi.z), record)
        addQuad(Vec3(lo.x, lo.y, lo.z), Vec3(lo.x, hi.y, lo.z), Vec3(hi.x, hi.y, lo.z), Vec3(hi.x, lo.y, lo.z), record)
    }
}
