import Foundation
import Testing
@testable import Geodesy

@Suite("SphericalEarth (haversine) against the ellipsoid")
struct SphericalEarthTests {
    @Test func worstRelativeErrorIsWithinTheDocumentedBound() {
        var worst = 0.0
        for row in GeodesicTable.rows where row.distanceMeters > 0 {
            let spherical = SphericalEarth.distanceMeters(from: row.start, to: row.end)
            let relative = abs(spherical - row.distanceMeters) / row.distanceMeters
            worst = max(worst, relative)
            #expect(relative <= SphericalEarth.worstRelativeDistanceError, "\(row): \(spherical) m")
        }
        print("spherical distance: worst relative error \(worst) over the table")
        // The documented bound is tight, not a loose guess.
        #expect(worst > SphericalEarth.worstRelativeDistanceError * 0.9)
    }

    @Test func coincidentAndAntipodalPoints() throws {
        let p = try GeoCoordinate(latitude: 12, longitude: 34)
        #expect(SphericalEarth.distanceMeters(from: p, to: p) == 0)
        let q = try GeoCoordinate(latitude: -12, longitude: -146)
        #expect(abs(SphericalEarth.distanceMeters(from: p, to: q) - .pi * SphericalEarth.meanRadiusMeters) < 1e-6)
    }

    @Test func destinationInvertsDistanceAndBearing() throws {
        for row in GeodesicTable.rows where row.category == "random" || row.category == "short" {
            let distance = SphericalEarth.distanceMeters(from: row.start, to: row.end)
            let bearing = SphericalEarth.initialBearing(from: row.start, to: row.end)
            #expect((0..<360).contains(bearing.degrees))
            let end = try SphericalEarth.destination(from: row.start, bearing: bearing, distanceMeters: distance)
            #expect(SphericalEarth.distanceMeters(from: end, to: row.end) < 1e-3, "\(row)")
        }
    }

    @Test func bearingKnownValues() throws {
        let origin = try GeoCoordinate(latitude: 0, longitude: 0)
        #expect(abs(SphericalEarth.initialBearing(from: origin, to: try GeoCoordinate(latitude: 0, longitude: 10)).degrees - 90) < 1e-12)
        #expect(abs(SphericalEarth.initialBearing(from: origin, to: try GeoCoordinate(latitude: -10, longitude: 0)).degrees - 180) < 1e-12)
        #expect(SphericalEarth.initialBearing(from: origin, to: try GeoCoordinate(latitude: 10, longitude: 0)).degrees == 0)
    }

    @Test func destinationRejectsNonFiniteInput() throws {
        let origin = try GeoCoordinate(latitude: 0, longitude: 0)
        let error = #expect(throws: GeodesyError.notFinite(parameter: "distanceMeters", value: .infinity)) {
            try SphericalEarth.destination(from: origin, bearing: .zero, distanceMeters: .infinity)
        }
        #expect(error?.description.contains("distanceMeters inf") == true)
    }
}
