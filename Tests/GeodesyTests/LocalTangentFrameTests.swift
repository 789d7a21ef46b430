import TestSupport
import Foundation
import Testing
@testable import Geodesy

/// Tolerances for ECEF and ENU tests, named once.
enum FrameTolerance {
    /// Round trips through ECEF / ENU: 10 µm, far below the required sub-millimetre level.
    static let roundTripMeters = 1e-5
    /// Known values computed with 30-digit arithmetic (mpmath) from the WGS84 definition.
    static let knownValueMeters = 1e-6
}

@Suite("ECEF and local east-north-up frames")
struct LocalTangentFrameTests {
    @Test func ecefKnownValues() throws {
        func ecef(_ latitude: Double, _ longitude: Double, _ height: Double) throws -> ECEFPosition {
            try ECEFPosition(try GeoCoordinate(latitude: latitude, longitude: longitude), heightMeters: height)
        }
        #expect(try ecef(0, 0, 0) == ECEFPosition(x: WGS84.equatorialRadiusMeters, y: 0, z: 0))
        #expect(try ecef(0, 90, 0) == ECEFPosition(x: 0, y: WGS84.equatorialRadiusMeters, z: 0))
        #expect(try ecef(90, 0, 0) == ECEFPosition(x: 0, y: 0, z: WGS84.polarRadiusMeters))
        #expect(abs(WGS84.polarRadiusMeters - 6_356_752.314_245_179) < 1e-6)
        // Helsinki Cathedral at 50 m ellipsoidal height.
        let cathedral = try ecef(60.170833, 24.9525, 50)
        let expected = ECEFPosition(x: 2_883_745.036_101_971, y: 1_341_802.959_528_106, z: 5_510_012.493_756_663)
        #expect(cathedral.distanceMeters(to: expected) < FrameTolerance.knownValueMeters)
    }

    @Test func geodeticRoundTripThroughECEF() throws {
        var rng = SeededGenerator(seed: 4)
        var coordinates = [(90.0, 0.0), (-90, 45), (0, -180), (89.999999, 10), (0, 0)]
        for _ in 0..<2000 {
            coordinates.append((Double.random(in: -90...90, using: &rng), Double.random(in: -180..<180, using: &rng)))
        }
        for (latitude, longitude) in coordinates {
            let height = Double.random(in: -10_000...100_000, using: &rng)
            let position = try GeodeticPosition(coordinate: try GeoCoordinate(latitude: latitude, longitude: longitude),
                                                heightMeters: height)
            let ecef = ECEFPosition(position)
            let back = try ecef.geodetic()
            #expect(ECEFPosition(back).distanceMeters(to: ecef) < FrameTolerance.roundTripMeters, "\(position)")
            #expect(abs(back.heightMeters - height) < FrameTolerance.roundTripMeters, "\(position)")
            #expect(abs(back.coordinate.latitude - latitude) < 1e-10, "\(position)")
        }
    }

    @Test func enuKnownValues() throws {
        let frame = try LocalTangentFrame(origin: try GeoCoordinate(latitude: 0, longitude: 0), heightMeters: 0)
        let above = try frame.enu(from: try GeoCoordinate(latitude: 0, longitude: 0), heightMeters: 100)
        #expect(abs(above.east) < 1e-9 && abs(above.north) < 1e-9 && abs(above.up - 100) < 1e-9)
        // 0.001° east along the equator: east = a sin(0.001°), up = a (cos(0.001°) - 1) (mpmath values).
        let east = try frame.enu(from: try GeoCoordinate(latitude: 0, longitude: 0.001), heightMeters: 0)
        #expect(abs(east.east - 111.319_490_787_621_93) < FrameTolerance.knownValueMeters)
        #expect(abs(east.north) < FrameTolerance.knownValueMeters)
        #expect(abs(east.up - -0.000_971_445_817_968_409_17) < FrameTolerance.knownValueMeters)
        #expect(abs(east.heading.degrees - 90) < 1e-9)
    }

    @Test func northIsNorthAwayFromTheEquator() throws {
        let origin = try GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
        let frame = try LocalTangentFrame(origin: origin, heightMeters: 0)
        let north = try origin.destination(azimuth: .zero, distanceMeters: 1000)
        let vector = try frame.enu(from: north, heightMeters: 0)
        #expect(abs(vector.east) < 1e-6)
        // Along the surface 1000 m; the chord is shorter by s³/(24 R²) and dips below the tangent plane.
        #expect(abs(vector.north - 1000) < 1e-5)
        #expect(vector.up < 0 && vector.up > -0.1)
        #expect(vector.heading.angularDistance(to: .zero).degrees < 1e-9)
    }

    @Test func enuRoundTrips() throws {
        var rng = SeededGenerator(seed: 5)
        for _ in 0..<200 {
            let origin = try GeoCoordinate(latitude: Double.random(in: -89...89, using: &rng),
                                           longitude: Double.random(in: -180..<180, using: &rng))
            let frame = try LocalTangentFrame(origin: origin, heightMeters: Double.random(in: -100...3000, using: &rng))
            for _ in 0..<10 {
                let vector = EastNorthUp(east: Double.random(in: -5000...5000, using: &rng),
                                         north: Double.random(in: -5000...5000, using: &rng),
                                         up: Double.random(in: -200...200, using: &rng))
                let position = try frame.geodetic(from: vector)
                let back = try frame.enu(from: position.coordinate, heightMeters: position.heightMeters)
                let error = EastNorthUp(east: back.east - vector.east, north: back.north - vector.north,
                                        up: back.up - vector.up).lengthMeters
                #expect(error < FrameTolerance.roundTripMeters, "\(origin) \(vector)")
            }
        }
    }

    @Test func badInputThrows() throws {
        let origin = try GeoCoordinate(latitude: 0, longitude: 0)
        let error = #expect { try LocalTangentFrame(origin: origin, heightMeters: .nan) } throws: { error in
            guard case GeodesyError.notFinite("heightMeters", let height) = error else { return false }
            return height.isNaN
        }
        #expect((error as? GeodesyError)?.description.contains("heightMeters nan") == true)
        let frame = try LocalTangentFrame(origin: origin)
        #expect(throws: GeodesyError.notFinite(parameter: "east metres", value: .infinity)) {
            try frame.geodetic(from: EastNorthUp(east: .infinity, north: 0, up: 0))
        }
        #expect { try ECEFPosition(x: .nan, y: 0, z: 0).geodetic() } throws: { error in
            guard case GeodesyError.notFinite("ECEF x metres", let x) = error else { return false }
            return x.isNaN
        }
    }
}
