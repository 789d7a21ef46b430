import Foundation
import Imaging
import Testing
import TestSupport
@testable import Reprojection

/// Cross-check against py360convert's `e2p` (PyPI `py360convert`, an independent implementation).
/// Cancelled — reported as skipped, with the reason — when python3 or py360convert is missing.
///
/// Convention mapping (also in the module docs, "Projection"):
/// - `u_deg` = view heading − pose heading, in (−180, 180] (its 0 is the centre column, + is right);
/// - `v_deg` = view pitch (+ up);
/// - `fov_deg` = (h, v) with h = 2·atan(tan(fov/2)·(w − 1)/w) and v = 2·atan(tan(fov/2)·(h − 1)/w):
///   py360convert spans tan(fov/2) between the *centres* of the first and last pixels
///   (`linspace(-tan, tan, w)`), ours between their outer edges;
/// - `out_hw` = (height, width); `in_rot_deg` = 0 (our views have no roll; a pose roll has no e2p
///   equivalent, so the test uses level panoramas); `mode` = "bilinear" (cv2.remap, 1/32 px maps).
@Suite("Cross-check with py360convert e2p")
struct Py360ConvertTests {
    static func e2p(_ panorama: RGB8Image, camera: ViewCamera, poseHeadingDegrees: Double) throws -> RGB8Image {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reproj-py360-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("pano.rgb"), output = directory.appendingPathComponent("view.rgb")
        try Data(panorama.components).write(to: input)
        let tanHalf = tan(camera.fieldOfViewDegrees * .pi / 360)
        let w = Double(camera.width), h = Double(camera.height)
        let horizontal = 2 * atan(tanHalf * (w - 1) / w) * 180 / .pi
        let vertical = 2 * atan(tanHalf * (h - 1) / w) * 180 / .pi
        var u = (camera.headingDegrees - poseHeadingDegrees).remainder(dividingBy: 360)
        if u == -180 { u = 180 }
        _ = try PeerScript.run(Fixtures.packageRoot.appendingPathComponent("scripts/py360convert_e2p.py").path,
                               [input.path, "\(panorama.width)", "\(horizontal)", "\(vertical)", "\(u)",
                                "\(camera.pitchDegrees)", "\(camera.width)", "\(camera.height)", "bilinear", output.path])
        return RGB8Image(width: camera.width, height: camera.height, components: [UInt8](try Data(contentsOf: output)))
    }

    @Test("mean absolute difference ≤ 1.5 grey levels (seam, up, down, narrow and wide)", arguments: [
        (0.0, 0.0, 90.0), (90, 20, 60), (180, 0, 90), (250, -30, 100), (45, 45, 75), (317, -10, 20),
    ])
    func matchesE2P(heading: Double, pitch: Double, fov: Double) throws {
        let image = Fixtures.gridPanorama(width: 1024)
        let poseHeading = 30.0
        let camera = try Fixtures.camera(heading + poseHeading, pitch, fov: fov, width: 200, height: 150)
        let theirs = try Self.e2p(image, camera: camera, poseHeadingDegrees: poseHeading)
        var renderer = try ViewRenderer()
        var ours = RGB8Image(width: 200, height: 150)
        try renderer.render(try PanoramaImage(image), camera: camera, pose: PanoramaPose(headingDegrees: poseHeading), into: &ours)
        let d = Fixtures.difference(ours, theirs)
        // Measured (py360convert 1.0.4, OpenCV 4.x): mean 0.12…0.22, maximum 3…7 grey levels.
        #expect(d.mean <= Fixtures.py360convertMeanDifferenceGreyLevels, "mean \(d.mean), max \(d.maximum)")
    }
}
