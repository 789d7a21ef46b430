import Foundation
import Imaging
import Testing
@testable import Reprojection

@Suite("Tile files: decode only what a view needs")
struct PanoramaTileFileTests {
    /// A 1024×512 grid panorama written as a JPEG source and cut into 64-px tiles (levels 1024, 512,
    /// 256, 128, 64 wide).
    static func makeTiles(in folder: String) throws -> (file: PanoramaTileFile, full: PanoramaImage, source: String) {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let rgb = Fixtures.gridPanorama(width: 1024)
        let source = folder + "/pano.jpg"
        try Data(try JPEGCodec.encode(rgb, quality: 90)).write(to: URL(fileURLWithPath: source))
        let full = try PanoramaImage(rgb)
        let file = try PanoramaTileFile.write(full, source: source, to: folder + "/tiles/pano.lktiles", tileSize: 64)
        return (file, full, source)
    }

    static func temporaryFolder() -> String { NSTemporaryDirectory() + "lookaround-tiles-\(UUID().uuidString)" }

    @Test("levels go down to one tile's height; every tile decodes close to the panorama it was cut from")
    func roundTrip() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (file, full, source) = try Self.makeTiles(in: folder)
        #expect(file.levels.map(\.width) == [1024, 512, 256, 128])
        #expect(file.isCurrent(forSource: source))
        var image = file.blankImage(level: 0)
        try file.decodeTiles(Array(0..<file.tileCount(level: 0)), level: 0, into: &image)
        let psnr = ImageMetrics.psnr(image.rgbImage(), full.rgbImage())
        #expect(psnr > 38, "PSNR \(psnr) dB of the decoded tiles against the panorama")
        #expect(image.pixels.allSatisfy { $0 >> 24 == 0 }, "the fourth byte stays 0 (PanoramaImage layout)")
        var level2 = file.blankImage(level: 2)
        try file.decodeTiles(Array(0..<file.tileCount(level: 2)), level: 2, into: &level2)
        let expected = full.halved()!.halved()!
        #expect(ImageMetrics.psnr(level2.rgbImage(), expected.rgbImage()) > 35, "sharp grid lines at a quarter size")
    }

    @Test("a view rendered from only the tiles it needs equals the view rendered from the whole level",
          arguments: ViewRendererTests.cases)
    func coverageIsComplete(_ c: ViewRendererTests.Case) throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (file, _, _) = try Self.makeTiles(in: folder)
        let camera = try Fixtures.camera(c.heading, c.pitch, fov: c.fov, width: 160, height: 120)
        let level = file.level(for: camera)
        let needed = file.tiles(for: camera, pose: c.pose, level: level)
        var whole = file.blankImage(level: level), partial = whole
        try file.decodeTiles(Array(0..<file.tileCount(level: level)), level: level, into: &whole)
        try file.decodeTiles(needed, level: level, into: &partial)
        var renderer = try ViewRenderer()
        var a = RGB8Image(width: 160, height: 120), b = a
        try renderer.render(whole, camera: camera, pose: c.pose, into: &a)
        try renderer.render(partial, camera: camera, pose: c.pose, into: &b)
        #expect(a == b, "\(needed.count) of \(file.tileCount(level: level)) tiles at level \(level)")
        if c.fov <= 90 && abs(c.pitch) < 45 {
            #expect(needed.count < file.tileCount(level: level) / 2, "a narrow level view needs well under half the tiles")
        }
    }

    @Test("the cache adds only missing tiles and keeps what earlier views decoded")
    func cacheAddsTiles() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (file, _, _) = try Self.makeTiles(in: folder)
        let cache = PanoramaCache()
        let key = PanoramaCache.Key(identifier: "tiles:test", level: 0)
        let east = try Fixtures.camera(90, 0, width: 800, height: 600), west = try Fixtures.camera(270, 0, width: 800, height: 600)
        let eastTiles = file.tiles(for: east, pose: .north, level: 0), westTiles = file.tiles(for: west, pose: .north, level: 0)
        #expect(Set(eastTiles).isDisjoint(with: westTiles))
        _ = try cache.image(for: key, tiles: file, level: 0, needed: eastTiles)
        let both = try cache.image(for: key, tiles: file, level: 0, needed: westTiles)
        var reference = file.blankImage(level: 0)
        try file.decodeTiles(eastTiles + westTiles, level: 0, into: &reference)
        #expect(both == reference)
        #expect(cache.count == 1)
    }

    @Test("a changed source makes the file stale; damaged files are errors naming the file")
    func staleAndDamaged() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (file, _, source) = try Self.makeTiles(in: folder)
        try Data(try JPEGCodec.encode(Fixtures.gridPanorama(width: 512), quality: 80)).write(to: URL(fileURLWithPath: source))
        #expect(!file.isCurrent(forSource: source))
        var bytes = try Data(contentsOf: URL(fileURLWithPath: file.path))
        let truncated = folder + "/truncated.lktiles"
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: truncated))
        #expect { _ = try PanoramaTileFile(path: truncated) } throws: { error in
            guard case ReprojectionError.unreadablePanorama(let file, _) = error else { return false }
            return file == truncated
        }
        bytes[0] = UInt8(ascii: "X")
        let wrongMagic = folder + "/magic.lktiles"
        try bytes.write(to: URL(fileURLWithPath: wrongMagic))
        do {
            _ = try PanoramaTileFile(path: wrongMagic)
            Issue.record("a file with the wrong magic opened")
        } catch {
            #expect("\(error)".contains("magic.lktiles") && "\(error)".contains("not a tile file"))
        }
        let missing = folder + "/missing.lktiles"
        #expect(throws: ReprojectionError.unreadablePanorama(file: missing, reason: "no such tile file")) {
            _ = try PanoramaTileFile(path: missing)
        }
    }
}
