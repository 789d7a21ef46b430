import Foundation
import Geodesy
import Imaging
import Testing
@testable import Reprojection

@Suite("Projection conventions (DESIGN §3)")
struct ViewProjectionTests {
    let width = 4096
    func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

    @Test("the view centre looking along the pose heading lands on the centre column, on the horizon")
    func centreColumn() throws {
        let camera = try ViewCamera(headingDegrees: 33, width: 100, height: 100)
        let p = ViewProjection(camera: camera, pose: PanoramaPose(headingDegrees: 33), panoramaWidth: width)
        let q = p.panoramaPixel(viewX: 50, viewY: 50)
        #expect(close(q.x, 2048) && close(q.y, 1024))
    }

    @Test("yaw grows to the right (clockwise); row 0 is the zenith side")
    func yawAndPitch() throws {
        let pose = PanoramaPose(headingDegrees: 0)
        for (heading, pitch, x, y) in [(90.0, 0.0, 3072.0, 1024.0), (270, 0, 1024, 1024), (0, 45, 2048, 512),
                                       (0, -45, 2048, 1536), (180, 0, 0, 1024)] {
            let camera = try ViewCamera(headingDegrees: heading, pitchDegrees: pitch, width: 100, height: 100)
            let q = ViewProjection(camera: camera, pose: pose, panoramaWidth: width).panoramaPixel(viewX: 50, viewY: 50)
            let dx = abs(q.x - x).truncatingRemainder(dividingBy: Double(width))
            #expect(min(dx, Double(width) - dx) < 1e-6 && close(q.y, y), "heading \(heading) pitch \(pitch): \(q)")
        }
        // Right of the view centre is further clockwise.
        let camera = try ViewCamera(headingDegrees: 0, width: 100, height: 100)
        let p = ViewProjection(camera: camera, pose: pose, panoramaWidth: width)
        #expect(p.panoramaPixel(viewX: 90, viewY: 50).x > 2048)
        #expect(p.panoramaPixel(viewX: 50, viewY: 10).y < 1024)
    }

    @Test("GPano pose pitch raises the image centre; positive roll dips the camera's right side")
    func poseAxes() {
        let pitched = ViewProjection.axes(of: PanoramaPose(headingDegrees: 90, pitchDegrees: 10))
        #expect(close(pitched.forward.up, sin(10 * .pi / 180)) && close(pitched.forward.east, cos(10 * .pi / 180)))
        let rolled = ViewProjection.axes(of: PanoramaPose(headingDegrees: 0, rollDegrees: 10))
        #expect(close(rolled.right.up, -sin(10 * .pi / 180)))
        #expect(close(rolled.forward.north, 1))
        // Orthonormal for an arbitrary pose.
        let a = ViewProjection.axes(of: PanoramaPose(headingDegrees: 123, pitchDegrees: -7, rollDegrees: 4))
        func dot(_ u: EastNorthUp, _ v: EastNorthUp) -> Double { u.east * v.east + u.north * v.north + u.up * v.up }
        #expect(close(dot(a.forward, a.right), 0) && close(dot(a.right, a.up), 0) && close(dot(a.forward, a.up), 0))
        #expect(close(dot(a.forward, a.forward), 1) && close(dot(a.up, a.up), 1))
    }

    @Test("pose is read from GPano metadata, missing fields are 0")
    func poseFromMetadata() {
        let pose = PanoramaPose(PanoramaMetadata(poseHeadingDegrees: 12, posePitchDegrees: 3))
        #expect(pose == PanoramaPose(headingDegrees: 12, pitchDegrees: 3, rollDegrees: 0))
    }

    @Test("view pixel → direction → panorama pixel → direction → view pixel round trips", arguments: [
        PanoramaPose(headingDegrees: 0), PanoramaPose(headingDegrees: 200, pitchDegrees: 5, rollDegrees: -3),
    ])
    func roundTrip(pose: PanoramaPose) throws {
        let camera = try ViewCamera(headingDegrees: 190, pitchDegrees: 20, fieldOfViewDegrees: 75, width: 320, height: 200)
        let p = ViewProjection(camera: camera, pose: pose, panoramaWidth: width)
        for (x, y) in [(0.5, 0.5), (160.0, 100.0), (319.5, 13.25), (7.0, 199.5)] {
            let q = p.panoramaPixel(viewX: x, viewY: y)
            let d = p.direction(panoramaX: q.x, panoramaY: q.y)
            let e = p.direction(viewX: x, viewY: y)
            #expect(close(d.east, e.east, 1e-9) && close(d.north, e.north, 1e-9) && close(d.up, e.up, 1e-9))
            let back = try #require(p.viewPixel(forDirection: d))
            #expect(close(back.x, x, 1e-6) && close(back.y, y, 1e-6))
        }
    }

    @Test("the pinhole model matches the simulator's PinholeCamera formulas (edge-to-edge FOV)")
    func edgeToEdgeFieldOfView() throws {
        let camera = try ViewCamera(headingDegrees: 0, fieldOfViewDegrees: 90, width: 200, height: 100)
        let p = ViewProjection(camera: camera, pose: .north, panoramaWidth: width)
        // The left edge of pixel 0 is 45° left of the heading; the right edge of the last pixel 45° right.
        #expect(close(p.panoramaPixel(viewX: 0, viewY: 50).x, 2048 - 512, 1e-6))
        #expect(close(p.panoramaPixel(viewX: 200, viewY: 50).x, 2048 + 512, 1e-6))
    }
}
