import Foundation
import Geodesy
import MapData
import Testing
@testable import Simulator

/// Roof shapes of Simple 3D Buildings: rays cast straight down onto each shape, on a rectangle, an
/// L-shape and a footprint with a courtyard, hit where the shape's formula says (within 5 cm).
struct RoofShapeTests {
    /// Vertical tolerance between the traced roof and the formula, metres.
    static let toleranceMeters = 0.05

    typealias Point = (x: Double, y: Double)

    static func coordinate(_ frame: LocalTangentFrame, _ p: Point) throws -> OSMCoordinate {
        let g = try frame.geodetic(from: EastNorthUp(east: p.x, north: p.y, up: 0)).coordinate
        return OSMCoordinate(latitude: g.latitude, longitude: g.longitude)
    }

    /// A 24 × 14 m rectangle turned by 20°, an L and a square with a square courtyard.
    static let footprints: [(name: String, outer: [Point], hole: [Point]?)] = {
        let a = 20 * Double.pi / 180
        let rect: [Point] = [(-12, -7), (12, -7), (12, 7), (-12, 7)].map { (x: $0.0 * cos(a) - $0.1 * sin(a), y: $0.0 * sin(a) + $0.1 * cos(a)) }
        let l: [Point] = [(-10, -10), (10, -10), (10, -2), (-2, -2), (-2, 10), (-10, 10)]
        let square: [Point] = [(-11, -11), (11, -11), (11, 11), (-11, 11)]
        let court: [Point] = [(-4, -4), (-4, 4), (4, 4), (4, -4)]
        return [("rectangle", rect, nil), ("L", l, nil), ("courtyard", square, court)]
    }()

    static func distanceToEdges(_ p: Point, _ rings: [[Point]]) -> Double {
        var best = Double.infinity
        for r in rings {
            for k in 0..<r.count {
                let a = r[k], b = r[(k + 1) % r.count]
                let dx = b.x - a.x, dy = b.y - a.y
                let t = max(0, min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)))
                best = min(best, hypot(p.x - a.x - t * dx, p.y - a.y - t * dy))
            }
        }
        return best
    }

    /// Builds one building and returns the scene, the roof it was given and the wall top.
    static func scene(shape: String, outer: [Point], hole: [Point]?, roofHeight: Double?, direction: Double? = nil)
        throws -> (model: CityModel, roof: RoofGeometry, wallTop: Double) {
        var builder = try TestScenes.builder()
        let frame = builder.frame
        var polygon = OSMPolygon(outer: try (outer + [outer[0]]).map { try coordinate(frame, $0) })
        if let hole { polygon.inners = [try (hole + [hole[0]]).map { try coordinate(frame, $0) }] }
        let building = Building(source: OSMElementReference(.way, 7), isPart: false, buildingType: "house",
                                footprint: [polygon], heightMeters: 16, minHeightMeters: 0, heightSource: .heightTag,
                                roofShape: shape, roofHeightMeters: roofHeight, roofDirectionDegrees: direction)
        builder.addBuildings([building])
        // The same frame and height the builder used, from the projected ring.
        let ring = PolygonTriangulator.ccw(builder.ring(polygon.outer))
        let roofFrame = RoofFrame.fitting(ring, directionDegrees: direction, across: false)
        var radius = 0.0
        for q in ring { radius = max(radius, hypot(q.x - roofFrame.centerX, q.y - roofFrame.centerY)) }
        let kind = RoofShape(tag: shape)
        let split = CityModelBuilder.roofSplit(building, shape: kind, frame: roofFrame, radiusMeters: radius)
        let roof = RoofGeometry(shape: kind, frame: roofFrame, heightMeters: split.roofHeightMeters, radiusMeters: radius)
        return (CityModel(builder: builder), roof, split.wallTopMeters)
    }

    static func traceDown(_ model: CityModel, _ p: Point) -> Double? {
        model.firstHit(from: EastNorthUp(east: p.x, north: p.y, up: 100), direction: EastNorthUp(east: 0, north: 0, up: -1))
            .map { 100 - $0.distanceMeters }
    }

    @Test(arguments: RoofShape.allCases)
    func tracedRoofMatchesItsFormula(_ shape: RoofShape) throws {
        for footprint in Self.footprints {
            let (model, roof, wallTop) = try Self.scene(shape: shape.rawValue, outer: footprint.outer, hole: footprint.hole, roofHeight: 6)
            #expect(shape == .flat ? roof.heightMeters == 0 : abs(roof.heightMeters - 6) < 1e-9)
            var rings = [footprint.outer]
            if let hole = footprint.hole { rings.append(hole) }
            var checked = 0, worst = 0.0
            var y = -12.0
            while y <= 12 {
                var x = -12.0
                while x <= 12 {
                    let p = (x: x, y: y)
                    defer { x += 0.7 }
                    guard FootprintIndex.ringContains(footprint.outer, p),
                          footprint.hole.map({ !FootprintIndex.ringContains($0, p) }) ?? true,
                          Self.distanceToEdges(p, rings) > 0.3 else { continue }
                    if shape.isRadial {
                        let (u, v) = roof.frame.local(p.x, p.y)
                        if (u * u + v * v).squareRoot() > 0.85 * roof.radiusMeters { continue }
                    }
                    let expected = wallTop + roof.height(x: p.x, y: p.y)
                    guard let got = Self.traceDown(model, p) else {
                        Issue.record("\(shape) on \(footprint.name): no hit at \(p)"); continue
                    }
                    worst = max(worst, abs(got - expected))
                    checked += 1
                }
                y += 0.7
            }
            #expect(checked > 100, "\(shape) on \(footprint.name): \(checked) samples")
            #expect(worst <= Self.toleranceMeters, "\(shape) on \(footprint.name): worst error \(worst) m")
        }
    }

    /// Reference values by hand on a 24 × 14 m rectangle along east (L = 12, W = 7), roof 6 m on
    /// walls 10 m high: point (east, north) → height.
    @Test func handComputedHeights() throws {
        let rect: [Point] = [(-12, -7), (12, -7), (12, 7), (-12, 7)]
        let table: [(shape: String, p: Point, height: Double)] = [
            ("gabled", (0, 0), 16), ("gabled", (5, 3.5), 13), ("gabled", (-11, -6.5), 10 + 6 * 0.5 / 7),
            ("hipped", (11, 0), 10 + 6 * 1 / 7), ("hipped", (0, 3.5), 13),
            ("pyramidal", (0, 0), 16), ("pyramidal", (6, 0), 13),
            ("dome", (0, 0), 16), ("round", (3, 0), 16), ("round", (3, 3.5), 10 + 6 * (0.75).squareRoot()),
            ("flat", (0, 0), 16),
        ]
        for row in table {
            let (model, _, _) = try Self.scene(shape: row.shape, outer: rect, hole: nil, roofHeight: row.shape == "flat" ? nil : 6)
            let got = try #require(Self.traceDown(model, row.p))
            #expect(abs(got - row.height) < Self.toleranceMeters, "\(row.shape) at \(row.p): \(got) m, want \(row.height) m")
        }
    }

    /// `roof:direction` points the skillion's low edge: facing east (90°), the west edge is high.
    @Test func skillionFollowsDirection() throws {
        let rect: [Point] = [(-10, -10), (10, -10), (10, 10), (-10, 10)]
        let (model, _, _) = try Self.scene(shape: "skillion", outer: rect, hole: nil, roofHeight: 4, direction: 90)
        let west = try #require(Self.traceDown(model, (-9, 0))), east = try #require(Self.traceDown(model, (9, 0)))
        #expect(abs(west - (12 + 4 * 19.0 / 20)) < 0.05)
        #expect(abs(east - (12 + 4 * 1.0 / 20)) < 0.05)
    }

    @Test func tagValuesAndFallbacks() {
        #expect(RoofShape(tag: "pyramid") == .pyramidal)
        #expect(RoofShape(tag: "half_hipped") == .halfHipped)
        #expect(RoofShape(tag: "hipped-and-gabled") == .hipped)
        #expect(RoofShape(tag: "many") == .flat)
        #expect(RoofShape(tag: "no-such-shape") == .flat)
        #expect(RoofShape(tag: nil) == .flat)
        #expect(OSMTagParsing.compassDegrees("SW") == 225)
        #expect(OSMTagParsing.compassDegrees("-90") == 270)
        #expect(OSMTagParsing.compassDegrees("up") == nil)
    }

    /// A floating part (a drum on columns) leaves a gap under it: a ray below its bottom passes.
    @Test func floatingPartLeavesTheGroundFree() throws {
        var builder = try TestScenes.builder()
        let frame = builder.frame
        let square: [Point] = [(-5, -5), (5, -5), (5, 5), (-5, 5), (-5, -5)]
        let part = Building(source: OSMElementReference(.way, 9), isPart: true, buildingType: "yes",
                            footprint: [OSMPolygon(outer: try square.map { try Self.coordinate(frame, $0) })],
                            heightMeters: 30, minHeightMeters: 20, heightSource: .heightTag, roofShape: "dome", roofHeightMeters: 5)
        builder.addBuildings([part])
        let model = CityModel(builder: builder)
        // Horizontal ray at 10 m passes under; at 22 m it hits the wall at x = −5.
        #expect(model.firstHit(from: EastNorthUp(east: -20, north: 0, up: 10), direction: EastNorthUp(east: 1, north: 0, up: 0)) == nil)
        let wall = try #require(model.firstHit(from: EastNorthUp(east: -20, north: 0, up: 22), direction: EastNorthUp(east: 1, north: 0, up: 0)))
        #expect(abs(wall.distanceMeters - 15) < 0.01)
        let apex = try #require(Self.traceDown(model, (0, 0)))
        #expect(abs(apex - 30) < 0.05)
    }

    /// An element tagged both `building=church` and `building:part=yes` inside an outline is drawn
    /// (Helsinki Cathedral's dome is mapped so), not replaced like an outline.
    @Test func elementThatIsBothOutlineAndPartIsDrawn() throws {
        var builder = try TestScenes.builder()
        let frame = builder.frame
        func polygon(_ h: Double) throws -> [OSMPolygon] {
            [OSMPolygon(outer: try [(-h, -h), (h, -h), (h, h), (-h, h), (-h, -h)].map { try Self.coordinate(frame, (x: $0.0, y: $0.1)) })]
        }
        let outline = Building(source: OSMElementReference(.way, 1), isPart: false, buildingType: "cathedral",
                               footprint: try polygon(20), heightMeters: 20, minHeightMeters: 0, heightSource: .heightTag)
        let nave = Building(source: OSMElementReference(.way, 2), isPart: true, buildingType: "yes",
                            footprint: try polygon(20), heightMeters: 18, minHeightMeters: 0, heightSource: .heightTag)
        var dome = Building(source: OSMElementReference(.way, 3), isPart: false, buildingType: "church",
                            footprint: try polygon(6), heightMeters: 38, minHeightMeters: 18, heightSource: .heightTag,
                            roofShape: "dome", roofHeightMeters: 5.36)
        dome.isAlsoPart = true
        builder.addBuildings([outline, nave, dome])
        let top = try #require(Self.traceDown(CityModel(builder: builder), (0, 0)))
        #expect(abs(top - 38) < 0.05)
    }
}
