import Foundation
import Testing
@testable import Geodesy

@Suite("GeoCoordinate and Angle")
struct GeoCoordinateTests {
    @Test(arguments: [(-90.0, -180.0), (90, 179.999999), (0, 0), (60.1699, 24.9384), (-33.9, 151.2)])
    func acceptsValidCoordinates(latitude: Double, longitude: Double) throws {
        let c = try GeoCoordinate(latitude: latitude, longitude: longitude)
        #expect(c.latitude == latitude && c.longitude == longitude)
    }

    /// `make` throws a `GeodesyError` whose case (`value` takes it apart) carries `value` itself and whose
    /// text names `name value` and `range`; the text, for further checks.
    static func rejection(of value: Double, named name: String, range: String, _ make: () throws -> GeoCoordinate,
                          _ reported: (GeodesyError) -> Double?, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        let error = #expect(throws: GeodesyError.self, sourceLocation: sourceLocation) { try make() }
        guard let error, let carried = reported(error) else {
            Issue.record("wrong error \(String(describing: error))", sourceLocation: sourceLocation)
            return ""
        }
        #expect(carried == value || (carried.isNaN && value.isNaN), sourceLocation: sourceLocation)
        #expect(error.description.contains("\(name) \(value)"), sourceLocation: sourceLocation)
        #expect(error.description.contains(range), sourceLocation: sourceLocation)
        return error.description
    }

    @Test(arguments: [90.0000001, -91, 1000, Double.nan, .infinity, -.infinity])
    func rejectsBadLatitudeNamingValueAndRange(latitude: Double) {
        _ = Self.rejection(of: latitude, named: "latitude", range: "[-90, 90]", { try GeoCoordinate(latitude: latitude, longitude: 0) }) {
            guard case .latitudeOutOfRange(let value) = $0 else { return nil }
            return value
        }
    }

    @Test(arguments: [180.0, -180.0000001, 360, Double.nan, .infinity])
    func rejectsBadLongitudeNamingValueAndRange(longitude: Double) {
        let message = Self.rejection(of: longitude, named: "longitude", range: "[-180, 180)",
                                     { try GeoCoordinate(latitude: 10, longitude: longitude) }) {
            guard case .longitudeOutOfRange(let value) = $0 else { return nil }
            return value
        }
        #expect(message.contains("normalizingLongitude"))  // the remedy
    }

    @Test func nanMessageSaysNotFinite() {
        #expect(GeodesyError.latitudeOutOfRange(.nan).description.contains("not a finite number"))
    }

    @Test(arguments: [(180.0, -180.0), (181, -179), (-181, 179), (540, -180), (-540, -180), (359.5, -0.5),
                      (-0.0, 0), (720.25, 0.25)])
    func normalizingInitialiserWrapsLongitude(input: Double, expected: Double) throws {
        let c = try GeoCoordinate(latitude: 1, normalizingLongitude: input)
        #expect(c.longitude == expected)
        #expect(c.longitude.sign == .plus || c.longitude != 0)
    }

    @Test func normalizingInitialiserStillRejectsBadInput() {
        #expect(throws: GeodesyError.latitudeOutOfRange(95)) { try GeoCoordinate(latitude: 95, normalizingLongitude: 0) }
        #expect { try GeoCoordinate(latitude: 0, normalizingLongitude: .nan) } throws: { error in
            guard case GeodesyError.longitudeOutOfRange(let longitude) = error else { return false }
            return longitude.isNaN
        }
        #expect(throws: GeodesyError.longitudeOutOfRange(.infinity)) {
            try GeoCoordinate(latitude: 0, normalizingLongitude: .infinity)
        }
    }

    @Test func codableRoundTripAndValidation() throws {
        let c = try GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
        let data = try JSONEncoder().encode(c)
        let sorted = JSONEncoder()
        sorted.outputFormatting = .sortedKeys  // Foundation's key order is otherwise the hash table's
        #expect(String(decoding: try sorted.encode(c), as: UTF8.self) == #"{"latitude":60.1699,"longitude":24.9384}"#)
        #expect(try JSONDecoder().decode(GeoCoordinate.self, from: data) == c)
        let bad = Data(#"{"latitude": 91, "longitude": 0}"#.utf8)
        #expect(throws: GeodesyError.latitudeOutOfRange(91)) { try JSONDecoder().decode(GeoCoordinate.self, from: bad) }
    }

    @Test func convenienceGeodesicsAgreeWithGeodesic() throws {
        let helsinki = try GeoCoordinate(latitude: 60.1699, longitude: 24.9384)
        let tallinn = try GeoCoordinate(latitude: 59.4370, longitude: 24.7536)
        let inverse = Geodesic.wgs84.inverse(from: helsinki, to: tallinn)
        #expect(helsinki.distanceMeters(to: tallinn) == inverse.distanceMeters)
        #expect(helsinki.initialAzimuth(to: tallinn) == inverse.initialAzimuth)
        let back = try helsinki.destination(azimuth: inverse.initialAzimuth, distanceMeters: inverse.distanceMeters)
        #expect(chordMeters(back, tallinn) < GeodesicTolerance.distanceMeters)
    }

    @Test(arguments: [(0.0, 0.0), (360, 0), (-1, 359), (725, 5), (-360, 0), (-1e-20, 0), (359.99999999999994, 359.99999999999994)])
    func headingsNormaliseIntoZeroTo360(input: Double, expected: Double) {
        let heading = Angle(degrees: input).normalizedHeading.degrees
        #expect((0..<360).contains(heading))
        #expect(abs(heading - expected) < 1e-12)
    }

    @Test func angleConversionsAndArithmetic() {
        #expect(abs(Angle(radians: .pi).degrees - 180) < 1e-12)
        #expect(abs(Angle.degrees(90).radians - .pi / 2) < 1e-15)
        #expect((Angle.degrees(350) + .degrees(20)).normalizedHeading == .degrees(10))
        #expect(Angle.degrees(350).angularDistance(to: .degrees(10)) == .degrees(20))
        #expect(Angle.degrees(180).sine == 0 && Angle.degrees(90).cosine == 0)
        #expect(Angle(degrees: .nan).normalizedHeading.degrees.isNaN)
        #expect(Angle.degrees(190).normalizedSigned == .degrees(-170))
    }
}
