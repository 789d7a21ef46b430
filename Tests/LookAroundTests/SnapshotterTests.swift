import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Reprojection
import Testing
import TestSupport

@Suite struct SnapshotterTests {
    var town: TinyTown { get throws { try TinyTown.shared.get() } }

    func scene(east: Double, north: Double) async throws -> LookAroundScene {
        let town = try town
        return try #require(try await LookAroundSceneRequest(coordinate: try town.coordinate(east: east, north: north),
                                                             catalog: town.catalog).scene)
    }

    @Test func snapshotHasTheRequestedSizeAndReportsWhatItRendered() async throws {
        let town = try town
        #expect(town.captures.count >= 2)
        let scene = try await scene(east: 0, north: 0)
        var options = LookAroundSnapshotter.Options(size: PixelSize(width: 320, height: 200))
        options.camera = .init(headingDegrees: 370, pitchDegrees: 5, fieldOfViewDegrees: 80)
        let snapshot = try await LookAroundSnapshotter(scene: scene, options: options).snapshot
        #expect(snapshot.image.width == 320 && snapshot.image.height == 200)
        #expect(abs(snapshot.headingDegrees - 10) < 1e-9)
        #expect(snapshot.pitchDegrees == 5 && snapshot.fieldOfViewDegrees == 80)
        #expect(snapshot.panoramaID.contains("testikatu"))
        #expect(snapshot.distanceMeters < 25)
        // The same view reprojected by hand from the panorama: the snapshot is that picture, not just
        // any picture (a blank or shifted one fails).
        let panorama = try PanoramaImage(try ImageDecoder.readRGB(path: scene.match.imagePath))
        let pose = PanoramaPose(headingDegrees: scene.match.headingDegrees, pitchDegrees: scene.match.pitchDegrees,
                                rollDegrees: scene.match.rollDegrees)
        let expected = ReferenceRenderer.render(panorama, camera: try ViewCamera(headingDegrees: 10, pitchDegrees: 5, fieldOfViewDegrees: 80,
                                                                                 width: 320, height: 200), pose: pose)
        let psnr = ImageMetrics.psnr(snapshot.image, expected)
        #expect(psnr > 35, "PSNR \(psnr) dB against the panorama reprojected by the reference renderer")
        // And it has content: the sky at the top is brighter than the street at the bottom.
        let top = snapshot.image.components[0..<(320 * 3 * 10)].reduce(0) { $0 + Int($1) }
        let bottom = snapshot.image.components[(320 * 3 * 190)...].reduce(0) { $0 + Int($1) }
        #expect(top > bottom + 320 * 3 * 10 * 20, "top \(top), bottom \(bottom)")
    }

    @Test func defaultHeadingLooksAtTheRequestedCoordinate() async throws {
        let town = try town
        // A point 4 m north of the street (on the sidewalk): the panorama is south of it, so look north.
        let capture = try #require(town.captures.first)
        let scene = try await scene(east: capture.scenePosition.east, north: capture.scenePosition.north + 4)
        #expect(abs(LookAroundSnapshotter.defaultHeadingDegrees(for: scene) - 0) < 0.5
                || abs(LookAroundSnapshotter.defaultHeadingDegrees(for: scene) - 360) < 0.5)
        // At the panorama's own position: the capture heading.
        let own = try await self.scene(east: capture.scenePosition.east, north: capture.scenePosition.north)
        #expect(abs(LookAroundSnapshotter.defaultHeadingDegrees(for: own) - capture.headingDegrees) < 1e-6)
        let snapshot = try await LookAroundSnapshotter(scene: own, options: .init(size: PixelSize(width: 64, height: 32))).snapshot
        #expect(abs(snapshot.headingDegrees - capture.headingDegrees) < 1e-6)
    }

    @Test func badCameraNamesTheValueAndRange() async throws {
        let scene = try await scene(east: 0, north: 0)
        var options = LookAroundSnapshotter.Options()
        options.camera.fieldOfViewDegrees = 150
        await #expect(throws: ReprojectionError.invalidParameter(name: "field of view", value: "150.0°",
                                                                 allowed: "10…120 degrees (horizontal)")) {
            try await LookAroundSnapshotter(scene: scene, options: options).snapshot
        }
        options = LookAroundSnapshotter.Options(size: PixelSize(width: 0, height: 10))
        await #expect(throws: ReprojectionError.invalidParameter(name: "view size", value: "0x10",
                                                                 allowed: "at least 1x1 pixels")) {
            try await LookAroundSnapshotter(scene: scene, options: options).snapshot
        }
    }

    @Test func decodedLevelIsCachedAndReused() async throws {
        let scene = try await scene(east: 20, north: 0)
        let cache = PanoramaCache(capacityBytes: 64 << 20)
        let small = LookAroundSnapshotter.Options(size: PixelSize(width: 160, height: 90))
        let first = try await LookAroundSnapshotter(scene: scene, options: small, cache: cache).snapshot
        #expect(first.panoramaLevel >= 1)  // 160 px at 90° needs far fewer than 1024 source pixels
        #expect(cache.count == 1)
        let second = try await LookAroundSnapshotter(scene: scene, options: small, cache: cache).snapshot
        #expect(cache.count == 1)
        #expect(first.image == second.image)
    }
}
