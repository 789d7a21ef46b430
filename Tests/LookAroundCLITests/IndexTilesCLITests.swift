import Foundation
import Imaging
import Testing
import TestSupport

/// End-to-end tests of `lookaround index --tiles` on copies of three shipped Helsinki panoramas.
@Suite struct IndexTilesCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let ids = ["aleksanterinkatu-000", "aleksanterinkatu-001", "aleksanterinkatu-002"]

    /// A fresh folder with `Panoramas/` holding the three panoramas with their depth, label and sidecar files.
    static func setUp() throws -> URL {
        let root = try Lookaround.temporaryDirectory()
        let panoramas = root.appendingPathComponent("Panoramas")
        try FileManager.default.createDirectory(at: panoramas, withIntermediateDirectories: true)
        let shipped = repository.appendingPathComponent("Panoramas/helsinki")
        for id in ids {
            for suffix in [".jpg", ".depth.png", ".labels.png", ".json"] {
                try FileManager.default.copyItem(at: shipped.appendingPathComponent(id + suffix),
                                                 to: panoramas.appendingPathComponent(id + suffix))
            }
        }
        return root
    }

    static func index(_ root: URL, _ extra: [String] = []) throws -> ProcessResult {
        try Lookaround.run(["index", "Panoramas", "--catalog", "catalog.sqlite", "--no-osm", "--tiles"] + extra, in: root)
    }

    static func tilesReport(_ result: ProcessResult) throws -> [String: Any] {
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        return try #require(report["tiles"] as? [String: Any])
    }

    static func tileFile(_ root: URL, _ id: String) -> String {
        root.appendingPathComponent("catalog.tiles/\(id).lktiles").path
    }

    static func modified(_ path: String) throws -> Date {
        try #require(try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)
    }

    @Test func makesThenKeepsThenRemakesTheChangedOneAndRemovesDroppedOnes() throws {
        let root = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        let first = try Self.index(root)
        #expect(first.exitCode == 0, "\(first.stderr)")
        // No terminal: plain progress lines (the last of each step), no bar redrawn with \r.
        #expect(!first.stderr.contains("\r"), "no progress bar without a terminal: \(first.stderr)")
        #expect(first.stderr.contains("index: 3/3 files, ") && first.stderr.contains("index --tiles: 3/3 tile files, "),
                "\(first.stderr)")
        #expect(first.stdout.contains("tiles       catalog.tiles\n"))
        #expect(first.stdout.contains("tile files  3 panoramas: 3 made, 0 up to date, 0 failed; 0 removed"), "\(first.stdout)")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("catalog.tiles").path).sorted()
        #expect(names == Self.ids.map { $0 + ".lktiles" })
        let stamps = try Self.ids.map { try Self.modified(Self.tileFile(root, $0)) }

        // Again: nothing to make, nothing rewritten.
        let second = try Self.index(root, ["--json"])
        #expect(second.exitCode == 0, "\(second.stderr)")
        let report = try Self.tilesReport(second)
        #expect(report["made"] as? Int == 0 && report["up_to_date"] as? Int == 3 && report["removed"] as? Int == 0)
        #expect((report["failures"] as? [Any])?.isEmpty == true)
        #expect(report["bytes_written"] as? Int == 0 && (report["total_bytes"] as? Int ?? 0) > 500_000)
        #expect(try Self.ids.map { try Self.modified(Self.tileFile(root, $0)) } == stamps)

        // A replaced JPEG: only its tile file is made again.
        let changed = root.appendingPathComponent("Panoramas/\(Self.ids[1]).jpg").path
        let later = try Self.modified(changed).addingTimeInterval(60)
        try FileManager.default.setAttributes([.modificationDate: later], ofItemAtPath: changed)
        let third = try Self.index(root, ["--json"])
        #expect(third.exitCode == 0, "\(third.stderr)")
        let remade = try Self.tilesReport(third)
        #expect(remade["made"] as? Int == 1 && remade["up_to_date"] as? Int == 2)
        let after = try Self.ids.map { try Self.modified(Self.tileFile(root, $0)) }
        #expect(after[0] == stamps[0] && after[2] == stamps[2] && after[1] != stamps[1])

        // A panorama removed from the folder: its tile file goes too.
        for suffix in [".jpg", ".depth.png", ".labels.png", ".json"] {
            try FileManager.default.removeItem(at: root.appendingPathComponent("Panoramas/\(Self.ids[2])\(suffix)"))
        }
        let fourth = try Self.index(root)
        #expect(fourth.exitCode == 0, "\(fourth.stderr)")
        #expect(fourth.stdout.contains("tile files  2 panoramas: 0 made, 2 up to date, 0 failed; 1 removed"), "\(fourth.stdout)")
        #expect(!FileManager.default.fileExists(atPath: Self.tileFile(root, Self.ids[2])))
        #expect(FileManager.default.fileExists(atPath: Self.tileFile(root, Self.ids[0])))
    }

    @Test func aCorruptJPEGIsListedWithItsReasonAndExits65() throws {
        let root = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        // Cut in half: its headers still read, but the scan is decoded at index time, so the file is
        // listed as damaged (not indexed, no tiles) instead of showing a grey view later.
        let broken = root.appendingPathComponent("Panoramas/\(Self.ids[1]).jpg")
        let bytes = try Data(contentsOf: broken)
        try bytes.prefix(bytes.count / 2).write(to: broken)
        let result = try Self.index(root)
        #expect(result.exitCode == 65)
        #expect(result.stdout.contains("panoramas   2 (3 files: 3 read, 0 unchanged, 1 failed)"), "\(result.stdout)")
        #expect(result.stdout.contains("failed      \(broken.path): damaged image data: truncated JPEG data"), "\(result.stdout)")
        #expect(result.stdout.contains("tile files  2 panoramas: 2 made, 0 up to date, 0 failed"), "\(result.stdout)")
        #expect(result.stderr.contains("error: 1 of 3 files could not be indexed (listed above)"), "\(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: Self.tileFile(root, Self.ids[0])))
        #expect(FileManager.default.fileExists(atPath: Self.tileFile(root, Self.ids[2])))
        #expect(!FileManager.default.fileExists(atPath: Self.tileFile(root, Self.ids[1])))
        let json = try Self.index(root, ["--json"])
        #expect(json.exitCode == 65)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let text = String(decoding: try JSONSerialization.data(withJSONObject: report), as: UTF8.self)
        #expect(text.contains("damaged image data") && text.contains(Self.ids[1]), "\(json.stdout)")
    }

    @Test func snapshotsWorkWhenTheTilesFolderCannotBeWritten() throws {
        let root = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: root) }
        // A plain file where the folder should be: nothing can be written there, even as root.
        try Data("not a folder".utf8).write(to: root.appendingPathComponent("catalog.tiles"))
        let indexed = try Lookaround.run(["index", "Panoramas", "--catalog", "catalog.sqlite", "--no-osm"], in: root)
        #expect(indexed.exitCode == 0, "\(indexed.stderr)")
        let output = root.appendingPathComponent("view.png").path
        let snapshot = try Lookaround.run(["snapshot", "--catalog", "catalog.sqlite", "--scene", Self.ids[0], "--size", "160x90",
                                           "--labels", "none", "-o", output], in: root)
        #expect(snapshot.exitCode == 0, "\(snapshot.stderr)")
        let image = try PNGCodec.decodeRGB(try ImageFile.read(output))
        #expect(image.width == 160 && image.height == 90)
        // With --tiles the failure is reported, not hidden: an output that cannot be created (exit 73).
        let tiles = try Self.index(root)
        #expect(tiles.exitCode == 73)
        #expect(tiles.stdout.contains("tile files  3 panoramas: 0 made, 0 up to date, 3 failed"), "\(tiles.stdout)")
        #expect(tiles.stdout.contains("cannot write \(root.path)/catalog.tiles/") || tiles.stdout.contains("cannot write catalog.tiles/"),
                "\(tiles.stdout)")
        // And a snapshot reads the tile files index --tiles made once the folder is there.
        try FileManager.default.removeItem(at: root.appendingPathComponent("catalog.tiles"))
        #expect(try Self.index(root).exitCode == 0)
        let stamp = try Self.modified(Self.tileFile(root, Self.ids[0]))
        let fromTiles = try Lookaround.run(["snapshot", "--catalog", "catalog.sqlite", "--scene", Self.ids[0], "--size", "160x90",
                                            "--labels", "none", "-o", output], in: root)
        #expect(fromTiles.exitCode == 0, "\(fromTiles.stderr)")
        #expect(try Self.modified(Self.tileFile(root, Self.ids[0])) == stamp, "the snapshot used the file as it was")
    }

    @Test func helpExplainsTileFiles() throws {
        let result = try Lookaround.run(["index", "--help"])
        #expect(result.exitCode == 0)
        #expect(result.stdout.contains("--tiles"))
        #expect(result.stdout.contains("Panoramas/catalog.tiles/ID.lktiles"))
        #expect(result.stdout.contains("decodes only the tiles it needs"))
    }
}
