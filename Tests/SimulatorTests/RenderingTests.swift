import Foundation
import Geodesy
import Imaging
import Testing
@testable import Simulator

@Suite struct RenderingTests {
    static let sun = SolarPosition(elevationDegrees: 45, azimuthDegrees: 90)

    @Test func boxCastsAShadowAwayFromTheSun() throws {
        let model = try TestScenes.box()
        // Looking straight down from 30 m over the box's west side: the shadow falls west of it.
        let camera = try OrthographicCamera(minEast: -4, minNorth: -8, maxEast: 16, maxNorth: 8, width: 40, height: 32)
        let image = model.render(camera, settings: try RenderSettings(samplesPerPixel: 1, sun: Self.sun))
        func luma(_ east: Double, _ north: Double) -> Int {
            let p = camera.pixel(for: EastNorthUp(east: east, north: north, up: 0))
            let x = Int(p.x), y = Int(p.y)
            return (0..<3).map { Int(image[x, y, $0]) }.reduce(0, +)
        }
        let shadowed = luma(4, 0), open = luma(0, 6)
        #expect(shadowed * 3 < open * 2, "shadow \(shadowed) vs open ground \(open)")
    }

    @Test func sameSeedGivesIdenticalBytesOnAnyThreadCount() throws {
        let model = try TestScenes.box()
        let camera = try EquirectangularCamera(position: EastNorthUp(east: 0, north: 0, up: 2.5), headingDegrees: 80, width: 64)
        let a = model.render(camera, settings: try RenderSettings(samplesPerPixel: 4, seed: 7, sun: Self.sun))
        let b = model.render(camera, settings: try RenderSettings(samplesPerPixel: 4, seed: 7, sun: Self.sun, maximumThreads: 1))
        let c = model.render(camera, settings: try RenderSettings(samplesPerPixel: 4, seed: 8, sun: Self.sun))
        #expect(a.components == b.components)
        #expect(a.components != c.components)
    }

    @Test func topDownRenderOfAGeographicRegion() throws {
        let dataset = try TestScenes.town()
        let model = try CityModel(dataset: dataset, options: CityModelOptions(marginMeters: 20, includeSigns: false))
        let region = try #require(dataset.boundingBox)
        let image = try model.renderTopDown(region: region, width: 40, height: 40,
                                            settings: try RenderSettings(samplesPerPixel: 1, sun: Self.sun))
        #expect(image.width == 40 && image.height == 40)
        // The street runs east-west through the middle (north = 0); the roofs of the blocks are above and below it.
        let middle = Int(image[20, 20, 0]), roof = Int(image[20, 6, 0])
        #expect(middle != roof)
    }
}
