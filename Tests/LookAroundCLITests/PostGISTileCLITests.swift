import Foundation
import Imaging
import Reprojection
import Testing
import TestSupport

/// Tile files with a PostGIS catalog live in `$LOOKAROUND_TILE_DIR` (the shared storage every machine
/// mounts), not beside a catalog file: `index --tiles` writes them there, and `snapshot` reads them from
/// there (it neither remakes them nor makes any in `Panoramas/catalog.tiles`).
@Suite(.serialized, .enabled(if: PostGISTestServer.url != nil, "\(PostGISTestServer.unavailableReason ?? "")"))
struct PostGISTileCLITests {
    @Test func tilesGoToAndAreReadFromTheTileDirectory() throws {
        let url = try PostGISTestServer.freshDatabase("tiles")
        defer { PostGISTestServer.drop(url) }
        let root = try Lookaround.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let folder = root.appendingPathComponent("Panoramas")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let width = 1024, height = 512
        var components = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height { for x in 0..<width {
            components[3 * (y * width + x)] = UInt8(truncatingIfNeeded: x)
            components[3 * (y * width + x) + 1] = UInt8(truncatingIfNeeded: y)
            components[3 * (y * width + x) + 2] = UInt8(truncatingIfNeeded: x ^ y)
        } }
        try Data(try JPEGCodec.encode(RGB8Image(width: width, height: height, components: components), quality: 85))
            .write(to: folder.appendingPathComponent("shared-000.jpg"))
        try Data(#"{"latitude": 60.1699, "longitude": 24.9523, "heading_degrees": 0, "capture_time": "2026-06-15T09:15:00Z"}"#.utf8)
            .write(to: folder.appendingPathComponent("shared-000.json"))
        let shared = root.appendingPathComponent("shared-tiles")
        let environment = ["LOOKAROUND_TILE_DIR": shared.path]

        let index = try Lookaround.run(["index", "Panoramas", "--catalog", url, "--no-osm", "--quiet", "--tiles"], in: root,
                                       environment: environment)
        #expect(index.exitCode == 0, "\(index.stdout)\(index.stderr)")
        let tileFile = shared.appendingPathComponent("shared-000.lktiles").path
        let made = try #require(try FileManager.default.attributesOfItem(atPath: tileFile)[.modificationDate] as? Date,
                                "no tile file in $LOOKAROUND_TILE_DIR: \(index.stdout)")
        let defaultFolder = root.appendingPathComponent("Panoramas/catalog.tiles").path
        #expect(!FileManager.default.fileExists(atPath: defaultFolder), "tiles went to Panoramas/catalog.tiles")

        // snapshot uses the file it finds there, as it is.
        let output = root.appendingPathComponent("view.png").path
        let snapshot = try Lookaround.run(["snapshot", "--catalog", url, "--scene", "shared-000", "--size", "160x90", "-o", output],
                                          in: root, environment: environment)
        #expect(snapshot.exitCode == 0, "\(snapshot.stderr)")
        #expect(FileManager.default.fileExists(atPath: output))
        #expect(try FileManager.default.attributesOfItem(atPath: tileFile)[.modificationDate] as? Date == made, "the tile file was remade")
        #expect(!FileManager.default.fileExists(atPath: defaultFolder), "snapshot made tiles in Panoramas/catalog.tiles")

        // Another tile directory: snapshot reads the file it finds there, and makes none where it finds none
        // (`index --tiles` and a server's background maker do). The file put there is current for the JPEG but
        // holds a plain red picture, so a red view proves it was read from there and not from the first folder.
        let other = root.appendingPathComponent("other-tiles")
        let bare = try Lookaround.run(["snapshot", "--catalog", url, "--scene", "shared-000", "--size", "160x90", "-o", output],
                                      in: root, environment: ["LOOKAROUND_TILE_DIR": other.path])
        #expect(bare.exitCode == 0, "\(bare.stderr)")
        #expect(!FileManager.default.fileExists(atPath: other.appendingPathComponent("shared-000.lktiles").path),
                "a one-off snapshot made a tile file")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        let red = RGB8Image(width: width, height: height,
                            components: (0..<width * height).flatMap { _ in [UInt8(220), 20, 20] })
        _ = try PanoramaTileFile.write(jpeg: try JPEGCodec.encode(red, quality: 90),
                                       source: folder.appendingPathComponent("shared-000.jpg").path,
                                       to: other.appendingPathComponent("shared-000.lktiles").path)
        let elsewhere = try Lookaround.run(["snapshot", "--catalog", url, "--scene", "shared-000", "--size", "160x90", "-o", output],
                                           in: root, environment: ["LOOKAROUND_TILE_DIR": other.path])
        #expect(elsewhere.exitCode == 0, "\(elsewhere.stderr)")
        let view = try PNGCodec.decodeRGB([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
        let centre = 3 * (view.width * view.height / 2 + view.width / 2)
        #expect(view.components[centre] > 180 && view.components[centre + 1] < 60,
                "the view's centre is \(view.components[centre...].prefix(3)), not the red of the file in $LOOKAROUND_TILE_DIR")
    }
}
