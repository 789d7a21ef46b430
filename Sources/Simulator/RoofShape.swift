import Foundation

/// The roof shapes of OSM's Simple 3D Buildings (`roof:shape`), as the simulator builds them.
///
/// Every shape is a height field over the footprint: the roof's height above the top of the walls at
/// each point, given by ``RoofGeometry``. Shapes with a ridge or slopes are defined on the footprint's
/// ``RoofFrame`` (its oriented bounding rectangle); the radial shapes on the circle round that
/// rectangle's centre through the footprint's farthest vertex.
///
/// **Fallbacks** (documented, tested):
/// - A footprint that is not a rectangle (an L, a courtyard, a concave block) gets the roof of its
///   oriented rectangle cut to the footprint; walls rise to meet the roof wherever the cut lies above
///   the wall top, like gable ends.
/// - `hipped-and-gabled` is built as `hipped`, `sawtooth` as `skillion`, `many` and every value not
///   listed here as `flat` (as OSM2World, Streets GL and OSM Buildings do).
/// - `onion` is a height field: a bulb swelling above the base circle to a point; the overhang of a
///   real onion (wider than its base) is not modelled.
enum RoofShape: String, Sendable, CaseIterable {
    case flat, skillion, gabled
    case gabledHeightMoved = "gabled_height_moved"
    case saltbox, hipped
    case halfHipped = "half-hipped"
    case sideHipped = "side_hipped"
    case sideHalfHipped = "side_half-hipped"
    case pyramidal, gambrel, mansard, crosspitched, butterfly, cone, dome, onion, round

    /// The shape for a `roof:shape` value (nil or unknown: flat; see the fallbacks above).
    init(tag: String?) {
        let t = (tag ?? "flat").lowercased().replacingOccurrences(of: " ", with: "")
        switch t {
        case "pyramid": self = .pyramidal
        case "half_hipped", "halfhipped": self = .halfHipped
        case "side_half_hipped": self = .sideHalfHipped
        case "hipped-and-gabled", "hipped_and_gabled": self = .hipped
        case "sawtooth": self = .skillion
        case "gabled_height_moved": self = .gabledHeightMoved
        default: self = RoofShape(rawValue: t) ?? .flat
        }
    }

    /// Round in plan: defined on a circle rather than on the rectangle.
    var isRadial: Bool { self == .dome || self == .onion || self == .cone }

    /// The horizontal run over which `roof:angle` rises, as a multiple of the frame's half-width
    /// (or of the radius for radial shapes).
    var runFactor: Double {
        switch self {
        case .skillion: 2
        case .gabledHeightMoved, .saltbox: 4.0 / 3.0
        default: 1
        }
    }
}

/// An oriented rectangle round a footprint: centre, ridge axis u (unit, east/north), half-length
/// along u and half-width along v = u rotated 90° anticlockwise. Scene metres.
struct RoofFrame: Sendable {
    var centerX: Double, centerY: Double
    var ux: Double, uy: Double
    var halfLength: Double, halfWidth: Double

    /// (u, v) of a scene point.
    func local(_ x: Double, _ y: Double) -> (u: Double, v: Double) {
        let dx = x - centerX, dy = y - centerY
        return (dx * ux + dy * uy, -dx * uy + dy * ux)
    }

    /// The scene point at (u, v).
    func world(_ u: Double, _ v: Double) -> (x: Double, y: Double) {
        (centerX + u * ux - v * uy, centerY + u * uy + v * ux)
    }

    /// The frame of a ring: with `directionDegrees` (clockwise from north: where the main face looks,
    /// downhill for a skillion) v points that way; otherwise the minimum-area rectangle over the ring's
    /// edge directions, with u along its longer side, or along the shorter with `across`.
    static func fitting(_ ring: [(x: Double, y: Double)], directionDegrees: Double?, across: Bool) -> RoofFrame {
        func extents(_ ux: Double, _ uy: Double) -> RoofFrame {
            var lu = Double.infinity, hu = -Double.infinity, lv = Double.infinity, hv = -Double.infinity
            for p in ring {
                let u = p.x * ux + p.y * uy, v = -p.x * uy + p.y * ux
                lu = min(lu, u); hu = max(hu, u); lv = min(lv, v); hv = max(hv, v)
            }
            let cu = (lu + hu) / 2, cv = (lv + hv) / 2
            return RoofFrame(centerX: cu * ux - cv * uy, centerY: cu * uy + cv * ux, ux: ux, uy: uy,
                             halfLength: (hu - lu) / 2, halfWidth: (hv - lv) / 2)
        }
        if let directionDegrees {
            let a = directionDegrees * .pi / 180
            let vx = sin(a), vy = cos(a)          // east, north
            return extents(vy, -vx)               // u = v rotated 90° clockwise
        }
        var best: RoofFrame?
        for k in 0..<ring.count {
            let p = ring[k], q = ring[(k + 1) % ring.count]
            let l = hypot(q.x - p.x, q.y - p.y)
            guard l > 1e-6 else { continue }
            let f = extents((q.x - p.x) / l, (q.y - p.y) / l)
            if best.map({ f.halfLength * f.halfWidth < $0.halfLength * $0.halfWidth - 1e-9 }) ?? true { best = f }
        }
        guard var frame = best else { return extents(1, 0) }
        if (frame.halfLength < frame.halfWidth) != across {
            // Turn u by 90° so that it runs along the wanted side.
            frame = RoofFrame(centerX: frame.centerX, centerY: frame.centerY, ux: -frame.uy, uy: frame.ux,
                              halfLength: frame.halfWidth, halfWidth: frame.halfLength)
        }
        return frame
    }
}

/// One roof: its shape on a frame, and its height above the walls, as formulas and as planar facets.
///
/// With u along the ridge (|u| ≤ L), v across it (|v| ≤ W) and roof height H, the formulas are:
///
/// | shape | height above the wall top |
/// |---|---|
/// | flat | 0 |
/// | skillion | H (W − v) / 2W (v points downhill) |
/// | gabled | H (1 − \|v\|/W) |
/// | gabled_height_moved, saltbox | ridge at v = W/3: H (W − v)/(W − W/3) for v ≥ W/3, H (v + W)/(W + W/3) below |
/// | hipped | min(gabled, H (L − \|u\|)/W) |
/// | half-hipped | min(gabled, H/2 + H (L − \|u\|)/W) |
/// | side_hipped, side_half-hipped | as hipped, half-hipped at the u > 0 end only |
/// | pyramidal | H min(1 − \|v\|/W, 1 − \|u\|/L) |
/// | gambrel | min(1.2 H (1 − \|v\|/W), H (1 − 0.8 \|v\|/W)) |
/// | mansard | gambrel's two pitches on all four sides |
/// | crosspitched | max(gabled, H (1 − \|u\|/L)): two gables crossing (each the lower of its two planes) |
/// | butterfly | H \|v\|/W |
/// | round | H √(1 − (v/W)²) |
/// | dome | H √(1 − (r/R)²), r from the centre, R the circle through the farthest vertex |
/// | onion | H (0.75 √(1 − t²) (1 + 0.45 t) clipped to 1, plus a spire) with t = r/R (see `onionProfile`) |
/// | cone | H (1 − r/R) |
struct RoofGeometry: Sendable {
    typealias Plane = (a: Double, b: Double, c: Double)   // h = a u + b v + c

    let shape: RoofShape
    let frame: RoofFrame
    let heightMeters: Double
    /// Radius of the radial shapes, metres.
    let radiusMeters: Double

    init(shape: RoofShape, frame: RoofFrame, heightMeters: Double, radiusMeters: Double) {
        self.shape = shape; self.frame = frame
        self.heightMeters = shape == .flat ? 0 : heightMeters
        self.radiusMeters = max(radiusMeters, 1e-3)
    }

    /// Planes whose lower (or, for `isUpperEnvelope`, upper) envelope is the roof; empty for curved shapes.
    var planes: [Plane] {
        let h = heightMeters, l = max(frame.halfLength, 1e-3), w = max(frame.halfWidth, 1e-3)
        let gable: [Plane] = [(0, -h / w, h), (0, h / w, h)]
        switch shape {
        case .flat: return [(0, 0, 0)]
        case .skillion: return [(0, -h / (2 * w), h / 2)]
        case .gabled: return gable
        case .gabledHeightMoved, .saltbox:
            let r = w / 3
            return [(0, -h / (w - r), h * w / (w - r)), (0, h / (w + r), h * w / (w + r))]
        case .hipped: return gable + [(-h / w, 0, h * l / w), (h / w, 0, h * l / w)]
        case .halfHipped: return gable + [(-h / w, 0, h / 2 + h * l / w), (h / w, 0, h / 2 + h * l / w)]
        case .sideHipped: return gable + [(-h / w, 0, h * l / w)]
        case .sideHalfHipped: return gable + [(-h / w, 0, h / 2 + h * l / w)]
        case .pyramidal: return gable + [(-h / l, 0, h), (h / l, 0, h)]
        case .gambrel: return [(0, -1.2 * h / w, 1.2 * h), (0, 1.2 * h / w, 1.2 * h), (0, -0.8 * h / w, h), (0, 0.8 * h / w, h)]
        case .mansard:
            return [(0, -1.2 * h / w, 1.2 * h), (0, 1.2 * h / w, 1.2 * h), (0, -0.8 * h / w, h), (0, 0.8 * h / w, h),
                    (-1.2 * h / w, 0, 1.2 * h * l / w), (1.2 * h / w, 0, 1.2 * h * l / w),
                    (-0.8 * h / w, 0, 0.2 * h + 0.8 * h * l / w), (0.8 * h / w, 0, 0.2 * h + 0.8 * h * l / w)]
        case .crosspitched: return gable + [(-h / l, 0, h), (h / l, 0, h)]
        case .butterfly: return [(0, -h / w, 0), (0, h / w, 0)]
        case .round, .dome, .onion, .cone: return []
        }
    }

    /// True for the shapes that are the upper envelope of their planes (a butterfly's valley). The
    /// crossing gables of `crosspitched` are the upper envelope of two lower envelopes (see ``height(x:y:)``).
    var isUpperEnvelope: Bool { shape == .butterfly }

    /// The onion's profile, 0…1 at t = r/R in 0…1: a bulb that rises steeply from the base circle,
    /// swells, then narrows to a spire at the centre.
    static func onionProfile(_ t: Double) -> Double {
        let t = min(max(t, 0), 1)
        let bulb = 0.7 * (1 - t * t).squareRoot()
        let spire = 0.3 * max(0, 1 - t / 0.45) * max(0, 1 - t / 0.45)
        return bulb + spire
    }

    /// The roof's height above the wall top at scene point (x, y), metres: the formula of the table.
    func height(x: Double, y: Double) -> Double {
        let (u, v) = frame.local(x, y)
        let h = heightMeters, w = max(frame.halfWidth, 1e-3)
        switch shape {
        case .round: return h * max(0, 1 - (v / w) * (v / w)).squareRoot()
        case .dome, .onion, .cone:
            let t = min(1, (u * u + v * v).squareRoot() / radiusMeters)
            switch shape {
            case .dome: return h * max(0, 1 - t * t).squareRoot()
            case .onion: return h * Self.onionProfile(t)
            default: return h * (1 - t)
            }
        case .crosspitched:
            // The higher of two gables: the one along u (planes 0, 1) and the one along v (planes 2, 3).
            let ps = planes
            let along = min(ps[0].a * u + ps[0].b * v + ps[0].c, ps[1].a * u + ps[1].b * v + ps[1].c)
            let across = min(ps[2].a * u + ps[2].b * v + ps[2].c, ps[3].a * u + ps[3].b * v + ps[3].c)
            return min(max(max(along, across), 0), h)
        default:
            let ps = planes
            var best = isUpperEnvelope ? -Double.infinity : Double.infinity
            for p in ps {
                let value = p.a * u + p.b * v + p.c
                best = isUpperEnvelope ? max(best, value) : min(best, value)
            }
            return min(max(best, 0), h)
        }
    }

    /// Convex facets in (u, v) over which the roof is planar (exactly for the plane shapes; a
    /// tessellation with exact heights at its corners for the curved ones). They cover the frame's
    /// rectangle, or the radial shapes' circle.
    func facets() -> [[(u: Double, v: Double)]] {
        let l = frame.halfLength, w = frame.halfWidth
        let rectangle: [(u: Double, v: Double)] = [(-l, -w), (l, -w), (l, w), (-l, w)]
        switch shape {
        case .round:
            let n = 24
            return (0..<n).map { k in
                // Uniform in angle, so the steep sides get more strips.
                let v0 = -w * cos(Double(k) * .pi / Double(n)), v1 = -w * cos(Double(k + 1) * .pi / Double(n))
                return [(-l, v0), (l, v0), (l, v1), (-l, v1)]
            }
        case .dome, .onion, .cone:
            let segments = 64, rings = shape == .cone ? 1 : 20
            // Outer ring beyond R so the polygon covers the whole circle; heights there are 0.
            let outer = radiusMeters / cos(Double.pi / Double(segments)) + 1e-3
            func radius(_ i: Int) -> Double {
                if i == 0 { return outer }
                if i == rings { return 0 }
                // Uniform in elevation angle (finer near the rim, where the dome is steep).
                return radiusMeters * cos(Double(i) / Double(rings) * .pi / 2)
            }
            // Segment edges start off the axes so that they rarely lie on a footprint's diagonals
            // (coincident edges make slivers that can leave pinholes).
            let offset = 0.37
            var out: [[(u: Double, v: Double)]] = []
            for i in 0..<rings {
                let r0 = radius(i), r1 = radius(i + 1)
                for j in 0..<segments {
                    let a0 = offset + Double(j) * 2 * .pi / Double(segments), a1 = offset + Double(j + 1) * 2 * .pi / Double(segments)
                    var facet: [(u: Double, v: Double)] = [(r0 * cos(a0), r0 * sin(a0)), (r0 * cos(a1), r0 * sin(a1))]
                    if r1 > 0 { facet += [(r1 * cos(a1), r1 * sin(a1)), (r1 * cos(a0), r1 * sin(a0))] } else { facet.append((0, 0)) }
                    out.append(facet)
                }
            }
            return out
        case .crosspitched:
            // Plane p is the roof where it is the lower of its gable's two planes and not below the other
            // gable, that is not below the other gable's lower plane t: for each t a convex piece.
            let ps = planes
            var out: [[(u: Double, v: Double)]] = []
            for i in 0..<4 {
                let p = ps[i], q = ps[i ^ 1]
                for j in (i < 2 ? [2, 3] : [0, 1]) {
                    let t = ps[j], t2 = ps[j ^ 1]
                    var poly = Self.clip(rectangle, a: p.a - q.a, b: p.b - q.b, c: p.c - q.c)     // p ≤ q
                    poly = Self.clip(poly, a: t.a - t2.a, b: t.b - t2.b, c: t.c - t2.c)          // t ≤ t2
                    poly = Self.clip(poly, a: t.a - p.a, b: t.b - p.b, c: t.c - p.c)             // t ≤ p
                    if poly.count >= 3 { out.append(poly) }
                }
            }
            return out
        default:
            let ps = planes
            var out: [[(u: Double, v: Double)]] = []
            for (i, p) in ps.enumerated() {
                var poly = rectangle
                for (j, q) in ps.enumerated() where j != i {
                    // Keep where plane i is the envelope: (p − q)(u, v) ≤ 0 for the lower envelope.
                    var a = p.a - q.a, b = p.b - q.b, c = p.c - q.c
                    if isUpperEnvelope { a = -a; b = -b; c = -c }
                    if abs(a) < 1e-12 && abs(b) < 1e-12 { if c > 0 || (c == 0 && j < i) { poly = [] }; continue }
                    poly = Self.clip(poly, a: a, b: b, c: c)
                    if poly.count < 3 { break }
                }
                if poly.count >= 3 { out.append(poly) }
            }
            return out
        }
    }

    /// The part of a convex polygon where a u + b v + c ≤ 0 (Sutherland–Hodgman, one edge).
    static func clip(_ polygon: [(u: Double, v: Double)], a: Double, b: Double, c: Double) -> [(u: Double, v: Double)] {
        guard !polygon.isEmpty else { return [] }
        var out: [(u: Double, v: Double)] = []
        out.reserveCapacity(polygon.count + 2)
        for k in 0..<polygon.count {
            let p = polygon[k], q = polygon[(k + 1) % polygon.count]
            let fp = a * p.u + b * p.v + c, fq = a * q.u + b * q.v + c
            if fp <= 0 { out.append(p) }
            if (fp < 0 && fq > 0) || (fp > 0 && fq < 0) {
                let t = fp / (fp - fq)
                out.append((p.u + t * (q.u - p.u), p.v + t * (q.v - p.v)))
            }
        }
        return out
    }

    /// The convex polygon `subject` cut by the convex, counter-clockwise polygon `window`.
    static func clip(_ subject: [(u: Double, v: Double)], by window: [(u: Double, v: Double)]) -> [(u: Double, v: Double)] {
        var poly = subject
        for k in 0..<window.count where poly.count >= 3 {
            let p = window[k], q = window[(k + 1) % window.count]
            // Inside is to the left of p → q: cross(q − p, x − p) ≥ 0, i.e. a u + b v + c ≤ 0 with:
            let a = q.v - p.v, b = -(q.u - p.u), c = -(a * p.u + b * p.v)
            poly = clip(poly, a: a, b: b, c: c)
        }
        return poly
    }
}
