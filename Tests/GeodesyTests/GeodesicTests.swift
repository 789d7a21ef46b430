import Foundation
import Testing
@testable import Geodesy

/// Tolerances against the geographiclib reference table, named once.
enum GeodesicTolerance {
    /// Inverse distance and direct destination: 1 mm.
    static let distanceMeters = 0.001
    /// Azimuths where they are well defined.
    static let azimuthDegrees = 1e-8
    /// Rounding noise in an Earth-scale coordinate (a few ulps of a degree value, in metres). On a short
    /// line it turns into an azimuth uncertainty of noise / distance radians, which exceeds
    /// `azimuthDegrees` below about 60 m.
    static let coordinateNoiseMeters = 1e-8
    /// Azimuths of coincident and (nearly) antipodal pairs, where they are ill-defined or ill-conditioned:
    /// a change of the input in the last bit moves them by far more than that bit.
    static let illConditionedAzimuthDegrees = 1e-5

    /// The azimuth tolerance for a well-defined line of the given length.
    static func azimuthDegrees(distanceMeters: Double) -> Double {
        max(azimuthDegrees, coordinateNoiseMeters / distanceMeters * 180 / .pi)
    }
}

@Suite("Geodesic against geographiclib")
struct GeodesicTableTests {
    let rows = GeodesicTable.rows
    let wgs84 = Geodesic.wgs84

    @Test func tableIsLargeAndCoversEveryCategory() {
        #expect(rows.count >= 1000)
        let categories = Set(rows.map(\.category))
        #expect(categories == ["random", "short", "near_antipodal", "antipodal", "antimeridian", "polar",
                               "equatorial", "meridional", "coincident"])
    }

    @Test func inverseDistanceWithinOneMillimetre() {
        var worst = 0.0
        for row in rows {
            let result = wgs84.inverse(from: row.start, to: row.end)
            let error = abs(result.distanceMeters - row.distanceMeters)
            worst = max(worst, error)
            #expect(error <= GeodesicTolerance.distanceMeters, "\(row): got \(result.distanceMeters) m, want \(row.distanceMeters) m")
        }
        print("geodesic inverse: worst distance error \(worst * 1000) mm over \(rows.count) cases")
    }

    @Test func inverseAzimuthsMatch() {
        var worst = 0.0, worstAntipodal = 0.0
        for row in rows {
            let result = wgs84.inverse(from: row.start, to: row.end)
            let e1 = azimuthDifferenceDegrees(result.initialAzimuth.degrees, row.azimuth1Degrees)
            let e2 = azimuthDifferenceDegrees(result.finalAzimuth.degrees, row.azimuth2Degrees)
            let antipodal = ["antipodal", "near_antipodal", "coincident"].contains(row.category)
            let tolerance = antipodal ? GeodesicTolerance.illConditionedAzimuthDegrees
                : GeodesicTolerance.azimuthDegrees(distanceMeters: row.distanceMeters)
            if antipodal { worstAntipodal = max(worstAntipodal, e1, e2) } else { worst = max(worst, e1, e2) }
            #expect(e1 <= tolerance, "\(row): azi1 \(result.initialAzimuth.degrees), want \(row.azimuth1Degrees)")
            #expect(e2 <= tolerance, "\(row): azi2 \(result.finalAzimuth.degrees), want \(row.azimuth2Degrees)")
        }
        print("geodesic inverse: worst azimuth error \(worst) deg, coincident/(near-)antipodal \(worstAntipodal) deg")
    }

    @Test func directDestinationWithinOneMillimetre() throws {
        var worst = 0.0, worstAzimuth = 0.0
        for row in rows {
            let result = try wgs84.direct(from: row.start, azimuth: .degrees(row.azimuth1Degrees),
                                          distanceMeters: row.distanceMeters)
            let error = chordMeters(result.destination, row.end)
            worst = max(worst, error)
            #expect(error <= GeodesicTolerance.distanceMeters, "\(row): got \(result.destination), \(error) m off")
            if abs(row.latitude2) < 89.9 {  // at the pole the final azimuth depends on the longitude convention
                let e2 = azimuthDifferenceDegrees(result.finalAzimuth.degrees, row.azimuth2Degrees)
                worstAzimuth = max(worstAzimuth, e2)
                #expect(e2 <= GeodesicTolerance.azimuthDegrees(distanceMeters: row.distanceMeters), "\(row): azi2 \(result.finalAzimuth.degrees)")
            }
        }
        print("geodesic direct: worst destination error \(worst * 1000) mm, worst final azimuth error \(worstAzimuth) deg")
    }
}

@Suite("Geodesic properties and input checks")
struct GeodesicPropertyTests {
    let wgs84 = Geodesic.wgs84

    @Test func azimuthsAreNormalisedHeadings() {
        for row in GeodesicTable.rows {
            let result = wgs84.inverse(from: row.start, to: row.end)
            #expect((0..<360).contains(result.initialAzimuth.degrees), "\(row)")
            #expect((0..<360).contains(result.finalAzimuth.degrees), "\(row)")
        }
    }

    @Test func distanceIsSymmetric() {
        for row in GeodesicTable.rows {
            let forward = wgs84.inverse(from: row.start, to: row.end).distanceMeters
            let backward = wgs84.inverse(from: row.end, to: row.start).distanceMeters
            #expect(abs(forward - backward) <= GeodesicTolerance.distanceMeters, "\(row)")
        }
    }

    @Test func inverseThenDirectReturnsToTheEndPoint() throws {
        for row in GeodesicTable.rows where row.category == "random" || row.category == "antimeridian" {
            let inverse = wgs84.inverse(from: row.start, to: row.end)
            let direct = try wgs84.direct(from: row.start, azimuth: inverse.initialAzimuth,
                                          distanceMeters: inverse.distanceMeters)
            #expect(chordMeters(direct.destination, row.end) <= GeodesicTolerance.distanceMeters, "\(row)")
        }
    }

    @Test func knownValues() throws {
        // Quarter meridian and equatorial circumference of WGS84 (textbook values).
        let equator = try GeoCoordinate(latitude: 0, longitude: 0)
        let northPole = try GeoCoordinate(latitude: 90, longitude: 0)
        #expect(abs(wgs84.inverse(from: equator, to: northPole).distanceMeters - 10_001_965.729) < 0.001)
        let east = try GeoCoordinate(latitude: 0, longitude: 90)
        #expect(abs(wgs84.inverse(from: equator, to: east).distanceMeters - 40_075_016.686 / 4) < 0.001)
        #expect(wgs84.inverse(from: equator, to: east).initialAzimuth == .degrees(90))
        // Across the 180th meridian the short way round: 0.0002° of longitude on the equator.
        let west = try GeoCoordinate(latitude: 0, longitude: 179.9999)
        let eastOfMeridian = try GeoCoordinate(latitude: 0, longitude: -179.9999)
        #expect(abs(wgs84.inverse(from: west, to: eastOfMeridian).distanceMeters - 40_075_016.686 * 0.0002 / 360) < 0.001)
        #expect(wgs84.inverse(from: west, to: eastOfMeridian).initialAzimuth == .degrees(90))
        // Coincident points: zero distance.
        #expect(wgs84.inverse(from: east, to: east).distanceMeters == 0)
    }

    @Test func directRejectsNonFiniteInput() throws {
        let start = try GeoCoordinate(latitude: 60, longitude: 25)
        for bad in [Double.nan, .infinity, -.infinity] {
            let error = #expect {
                try wgs84.direct(from: start, azimuth: .degrees(10), distanceMeters: bad)
            } throws: { error in
                guard case GeodesyError.notFinite("distanceMeters", let value) = error else { return false }
                return value == bad || (value.isNaN && bad.isNaN)
            }
            #expect((error as? GeodesyError)?.description.contains("distanceMeters \(bad)") == true)
            #expect {
                try wgs84.direct(from: start, azimuth: .degrees(bad), distanceMeters: 10)
            } throws: { error in
                guard case GeodesyError.notFinite("azimuthDegrees", let value) = error else { return false }
                return value == bad || (value.isNaN && bad.isNaN)
            }
        }
    }

    @Test func ellipsoidIsValidated() throws {
        #expect(throws: GeodesyError.ellipsoidOutOfRange(equatorialRadiusMeters: -1, flattening: 0)) {
            try Geodesic(equatorialRadiusMeters: -1, flattening: 0)
        }
        #expect(throws: GeodesyError.ellipsoidOutOfRange(equatorialRadiusMeters: 6e6, flattening: 0.5)) {
            try Geodesic(equatorialRadiusMeters: 6e6, flattening: 0.5)
        }
        #expect { try Geodesic(equatorialRadiusMeters: .nan, flattening: 0) } throws: { error in
            guard case GeodesyError.ellipsoidOutOfRange(let radius, 0) = error else { return false }
            return radius.isNaN
        }
    }

    @Test func sphereMatchesGreatCircle() throws {
        // With f = 0 the geodesic is a great circle: compare to the spherical law of haversines.
        let radius = 6_371_000.0
        let sphere = try Geodesic(equatorialRadiusMeters: radius, flattening: 0)
        for row in GeodesicTable.rows.prefix(200) {
            let phi1 = row.latitude1 * .pi / 180, phi2 = row.latitude2 * .pi / 180
            let dLambda = (row.longitude2 - row.longitude1) * .pi / 180
            let h = pow(sin((phi2 - phi1) / 2), 2) + cos(phi1) * cos(phi2) * pow(sin(dLambda / 2), 2)
            let expected = 2 * radius * asin(min(1, h.squareRoot()))
            #expect(abs(sphere.inverse(from: row.start, to: row.end).distanceMeters - expected) < 0.001, "\(row)")
        }
    }
}
