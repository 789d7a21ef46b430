import Foundation
import Geodesy
import MapData
import Testing
@testable import Simulator

/// Woods drawn by what is known: the tags' leaf type, else the latitude's likely forest (conifers at 60° N).
@Suite struct VegetationTests {
    /// A 200 × 200 m wood with `tags`' leaf type at `latitude`, planted by the builder: (conifers, broadleaves).
    static func plant(latitude: Double, leafType: LeafType?, kind: AreaKind = .wood) throws -> (conifers: Int, broadleaves: Int) {
        let frame = try LocalTangentFrame(origin: GeoCoordinate(latitude: latitude, longitude: 26.9))
        func c(_ e: Double, _ n: Double) throws -> OSMCoordinate {
            let g = try frame.geodetic(from: EastNorthUp(east: e, north: n, up: 0)).coordinate
            return OSMCoordinate(latitude: g.latitude, longitude: g.longitude)
        }
        let ring = try [c(-100, -100), c(100, -100), c(100, 100), c(-100, 100), c(-100, -100)]
        let wood = AreaFeature(source: OSMElementReference(.way, 77), kind: kind, polygons: [OSMPolygon(outer: ring)], leafType: leafType)
        var builder = CityModelBuilder(frame: frame, minX: -150, minY: -150, maxX: 150, maxY: 150)
        builder.addGreenery([wood])
        let cone = builder.scene.prototypeIndex("conifer-crown"), round = builder.scene.prototypeIndex("crown")
        return (builder.scene.instances.filter { $0.prototype == cone }.count, builder.scene.instances.filter { $0.prototype == round }.count)
    }

    @Test func untaggedWoodsFollowTheLatitude() throws {
        // Kotka (60.5° N): mostly conifers; Monaco's latitude (43.7° N): mostly broadleaves.
        let north = try Self.plant(latitude: 60.47, leafType: nil)
        let share = Double(north.conifers) / Double(north.conifers + north.broadleaves)
        #expect(north.conifers + north.broadleaves > 300)
        #expect(abs(share - 0.8) < 0.05, "at 60.5° N \(share) of the trees are conifers")
        let south = try Self.plant(latitude: 43.7, leafType: nil)
        let southShare = Double(south.conifers) / Double(south.conifers + south.broadleaves)
        #expect(abs(southShare - 0.3) < 0.05, "at 43.7° N \(southShare)")
    }

    @Test func tagsWinOverTheLatitude() throws {
        let broad = try Self.plant(latitude: 60.47, leafType: .broadleaved)
        #expect(broad.conifers == 0 && broad.broadleaves > 300)
        let needle = try Self.plant(latitude: 43.7, leafType: .needleleaved)
        #expect(needle.broadleaves == 0 && needle.conifers > 300)
        let mixed = try Self.plant(latitude: 60.47, leafType: .mixed)
        #expect(abs(Double(mixed.conifers) / Double(mixed.conifers + mixed.broadleaves) - 0.5) < 0.06)
    }

    @Test func parksArePlantedBroadleavesMostly() throws {
        let park = try Self.plant(latitude: 60.47, leafType: nil, kind: .park)
        let share = Double(park.conifers) / Double(park.conifers + park.broadleaves)
        #expect(abs(share - 0.2) < 0.07, "park at 60.5° N: \(share)")
    }

    @Test func aMappedTreesGenusDecides() throws {
        var builder = try TestScenes.builder()
        let frame = builder.frame
        func c(_ e: Double, _ n: Double) throws -> OSMCoordinate {
            let g = try frame.geodetic(from: EastNorthUp(east: e, north: n, up: 0)).coordinate
            return OSMCoordinate(latitude: g.latitude, longitude: g.longitude)
        }
        builder.addTrees([Tree(source: OSMElementReference(.node, 1), position: try c(0, 0), leafType: LeafType(tags: ["genus": "Pinus"])),
                          Tree(source: OSMElementReference(.node, 2), position: try c(20, 0), leafType: nil),
                          Tree(source: OSMElementReference(.node, 3), position: try c(40, 0), leafType: LeafType(tags: ["leaf_type": "broadleaved"]))],
                         rows: [])
        let cone = builder.scene.prototypeIndex("conifer-crown"), round = builder.scene.prototypeIndex("crown")
        #expect(builder.scene.instances.filter { $0.prototype == cone }.count == 1)
        #expect(builder.scene.instances.filter { $0.prototype == round }.count == 2)
    }
}
