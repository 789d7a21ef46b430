import Foundation
import Testing
@testable import MapData

/// The Simple 3D Buildings corpus (`Tests/Fixtures/osm/s3db`, one file per rule) as MapData reads it:
/// heights with and without units, levels, relation roles, contradictions reported. The simulator's
/// `S3DBConformanceTests` build the same files and check the mesh.
@Suite struct S3DBCorpusTests {
    static func load(_ name: String) throws -> MapDataset {
        try MapDataset(contentsOfFile: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/osm/s3db/\(name).osm").path)
    }

    static let heights: [(String, Double)] = [
        ("height-plain", 12.0), ("height-decimal", 12.5), ("height-decimal-comma", 12.5), ("height-metres", 12.0),
        ("height-metres-no-space", 12.5), ("height-feet", 12.192), ("height-feet-word", 12.192), ("height-feet-inches", 4.1148),
    ]

    @Test(arguments: heights)
    func heightsWithUnits(file: String, meters: Double) throws {
        let building = try #require(try Self.load(file).buildings.first)
        #expect(abs(building.heightMeters - meters) < 1e-9 && building.heightSource == .heightTag, "\(file): \(building.heightMeters)")
    }

    @Test func levelsMinLevelsAndRoofLevels() throws {
        let minLevel = try #require(try Self.load("min-level").buildings.first)
        #expect(abs(minLevel.minHeightMeters - 6.4) < 1e-9 && abs(minLevel.heightMeters - 16) < 1e-9)
        let roofLevels = try #require(try Self.load("levels-and-roof-levels").buildings.first)
        #expect(abs(roofLevels.heightMeters - 16) < 1e-9 && roofLevels.roofLevels == 1 && roofLevels.levels == 4)
    }

    @Test func aTopBelowItsBottomIsReadAsTheOwnHeightAndReported() throws {
        let data = try Self.load("height-below-min-height")
        let statue = try #require(data.buildings.first)
        #expect(abs(statue.minHeightMeters - 58.6) < 1e-9 && abs(statue.heightMeters - 66.9) < 1e-9)
        let note = try #require(data.diagnostics.first { $0.kind == .inconsistentTags })
        #expect(note.detail.contains("height=8.3") && note.detail.contains("min_height=58.6") && note.detail.contains("66.9"), "\(note)")
    }

    @Test func relationRolesDecideOutlineAndPart() throws {
        let data = try Self.load("relation-part-tagged-building")
        let byID = Dictionary(uniqueKeysWithValues: data.buildings.map { ($0.source.id, $0) })
        // The outline member has no building tag but historic=memorial: an outline of type monument, in the relation.
        let outline = try #require(byID[100])
        #expect(!outline.isPart && outline.buildingRelation == 900 && outline.buildingType == "monument")
        // The plinth is tagged building=yes but is a part member: a part.
        let plinth = try #require(byID[102])
        #expect(plinth.isPart && plinth.buildingRelation == 900 && abs(plinth.minHeightMeters - 2) < 1e-9)
        #expect(byID.values.filter { $0.buildingRelation == 900 }.count == 4)
        let twin = try Self.load("relation-several-outlines")
        #expect(twin.buildings.filter { !$0.isPart && $0.buildingRelation == 900 }.count == 2)
        #expect(twin.buildings.filter { $0.isPart && $0.buildingRelation == 900 }.count == 2)
    }

    @Test func buildingsWithoutRelationHaveNone() throws {
        let data = try Self.load("outline-hidden-by-parts")
        #expect(data.buildings.count == 3 && data.buildings.allSatisfy { $0.buildingRelation == nil })
        #expect(data.buildings.filter(\.isPart).count == 2)
    }

    /// Buildings below the ground are left out and said why: `location=underground`, and a negative `layer`
    /// or `level` with no height (an underground mall's shops); a height or a level at the ground keeps them.
    @Test func undergroundBuildingsAreLeftOutAndReported() throws {
        let station = try Self.load("underground-location")
        #expect(station.buildings.map(\.source.id) == [101], "\(station.buildings.map(\.source))")
        let stationNote = try #require(station.diagnostics.first { $0.kind == .underground })
        #expect(stationNote.element == OSMElementReference(.way, 100) && stationNote.detail.contains("location=underground"), "\(stationNote)")
        let mall = try Self.load("underground-layer-level")
        #expect(mall.buildings.map(\.source.id).sorted() == [101, 102], "\(mall.buildings.map(\.source))")
        let shop = try #require(mall.diagnostics.first { $0.kind == .underground })
        #expect(shop.element == OSMElementReference(.way, 100) && shop.detail.contains("layer=-1 and no height"), "\(shop)")
        #expect(FeatureAssembler.undergroundReason(["building": "yes", "level": "-2;-1"]) == "level=-2;-1 and no height")
        #expect(FeatureAssembler.undergroundReason(["building": "yes", "level": "-1;0"]) == nil)
        #expect(FeatureAssembler.undergroundReason(["building": "yes", "level": "basement"]) == nil)
        #expect(FeatureAssembler.undergroundReason(["building": "yes", "layer": "-1", "building:levels": "2"]) == nil)
        #expect(FeatureAssembler.undergroundReason(["building": "yes", "location": "underground", "height": "4"]) == "location=underground")
        #expect(FeatureAssembler.undergroundReason(["building": "yes", "location": "roof"]) == nil)
    }

    /// On data no rule was written for: Munich's old town maps the halls, corridors, lifts and shops of the
    /// Marienplatz and Stachus stations as `building:part`s with `layer`/`level` below 0 and no height, and
    /// some station buildings as `location=underground` (pyosmium counts 88 such elements); none is drawn.
    @Test func munichsUndergroundStationsAreLeftOut() throws {
        let data = try MapDataset(contentsOfFile: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/osm/munich-centre-2020-07.osm.pbf").path)
        let underground = data.diagnostics.filter { $0.kind == .underground }
        #expect((80...88).contains(underground.count), "\(underground.count) left out")
        for element in [OSMElementReference(.relation, 4462585), OSMElementReference(.way, 292199757), OSMElementReference(.way, 271119776)] {
            #expect(underground.contains { $0.element == element }, "\(element) is drawn")
            #expect(!data.buildings.contains { $0.source == element })
        }
        #expect(data.buildings.count > 2000, "\(data.buildings.count) buildings left")
    }

    @Test func theDeclaredBoundsAreRead() throws {
        let data = try Self.load("outline-only")
        let bounds = try #require(data.declaredBounds)
        #expect(abs(bounds.minLatitude - 52.4994608) < 1e-7 && abs(bounds.maxLongitude - 13.4008835) < 1e-7)
        #expect(data.dataBounds == bounds)
    }
}
