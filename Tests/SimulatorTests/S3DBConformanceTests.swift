import Foundation
import Geodesy
import MapData
import Testing
@testable import Simulator

/// Simple 3D Buildings as the wiki means it, one rule per hand-written file of `Tests/Fixtures/osm/s3db`
/// (each file's comment says what it tests): every file is read by MapData, built by the city model, and
/// its expected extents asserted from the built mesh (the triangles' heights and where the roof's top
/// lies) and from rays cast at it, not from pictures.
@Suite struct S3DBConformanceTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let corpus = root.appendingPathComponent("Tests/Fixtures/osm/s3db")
    /// Heights in the mesh are Float: a centimetre.
    static let tolerance = 0.01

    /// A corpus file's buildings as the city builds them (in the frame of the files' origin, 52.5 N 13.4 E).
    struct Built {
        var dataset: MapDataset
        var builder: CityModelBuilder
        var model: CityModel

        /// Building triangles (walls and roofs) as vertex triples.
        var triangles: [(Vec3, Vec3, Vec3, SurfaceRecord)] {
            let v = builder.scene.vertices, r = builder.scene.records
            return (0..<r.count).filter { r[$0].material == .facade || r[$0].material == .roof }.map { (v[3 * $0], v[3 * $0 + 1], v[3 * $0 + 2], r[$0]) }
        }

        /// The lowest and highest points of the building triangles, metres.
        var heightRange: ClosedRange<Double> {
            var zs: [Double] = []
            for t in triangles { zs += [Double(t.0.z), Double(t.1.z), Double(t.2.z)] }
            return (zs.min() ?? 0)...(zs.max() ?? 0)
        }

        /// The roof's vertices at its top (within 2 cm), east and north.
        var roofTop: [(x: Double, y: Double)] {
            var corners: [Vec3] = []
            for t in triangles where t.3.material == .roof { corners += [t.0, t.1, t.2] }
            let top: Float = corners.map(\.z).max() ?? 0
            return corners.filter { $0.z > top - 0.02 }.map { (x: Double($0.x), y: Double($0.y)) }
        }

        /// The lowest roof vertex: the eaves (the top of the walls), metres.
        var eaves: Double {
            var zs: [Float] = []
            for t in triangles where t.3.material == .roof { zs += [t.0.z, t.1.z, t.2.z] }
            return Double(zs.min() ?? 0)
        }

        /// The height of the first surface straight below (x, y), from 200 m up; nil when nothing is there.
        func top(_ x: Double, _ y: Double) -> Double? {
            model.firstHit(from: EastNorthUp(east: x, north: y, up: 200), direction: EastNorthUp(east: 0, north: 0, up: -1))
                .map { 200 - $0.distanceMeters }
        }

        /// Whether a level ray at height `z` along the north axis (from y = −100 northwards, at x) meets anything.
        func hitsLevel(x: Double, z: Double) -> Bool {
            model.firstHit(from: EastNorthUp(east: x, north: -100, up: z), direction: EastNorthUp(east: 0, north: 1, up: 0)) != nil
        }

        /// The albedo of the wall triangles wholly west (or east) of x = 0 facing north.
        func wallAlbedo(west: Bool) -> Vec3? {
            triangles.first { t in
                t.3.material == .facade && t.3.normal.y > 0.9 && [t.0.x, t.1.x, t.2.x].allSatisfy { west ? $0 < -0.5 : $0 > 0.5 }
            }?.3.albedo
        }
    }

    static func build(_ name: String) throws -> Built {
        let dataset = try MapDataset(contentsOfFile: corpus.appendingPathComponent("\(name).osm").path)
        var builder = CityModelBuilder(frame: try LocalTangentFrame(origin: GeoCoordinate(latitude: 52.5, longitude: 13.4)),
                                       minX: -100, minY: -100, maxX: 100, maxY: 100)
        builder.addBuildings(dataset.buildings)
        return Built(dataset: dataset, builder: builder, model: CityModel(builder: builder))
    }

    static func near(_ a: Double?, _ b: Double, _ tolerance: Double = S3DBConformanceTests.tolerance) -> Bool {
        a.map { abs($0 - b) <= tolerance } ?? false
    }

    // MARK: Outlines and parts

    @Test func anOutlineWithoutPartsIsDrawn() throws {
        let built = try Self.build("outline-only")
        #expect(Self.near(built.heightRange.upperBound, 12) && Self.near(built.heightRange.lowerBound, 0), "\(built.heightRange)")
        #expect(Self.near(built.top(0, 0), 12))
    }

    @Test func anOutlineWithPartsIsHiddenAndItsPartsDrawn() throws {
        let built = try Self.build("outline-hidden-by-parts")
        #expect(Self.near(built.top(-6, 0), 10), "west part: \(String(describing: built.top(-6, 0)))")
        #expect(Self.near(built.top(6, 0), 20), "east part: \(String(describing: built.top(6, 0)))")
        #expect(Self.near(built.heightRange.upperBound, 20), "the 30 m outline is drawn: \(built.heightRange)")
    }

    @Test func aPartWithoutOutlineIsDrawnOnItsOwn() throws {
        let built = try Self.build("part-without-outline")
        #expect(Self.near(built.heightRange.upperBound, 9) && Self.near(built.heightRange.lowerBound, 0))
    }

    @Test func partsTakeTheOutlinesTypeAndColour() throws {
        let built = try Self.build("part-inherits-outline")
        #expect(Self.near(built.top(-6, 0), 18) && Self.near(built.top(6, 0), 25))
        let red = try #require(ColorPalette.parse("#c03020")), blue = try #require(ColorPalette.parse("#3050c0"))
        let west = try #require(built.wallAlbedo(west: true)), east = try #require(built.wallAlbedo(west: false))
        #expect((west - red).length < 1e-4, "west part not in the outline's colour: \(west)")
        #expect((east - blue).length < 1e-4, "east part lost its own colour: \(east)")
        // The church's plain walls (style bit 30) on the part tagged only building:part=yes.
        let westWalls = built.triangles.filter { $0.3.material == .facade && $0.0.x < -0.5 && $0.1.x < -0.5 && $0.2.x < -0.5 }
        #expect(!westWalls.isEmpty && westWalls.allSatisfy { $0.3.style & (1 << 30) != 0 })
    }

    @Test func minHeightLiftsThePart() throws {
        let built = try Self.build("min-height")
        #expect(Self.near(built.heightRange.lowerBound, 4) && Self.near(built.heightRange.upperBound, 12), "\(built.heightRange)")
        #expect(!built.hitsLevel(x: 0, z: 2), "something under the part")
        #expect(built.hitsLevel(x: 0, z: 8))
    }

    @Test func theOutlineFillsTheGapUnderFloatingParts() throws {
        let built = try Self.build("outline-under-floating-parts")
        #expect(built.hitsLevel(x: 0, z: 2) && built.hitsLevel(x: 0, z: 8))
        #expect(Self.near(built.heightRange.upperBound, 12) && Self.near(built.heightRange.lowerBound, 0))
    }

    @Test func minLevelSkipsLevelsThatLevelsCount() throws {
        let built = try Self.build("min-level")
        #expect(Self.near(built.heightRange.lowerBound, 6.4) && Self.near(built.heightRange.upperBound, 16), "\(built.heightRange)")
    }

    @Test func aTopBelowItsBottomIsReadAsTheOwnHeight() throws {
        let built = try Self.build("height-below-min-height")
        #expect(Self.near(built.heightRange.lowerBound, 58.6) && Self.near(built.heightRange.upperBound, 66.9), "\(built.heightRange)")
    }

    @Test func undergroundBuildingsAreNotDrawn() throws {
        let station = try Self.build("underground-location")
        #expect(station.top(0, 0) == nil && Self.near(station.top(23, 0), 3), "\(String(describing: station.top(0, 0)))")
        let mall = try Self.build("underground-layer-level")
        #expect(mall.top(0, 0) == nil, "the shop below the square is drawn: \(String(describing: mall.top(0, 0)))")
        #expect(Self.near(mall.top(25, 0), 8) && Self.near(mall.top(-25, 0), 12), "\(mall.heightRange)")
        #expect(Self.near(mall.heightRange.lowerBound, 0))
    }

    @Test func anElementTaggedBuildingAndPartIsDrawnWithTheOtherParts() throws {
        let built = try Self.build("building-and-part")
        #expect(Self.near(built.top(0, 0), 20) && Self.near(built.top(8, 0), 10))
    }

    // MARK: Relations

    @Test func aRelationWithSeveralOutlinesHidesThemAll() throws {
        let built = try Self.build("relation-several-outlines")
        #expect(Self.near(built.top(-24, 0), 10) && Self.near(built.top(24, 0), 20))
        #expect(built.top(-12, 0) == nil && built.top(12, 0) == nil, "an outline is drawn")
        #expect(Self.near(built.heightRange.upperBound, 20))
        let red = try #require(ColorPalette.parse("#c03020")), blue = try #require(ColorPalette.parse("#3050c0"))
        #expect((try #require(built.wallAlbedo(west: true)) - red).length < 1e-4)
        #expect((try #require(built.wallAlbedo(west: false)) - blue).length < 1e-4)
    }

    @Test func aRelationsPartMayHangOverTheOutline() throws {
        let built = try Self.build("relation-part-overhang")
        #expect(Self.near(built.top(15, 0), 9), "overhang: \(String(describing: built.top(15, 0)))")
        // Under the overhang: open up to 3 m (a ray up from 0.5 m meets its underside at 3 m).
        let up = built.model.firstHit(from: EastNorthUp(east: 15, north: 0, up: 0.5), direction: EastNorthUp(east: 0, north: 0, up: 1))
        #expect(Self.near(up.map { $0.distanceMeters + 0.5 }, 3))
        // No wall of the outline along its east side above the ground part.
        let outlineWall = built.triangles.filter { t in
            t.3.material == .facade && [t.0.x, t.1.x, t.2.x].allSatisfy { abs($0 - 12) < 0.01 } && max(t.0.z, t.1.z, t.2.z) > 3.01
        }
        #expect(outlineWall.isEmpty, "the outline's east wall is drawn above 3 m")
    }

    @Test func theRelationsRoleDecidesNotTheTag() throws {
        let built = try Self.build("relation-part-tagged-building")
        #expect(Self.near(built.top(8.5, 0), 2), "base: \(String(describing: built.top(8.5, 0)))")
        #expect(Self.near(built.top(5, 0), 6), "plinth tagged building=yes: \(String(describing: built.top(5, 0)))")
        #expect(Self.near(built.top(0, 0), 20), "shaft: \(String(describing: built.top(0, 0)))")
        for z in stride(from: 0.3, through: 19.7, by: 0.4) { #expect(built.hitsLevel(x: 0, z: z), "a gap at \(z) m") }
        let plinth = try #require(built.dataset.buildings.first { $0.source == OSMElementReference(.way, 102) })
        #expect(plinth.isPart && plinth.buildingRelation == 900)
    }

    // MARK: Inner rings

    @Test func aMultipolygonsInnerRingIsACourtyard() throws {
        let built = try Self.build("multipolygon-courtyard")
        #expect(built.top(0, 0) == nil, "the courtyard is roofed")
        #expect(Self.near(built.top(10, 0), 12))
        #expect(built.hitsLevel(x: 0, z: 6))   // the courtyard's walls and the block's
    }

    @Test func aPartsInnerRingIsACourtyard() throws {
        let built = try Self.build("part-multipolygon-courtyard")
        #expect(built.top(0, 0) == nil, "the part's courtyard is roofed or the outline drawn")
        #expect(Self.near(built.top(10, 0), 12) && Self.near(built.heightRange.upperBound, 12))
    }

    // MARK: Heights and levels

    static let heights: [(String, Double)] = [
        ("height-plain", 12.0), ("height-decimal", 12.5), ("height-decimal-comma", 12.5), ("height-metres", 12.0),
        ("height-metres-no-space", 12.5), ("height-feet", 12.192), ("height-feet-word", 12.192), ("height-feet-inches", 4.1148),
        ("levels", 12.8), ("type-default-height", 6.0),
    ]

    @Test(arguments: heights)
    func heightsWithAndWithoutUnits(file: String, meters: Double) throws {
        let built = try Self.build(file)
        #expect(Self.near(built.heightRange.upperBound, meters), "\(file): \(built.heightRange), want \(meters) m")
        #expect(Self.near(built.top(0, 0), meters))
    }

    @Test func roofLevelsStandOnTheLevels() throws {
        let built = try Self.build("levels-and-roof-levels")
        #expect(Self.near(built.eaves, 12.8) && Self.near(built.heightRange.upperBound, 16), "eaves \(built.eaves), \(built.heightRange)")
    }

    @Test func heightIncludesTheRoofHeight() throws {
        let built = try Self.build("height-with-roof-height")
        #expect(Self.near(built.eaves, 7) && Self.near(built.heightRange.upperBound, 10))
    }

    @Test func roofAngleGivesTheRoofHeight() throws {
        let built = try Self.build("roof-angle")
        #expect(Self.near(built.eaves, 5) && Self.near(built.heightRange.upperBound, 12), "eaves \(built.eaves), \(built.heightRange)")
    }

    // MARK: Roof shapes

    /// Where the top of each shape lies on the 24 × 14 m box (u east, |u| ≤ 12; v north, |v| ≤ 7): the
    /// spans of the top's vertices, the shape's formula (RoofShape.swift) worked by hand.
    static let shapeTops: [(shape: String, east: ClosedRange<Double>, north: ClosedRange<Double>)] = [
        ("flat", -12...12, -7...7), ("skillion", -12...12, -7 ... -7), ("gabled", -12...12, 0...0),
        ("gabled_height_moved", -12...12, 7.0 / 3 ... 7.0 / 3), ("saltbox", -12...12, 7.0 / 3 ... 7.0 / 3),
        ("hipped", -5...5, 0...0), ("half-hipped", -8.5...8.5, 0...0), ("side_hipped", -12...5, 0...0),
        ("side_half-hipped", -12...8.5, 0...0), ("pyramidal", 0...0, 0...0), ("gambrel", -12...12, 0...0),
        ("mansard", -5...5, 0...0), ("crosspitched", -12...12, -7...7), ("butterfly", -12...12, -7...7),
        ("cone", 0...0, 0...0), ("dome", 0...0, 0...0), ("onion", 0...0, 0...0), ("round", -12...12, 0...0),
        ("hipped-and-gabled", -5...5, 0...0), ("sawtooth", -12...12, -7 ... -7), ("many", -12...12, -7...7),
        ("no-such-shape", -12...12, -7...7),
    ]

    @Test(arguments: shapeTops.map(\.shape))
    func everyRoofShapeHasItsTopWhereItsFormulaPutsIt(shape: String) throws {
        let expected = try #require(Self.shapeTops.first { $0.shape == shape })
        let built = try Self.build("roof-shape-\(shape)")
        #expect(Self.near(built.heightRange.upperBound, 15), "\(shape): top \(built.heightRange.upperBound)")
        let flat = ["flat", "many", "no-such-shape"].contains(shape)
        #expect(Self.near(built.eaves, flat ? 15 : 10), "\(shape): eaves \(built.eaves)")
        let top = built.roofTop
        let east = (top.map(\.x).min() ?? .nan)...(top.map(\.x).max() ?? .nan)
        let north = (top.map(\.y).min() ?? .nan)...(top.map(\.y).max() ?? .nan)
        // Curved tops are tessellated: their highest vertices lie within a step of the apex or ridge.
        let slack = ["cone", "dome", "onion", "round"].contains(shape) ? 1.2 : 0.02
        #expect(abs(east.lowerBound - expected.east.lowerBound) <= slack && abs(east.upperBound - expected.east.upperBound) <= slack,
                "\(shape): top spans east \(east), want \(expected.east)")
        #expect(abs(north.lowerBound - expected.north.lowerBound) <= slack && abs(north.upperBound - expected.north.upperBound) <= slack,
                "\(shape): top spans north \(north), want \(expected.north)")
        switch shape {
        case "crosspitched":
            // Two ridges crossing: the top runs along both axes, not over the corners.
            #expect(Self.near(built.top(10, 0), 15, 0.05) && Self.near(built.top(0, 6), 15, 0.05))
            #expect(!Self.near(built.top(10, 6), 15, 0.5))
        case "butterfly":
            #expect(Self.near(built.top(0, 0), 10, 0.05), "the valley is at the eaves")
        case "gambrel":
            // The break between its two pitches: 1.2 H (1 − |v|/W) = H (1 − 0.8 |v|/W) at |v| = W/2: 13 m.
            #expect(Self.near(built.top(0, 3.5), 13, 0.05))
        default: break
        }
    }

    @Test func roofDirectionAsALetterTurnsTheRidge() throws {
        let built = try Self.build("roof-direction-letters")
        let top = built.roofTop
        #expect(top.allSatisfy { abs($0.y) < 0.02 } && (top.map(\.x).max() ?? 0) - (top.map(\.x).min() ?? 0) > 15.9,
                "roof:direction=N: the ridge should run east-west: \(top)")
    }

    @Test func roofDirectionInDegreesPointsTheSkillionDownhill() throws {
        let built = try Self.build("roof-direction-degrees")
        #expect(Self.near(built.top(-11.5, 0), 12 - 4 * 0.5 / 24, 0.02), "west edge high: \(String(describing: built.top(-11.5, 0)))")
        #expect(Self.near(built.top(11.5, 0), 8 + 4 * 0.5 / 24, 0.02), "east edge low: \(String(describing: built.top(11.5, 0)))")
    }

    @Test(arguments: ["roof-direction-across-long-side", "roof-orientation-across"])
    func theRidgeCanRunAcrossTheLongSide(file: String) throws {
        let top = try Self.build(file).roofTop
        #expect(top.allSatisfy { abs($0.x) < 0.02 } && (top.map(\.y).max() ?? 0) - (top.map(\.y).min() ?? 0) > 13.9,
                "\(file): the ridge should run north-south: \(top)")
    }

    @Test func roofOrientationAlongKeepsTheRidgeOnTheLongSide() throws {
        let top = try Self.build("roof-orientation-along").roofTop
        #expect(top.allSatisfy { abs($0.y) < 0.02 } && (top.map(\.x).max() ?? 0) - (top.map(\.x).min() ?? 0) > 23.9)
    }

    /// Every file of the corpus is read and built (none forgotten by the tests above).
    @Test func everyCorpusFileBuilds() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.corpus.path).filter { $0.hasSuffix(".osm") }
        #expect(files.count >= 50)
        for file in files {
            let built = try Self.build(String(file.dropLast(4)))
            #expect(!built.triangles.isEmpty, "\(file) builds nothing")
        }
    }
}
