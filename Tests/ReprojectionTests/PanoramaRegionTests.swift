import Foundation
import Imaging
import Testing
@testable import Reprojection

/// First views without tile files (only the region a view samples decoded) and tile files whose level 0
/// is the JPEG's own coefficients.
@Suite("Regions and lossless tiles")
struct PanoramaRegionTests {
    static let width = 2048

    /// The grid panorama as a 4:2:0 JPEG, and its whole decode at `level`.
    static let jpeg: [UInt8] = { (try? JPEGCodec.encode(Fixtures.gridPanorama(width: width), quality: 90)) ?? [] }()

    static func view(_ image: PanoramaImage, _ camera: ViewCamera, pose: PanoramaPose = PanoramaPose(headingDegrees: 0)) throws -> RGB8Image {
        var renderer = try ViewRenderer()
        var out = RGB8Image(width: camera.width, height: camera.height)
        try renderer.render(image, camera: camera, pose: pose, into: &out)
        return out
    }

    /// Views drawn from the region decode equal views drawn from the whole decode, exactly, across the
    /// seam, at a pole, pitched, zoomed, at every level; and the region is a fraction of the level.
    @Test(arguments: [(0.0, 0.0, 90.0), (75, 0, 90), (180, 0, 90), (200, 30, 60), (-170, -20, 100), (30, 80, 90), (270, -85, 90), (10, 0, 20)])
    func aRegionViewEqualsTheWholeView(_ c: (heading: Double, pitch: Double, fov: Double)) throws {
        let camera = try Fixtures.camera(c.heading, c.pitch, fov: c.fov, width: 320, height: 180)
        let pose = PanoramaPose(headingDegrees: 40, pitchDegrees: 3, rollDegrees: -2)
        for level in 0...2 {
            let w = Self.width >> level, h = w / 2
            let whole = try PanoramaDecoder.decode(Self.jpeg, level: level)
            let region = PanoramaRegion.needed(for: camera, pose: pose, width: w, height: h)
            let partial = try PanoramaDecoder.decodeRegion(Self.jpeg, level: level, region: region)
            let expected = try Self.view(whole, camera, pose: pose), actual = try Self.view(partial, camera, pose: pose)
            #expect(expected == actual, "\(c) level \(level): \(region): differs by up to \(ImageMetrics.maximumAbsoluteDifference(expected, actual))")
            if c.pitch == 0 && c.fov <= 90 && level == 0 {
                #expect(region.fraction < 0.35, "\(c): \(region) is \(region.fraction) of the level")
            }
            // The pixels decoded are the whole decode's.
            for y in stride(from: region.rows.lowerBound, to: region.rows.upperBound, by: 7) {
                for x in stride(from: region.columns?.lowerBound ?? 0, to: region.columns?.upperBound ?? w, by: 13) {
                    #expect(partial.pixels[y * w + x] == whole.pixels[y * w + x], "\(c) level \(level) at \(x),\(y)")
                }
            }
        }
    }

    @Test func regionsContainEachOther() throws {
        let pose = PanoramaPose(headingDegrees: 0)
        let small = PanoramaRegion.needed(for: try Fixtures.camera(75, 0, fov: 90), pose: pose, width: 2048, height: 1024)
        let slack = PanoramaRegion.needed(for: try Fixtures.camera(75, 0, fov: 90), pose: pose, width: 2048, height: 1024, slackFraction: 0.15)
        let turned = PanoramaRegion.needed(for: try Fixtures.camera(78, 1, fov: 90), pose: pose, width: 2048, height: 1024)
        #expect(slack.contains(small) && slack.contains(turned) && !small.contains(slack))
        let behind = PanoramaRegion.needed(for: try Fixtures.camera(255, 0, fov: 90), pose: pose, width: 2048, height: 1024)
        #expect(!slack.contains(behind))
        #expect(PanoramaRegion.whole(width: 2048, height: 1024).contains(behind))
        let seam = PanoramaRegion.needed(for: try Fixtures.camera(180, 0, fov: 90), pose: pose, width: 2048, height: 1024)
        #expect(seam.columns == nil, "across the seam: the whole width")
    }

    /// A truncated JPEG is an error for the region too (never a grey fill shown as the photo).
    @Test func aTruncatedJPEGIsRefused() throws {
        let cut = Array(Self.jpeg.prefix(Self.jpeg.count / 2))
        let region = PanoramaRegion.needed(for: try Fixtures.camera(0, -60, fov: 90), pose: PanoramaPose(headingDegrees: 0), width: 2048, height: 1024)
        #expect(throws: ReprojectionError.self) { try PanoramaDecoder.decodeRegion(cut, level: 0, region: region) }
        #expect(throws: ImagingError.self) { try JPEGCodec.losslessTiles(cut, tileSize: 256) }
    }

    /// A new temporary folder holding ``jpeg`` as `pano.jpg`, and that file's path. The caller removes the folder.
    static func folderWithTheJPEG() throws -> (folder: String, source: String) {
        let folder = PanoramaTileFileTests.temporaryFolder()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let source = folder + "/pano.jpg"
        try Data(jpeg).write(to: URL(fileURLWithPath: source))
        return (folder, source)
    }

    /// Level 0 cut from the JPEG is the JPEG's own pixels (but for the chroma upsampling at tile edges):
    /// the tile file of a 4:2:0 photo costs about a third more than the photo, not three times.
    @Test func levelZeroIsTheSourceItself() throws {
        let (folder, source) = try Self.folderWithTheJPEG()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = try #require(try PanoramaTileFile.write(jpeg: Self.jpeg, source: source, to: folder + "/pano.lktiles"))
        #expect(file.levels.map(\.width) == [2048, 1024, 512])
        let whole = try PanoramaDecoder.decode(Self.jpeg, level: 0)
        var image = file.blankImage(level: 0)
        try file.decodeTiles(Array(0..<file.tileCount(level: 0)), level: 0, into: &image)
        var inner = 0, edge = 0
        for y in 0..<1024 {
            for x in 0..<2048 where image.pixels[y * 2048 + x] != whole.pixels[y * 2048 + x] {
                let nearEdge = x % 256 < 2 || x % 256 > 253 || y % 256 < 2 || y % 256 > 253
                if nearEdge { edge += 1 } else { inner += 1 }
            }
        }
        #expect(inner == 0, "\(inner) pixels inside the tiles differ from the JPEG's")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        let ratio = Double(bytes) / Double(Self.jpeg.count)
        #expect(ratio < 1.45, "tile file \(bytes) bytes for a \(Self.jpeg.count)-byte JPEG: \(ratio)×")
        // Halved levels from the half-scale decode: close to the area-filtered halving.
        var half = file.blankImage(level: 1)
        try file.decodeTiles(Array(0..<file.tileCount(level: 1)), level: 1, into: &half)
        let reference = try #require(whole.halved())
        #expect(ImageMetrics.psnr(half.rgbImage(), reference.rgbImage()) > 30)
    }

    /// A server's cache makes the missing tile file in the background, once.
    @Test func theMakerMakesMissingFilesOnce() throws {
        let (folder, source) = try Self.folderWithTheJPEG()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = PanoramaTileStore(catalogPath: folder + "/catalog.sqlite")
        let maker = PanoramaTileMaker()
        for _ in 0..<5 { maker.request(store: store, panoramaID: "pano", source: source, crop: nil) }
        let deadline = Date().addingTimeInterval(60)
        while maker.isBusy && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        #expect(!maker.isBusy && maker.madeCount == 1)
        #expect(store.currentFile(panoramaID: "pano", source: source) != nil)
    }
}
