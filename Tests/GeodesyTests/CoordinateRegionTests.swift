import TestSupport
import Foundation
import Testing
@testable import Geodesy

@Suite("CoordinateRegion and CoordinateSpan")
struct CoordinateRegionTests {
    func region(_ latitude: Double, _ longitude: Double, _ latitudeDelta: Double, _ longitudeDelta: Double) throws -> CoordinateRegion {
        try CoordinateRegion(center: try GeoCoordinate(latitude: latitude, longitude: longitude),
                             span: try CoordinateSpan(latitudeDelta: latitudeDelta, longitudeDelta: longitudeDelta))
    }

    @Test func regionAcrossThe180thMeridian() throws {
        let pacific = try region(0, 179, 2, 4)   // 177°E … 179°W
        #expect(pacific.spans180thMeridian)
        #expect(pacific.westLongitude == 177 && pacific.eastLongitude == -179)
        #expect(pacific.contains(try GeoCoordinate(latitude: 0.5, longitude: -179.5)))
        #expect(pacific.contains(try GeoCoordinate(latitude: 0.5, longitude: 177.5)))
        #expect(pacific.contains(try GeoCoordinate(latitude: 1, longitude: -179)))   // edges included
        #expect(!pacific.contains(try GeoCoordinate(latitude: 0, longitude: -178.5)))
        #expect(!pacific.contains(try GeoCoordinate(latitude: 1.5, longitude: 178)))
        #expect(!(try region(0, 10, 2, 4)).spans180thMeridian)
    }

    @Test func intersectsAcrossTheMeridian() throws {
        let pacific = try region(0, 179, 2, 4)
        #expect(pacific.intersects(try region(0, -178, 2, 2)))   // touches at 179°W
        #expect(try region(0, -178, 2, 2).intersects(pacific))
        #expect(!pacific.intersects(try region(0, -170, 2, 2)))
        #expect(!pacific.intersects(try region(10, 179, 2, 2)))
        #expect(pacific.intersects(try region(0, 0, 2, 360)))
    }

    @Test func unionTakesTheShorterArc() throws {
        let a = try region(0, 179, 2, 4)      // 177 … -179
        let b = try region(5, -175, 2, 2)     // -176 … -174
        let union = a.union(b)
        #expect(abs(union.span.longitudeDelta - 9) < 1e-12)
        #expect(abs(union.westLongitude - 177) < 1e-12)
        #expect(abs(union.center.longitude - -178.5) < 1e-12)
        #expect(abs(union.northLatitude - 6) < 1e-12 && abs(union.southLatitude - -1) < 1e-12)
        #expect(union == b.union(a))
        let whole = try region(0, 0, 2, 200).union(try region(0, 180 - 1e-9, 2, 200))
        #expect(whole.span.longitudeDelta == 360)
    }

    @Test func metresInitialiser() throws {
        let helsinki = try GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
        let r = try CoordinateRegion(center: helsinki, latitudinalMeters: 2000, longitudinalMeters: 1000)
        // The region's sides, measured along geodesics, are the requested sizes (to 0.01 % at this scale).
        let north = try GeoCoordinate(latitude: r.northLatitude, longitude: helsinki.longitude)
        let south = try GeoCoordinate(latitude: r.southLatitude, longitude: helsinki.longitude)
        #expect(abs(north.distanceMeters(to: south) / 2000 - 1) < 1e-4)
        let west = try GeoCoordinate(latitude: helsinki.latitude, longitude: r.westLongitude)
        let east = try GeoCoordinate(latitude: helsinki.latitude, longitude: r.eastLongitude)
        #expect(abs(west.distanceMeters(to: east) / 1000 - 1) < 1e-4)
        #expect { try CoordinateRegion(center: helsinki, latitudinalMeters: -1, longitudinalMeters: 1) } throws: { error in
            guard case GeodesyError.latitudeDeltaOutOfRange(let degrees) = error else { return false }
            return degrees < 0
        }
        #expect { try CoordinateRegion(center: helsinki, latitudinalMeters: .nan, longitudinalMeters: 1) } throws: { error in
            guard case GeodesyError.notFinite("latitudinalMeters", let value) = error else { return false }
            return value.isNaN
        }
        #expect { try CoordinateRegion(center: helsinki, latitudinalMeters: 1, longitudinalMeters: 1e8) } throws: { error in
            guard case GeodesyError.longitudeDeltaOutOfRange(let degrees) = error else { return false }
            return degrees > 360
        }
    }

    @Test func edgesInitialiser() throws {
        let r = try CoordinateRegion(north: 10, south: -10, west: 170, east: -170)
        #expect(r.span.longitudeDelta == 20 && r.center.longitude == -180 && r.spans180thMeridian)
        #expect(throws: GeodesyError.latitudeDeltaOutOfRange(-20)) {
            try CoordinateRegion(north: -10, south: 10, west: 0, east: 1)
        }
    }

    @Test func validationMessages() throws {
        let error = #expect(throws: GeodesyError.regionBeyondPole(centerLatitude: 80, latitudeDelta: 30)) {
            try region(80, 0, 30, 10)
        }
        #expect(error?.description.contains("95.0") == true)
        #expect(error?.description.contains("[-90, 90]") == true)
        let span = #expect(throws: GeodesyError.latitudeDeltaOutOfRange(-1)) {
            try CoordinateSpan(latitudeDelta: -1, longitudeDelta: 10)
        }
        #expect(span?.description.contains("latitudeDelta -1.0") == true)
        #expect(span?.description.contains("[0, 180]") == true)
        #expect(throws: GeodesyError.longitudeDeltaOutOfRange(361)) { try CoordinateSpan(latitudeDelta: 1, longitudeDelta: 361) }
        #expect { try CoordinateSpan(latitudeDelta: .nan, longitudeDelta: 1) } throws: { error in
            guard case GeodesyError.latitudeDeltaOutOfRange(let value) = error else { return false }
            return value.isNaN
        }
        let json = Data(#"{"latitudeDelta": 200, "longitudeDelta": 1}"#.utf8)
        #expect(throws: GeodesyError.latitudeDeltaOutOfRange(200)) { try JSONDecoder().decode(CoordinateSpan.self, from: json) }
    }

    @Test func codableRoundTrip() throws {
        let r = try region(60.17, 24.94, 0.05, 0.1)
        #expect(try JSONDecoder().decode(CoordinateRegion.self, from: JSONEncoder().encode(r)) == r)
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys  // Foundation's key order is otherwise the hash table's
        #expect(String(decoding: try sorted.encode(r), as: UTF8.self)
                == #"{"center":{"latitude":60.17,"longitude":24.94},"span":{"latitudeDelta":0.05,"longitudeDelta":0.1}}"#)
        let beyondPole = Data(#"{"center": {"latitude": 89, "longitude": 0}, "span": {"latitudeDelta": 10, "longitudeDelta": 1}}"#.utf8)
        #expect(throws: GeodesyError.regionBeyondPole(centerLatitude: 89, latitudeDelta: 10)) {
            try JSONDecoder().decode(CoordinateRegion.self, from: beyondPole)
        }
    }

    @Test func mapRectOfARegionAcrossTheMeridian() throws {
        let rect = MapRect(try region(0, 179, 2, 4))
        let w = MapSize.world.width
        #expect(rect.spans180thMeridian)
        #expect(rect.minX >= 0 && rect.minX < w && rect.maxX > w)
        #expect(abs(rect.width - w * 4 / 360) < MapTolerance.mapPoints)
        #expect(rect.contains(MapPoint(try GeoCoordinate(latitude: 0, longitude: -179.5))))
    }

    @Test func regionToMapRectRoundTrip() throws {
        var rng = SeededGenerator(seed: 3)
        for _ in 0..<1000 {
            let latitudeDelta = Double.random(in: 0...40, using: &rng)
            let r = try region(Double.random(in: -60...60, using: &rng), Double.random(in: -180..<180, using: &rng),
                               latitudeDelta, Double.random(in: 0...360, using: &rng))
            let back = try CoordinateRegion(MapRect(r))
            #expect(abs(back.center.latitude - r.center.latitude) < 1e-9, "\(r)")
            #expect(abs((back.center.longitude - r.center.longitude).remainder(dividingBy: 360)) < 1e-9, "\(r)")
            #expect(abs(back.span.latitudeDelta - r.span.latitudeDelta) < 1e-9, "\(r)")
            #expect(abs(back.span.longitudeDelta - r.span.longitudeDelta) < 1e-9, "\(r)")
        }
        #expect(throws: GeodesyError.notFinite(parameter: "map rect x", value: .infinity)) { try CoordinateRegion(MapRect.null) }
        #expect(throws: GeodesyError.longitudeDeltaOutOfRange(720)) {
            try CoordinateRegion(MapRect(x: 0, y: 0, width: MapSize.world.width * 2, height: 1))
        }
    }
}
