import Foundation
import Geodesy
import MapData
@testable import Simulator

/// Small hand-made scenes for fast tests.
enum TestScenes {
    /// Senaatintori.
    static func origin() throws -> GeoCoordinate { try GeoCoordinate(latitude: 60.1699, longitude: 24.9523) }

    static func builder() throws -> CityModelBuilder {
        CityModelBuilder(frame: try LocalTangentFrame(origin: origin()), minX: -100, minY: -100, maxX: 100, maxY: 100)
    }

    /// Ground plane plus a wall 10 m north of the origin facing south (x −20…20, 0…15 m high).
    static func wall(distanceMeters: Double = 10) throws -> CityModel {
        var b = try builder()
        b.addGround()
        b.scene.addWall(from: (20, distanceMeters), to: (-20, distanceMeters), bottom: 0, top: 15, mappingBase: 0,
                        SurfaceRecord(normal: .zero, material: .facade, albedo: Vec3(0.5, 0.5, 0.5), extentV: 15, style: 1 << 30))
        return CityModel(builder: b)
    }

    /// Ground plane plus a 4 × 4 × 6 m box centred 8 m east of the origin.
    static func box() throws -> CityModel {
        var b = try builder()
        b.addGround()
        b.scene.addBox(minimum: Vec3(6, -2, 0), maximum: Vec3(10, 2, 6),
                       SurfaceRecord(normal: .zero, material: .roof, albedo: Vec3(0.6, 0.3, 0.2)))
        return CityModel(builder: b)
    }
}

extension TestScenes {
    /// A tiny town: one street running east along north = 0, a 12 m building block on each side
    /// (south block has a café), all around the fixture origin.
    static func town() throws -> MapDataset {
        let frame = try LocalTangentFrame(origin: origin())
        func c(_ east: Double, _ north: Double) throws -> OSMCoordinate {
            let g = try frame.geodetic(from: EastNorthUp(east: east, north: north, up: 0)).coordinate
            return OSMCoordinate(latitude: g.latitude, longitude: g.longitude)
        }
        func block(_ id: Int64, _ s: Double, _ n: Double) throws -> Building {
            Building(source: OSMElementReference(.way, id), isPart: false, buildingType: "apartments",
                     footprint: [OSMPolygon(outer: [try c(-60, s), try c(60, s), try c(60, n), try c(-60, n), try c(-60, s)])],
                     heightMeters: 12, minHeightMeters: 0, heightSource: .levels, colour: "#d8c8a0")
        }
        let street = Street(source: OSMElementReference(.way, 10), highwayClass: .residential, name: "Testikatu",
                            names: ["sv": "Testgatan"], points: [try c(-80, 0), try c(0, 0), try c(80, 0)])
        let cafe = Place(source: OSMElementReference(.node, 20), name: "Café Test", names: [:],
                         category: PlaceCategory(key: "amenity", value: "cafe", name: "cafe", group: .food),
                         address: nil, phone: nil, website: nil, openingHours: nil, position: try c(5, -9))
        let box = OSMBoundingBox(minLatitude: try c(0, -70).latitude, minLongitude: try c(-90, 0).longitude,
                                 maxLatitude: try c(0, 70).latitude, maxLongitude: try c(90, 0).longitude)
        return MapDataset(sourcePath: "test", boundingBox: box, counts: OSMElementCounts(),
                          buildings: [try block(1, -30, -8), try block(2, 8, 30)], streets: [street], railways: [], areas: [],
                          trees: [], treeRows: [], coastlines: [], places: [cafe], diagnostics: [])
    }
}
