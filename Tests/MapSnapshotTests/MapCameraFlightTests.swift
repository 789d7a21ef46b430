import Foundation
import Geodesy
@testable import MapSnapshot
import Testing

@Suite struct MapCameraFlightTests {
    static func camera(_ lat: Double, _ lon: Double, _ distance: Double = 1500) -> MapCamera {
        try! MapCamera(centerCoordinate: GeoCoordinate(latitude: lat, longitude: lon), centerCoordinateDistanceMeters: distance)
    }

    @Test func kindsFollowTheThresholds() {
        let helsinki = Self.camera(60.1699, 24.9523)
        #expect(MapCameraFlight(from: helsinki, to: Self.camera(60.1630, 24.9400)).kind == .direct)      // ~1 km
        #expect(MapCameraFlight(from: helsinki, to: Self.camera(60.2055, 24.6559)).kind == .arc)         // Espoo, ~17 km
        #expect(MapCameraFlight(from: helsinki, to: Self.camera(59.4370, 24.7536)).kind == .longHaul)    // Tallinn, ~82 km
    }

    @Test func endsAreExactAndDirectHopsStayLow() throws {
        let a = Self.camera(60.1699, 24.9523), b = Self.camera(60.1630, 24.9400, 900)
        let flight = MapCameraFlight(from: a, to: b)
        let frames = try flight.cameras(frameCount: 12)
        #expect(frames.first == a && frames.last == b)
        #expect(frames.allSatisfy { $0.centerCoordinateDistanceMeters <= 1500 + 1e-6 })
        #expect(throws: MapSnapshotError.invalidFlight(detail: "frame count 1 is out of range; allowed 2…10000")) {
            try flight.cameras(frameCount: 1)
        }
    }

    @Test func arcsLiftHalfway() {
        let flight = MapCameraFlight(from: Self.camera(60.1699, 24.9523), to: Self.camera(60.2055, 24.6559))
        let mid = flight.camera(at: 0.5)
        #expect(abs(mid.centerCoordinateDistanceMeters - flight.peakDistanceMeters) < 1)
        #expect(flight.peakDistanceMeters > 2 * 16_000)
        #expect(flight.camera(at: 0.25).centerCoordinateDistanceMeters > 1500)
    }

    /// Tokyo → San Francisco crosses the Pacific (and the 180th meridian), not Eurasia.
    @Test func longHaulsFollowTheGreatCircleAcrossThePacific() {
        let flight = MapCameraFlight(from: Self.camera(35.68, 139.69), to: Self.camera(37.77, -122.42))
        #expect(flight.kind == .longHaul)
        let longitudes = stride(from: 0.0, through: 1, by: 0.05).map { flight.camera(at: $0).centerCoordinate.longitude }
        #expect(longitudes.allSatisfy { $0 > 139 || $0 < -122 })
        #expect(longitudes.contains { $0 > 170 } && longitudes.contains { $0 < -170 })
        let cruise = flight.camera(at: 0.5)
        #expect(cruise.centerCoordinateDistanceMeters == flight.peakDistanceMeters)
        #expect(cruise.centerCoordinate.latitude > 45)     // the great circle bows north, past the Aleutians
        // Rising in the first quarter, descending in the last.
        #expect(flight.camera(at: 0.1).centerCoordinateDistanceMeters < flight.camera(at: 0.2).centerCoordinateDistanceMeters)
        #expect(flight.camera(at: 0.9).centerCoordinateDistanceMeters < flight.camera(at: 0.8).centerCoordinateDistanceMeters)
    }
}
