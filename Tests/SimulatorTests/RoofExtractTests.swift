import Foundation
import Geodesy
import MapData
import Testing
@testable import Simulator

/// Every building of two real extracts (the shipped Helsinki centre and Munich's old town, with 480
/// `roof:shape`s on courtyard blocks, L and U shapes and many-sided outlines): its walls and roof as
/// the city model splits them, against Simple 3D Buildings' rules.
@Suite struct RoofExtractTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let extracts = [root.appendingPathComponent("Panoramas/sources/helsinki-centre.osm.pbf").path,
                           root.appendingPathComponent("Tests/Fixtures/osm/munich-centre-2020-07.osm.pbf").path]

    struct Split {
        var building: Building
        var shape: RoofShape
        var run: Double
        var wallTop: Double
        var roof: Double
    }

    /// Each building's split, as `addBuilding` makes it (the same frame, top and radius).
    static func splits(_ path: String) throws -> [Split] {
        let dataset = try MapDataset(contentsOfFile: path)
        let box = try #require(dataset.boundingBox)
        let origin = try GeoCoordinate(latitude: (box.minLatitude + box.maxLatitude) / 2,
                                       longitude: (box.minLongitude + box.maxLongitude) / 2)
        let builder = CityModelBuilder(frame: try LocalTangentFrame(origin: origin), minX: -5000, minY: -5000, maxX: 5000, maxY: 5000)
        var splits: [Split] = []
        for building in dataset.buildings {
            let shape = RoofShape(tag: building.roofShape)
            for polygon in building.footprint {
                let outer = PolygonTriangulator.ccw(builder.ring(polygon.outer))
                guard outer.count >= 3 else { continue }
                let frame = RoofFrame.fitting(outer, directionDegrees: building.roofDirectionDegrees, across: building.roofOrientation == "across")
                var radius = 0.0
                for q in outer { radius = max(radius, hypot(q.x - frame.centerX, q.y - frame.centerY)) }
                var sized = building
                sized.heightMeters = max(building.heightMeters, building.minHeightMeters + 0.5)
                let split = CityModelBuilder.roofSplit(sized, shape: shape, frame: frame, radiusMeters: radius)
                splits.append(Split(building: sized, shape: shape, run: shape.isRadial ? radius : frame.halfWidth * shape.runFactor,
                                    wallTop: split.wallTopMeters, roof: split.roofHeightMeters))
            }
        }
        return splits
    }

    @Test(arguments: extracts)
    func wallsKeepTheirLevelsAndRoofsFollowTheRules(path: String) throws {
        let level = BuildingHeightRules.levelHeightMeters
        let splits = try Self.splits(path)
        var shaped = 0, withLevels = 0, shapes: [String: Int] = [:]
        for split in splits {
            let b = split.building, name = "\(b.source) \(b.roofShape ?? "flat")"
            #expect(split.roof >= 0 && split.wallTop >= b.minHeightMeters - 1e-9, "\(name): walls \(split.wallTop), roof \(split.roof)")
            // The walls are never lower than the tagged levels allow (unless `height` itself is lower).
            if let levels = b.levels, b.heightMeters >= levels * level {
                withLevels += 1
                #expect(split.wallTop >= levels * level - 1e-9, "\(name): walls \(split.wallTop) m under \(levels) levels")
            }
            guard split.shape != .flat else {
                #expect(split.roof == 0 && split.wallTop == b.heightMeters)
                continue
            }
            shaped += 1
            shapes[split.shape.rawValue, default: 0] += 1
            // The roof is the tagged one, or what is left of `height` above the levels; else the default.
            let tagged = b.roofHeightMeters ?? b.roofAngleDegrees.map { tan($0 * .pi / 180) * split.run }
                ?? b.roofLevels.flatMap { $0 > 0 ? $0 * level : nil }
            if let tagged {
                #expect(abs(split.roof - tagged) < 1e-6 || abs(split.wallTop - max(b.minHeightMeters, (b.levels ?? 0) * level)) < 1e-6,
                        "\(name): roof \(split.roof) m, tagged \(tagged) m")
            } else if split.shape.isRadial || split.shape == .round {
                #expect(split.roof <= 1.5 * split.run + 1e-6, "\(name): roof \(split.roof) m over a run of \(split.run) m")
            } else {
                #expect(split.roof <= level + 1e-9, "\(name): default roof \(split.roof) m, more than a level")
            }
            // `height` holds the roof; without it the roof stands on the walls.
            if b.heightSource == .heightTag {
                #expect(abs(split.wallTop + split.roof - b.heightMeters) < 1e-6, "\(name)")
            } else {
                #expect(split.wallTop + split.roof >= b.heightMeters - 1e-6, "\(name)")
            }
        }
        print("\((path as NSString).lastPathComponent): \(splits.count) footprints, \(withLevels) with levels, \(shaped) roofs: "
              + shapes.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        #expect(shaped >= 20, "too few shaped roofs to mean anything: \(shaped)")
    }

    /// Heleniuksen talo (way 87318457: 3 levels, gabled, no roof height) stood as one slope from the
    /// pavement to the ridge, its default roof as tall as the building: its walls are its 3 levels now.
    @Test func heleniuksenTaloStandsOnItsWalls() throws {
        let splits = try Self.splits(Self.extracts[0]).filter { $0.building.source == OSMElementReference(.way, 87318457) }
        let split = try #require(splits.first)
        #expect(split.building.levels == 3 && split.shape == .gabled)
        #expect(abs(split.wallTop - 3 * BuildingHeightRules.levelHeightMeters) < 1e-9)
        #expect(split.roof > 1 && split.roof <= BuildingHeightRules.levelHeightMeters + 1e-9)
    }
}
