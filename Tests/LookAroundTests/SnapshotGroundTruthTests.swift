import Catalog
import Foundation
import Geodesy
import Imaging
import LookAround
import Reprojection
import Simulator
import Testing
import TestSupport

/// DESIGN §7 ground truth: a snapshot reprojected from a simulated panorama must match the simulator's
/// own pinhole render of the same camera.
@Suite struct SnapshotGroundTruthTests {
    /// The least PSNR a view may have against the pinhole render, dB.
    static let minimumPSNR = 30.0
    /// Samples per pixel of the pinhole ground truth.
    static let truthSamplesPerPixel = 16

    /// Views whose resolution a 1024×512 panorama supports (about one source pixel per view pixel at the
    /// centre: 163 source pixels per radian against focal lengths of 128…166 pixels), looking along,
    /// across and against the street, up, down, straight up and down, and across the seam (capture
    /// heading + 180°). Offsets are from the capture heading; (pitch, fov, width, height).
    static let views: [(headingOffset: Double, pitch: Double, fov: Double, width: Int, height: Int)] = [
        (0, 0, 90, 232, 174), (90, 0, 90, 232, 174), (-90, 10, 90, 232, 174), (180, 0, 90, 232, 174),
        (175, -5, 60, 136, 102), (-170, 5, 60, 136, 102), (45, 45, 90, 232, 174), (200, 70, 90, 232, 174),
        (30, -40, 90, 232, 174), (120, -75, 90, 232, 174), (10, 90, 90, 232, 232), (250, -90, 90, 232, 232),
    ]

    @Test func snapshotsMatchThePinholeRender() async throws {
        let town = try TinyTown.shared.get()
        let capture = try #require(town.captures.first)
        let coordinate = try #require(capture.coordinate)
        let scene = try #require(try await LookAroundSceneRequest(coordinate: coordinate, catalog: town.catalog).scene)
        // 16 samples per pixel: at 4 the pinhole render itself is only ~31 dB from a 16-sample one on
        // the facade views (window edges alias), which would leave no room for the reprojection.
        let settings = try RenderSettings(samplesPerPixel: Self.truthSamplesPerPixel, sun: SolarPosition(date: capture.captureTime, coordinate: coordinate))
        var figures: [String] = []
        for view in Self.views {
            let heading = capture.headingDegrees + view.headingOffset
            let options = LookAroundSnapshotter.Options(
                size: PixelSize(width: view.width, height: view.height),
                camera: .init(headingDegrees: heading, pitchDegrees: view.pitch, fieldOfViewDegrees: view.fov),
                pointOfInterestFilter: .excludingAll, showsRoadLabels: false)
            // Without a catalog the JPEG is decoded at the view's level; with one, the view's tiles are
            // decoded from the tile file beside the catalog (made by the first snapshot).
            let direct = try await LookAroundSnapshotter(scene: scene, options: options, cache: PanoramaCache()).snapshot
            let tiled = try await LookAroundSnapshotter(scene: scene, options: options, cache: PanoramaCache(),
                                                        catalog: town.catalog).snapshot
            #expect(direct.panoramaLevel == 0 && tiled.panoramaLevel == 0)
            let truth = town.model.render(try PinholeCamera(position: capture.scenePosition, headingDegrees: heading,
                                                            pitchDegrees: view.pitch, fieldOfViewDegrees: view.fov,
                                                            width: view.width, height: view.height), settings: settings)
            let psnrDirect = ImageMetrics.psnr(direct.image, truth), psnrTiled = ImageMetrics.psnr(tiled.image, truth)
            figures.append("heading \(Int((heading + 360).truncatingRemainder(dividingBy: 360).rounded()))° pitch \(Int(view.pitch))° fov \(Int(view.fov))°: "
                           + String(format: "%.1f dB (from tiles %.1f dB)", psnrDirect, psnrTiled))
            for (snapshot, psnr) in [(direct, psnrDirect), (tiled, psnrTiled)] where psnr < Self.minimumPSNR {
                Issue.record("view heading \(heading)° pitch \(view.pitch)°: PSNR \(psnr) dB")
                let failures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("failures")
                try? FileManager.default.createDirectory(at: failures, withIntermediateDirectories: true)
                let name = "ground-truth-\(Int(heading.rounded()))-\(Int(view.pitch))" + (psnr == psnrTiled ? "-tiles" : "")
                try ImageFile.write(try PNGCodec.encode(snapshot.image), to: failures.appendingPathComponent("\(name)-snapshot.png").path)
                try ImageFile.write(try PNGCodec.encode(truth), to: failures.appendingPathComponent("\(name)-pinhole.png").path)
                try ImageFile.write(try PNGCodec.encode(ImageMetrics.diffImage(snapshot.image, truth)),
                                    to: failures.appendingPathComponent("\(name)-diff.png").path)
            }
        }
        print("snapshot vs pinhole PSNR:\n  " + figures.joined(separator: "\n  "))
    }
}
