import Foundation
import Geodesy
import Testing
@testable import Simulator

@Suite struct CameraTests {
    let origin = EastNorthUp(east: 0, north: 0, up: 2.5)

    func close(_ a: EastNorthUp, _ b: EastNorthUp, _ tolerance: Double = 1e-9) -> Bool {
        abs(a.east - b.east) < tolerance && abs(a.north - b.north) < tolerance && abs(a.up - b.up) < tolerance
    }

    @Test func equirectangularCentreColumnFacesTheHeadingAndYawGrowsToTheRight() throws {
        let camera = try EquirectangularCamera(position: origin, headingDegrees: 30, width: 64)
        let centre = camera.direction(pixelX: 32, pixelY: 16)
        #expect(close(centre, EastNorthUp(east: sin(30 * .pi / 180), north: cos(30 * .pi / 180), up: 0)))
        // A quarter of the width to the right is 90° clockwise.
        let right = camera.direction(pixelX: 48, pixelY: 16)
        #expect(close(right, EastNorthUp(east: sin(120 * .pi / 180), north: cos(120 * .pi / 180), up: 0)))
    }

    @Test func equirectangularSeamAndPoles() throws {
        let camera = try EquirectangularCamera(position: origin, headingDegrees: 0, width: 64)
        // x = 0 and x = width are the same direction (behind the camera): no seam in the mapping.
        #expect(close(camera.direction(pixelX: 0, pixelY: 10), camera.direction(pixelX: 64, pixelY: 10), 1e-12))
        #expect(close(camera.direction(pixelX: 0, pixelY: 16), EastNorthUp(east: 0, north: -1, up: 0), 1e-12))
        // Row 0's top edge is the zenith, the bottom edge the nadir, for every column.
        for x in stride(from: 0.0, through: 64, by: 8) {
            #expect(close(camera.direction(pixelX: x, pixelY: 0), EastNorthUp(east: 0, north: 0, up: 1), 1e-12))
            #expect(close(camera.direction(pixelX: x, pixelY: 32), EastNorthUp(east: 0, north: 0, up: -1), 1e-12))
        }
        // Round trips, including pixels next to the seam.
        for (x, y) in [(0.5, 0.5), (63.5, 31.5), (31.5, 16.0), (0.001, 7.25), (63.999, 20.5)] {
            let p = camera.pixel(forDirection: camera.direction(pixelX: x, pixelY: y))
            #expect(abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9, "(\(x), \(y)) → \(p)")
        }
    }

    @Test func theRayTracersRaysFollowTheSharedFrame() throws {
        // sceneRay is the frame's mapping in Float: the pictures and their readers must agree.
        // Level cameras (the fast path), and tilted ones (a photo's pose, for its derived maps).
        for (heading, pitch, roll) in [(0.0, 0.0, 0.0), (37.5, 0, 0), (181, 0, 0), (359.9, 0, 0), (37.5, 4, -3), (200, -10, 25)] {
            let camera = try EquirectangularCamera(position: origin, headingDegrees: heading, pitchDegrees: pitch, rollDegrees: roll, width: 256)
            for (x, y) in [(0.5, 0.5), (128.0, 64.0), (255.5, 100.25), (17.0, 127.5), (200.0, 3.0)] {
                let ray = camera.sceneRay(x: Float(x), y: Float(y)).direction
                let shared = camera.frame.direction(u: x / 256, v: y / 128)
                let got = EastNorthUp(east: Double(ray.east), north: Double(ray.north), up: Double(ray.up))
                #expect(close(got, shared, 1e-5), "pose \(heading)/\(pitch)/\(roll), pixel (\(x), \(y)): \(got) vs \(shared)")
                if pitch != 0 { #expect(!close(got, EquirectangularFrame(headingDegrees: heading).direction(u: x / 256, v: y / 128), 1e-3)) }
            }
        }
    }

    @Test func equirectangularRenderHasNoSeamAndUniformPoles() throws {
        let model = try TestScenes.box()
        let camera = try EquirectangularCamera(position: origin, headingDegrees: 90, width: 128)
        let image = model.render(camera, settings: try RenderSettings(samplesPerPixel: 4, sun: SolarPosition(elevationDegrees: 40, azimuthDegrees: 200)))
        // The first and last columns look in nearly the same direction: they must match closely.
        var seam = 0, neighbours = 0
        for y in 0..<64 {
            for c in 0..<3 {
                seam = max(seam, abs(Int(image[0, y, c]) - Int(image[127, y, c])))
                neighbours = max(neighbours, abs(Int(image[60, y, c]) - Int(image[61, y, c])))
            }
        }
        #expect(seam <= max(12, neighbours), "seam difference \(seam), neighbouring columns \(neighbours)")
        // The top row is all sky near the zenith: nearly one colour.
        let top = (0..<128).map { Int(image[$0, 0, 2]) }
        #expect((top.max() ?? 0) - (top.min() ?? 0) <= 2)
        let bottom = (0..<128).map { Int(image[$0, 63, 1]) }
        #expect((bottom.max() ?? 0) - (bottom.min() ?? 0) <= 24)   // ground texture, no holes
    }

    @Test func pinholeConventions() throws {
        let camera = try PinholeCamera(position: origin, headingDegrees: 90, pitchDegrees: 0, fieldOfViewDegrees: 90, width: 200, height: 100)
        #expect(close(camera.direction(pixelX: 100, pixelY: 50), EastNorthUp(east: 1, north: 0, up: 0), 1e-12))
        // Horizontal FOV edge to edge: x = 0 is 45° left (north-east), x = width 45° right (south-east).
        let left = camera.direction(pixelX: 0, pixelY: 50)
        #expect(close(left, EastNorthUp(east: 0.5.squareRoot(), north: 0.5.squareRoot(), up: 0), 1e-12))
        // y = 0 is up.
        #expect(camera.direction(pixelX: 100, pixelY: 0).up > 0)
        // pixel(for:) inverts direction().
        for (x, y) in [(0.5, 0.5), (199.5, 99.5), (100, 50), (37.25, 81.0)] {
            let d = camera.direction(pixelX: x, pixelY: y)
            let p = try #require(camera.pixel(for: EastNorthUp(east: origin.east + 7 * d.east, north: origin.north + 7 * d.north, up: origin.up + 7 * d.up)))
            #expect(abs(p.x - x) < 1e-9 && abs(p.y - y) < 1e-9)
        }
        #expect(camera.pixel(for: EastNorthUp(east: -5, north: 0, up: 2.5)) == nil)   // behind
        let up = try PinholeCamera(position: origin, headingDegrees: 0, pitchDegrees: 30, fieldOfViewDegrees: 60, width: 10, height: 10)
        #expect(close(up.direction(pixelX: 5, pixelY: 5), EastNorthUp(east: 0, north: cos(.pi / 6), up: 0.5), 1e-12))
    }

    @Test func invalidParametersAreErrors() {
        #expect(throws: SimulatorError.invalidParameter(name: "panorama width", value: "63",
                                                        allowed: "even, 2…65536 (height = width / 2)")) {
            try EquirectangularCamera(position: origin, headingDegrees: 0, width: 63)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "field of view", value: "180.0°",
                                                        allowed: "1…179 degrees (horizontal)")) {
            try PinholeCamera(position: origin, headingDegrees: 0, pitchDegrees: 0, fieldOfViewDegrees: 180,
                              width: 10, height: 10)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "pitch", value: "91.0°",
                                                        allowed: "-90…90 degrees (0 = horizon, +90 = up)")) {
            try PinholeCamera(position: origin, headingDegrees: 0, pitchDegrees: 91, fieldOfViewDegrees: 60,
                              width: 10, height: 10)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "samples per pixel", value: "0", allowed: "1…256")) {
            try RenderSettings(samplesPerPixel: 0, sun: SolarPosition(elevationDegrees: 1, azimuthDegrees: 1))
        }
        #expect(throws: SimulatorError.invalidParameter(name: "exposure", value: "20.0", allowed: "0.1…10")) {
            try RenderSettings(sun: SolarPosition(elevationDegrees: 1, azimuthDegrees: 1), exposure: 20)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "spacing", value: "0.5 m", allowed: "1…1000 m")) {
            try CapturePlanner(spacingMeters: 0.5, startTime: Date(timeIntervalSince1970: 0), imageWidth: 64, depthWidth: 64)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "camera height", value: "nan m", allowed: "0.1…100 m")) {
            try CapturePlanner(cameraHeightMeters: .nan, startTime: Date(timeIntervalSince1970: 0), imageWidth: 64, depthWidth: 64)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "tile size", value: "200000.0 m", allowed: "10…100000 m")) {
            try CaptureTiling(tileMeters: 200_000)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "horizon", value: "-1.0 m", allowed: "0…5000 m")) {
            try CaptureTiling(horizonMeters: -1)
        }
        #expect(throws: SimulatorError.invalidParameter(name: "rectangle", value: "1.0,0.0 – 1.0,1.0",
                                                        allowed: "finite metres with max > min on both axes")) {
            try OrthographicCamera(minEast: 1, minNorth: 0, maxEast: 1, maxNorth: 1, width: 1, height: 1)
        }
    }
}
