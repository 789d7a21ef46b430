import Foundation
import Geodesy
@testable import MapSnapshot
import Testing

@Suite struct MapCameraTests {
    @Test func codableRoundTripIsExact() throws {
        let camera = try MapCamera(centerCoordinate: MapTestFixtures.centre, centerCoordinateDistanceMeters: 1234.5678901,
                                   heading: .degrees(-33.3), pitch: MapCameraPitch(degrees: 47.123456789))
        let data = try JSONEncoder().encode(camera)
        let back = try JSONDecoder().decode(MapCamera.self, from: data)
        #expect(back == camera)
        #expect(back.heading.degrees == 326.7)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains("\"centerCoordinateDistanceMeters\""))
        #expect(text.contains("\"pitchDegrees\""))
    }

    @Test func halvingTheAltitudeZoomsInOneLevel() throws {
        let far = try MapCamera(centerCoordinate: MapTestFixtures.centre, altitudeMeters: 2000)
        let near = try MapCamera(centerCoordinate: MapTestFixtures.centre, altitudeMeters: 1000)
        let dz = near.zoomLevel(viewHeightPoints: 512) - far.zoomLevel(viewHeightPoints: 512)
        #expect(abs(dz - 1) < 1e-12)
    }

    @Test func pitchIsClampedByDistance() throws {
        #expect(MapCamera.maximumPitchDegrees(centerCoordinateDistanceMeters: 500) == 80)
        #expect(abs(MapCamera.maximumPitchDegrees(centerCoordinateDistanceMeters: 10_000) - 60) < 1e-9)
        #expect(MapCamera.maximumPitchDegrees(centerCoordinateDistanceMeters: 20_000_000) == 0)
        let camera = try MapCamera(centerCoordinate: MapTestFixtures.centre, centerCoordinateDistanceMeters: 100_000,
                                   pitch: MapCameraPitch(degrees: 75))
        #expect(abs(camera.pitch.degrees - 40) < 1e-9)
        #expect {
            try MapCamera(centerCoordinate: MapTestFixtures.centre, centerCoordinateDistanceMeters: .nan)
        } throws: { error in
            guard case MapSnapshotError.valueOutOfRange(let parameter, let value, _) = error else { return false }
            return parameter == "centerCoordinateDistanceMeters" && value.isNaN
        }
        #expect(throws: MapSnapshotError.valueOutOfRange(parameter: "pitchDegrees", value: 95,
                                                         allowed: "0…90 degrees from straight down")) {
            try MapCamera(centerCoordinate: MapTestFixtures.centre, centerCoordinateDistanceMeters: 100, pitch: MapCameraPitch(degrees: 95))
        }
    }

    @Test func lookingAtCenterFromEye() throws {
        let eye = try MapTestFixtures.centre.destination(azimuth: .degrees(200), distanceMeters: 500)
        let camera = try MapCamera(lookingAtCenter: MapTestFixtures.centre, fromEyeCoordinate: eye, eyeAltitude: 500)
        #expect(abs(camera.pitch.degrees - 45) < 1e-6)
        #expect(abs(camera.heading.degrees - 20) < 0.01)    // from the eye towards the centre (meridian convergence ≈ 0.003°)
        #expect(abs(camera.altitudeMeters - 500) < 1e-6)
        #expect(abs(camera.centerCoordinateDistanceMeters - 500 * 2.0.squareRoot()) < 1e-6)
    }

    @Test func errorMessagesNameValueRangeAndRemedy() {
        let message = MapSnapshotError.valueOutOfRange(parameter: "centerCoordinateDistanceMeters", value: -3, allowed: "1…200,000,000 metres").description
        #expect(message.contains("-3.0") && message.contains("1…200,000,000 metres") && message.contains("pass"))
        #expect(MapSnapshotError.malformedGeoJSON(file: "a.geojson", path: "features[1]", detail: "x").description
            .contains("a.geojson: GeoJSON at features[1]"))
    }
}
