import Foundation
import Imaging
import Testing
import TestSupport

/// Real camera files as the cameras' software wrote them (Tests/LookAroundCLITests/Fixtures/real-photos):
/// indexed, then viewed, and compared with py360convert's e2p of the same file (an independent route).
@Suite struct RealPhotoCLITests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/real-photos")

    /// The two photos indexed into a temporary catalog: (catalog, index result).
    static let indexed = Result { () throws -> (catalog: String, result: ProcessResult) in
        let (root, photos) = try Lookaround.temporaryDirectory(withFolder: "photos", copying: ["d1.jpg", "crop.jpg"]
            .map { fixtures.appendingPathComponent($0) })
        let catalog = root.appendingPathComponent("c.sqlite").path
        return (catalog, try Lookaround.run(["index", photos.path, "--catalog", catalog]))
    }

    /// py360convert's view of `panorama` (RGB, 2:1) at `headingOffset` from its centre column, level.
    static func reference(_ panorama: RGB8Image, headingOffset: Double, fov: Double, width: Int, height: Int) throws -> RGB8Image {
        let folder = try Lookaround.temporaryDirectory()
        let input = folder.appendingPathComponent("pano.rgb"), output = folder.appendingPathComponent("view.rgb")
        try Data(panorama.components).write(to: input)
        // py360convert spans tan(fov/2) between the centres of the edge pixels, ours between their outer edges.
        let tanHalf = tan(fov * .pi / 360), w = Double(width), h = Double(height)
        let horizontal = 2 * atan(tanHalf * (w - 1) / w) * 180 / .pi, vertical = 2 * atan(tanHalf * (h - 1) / w) * 180 / .pi
        _ = try PeerScript.run(Lookaround.repository.appendingPathComponent("scripts/py360convert_e2p.py").path,
                               [input.path, "\(panorama.width)", "\(horizontal)", "\(vertical)", "\(headingOffset)", "0",
                                "\(width)", "\(height)", "bilinear", output.path])
        return RGB8Image(width: width, height: height, components: [UInt8](try Data(contentsOf: output)))
    }

    static func snapshot(_ scene: String, heading: Double, width: Int, height: Int) throws -> RGB8Image {
        let out = try Lookaround.temporaryDirectory().appendingPathComponent("\(scene).png").path
        let result = try Lookaround.run(["snapshot", "--catalog", try indexed.get().catalog, "--scene", scene, "--heading-degrees", "\(heading)",
                                         "--size", "\(width)x\(height)", "--fov-degrees", "90", "-o", out])
        #expect(result.exitCode == 0, "\(result.stderr)")
        return try PNGCodec.decodeRGB(try ImageFile.read(out))
    }

    /// The spread of an image's values: a view that is all one colour has none.
    static func spread(_ image: RGB8Image) -> Double {
        let values = image.components.map(Double.init)
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    @Test func aDownscaledPhotosphereIsIndexedWithItsGPanoScaledAndShowsThePicture() throws {
        let index = try Self.indexed.get().result
        #expect(index.exitCode == 0, "\(index.stdout)\(index.stderr)")
        #expect(index.stdout.contains("d1.jpg: GPano describes a 8704×4352 image but the file is 1024×512"), "\(index.stdout)")
        // Looking along the pose heading (67°) and 120° to its right.
        let photo = try JPEGCodec.decodeRGB(try ImageFile.read(Self.fixtures.appendingPathComponent("d1.jpg").path)).image
        for offset in [0.0, 120] {
            let ours = try Self.snapshot("d1", heading: 67 + offset, width: 320, height: 180)
            #expect(Self.spread(ours) > 20, "a picture, not one colour")
            let theirs = try Self.reference(photo, headingOffset: offset, fov: 90, width: 320, height: 180)
            let psnr = ImageMetrics.psnr(ours, theirs)
            print("d1 at +\(offset)°: PSNR \(String(format: "%.1f", psnr)) dB against py360convert")
            #expect(psnr > 38, "d1 at +\(offset)°: PSNR \(psnr) dB against py360convert")
        }
    }

    @Test func aCroppedBandShowsWhereItHasPixelsAndBlackElsewhere() throws {
        #expect(try Self.indexed.get().result.stdout.contains("crop.jpg: GPano describes a 15872×2606 image but the file is 128×21"))
        let band = try JPEGCodec.decodeRGB(try ImageFile.read(Self.fixtures.appendingPathComponent("crop.jpg").path)).image
        // The band in its place in the full 128×64 panorama (top 20), black elsewhere: the reference's input.
        var full = RGB8Image(width: 128, height: 64)
        for y in 0..<band.height { for x in 0..<128 { for c in 0..<3 { full[x, 20 + y, c] = band[x, y, c] } } }
        let ours = try Self.snapshot("crop", heading: 144, width: 160, height: 90)
        #expect(Self.spread(ours) > 20)
        let theirs = try Self.reference(full, headingOffset: 0, fov: 90, width: 160, height: 90)
        let psnr = ImageMetrics.psnr(ours, theirs)
        print("crop: PSNR \(String(format: "%.1f", psnr)) dB against py360convert")
        #expect(psnr > 36, "crop: PSNR \(psnr) dB against py360convert")
    }

    /// The GoPro Max sequence (16 MB, read from ../shared/data/real-photos beside the project): its compass
    /// headings, not the GPano placeholder, its capture order, and a walk along it.
    @Test func theGoProSequenceFacesItsCompassAndWalksInCaptureOrder() throws {
        let folder = Lookaround.repository.deletingLastPathComponent().appendingPathComponent("shared/data/real-photos/gopro-max-sequence")
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("1.jpg").path) else {
            try Test.cancel("skipped: the GoPro Max files are not at \(folder.path) (../shared/data/real-photos)")
        }
        let catalog = try Lookaround.temporaryDirectory().appendingPathComponent("gopro.sqlite").path
        let index = try Lookaround.run(["index", folder.path, "--catalog", catalog])
        #expect(index.exitCode == 0, "\(index.stderr)")
        #expect(index.stdout.contains("1.jpg: GPano PoseHeadingDegrees 0 is the placeholder the GoPro Max writes in every file"))
        // EXIF GPSImgDirection of the five files: 349.06°, 11.19°, 1.47°, 350.44°, 356.46°.
        for (k, expected) in [349.06, 11.19, 1.47, 350.44, 356.46].enumerated() {
            let scene = try #require(try JSONSerialization.jsonObject(with: Data(try Lookaround.run(
                ["scene", "--catalog", catalog, "--id", "\(k + 1)", "--json"]).stdout.utf8)) as? [String: Any])
            let panorama = (scene["panorama"] as? [String: Any]) ?? scene
            let heading = try #require(panorama["heading_degrees"] as? Double, "\(scene.keys)")
            #expect(abs(heading - expected) < 0.01 && panorama["heading_source"] as? String == "GPSImgDirection", "\(k + 1).jpg: \(heading)")
            #expect(panorama["sequence_index"] as? Int == k, "capture order")
        }
        let walk = try Lookaround.run(["walk", "--catalog", catalog, "--sequence", "gopro-max-sequence/GoPro Max", "--dry-run"])
        #expect(walk.exitCode == 0 && walk.stdout.contains("walk       5 panoramas"), "\(walk.stdout)\(walk.stderr)")
    }

    /// Two GoPro Max in one folder, as two riders' cards copied into one (../shared/data/real-photos: the
    /// walk 1.jpg…5.jpg by serial C3351324514062, GSAG2002.JPG by serial C3353424686268): two sequences,
    /// named by serial, the same on the next run, which reads nothing again.
    @Test func twoGoProMaxInOneFolderAreTwoSequences() throws {
        let shared = Lookaround.repository.deletingLastPathComponent().appendingPathComponent("shared/data/real-photos")
        let files = (1...5).map { "gopro-max-sequence/\($0).jpg" } + ["single-cameras/GSAG2002.JPG"]
        guard files.allSatisfy({ FileManager.default.fileExists(atPath: shared.appendingPathComponent($0).path) }) else {
            try Test.cancel("skipped: the GoPro Max files are not at \(shared.path) (../shared/data/real-photos)")
        }
        let root = try Lookaround.temporaryDirectory()
        let folder = root.appendingPathComponent("dcim")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for file in files {
            try FileManager.default.copyItem(at: shared.appendingPathComponent(file), to: folder.appendingPathComponent((file as NSString).lastPathComponent))
        }
        let catalog = root.appendingPathComponent("c.sqlite").path
        for run in 1...2 {
            let index = try Lookaround.run(["index", folder.path, "--catalog", catalog])
            #expect(index.exitCode == 0, "run \(run): \(index.stderr)")
            let counts = run == 1 ? "6 read, 0 unchanged" : "0 read, 6 unchanged"
            #expect(index.stdout.contains("panoramas   6 (6 files: \(counts), 0 failed)"), "run \(run): \(index.stdout)")
            #expect(index.stdout.contains("sequences   2,"), "run \(run): \(index.stdout)")
            let walk = try Lookaround.run(["walk", "--catalog", catalog, "--sequence", "dcim/GoPro Max (C3351324514062)", "--dry-run"])
            #expect(walk.exitCode == 0 && walk.stdout.contains("walk       5 panoramas"), "run \(run): \(walk.stdout)\(walk.stderr)")
            for (id, sequence) in [("1", "dcim/GoPro Max (C3351324514062)"), ("5", "dcim/GoPro Max (C3351324514062)"),
                                   ("GSAG2002", "dcim/GoPro Max (C3353424686268)")] {
                let scene = try #require(try JSONSerialization.jsonObject(with: Data(try Lookaround.run(
                    ["scene", "--catalog", catalog, "--id", id, "--json"]).stdout.utf8)) as? [String: Any])
                let panorama = (scene["panorama"] as? [String: Any]) ?? scene
                #expect(panorama["sequence_name"] as? String == sequence, "run \(run), \(id): \(panorama["sequence_name"] ?? "none")")
            }
        }
    }
}
