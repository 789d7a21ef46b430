import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Reprojection
import Simulator
import Testing

/// DESIGN §7: labels must land where the sign is.
@Suite struct PlaceLabelTests {
    /// How far (view pixels) a label's anchor may be from the simulator's sign centre.
    static let tolerancePixels = 3.0

    @Test func cafeLabelLandsOnItsSign() async throws {
        let town = try TinyTown.shared.get()
        let sign = try #require(town.model.signs.first { $0.text == "Café Test" })
        var checked = 0
        var worst = 0.0
        for capture in town.captures {
            let coordinate = try #require(capture.coordinate)
            let scene = try #require(try await LookAroundSceneRequest(coordinate: coordinate, catalog: town.catalog).scene)
            let toSign = EastNorthUp(east: sign.center.east - capture.scenePosition.east,
                                     north: sign.center.north - capture.scenePosition.north, up: 0)
            let heading = atan2(toSign.east, toSign.north) * 180 / .pi
            for offset in [0.0, 12, 25] {
                let camera = try ViewCamera(headingDegrees: heading + offset, pitchDegrees: 5, fieldOfViewDegrees: 90,
                                            width: 320, height: 240)
                let snapshotter = LookAroundSnapshotter(scene: scene)
                let labels = try snapshotter.placeLabels(for: camera, catalog: town.catalog)
                let pinhole = try PinholeCamera(position: capture.scenePosition, headingDegrees: camera.headingDegrees,
                                                pitchDegrees: 5, fieldOfViewDegrees: 90, width: 320, height: 240)
                let expected = try #require(pinhole.pixel(for: sign.center))
                guard let label = labels.first(where: { $0.name == "Café Test" }) else {
                    Issue.record("no café label from \(capture.id) at \(capture.scenePosition), heading \(camera.headingDegrees): \(labels), sign at \(expected)")
                    continue
                }
                let error = hypot(label.anchorX - expected.x, label.anchorY - expected.y)
                #expect(error <= Self.tolerancePixels,
                        "\(capture.id) heading \(camera.headingDegrees): label at \(label.anchorX), \(label.anchorY), sign at \(expected)")
                checked += 1
                worst = max(worst, error)
            }
        }
        #expect(checked >= 6)
        print("café label vs sign: \(checked) views, largest error \(String(format: "%.2f", worst)) px")
    }

    @Test func filterAndLanguage() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.first { abs($0.scenePosition.east) < 25 })
        let coordinate = try #require(capture.coordinate)
        let scene = try #require(try await LookAroundSceneRequest(coordinate: coordinate, catalog: town.catalog).scene)
        let camera = try ViewCamera(headingDegrees: 180, fieldOfViewDegrees: 120, width: 320, height: 240)
        var options = LookAroundSnapshotter.Options()
        options.language = "sv"
        let swedish = try LookAroundSnapshotter(scene: scene, options: options).placeLabels(for: camera, catalog: town.catalog)
        #expect(swedish.contains { $0.name == "Kafé Test" })
        options.pointOfInterestFilter = .excluding([.food])
        let noFood = try LookAroundSnapshotter(scene: scene, options: options).placeLabels(for: camera, catalog: town.catalog)
        #expect(!noFood.contains { $0.categoryGroup == "food" })
    }
}

extension PlaceLabelTests {
    @Test func snapshotDrawsItsLabelsAndNoneWhenExcluded() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.first { abs($0.scenePosition.east) < 25 })
        let coordinate = try #require(capture.coordinate)
        let scene = try #require(try await LookAroundSceneRequest(coordinate: coordinate, catalog: town.catalog).scene)
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: 320, height: 240))
        options.camera = .init(headingDegrees: 180, fieldOfViewDegrees: 100)
        let labelled = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
        #expect(labelled.labels.contains { $0.name == "Café Test" })
        options.pointOfInterestFilter = .excludingAll
        let plain = try await LookAroundSnapshotter(scene: scene, options: options, catalog: town.catalog).snapshot
        #expect(plain.labels.isEmpty)
        #expect(labelled.image != plain.image)
        // Only pixels around the labels change.
        let changed = ImageMetrics.differingPixelFraction(labelled.image, plain.image, threshold: 0)
        #expect(changed > 0 && changed < 0.1)
    }
}
