import Foundation
import Geodesy
import MapData
import Testing
@testable import Simulator

/// The Siegessäule fixture (`Tests/Fixtures/osm/grosser-stern`, reconstructed after the monument's OSM
/// data: a `type=building` relation whose plinth is tagged `building=yes`, `min_height=1.8`,
/// `height=9.2`, and whose statue is tagged with its own height): the monument stands on its stepped
/// foundation and plinth, the column on the plinth's hall, the statue on top, asserted from the mesh and
/// from rays cast at it.
@Suite struct SiegessaeuleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let path = root.appendingPathComponent("Tests/Fixtures/osm/grosser-stern/grosser-stern.osm").path

    /// The monument's buildings, built in a frame centred on the column.
    static let built = Result { () throws -> (builder: CityModelBuilder, model: CityModel) in
        let dataset = try MapDataset(contentsOfFile: path)
        var builder = CityModelBuilder(frame: try LocalTangentFrame(origin: GeoCoordinate(latitude: 52.514531, longitude: 13.350111)),
                                       minX: -300, minY: -300, maxX: 300, maxY: 300)
        builder.addBuildings(dataset.buildings)
        return (builder, CityModel(builder: builder))
    }

    /// The distance from the column's axis to the first surface a level ray at height `z` meets, coming
    /// from 40 m away in direction `bearing` (degrees clockwise from north); nil when it meets nothing.
    static func radius(atHeight z: Double, bearing: Double = 180) throws -> Double? {
        let model = try built.get().model
        let a = bearing * .pi / 180, dx = sin(a), dy = cos(a)
        return model.firstHit(from: EastNorthUp(east: 40 * dx, north: 40 * dy, up: z), direction: EastNorthUp(east: -dx, north: -dy, up: 0))
            .map { 40 - $0.distanceMeters }
    }

    @Test func thePlinthIsDrawnBetweenTheStepsAndTheHall() throws {
        for bearing in [0.0, 90, 180, 270] {
            for z in [2.0, 5, 9] {
                let r = try #require(try Self.radius(atHeight: z, bearing: bearing), "nothing at \(z) m from \(bearing)°: the plinth is missing")
                #expect(abs(r - 9.5) < 0.02, "at \(z) m from \(bearing)°: a surface \(r) m from the axis, the plinth's wall is 9.5 m")
            }
        }
    }

    @Test func theColumnStandsOnTheHallOnThePlinth() throws {
        // The hall (a 16-sided circle of radius 7: its sides 6.87 m from the axis) from 9.2 m, the column's
        // sides (2.55 m) from 16.5 m to 50.7 m.
        let hall = try #require(try Self.radius(atHeight: 12))
        #expect(abs(hall - 7 * cos(Double.pi / 16)) < 0.05, "hall at \(hall) m")
        for z in [17.0, 30, 45, 50] {
            let column = try #require(try Self.radius(atHeight: z))
            #expect(abs(column - 2.6 * cos(Double.pi / 16)) < 0.05, "column at \(z) m: \(column) m")
        }
        // Nothing floats: from the ground to the statue's top every level meets the monument within 16 m of its axis.
        for z in stride(from: 0.2, through: 66.6, by: 0.4) {
            let r = try Self.radius(atHeight: z)
            #expect(r.map { $0 < 16 } ?? false, "a gap at \(z) m")
        }
    }

    @Test func theStatueStandsOnTop() throws {
        let model = try Self.built.get().model
        let down = try #require(model.firstHit(from: EastNorthUp(east: 0, north: 0, up: 150), direction: EastNorthUp(east: 0, north: 0, up: -1)))
        #expect(abs(150 - down.distanceMeters - 66.9) < 0.05, "top of the monument at \(150 - down.distanceMeters) m, want 66.9 m")
        let statue = try #require(try Self.radius(atHeight: 60))
        #expect(statue < 1.7 && statue > 1.0, "statue at 60 m: \(statue) m from the axis")
        // The mesh's extent: from the ground to 66.9 m.
        let zs = try Self.built.get().builder.scene.vertices.map { Double($0.z) }
        #expect(abs((zs.max() ?? 0) - 66.9) < 0.01 && abs(zs.min() ?? 1) < 0.01)
    }
}
