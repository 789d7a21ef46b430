import Foundation
import Geodesy
import Imaging
import Testing
@testable import Simulator

@Suite struct DepthTests {
    @Test func wallAtAKnownDistance() throws {
        let model = try TestScenes.wall(distanceMeters: 10)
        let eye = EastNorthUp(east: 0, north: 0, up: 2.5)
        // Pinhole looking north at the wall: depth along each ray = 10 / cos(angle off the wall normal).
        let camera = try PinholeCamera(position: eye, headingDegrees: 0, pitchDegrees: 0, fieldOfViewDegrees: 60, width: 32, height: 16)
        let maps = model.renderDepthAndLabels(camera)
        for (x, y) in [(16, 8), (0, 8), (31, 3), (20, 1)] {
            let d = camera.direction(pixelX: Double(x) + 0.5, pixelY: Double(y) + 0.5)
            let expected = 10 / d.north * 100   // centimetres
            let value = Double(maps.depth[x, y, 0])
            #expect(abs(value - expected) <= 1, "pixel (\(x), \(y)): \(value) cm, expected \(expected)")
            #expect(maps.labels[x, y, 0] == LabelClass.building.rawValue)
        }
        // Panorama: the centre column at the horizon row looks straight at the wall.
        let pano = try EquirectangularCamera(position: eye, headingDegrees: 0, width: 64)
        let p = model.renderDepthAndLabels(pano)
        #expect(abs(Int(p.depth[32, 15, 0]) - Int((10 / cos(2.8125 * Double.pi / 180) * 100).rounded())) <= 1)
        #expect(p.depth[32, 0, 0] == DepthEncoding.skyValue)          // zenith: sky
        #expect(p.labels[32, 0, 0] == LabelClass.sky.rawValue)
        #expect(p.labels[0, 31, 0] == LabelClass.ground.rawValue)      // below, behind: ground
        let hit = try #require(model.firstHit(from: eye, direction: EastNorthUp(east: 0, north: 1, up: 0)))
        #expect(abs(hit.distanceMeters - 10) < 1e-4)
    }

    @Test func noShadowAcneOnALitWall() throws {
        // The sun shines straight onto the wall's face: every pixel of it is lit, none self-shadowed.
        let model = try TestScenes.wall(distanceMeters: 30)
        let camera = try PinholeCamera(position: EastNorthUp(east: 0, north: 0, up: 5), headingDegrees: 0, pitchDegrees: 5,
                                       fieldOfViewDegrees: 40, width: 64, height: 32)
        let image = model.render(camera, settings: try RenderSettings(samplesPerPixel: 1, sun: SolarPosition(elevationDegrees: 20, azimuthDegrees: 180)))
        let maps = model.renderDepthAndLabels(camera)
        var values: [Int] = []
        for y in 0..<32 { for x in 0..<64 where maps.labels[x, y, 0] == LabelClass.building.rawValue { values.append(Int(image[x, y, 0])) } }
        #expect(values.count > 500)
        #expect((values.max() ?? 0) - (values.min() ?? 0) <= 3, "wall brightness \(values.min() ?? 0)…\(values.max() ?? 0)")
    }
}
